# %% [markdown]
# # 11 · In-place inside a Transformer
#
# A Transformer block is where in-place ops meet a modern model: the attention mask, the
# residual stream, dropout, writes into slices of activations. Some of these in-place ops are
# safe and save memory; others break `backward()`; some are safe and save nothing. For each
# one you first predict, then run it. At the end you measure where one block's training memory
# goes, and which of those bytes in-place ops can save.
#
# **Learning goals**
# - Say why `masked_fill_` on the attention scores is safe and on the probabilities is not.
# - Write the residual add so that LayerNorm's saved input survives, and say what it costs.
# - Place `Dropout(inplace=True)` where it is safe.
# - Read the graph of an in-place write into a slice (`y[:, 0] = 0`, `y[mask] = 0`).
# - Measure activation memory against sequence length, and tell which bytes in-place ops save
#   and which only a different kernel removes.
#
# **Under the hood:** [`models/gpt.py`](../inplace_tutorial/models/gpt.py) (the tiny GPT's
# block), [`models/block_memory.py`](../inplace_tutorial/models/block_memory.py) (the block
# with its in-place choices as switches, and the measurements),
# [`autograd/views_backward.py`](../inplace_tutorial/autograd/views_backward.py) (CopySlices);
# the [reading map](../inplace_tutorial/README.md) walks through the core.

# %%
import inspect

import inplace_tutorial as ipt
from inplace_tutorial import models, nn, viz
from inplace_tutorial.exercises import check, hint, solution
from inplace_tutorial.models import block_memory as bm
from inplace_tutorial.nn import functional as F

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## 0. The block
#
# The tiny GPT of `ipt.models` stacks pre-LayerNorm blocks. Each block reads the *residual
# stream* `x` twice, through a LayerNorm each time, and adds what attention and the MLP
# computed back into the stream:

# %%
print(inspect.getsource(models.Block.forward))

# %% [markdown]
# Attention inside it: queries `q` and keys `k` give a (batch, heads, T, T) grid of *scores*;
# a causal mask hides the future (key `j > i` for query `i`); softmax turns each row into
# *probabilities*; they weight the values `v`. Below, a small attention with 4 positions:

# %%
T = 4
future = ipt.arange(T).unsqueeze(0) > ipt.arange(T).unsqueeze(1)  # True where key j > query i
print(future.int().tolist())


def qkv(seed=1):
    """Queries, keys, values for 1 sequence, 2 heads, T positions, head size 8."""
    ipt.manual_seed(seed)
    return [ipt.randn(1, 2, T, 8, requires_grad=True) for _ in range(3)]


# %% [markdown]
# ## 1. The mask: before softmax or after it?
#
# Predict first: the mask is written into a tensor in place in both cells below. Which one can
# `backward()` run through?

# %%
q, k, v = qkv()
scores = q.matmul(k.transpose(-2, -1)) * 8 ** -0.5
print("scores:", str(ipt.autograd.explain(scores)).splitlines()[0].split(": ", 1)[1])
scores.masked_fill_(future, float("-inf"))      # the future gets probability 0
probs = scores.softmax(-1)
out = probs.matmul(v)
out.sum().backward()
print("backward ran; q.grad has shape", list(q.grad.shape))
print("row sums of probs:", [round(s, 4) for s in probs.sum(-1)[0, 0].tolist()])

# %% [markdown]
# Safe: the product `q @ k^T` saved `q` and `k` for backward, not its result, and the
# multiplication by a number saved nothing. Nobody holds `scores` at its old version, so the
# in-place write can't be caught out. Now mask the probabilities instead (a bug people write
# when they "zero the future" after softmax):

# %%
q, k, v = qkv()
probs = (q.matmul(k.transpose(-2, -1)) * 8 ** -0.5).softmax(-1)
print("probs: ", str(ipt.autograd.explain(probs)).splitlines()[0].split(": ", 1)[1])
probs.masked_fill_(future, 0.0)
out = probs.matmul(v)
fig = viz.graph_diagram(out, names={"q": q, "k": k, "v": v},
                        title="masked_fill_ after softmax, before backward")
fig

# %% [markdown]
# The graph, drawn before `backward()`, already shows the problem in red:
# `SoftmaxBackward0` saved its **result**, the probabilities (its gradient is
# `p * (g - (g * p).sum(-1))`, written in terms of `p`), and `masked_fill_` moved them to
# version 1. `backward()` refuses:

# %%
try:
    out.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(". Hint")[0])

