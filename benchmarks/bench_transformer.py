"""A Transformer block and the tiny GPT, core vs PyTorch on one thread.

* block: pre-LN attention (F.scaled_dot_product_attention, causal) + GELU MLP, embedding 64,
  4 heads, sequence 64, batch 16; forward + backward of ``out.sum()``; target <= 2x PyTorch.
* the tiny GPT (models.gpt): Adam steps until the held-out loss is below
  models.TARGET_LOSS (checked every 50 steps), within 60 s; one training step and 128-token
  generation with and without the KV cache against the same model in PyTorch.
Medians of repeated runs; NumPy's BLAS and torch pinned to one thread; the block's core and
PyTorch runs alternate and are timed as CPU time of this thread (timing.py).
"""
from __future__ import annotations

import time

import numpy as np
from bench_training import limit_numpy_blas_threads, median_time
from timing import medians

import inplace_tutorial as ipt
from inplace_tutorial import models, optim
from inplace_tutorial.models.gpt import heldout_loss, text_batch, text_corpus

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

    t_core, t_torch = medians([core_step, torch_step], repeat=30)  # in turns (timing.py)
    return {"core_ms": t_core * 1e3, "torch_ms": t_torch * 1e3, "ratio": t_core / t_torch}


def gpt_time_to_target(budget_s: float = 60.0) -> dict:
    ipt.manual_seed(0)
    vocab, train_ids, held_ids = text_corpus()
    model = models.GPT(len(vocab))
    opt = optim.Adam(model.parameters(), lr=5e-3)
    rng = np.random.default_rng(0)
    t0, step, held = time.perf_counter(), 0, float("inf")
    while time.perf_counter() - t0 < budget_s:
        x, y = text_batch(train_ids, 16, model.block_size, rng)
        opt.zero_grad()
        model(x, y)[1].backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            held = heldout_loss(model, held_ids)
            if held < models.TARGET_LOSS:
                break
    return {"steps": step, "seconds": time.perf_counter() - t0, "heldout": held,
            "reached": held < models.TARGET_LOSS, "model": model, "vocab": vocab}


def gpt_step_and_generation(torch, model, vocab) -> dict:
    _, TGPT = torch_gpt_class(torch)
    tm = TGPT(len(vocab), model.block_size, model.n_embd, model.n_head, model.n_layer)
    _copy_state(torch, model, tm)
    _, train_ids, _ = text_corpus()
    x, y = text_batch(train_ids, 16, model.block_size, np.random.default_rng(5))
    tx, ty = torch.tensor(x.numpy()), torch.tensor(y.numpy())
    opt = optim.Adam(model.parameters(), lr=1e-9)
    topt = torch.optim.Adam(tm.parameters(), lr=1e-9, foreach=False)

    def core_step():
        opt.zero_grad()
        model(x, y)[1].backward()
        opt.step()

    def torch_step():
        topt.zero_grad()
        torch.nn.functional.cross_entropy(tm(tx).reshape(-1, len(vocab)),
                                          ty.reshape(-1)).backward()
        topt.step()

    out = {"step core_ms": median_time(core_step, 20) * 1e3,
           "step torch_ms": median_time(torch_step, 20) * 1e3}
    prompt = ipt.tensor([vocab.encode("tom ")])
    # 128 new tokens with block_size 32: after the window fills, both PyTorch-side loops
    # crop to the last 32 tokens like GPT.generate does
    for use_cache in (True, False):
        t = median_time(lambda c=use_cache: model.generate(prompt, 128, use_cache=c), 3, 1)
        out[f"generate core_ms cache={use_cache}"] = t * 1e3

    def torch_generate(use_cache):
        ids = [int(i) for i in prompt.numpy()[0]]
        bs, caches = tm.block_size, None
        with torch.inference_mode():
            for _ in range(128):
                if use_cache:
                    if caches is None or caches[0]["pos"] >= bs:
                        shape = (1, tm.blocks[0].attn.h, bs, model.n_embd // model.n_head)
                        caches = [{"k": torch.zeros(shape), "v": torch.zeros(shape), "pos": 0}
                                  for _ in tm.blocks]
                        logits = tm(torch.tensor([ids[-bs:]]), caches)
                    else:
                        logits = tm(torch.tensor([ids[-1:]]), caches)
                else:
                    logits = tm(torch.tensor([ids[-bs:]]))
                ids.append(int(logits[0, -1].argmax()))
        return ids

    for use_cache in (True, False):
        t = median_time(lambda c=use_cache: torch_generate(c), 3, 1)
        out[f"generate torch_ms cache={use_cache}"] = t * 1e3
    same = torch_generate(True) == [int(i) for i in model.generate(prompt, 128)[0].numpy()]
    out["same tokens as torch"] = same
    return out


def main() -> dict:
    import torch

    limit_numpy_blas_threads(1)
    torch.set_num_threads(1)
    r = block_times(torch)
    ok = "meets" if r["ratio"] <= 2.0 else "MISSES"
    result = {"block fwd+bwd": f"core {r['core_ms']:.2f} ms | torch(1 thread) "
                               f"{r['torch_ms']:.2f} ms -> {r['ratio']:.2f}x ({ok} the 2x target)"}
    g = gpt_time_to_target()
    within = "within" if g["reached"] else "NOT within"
    result["gpt to target"] = (f"held-out {g['heldout']:.3f} nats/char (target < "
                               f"{models.TARGET_LOSS}) after {g['steps']} steps in "
                               f"{g['seconds']:.1f} s ({within} the 60 s budget)")
    s = gpt_step_and_generation(torch, g["model"], g["vocab"])
    result["gpt step"] = (f"core {s['step core_ms']:.2f} ms | torch {s['step torch_ms']:.2f} ms "
                          f"-> {s['step core_ms'] / s['step torch_ms']:.2f}x")
    for c in (True, False):
        core_ms, torch_ms = s[f"generate core_ms cache={c}"], s[f"generate torch_ms cache={c}"]
        result[f"generate 128 cache={c}"] = (f"core {core_ms:.1f} ms | torch {torch_ms:.1f} ms "
                                             f"-> {core_ms / torch_ms:.2f}x")
    result["greedy tokens equal torch's"] = s["same tokens as torch"]
    return result


if __name__ == "__main__":
    for k, v in main().items():
        print(f"{k}: {v}")
