"""Where a Transformer block's training memory goes, and which bytes in-place ops can save.

``SwitchBlock`` is the tiny GPT's pre-LayerNorm block (``gpt.Block``: same modules, same
weights) with each in-place choice of notebook 11 as a switch (``Choices``). ``measure_block``
runs one forward and backward and reports three numbers: the forward peak, the bytes the graph
saved for backward (the *activation memory*), and the peak of the whole step.
``activation_memory`` repeats that over sequence lengths.
"""
from __future__ import annotations

import gc
import math
from dataclasses import dataclass, field

from .. import memory
from ..generator import manual_seed
from ..nn import functional as F
from ..ops.random_factories import randn
from ..profiler import saved_storages
from ..tensor import Tensor
from .gpt import Block


@dataclass(frozen=True)
class Choices:
    """The switches. Every combination computes the same numbers; only memory differs.

    * ``attention``: ``"written out"`` (scores, mask, softmax, weighted sum: softmax saves the
      (B, H, T, T) probabilities) or ``"sdpa"`` (one ``F.scaled_dot_product_attention``
      call, which saves a row-wise logsumexp instead and recomputes the probabilities).
    * ``inplace_mask``: scale the scores and apply the causal mask in place (safe: the product
      that made the scores saved q and k, not its result).
    * ``inplace_residual``: add the stream into the branch's output, ``h += x; x = h`` (safe:
      the projection that made ``h`` saved its input, not ``h``). ``x += h`` would break
      backward, since LayerNorm saved ``x``; no switch offers that.
    * ``dropout``/``inplace_dropout``: dropout on each branch's output before the residual
      add. The attention probabilities' dropout is always out of place: softmax saved them.
    """

    attention: str = "written out"
    inplace_mask: bool = False
    inplace_residual: bool = False
    dropout: float = 0.0
    inplace_dropout: bool = False

    def __post_init__(self) -> None:
        if self.attention not in ("written out", "sdpa"):
            raise ValueError(f"attention must be 'written out' or 'sdpa', not {self.attention!r}")


class SwitchBlock(Block):
    """``gpt.Block`` whose forward takes its in-place choices from ``choices``."""

    def __init__(self, n_embd: int, n_head: int, block_size: int,
                 choices: Choices = Choices()) -> None:
        super().__init__(n_embd, n_head, block_size, use_sdpa=choices.attention == "sdpa")
        self.choices = choices

    def _attend(self, x: Tensor) -> Tensor:
        attn, ch = self.attn, self.choices
        b, n, c = x.shape
        q, k, v = attn.qkv(x).split(c, dim=2)
        q, k, v = attn._heads(q, b, n), attn._heads(k, b, n), attn._heads(v, b, n)
        if ch.attention == "sdpa":
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            scale, future = 1.0 / math.sqrt(c // attn.n_head), attn.causal_mask[:n, :n]
            if ch.inplace_mask:  # the product saved q and k, not its result: safe
                scores = q.matmul(k.transpose(-2, -1)).mul_(scale)
                scores.masked_fill_(future, float("-inf"))
            else:  # one expression: each temporary is freed as soon as the next exists
                scores = (q.matmul(k.transpose(-2, -1)) * scale).masked_fill(future,
                                                                              float("-inf"))
            p = F.dropout(scores.softmax(-1), ch.dropout, self.training)  # never in place
            y = p.matmul(v)
        return attn.proj(y.transpose(1, 2).reshape(b, n, c))

    def _residual(self, x: Tensor, h: Tensor) -> Tensor:
        ch = self.choices
        h = F.dropout(h, ch.dropout, self.training, ch.inplace_dropout)
        return h.add_(x) if ch.inplace_residual else x + h

    def forward(self, x: Tensor, cache=None, layer: int = 0) -> Tensor:
        if cache is not None:
            raise ValueError("SwitchBlock is for training; generate with gpt.Block")
        x = self._residual(x, self._attend(self.ln1(x)))
        return self._residual(x, self.fc_out(self.gelu(self.fc(self.ln2(x)))))


@dataclass
class BlockMemory:
    """One forward + backward of a block, measured (bytes, above what was allocated before)."""

    seq_len: int
    forward_peak: int
    forward_allocated: int  # all bytes allocated during forward, freed or not
    saved: int  # activation memory: storages the graph saved, parameters excluded
    step_peak: int
    saved_by_op: dict[str, int] = field(default_factory=dict)  # op that made each storage
    trace: memory.Trace | None = None


def measure_block(choices: Choices = Choices(), seq_len: int = 32, batch: int = 4,
                  n_embd: int = 48, n_head: int = 4, seed: int = 0) -> BlockMemory:
    """Build a ``SwitchBlock`` (seeded), run ``block(x).sum().backward()`` and measure it.

    The block's input ``x`` is a leaf that requires grad, like the embedding output it stands
    for; it counts as activation memory when LayerNorm saves it."""
    manual_seed(seed)
    block = SwitchBlock(n_embd, n_head, seq_len, choices)
    x = randn(batch, seq_len, n_embd, requires_grad=True)
    params = {p.untyped_storage().label for p in block.parameters()}
    params |= {t.untyped_storage().label for t in block.buffers()}
    # garbage of earlier code must not be freed inside the measured step: its bytes would
    # come off the count and the forward peak could read below the saved bytes
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        with memory.record() as trace:
            with memory.phase("forward"):
                loss = block(x).sum()
            forward_peak = trace.peak - trace.start_allocated
            forward_allocated = sum(e.nbytes for e in trace.events if e.kind == "alloc")
            saved = {label: n for label, n in saved_storages(loss.grad_fn).items()
                     if label not in params}
            ops = {e.label: e.op for e in trace.events if e.kind == "alloc"}
            by_op: dict[str, int] = {}
            for label, n in saved.items():
                op = "input x" if label == x.untyped_storage().label else ops.get(label, "?")
                by_op[op] = by_op.get(op, 0) + n
            with memory.phase("backward"):
                loss.backward()
    finally:
        if was_enabled:
            gc.enable()
    return BlockMemory(seq_len, forward_peak, forward_allocated, sum(saved.values()),
                       trace.peak - trace.start_allocated,
                       dict(sorted(by_op.items(), key=lambda kv: -kv[1])), trace)


def activation_memory(variants: dict[str, Choices], seq_lens: list[int], batch: int = 4,
                      n_embd: int = 48, n_head: int = 4) -> dict[str, list[BlockMemory]]:
    """``measure_block`` for each named variant at each sequence length (traces dropped)."""
    out: dict[str, list[BlockMemory]] = {}
    for name, choices in variants.items():
        rows = []
        for n in seq_lens:
            m = measure_block(choices, n, batch, n_embd, n_head)
            m.trace = None
            rows.append(m)
        out[name] = rows
    return out


__all__ = ["BlockMemory", "Choices", "SwitchBlock", "activation_memory", "measure_block"]
