"""models.block_memory (a Transformer block's in-place choices, measured) and viz.memory_curves:
every switch computes the same numbers; the measurements add up; the curves draw what they get."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

import inplace_tutorial as ipt  # noqa: E402
from inplace_tutorial import viz  # noqa: E402
from inplace_tutorial.models import block_memory as bm  # noqa: E402
from inplace_tutorial.models.gpt import Block  # noqa: E402

VARIANTS = {
    "written out": bm.Choices(),
    "in-place mask": bm.Choices(inplace_mask=True),
    "in-place residual": bm.Choices(inplace_residual=True),
    "sdpa": bm.Choices(attention="sdpa"),
    "sdpa, in-place residual": bm.Choices(attention="sdpa", inplace_residual=True),
}


def _run(choices, seed=0, dropout_seed=None):
    ipt.manual_seed(seed)
    block = bm.SwitchBlock(24, 4, 8, choices)
    x = ipt.randn(2, 8, 24, requires_grad=True)
    if dropout_seed is not None:
        ipt.manual_seed(dropout_seed)
    out = block(x)
    out.sum().backward()
    return out.detach(), x.grad, [p.grad for p in block.parameters()]


def test_every_switch_computes_the_same_numbers_as_the_gpt_block():
    ipt.manual_seed(0)
    ref_block = Block(24, 4, 8, use_sdpa=False)
    x = ipt.randn(2, 8, 24, requires_grad=True)
    ref = ref_block(x)
    ref.sum().backward()
    for name, choices in VARIANTS.items():
        out, gx, gps = _run(choices)
        assert (out - ref.detach()).abs().amax().item() < 1e-5, name
        assert (gx - x.grad).abs().amax().item() < 1e-5, name
        for g, p in zip(gps, ref_block.parameters(), strict=True):
            assert (g - p.grad).abs().amax().item() < 1e-4, name


def test_inplace_dropout_gives_the_same_numbers_as_out_of_place():
    a = _run(bm.Choices(dropout=0.2), dropout_seed=5)
    b = _run(bm.Choices(dropout=0.2, inplace_dropout=True), dropout_seed=5)
    for x, y in zip([a[0], a[1], *a[2]], [b[0], b[1], *b[2]], strict=True):
        assert (x - y).abs().amax().item() < 1e-5


def test_choices_are_checked():
    with pytest.raises(ValueError, match="attention must be"):
        bm.Choices(attention="flash")
    block = bm.SwitchBlock(24, 4, 8)
    with pytest.raises(ValueError, match="for training"):
        block(ipt.randn(1, 2, 24), cache=object())


def test_measure_block_adds_up_and_inplace_saves_only_transients():
    b, h, n = 4, 4, 32
    plain = bm.measure_block(bm.Choices(), n)
    mask = bm.measure_block(bm.Choices(inplace_mask=True), n)
    sdpa = bm.measure_block(bm.Choices(attention="sdpa"), n)
    for m in (plain, mask, sdpa):
        assert m.saved == sum(m.saved_by_op.values())
        assert m.saved <= m.forward_peak <= m.forward_allocated
        assert m.forward_peak <= m.step_peak
        assert m.trace is not None and m.trace.phases() == ["forward", "backward"]
    scores = b * h * n * n * 4  # one (B, H, T, T) float32 buffer
    assert plain.saved_by_op["softmax"] == scores  # the probabilities, saved by softmax
    assert mask.saved == plain.saved
    assert plain.forward_allocated - mask.forward_allocated == 2 * scores  # scale, mask
    assert mask.forward_peak == plain.forward_peak
    assert "softmax" not in sdpa.saved_by_op and sdpa.saved < plain.saved
    assert plain.saved_by_op["input x"] == b * n * 48 * 4  # LayerNorm saved the block input


def test_inplace_choices_never_change_the_saved_bytes():
    inplace = bm.Choices(inplace_mask=True, inplace_residual=True, dropout=0.1,
                         inplace_dropout=True)
    for n in (8, 16, 64):
        assert (bm.measure_block(inplace, n, batch=1).saved
                == bm.measure_block(bm.Choices(dropout=0.1), n, batch=1).saved), n
        assert (bm.measure_block(bm.Choices(inplace_mask=True, inplace_residual=True), n,
                                 batch=1).saved
                == bm.measure_block(bm.Choices(), n, batch=1).saved), n


def test_activation_memory_grows_quadratically_only_when_written_out():
    runs = bm.activation_memory({"w": bm.Choices(), "s": bm.Choices(attention="sdpa")},
                                [16, 32, 64], batch=1)
    assert [m.seq_len for m in runs["w"]] == [16, 32, 64]
    assert all(m.trace is None for rows in runs.values() for m in rows)
    w, s = ([m.saved for m in runs[k]] for k in "ws")
    assert w[2] / w[1] > w[1] / w[0] > 2  # the T^2 term takes over
    assert s[2] / s[1] < 2.2 and s[1] / s[0] < 2.2  # linear in T (plus a little)


def test_memory_curves_draws_one_line_per_series():
    fig = viz.memory_curves([16, 32, 64], {"a": [1000, 4000, 16000], "b": [1000, 2000, 4000]},
                            xlabel="T", title="t", styles={"b": "--"})
    ax = fig.axes[0]
    lines = ax.get_lines()
    assert [ln.get_label() for ln in lines] == ["a", "b"]
    assert lines[1].get_linestyle() == "--"
    assert list(lines[0].get_ydata()) == pytest.approx([1000 / 1024, 4000 / 1024, 16000 / 1024])
    assert ax.get_ylabel() == "bytes (KiB)"
    assert [t.get_text() for t in ax.texts] == ["15.6 KiB", "3.9 KiB"]
    with pytest.raises(ValueError, match="at least one"):
        viz.memory_curves([1], {}, xlabel="T")
    with pytest.raises(ValueError, match="has 1 values for 2 sizes"):
        viz.memory_curves([1, 2], {"a": [1]}, xlabel="T")
