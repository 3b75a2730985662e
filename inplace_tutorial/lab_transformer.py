"""lab (Transformer part): notebook 10's scenarios 4 and 5; ``lab`` re-exports the names.

4. An attention block whose training step fails with "modified by an inplace operation". Its
   source is compiled under the file name ``broken_attention.py`` so anomaly mode names its
   lines; ``check_attention_fix(fn)`` compares a learner's fixed step with a reference.
5. A generation loop that keeps past keys and values in tensors grown with ``cat`` every
   token. ``check_generate(fn)`` runs a learner's loop: same tokens, and at least
   ``REQUIRED_FACTOR`` times fewer bytes allocated, measured with ``ipt.memory``.
"""
from __future__ import annotations

import linecache
import math
import re
from collections.abc import Callable

import inplace_tutorial as ipt
from inplace_tutorial import nn

# ----------------------------------------------------------------------------- scenario 4
ATTENTION_FILE = "broken_attention.py"
BROKEN_ATTENTION = """\
def block_step(block, idx):
    x = block.wte(idx)                                   # the residual stream
    q, k, v = block.heads(block.qkv(block.ln(x)))
    scores = q.matmul(k.transpose(-2, -1)) * block.scale
    scores.masked_fill_(block.future, float("-inf"))     # hide the future
    y = block.merge(scores.softmax(-1).matmul(v))
    x += block.proj(y)                                   # residual add
    loss = x.pow(2).mean()
    loss.backward()
    return loss
"""


