"""ipt.widgets without a browser: click, set values, assert state and changed pictures."""
from __future__ import annotations

import gc
import io

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from python_work import package_lines  # noqa: E402

import inplace_tutorial as ipt  # noqa: E402
from inplace_tutorial.widgets import (  # noqa: E402
    HazardLab,
    Progress,
    StrideExplorer,
    StrideView,
    TrainingStep,
    TrainingStepper,
    run_experiment,
)


# --------------------------------------------------------------------------- StrideExplorer
@pytest.mark.parametrize("shape, stride, offset, needle", [
    ("5", "3", "0", "out of bounds for storage of size 48"),   # the core's own text
    ("-1", "1", "0", "Storage size calculation overflowed with sizes=[-1]"),  # as PyTorch
    ("2", "-1", "0", "Negative strides are not supported"),
    ("2, 3", "1", "0", "mismatch in length of strides and shape"),
    ("2", "1", "-1", "invalid storage offset -1"),
    ("2.5", "1", "0", "shape must be whole numbers, got '2.5'"),
    ("2", "1", "one", "offset must be whole numbers"),
    ("2", "1", "1 2", "offset must be one whole number"),
])
def test_stride_view_invalid_inputs_give_messages(shape, stride, offset, needle):
    m = StrideView()
    assert m.set(shape, stride, offset) is False
    assert m.view is None and needle in m.error


def test_stride_view_answers_huge_stride_0_shapes_at_once():
    view = StrideView()

    def answers():
        assert view.set("1000000, 1000000", "0, 0", "3")
        assert view.touched() == {3: 10**12}
        assert "1000000000000 elements over 1 of 12 cells" in view.describe()
        assert view.set("9223372036854775807", "0", "0")  # (2**63 - 1 elements: not walked)
        assert view.touched() == {0: 2**63 - 1}

    # "at once" in lines of the package's Python (python_work.py): ~1,000, not 10**12
    _, lines = package_lines(answers, cap=20_000)
    assert lines <= 20_000, lines


def test_stride_view_uses_the_core_as_strided():
    m = StrideView()
    assert m.set("2, 3", "0, 1", "2")
    v = m.view
    assert v.untyped_storage() is m.base.untyped_storage()
    assert (tuple(v.shape), v.stride(), v.storage_offset()) == ((2, 3), (0, 1), 2)
    assert m.touched() == {2: 2, 3: 2, 4: 2}
    assert v.tolist() == [[2.0, 3.0, 4.0], [2.0, 3.0, 4.0]]
    assert "3 cells are read by more than one index" in m.describe()


def test_stride_explorer_shows_message_not_traceback_and_redraws():
    w = StrideExplorer()
    first = w.image.value
    assert "12 elements over 12 of 12 cells" in w.message.value
    w.stride.value = "1, 3"  # transpose-like: same cells, new picture
    assert "is_contiguous()=False" in w.message.value
    assert w.image.value != first
    w.shape.value = "4, 4"
    assert "RuntimeError" in w.message.value and "out of bounds" in w.message.value
    assert "Traceback" not in w.message.value
    w.shape.value = "x"
    assert "TypeError: shape must be whole numbers" in w.message.value


# --------------------------------------------------------------------------- TrainingStepper
def test_training_step_runs_op_by_op_with_phases():
    s = TrainingStep(inplace=True)
    assert s.phase == "ready" and s.done == [] and s.trace.events == []
    assert s.next_op() and s.done == ["h = torch.addmm(b1, X, W1)"]
    assert s.trace.events and all(e.phase == "forward" for e in s.trace.events)
    s.run_phase("forward")
    assert s.phase == "backward" and s.done[-1].startswith("loss =")
    loss = s.t["loss"]
    s.run_phase("backward")
    assert all(s.t[p].grad is not None for p in ("W1", "b1", "W2", "b2"))
    versions = [s.t[p]._version for p in ("W1", "b1", "W2", "b2")]
    s.run_phase("update")
    assert [s.t[p]._version for p in ("W1", "b1", "W2", "b2")] == [v + 1 for v in versions]
    s.run_all()
    assert s.finished and s.phase == "done" and not s.next_op()
    assert all(s.t[p].grad is None for p in ("W1", "b1", "W2", "b2"))  # set_to_none
    assert s.trace.phases() == ["forward", "backward", "update", "zero_grad"]
    assert s.peak == s.trace.peak >= s.trace.start_allocated
    assert 0.5 < loss.item() < 3.0  # a real cross-entropy of a 3-class model


