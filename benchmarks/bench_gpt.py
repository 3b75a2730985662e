"""The tiny GPT (models.gpt), core vs the same model in PyTorch, one thread each.

* training: Adam steps until the held-out loss is below models.TARGET_LOSS (checked every 50
  steps), within 60 s;
* one training step (batch 16, sequence 32, Adam), and greedy generation of 128 tokens with
  and without the KV cache (and of 28 tokens, which fit in the 32-position window, where the
  cache is what it is for), against the same weights in PyTorch; the tokens must agree.
Medians; the core and PyTorch run in turns, timed as CPU time of this thread (timing.py), with
NumPy's BLAS and torch pinned to one thread. The PyTorch model is bench_transformer's.
"""
from __future__ import annotations

import time

import numpy as np
from bench_training import limit_numpy_blas_threads
from bench_transformer import _copy_state, torch_gpt_class
from timing import medians

import inplace_tutorial as ipt
from inplace_tutorial import models, optim
from inplace_tutorial.models.gpt import heldout_loss, text_batch, text_corpus

GENERATE = (128, 28)  # new tokens: past the window (it slides), and within it


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

    t_core, t_torch = medians([core_step, torch_step], repeat=20)  # in turns (timing.py)
    out = {"step core_ms": t_core * 1e3, "step torch_ms": t_torch * 1e3}
    prompt = ipt.tensor([vocab.encode("tom ")])

    def torch_generate(use_cache, new_tokens):
        # after the window (block_size 32) fills, crop to the last 32 tokens and start a
        # fresh cache, as GPT.generate does
        ids = [int(i) for i in prompt.numpy()[0]]
        bs, caches = tm.block_size, None
        with torch.inference_mode():
            for _ in range(new_tokens):
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

    for new in GENERATE:
        for c in (True, False):
            core_ms, torch_ms = medians(
                [lambda c=c, n=new: model.generate(prompt, n, use_cache=c),
                 lambda c=c, n=new: torch_generate(c, n)], repeat=5, warmup=1)
            out[f"generate {new} cache={c}"] = (core_ms * 1e3, torch_ms * 1e3)
    same = torch_generate(True, 128) == [int(i) for i in model.generate(prompt, 128)[0].numpy()]
    out["same tokens as torch"] = same
    return out


def main() -> dict:
    import torch

    limit_numpy_blas_threads(1)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _results(torch)
    finally:
        torch.set_num_threads(threads)  # the next benchmark module sees the default again


def _results(torch) -> dict:
    g = gpt_time_to_target()
    within = "within" if g["reached"] else "NOT within"
    result = {"gpt to target": (f"held-out {g['heldout']:.3f} nats/char (target < "
                                f"{models.TARGET_LOSS}) after {g['steps']} steps in "
                                f"{g['seconds']:.1f} s ({within} the 60 s budget)")}
    s = gpt_step_and_generation(torch, g["model"], g["vocab"])
    result["gpt step"] = (f"core {s['step core_ms']:.2f} ms | torch {s['step torch_ms']:.2f} ms "
                          f"-> {s['step core_ms'] / s['step torch_ms']:.2f}x")
    for new in GENERATE:
        for c in (True, False):
            core_ms, torch_ms = s[f"generate {new} cache={c}"]
            result[f"generate {new} cache={c}"] = (f"core {core_ms:.1f} ms | torch "
                                                   f"{torch_ms:.1f} ms -> "
                                                   f"{core_ms / torch_ms:.2f}x")
    result["greedy tokens equal torch's"] = s["same tokens as torch"]
    return result


if __name__ == "__main__":
    for k, v in main().items():
        print(f"{k}: {v}")
