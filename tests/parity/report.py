"""Write a discrepancy report of the parity suite: ``python -m tests.parity.report [OUT.md]``.

Runs every registered program and fuzz case on torch and on inplace_tutorial, groups the failing
programs by cause and writes Markdown (default: ``.parity_report.md`` in the repository root).
Not a test module; pytest does not collect it.
"""

from __future__ import annotations

import collections
import importlib
import re
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from parity.harness import Raised, compare, run  # noqa: E402

FILES = ["test_tensor_parity", "test_autograd_parity"]

# (priority, label, predicate on a single diff line); the first match wins
CAUSES = [
    (0, "core crashed where torch ran (missing API or bug)", lambda d: re.search(r"torch -> \{|torch -> tensor|torch -> dict|torch=.*core -> Raised|; core -> Raised", d) and "core -> Raised" in d),
    (1, "gradient values differ", lambda d: re.search(r"grad\w*'?\]?(\[\d+\])?\.values", d) or "'grad" in d and ".values" in d),
    (1, "forward values differ", lambda d: ".values" in d),
    (2, "torch raised, core did not", lambda d: d.split(":")[1].strip().startswith("torch -> Raised") if ":" in d else False),
    (2, "exception type differs", lambda d: "exception type" in d),
    (3, "dtype differs", lambda d: ".dtype" in d or "'dtype'" in d or "torch.float" in d),
    (3, "requires_grad differs", lambda d: "requires_grad" in d),
    (3, "shape differs", lambda d: ".shape" in d or "'shape'" in d),
    (3, "stride / offset / contiguity differs", lambda d: any(k in d for k in ("'stride'", "'offset'", "'contiguous'", "stride"))),
    (3, "_version differs", lambda d: "version" in d),
    (3, "data_ptr / storage relation differs", lambda d: any(k in d for k in ("ptr", "storage", "same"))),
    (4, "grad_fn / graph names differ", lambda d: any(k in d for k in ("grad_fn", "next", "graph", "Backward", "CopySlices"))),
    (4, "error message wording differs (Hint tail only)", lambda d: "only in the Hint" in d),
    (4, "error message wording differs", lambda d: "message differs" in d),
    (5, "other observation differs", lambda d: True),
]


def classify(diff):
    for prio, label, pred in CAUSES:
        try:
            if pred(diff):
                return prio, label
        except Exception:  # noqa: BLE001
            continue
    return 5, "other"


def whole_program_cause(ref, got):
    if isinstance(got, Raised) and not isinstance(ref, Raised):
        return 0, f"core raised {got.type}: {got.msg[:120]}"
    return None


def run_programs(torch, core):
    results = []  # (file, name, diffs, whole)
    for fname in FILES:
        mod = importlib.import_module(f"parity.{fname}")
        for name, fn in mod.prog.programs.items():
            ref = run(torch, fn)
            try:
                got = run(core, fn)
            except Exception as e:  # noqa: BLE001 - observing the core's output can itself fail
                got = Raised(type(e).__name__, f"(while observing) {e}")
            diffs = compare(ref, got)
            results.append((fname, name, diffs, whole_program_cause(ref, got)))
    return results


def run_fuzz(torch, core):
    fuzz = importlib.import_module("parity.test_fuzz_parity")
    out = []
    stats = collections.Counter()
    for seed in range(fuzz.N_PROGRAMS):
        steps = fuzz.generate(seed)
        ref = fuzz.execute(torch, steps)
        try:
            got = fuzz.execute(core, steps)
        except Exception as e:  # noqa: BLE001
            got = {"outcome": "raised", "stage": "harness", "type": type(e).__name__, "msg": str(e)}
        stats["programs"] += 1
        stats["torch_raised_" + ref.get("stage", "")] += ref["outcome"] == "raised"
        stats["torch_grads"] += ref["outcome"] == "grads"
        diffs = fuzz.compare_runs(ref, got)
        if diffs:
            stats["fail"] += 1
            out.append((seed, steps, diffs))
        else:
            stats["pass"] += 1
            stats["pass_raised"] += ref["outcome"] == "raised"
            stats["pass_grads"] += ref["outcome"] == "grads"
            if ref["outcome"] == "raised" and " ".join(ref["msg"].split()) != " ".join(got["msg"].split()):
                stats["pass_but_message_differs"] += 1
    return stats, out


