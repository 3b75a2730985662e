"""A Transformer block, core vs PyTorch on one thread.

* block: pre-LN attention (F.scaled_dot_product_attention, causal) + GELU MLP, embedding 64,
  4 heads, sequence 64, batch 16; forward + backward of ``out.sum()``; target <= 2x PyTorch.
* ``torch_gpt_class``: the tiny GPT's modules in PyTorch, used here and by bench_gpt.py (the
  GPT's training step and generation).
Medians of repeated runs; NumPy's BLAS and torch pinned to one thread; the block's core and
PyTorch runs alternate and are timed as CPU time of this thread (timing.py).
"""
from __future__ import annotations

import numpy as np
from bench_training import limit_numpy_blas_threads
from timing import medians

import inplace_tutorial as ipt
from inplace_tutorial import models

EMBD, HEADS, SEQ, BATCH = 64, 4, 64, 16


def torch_gpt_class(torch):
    """The same modules in PyTorch, attribute for attribute (so state_dicts match)."""
    tn, F = torch.nn, torch.nn.functional

    class Attn(tn.Module):
        def __init__(self, c, h):
            super().__init__()
            self.h, self.qkv, self.proj = h, tn.Linear(c, 3 * c), tn.Linear(c, c)

        def forward(self, x, cache=None):
            b, n, c = x.shape
            q, k, v = (t.reshape(b, n, self.h, c // self.h).transpose(1, 2)
                       for t in self.qkv(x).split(c, dim=2))
            start = 0
            if cache is not None:
                start = cache["pos"]
                cache["k"][:, :, start:start + n] = k
                cache["v"][:, :, start:start + n] = v
                k, v = cache["k"][:, :, :start + n], cache["v"][:, :, :start + n]
            if start == 0:
                y = F.scaled_dot_product_attention(q, k, v, is_causal=n > 1)
            else:
                y = F.scaled_dot_product_attention(q, k, v)  # one new token sees all
            return self.proj(y.transpose(1, 2).reshape(b, n, c))

    class Block(tn.Module):
        def __init__(self, c, h):
            super().__init__()
            self.ln1, self.attn, self.ln2 = tn.LayerNorm(c), Attn(c, h), tn.LayerNorm(c)
            self.fc, self.gelu = tn.Linear(c, 4 * c), tn.GELU(approximate="tanh")
            self.fc_out = tn.Linear(4 * c, c)

        def forward(self, x, cache=None):
            x = x + self.attn(self.ln1(x), cache)
            return x + self.fc_out(self.gelu(self.fc(self.ln2(x))))

    class GPT(tn.Module):
        def __init__(self, v, block_size, c, h, layers):
            super().__init__()
            self.block_size = block_size
            self.wte, self.wpe = tn.Embedding(v, c), tn.Embedding(block_size, c)
            self.blocks = tn.Sequential(*[Block(c, h) for _ in range(layers)])
            self.ln_f, self.head = tn.LayerNorm(c), tn.Linear(c, v, bias=False)

        def forward(self, idx, caches=None):
            n = idx.shape[1]
            start = 0 if caches is None else caches[0]["pos"]
            x = self.wte(idx) + self.wpe(torch.arange(start, start + n))
            for i, blk in enumerate(self.blocks):
                x = blk(x, None if caches is None else caches[i])
            if caches is not None:
                for c in caches:
                    c["pos"] += n
            return self.head(self.ln_f(x))

    return Block, GPT


def _copy_state(torch, core_module, torch_module):
    state = {k: torch.tensor(v.numpy().copy()) for k, v in core_module.state_dict().items()
             if k in torch_module.state_dict()}
    torch_module.load_state_dict(state, strict=True)


def block_times(torch) -> dict:
    ipt.manual_seed(0)
    core = models.Block(EMBD, HEADS, SEQ)
    TBlock, _ = torch_gpt_class(torch)
    tb = TBlock(EMBD, HEADS)
    _copy_state(torch, core, tb)
    x = np.random.default_rng(0).standard_normal((BATCH, SEQ, EMBD)).astype(np.float32)
    cx, tx = ipt.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)

    def core_step():
        core(cx).sum().backward()

    def torch_step():
        tb(tx).sum().backward()

    t_core, t_torch = medians([core_step, torch_step], repeat=30, block=10)  # in turns (timing.py)
    return {"core_ms": t_core * 1e3, "torch_ms": t_torch * 1e3, "ratio": t_core / t_torch}


def main() -> dict:
    import torch

    limit_numpy_blas_threads(1)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        r = block_times(torch)
    finally:
        torch.set_num_threads(threads)  # the next benchmark module sees the default again
    ok = "meets" if r["ratio"] <= 2.0 else "MISSES"
    result = {"block fwd+bwd": f"core {r['core_ms']:.2f} ms | torch(1 thread) "
                               f"{r['torch_ms']:.2f} ms -> {r['ratio']:.2f}x ({ok} the 2x target)"}
    return result


if __name__ == "__main__":
    for k, v in main().items():
        print(f"{k}: {v}")
