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
#
# **Under the hood:** [`ops/addmm.py`](../inplace_tutorial/ops/addmm.py) (`addbmm_` and its
# backward); the [reading map](../inplace_tutorial/README.md) walks through the core.

# %%
import time

import inplace_tutorial as ipt
from inplace_tutorial import pytorch_reference, viz
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
print("max |addbmm_ - definition| < 1e-4:", (res - ref).abs().max().item() < 1e-4)

# %% [markdown]
# **β scales `out`, α scales the products.** The article describes β as "the coefficient added
# to the current tensor". It is not added: β *multiplies* the current contents of `out` before
# the products are added. With β = 0 the old contents are ignored altogether, even NaN:

# %%
nan_out = ipt.full((2, 5), float("nan"))
values = nan_out.addbmm_(b1, b2, beta=0).flatten().tolist()
print("beta=0 on a NaN out -> any NaN left:", any(v != v for v in values))
half = ipt.ones(2, 5).addbmm_(ipt.zeros(3, 2, 4), b2, beta=0.5)
print("beta=0.5, zero products -> out becomes", half[0, 0].item(), "(1 × 0.5 + 0)")

# %% [markdown]
# **β and α must be numbers.** The article says they must be scalars. In PyTorch that means a
# Python number, or a 0-dim tensor without grad, which is converted to a number. Any other
# tensor is refused with a `TypeError`, before anything is written:

# %%
out = ipt.zeros(2, 5)
out.addbmm_(b1, b2, beta=ipt.tensor(0.5))          # a 0-dim tensor: converted, fine
for bad in ({"beta": ipt.tensor([0.5])}, {"alpha": ipt.full((2, 5), 2.0)},
            {"beta": ipt.tensor(0.5, requires_grad=True)}):
    try:
        out.addbmm_(b1, b2, **bad)
    except TypeError as e:
        print("TypeError:", e)

# %% [markdown]
# *In real PyTorch:* the same behaviour and the same messages (parity test
# `test_08_beta_alpha_must_be_numbers`). To scale by a tensor (say, one learned α), multiply
# the result yourself: `out.addbmm_(b1, b2).mul_(alpha_tensor)`.

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
print("out:", tuple(out.shape), "| equals bmm(...).sum(0) (max |diff| < 1e-3):",
      (out - ipt.bmm(batch1, batch2).sum(0)).abs().max().item() < 1e-3)
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
print("baddbmm:", tuple(r1.shape), f"| bmm + add_: {tuple(r2.shape)} | max |diff| < 1e-3:",
      (r1 - r2).abs().max().item() < 1e-3)
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
print("'bij,bjk->ik' ->", tuple(right.shape), "| equals bmm(...).sum(0) (max |diff| < 1e-3):",
      (right - ipt.bmm(batch1, batch2).sum(0)).abs().max().item() < 1e-3)

# %% [markdown]
# The article's subscripts treat batch1's dims as (i, j, k) and batch2's as (j, k, l), so `j` is
# 20 in one and 10 in the other. Name the dims as they are: batch1 = (b, i, j), batch2 = (b, j, k);
# summing over b and j leaves (i, k). *In real PyTorch:* the same failure (`einsum(): subscript j
# has size 10 for operand 1 which does not broadcast with previously seen size 20`).

# %% [markdown]
# ## 4. Memory: which alternative is lightest? (measured)
#
# Three ways to compute `out += Σ batch1[i] @ batch2[i]`, with b = 64 batches of 64×32 @ 32×64.
# The number is the peak of extra bytes during the call (`ipt.memory.record`). The last column
# is PyTorch 2.13's peak for the same program on the CPU, measured with its own profiler
# (`torch.profiler`, `profile_memory=True`) by the parity test `test_08_addbmm_memory_on_pytorch`.

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
print(f"{'':<33}{'core: peak extra':>18}   {'biggest buffer':<32}{'PyTorch':>11}")
for name, fn in ways.items():
    o = out0.clone()
    with ipt.memory.record() as tr:
        results[name] = fn(o)
    peaks[name] = tr.peak - tr.start_allocated
    biggest = max((e for e in tr.events if e.kind == "alloc"), key=lambda e: e.nbytes)
    print(f"{name:<33}{peaks[name]:>16,} B   {f'{biggest.nbytes:,} B ({biggest.op})':<32}"
          f"{pytorch_reference.ADDBMM_PEAK[name]:>9,} B")
print("all three agree (max |diff| < 1e-2):",
      all((r - reference).abs().max().item() < 1e-2 for r in results.values()))
print(f"\none (64, 64) result: {out0.untyped_storage().nbytes():,} B; all 64 products: {ipt.bmm(B1, B2).untyped_storage().nbytes():,} B")

# %% [markdown]
# The cell above shows: `bmm + sum` first **materialises all b products** — b times more than
# one result — then reduces, in the core and in PyTorch alike. The other two differ:
#
# - **`addbmm_`**: the core computes each product into one (n, p) buffer and adds it to `out`.
#   PyTorch's CPU kernel allocates **nothing**: it runs one `addmm_` per batch element with
#   β = 1, so BLAS accumulates each product straight into `out`.
# - **`einsum`**: PyTorch turns this contraction into a single matrix multiply over the merged
#   (b, j) dimension; for that it **copies `batch1`** into a (n, b·j) layout (64·64·32·4 =
#   524,288 B) and then allocates the result: the figure in the last column. The core's einsum
#   contracts the same way (permute, merge, one `matmul`), so it makes the same copy, counted
#   ("einsum (left operand)"), and lands on PyTorch's figure. It never builds the b products,
#   but merging (b, j) needs batch1's b and j side by side in memory, and they are not.
#
# So on PyTorch's CPU, `addbmm_` is the lightest of the three and `einsum` is not: the article's
# "einsum may use less memory" is false here. The results differ only by float32 rounding
# (different summation order). On a GPU the figures differ again (cuBLAS, and the caching
# allocator's 512 B blocks); measure there with `torch.cuda.max_memory_allocated()`.

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
#
# ### "Especially effective for large batch sizes"?
#
# The article says `addbmm_` pays off for large batches. That is a claim about a *range*, so
# measure a range: b = 1 … 1024 products of 32×32 @ 32×32 (the timings are not checked; they
# depend on your machine):

