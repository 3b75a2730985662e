# %% [markdown]
# # 01 · What in-place means
#
# **Learning goals.** After this notebook you can:
# - tell whether an operation wrote into existing memory or allocated new memory, using
#   `data_ptr()`, `_version` and `ipt.memory`;
# - read the trailing-underscore naming rule (`add` vs `add_`);
# - explain why `x += 1` and `x = x + 1` are different operations;
# - work out how many bytes an out-of-place op on a big tensor costs, and check it by measuring.
#
# **Under the hood:** [`ops/elementwise.py`](../inplace_tutorial/ops/elementwise.py) (`add_`,
# `mul_` …), [`ops/tensor_iterator.py`](../inplace_tutorial/ops/tensor_iterator.py) (`inplace_elementwise`),
# [`version_counter.py`](../inplace_tutorial/version_counter.py) (`VersionCounter`),
# [`memory.py`](../inplace_tutorial/memory.py); the [reading map](../inplace_tutorial/README.md)
# walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import viz
from inplace_tutorial.exercises import check, hint, solution  # noqa: F401

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## Two ways to add 5
#
# A tensor's numbers live in a block of memory called its **storage**. `x.data_ptr()` is the
# address where the tensor's data starts. We never print addresses (they change every run);
# we compare them.
#
# ### Claim 1 (article): `x.add_(5)` writes into x's memory, `y = x + 5` allocates new memory — what really happens

# %%
x = ipt.tensor([1.0, 2.0, 3.0])
y = x + 5
print("y = x + 5:     y is a new storage?", y.data_ptr() != x.data_ptr(), "| x =", x.tolist())

x = ipt.tensor([1.0, 2.0, 3.0])
ptr_before = x.data_ptr()
result = x.add_(5)
print("x.add_(5):     same address?      ", x.data_ptr() == ptr_before, "| x =", x.tolist())
print("               add_ returned x itself?", result is x)

# %% [markdown]
# The claim holds. `x + 5` puts `[6, 7, 8]` into a new storage and leaves `x` alone.
# `x.add_(5)` overwrites `x`'s own cells and **returns `x` itself**, not a copy. That is why
# in-place calls can be chained: `t.sub_(m).div_(s)` (notebook 04).
#
# The picture shows the same thing: the storages before and after each operation. A new storage
# is marked **new**, and cells whose values changed are highlighted.

# %%
x = ipt.tensor([1.0, 2.0, 3.0])
before = viz.snapshot({"x": x})
y = x + 5
viz.compare_storages(before, {"x": x, "y": y}, title="y = x + 5: a second storage")

# %%
x = ipt.tensor([1.0, 2.0, 3.0])
before = viz.snapshot({"x": x})
x.add_(5)
viz.compare_storages(before, {"x": x}, title="x.add_(5): the same storage, new values, version 0 → 1")

# %% [markdown]
# ## `_version`: the counter behind the safety checks
#
# Every in-place operation adds one to the tensor's `_version`. Out-of-place operations never
# touch it. Autograd uses this counter to notice that a tensor it saved for backward has been
# overwritten (notebook 06).

# %%
x = ipt.tensor([1.0, 2.0, 3.0])
print("start:        ", x._version)
x.add_(1)
x.mul_(2)
print("after 2 ops:  ", x._version)
_ = x * 10
print("after x * 10: ", x._version, "(out-of-place: unchanged)")

# %% [markdown]
# ## The naming rule
#
# In PyTorch, a method whose name ends in `_` modifies the tensor it is called on: `add_`,
# `mul_`, `relu_`, `clamp_`, `zero_`, `fill_`, `copy_`, `t_`. The same name without `_` returns a
# new tensor. Not every op has an in-place twin: `matmul_`, `permute_`, `minimum_` and
# `maximum_` do not exist (notebook 09 has the full list).

# %%
x = ipt.tensor([-1.0, 0.5, 2.0])
print("x.relu()  ->", x.relu().tolist(), "  x is still", x.tolist())
print("x.relu_() ->", x.relu_().tolist(), "  x is now  ", x.tolist())
print("has matmul_?", hasattr(x, "matmul_"), "| has clamp_?", hasattr(x, "clamp_"))

