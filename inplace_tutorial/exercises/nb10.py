"""Exercises for notebook 10 (workshop lab); the checkers live in ``inplace_tutorial.lab``."""
from __future__ import annotations

from .. import lab
from . import exercise
from .answers import short, whole_number


@exercise("10.1", hint=(
    "The plain error names the tensor and its versions, not the line. Which mode records "
    "where each op was called?",
    "Run lab.broken_train_step inside `with ipt.autograd.detect_anomaly():`.",
    "Read the part after 'It was modified in place since by:': it names a line of "
    "broken_step.py."))
def _(answer):
    got = whole_number(answer)
    if got is None:
        return False, f"answer must be a line number of broken_step.py, not {short(answer)}"
    truth = lab.culprit_line()
    if got != truth:
        return False, f"line {got} is not the one that modified a saved tensor"
    return True, f"line {truth}: it overwrites sigmoid's output, which SigmoidBackward0 saved"


@exercise("10.2", hint=(
    "Fix only the line 10.1 found; copy the rest of the script as it is.",
    "relu_ on line 3 can stay: nothing had saved h before it, and ReLU saves its own output.",
    "Line 5 overwrote what SigmoidBackward0 saved: compute the same rescale so that it makes "
    "a new tensor."))
def _(answer):
    return lab.check_fix(answer)


@exercise("10.3", hint=(
    "Look at the timeline: what is alive at the peak, and what keeps each buffer alive?",
    "Two things hold buffers: your variable names, and an autograd graph (what backward "
    "would need). Inference needs neither.",
    "Three tools: no_grad()/inference_mode(), relu_()/tanh_(), and reusing one name so the "
    "previous buffer is freed."))
def _(answer):
    return lab.check_memory(answer)


@exercise("10.4", hint=(
    "Two parts: one number for all gradients together, then one in-place scale of each "
    "gradient, only when that number exceeds max_norm.",
    "The total norm is the square root of the sum, over gradients, of each one's sum of "
    "squares. g * g is a full-size temporary; a dot product of g with itself is not.",
    "g.view(-1) is a flat view of g (no copy). Scale with an in-place method on p.grad."))
def _(answer):
    return lab.check_clip(answer)


@exercise("10.5", hint=(
    "At the peak of your 10.3 answer, two (256, 256) activations are alive. What if fewer "
    "rows went through the model at a time?",
    "Linear layers and activations treat each row on its own, so slices of the batch give "
    "the same rows of output.",
    "Make the (256, 10) result once, then fill it slice by slice (out[i:j] = ... or copy_)."))
def _(answer):
    return lab.check_memory(answer, required=lab.STRETCH_CUT)


@exercise("10.6", hint=(
    "Run lab.broken_block_step under `with ipt.autograd.detect_anomaly():` as in Task 1.",
    "Two lines write in place. For each, ask which node saved the tensor it writes into.",
    "The product on line 4 saved q and k, not the scores. LayerNorm on line 3 saved x."))
def _(answer):
    got = whole_number(answer)
    if got is None:
        return False, f"answer must be a line number of broken_attention.py, not {short(answer)}"
    truth = lab.attention_culprit_line()
    if got != truth:
        line = lab.BROKEN_ATTENTION.splitlines()[got - 1].strip() if 0 < got <= len(
            lab.BROKEN_ATTENTION.splitlines()) else ""
        if "masked_fill_" in line:
            return False, (f"line {got} writes into the scores before softmax: the product "
                           "saved q and k, not its result, so that write is safe")
        return False, f"line {got} is not the one that modified a saved tensor"
    return True, (f"line {truth}: x += ... overwrites the stream x, which LayerNorm "
                  "(NativeLayerNormBackward0) saved as its input on line 3")


@exercise("10.7", hint=(
    "Fix only the line 10.6 found; copy the rest as it is.",
    "masked_fill_ on line 5 can stay: it writes into the product's result, which nobody saved.",
    "Make the residual add produce a new tensor (or add in place into the branch's output "
    "instead of into x)."))
def _(answer):
    return lab.check_attention_fix(answer)


@exercise("10.8", hint=(
    "Count what generate_with_cat allocates per token: each cat copies every key and value "
    "so far into a new tensor.",
    "Allocate the keys and values once, for all len(prompt) + new_tokens positions, before "
    "the loop.",
    "Write each step's k and v into their position with slice assignment or index_copy_, and "
    "attend over the first pos + 1 positions of the cache: a slice is a view, not a copy."))
def _(answer):
    return lab.check_generate(answer)
