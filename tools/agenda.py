"""Workshop agendas computed from the notebooks themselves, section by section.

    python tools/agenda.py           # print the per-section table
    python tools/agenda.py --write   # rewrite the generated block of docs/instructor.md

A section is a `## ` heading and the cells up to the next one. Its minutes are the sum of:

- reading: the words of its Markdown, its code and the code's printed output (at most
  OUTPUT_WORDS_MAX words of each output), at READ_WPM words a minute (technical text is read
  slower than prose);
- running: the seconds its code cells took when tools/build_notebooks.py executed them (nbclient
  stores start and reply times in each cell's metadata), at least RUN_MIN_S a cell (Shift-Enter
  and a glance at the result);
- exercises: EXERCISE_MIN minutes for every `check("NN.k", ...)` cell (try, check, one hint).

This is a reading model applied to the real cells, not a stopwatch over a class: no timed class
has been run. The model and its rates are printed with the table, so an instructor can redo the
sums for a slower or faster room.
"""
from __future__ import annotations

import json
import re
import sys
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
GUIDE = ROOT / "docs" / "instructor.md"
BEGIN, END = "<!-- agenda:begin (tools/agenda.py --write) -->", "<!-- agenda:end -->"

READ_WPM = 120
RUN_MIN_S = 10
OUTPUT_WORDS_MAX = 100  # long printed tables are looked up, not read: a glance per output
EXERCISE_MIN = 6
_CHECK = re.compile(r'\bcheck\("\d\d\.\d+"')
_WORD = re.compile(r"[A-Za-z0-9_]+")


def _text(source) -> str:
    return "".join(source) if isinstance(source, list) else source


def _output_text(cell: dict) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if "text" in out:
            parts.append(_text(out["text"]))
        elif "text/plain" in out.get("data", {}):
            parts.append(_text(out["data"]["text/plain"]))
    return "".join(parts)


def _run_seconds(cell: dict) -> float:
    stamps = cell.get("metadata", {}).get("execution", {})
    try:
        start = datetime.fromisoformat(stamps["iopub.execute_input"].rstrip("Z"))
        end = datetime.fromisoformat(stamps["shell.execute_reply"].rstrip("Z"))
    except (KeyError, ValueError):
        return 0.0
    return max((end - start).total_seconds(), 0.0)