# %% tags=["nbval-ignore-output"]
from inplace_tutorial.fused import addbmm_ways

print(f"{'b':>5}{'addbmm_':>14}{'bmm + sum':>14}{'einsum':>14}   (µs per product)")
for b in (1, 4, 16, 64, 256, 1024):
    X, Y, o = ipt.randn(b, 32, 32), ipt.randn(b, 32, 32), ipt.zeros(32, 32)
    row = []
    for fn in list(addbmm_ways(X, Y).values())[:3]:
        start = time.perf_counter()
        for _ in range(5):
            fn(o)
        row.append((time.perf_counter() - start) / 5 / b * 1e6)
    print(f"{b:>5}" + "".join(f"{us:>14.2f}" for us in row))

# %% [markdown]
# In the core, `addbmm_` calls NumPy's matmul once per batch element from Python, so its time
# per product stays roughly flat while one big `bmm` gets cheaper per product as b grows: for
# large b, `bmm + sum` is usually the fastest here, at b times the memory.
# `benchmarks/bench_addbmm.py` runs the same range on the core and on PyTorch (CPU, one thread).
# In our runs PyTorch's `addbmm_` was not the fastest for large b either: its CPU kernel is a
# loop of one `addmm_` per batch element too (`addbmm_impl_` in PyTorch's
# `aten/src/ATen/native/LinearAlgebra.cpp`: β on the first product, then β = 1), while `bmm`
# and `einsum` hand the whole batch to BLAS at once. What `addbmm_` reliably gives at every batch size is **memory**: no (b, n, p)
# intermediate, and on PyTorch's CPU no buffer at all. The article's speed claim is
# unsupported; its memory claim is right for `addbmm_` (and wrong for `einsum`, above).

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
# ## 6. The article's last resort: a custom fused kernel
#
# The article ends with "write a custom CUDA kernel" for the best performance, after trying
# PyTorch's own optimisations first. The memory argument of this notebook points the same way:
# the lightest possible `addbmm_` never stores a product at all. It computes each tile of `out`
# from the batches and adds it in, in one pass. `ipt.fused.fused_addbmm_` is that kernel in
# NumPy: for each block of `out`'s rows, one `einsum("bij,bjk->ik")` call sums over the batch
# and the inner dimension straight into a slice of the core's fixed workspace (the kernel's
# "shared memory"), then the tile is scaled by α and added to β·`out`.

# %%
from inplace_tutorial.fused import addbmm_ways, fused_addbmm_

all_ways = addbmm_ways(B1, B2)
for name, fn in all_ways.items():
    o = out0.clone()
    with ipt.memory.record() as tr:
        r = fn(o)
    print(f"{name:<33} peak extra {tr.peak - tr.start_allocated:>9,} B | "
          f"matches the reference (max |diff| < 1e-2): {(r - reference).abs().max().item() < 1e-2}")
o = ipt.randn(3, 4)
try:
    fused_addbmm_(o, ipt.randn(2, 4, 5), ipt.randn(2, 5, 4))     # wrong shapes: addbmm_'s errors
except RuntimeError as e:
    print("RuntimeError:", e)

# %% [markdown]
# The fused pass allocates **nothing**, like PyTorch's CPU `addbmm_`, and never holds more than
# one tile. What it saves against the core's `addbmm_` is the (n, p) product buffer; against
# `bmm + sum`, all b products. In NumPy it is not fast: `einsum` with an `out=` runs a plain C
# loop, not a blocked BLAS kernel (the ignored timing cell above and `benchmarks/bench_addbmm.py`
# show it).
#
# What a real CUDA kernel adds on top of this NumPy sketch:
# - **Parallel tiles.** Each thread block computes one tile of `out`; thousands run at once.
# - **On-chip accumulation.** Partial sums stay in registers and shared memory, so the only
#   global-memory traffic is reading the batches once and reading/writing `out` once; the
#   α/β scaling happens in the same kernel (the "epilogue"), not in a second pass.
# - **Tensor cores and vectorised loads**, which BLAS libraries (cuBLAS, CUTLASS) already use.
#
# Which is why "try PyTorch's own optimisations first" is the right order: `addbmm_` already
# *is* the fused operation, PyTorch's CPU kernel already allocates nothing (section 4), and on a
# GPU its calls go to cuBLAS kernels written that way. A custom kernel pays only when you fuse
# something PyTorch has no single op for, e.g. an activation applied right after the sum.

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
# - Measured: the core's `addbmm_` needs one (n, p) buffer (PyTorch's CPU kernel none), `bmm(...).sum(0)`
#   materialises all b products, `einsum` copies `batch1` (in PyTorch and in the core).
# - β scales `out` and α the products; both must be numbers (a 0-dim tensor converts).
# - "Effective for large batch sizes" holds for memory, not for speed on a CPU.
# - A fused pass (`ipt.fused.fused_addbmm_`) allocates nothing; a CUDA kernel adds parallel tiles
#   and on-chip accumulation.
# - `AddbmmBackward0` saves batch1 and batch2 (each when the other needs a grad), not `self`.
