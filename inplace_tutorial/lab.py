"""lab: the workshop's two scenarios (notebook 10), with checkers that run the learner's code.

1. A training step that fails with "modified by an inplace operation". Its source is kept as
   text and compiled under the file name ``broken_step.py`` so anomaly mode can name its lines.
   ``check_fix(fn)`` runs a learner's fixed step and compares every gradient with a reference.
2. An inference function whose peak memory learners cut. ``check_memory(fn)`` measures the peak
   of the baseline and of the learner's function with ``ipt.memory`` and compares outputs.
"""
from __future__ import annotations

import linecache
import re
from collections.abc import Callable

import inplace_tutorial as ipt
from inplace_tutorial import nn
from inplace_tutorial.nn import functional as F

# ----------------------------------------------------------------------------- scenario 1
BROKEN_FILE = "broken_step.py"
BROKEN_STEP = """\
def train_step(model, x, target):
    h = model.fc1(x)
    h.relu_()                        # in-place ReLU
    g = model.fc2(h).sigmoid()
    g.mul_(2).sub_(1)                # rescale (0, 1) -> (-1, 1), in place
    logits = model.head(g)
    loss = F.cross_entropy(logits, target)
    loss.backward()
    return loss
"""


class LabNet(nn.Module):
    """8 features -> 32 -> 32 -> 4 classes: fc1, fc2, head."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2, self.head = nn.Linear(8, 32), nn.Linear(32, 32), nn.Linear(32, 4)


def make_model(seed: int = 0) -> LabNet:
    ipt.manual_seed(seed)
    return LabNet()


def make_batch(seed: int = 1, n: int = 16) -> tuple:
    ipt.manual_seed(seed)
    x = ipt.randn(n, 8)
    return x, (ipt.rand(n) * 4).long()  # class labels 0..3


def _compile_broken() -> Callable:
    # Register the source so tracebacks and anomaly mode can show the lines.
    linecache.cache[BROKEN_FILE] = (len(BROKEN_STEP), None, BROKEN_STEP.splitlines(True),
                                    BROKEN_FILE)
    ns = {"F": F, "ipt": ipt}
    exec(compile(BROKEN_STEP, BROKEN_FILE, "exec"), ns)
    return ns["train_step"]


broken_train_step = _compile_broken()


def show_broken() -> None:
    """Print the broken step with line numbers, as a learner would read the script."""
    for i, line in enumerate(BROKEN_STEP.splitlines(), 1):
        print(f"{i:>2} | {line}")


def culprit_line() -> int:
    """The line of broken_step.py that anomaly mode blames (computed by running it)."""
    model, (x, target) = make_model(), make_batch()
    try:
        with ipt.autograd.detect_anomaly():
            broken_train_step(model, x, target)
    except RuntimeError as e:
        since = str(e).split("modified in place since by:")[-1]
        hits = re.findall(rf"at {re.escape(BROKEN_FILE)}, line (\d+)", since)
        if hits:
            return int(hits[0])
    raise AssertionError("the broken step did not fail as expected")


def _reference_step(model, x, target):
    h = model.fc1(x).relu()
    g = model.fc2(h).sigmoid() * 2 - 1
    loss = F.cross_entropy(model.head(g), target)
    loss.backward()
    return loss


def check_fix(step: Callable) -> tuple[bool, str]:
    """Run ``step(model, x, target)`` on a fresh model; compare loss and grads with a reference."""
    if not callable(step):
        return False, "pass a function train_step(model, x, target) that returns the loss"
    x, target = make_batch()
    ref_model, model = make_model(), make_model()
    ref_loss = _reference_step(ref_model, x, target)
    loss = step(model, x, target)
    if loss is None or abs(float(loss.item()) - ref_loss.item()) > 1e-5:
        return False, "the loss differs from the original script's: keep the computation the same"
    worst = 0.0
    for (name, p), q in zip(model.named_parameters(), ref_model.parameters(), strict=True):
        if p.grad is None:
            return False, f"{name}.grad is None: did you call loss.backward()?"
        worst = max(worst, (p.grad - q.grad).abs().max().item())
    if worst > 1e-5:
        return False, f"gradients differ from the reference by up to {worst:.2e}"
    return True, f"loss {loss.item():.4f}, all {len(list(model.parameters()))} gradients match"


# ----------------------------------------------------------------------------- scenario 2
class Encoder(nn.Module):
    """64 -> 256 -> 256 -> 10, used for inference only."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2, self.out = nn.Linear(64, 256), nn.Linear(256, 256), nn.Linear(256, 10)