# %% [markdown]
# ## `x += 1` is in place; `x = x + 1` is not
#
# This one surprises many people. `x += 1` calls `x.add_(1)`: the same storage, the version goes
# up, and **every other name for that tensor sees the change**. `x = x + 1` builds a new tensor
# and then points the name `x` at it; the old tensor is untouched (and freed if nothing else
# holds it).

# %%
x = ipt.ones(1000)
alias = x                       # a second name for the same tensor
with ipt.memory.record() as trace:
    x += 1
print(f"x += 1:     same tensor as alias? {x is alias}, version {x._version}, "
      f"bytes allocated {trace.peak - trace.start_allocated:,}, alias[0] = {alias[0].item()}")

x = ipt.ones(1000)
alias = x
with ipt.memory.record() as trace:
    x = x + 1
print(f"x = x + 1:  same tensor as alias? {x is alias}, version {x._version}, "
      f"bytes allocated {trace.peak - trace.start_allocated:,}, alias[0] = {alias[0].item()}")

# %% [markdown]
# The cell above shows that `x = x + 1` allocated a full new 1000-element float32 storage
# (4 bytes per element), while `x += 1` allocated nothing. It also shows the trap: after
# `x += 1`, `alias` changed too.
#
# > **In real PyTorch** the same holds: `x += 1` is `x.add_(1)` (`Tensor.__iadd__`), and
# > `x = x + 1` allocates (parity test programs `nb01_add_inplace_vs_new`, `nb01_iadd_alias`).
# > One caution about addresses, in PyTorch and here alike: a freed block is often handed
# > straight back to the next allocation of the same size, so two different tensors created one
# > after another can show the same `data_ptr()`. That happens on the CPU too, not only with the
# > GPU's caching allocator: PyTorch's CPU allocator (and NumPy, under the core) reuses freed
# > memory (parity test `test_01_cpu_reuses_freed_addresses`). Compare addresses only while both
# > tensors are alive.

# %% [markdown]
# ## How much memory is at stake?
#
# ### Claim 2 (article): a 1000×1000 float32 tensor is about 4 MB, and every out-of-place op on it needs 4 MB more — what really happens

# %%
large_x = ipt.randn(1000, 1000)
size = large_x.untyped_storage().nbytes()
print(f"1000 × 1000 × 4 B = {1000 * 1000 * 4:,} B; the storage holds {size:,} B "
      f"= {size / 2**20:.2f} MiB")

with ipt.memory.record() as out_of_place:
    y = large_x * 2
with ipt.memory.record() as in_place:
    large_x.mul_(2)
print(f"large_x * 2   allocates {out_of_place.peak - out_of_place.start_allocated:,} B")
print(f"large_x.mul_(2) allocates {in_place.peak - in_place.start_allocated:,} B")
del y

# %% [markdown]
# True. The cell computes the article's "about 4 MB": exactly 4,000,000 bytes, which is 3.81 MiB
# (1 MiB = 1,048,576 B). Each out-of-place op allocates one more tensor of that size; the
# in-place version allocates nothing. Whether those extra bytes matter depends on whether
# they are alive at the moment of **peak** memory — notebook 03 measures that.
#
# ### Claim 6 (article, arithmetic): a 50M-parameter model saves 50,000,000 × 4 B ≈ 190 MB per update

# %%
params = 50_000_000
nbytes = params * 4
print(f"{params:,} params × 4 B = {nbytes:,} B = {nbytes / 2**20:.1f} MiB")

# %% [markdown]
# The arithmetic is right: the "190 MB" is really 190.7 MiB (200 million bytes). But the
# article's own update code, `param.sub_(lr * param.grad)`, still allocates a full-size
# temporary for `lr * param.grad` on every step (**claim 5**), so it does not get this saving.
# Notebook 05 measures it and shows the form that does.

# %% [markdown]
# ## Views share storage and version counter
#
# Slicing does not copy: `row = m[1]` is a **view** onto `m`'s storage. An in-place op on the
# view writes into `m`, and both share one version counter. Notebook 02 is about views.

# %%
m = ipt.zeros(2, 3)
row = m[1]
row.add_(7)
print("m =", m.tolist())
print("m._version =", m._version, "| row._version =", row._version)

# %% [markdown]
# ## When the operand overlaps what you write
#
# `x.add_(y)` reads `y` while it writes `x`. If `y` is a view of `x`, some cells it reads may
# already have been overwritten. PyTorch refuses the overlaps it can recognise:

