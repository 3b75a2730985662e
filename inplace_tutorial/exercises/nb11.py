"""Exercises for notebook 11 (in-place inside a Transformer).

11.1's truth is computed: each of the six lines is run on the core and backward decides.
11.2 runs the learner's attention against a reference and counts its (T, T)-sized buffers.
"""
from __future__ import annotations

import math

import inplace_tutorial as ipt

from .. import memory, nn
from ..models.gpt import Block
from ..nn import functional as F
from . import exercise
from .answers import names, short

LETTERS = "abcdef"
B, H, T, D = 2, 2, 6, 4  # T != D: a (T, T) buffer never has a (T, D) buffer's size


def _qkv(seed: int = 11):
    ipt.manual_seed(seed)
    return [ipt.randn(B, H, T, D, requires_grad=True) for _ in range(3)]


def _future():
    return ipt.arange(T).unsqueeze(0) > ipt.arange(T).unsqueeze(1)


def _scenario(letter: str):
    """Run line ``letter`` of the table in its context; return a tensor to call backward on."""
    ipt.manual_seed(11)
    block = Block(16, 2, T)
    drop = nn.Dropout(0.1, inplace=True)
    q, k, v = _qkv()
    scores = q.matmul(k.transpose(-2, -1)) * D ** -0.5
    if letter == "a":
        scores.masked_fill_(_future(), float("-inf"))
        return scores.softmax(-1).matmul(v)
    if letter == "b":
        probs = scores.softmax(-1)
        probs.masked_fill_(_future(), 0.0)
        return probs.matmul(v)
    if letter == "f":
        return drop(scores.softmax(-1)).matmul(v)
    x = ipt.randn(1, T, 16, requires_grad=True) * 1.0
    if letter == "c":
        x += block.attn(block.ln1(x))
        return x
    if letter == "d":
        h = block.attn(block.ln1(x))
        h += x
        return h
    return drop(F.gelu(block.fc(x)))  # "e"


def breaks(letter: str) -> bool:
    """Does backward fail after line ``letter``? (Run, not looked up.)"""
    try:
        _scenario(letter).sum().backward()
    except RuntimeError as e:
        if "modified by an inplace operation" in str(e):
            return True
        raise
    return False


@exercise("11.1", hint=(
    "For each line ask: which node made the tensor being written, and did that node (or a "
    "later consumer, before the write) save it for backward?",
    "softmax saves its result; LayerNorm saves its input; a linear layer, GELU and a matmul "
    "save their inputs; multiplying by a number saves nothing.",
    "Three lines write into a tensor that a backward formula needs."))
def _(answer):
    got = names(answer)
    if got is None and isinstance(answer, str):
        got = {c for c in set(answer) if c.isalpha()}  # (set() first: a huge string stays quick)
    if got is None:
        return False, f"answer a set of letters like {{\"a\", \"c\"}}, not {short(answer)}"
    got = {g.lower() for g in got}
    unknown = got - set(LETTERS)
    if unknown:
        return False, f"the lines are a to f; {sorted(unknown)} is not one of them"
    truth = {c for c in LETTERS if breaks(c)}
    missing, extra = sorted(truth - got), sorted(got - truth)
    if missing or extra:
        parts = []
        if extra:
            parts.append(f"{', '.join(extra)}: backward runs fine after "
                         f"{'it' if len(extra) == 1 else 'them'}")
        if missing:
            parts.append(f"you missed {len(missing)} line(s) that break backward")
        return False, "; ".join(parts)
    return True, (f"{', '.join(sorted(truth))} write into a saved tensor (softmax's result, "
                  "LayerNorm's input); the others write into tensors nobody saved")


def _reference(q, k, v, future):
    scores = q.matmul(k.transpose(-2, -1)) * (1.0 / math.sqrt(q.shape[-1]))
    return scores.masked_fill(future, float("-inf")).softmax(-1).matmul(v)


@exercise("11.2", hint=(
    "Count the (T, T) buffers in the obvious version: the product, the scaled scores, the "
    "masked scores, the probabilities.",
    "The product q @ k^T saved q and k, not its result, so you may write into its result.",
    "Scale and mask the product in place (mul_, masked_fill_ with -inf), then softmax."))
def _(answer):
    if not callable(answer):
        return False, f"answer should be a function attend(q, k, v, future), not {short(answer)}"
    q, k, v = _qkv()
    future = _future()
    ref = _reference(q, k, v, future)
    ref.sum().backward()
    ref_grads = [t.grad.clone() for t in (q, k, v)]
    q, k, v = _qkv()
    tt_bytes = B * H * T * T * 4
    with memory.record() as trace:
        out = answer(q, k, v, future)
    if not isinstance(out, ipt.Tensor) or tuple(out.shape) != (B, H, T, D):
        return False, f"attend should return a ({B}, {H}, {T}, {D}) tensor, not {short(out)}"
    if (out.detach() - ref.detach()).abs().amax().item() > 1e-5:
        return False, ("the output differs from causal attention: scale by 1/sqrt(d), put -inf "
                       "where future is True, and softmax over the last dim")
    try:
        out.sum().backward()
    except RuntimeError as e:
        return False, f"backward fails: {str(e).split('. Hint')[0]}"
    worst = max((t.grad - g).abs().amax().item() for t, g in zip((q, k, v), ref_grads))
    if worst > 1e-5:
        return False, f"gradients differ from the reference by up to {worst:.1e}"
    big = [e.nbytes for e in trace.events if e.kind == "alloc" and e.nbytes >= tt_bytes]
    if len(big) > 2:
        return False, (f"your forward allocated {len(big)} buffers of (B, H, T, T) size "
                       f"({tt_bytes:,} B each); two are enough")
    return True, f"causal attention with {len(big)} (T, T)-sized buffers, and backward runs"
