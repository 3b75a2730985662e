# %% [markdown]
# # 08 · `addbmm_` in depth
#
# `addbmm_` is a fused "multiply a batch of matrices, **sum** the products, add to me" op. The
# second seed article presents it with examples that don't run and alternatives that compute
# something else. Here we run all of them, fix them, and measure which one needs the least memory.
#
# **Learning goals**
# - State what `addbmm_` computes and which shapes it needs (the batch dimension is summed away).
# - Tell `addbmm` (reduces over the batch) from `baddbmm` (keeps it).
# - Write the matching `einsum`.
# - Measure the memory of the alternatives and know what `addbmm` saves for backward.

# %%
import time

import inplace_tutorial as ipt
from inplace_tutorial import viz
from inplace_tutorial.exercises import check, hint, solution

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## 1. What it computes
#
# With `batch1` of shape (b, n, m) and `batch2` of shape (b, m, p):
#
# $$\text{out} \leftarrow \beta\,\text{out} + \alpha \sum_{i=0}^{b-1} \text{batch1}[i]\;@\;\text{batch2}[i]$$
#
# Each product is (n, p), and they are **summed**, so `out` is (n, p) — not (b, n, p).
# Check it against the definition on small tensors:

# %%
b1, b2 = ipt.randn(3, 2, 4), ipt.randn(3, 4, 5)
out = ipt.ones(2, 5)
ref = 0.5 * out + 2.0 * sum(b1[i] @ b2[i] for i in range(3))
res = out.addbmm_(b1, b2, beta=0.5, alpha=2.0)
print("shape:", tuple(res.shape), "| returns out itself:", res is out, "| version:", out._version)
print(f"max |addbmm_ - definition| < 1e-4: {(res - ref).abs().max().item() < 1e-4}")

# %% [markdown]
# ## 2. Claim 10 (article): `zeros(10, 20, 40).addbmm_(batch1, batch2)` — what really happens
#
# The article's examples 1 and 2 create `out = torch.zeros(10, 20, 40)`:

# %%
batch1, batch2 = ipt.randn(10, 20, 30), ipt.randn(10, 30, 40)
for kwargs in ({}, {"beta": 0.5, "alpha": 2}):
    out = ipt.zeros(10, 20, 40)
    try:
        out.addbmm_(batch1, batch2, **kwargs)
    except RuntimeError as e:
        print(f"addbmm_(batch1, batch2, {kwargs}) -> RuntimeError: {e}")

# %% [markdown]
# It fails: `out` must be broadcastable to the (20, 40) sum, and a 3-D tensor can't be "expanded"
# to 2-D. The article's note "out must match the first two dimensions and the last" describes
# `baddbmm`, not `addbmm`. The correct shapes:

# %%
out = ipt.zeros(20, 40)
out.addbmm_(batch1, batch2)
print("out:", tuple(out.shape), "| equals bmm(...).sum(0):",
      f"max |diff| < 1e-4: {(out - ipt.bmm(batch1, batch2).sum(0)).abs().max().item() < 1e-4}")
out = ipt.zeros(20, 40)
out.addbmm_(batch1, batch2, beta=0.5, alpha=2)
print("with beta=0.5, alpha=2:", tuple(out.shape))

# %% [markdown]
# *In real PyTorch:* the same error text, `expand(torch.FloatTensor{[10, 20, 40]}, size=[20, 40]): …`.

# %% [markdown]
# ### The article's "bmm + add" alternative is really `baddbmm`
#
# The article's alternative is `out = torch.bmm(batch1, batch2); out.add_(beta * current_tensor)`.
# `beta` and `current_tensor` are never defined, so it raises `NameError` as written. And even with
# them defined, `bmm` keeps the batch: the result is (10, 20, 40). That is **`baddbmm`** —
# "batch add batch matmul", one product per batch, no sum:

# %%
current = ipt.randn(10, 20, 40)
r1 = ipt.baddbmm(current, batch1, batch2, beta=0.5)
r2 = ipt.bmm(batch1, batch2).add_(0.5 * current)
print("baddbmm:", tuple(r1.shape), f"| bmm + add_: {tuple(r2.shape)} | max |diff| < 1e-4: {(r1 - r2).abs().max().item() < 1e-4}")
print("addbmm: ", tuple(ipt.addbmm(ipt.zeros(20, 40), batch1, batch2).shape), " <- the batch is summed away")