# %%
v = ipt.ones(6)
try:
    v[1:].add_(v[:-1])
except RuntimeError as e:
    print(e)

# %% [markdown]
# Its check only understands views that cover one solid block of memory. For any other view it
# gives up and lets the op run, and then the answer depends on the order in which the loop
# visits the cells. "Add its left neighbour to every cell", on two rows this time:

# %%
x = ipt.ones(2, 6)
x[:, 1:].add_(x[:, :-1])
print(x[0].tolist())

# %% [markdown]
# Not `[1, 2, 2, 2, 2, 2]`: each cell read its neighbour *after* the neighbour had been
# updated, so the row became a running sum. Now the same line on rows of 41:

# %%
x = ipt.ones(2, 41)
x[:, 1:].add_(x[:, :-1])
print([int(c) for c in x[0].tolist()])

# %% [markdown]
# PyTorch's CPU loop walks a row 64 bytes at a time (16 float32 values), reading all 16 before
# it writes any, and finishes what is left of the row (fewer than 16) one element at a time.
# Here cells 1 to 32 are written in two steps of 16 and read old values, except cell 17: its
# step reads cell 16, which the step before wrote (the 3). Cells 33 to 40 are written one by
# one, a running sum. A 6-element row is all "leftover". So the result depends on the row
# length, and for a few ops on the CPU build too (AVX512 takes 128-byte steps for `pow_`,
# `atan2_` and `hypot_`).
#
# A realistic version of the bug: "divide every row by its first element".

# %%
x = ipt.tensor([[2.0, 4.0, 6.0], [10.0, 20.0, 30.0]])
x.div_(x[:, :1])
print("x.div_(x[:, :1])        ->", x.tolist())
x = ipt.tensor([[2.0, 4.0, 6.0], [10.0, 20.0, 30.0]])
x.div_(x[:, :1].clone())
print("x.div_(x[:, :1].clone()) ->", x.tolist())

# %% [markdown]
# Without the `clone()`, the first element of each row is divided first and becomes 1, and
# the other elements are then divided by that 1. With `clone()`, the divisors are a separate
# copy, and every element is divided by the original value. Rule: **if the operand of an
# in-place op is a view of the tensor you write, `clone()` it first** (or use the
# out-of-place `x = x / x[:, :1]`).
#
# > **In real PyTorch** these results are the same: parity programs
# > `nb01_overlap_refused_and_running_sum` and `nb01_overlap_div_by_first_column`, and
# > `tests/parity/test_overlap_walk_parity.py` for every dtype and row length. With more than
# > one thread, PyTorch splits tensors of over 32,768 elements between threads, and each
# > thread's 64-byte steps start where its share starts, so some cells come out differently
# > than with one thread (test `test_01_overlap_depends_on_threads`). The core always gives the
# > one-thread answer.

# %% [markdown]
# ## Exercises
#
# **01.1** Write a function that doubles a tensor **in place** and returns it: same object, same
# memory, no allocation.

# %%
answer = None  # your code here, e.g. lambda t: ...
check("01.1", answer)
# hint("01.1")
# solution("01.1")

# %% [markdown]
# **01.2** For `x = ipt.zeros(250, 400)`, how many bytes does `y = x * 3` allocate? Give an `int`
# (measure it or compute it).

# %%
answer = None  # your code here
check("01.2", answer)
# hint("01.2")
# solution("01.2")

# %% [markdown]
# ## Summary
#
# - An in-place op (`add_`, `relu_`, `+=` …) writes into the tensor's own storage, bumps
#   `_version` and returns the tensor itself. An out-of-place op allocates a new storage.
# - `x += 1` is in place and visible through every alias; `x = x + 1` allocates and rebinds.
# - A 1000×1000 float32 tensor is 4,000,000 B (3.81 MiB); each out-of-place op on it allocates
#   that much again (claim 2 ✔).
# - 50M float32 parameters are 200,000,000 B (190.7 MiB) (claim 6's arithmetic ✔); whether an
#   update saves it depends on how it is written (notebook 05).
# - Views share their base's storage and version counter.
# - An in-place op whose operand is a view of the tensor it writes can read cells it has
#   already overwritten; the result depends on PyTorch's loop order. `clone()` the operand.
#
# **Next:** [02 Memory layout](02_memory_layout.ipynb).