def fuzz_cause(diff):
    if "core did not raise" in diff:
        m = re.search(r"torch raised (\w+) in (\w+) \('(.{0,60})", diff)
        return f"torch raised, core did not: {m.group(1)} in {m.group(2)}: {m.group(3)}" if m else diff[:100]
    if "core raised" in diff and "torch computed" in diff:
        m = re.search(r"core raised (\w+) in (\w+): '(.{0,80})", diff)
        return f"core raised where torch computed grads: {m.group(1)} in {m.group(2)}: {m.group(3)}" if m else diff[:100]
    if "core raised" in diff:
        return "different exception type/stage: " + re.sub(r"\(.*?\)", "(...)", diff)[:160]
    if diff.startswith("grad of leaf"):
        return "gradient differs"
    if diff.startswith("forward value"):
        return "forward value differs"
    return diff[:100]


def main(out_path=None):
    import torch

    torch.set_num_threads(1)
    out_path = Path(out_path or ROOT / ".parity_report.md")
    lines = [f"# Parity report ({time.strftime('%Y-%m-%d %H:%M:%S')})", ""]
    try:
        core = importlib.import_module("inplace_tutorial")
    except Exception:  # noqa: BLE001
        lines += ["`import inplace_tutorial` failed:", "", "```", traceback.format_exc(), "```"]
        out_path.write_text("\n".join(lines))
        return
    results = run_programs(torch, core)
    per_file = collections.Counter()
    per_file_pass = collections.Counter()
    groups = collections.defaultdict(list)
    for fname, name, diffs, whole in results:
        per_file[fname] += 1
        if not diffs:
            per_file_pass[fname] += 1
            continue
        if whole:
            groups[whole].append((fname, name, diffs))
            continue
        seen = set()
        for d in diffs:
            key = classify(d)
            if key not in seen:
                seen.add(key)
                groups[key].append((fname, name, [x for x in diffs if classify(x) == key]))
    fstats, ffails = run_fuzz(torch, core)

    lines += ["## Summary", "", "| file | programs | pass | fail |", "|---|---|---|---|"]
    for f in FILES:
        lines.append(f"| {f} | {per_file[f]} | {per_file_pass[f]} | {per_file[f] - per_file_pass[f]} |")
    lines.append(f"| test_fuzz_parity | {fstats['programs']} | {fstats['pass']} | {fstats['fail']} |")
    lines += ["", f"Fuzz: torch raised in {fstats['torch_raised_forward']} programs in the forward pass and "
              f"{fstats['torch_raised_backward']} in backward; torch computed gradients in "
              f"{fstats['torch_grads']}. Agreeing: {fstats['pass_raised']} raising programs, "
              f"{fstats['pass_grads']} gradient programs (messages differ in "
              f"{fstats['pass_but_message_differs']} of the agreeing raising ones).", ""]

    lines += ["## Discrepancies by cause (most important first)", ""]
    for key in sorted(groups, key=lambda k: (k[0], -len(groups[k]))):
        items = groups[key]
        lines.append(f"### {key[1]} — {len(items)} program(s)")
        lines.append("")
        names = [f"`{n}`" for _, n, _ in items]
        lines.append(", ".join(names[:60]) + (f" ... (+{len(names) - 60})" if len(names) > 60 else ""))
        lines.append("")
        lines.append("```")
        for _, n, ds in items[:6]:
            lines.append(f"{n}:")
            for d in ds[:4]:
                lines.append("  " + d.replace("\n", "\n  ")[:900])
        if len(items) > 6:
            lines.append(f"... and {len(items) - 6} more")
        lines.append("```")
        lines.append("")

    lines += ["## Fuzz failures by cause", ""]
    fgroups = collections.defaultdict(list)
    for seed, steps, diffs in ffails:
        fgroups[fuzz_cause(diffs[0])].append((seed, steps, diffs))
    for cause in sorted(fgroups, key=lambda c: -len(fgroups[c])):
        items = fgroups[cause]
        lines.append(f"### {cause} — {len(items)} program(s)")
        lines.append("")
        seed, steps, diffs = min(items, key=lambda it: len(it[1]))
        lines.append(f"seeds: {', '.join(str(s) for s, _, _ in items[:30])}{' ...' if len(items) > 30 else ''}")
        lines.append("")
        lines.append("shortest example:")
        lines.append("```")
        lines.extend(repr(s) for s in steps)
        lines.extend(d[:800] for d in diffs[:3])
        lines.append("```")
        lines.append("")
    out_path.write_text("\n".join(lines))
    print(f"wrote {out_path}")
    for f in FILES:
        print(f, per_file[f], "programs,", per_file_pass[f], "pass")
    print("fuzz", dict(fstats))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