# %% [markdown]
# | op | batch1 | batch2 | self / out | computes |
# |---|---|---|---|---|
# | `bmm` | (b, n, m) | (b, m, p) | → (b, n, p) | batch1[i] @ batch2[i] |
# | `baddbmm` | (b, n, m) | (b, m, p) | (b, n, p) | β·self + α·batch1[i] @ batch2[i] |
# | `addbmm` | (b, n, m) | (b, m, p) | (n, p) | β·self + α·Σᵢ batch1[i] @ batch2[i] |

# %% [markdown]
# ## 3. Claim 11 (article): `einsum('ijk,jkl->ikl', batch1, batch2)` — what really happens

# %%
try:
    ipt.einsum("ijk,jkl->ikl", batch1, batch2)
except RuntimeError as e:
    print("RuntimeError:", e)
right = ipt.einsum("bij,bjk->ik", batch1, batch2)
print("'bij,bjk->ik' ->", tuple(right.shape),
      f"| max |diff| to bmm(...).sum(0) < 1e-4: {(right - ipt.bmm(batch1, batch2).sum(0)).abs().max().item() < 1e-4}")

# %% [markdown]
# The article's subscripts treat batch1's dims as (i, j, k) and batch2's as (j, k, l), so `j` is
# 20 in one and 10 in the other. Name the dims as they are: batch1 = (b, i, j), batch2 = (b, j, k);
# summing over b and j leaves (i, k). *In real PyTorch:* the same failure (`einsum(): subscript j
# has size 10 for operand 1 which does not broadcast with previously seen size 20`).

# %% [markdown]
# ## 4. Memory: which alternative is lightest? (measured)
#
# Three ways to compute `out += Σ batch1[i] @ batch2[i]`, with b = 64 batches of 64×32 @ 32×64.
# The number is the peak of extra bytes during the call (`ipt.memory.record`).

# %%
B1, B2 = ipt.randn(64, 64, 32), ipt.randn(64, 32, 64)
out0 = ipt.randn(64, 64)
ways = {
    "out.addbmm_(b1, b2)": lambda o: o.addbmm_(B1, B2),
    "out + bmm(b1, b2).sum(0)": lambda o: o + ipt.bmm(B1, B2).sum(0),
    "out.add_(einsum('bij,bjk->ik'))": lambda o: o.add_(ipt.einsum("bij,bjk->ik", B1, B2)),
}
reference = out0 + ipt.bmm(B1, B2).sum(0)
peaks, results = {}, {}
for name, fn in ways.items():
    o = out0.clone()
    with ipt.memory.record() as tr:
        results[name] = fn(o)
    peaks[name] = tr.peak - tr.start_allocated
    biggest = max((e for e in tr.events if e.kind == "alloc"), key=lambda e: e.nbytes)
    print(f"{name:<33} peak extra {peaks[name]:>9,} B | biggest buffer {biggest.nbytes:>9,} B ({biggest.op})"
          f" | max |diff| < 1e-3: {(results[name] - reference).abs().max().item() < 1e-3}")
print(f"\none (64, 64) result: {out0.untyped_storage().nbytes():,} B; all 64 products: {ipt.bmm(B1, B2).untyped_storage().nbytes():,} B")

# %% [markdown]
# The cell above shows: `addbmm_` needs one (n, p) buffer to accumulate the products; `bmm + sum`
# first **materialises all b products** — b times more — then reduces. The core's `einsum` never
# builds the per-batch products either. The results differ only by float32 rounding (different
# summation order), so the cell checks max |diff| against a tolerance: its exact size depends on
# your CPU's BLAS kernel.
#
# *In real PyTorch:* `addbmm` on CPU also avoids the (b, n, p) intermediate; `einsum` turns this
# contraction into one matrix multiply over the merged (b, j) dimension and may copy its operands
# to do so, so its memory depends on the layout — measure on your device with
# `torch.cuda.max_memory_allocated()`. The article's claim that einsum "may use less memory" than
# `addbmm_` is not something to assert without measuring.

# %% tags=["nbval-ignore-output"]
times = {}
for name, fn in ways.items():
    o = out0.clone()
    start = time.perf_counter()
    for _ in range(20):
        fn(o)
    times[name] = (time.perf_counter() - start) / 20
    print(f"{name:<33} {viz.fmt_seconds(times[name]):>9} per call")
