"""Keys and values kept during generation, three ways, and a generation loop that measures them.

Each generated token adds one position of keys and values to every layer. ``ConcatCache``
grows them with ``cat``: a new, longer storage every token, the old one freed. ``KVCache``
(gpt.py) writes the new position into storage preallocated for ``block_size`` positions, by
slice assignment; ``IndexCopyCache`` writes the same cells with ``index_copy_``.
``generate_measured`` runs greedy generation and records, per token, the bytes allocated,
the bytes still held, and the identity and version of layer 0's key storage.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import memory
from ..autograd import grad_mode
from ..ops.joining import cat
from ..range_factories import arange
from ..tensor import Tensor
from ..tensor_new import tensor
from .gpt import GPT, KVCache


class ConcatCache:
    """Grows keys and values by one position per token: ``k_all = cat([k_all, k], dim=2)``."""

    def __init__(self, n_layer: int):
        self.keys: list[Tensor | None] = [None] * n_layer
        self.values: list[Tensor | None] = [None] * n_layer
        self.pos = 0

    def update(self, k: Tensor, v: Tensor, layer: int) -> tuple[Tensor, Tensor]:
        if self.keys[layer] is None:
            # k is a view into the fused q/k/v projection: keep a compact copy, not the view,
            # which would keep the whole projection (three times the bytes) alive
            self.keys[layer], self.values[layer] = k.contiguous(), v.contiguous()
        else:
            self.keys[layer] = cat([self.keys[layer], k], dim=2)
            self.values[layer] = cat([self.values[layer], v], dim=2)
        return self.keys[layer], self.values[layer]


class IndexCopyCache(KVCache):
    """KVCache written with ``index_copy_`` along the position dimension instead of a slice."""

    def update(self, k: Tensor, v: Tensor, layer: int) -> tuple[Tensor, Tensor]:
        start, n = self.pos, k.shape[2]
        where = arange(start, start + n)
        self.keys[layer].index_copy_(2, where, k)
        self.values[layer].index_copy_(2, where, v)
        return self.keys[layer][:, :, :start + n], self.values[layer][:, :, :start + n]


CACHES: dict[str, Callable[[GPT], object]] = {
    "cat": lambda m: ConcatCache(m.n_layer),
    "preallocated": lambda m: KVCache(m.n_layer, 1, m.n_head, m.block_size,
                                      m.n_embd // m.n_head),
    "index_copy_": lambda m: IndexCopyCache(m.n_layer, 1, m.n_head, m.block_size,
                                            m.n_embd // m.n_head),
}
MODES = {"inference_mode": grad_mode.inference_mode, "no_grad": grad_mode.no_grad,
         "grad enabled": grad_mode.enable_grad}


@dataclass(frozen=True)
class TokenStep:
    """One generated token: what its forward pass allocated, and what stays allocated."""

    position: int  # position of the token fed in (the prompt's last, then each new one)
    allocated: int  # bytes allocated during this step (every alloc event, freed or not)
    held: int  # bytes allocated after the step, above what was allocated before generation
    keys_ptr: int | None  # data_ptr() of layer 0's keys (None without a cache)
    keys_version: int | None  # their _version (None: inference tensors have no version)


def generate_measured(model: GPT, prompt: list[int], new_tokens: int, cache: str | None,
                      mode: str = "inference_mode") -> tuple[list[int], list[TokenStep], object]:
    """Greedy generation of ``new_tokens`` after ``prompt`` with a cache from ``CACHES`` (or
    None: each step runs the whole sequence again), under one of ``MODES``.

    Returns (all token ids, one TokenStep per forward pass, the cache). The first pass feeds
    the prompt; each later pass feeds one token. Sequences stay within ``block_size``.
    """
    if len(prompt) + new_tokens > model.block_size:
        raise ValueError(f"{len(prompt)} + {new_tokens} tokens exceed block_size "
                         f"{model.block_size}")
    was_training = model.training
    model.eval()
    ids, steps = list(prompt), []
    start = memory.memory_allocated()
    with MODES[mode]():
        kv = None if cache is None else CACHES[cache](model)
        for i in range(new_tokens):
            window = ids if kv is None or i == 0 else ids[-1:]
            with memory.record() as trace:
                logits = model(tensor([window]), cache=kv)
                ids.append(int(np.argmax(logits[0, -1].detach().numpy())))
                del logits
            keys = None if kv is None else kv.keys[0]
            steps.append(TokenStep(
                position=len(ids) - 2,
                allocated=sum(e.nbytes for e in trace.events if e.kind == "alloc"),
                held=memory.memory_allocated() - start,
                keys_ptr=None if keys is None else keys.data_ptr(),
                keys_version=None if keys is None or keys.is_inference() else keys._version))
    model.train(was_training)
    return ids, steps, kv


__all__ = ["CACHES", "MODES", "ConcatCache", "IndexCopyCache", "TokenStep",
           "generate_measured"]