def sections(path: Path) -> list[dict]:
    """The notebook's `## ` sections (the part before the first is "intro"), each with its
    words, code cells, exercises, measured run seconds and modelled minutes."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    out = [{"title": "intro", "words": 0, "code": 0, "exercises": 0, "run_s": 0.0,
                            "at_keyboard_s": 0.0}]
    for cell in cells:
        src = _text(cell["source"])
        if cell["cell_type"] == "markdown":
            for line in src.splitlines():  # a heading may sit in the middle of a cell
                if line.startswith("## "):
                    out.append({"title": line[3:].strip(), "words": 0, "code": 0,
                                "exercises": 0, "run_s": 0.0, "at_keyboard_s": 0.0})
                out[-1]["words"] += len(_WORD.findall(line))
        elif cell["cell_type"] == "code":
            sec = out[-1]
            sec["words"] += len(_WORD.findall(src)) + min(len(_WORD.findall(_output_text(cell))),
                                                     OUTPUT_WORDS_MAX)
            sec["code"] += 1
            sec["exercises"] += len(_CHECK.findall(src))
            sec["run_s"] += _run_seconds(cell)
            sec["at_keyboard_s"] += max(_run_seconds(cell), RUN_MIN_S)
    for sec in out:
        sec["minutes"] = (sec["words"] / READ_WPM + sec["at_keyboard_s"] / 60
                          + sec["exercises"] * EXERCISE_MIN)
    return [s for s in out if s["words"] or s["code"]]


def notebook_minutes(path: Path) -> float:
    return sum(s["minutes"] for s in sections(path))


def course() -> list[tuple[str, float, list[dict]]]:
    """(notebook stem, minutes, sections) for every numbered notebook, in order."""
    rows = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        secs = sections(path)
        rows.append((path.stem, sum(s["minutes"] for s in secs), secs))
    return rows


# The agendas: which sections each covers, by notebook number and section-title prefix ("*" =
# the whole notebook), and the minutes they must fit in (the rest of the slot is discussion).
AGENDAS = {
    "Two hours": (110, [
        ("00", ["Setup check"]),
        ("01", ["*"]),
        ("06", ["1.", "2.", "3.", "5."]),
        ("07", ["3."]),
        ("10", ["intro", "Task 1", "Task 2", "Task 3", "Debrief"]),
    ]),
    "One day": (390, [(nb, ["*"]) for nb in ("00", "01", "02", "03", "04", "05", "06", "07")]
                + [("10", ["intro", "Task 1", "Task 2", "Task 3", "Stretch", "Debrief"]),
                   ("14", ["*"])]),
    "A second half day: models as they are built now": (210, [
        ("11", ["*"]), ("12", ["*"]), ("13", ["*"]), ("10", ["Task 4", "Task 5"]),
        ("15", ["*"]),
    ]),
}


def _pick(secs: list[dict], prefixes: list[str]) -> list[dict]:
    if prefixes == ["*"]:
        return secs
    return [s for s in secs if any(s["title"].startswith(p) for p in prefixes)]


def agenda(name: str) -> tuple[int, list[tuple[str, list[str], float]]]:
    """(minutes allowed, [(notebook, section titles, minutes)]) for one of AGENDAS."""
    limit, plan = AGENDAS[name]
    by_number = {stem[:2]: secs for stem, _, secs in course()}
    rows = []
    for number, prefixes in plan:
        picked = _pick(by_number[number], prefixes)
        if not picked:
            raise ValueError(f"agenda {name!r}: no section of {number} starts with {prefixes}")
        rows.append((number, [s["title"] for s in picked], sum(s["minutes"] for s in picked)))
    return limit, rows


def _round5(minutes: float) -> int:
    return max(5, int(5 * round(minutes / 5)))


def block() -> str:
    """The generated Markdown block of docs/instructor.md."""
    lines = [BEGIN, "",
             f"Model: {READ_WPM} words a minute for lesson text, code and printed output (at most "
             f"{OUTPUT_WORDS_MAX} words of each output); each code cell's measured run time (at "
             f"least {RUN_MIN_S} s); {EXERCISE_MIN} minutes per exercise.", ""]
    for name in AGENDAS:
        limit, rows = agenda(name)
        lines += [f"**{name}** (content fits in {limit} minutes; the rest is discussion):", "",
                  "| from | minutes | notebook | sections |", "|---|---|---|---|"]
        clock = 0
        for number, titles, minutes in rows:
            rounded = _round5(minutes)
            whole = titles == [s["title"] for s in _pick(_sections_of(number), ["*"])]
            covered = "all" if whole else "; ".join(titles)
            lines.append(f"| {clock} | {rounded} | {number} | {covered} |")
            clock += rounded
        lines += [f"| {clock} | | end | |", ""]
    lines += ["**Every notebook** (for self-study and for choosing your own agenda):", "",
              "| notebook | sections | words | code cells | exercises | run (s) | minutes |",
              "|---|---|---|---|---|---|---|"]
    for stem, minutes, secs in course():
        words, code = sum(s["words"] for s in secs), sum(s["code"] for s in secs)
        exercises, run = sum(s["exercises"] for s in secs), sum(s["run_s"] for s in secs)
        lines.append(f"| {stem} | {len(secs)} | {words} | {code} | {exercises} | {run:.0f} "
                     f"| {_round5(minutes)} |")
    lines += ["", END]
    return "\n".join(lines)


def _sections_of(number: str) -> list[dict]:
    return next(secs for stem, _, secs in course() if stem.startswith(number))


def write() -> bool:
    """Rewrite the generated block; True if the file changed."""
    text = GUIDE.read_text(encoding="utf-8")
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    new = text[:start] + block() + text[stop:]
    GUIDE.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str]) -> int:
    if "--write" in argv:
        print("docs/instructor.md", "updated" if write() else "already current")
        return 0
    for stem, minutes, secs in course():
        print(f"{stem}: {minutes:.0f} min")
        for s in secs:
            print(f"    {s['minutes']:5.1f}  {s['title']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
