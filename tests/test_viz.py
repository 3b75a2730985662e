"""ipt.viz: pictures show what their baselines record, and their content follows the core.

Baselines (tests/baseline_figures/*.json) record what a picture means, read off the figure
object by tests/figure_scene.py: texts, boxes, arrows, lines and their colours, chart data in data
coordinates. They survive matplotlib releases and font-size changes; pixels are not compared.
Regenerate after an intended change with ``IPT_UPDATE_BASELINES=1``, then read the JSON diff and
look at the PNGs written to artifacts/image_results/.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from figure_scene import describe, differences, dump, load  # noqa: E402
from python_work import package_lines  # noqa: E402

import inplace_tutorial as ipt  # noqa: E402
from inplace_tutorial import viz  # noqa: E402
from inplace_tutorial.memory import Event, Trace  # noqa: E402

BASELINES = Path(__file__).parent / "baseline_figures"
RESULTS = Path(__file__).parent.parent / "artifacts" / "image_results"


def check_image(fig, name: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{name}.png").write_bytes(viz.to_png(fig))  # to look at, not compared
    scene = describe(fig)
    baseline = BASELINES / f"{name}.json"
    if os.environ.get("IPT_UPDATE_BASELINES") == "1":
        BASELINES.mkdir(exist_ok=True)
        dump(scene, baseline)
    assert baseline.exists(), f"no baseline {baseline}; run with IPT_UPDATE_BASELINES=1"
    diffs = differences(load(baseline), scene, name)
    assert not diffs, "the picture changed:\n" + "\n".join(diffs[:20])


# --------------------------------------------------------------------------- storage
def test_views_share_one_storage_baseline():
    x = ipt.arange(12.0).reshape(3, 4)
    fig = viz.storage_diagram({"x": x, "x.t()": x.t(), "x[1]": x[1], "x[:, 1]": x[:, 1]},
                              title="views share one storage")
    check_image(fig, "storage_views")


def test_expand_baseline():
    b = ipt.tensor([1.0, 2.0, 3.0])
    fig = viz.storage_diagram({"b": b, "b.expand(2, 3)": b.expand(2, 3)},
                              title="expand: stride 0, one cell read twice")
    check_image(fig, "storage_expand")


def test_add_inplace_vs_out_of_place_baselines():
    x = ipt.arange(6.0)
    before = viz.snapshot({"x": x})
    x.add_(5)
    check_image(viz.compare_storages(before, {"x": x}, title="x.add_(5)"), "storage_add_")
    before = viz.snapshot({"x": x})
    y = x + 5
    check_image(viz.compare_storages(before, {"x": x, "y": y}, title="y = x + 5"),
                "storage_add")


def test_contiguous_baseline():
    x = ipt.arange(6.0).reshape(2, 3)
    xt = x.t()
    fig = viz.storage_diagram({"x": x, "xt = x.t()": xt, "xt.contiguous()": xt.contiguous()},
                              title="contiguous() copies into a new storage")
    check_image(fig, "storage_contiguous")


def test_touches_counts_expand_and_transpose():
    hits = viz.storage.touches((2, 3), (0, 1), 0)
    assert {c: n for c, (n, _) in hits.items()} == {0: 2, 1: 2, 2: 2}
    hits = viz.storage.touches((4, 3), (1, 4), 0)  # x.t() of a 3x4
    assert hits[1] == (1, (1, 0))
    assert len(hits) == 12


def test_touches_is_the_brute_force_count_and_ignores_stride_0_sizes():
    import random

    import numpy as np

    def brute(shape, stride, offset):
        hits = {}
        for idx in np.ndindex(*shape):
            cell = offset + sum(i * s for i, s in zip(idx, stride))
            n, first = hits.get(cell, (0, idx))
            hits[cell] = (n + 1, first)
        return hits

    rng = random.Random(0)
    for _ in range(500):
        nd = rng.randint(0, 4)
        shape = tuple(rng.randint(0, 4) for _ in range(nd))
        stride = tuple(rng.choice([0, 0, 1, 2, 3, 5]) for _ in range(nd))
        offset = rng.randint(0, 3)
        assert viz.storage.touches(shape, stride, offset) == brute(shape, stride, offset)
    # a stride-0 view of 10**18 elements: one cell, at once (~20 lines of Python; a walk over
    # the elements runs lines per element)
    cells, lines = package_lines(lambda: viz.storage.touches((10**6, 10**6, 10**6), (0, 0, 0), 5),
                                 cap=1000)
    assert cells == {5: (10**18, (0, 0, 0))} and lines <= 1000, lines


def test_storage_names_per_drawing_and_no_addresses():
    a, b = ipt.zeros(2), ipt.ones(2)
    fig = viz.storage_diagram({"b": b, "a": a, "b2": b[:1]})
    texts = [t.get_text() for t in fig.axes[0].texts]
    heads = [t for t in texts if t.startswith("S")]
    assert heads[0].startswith("S0: ") and "made by ones" in heads[0]
    assert heads[1].startswith("S1: ") and "made by zeros" in heads[1]
    assert not any("0x" in t or str(a.data_ptr()) in t for t in texts)


def test_snapshot_survives_mutation_and_marks_version():
    x = ipt.arange(4.0)
    snap = viz.snapshot({"x": x})
    x.mul_(10)
    assert snap["x"].storage.values.tolist() == [0.0, 1.0, 2.0, 3.0]
    assert (snap["x"].version, x._version) == (0, 1)
    fig = viz.compare_storages(snap, {"x": x})
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert any("v0→v1" in t for t in texts)
    assert not any("NEW storage" in t for t in texts)  # same cells, new values


def test_snapshot_does_not_keep_storage_alive():
    x = ipt.zeros(1000)
    start = ipt.memory.memory_allocated()
    snap = viz.snapshot({"x": x})
    del x
    assert ipt.memory.memory_allocated() == start - 4000
    assert snap["x"].storage.nbytes == 4000


# --------------------------------------------------------------------------- graph
def _stale_graph():
    w = ipt.tensor([0.5, -1.0, 2.0], requires_grad=True)
    b = ipt.tensor([0.1, 0.2, 0.3], requires_grad=True)
    x = ipt.tensor([1.0, 2.0, 3.0])
    y = (x * w + b).sigmoid()
    loss = (y * y).sum()
    return w, b, y, loss


def test_graph_baseline_with_stale_path():
    w, b, y, loss = _stale_graph()
    y.mul_(2)
    fig = viz.graph_diagram(loss, names={"w": w, "b": b}, root_name="loss",
                            title="after y.mul_(2): backward will fail")
    check_image(fig, "graph_stale")


def test_graph_text_follows_versions():
    w, b, y, loss = _stale_graph()
    texts = lambda f: [t.get_text() for t in f.axes[0].texts]  # noqa: E731
    before = texts(viz.graph_diagram(loss, names={"w": w, "b": b}))
    assert "result: saved v0, now v0" in before and not any("STALE" in t for t in before)
    assert "w [3]" in before and "b [3]" in before  # AccumulateGrad boxes name the leaves
    y.mul_(2)
    after = texts(viz.graph_diagram(loss, names={"w": w, "b": b}))
    assert "result: saved v0, now v1 STALE" in after
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


def test_graph_without_grad_fn_is_a_message():
    fig = viz.graph_diagram(ipt.ones(2), root_name="t")
    assert "no grad_fn" in " ".join(t.get_text() for t in fig.axes[0].texts)


# --------------------------------------------------------------------------- timeline
def _trace(sizes: list[tuple[str, str, int, str]], start: int = 1000) -> Trace:
    """A synthetic trace: (kind, label, nbytes, phase) -> events with running totals."""
    tr, total = Trace(start_allocated=start), start
    for kind, label, nbytes, phase in sizes:
        total += nbytes if kind == "alloc" else -nbytes
        tr.events.append(Event(kind, nbytes, label, f"op{label}", phase, total))
    return tr


INPLACE = [("alloc", "S40", 4096, "forward"), ("alloc", "S41", 2048, "forward"),
           ("alloc", "S42", 1024, "backward"), ("free", "S41", 2048, "backward"),
           ("free", "S42", 1024, "update"), ("free", "S40", 4096, "zero_grad")]
OUTPLACE = [("alloc", "S50", 4096, "forward"), ("alloc", "S51", 4096, "forward"),
            ("alloc", "S52", 2048, "backward"), ("alloc", "S53", 4096, "update"),
            ("free", "S53", 4096, "update"), ("free", "S51", 4096, "zero_grad"),
            ("free", "S52", 2048, "zero_grad")]


def test_timeline_single_baseline():
    check_image(viz.memory_timeline(_trace(INPLACE), title="one step"), "timeline_single")


def test_timeline_overlay_and_side_baselines():
    runs = {"in-place": _trace(INPLACE), "out-of-place": _trace(OUTPLACE)}
    check_image(viz.memory_timeline(runs, title="in-place vs out-of-place"), "timeline_overlay")
    check_image(viz.memory_timeline(runs, layout="side"), "timeline_side")


def test_timeline_peak_report_relabels_per_drawing():
    tr = _trace(OUTPLACE)
    assert tr.peak_index == 3
    assert viz.peak_report(tr, top=2) == ["S0 opS50: 4.0 KiB", "S1 opS51: 4.0 KiB", "+2 more"]


def test_timeline_of_a_real_trace_marks_the_peak():
    with ipt.memory.record() as tr, ipt.memory.phase("forward"):
        a = ipt.ones(100)
        b = a * 2
        del a
    fig = viz.memory_timeline(tr)
    (ax,) = fig.axes
    ys = ax.lines[0].get_ydata()
    unit = {"B": 1, "KiB": 1024, "MiB": 1024**2}[ax.get_ylabel().split("(")[-1].rstrip(")")]
    assert max(ys) * unit == tr.peak - tr.start_allocated and len(ys) == len(tr.events) + 1
    absolute = viz.memory_timeline(tr, relative=False).axes[0].lines[0].get_ydata()
    unit = {"B": 1, "KiB": 1024, "MiB": 1024**2}[
        viz.memory_timeline(tr, relative=False).axes[0].get_ylabel().split("(")[-1].rstrip(")")]
    assert max(absolute) * unit == tr.peak
    assert b.numel() == 100


# --------------------------------------------------------------------------- bars
def test_compare_bars_baseline():
    results = {"addbmm_": (0, 0.00021), "bmm + sum + add_": (20480, 0.00034),
               "einsum + add_": (4096, 0.0009)}
    check_image(viz.compare_bars(results, title="out += sum_i A_i @ B_i"), "compare_bars")


def test_figures_are_not_registered_with_pyplot():
    import matplotlib.pyplot as plt

    before = plt.get_fignums()
    viz.storage_diagram({"x": ipt.zeros(3)})
    assert plt.get_fignums() == before


def test_core_does_not_import_viz():
    import subprocess

    code = ("import sys, inplace_tutorial as ipt; ipt.zeros(2).add_(1); "
            "assert 'matplotlib' not in sys.modules and 'ipywidgets' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True,
                   cwd=Path(__file__).parent.parent)


def test_setup_notebook_without_ipython_applies_style():
    matplotlib.rcParams["font.size"] = 13
    assert viz.setup_notebook() is None
    assert matplotlib.rcParams["font.size"] == viz.RC["font.size"]


# --------------------------------------------------------------------------- precision, lines
def test_float_formats_baseline_reads_finfo():
    assert [viz.bit_fields(d) for d in (ipt.float32, ipt.float16, ipt.bfloat16)] == [
        (1, 8, 23), (1, 5, 10), (1, 8, 7)]
    fig = viz.float_formats(title="three formats")
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert "2 B   max 65,504   eps 0.000977" in texts and "mantissa 7" in texts
    check_image(fig, "float_formats")


def test_line_chart_baseline_with_marks_and_steps():
    fig = viz.line_chart({"loss scale": [4.0, 2.0, 2.0, 4.0, 2.0]}, logy=True, steps=True,
                         ylabel="scale", marks={"step skipped": [(0, 4.0), (3, 4.0)]},
                         title="loss scale")
    (ax,) = fig.axes
    assert ax.get_yscale() == "log" and ax.lines[0].get_drawstyle() == "steps-post"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["loss scale", "step skipped"]
    check_image(fig, "line_chart_marks")


def test_line_chart_bytes_axis_and_x():
    fig = viz.line_chart({"cat": [1024, 4096], "cache": [2048, 2048]}, x=[1, 2],
                         bytes_axis=True, xlabel="tokens")
    (ax,) = fig.axes
    assert list(ax.lines[0].get_xdata()) == [1, 2]
    assert list(ax.lines[0].get_ydata()) == [1.0, 4.0] and ax.get_ylabel().endswith("(KiB)")
    assert [ln.get_linestyle() for ln in ax.lines] == ["-", "--"]
    with pytest.raises(ValueError):
        viz.line_chart({})