# %% [markdown]
# Even without autograd it would be wrong: the rows no longer sum to 1. Masking belongs before
# softmax, as `-inf`. *In real PyTorch:* the same (parity tests
# `test_11_masked_fill_before_softmax_is_safe` and `test_11_masked_fill_after_softmax_breaks`).
#
# ## 2. The residual stream: `x += ...` or `x = x + ...`?
#
# The block's first line is `x = x + self.attn(self.ln1(x), ...)`. Predict: would
# `x += self.attn(self.ln1(x))` work? What did `ln1` save?

# %%
ipt.manual_seed(0)
block = models.Block(48, 4, 16)
x0 = ipt.randn(2, 16, 48, requires_grad=True)
x = x0 * 1.0                    # a non-leaf, as the embedding sum is in the GPT
a = block.ln1(x)
print(a.grad_fn.name(), "saved:", sorted(n for n in dir(a.grad_fn) if n.startswith("_saved_")))
print("its saved input is x itself:", a.grad_fn._saved_input.data_ptr() == x.data_ptr())

# %%
def attn_branch(x):
    return block.attn(block.ln1(x))


x = x0 * 1.0
x += attn_branch(x)             # in place into the stream
try:
    x.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(". Hint")[0])

# %% [markdown]
# LayerNorm's backward needs its input (`_saved_input`, with the mean and `1/std` it saved as
# `result1` and `result2`), and that input is the stream `x`. `x += ...` overwrites it. So the
# stream update must be out of place, or in place into the *other* operand: the branch's
# output `h` came from the `proj` linear layer, which saved its input, not its output.

# %%
grads = {}
for name in ("x = x + h", "h += x; x = h"):
    x0.grad = None
    x = x0 * 1.0
    h = attn_branch(x)
    with ipt.memory.record() as trace:
        if name == "x = x + h":
            x = x + h
        else:
            x = h.add_(x)
    node = x.grad_fn.name()
    with ipt.memory.record() as back:
        x.sum().backward()
    grads[name] = x0.grad.clone()
    print(f"{name:<14} backward ok; the add allocated "
          f"{sum(e.nbytes for e in trace.events if e.kind == 'alloc'):>5,} B, backward's peak "
          f"{back.peak - back.start_allocated:>6,} B; x.grad_fn: {node}")
same = (grads["x = x + h"] - grads["h += x; x = h"]).abs().amax().item() == 0
print("same gradient:", same)

# %% [markdown]
# `h += x` is safe and skips one (batch, T, 48) buffer in the forward. But it saves a
# *transient* only: the old stream `x` stays alive either way, because `ln1` saved it. In a
# Transformer every stream value is saved by the next LayerNorm, so the residual adds can't
# give that memory back. And there is a price in backward: a linear layer on a 3-D input
# computes a 2-D product and returns a *view* of it, so `h += x` is a write into a view.
# Autograd records it as `CopySlices` on the product (with an `AsStridedBackward0` for `h`),
# and `CopySlices`' backward copies the incoming gradient once: backward's peak grows by one
# (batch, T, 48) buffer, about what the forward saved. *In real PyTorch:* the same error, the
# same gradients and the same nodes (parity test `test_11_residual_add_in_place`).
#
# ## 3. `Dropout(inplace=True)`
#
# `nn.Dropout(p, inplace=True)` multiplies its input by a random mask, in place. Predict: is it
# safe on the branch output (before the residual add)? On the attention probabilities?

# %%
drop = nn.Dropout(0.1, inplace=True)
stream = ipt.randn(1, T, 48, requires_grad=True)
for where in ("after the proj linear layer", "after softmax"):
    q, k, v = qkv()
    probs = (q.matmul(k.transpose(-2, -1)) * 8 ** -0.5).softmax(-1)
    if where == "after softmax":
        out = drop(probs).matmul(v)           # dropout on the attention probabilities
    else:
        out = drop(block.attn.proj(stream))   # dropout on the branch output
    try:
        out.sum().backward()
        print(f"{where:<28} backward ok")
    except RuntimeError as e:
        print(f"{where:<28} RuntimeError:", str(e).split(", is at")[0].split("operation: ")[-1])

# %% [markdown]
# The branch output came from a linear layer (nothing saved it); the probabilities were saved
# by softmax. So: `inplace=True` after a layer that saves its input (linear, GELU, LayerNorm,
# matmul), never after one that saves its result (softmax, sigmoid, tanh, exp).
#
# What does dropout save? Its node is a `MulBackward0` that keeps the scaled mask:

# %%
h = block.gelu(block.fc(ipt.randn(2, 16, 48)))   # the MLP's hidden activation
y = nn.Dropout(0.1, inplace=True)(h)
saved = y.grad_fn._saved_other
print(y.grad_fn.name(), "| same tensor as h:", y is h,
      f"| saved mask: {saved.dtype}, shape {list(saved.shape)}, "
      f"{saved.untyped_storage().nbytes():,} B (h is {h.untyped_storage().nbytes():,} B)")

