"""Finding the reference solutions, which are not part of the participant install.

The solutions live in one file, ``ipt_solutions.py`` (a dict ``SOLUTIONS`` of code strings),
kept in the course repository under ``instructor/``, outside the ``inplace_tutorial`` package:
a wheel or a participant kit built from the package never contains them, and ``check()``
never needs them (every checker computes its truth on the core). An instructor hands the file
out when the class is ready; ``solution()`` looks for it, in this order:

1. the path in ``IPT_SOLUTIONS``;
2. ``ipt_solutions.py`` in the current folder (a notebook runs in its own folder, so saving
   the file next to the notebooks is enough);
3. ``instructor/ipt_solutions.py`` of a source checkout of the course (self-study from a clone).
"""
from __future__ import annotations

import os
from pathlib import Path

ENV = "IPT_SOLUTIONS"
FILE_NAME = "ipt_solutions.py"
CHECKOUT_FILE = Path(__file__).resolve().parents[2] / "instructor" / FILE_NAME

WHERE_TO_GET = (
    f"The reference solutions are not part of the participant install. Ask your instructor "
    f"for {FILE_NAME} and save it next to the notebooks (or set {ENV}=/path/to/{FILE_NAME}); "
    f"self-study from a clone of the course finds it in instructor/{FILE_NAME}. Until then, "
    f"hint(...) gives nudges in steps, and check(...) works without the solutions."
)


def find() -> Path | None:
    """The solutions file to use, or None when this install has none."""
    if os.environ.get(ENV):
        path = Path(os.environ[ENV]).expanduser()
        return path if path.is_file() else None
    for path in (Path.cwd() / FILE_NAME, CHECKOUT_FILE):
        if path.is_file():
            return path
    return None


def load(path: Path | str | None = None) -> dict[str, str] | None:
    """The ``SOLUTIONS`` dict of ``path`` (default: ``find()``), or None if there is none."""
    path = find() if path is None else Path(path)
    if path is None:
        return None
    namespace: dict = {}
    exec(compile(Path(path).read_text(encoding="utf-8"), str(path), "exec"), namespace)
    solutions = namespace.get("SOLUTIONS")
    return solutions if isinstance(solutions, dict) else None
