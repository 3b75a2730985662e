"""lab: the workshop's scenarios (notebook 10), with checkers that run the learner's code.

1. A training step that fails with "modified by an inplace operation". Its source is kept as
   text and compiled under the file name ``broken_step.py`` so anomaly mode can name its lines.
   ``check_fix(fn)`` runs a learner's fixed step and compares every gradient with a reference.
2. An inference function whose peak memory learners cut. ``check_memory(fn)`` measures the peak
   of the baseline and of the learner's function with ``ipt.memory`` and compares outputs; the
   stretch task asks for a cut of over 90% (process the batch in chunks).
3. Gradient clipping by total norm, in place. ``check_clip(fn)`` compares with the formula of
   PyTorch's ``clip_grad_norm_`` and measures the peak.
4. and 5. The Transformer scenarios (a broken attention block; a generation loop's cache) live
   in ``lab_transformer.py`` and are re-exported here, so notebook 10 reads ``lab.<name>``.
"""
from __future__ import annotations

import inspect
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


BROKEN_IMPORTS = ("import inplace_tutorial as ipt",
                  "from inplace_tutorial.nn import functional as F")


def show_broken() -> None:
    """Print the broken step with line numbers, as a learner would read the script."""
    print(f"# {BROKEN_FILE} runs with: " + "; ".join(BROKEN_IMPORTS))
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
    if not isinstance(loss, ipt.Tensor) or loss.numel() != 1:
        return False, "train_step should return the loss (a one-element tensor)"
    if abs(float(loss.item()) - ref_loss.item()) > 1e-5:
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


def show_baseline() -> None:
    """Print the code of baseline_predict, the script 10.3 starts from."""
    print(inspect.getsource(baseline_predict).rstrip())


def measure_peak(predict: Callable, model=None, x=None) -> tuple[int, object]:
    """(peak bytes above the start, output) of ``predict(model, x)``; the output is counted."""
    model = make_encoder() if model is None else model
    x = make_inputs() if x is None else x
    with ipt.memory.record() as tr:
        out = predict(model, x)
    return tr.peak - tr.start_allocated, out


REQUIRED_CUT = 0.4  # 10.3: at least 40% of the baseline's peak must go
STRETCH_CUT = 0.9   # 10.5: over 90%


def check_memory(predict: Callable, required: float = REQUIRED_CUT) -> tuple[bool, str]:
    """``predict(model, x)`` must give the baseline's output, with no autograd graph attached,
    and a peak at least ``required`` below the baseline's.

    The checker uses a model and a batch the learner has not seen (other seeds), so an output
    stored by an earlier call can't pass. No graph is required: an output that carries one
    keeps the saved activations alive for as long as the caller holds it.
    """
    if not callable(predict):
        return False, "pass a function predict(model, x) that returns the model's output"
    model, x = make_encoder(seed=11), make_inputs(seed=12)
    base_peak, base_out = measure_peak(baseline_predict, model, x)
    with ipt.memory.record() as tr:
        out = predict(model, x)
        alive = ipt.memory.memory_allocated() - tr.start_allocated
    peak = tr.peak - tr.start_allocated
    if not isinstance(out, ipt.Tensor) or tuple(out.shape) != tuple(base_out.shape):
        return False, f"predict must return the {tuple(base_out.shape)} output"
    diff = (out.detach() - base_out.detach()).abs().max().item()
    if diff > 1e-6:
        return False, f"outputs differ from the baseline by {diff:.2e}: the result must not change"
    out_bytes = out.untyped_storage().nbytes()
    if out.requires_grad:
        return False, (f"your output carries an autograd graph ({out.grad_fn.name()}): it keeps "
                       f"{alive - out_bytes:,} B of saved tensors alive for as long as the caller "
                       "holds the output. Inference records no graph")
    if peak < out_bytes:
        return False, (f"predict allocated {peak:,} B, less than its own {out_bytes:,} B output: "
                       "it must compute the output on the batch it is given")
    cut = 1 - peak / base_peak
    if cut < required:
        return False, (f"peak {peak:,} B vs baseline {base_peak:,} B: cut {cut:.0%}, "
                       f"need at least {required:.0%}")
    return True, f"peak {peak:,} B vs baseline {base_peak:,} B: cut {cut:.0%}, same outputs"


# ----------------------------------------------------------------------------- scenario 3
MAX_NORM = 1.0
EPS = 1e-6  # PyTorch's clip_grad_norm_ divides by total_norm + 1e-6