# %% [markdown]
# In place saves dropout's *output* buffer, but the mask it saves for backward is as large as
# the activation, whether in place or not. *In real PyTorch:* the same node and saved mask
# (parity test `test_11_dropout_inplace`).
#
# ## 4. Writing into slices of an activation
#
# `y[:, 0] = 0` and `y[mask] = 0` are in-place ops too (on a non-leaf `y`, under autograd).
# Predict: what node does each leave in the graph?

# %%
w = ipt.randn(3, 4, requires_grad=True)
y = w * 2
y[:, 0] = 0                                 # a view of y, written in place
print(f"y[:, 0] = 0  -> {y.grad_fn.name()} | version of y: {y._version}")
fig = viz.graph_diagram(y, names={"w": w}, root_name="y", title="y[:, 0] = 0 on y = w * 2")
fig

# %% [markdown]
# `y[:, 0]` is a *view*; writing into it changes its base `y`, so autograd rewrites `y`'s
# history: `CopySlices` wraps the write (the written column gets gradient zero) and passes
# the gradient of the other columns down to `MulBackward0` unchanged.
# A boolean mask is different: `y[mask]` would be a copy, so `y[mask] = 0` is not a write into
# a view but one op on `y` itself, `index_put_`:

# %%
y = w * 2
y[y > 0] = 0                                # boolean mask: index_put_ on y
print(f"y[mask] = 0  -> {y.grad_fn.name()} | version of y: {y._version}")
y.sum().backward()
print("w.grad (0 where the write hid w):", w.grad[0].tolist())

# %% [markdown]
# Both are safe here: `MulBackward0` (`w * 2`) saved nothing of `y`. They break like any
# in-place op when the node that made `y` saved its result (`y = x.softmax(-1)`,
# `y = x.exp()`). *In real PyTorch:* the same nodes (parity test `test_11_slice_writes`).
#
# ## 5. One block's training step on the timeline
#
# Now a whole block: batch 2, sequence 128, embedding 48, 4 heads (`bm.SwitchBlock`, the GPT's
# block with each in-place choice as a switch). `bm.measure_block` runs `block(x).sum()` and
# `backward()`; the timeline shows the forward climbing as activations are saved, the backward
# freeing them. First the block as the GPT writes its attention out:

# %%
written = bm.measure_block(bm.Choices(), seq_len=128, batch=2)
inplace = bm.measure_block(bm.Choices(inplace_mask=True, inplace_residual=True), seq_len=128,
                           batch=2)
fig = viz.memory_timeline({"out of place": written.trace, "mask and residual in place":
                           inplace.trace}, layout="side",
                          title="one block, forward + backward, T = 128")
fig

# %%
def row(name, m):
    print(f"{name:<28} {m.forward_peak:>11,} {m.forward_allocated:>12,} {m.saved:>11,} "
          f"{m.step_peak:>11,}")


print(f"{'':<28} {'fwd peak B':>11} {'fwd alloc B':>12} {'saved B':>11} {'step peak B':>11}")
row("out of place", written)
row("mask and residual in place", inplace)
print("\nsaved for backward, by the op that made each storage (out of place):")
for op, nbytes in written.saved_by_op.items():
    print(f"  {op:<30} {nbytes:>9,} B")

# %% [markdown]
# Read the columns:
# - **saved**: identical. Every byte the graph keeps is needed by some backward formula; the
#   in-place choices of this block only touch tensors nobody saved.
# - **forward allocated**: in place allocates less. `scores.mul_(scale).add_(mask)` writes the
#   scale and the mask into the product's buffer instead of two new (2, 4, 128, 128) buffers,
#   and `h += x` reuses the branch's output.
# - **forward peak**: unchanged. The peak is at softmax, where the scores and the
#   probabilities must both exist (softmax can't write its result over its input; PyTorch has
#   no `softmax_`). In place removed buffers that were never alive at the same time as the peak.
#
# The largest saved item is `softmax`: the (batch, heads, T, T) probabilities, saved because
# softmax's gradient is written in terms of its result.
#
# ## 6. Activation memory against sequence length
#
# The same measurement for T = 16 … 256, for the block written out and for the block whose
# attention is one `F.scaled_dot_product_attention` call (a *fused* kernel: on CPU, PyTorch's
# flash-attention kernel saves a row-wise `logsumexp` of shape (batch, heads, T) and recomputes
# the probabilities in backward).

# %%
lengths = [16, 32, 64, 128, 256]
variants = {"written out": bm.Choices(), "scaled_dot_product_attention": bm.Choices(
    attention="sdpa")}
