"""A tiny GPT: token + position embeddings, pre-LayerNorm blocks of causal self-attention and
a GELU MLP on a residual stream, a linear head; ``generate`` with or without a KV cache.

Attention comes in two spellings that give the same numbers: written out (scores, the
causal mask written in place (``masked_fill_`` with -inf), softmax, weighted sum), or one call of
``F.scaled_dot_product_attention(is_causal=True)``. The residual adds are out of place
(``x = x + attn(ln(x))``): LayerNorm saved x for backward, so ``x += ...`` would break it.
The KV cache is preallocated and written in place, one slice per generated token; attention
only calls its ``update(k, v, layer)``, so other caches can stand in (models/kv_cache.py).
"""
from __future__ import annotations

import math

import numpy as np

from .. import nn
from ..autograd import grad_mode
from ..creation import zeros
from ..data.tiny_text import CharVocab, generate_text
from ..generator import manual_seed
from ..nn import functional as F
from ..optim import Adam
from ..range_factories import arange
from ..tensor import Tensor
from ..tensor_new import tensor


class KVCache:
    """Keys and values of every layer, preallocated to ``block_size`` positions.

    Generation writes each new position with slice assignment (``k[:, :, t] = ...``): the
    storages never move or grow; ``pos`` says how many positions are filled."""

    def __init__(self, n_layer: int, batch: int, n_head: int, block_size: int, head_dim: int):
        shape = (batch, n_head, block_size, head_dim)
        self.keys = [zeros(*shape) for _ in range(n_layer)]
        self.values = [zeros(*shape) for _ in range(n_layer)]
        self.pos = 0

    def update(self, k: Tensor, v: Tensor, layer: int) -> tuple[Tensor, Tensor]:
        """Write the new positions ``pos .. pos + n`` in place; return views of the keys and
        values of every position so far. (GPT.forward advances ``pos`` after all layers.)"""
        start, n = self.pos, k.shape[2]
        self.keys[layer][:, :, start:start + n] = k
        self.values[layer][:, :, start:start + n] = v
        return self.keys[layer][:, :, :start + n], self.values[layer][:, :, :start + n]


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int, n_head: int, block_size: int, use_sdpa: bool = True):
        super().__init__()
        if n_embd % n_head:
            raise ValueError(f"n_embd ({n_embd}) must be divisible by n_head ({n_head})")
        self.n_head, self.n_embd, self.use_sdpa = n_head, n_embd, use_sdpa
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        # True above the diagonal: the future, which a query may not see
        self.register_buffer("causal_mask", tensor(np.triu(np.ones((block_size, block_size),
                                                                   dtype=bool), 1)))

    def _heads(self, t: Tensor, b: int, n: int) -> Tensor:
        return t.reshape(b, n, self.n_head, self.n_embd // self.n_head).transpose(1, 2)

    def forward(self, x: Tensor, cache: KVCache | None = None, layer: int = 0) -> Tensor:
        b, n, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q, k, v = self._heads(q, b, n), self._heads(k, b, n), self._heads(v, b, n)
        start = 0
        if cache is not None:  # store the new positions, attend over all so far
            start = cache.pos
            k, v = cache.update(k, v, layer)
        if self.use_sdpa:
            if start == 0:
                y = F.scaled_dot_product_attention(q, k, v, is_causal=n > 1)
            else:  # query i (position start + i) sees keys 0 .. start + i
                allowed = np.tril(np.ones((n, start + n), dtype=bool), start)
                y = F.scaled_dot_product_attention(q, k, v, attn_mask=tensor(allowed))
        else:
            scores = q.matmul(k.transpose(-2, -1)) * (1.0 / math.sqrt(c // self.n_head))
            # the mask applied in place: safe, the product's node saved q and k, not scores
            scores.masked_fill_(self.causal_mask[start:start + n, :start + n], float("-inf"))
            y = scores.softmax(-1).matmul(v)
        return self.proj(y.transpose(1, 2).reshape(b, n, c))


class Block(nn.Module):
    def __init__(self, n_embd: int, n_head: int, block_size: int, use_sdpa: bool = True):
        super().__init__()
        self.ln1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, block_size, use_sdpa)
        self.ln2 = nn.LayerNorm(n_embd)
        self.fc = nn.Linear(n_embd, 4 * n_embd)
        self.gelu = nn.GELU(approximate="tanh")
        self.fc_out = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x: Tensor, cache: KVCache | None = None, layer: int = 0) -> Tensor:
        x = x + self.attn(self.ln1(x), cache, layer)
        return x + self.fc_out(self.gelu(self.fc(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, vocab_size: int, block_size: int = 32, n_embd: int = 48,
                 n_head: int = 4, n_layer: int = 1, use_sdpa: bool = True):
        super().__init__()
        self.vocab_size, self.block_size = vocab_size, block_size
        self.n_embd, self.n_head, self.n_layer = n_embd, n_head, n_layer
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[Block(n_embd, n_head, block_size, use_sdpa)
                                      for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)
        with grad_mode.no_grad():  # GPT-2's small init keeps the first losses near log(V)
            for p in (self.wte.weight, self.wpe.weight):
                p.mul_(0.02)

    def forward(self, idx: Tensor, targets: Tensor | None = None,
                cache: KVCache | None = None):
        """Logits (B, T, V); with ``targets`` also the mean cross-entropy."""
        b, n = idx.shape
        start = 0 if cache is None else cache.pos
        if start + n > self.block_size:
            raise ValueError(f"sequence of {start + n} tokens is longer than block_size "
                             f"{self.block_size}")
        x = self.wte(idx) + self.wpe(arange(start, start + n))
        for i, block in enumerate(self.blocks):
            x = block(x, cache, i)
        if cache is not None:
            cache.pos += n
        logits = self.head(self.ln_f(x))
        if targets is None:
            return logits
        return logits, F.cross_entropy(logits.reshape(b * n, self.vocab_size),
                                       targets.reshape(b * n))

    def generate(self, idx: Tensor, max_new_tokens: int, use_cache: bool = True,
                 temperature: float = 1.0, seed: int | None = None) -> Tensor:
        """Append ``max_new_tokens`` tokens: greedy if ``seed`` is None, else sampled at
        ``temperature`` from a NumPy generator seeded with ``seed``. With ``use_cache`` each
        step feeds only the newest token and reads earlier keys/values from the KVCache;
        without it each step runs the whole (last ``block_size``) window again."""
        rng = None if seed is None else np.random.default_rng(seed)
        ids = [list(row) for row in idx.numpy()]
        b = len(ids)
        was_training = self.training
        self.eval()
        with grad_mode.inference_mode():
            cache = None
            for _ in range(max_new_tokens):
                if use_cache:
                    if cache is None or cache.pos >= self.block_size:
                        cache = KVCache(self.n_layer, b, self.n_head, self.block_size,
                                        self.n_embd // self.n_head)
                        window = [row[-self.block_size:] for row in ids]
                    else:
                        window = [row[-1:] for row in ids]
                    logits = self(tensor(window), cache=cache)
                else:
                    logits = self(tensor([row[-self.block_size:] for row in ids]))
                last = logits[:, -1].numpy().astype(np.float64)
                for row, z in zip(ids, last):
                    row.append(_pick(z, temperature, rng))
        self.train(was_training)
        return tensor(ids)


# --------------------------------------------------------------------------- training
# The stated target: mean cross-entropy on held-out text (generate_text seed 1) below this,
# in nats per character. The rule's own entropy is 0.40 (data.entropy_per_char()); always
# guessing the commonest character costs about 2.9.
TARGET_LOSS = 0.55


def text_corpus(train_chars: int = 60_000, heldout_chars: int = 6_000):
    """(vocab, train ids, held-out ids): rule-generated text, seeds 0 and 1."""
    train, held = generate_text(train_chars, seed=0), generate_text(heldout_chars, seed=1)
    vocab = CharVocab(train + held)
    return vocab, vocab.encode(train), vocab.encode(held)


def text_batch(ids: np.ndarray, batch: int, block: int, rng: np.random.Generator):
    """``batch`` random windows of ``block`` ids, and the same windows shifted by one."""
    starts = rng.integers(0, len(ids) - block - 1, batch)
    x = np.stack([ids[i:i + block] for i in starts])
    y = np.stack([ids[i + 1:i + block + 1] for i in starts])
    return tensor(x), tensor(y)


def heldout_loss(model: GPT, ids: np.ndarray) -> float:
    """Mean cross-entropy over consecutive windows of ``ids`` (eval mode, no_grad)."""
    n = model.block_size
    rows = [(ids[i:i + n], ids[i + 1:i + n + 1]) for i in range(0, len(ids) - n - 1, n)]
    with grad_mode.no_grad():
        _, loss = model(tensor(np.stack([x for x, _ in rows])),
                        tensor(np.stack([y for _, y in rows])))
    return loss.item()


def train_tiny_gpt(steps: int = 300, batch: int = 16, lr: float = 5e-3, seed: int = 0,
                   **config):
    """Adam on the rule-generated text; returns (model, vocab, train losses, held-out loss)."""
    manual_seed(seed)
    vocab, train_ids, held_ids = text_corpus()
    model = GPT(len(vocab), **config)
    opt = Adam(model.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    losses = []
    for _ in range(steps):
        x, y = text_batch(train_ids, batch, model.block_size, rng)
        opt.zero_grad()
        _, loss = model(x, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, vocab, losses, heldout_loss(model, held_ids)


def _pick(logits: np.ndarray, temperature: float, rng) -> int:
    if rng is None:
        return int(np.argmax(logits))
    z = logits / temperature
    p = np.exp(z - z.max())
    return int(rng.choice(len(p), p=p / p.sum()))


__all__ = ["GPT", "TARGET_LOSS", "Block", "CausalSelfAttention", "KVCache", "heldout_loss",
           "text_batch", "text_corpus", "train_tiny_gpt"]