def make_params_with_grads(seed: int = 3, grad_scale: float = 1.0) -> list:
    """A (512, 512) weight and a (512,) bias with random gradients (times ``grad_scale``)."""
    ipt.manual_seed(seed)
    params = [ipt.randn(512, 512, requires_grad=True), ipt.randn(512, requires_grad=True)]
    for p in params:
        p.grad = ipt.randn(*p.shape).mul_(grad_scale)
    return params


def clip_grads_naive_(params, max_norm: float):
    """The obvious version: right values, but each `g * g` is a full-size temporary, and
    `p.grad * scale` puts a new tensor in p.grad instead of scaling the old one."""
    grads = [p.grad for p in params if p.grad is not None]
    total = sum((g * g).sum() for g in grads) ** 0.5
    scale = max_norm / (total + EPS)
    if scale < 1:
        for p in params:
            if p.grad is not None:
                p.grad = p.grad * scale
    return total


def expected_clip(params, max_norm: float) -> tuple[float, list]:
    """(total norm, the clipped gradients) by clip_grad_norm_'s formula, in float64."""
    grads = [p.grad.double() for p in params if p.grad is not None]
    total = sum((g * g).sum().item() for g in grads) ** 0.5
    coef = min(max_norm / (total + EPS), 1.0)
    return total, [g * coef for g in grads]


def check_clip(clip: Callable, max_norm: float = MAX_NORM) -> tuple[bool, str]:
    """``clip(params, max_norm)`` scales the gradients in place by clip_grad_norm_'s rule
    and returns the total norm, with no temporary as large as the largest gradient."""
    if not callable(clip):
        return False, "pass a function clip_grads_(params, max_norm) that returns the total norm"
    peaks = []
    for grad_scale in (1.0, 1e-4):  # large gradients get clipped, small ones stay as they are
        params = make_params_with_grads(grad_scale=grad_scale)
        params.append(ipt.zeros(3, requires_grad=True))  # grad None: must be skipped
        total, expected = expected_clip(params, max_norm)
        grads = [p.grad for p in params]
        storages = [g.untyped_storage() if g is not None else None for g in grads]
        weights = [p.detach().clone() for p in params]
        with ipt.memory.record() as tr:
            got = clip(params, max_norm)
        peaks.append(tr.peak - tr.start_allocated)
        if any(p.grad is not g for p, g in zip(params, grads)) or any(
                g is not None and g.untyped_storage() is not s for g, s in zip(grads, storages)):
            return False, ("p.grad must be scaled in place: a new tensor in p.grad doubles the "
                           "memory while both exist, and whoever holds the old one misses the clip")
        if any(p.tolist() != w.tolist() for p, w in zip(params, weights)):
            return False, "clipping changes the gradients only; the parameters must not change"
        try:
            got_total = float(got.item() if isinstance(got, ipt.Tensor) else got)
        except (TypeError, ValueError):
            return False, "return the total norm of all gradients (a number or 0-d tensor)"
        if abs(got_total - total) > 1e-4 * total:
            return False, f"the total norm is {total:.4g}, you returned {got_total:.4g}"
        worst = max(((p.grad.double() - e).abs().max().item() / max(e.abs().max().item(), 1e-30))
                    for p, e in zip(params, expected))
        if worst > 1e-5:
            what = "clipped" if total > max_norm else "left as they were"
            return False, f"with a total norm of {total:.4g} the gradients should be {what}"
    largest = max(p.grad.untyped_storage().nbytes() for p in params if p.grad is not None)
    peak = max(peaks)
    if peak >= largest:
        return False, (f"right values, but your clipping peaked at {peak:,} B: a temporary as "
                       f"large as a gradient ({largest:,} B)")
    return True, (f"gradients clipped in place, norm right, peak extra {peak:,} B "
                  f"(largest gradient {largest:,} B)")


# ----------------------------------------------------------------------------- scenarios 4-5
from .lab_transformer import (  # noqa: E402, F401  (re-exported for notebook 10)
    ATTENTION_FILE,
    BROKEN_ATTENTION,
    NEW_TOKENS,
    PROMPT,
    REQUIRED_FACTOR,
    LabAttention,
    attention_culprit_line,
    broken_block_step,
    check_attention_fix,
    check_generate,
    embed,
    generate_with_cat,
    make_attention,
    make_decoder,
    make_tokens,
    measure_allocated,
    next_token,
    show_broken_attention,
)
