"""Which exercises this learner has passed, kept in a small JSON file on their own machine.

``check()`` records every graded attempt here; ``progress()`` prints the table, so an
instructor can ask the room to run one cell. The file lives in the user's config folder
(``$XDG_CONFIG_HOME`` or ``~/.config``; ``%APPDATA%`` on Windows) under
``inplace_tutorial/progress.json``; ``IPT_PROGRESS_FILE`` points it elsewhere (tests, a shared
lab machine). Nothing leaves the machine. Saving is best effort: a read-only home or a damaged
file never stops ``check()`` from answering.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
from pathlib import Path

ENV = "IPT_PROGRESS_FILE"
PASSED, TRIED = "passed", "tried"


def progress_path() -> Path:
    """Where this user's progress is kept (``IPT_PROGRESS_FILE`` wins)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV]).expanduser()
    if os.name == "nt" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"])
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "inplace_tutorial" / "progress.json"


def load() -> dict[str, dict]:
    """{key: {"status": "passed"|"tried", "attempts": n, "passed_at": iso-time?}}; {} if none."""
    try:
        data = json.loads(progress_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    entries = data.get("exercises") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        return {}
    return {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, dict)}


def record(key: str, passed: bool) -> None:
    """Count one graded attempt at ``key``; a pass is kept even if a later attempt fails."""
    entries = load()
    entry = entries.setdefault(key, {"status": TRIED, "attempts": 0})
    entry["attempts"] = int(entry.get("attempts", 0)) + 1
    if passed and entry.get("status") != PASSED:
        entry["status"] = PASSED
        entry["passed_at"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    path = progress_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"version": 1, "exercises": entries}, indent=1,
                                  sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)  # atomic: a crash never leaves half a file
    except OSError:
        pass


def render(keys: list[str], entries: dict[str, dict]) -> list[str]:
    """The lines progress() prints: a count, then one row per notebook."""
    passed = [k for k in keys if entries.get(k, {}).get("status") == PASSED]
    lines = [f"Exercises passed: {len(passed)} of {len(keys)}"]
    rows: dict[str, list[str]] = {}
    for k in keys:
        status = entries.get(k, {}).get("status")
        mark = {PASSED: "passed", TRIED: "tried"}.get(status, "-")
        rows.setdefault(k.split(".")[0], []).append(f"{k} {mark:<6}")
    for nb, cells in rows.items():
        lines.append(f"  {nb}:  " + "  ".join(cells).rstrip())
    return lines


def reset() -> None:
    """Forget this user's progress (e.g. before a new class on a shared machine)."""
    try:
        progress_path().unlink()
    except FileNotFoundError:
        pass
