"""Run every benchmark module ``benchmarks/bench_*.py``.

Each module must define ``main()``. If ``main()`` returns something (a dict, a list of rows, a
string), it is printed; a module may also print its own table. Usage::

    python benchmarks/run_all.py            # all modules
    python benchmarks/run_all.py views      # only modules whose name contains "views"
"""

from __future__ import annotations

import importlib.util
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent


def discover(filters: list[str]) -> list[Path]:
    paths = sorted(HERE.glob("bench_*.py"))
    if filters:
        paths = [p for p in paths if any(f in p.stem for f in filters)]
    return paths


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"benchmarks.{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def show(result) -> None:
    if result is None:
        return
    if isinstance(result, dict):
        width = max((len(str(k)) for k in result), default=0)
        for key, value in result.items():
            print(f"  {str(key):<{width}}  {value}")
    elif isinstance(result, (list, tuple)):
        for row in result:
            print(f"  {row}")
    else:
        print(f"  {result}")


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


def main(argv: list[str] | None = None) -> int:
    filters = list(sys.argv[1:] if argv is None else argv)
    paths = discover(filters)
    if not paths:
        print(f"no benchmarks found (no benchmarks/bench_*.py in {HERE})")
        return 0
    sys.path.insert(0, str(HERE))
    # Modules pin PyTorch to one thread for their comparisons; the thread count is process-wide,
    # so one that forgets to restore it would make the next module's "default threads" column
    # a one-thread run. Read the default once, before any module, and restore it after each.
    torch = _torch()
    default_threads = torch.get_num_threads() if torch else 0
    failed = []
    for path in paths:
        print(f"== {path.stem}")
        start = time.perf_counter()
        try:
            module = load(path)
            if not callable(getattr(module, "main", None)):
                raise AttributeError(f"{path.name} has no main()")
            show(module.main())
        except Exception:
            traceback.print_exc()
            failed.append(path.stem)
        finally:
            if torch:
                torch.set_num_threads(default_threads)
        print(f"   ({time.perf_counter() - start:.2f} s)")
    if failed:
        print(f"FAILED: {', '.join(failed)}")
        return 1
    print(f"ran {len(paths)} benchmark module(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