def test_training_step_out_of_place_mode_differs_for_real():
    a, b = TrainingStep(inplace=True), None
    a.run_all()
    b = TrainingStep(inplace=False)
    w1_before = b.t["W1"]
    b.run_all()
    assert "a = h.relu()" in b.done and "a = h.relu_()   # a is h" in a.done
    assert b.t["W1"] is not w1_before and b.t["W1"].requires_grad
    assert all(b.t[p].grad is not None and b.t[p].grad.abs().sum().item() == 0
               for p in ("W1", "b1", "W2", "b2"))  # zero-filled grads
    # Same seed, same math: both updates give the same weights.
    assert a.t["W1"].sub(b.t["W1"]).abs().amax().item() < 1e-6
    relu = [e for e in b.trace.events if e.op == "relu" and e.kind == "alloc"]
    assert relu and not [e for e in a.trace.events if e.op == "relu" and e.kind == "alloc"]


def test_training_stepper_buttons_update_state_and_pictures():
    w = TrainingStepper()
    graph0, timeline0 = w.graph_image.value, w.timeline_image.value
    assert "phase ready" in w.status.value
    w.buttons["forward"].click()
    assert w.step.phase == "backward" and "loss = picked.sum()" in w.status.value
    assert w.graph_image.value != graph0 and w.timeline_image.value != timeline0
    graph1 = w.graph_image.value
    w.buttons["next"].click()  # backward
    assert w.step.current_op == "loss.backward()" and w.graph_image.value != graph1
    assert "W1.grad" in w.storages.value
    w.buttons["update"].click()
    w.buttons["zero_grad"].click()
    assert w.step.finished and "in-place" in w.peaks
    w.toggle.value = False  # switch mode: a fresh step, out-of-place
    assert w.step.phase == "ready" and not w.step.inplace
    w.buttons["zero_grad"].click()  # runs every earlier phase first
    assert w.step.finished and set(w.peaks) == {"in-place", "out-of-place"}
    assert "out-of-place" in w.compare.value and "in-place" in w.compare.value
    w.buttons["reset"].click()
    assert w.step.op_index == 0 and w.step.done == []


def test_stepper_reset_releases_previous_step_memory():
    s = TrainingStep(inplace=False)
    start = ipt.memory.memory_allocated()
    s.run_all()
    s.reset()
    assert ipt.memory.memory_allocated() == start


# --------------------------------------------------------------------------- HazardLab
@pytest.mark.parametrize("forward, target, fails, node, field", [
    ("sigmoid", "output y", True, "SigmoidBackward0", "result"),
    ("sigmoid", "input x", False, "SigmoidBackward0", "result"),
    ("exp", "output y", True, "ExpBackward0", "result"),
    ("log", "input x", True, "LogBackward0", "self"),
    ("log", "output y", False, "LogBackward0", "self"),
    ("mul", "input x", True, "MulBackward0", "self"),
    ("matmul", "output y", False, "MmBackward0", "self"),
])
def test_hazard_outcomes_come_from_the_core(forward, target, fails, node, field):
    r = run_experiment(forward, "mul_(2)", target, predicted_fail=True)
    assert r.failed is fails
    s = next(s for s in r.saved if s.node == node and s.field == field)
    assert s.stale is fails
    if fails:
        assert r.stage == "backward"
        assert "modified by an inplace operation" in r.error
        assert "NOT SAFE" in r.explanation
    else:
        assert r.error is None and "a" in r.grads
    assert r.prediction_correct is fails


def test_hazard_gradients_are_real():
    r = run_experiment("sigmoid", "mul_(2)", "input x")
    # x was doubled after sigmoid saved its result: dy/da = s * (1 - s) of the original a.
    import math

    sig = lambda v: 1 / (1 + math.exp(-v))  # noqa: E731
    expected = [[sig(v) * (1 - sig(v)) for v in row] for row in ([0.5, 1.0], [1.5, 2.0])]
    assert sum(r.grads["a"], []) == pytest.approx(sum(expected, []), rel=1e-5)


def test_hazard_lab_widget_run_shows_outcome_and_verdict():
    w = HazardLab()
    w.forward.value, w.inplace.value, w.target.value = "tanh", "zero_()", "output y"
    w.prediction.value = "backward works"
    w.run_button.click()
    assert w.result.failed and w.result.prediction_correct is False
    assert "RuntimeError during the backward" in w.output.value
    assert "your prediction was wrong" in w.output.value
    assert "TanhBackward0" in w.output.value and "STALE" in w.output.value
    w.target.value = "input x"
    w.prediction.value = "backward works"
    w.run_button.click()
    assert not w.result.failed and "backward succeeded" in w.output.value
    assert "your prediction was right" in w.output.value