runs = bm.activation_memory(variants, lengths, batch=2)
fig = viz.memory_curves(lengths, {f"saved, {n}": [m.saved for m in rows]
                                  for n, rows in runs.items()},
                        xlabel="sequence length T",
                        title="activation memory of one block (saved for backward)")
fig

# %%
print(f"{'T':>4} | {'saved: written out':>19} {'sdpa':>11} | "
      f"{'fwd peak: written out':>22} {'sdpa':>11}")
for i, n in enumerate(lengths):
    w_, s_ = (runs[v][i] for v in variants)
    print(f"{n:>4} | {w_.saved:>19,} {s_.saved:>11,} | {w_.forward_peak:>22,} "
          f"{s_.forward_peak:>11,}")
w256, s256 = runs["written out"][-1], runs["scaled_dot_product_attention"][-1]
print(f"\nat T = 256 the fused kernel keeps {1 - s256.saved / w256.saved:.0%} fewer bytes for "
      f"backward, and its forward peak is {1 - s256.forward_peak / w256.forward_peak:.0%} lower")

# %% [markdown]
# The written-out curve grows with T²: the probabilities are batch × heads × T × T floats.
# The in-place choices of §5 would draw the same curve (they change no saved byte at any
# length; `tests/test_block_memory.py` checks that): no in-place choice can remove bytes that a
# backward formula needs. What removes them is a kernel that does not need them:
# `scaled_dot_product_attention` recomputes the probabilities from `q`, `k` and the
# `logsumexp` in backward, so its activation memory grows with T, not T².
#
# **Which bytes in-place saves here, and which it can't**
#
# | bytes | in place? |
# |---|---|
# | the scale and mask temporaries of the scores | saved by `mul_`/`masked_fill_` (allocated bytes, not the peak) |
# | the residual add's result | saved by `h += x` (a transient; the old stream stays, LayerNorm saved it) |
# | dropout's output | saved by `inplace=True` (the mask is still saved) |
# | the softmax probabilities (T²) | **can't**: softmax saved them; a fused kernel recomputes them |
# | LayerNorm's input, linear layers' inputs, GELU's input | **can't**: saved by their backward formulas |
#
# *In real PyTorch:* the same saved bytes for each variant at T = 16 and T = 64 (parity test
# `test_11_block_saved_bytes`, which sums the storages PyTorch's `saved_tensors_hooks` see), and
# the fused kernel's saved `logsumexp` (`test_11_sdpa_saves_no_probabilities`).

# %% [markdown]
# ## Exercises
#
# **11.1** Six in-place lines from Transformer code. Which of them make `backward()` fail?
# Answer a set of letters.
#
# | | line | context |
# |---|---|---|
# | a | `scores.masked_fill_(future, float("-inf"))` | `scores = q @ k.transpose(-2, -1) * s`, before softmax |
# | b | `probs.masked_fill_(future, 0.0)` | `probs = scores.softmax(-1)` |
# | c | `x += block.attn(block.ln1(x))` | the residual stream |
# | d | `h += x` | `h = block.attn(block.ln1(x))` |
# | e | `nn.Dropout(0.1, inplace=True)(h)` | `h = F.gelu(fc(x))` |
# | f | `nn.Dropout(0.1, inplace=True)(probs)` | `probs = scores.softmax(-1)` |

# %%
answer = None  # your code here: a set of letters, e.g. {"a"}
check("11.1", answer)
# hint("11.1")
# solution("11.1")

# %% [markdown]
# **11.2** Write `attend(q, k, v, future)`: causal attention
# `softmax(q @ k^T / sqrt(d) with -inf where future) @ v`, for (batch, heads, T, d) tensors,
# that `backward()` can run through, and that allocates at most **two** (T, T)-sized buffers
# per head in the forward (the scores and the probabilities).

# %%
answer = None  # your code here: a function attend(q, k, v, future)
check("11.2", answer)
# hint("11.2")
# solution("11.2")

# %% [markdown]
# ## Summary
# - Mask the scores before softmax, in place if you like (`masked_fill_` with `-inf`): the
#   product saved `q` and `k`. Never write into softmax's output: it was saved.
# - The residual stream is saved by the next LayerNorm: `x = x + h`, or `h += x; x = h`.
# - `Dropout(inplace=True)` is safe after layers that save their input, not after softmax; it
#   still saves a mask as large as the activation.
# - `y[:, 0] = 0` records `CopySlices`, `y[mask] = 0` records `IndexPutBackward0`; both fail
#   only when the node that made `y` saved its result.
# - In a block, in-place ops cut bytes allocated, not the peak and not the saved activations.
#   The T² of attention goes away only with a kernel that recomputes instead of saving.