class LabAttention(nn.Module):
    """Token embedding -> LayerNorm -> causal self-attention, added back to the stream.

    ``heads`` splits the (B, T, 3C) projection into q, k, v of shape (B, H, T, C/H);
    ``merge`` puts (B, H, T, C/H) back to (B, T, C); ``future`` is True where key j > query i.
    """

    def __init__(self, vocab: int = 12, n_embd: int = 32, n_head: int = 2,
                 block_size: int = 8) -> None:
        super().__init__()
        self.n_head, self.block_size = n_head, block_size
        self.scale = 1.0 / math.sqrt(n_embd // n_head)
        self.wte = nn.Embedding(vocab, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.ln = nn.LayerNorm(n_embd)
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.head = nn.Linear(n_embd, vocab)
        pos = ipt.arange(block_size)
        self.future = pos.unsqueeze(0) > pos.unsqueeze(1)

    def heads(self, t):
        b, n, c3 = t.shape
        c = c3 // 3
        return [a.reshape(b, n, self.n_head, c // self.n_head).transpose(1, 2)
                for a in t.split(c, dim=2)]

    def merge(self, y):
        b, h, n, d = y.shape
        return y.transpose(1, 2).reshape(b, n, h * d)


def make_attention(seed: int = 4, block_size: int = 8) -> LabAttention:
    ipt.manual_seed(seed)
    return LabAttention(block_size=block_size)


def make_tokens(seed: int = 5, batch: int = 4, n: int = 8):
    ipt.manual_seed(seed)
    return (ipt.rand(batch, n) * 12).long()


def _compile(source: str, filename: str, name: str) -> Callable:
    # Register the source so tracebacks and anomaly mode can show its lines.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    ns = {"ipt": ipt}
    exec(compile(source, filename, "exec"), ns)
    return ns[name]


broken_block_step = _compile(BROKEN_ATTENTION, ATTENTION_FILE, "block_step")


def show_broken_attention() -> None:
    """Print the broken block step with line numbers."""
    print(f"# {ATTENTION_FILE} runs with: import inplace_tutorial as ipt")
    for i, line in enumerate(BROKEN_ATTENTION.splitlines(), 1):
        print(f"{i:>2} | {line}")


def attention_culprit_line() -> int:
    """The line of broken_attention.py that anomaly mode blames (computed by running it)."""
    try:
        with ipt.autograd.detect_anomaly():
            broken_block_step(make_attention(), make_tokens())
    except RuntimeError as e:
        since = str(e).split("modified in place since by:")[-1]
        hits = re.findall(rf"at {re.escape(ATTENTION_FILE)}, line (\d+)", since)
        if hits:
            return int(hits[0])
    raise AssertionError("the broken block did not fail as expected")


def _reference_block_step(block, idx):
    x = block.wte(idx)
    q, k, v = block.heads(block.qkv(block.ln(x)))
    scores = (q.matmul(k.transpose(-2, -1)) * block.scale).masked_fill(block.future,
                                                                         float("-inf"))
    x = x + block.proj(block.merge(scores.softmax(-1).matmul(v)))
    loss = x.pow(2).mean()
    loss.backward()
    return loss


def check_attention_fix(step: Callable) -> tuple[bool, str]:
    """Run ``step(block, idx)`` on a fresh block; compare loss and grads with a reference."""
    if not callable(step):
        return False, "pass a function block_step(block, idx) that returns the loss"
    idx = make_tokens()
    ref_block, block = make_attention(), make_attention()
    ref_loss = _reference_block_step(ref_block, idx)
    try:
        loss = step(block, idx)
    except RuntimeError as e:
        return False, f"it still fails: {str(e).split('. Hint')[0]}"
    if not isinstance(loss, ipt.Tensor) or loss.numel() != 1:
        return False, "block_step should return the loss (a one-element tensor)"
    if abs(float(loss.item()) - ref_loss.item()) > 1e-5:
        return False, "the loss differs from the original block's: keep the computation the same"
    worst = 0.0
    for (name, p), q in zip(block.named_parameters(), ref_block.parameters(), strict=True):
        if q.grad is None:
            continue  # wpe and head take no part in block_step
        if p.grad is None:
            return False, f"{name}.grad is None: did you call loss.backward()?"
        worst = max(worst, (p.grad - q.grad).abs().max().item())
    if worst > 1e-5:
        return False, f"gradients differ from the reference by up to {worst:.2e}"
    return True, f"loss {loss.item():.4f}, all gradients match"


# ----------------------------------------------------------------------------- scenario 5
PROMPT = [1, 2, 3]
NEW_TOKENS = 45
REQUIRED_FACTOR = 3.0  # 10.8: at least 3x fewer bytes allocated than generate_with_cat


def make_decoder(seed: int = 6) -> LabAttention:
    """The block with a language-model head, for len(PROMPT) + NEW_TOKENS positions."""
    return make_attention(seed, block_size=len(PROMPT) + NEW_TOKENS)


def embed(model: LabAttention, token: int, pos: int):
    """(1, 1, C): the token's embedding plus its position's."""
    return model.wte(ipt.tensor([[token]])) + model.wpe(ipt.tensor([pos]))


def next_token(model: LabAttention, x, q, keys, values) -> int:
    """Attend from the newest position (query q) over all keys/values so far; greedy pick."""
    probs = (q.matmul(keys.transpose(-2, -1)) * model.scale).softmax(-1)
    x = x + model.proj(model.merge(probs.matmul(values)))
    return int(model.head(x)[0, -1].argmax().item())


def generate_with_cat(model: LabAttention, prompt: list[int], new_tokens: int) -> list[int]:
    """Greedy decoding, one position per step; past keys and values grow with cat."""
    ids = list(prompt)
    keys = values = None
    with ipt.inference_mode():
        for pos in range(len(prompt) + new_tokens - 1):
            x = embed(model, ids[pos], pos)
            q, k, v = model.heads(model.qkv(model.ln(x)))      # each (1, H, 1, D)
            keys = k if keys is None else ipt.cat([keys, k], dim=2)
            values = v if values is None else ipt.cat([values, v], dim=2)
            if pos >= len(prompt) - 1:                         # past the prompt: predict
                ids.append(next_token(model, x, q, keys, values))
    return ids


def measure_allocated(generate: Callable, model=None) -> tuple[int, list]:
    """(bytes allocated in total, tokens) of ``generate(model, PROMPT, NEW_TOKENS)``."""
    model = make_decoder() if model is None else model
    with ipt.memory.record() as tr:
        ids = generate(model, list(PROMPT), NEW_TOKENS)
    return sum(e.nbytes for e in tr.events if e.kind == "alloc"), ids


def check_generate(generate: Callable, required: float = REQUIRED_FACTOR) -> tuple[bool, str]:
    """``generate(model, prompt, new_tokens)`` must give generate_with_cat's tokens with at
    least ``required`` times fewer bytes allocated (on a model the learner has not seen)."""
    if not callable(generate):
        return False, "pass a function generate(model, prompt, new_tokens) returning token ids"
    model = make_decoder(seed=16)
    base, want = measure_allocated(generate_with_cat, model)
    try:
        got_bytes, got = measure_allocated(generate, model)
    except Exception as e:  # a learner's loop may fail in any way; report it, don't raise
        return False, f"generate raised {type(e).__name__}: {str(e)[:200]}"
    got = list(got) if isinstance(got, (list, tuple)) else got
    if got != want:
        return False, (f"different tokens from generate_with_cat (first {len(PROMPT) + 8}: "
                       f"{want[:len(PROMPT) + 8]}); the cache must hold the same keys/values")
    factor = base / max(got_bytes, 1)
    if factor < required:
        return False, (f"{got_bytes:,} B allocated vs {base:,} B with cat: {factor:.1f}x fewer, "
                       f"need {required:.0f}x")
    return True, f"same tokens; {got_bytes:,} B allocated vs {base:,} B with cat: {factor:.1f}x"