# --------------------------------------------------------------------------- Progress
def test_progress_text_mode_prints_about_ten_lines():
    out = io.StringIO()
    p = Progress(100, "train", mode="text", file=out)
    for step in range(1, 101):
        p(epoch=1, step=step, total=100, loss=1.0 / step, acc=step / 100)
    p.close()
    lines = out.getvalue().splitlines()
    assert 9 <= len(lines) <= 11
    assert lines[-1] == "train: epoch 1 · step 100/100 · loss 0.0100 · acc 100.0%"


def test_progress_widget_mode_updates_bar_and_label():
    p = Progress(10, "fit", mode="widget", file=io.StringIO())
    p(epoch=2, step=4, total=10, loss=0.25, acc=0.5)
    assert (p.bar.value, p.bar.max) == (4, 10)
    assert p.label.value == "epoch 2 · step 4/10 · loss 0.2500 · acc 50.0%"
    p.close()
    assert p.closed


def test_progress_auto_is_text_outside_a_kernel():
    assert Progress(3, mode="auto", file=io.StringIO()).widget is False


# --------------------------------------------------------------------------- issue 14
def _png_ok(data: str) -> bool:
    import base64

    return base64.b64decode(data).startswith(b"\x89PNG\r\n\x1a\n")


def test_stepper_counts_from_the_steps_own_start_not_from_widget_creation():
    w = TrainingStepper()
    fresh = TrainingStep(inplace=True)
    fresh.run_all()
    # "Run All": a later cell loads data between the widget's creation and the first click.
    later_cell_data = ipt.zeros(512, 1024)  # 2 MiB
    w.buttons["zero_grad"].click()
    assert w.step.peak_extra == fresh.peak_extra < 4096
    assert f"step peak {fresh.peak_extra:,} B" in w.status.value
    assert "MiB" not in w.status.value + w.compare.value
    # Allocations between two clicks are not the step's either.
    w.buttons["reset"].click()
    w.buttons["forward"].click()
    more = ipt.zeros(256, 1024)
    w.buttons["zero_grad"].click()
    assert w.step.peak_extra == fresh.peak_extra
    assert f"step peak {fresh.peak_extra:,} B" in w.status.value
    del later_cell_data, more


def test_stepper_ignores_frees_of_storages_it_never_held():
    # The cyclic garbage collector may free an earlier cell's tensors in the middle of one of
    # the step's ops; when it runs depends on the Python version (3.13's first-generation
    # threshold is 2000 allocations, 3.11's 700), so such a free must not count as the step's.
    fresh = TrainingStep(inplace=True)
    fresh.run_all()
    step = TrainingStep(inplace=True)
    was_enabled = gc.isenabled()
    gc.disable()  # the garbage below must survive until the op collects it
    try:
        class Cycle:
            pass
        junk = Cycle()
        junk.me, junk.tensor = junk, ipt.zeros(179)  # 716 B that only the collector frees
        del junk
        phase, name, fn = step.ops[0]
        step.ops[0] = (phase, name, lambda: (gc.collect(), fn()))
        step.run_all()
    finally:
        if was_enabled:
            gc.enable()
    assert step.peak_extra == fresh.peak_extra
    assert step.held == fresh.held


def test_stepper_comparison_shows_the_in_place_saving():
    w = TrainingStepper()
    w.buttons["zero_grad"].click()
    w.toggle.value = False
    w.buttons["zero_grad"].click()
    inp, out = w.peaks["in-place"], w.peaks["out-of-place"]
    # relu() allocates a second 16 x 8 float32 activation; relu_() writes into h.
    assert out - inp == 16 * 8 * 4
    assert f"in-place saves {out - inp:,} B" in w.compare.value


def test_stepper_says_what_each_click_did_and_steps_back():
    w = TrainingStepper()
    w.buttons["forward"].click()
    w.buttons["backward"].click()
    w.buttons["update"].click()
    assert "Update: ran 4 ops" in w.message.value and "0 B" in w.message.value
    fig_texts = [t.get_text() for t in
                 ipt.viz.memory_timeline(w.step.trace).axes[0].texts]
    assert "update: 0 B" in fig_texts  # the band is there even though nothing was allocated
    w.buttons["zero_grad"].click()
    w.buttons["forward"].click()
    assert "already ran" in w.message.value
    w.buttons["next"].click()
    assert "complete" in w.message.value
    done = list(w.step.done)
    trace_len = len(w.step.trace.events)
    w.buttons["back"].click()
    assert w.step.done == done[:-1] and w.step.op_index == len(done) - 1
    assert len(w.step.trace.events) < trace_len
    w.buttons["next"].click()
    assert w.step.done == done and len(w.step.trace.events) == trace_len
    w.buttons["reset"].click()
    w.buttons["back"].click()
    assert "Nothing to undo" in w.message.value


