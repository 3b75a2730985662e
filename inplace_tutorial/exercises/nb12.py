"""Exercises for notebook 12 (the KV cache)."""
from __future__ import annotations

import inplace_tutorial as ipt

from ..ops.joining import cat
from . import exercise
from .answers import short


@exercise("12.1", hint=(
    "Position t is one slice of dimension 2; assigning to that slice writes into the cache.",
    "Assigning k to a slice of length 1 starting at t, in dimension 2, writes in place (so "
    "does index_copy_ along dimension 2).",
    "Return a slice of the cache, which is a view: positions 0 up to and including t."))
def _(answer):
    if not callable(answer):
        return False, f"answer should be a function append_(cache, k, t), not {short(answer)}"
    ipt.manual_seed(12)
    cache = ipt.zeros(1, 4, 10, 8)
    keys = [ipt.randn(1, 4, 1, 8) for _ in range(3)]
    storage = cache.untyped_storage()
    for t, k in enumerate(keys):
        out = answer(cache, k, t)
    if cache.untyped_storage() is not storage:
        return False, "the cache has new storage: write into it in place"
    if cache._version == 0:
        return False, "the cache was not written (its version is still 0)"
    expected = ipt.cat(keys, dim=2)
    if (cache[:, :, :3] - expected).abs().amax().item() != 0:
        return False, "the cache does not hold key t at position t"
    if cache[:, :, 3:].abs().amax().item() != 0:
        return False, "positions after t were written too"
    if not isinstance(out, ipt.Tensor) or tuple(out.shape) != (1, 4, 3, 8):
        shape = tuple(out.shape) if isinstance(out, ipt.Tensor) else short(out)
        return False, f"after t = 2 the answer should have shape (1, 4, 3, 8), got {shape}"
    if out.untyped_storage() is not storage:
        return False, "the returned keys are a copy: return a view (a slice) of the cache"
    if (out - expected).abs().amax().item() != 0:
        return False, "the returned keys are not positions 0 .. t of the cache"
    return True, "written in place, and the returned keys are a view of the cache"


def cat_bytes(prompt: int, tokens: int, heads: int, head_dim: int) -> int:
    """Bytes allocated by ``K = cat([K, k], dim=2)`` for ``tokens`` one-token steps, measured."""
    with ipt.inference_mode():
        K = ipt.zeros(1, heads, prompt, head_dim)
        k = ipt.zeros(1, heads, 1, head_dim)  # one new key, made outside the count
        with ipt.memory.record() as trace:
            for _ in range(tokens):
                K = cat([K, k], dim=2)
    return sum(e.nbytes for e in trace.events if e.kind == "alloc")


@exercise("12.2", hint=(
    "The t-th cat allocates a tensor for every position it then holds, not just the new one.",
    "One position of one layer's keys is heads * head_dim * 4 bytes; after the t-th token the "
    "cache holds 4 + t positions.",
    "Add (4 + t) positions for t = 1 .. 100, times the bytes of one position."))
def _(answer):
    if isinstance(answer, bool) or not isinstance(answer, (int, float)):
        return False, f"answer should be a number of bytes, not {short(answer)}"
    expected = cat_bytes(4, 100, 4, 16)
    if answer == expected:
        return True, (f"{expected:,} B: every token copies the whole cache, so the total grows "
                      "with the square of the length")
    if answer == 100 * 4 * 16 * 4:
        return False, "that counts only the new positions: each cat allocates the whole cache"
    return False, f"{short(answer)} B is not what 100 cat calls allocate; count positions per call"