def make_encoder(seed: int = 0) -> Encoder:
    ipt.manual_seed(seed)
    return Encoder()


def make_inputs(seed: int = 2, n: int = 256):
    ipt.manual_seed(seed)
    return ipt.randn(n, 64)


def baseline_predict(model, x):
    """The script as written: autograd on, every intermediate kept in a variable."""
    h1 = model.fc1(x)
    a1 = h1.relu()
    h2 = model.fc2(a1)
    a2 = h2.tanh()
    return model.out(a2)


def measure_peak(predict: Callable, model=None, x=None) -> tuple[int, object]:
    """(peak bytes above the start, output) of ``predict(model, x)``; the output is counted."""
    model = make_encoder() if model is None else model
    x = make_inputs() if x is None else x
    with ipt.memory.record() as tr:
        out = predict(model, x)
    return tr.peak - tr.start_allocated, out


REQUIRED_CUT = 0.4  # at least 40% of the baseline's peak must go


def check_memory(predict: Callable, required: float = REQUIRED_CUT) -> tuple[bool, str]:
    if not callable(predict):
        return False, "pass a function predict(model, x) that returns the model's output"
    base_peak, base_out = measure_peak(baseline_predict)
    peak, out = measure_peak(predict)
    if out is None or tuple(out.shape) != tuple(base_out.shape):
        return False, "predict must return the (256, 10) output"
    diff = (out.detach() - base_out.detach()).abs().max().item()
    if diff > 1e-6:
        return False, f"outputs differ from the baseline by {diff:.2e}: the result must not change"
    cut = 1 - peak / base_peak
    if cut < required:
        return False, (f"peak {peak:,} B vs baseline {base_peak:,} B: cut {cut:.0%}, "
                       f"need at least {required:.0%}")
    return True, f"peak {peak:,} B vs baseline {base_peak:,} B: cut {cut:.0%}, same outputs"


# ----------------------------------------------------------------------------- scenario 3
def make_params_with_grads(seed: int = 3) -> list:
    ipt.manual_seed(seed)
    params = [ipt.randn(512, 512, requires_grad=True), ipt.randn(512, requires_grad=True)]
    for p in params:
        p.grad = ipt.randn(*p.shape)
    return params


def check_sgd(update: Callable, lr: float = 0.1) -> tuple[bool, str]:
    """``update(params, lr)`` must give SGD's result, in place, with no full-size temporary.

    The limit is "less than one copy of the largest parameter", so a kernel that works in
    small chunks of scratch would still pass; the fused ``add_(g, alpha=)`` allocates nothing.
    """
    if not callable(update):
        return False, "pass a function update(params, lr)"
    ref = make_params_with_grads()
    with ipt.no_grad():
        expected = [p - lr * p.grad for p in ref]
    params = make_params_with_grads()
    storages = [p.untyped_storage() for p in params]
    with ipt.memory.record() as tr:
        update(params, lr)
    extra = tr.peak - tr.start_allocated
    if any(p.untyped_storage() is not s for p, s in zip(params, storages, strict=True)):
        return False, "the parameters must be updated in place (same storage)"
    worst = max((p.detach() - e).abs().max().item() for p, e in zip(params, expected, strict=True))
    if worst > 1e-6:
        return False, f"parameters differ from p - lr * p.grad by {worst:.2e}"
    largest = max(p.untyped_storage().nbytes() for p in params)
    if extra >= largest:
        return False, (f"your update's peak is {extra:,} B: a full-size temporary (the largest "
                       f"parameter is {largest:,} B)")
    return True, f"in place, correct, peak extra {extra:,} B (largest parameter {largest:,} B)"