def test_stepper_before_first_op_shows_text_not_an_empty_picture():
    w = TrainingStepper()
    assert w.graph_image.layout.display == "none" and w.timeline_image.layout.display == "none"
    assert "No op has run yet" in w.graph_empty.value
    w.buttons["next"].click()
    assert w.graph_image.layout.display is None and w.graph_empty.layout.display == "none"


@pytest.mark.parametrize("make", [TrainingStepper, StrideExplorer, HazardLab])
def test_every_widget_bundle_has_a_static_picture_and_readable_text(make):
    w = make()
    data = w._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data
    assert _png_ok(data["image/png"])
    assert "children=" not in data["text/plain"]
    assert data["text/plain"].startswith(type(w).__name__ + " (interactive")


def test_widget_html_uses_theme_variables_not_fixed_text_colours():
    w = TrainingStepper()
    h = HazardLab()
    h.run_button.click()
    s = StrideExplorer()
    for html_text in (w.status.value, w.compare.value, w.message.value, w.storages.value,
                      h.output.value, s.message.value):
        assert "var(--jp-ui-font-color1" in html_text
        assert "color:#" not in html_text.replace(" ", "")


def test_stride_explorer_draws_once_per_change_and_never_for_the_same_view():
    w = StrideExplorer()
    n = w.redraws
    w.shape.value = "3,4"   # same view, different text: nothing to draw
    assert w.redraws == n
    w.stride.value = "1, 3"
    assert w.redraws == n + 1
    w.shape.value = "1"
    w.stride.value = "1"
    assert "1 element over 1 of 12 cells" in w.message.value


def test_hazard_lab_rounds_gradients_aligns_headers_and_forgets_old_predictions():
    w = HazardLab()
    w.forward.value, w.target.value = "sigmoid", "input x"
    w.prediction.value = "it fails"
    w.forward.value = "exp"  # a new scenario: the old guess must not be graded against it
    assert w.prediction.value is None
    w.prediction.value = "backward works"
    w.run_button.click()
    assert w.result.prediction_correct is True and w.prediction.value is None
    assert "a.grad = [[" in w.output.value
    import re

    assert not re.search(r"\d\.\d{6,}", w.output.value)  # no 16-digit floats
    assert w.output.value.count("<th style") == 5 and "saved at version</th>" in w.output.value
    w.run_button.click()
    assert "make a prediction first" in w.output.value


def test_progress_numbers_epochs_from_one():
    calls = []
    model = ipt.nn.Linear(2, 2)
    x, y = ipt.randn(8, 2), ipt.tensor([0, 1] * 4)
    loader = ipt.data.DataLoader(ipt.data.TensorDataset(x, y), batch_size=4)
    ipt.models.train(model, loader, ipt.optim.SGD(model.parameters(), lr=0.1), epochs=2,
                     progress=lambda **kw: calls.append(kw["epoch"]))
    assert calls == [1, 1, 2, 2]


def test_stride_explorer_strip_stays_put_when_the_input_turns_invalid(monkeypatch):
    from inplace_tutorial import viz

    figs = []
    real = viz.to_png
    monkeypatch.setattr(viz, "to_png", lambda fig: figs.append(fig) or real(fig))
    w = StrideExplorer()
    w.shape.value = "4, 4"  # out of bounds: only x is drawn
    assert "RuntimeError" in w.message.value

    def first_cell_x(fig) -> float:  # where the storage strip starts, in inches
        return min(p.get_x() for p in fig.axes[0].patches if p.get_width() > 0.3)

    assert len(figs) == 2 and first_cell_x(figs[0]) == first_cell_x(figs[1])


def test_stepper_message_counts_allocations_not_only_the_net_change():
    w = TrainingStepper(inplace=False)
    w.buttons["backward"].click()
    w.buttons["update"].click()
    # sub(lr * g) allocates a temporary and new weights, then frees as much: net 0, not "nothing".
    assert "allocated nothing" not in w.message.value
    assert "allocated 536 B, freed 536 B; the step holds as much as before" in w.message.value
