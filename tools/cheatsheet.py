"""docs/cheatsheet.md's generated parts, and docs/cheatsheet.html rendered from the Markdown.

    .venv/bin/python tools/cheatsheet.py          # rewrite both
    .venv/bin/python tools/cheatsheet.py --check  # exit 1 if either is out of date (a test runs it)

The error texts are produced by running the programs below on the core (whose texts the parity
suite checks against PyTorch 2.13), and the "saves what" table comes from the core's derivative
table and inplace_tutorial.pytorch_reference (where PyTorch saves other tensors). Everything
between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->` in the Markdown is rewritten;
the rest is written by hand.
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import mistune

import inplace_tutorial as ipt
from inplace_tutorial.autograd.function import DERIVATIVES
from inplace_tutorial.pytorch_reference import SAVED_DIFFERENCES, TORCH_VERSION

ROOT = Path(__file__).resolve().parents[1]
MD = ROOT / "docs" / "cheatsheet.md"
HTML = ROOT / "docs" / "cheatsheet.html"

# Common ops, as a learner writes them: (derivative-table op, the call).
COMMON = [
    ("add", "x + y, x.add(y)"), ("mul", "x * y"), ("div", "x / y"), ("pow", "x ** 2"),
    ("pow_scalar", "2 ** x"), ("exp", "x.exp()"), ("log", "x.log()"), ("sqrt", "x.sqrt()"),
    ("sigmoid", "x.sigmoid()"), ("tanh", "x.tanh()"), ("relu", "x.relu(), F.relu(x)"),
    ("silu", "F.silu(x), nn.SiLU() (inplace=True: saves a copy of x)"),
    ("clamp", "x.clamp(a, b)"), ("sum", "x.sum()"), ("mean", "x.mean()"),
    ("mm", "x @ w (2-D)"), ("addmm", "nn.Linear: addmm(b, x, w.t())"), ("bmm", "x.bmm(y)"),
    ("softmax", "x.softmax(dim)"), ("log_softmax", "x.log_softmax(dim)"),
    ("convolution", "nn.Conv2d"), ("native_batch_norm", "nn.BatchNorm2d (training)"),
    ("max_pool2d", "F.max_pool2d"), ("nll_loss", "F.nll_loss"), ("mse_loss", "F.mse_loss"),
]


def _saves(op: str) -> str:
    f = DERIVATIVES[op]
    if not f.saves:
        return "nothing"
    return ", ".join(f"`{k}`" + ("" if c is None else f" (if `{c}` requires grad)")
                     for k, c in f.saves.items())


# PyTorch's saved names (pytorch_reference) for the tensors a learner holds: the rest
# (result1, indices, total_weight ...) are internal to the op.
_PYTORCH_NAMES = {"result": "its output", "self": "`self`", "input": "`self`",
                  "weight": "`weight`", "target": "`target`", "tensor": "`tensor`",
                  "exponent": "`x` (the exponent)"}


_HELD_ARGS = ("target",)  # saved non-differentiable arguments a learner holds


def _breaks(op: str) -> str:
    """What a learner must not write in place before backward, as PyTorch saves it (the core's
    table where the two agree, pytorch_reference's names where PyTorch saves other tensors)."""
    f = DERIVATIVES[op]
    if op in SAVED_DIFFERENCES:
        hit = list(dict.fromkeys(_PYTORCH_NAMES[n] for n in SAVED_DIFFERENCES[op][1]
                                 if n in _PYTORCH_NAMES))
    else:
        hit = (["its output"] if "result" in f.saves else []) + [
            f"`{k}`" for k in f.saves if k in f.inputs or k in _HELD_ARGS]
    return ", ".join(hit) if hit else "nothing (safe)"


def saves_table() -> str:
    rows = ["| call | node | saves (`grad_fn._saved_*`) | an in-place write before "
            "backward breaks it if it hits | PyTorch differs |",
            "|---|---|---|---|---|"]
    for op, call in COMMON:
        if op not in DERIVATIVES:
            continue
        diff = SAVED_DIFFERENCES.get(op)
        note = "" if diff is None else (f"{diff[0]}: " if diff[0] != DERIVATIVES[op].node
                                        else "") + (diff[2] if diff else "")
        rows.append(f"| `{call}` | {DERIVATIVES[op].node} | {_saves(op)} | {_breaks(op)} | "
                    f"{note} |")
    return "\n".join(rows)


def version_error() -> str:
    x = ipt.randn(3, requires_grad=True)
    y = x.exp()  # ExpBackward0 saves its output y
    y.add_(1)  # ... which this bumps to version 1
    try:
        y.sum().backward()
    except RuntimeError as e:
        return str(e)
    raise AssertionError("backward did not fail")


def leaf_error() -> str:
    w = ipt.randn(3, requires_grad=True)
    try:
        w.add_(1)
    except RuntimeError as e:
        return str(e)
    raise AssertionError("add_ on a leaf did not fail")


def error_decoded() -> str:
    msg = version_error()
    m = re.fullmatch(r"(one of the variables .*?operation): (\[\S+ \[[\d, ]*\]\]), (which is "
                     r"output \d+ of \w+), (is at version \d+; expected version \d+ instead)\. "
                     r"(Hint: .*)", msg)
    if m is None:
        raise SystemExit(f"cheatsheet: the version-counter error changed, update the parser:"
                         f"\n{msg}")
    what, tensor, node, versions, hint = m.groups()
    return "\n".join([
        "```python",
        "x = torch.randn(3, requires_grad=True)",
        "y = x.exp()          # exp's backward needs its output: it saves y (at version 0)",
        "y.add_(1)            # y's version counter: 0 -> 1",
        "y.sum().backward()   # RuntimeError:",
        "```",
        "",
        "| part of the message | what it tells you |",
        "|---|---|",
        f"| `{what}` | a tensor saved for backward was written in place after it was saved |",
        f"| `{tensor}` | its type and shape: look for a tensor of that shape |",
        f"| `{node}` | the op that made the tensor (its `grad_fn`); the op that saved it can "
        "be a later one that used it (here `exp` saves its own output); a leaf has no such part |",
        f"| `{versions}` | versions now and when saved: the difference counts the in-place "
        "writes since (here 1: `y.add_(1)`) |",
        f"| `{hint}` | under `torch.autograd.detect_anomaly()` the error also shows where the "
        "failing op ran in the forward pass |",
        "",
        "Fix: write out of place (`y = y + 1`), `clone()` before the in-place op, or do the "
        "in-place write after `backward()`.",
    ])


def generated() -> dict[str, str]:
    ipt.manual_seed(0)
    return {"saves": saves_table(), "error": error_decoded(),
            "leaf": f"`RuntimeError: {leaf_error()}`",
            "version": f"PyTorch {TORCH_VERSION}"}


def render_md(text: str) -> str:
    for name, body in generated().items():
        pattern = re.compile(rf"(<!-- generated:{name} -->\n).*?(<!-- /generated:{name} -->)",
                             re.S)
        if not pattern.search(text):
            raise SystemExit(f"cheatsheet: no generated:{name} block in {MD.name}")
        text = pattern.sub(lambda m, b=body: m.group(1) + b + "\n" + m.group(2), text)
    return text


CSS = """body{font:10pt/1.35 system-ui,sans-serif;max-width:60em;margin:1.5em auto;padding:0 1em}
table{border-collapse:collapse;margin:.4em 0;font-size:9pt}td,th{border:1px solid #bbb;
padding:2px 5px;vertical-align:top}code,pre{font:8.5pt ui-monospace,monospace}
pre{background:#f4f4f4;padding:.4em}h1{font-size:15pt}h2{font-size:12pt;margin:.8em 0 .3em}
@page{size:A4 landscape;margin:1cm}"""


def render_html(md: str) -> str:
    body = mistune.create_markdown(plugins=["table"])(md)
    title = html.escape(md.splitlines()[0].lstrip("# "))
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            f"<title>{title}</title>\n<!-- generated by tools/cheatsheet.py from cheatsheet.md:"
            f" do not edit -->\n<style>{CSS}</style></head>\n<body>\n{body}</body></html>\n")


def main(argv: list[str]) -> int:
    md = render_md(MD.read_text())
    page = render_html(md)
    if "--check" in argv:
        stale = [p.name for p, want in ((MD, md), (HTML, page))
                 if not p.exists() or p.read_text() != want]
        if stale:
            print("cheatsheet: out of date: " + ", ".join(stale)
                  + " (run .venv/bin/python tools/cheatsheet.py)")
            return 1
        return 0
    MD.write_text(md)
    HTML.write_text(page)
    print(f"cheatsheet: wrote {MD.relative_to(ROOT)} and {HTML.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