fig = viz.compare_bars({n: (peaks[n], times[n]) for n in ways}, title="out += Σ batch1[i] @ batch2[i]")
fig

# %% [markdown]
# Timings vary by machine (that cell is not checked); the memory bars are the measured peaks above.
# In this core `addbmm_` calls NumPy's matmul once per batch element from Python, so on small
# matrices it can be slower than one big `bmm` even though it needs b times less memory.
# PyTorch's CPU `addbmm_` runs the same loop of `addmm_` calls, but in C++, where the per-batch
# overhead is small.

# %% [markdown]
# ## 5. Gradients of `addbmm`
#
# The derivative table says what `AddbmmBackward0` saves: each batch operand, if the *other* one
# requires grad (grad of batch1 needs batch2 and vice versa). `self` is not saved: its gradient is
# just β·grad. So modifying `out` in place after `addbmm_` is harmless for this node, but modifying
# `batch1` or `batch2` is not.

# %%
from inplace_tutorial.autograd.function import DERIVATIVES

f = DERIVATIVES["addbmm"]
print(f.node, "inputs", f.inputs, "saves", f.saves)
M = ipt.randn(3, 4, dtype=ipt.float64, requires_grad=True)
X = ipt.randn(5, 3, 2, dtype=ipt.float64, requires_grad=True)
Y = ipt.randn(5, 2, 4, dtype=ipt.float64, requires_grad=True)
r = ipt.addbmm(M, X, Y, beta=0.5, alpha=2.0)
print("saved:", [s.field for s in r.grad_fn.saved_tensors_info()])
print("gradcheck (float64, central differences):",
      ipt.autograd.gradcheck(lambda m, x, y: ipt.addbmm(m, x, y, beta=0.5, alpha=2.0), (M, X, Y)))

# %% [markdown]
# Test both halves of that sentence: scale the result in place (fine), or change `batch2` after
# the call (backward fails).

# %%
acc = ipt.zeros(3, 4, dtype=ipt.float64)
r = acc.addbmm_(X, Y)          # in place on a plain tensor: r is acc, now with AddbmmBackward0
r.mul_(3)                      # scalar mul_ on the output: nothing saved it
r.sum().backward()
print("out.mul_(3) after addbmm_: backward works, X.grad shape", tuple(X.grad.shape))
Yn = Y * 1                     # a non-leaf batch2
r = ipt.zeros(3, 4, dtype=ipt.float64).addbmm_(X, Yn)
Yn.mul_(2)                     # AddbmmBackward0 saved Yn to compute X.grad
try:
    r.sum().backward()
except RuntimeError as e:
    print("batch2.mul_(2) after addbmm_ -> RuntimeError:", str(e).split(" Hint")[0])

# %% [markdown]
# ## Exercises
#
# **08.1** `batch1 = randn(10, 20, 30)`, `batch2 = randn(10, 30, 40)`. What shape must `out` have
# for `out.addbmm_(batch1, batch2)`? Answer a tuple.

# %%
answer = None  # your code here
check("08.1", answer)
# hint("08.1")
# solution("08.1")

# %% [markdown]
# **08.2** Give the `einsum` subscripts string that computes `bmm(batch1, batch2).sum(0)`.

# %%
answer = None  # your code here: a string
check("08.2", answer)
# hint("08.2")
# solution("08.2")

# %% [markdown]
# **08.3** Without `addbmm_`, write `f(out, batch1, batch2, beta, alpha)` that updates `out` in
# place to `beta*out + alpha*Σ batch1[i] @ batch2[i]`, returns `out`, and has a peak no higher than
# `addbmm_`'s own (the checker measures both).

# %%
answer = None  # your code here: a function
check("08.3", answer)
# hint("08.3")
# solution("08.3")

# %% [markdown]
# ## Summary
# - `addbmm_`: out (n, p) ← β·out + α·Σᵢ batch1[i] @ batch2[i]. The batch dimension is **summed**.
# - The article's `zeros(10, 20, 40)` example fails (claim 10); its "bmm + add" is `baddbmm`,
#   and uses undefined names.
# - Its einsum `'ijk,jkl->ikl'` fails (claim 11); `'bij,bjk->ik'` is right.
# - Measured: `addbmm_` needs one (n, p) buffer, `bmm(...).sum(0)` materialises all b products.
# - `AddbmmBackward0` saves batch1 and batch2 (each when the other needs a grad), not `self`.
