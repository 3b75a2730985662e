# %% [markdown]
# # 02 · Memory layout: storage, strides and views
#
# **Learning goals.** After this notebook you can:
# - read a tensor as *storage + shape + strides + offset*;
# - predict which operations make **views** (no copy) and which **copy**;
# - explain why `view()` sometimes fails where `reshape()` works, and why
#   `expand(...).add_(1)` is refused;
# - know that an in-place op on a view writes into its base, and that `t_()`/`transpose_()`
#   change the tensor itself;
# - say what `resize_` and `set_` do to a tensor's storage.
#
# **Under the hood:** [`layout.py`](../inplace_tutorial/layout.py) (stride arithmetic),
# [`tensor.py`](../inplace_tutorial/tensor.py), [`ops/views.py`](../inplace_tutorial/ops/views.py),
# [`ops/indexing.py`](../inplace_tutorial/ops/indexing.py) (slicing),
# [`ops/strided.py`](../inplace_tutorial/ops/strided.py) (`t_()`, `clone()`),
# [`ops/resize.py`](../inplace_tutorial/ops/resize.py) and
# [`ops/set_storage.py`](../inplace_tutorial/ops/set_storage.py) (`resize_`, `set_`); the
# [reading map](../inplace_tutorial/README.md) walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import viz, widgets
from inplace_tutorial.exercises import check, hint, solution  # noqa: F401

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## Storage, shape, strides, offset
#
# A tensor is a *window* onto a flat block of memory, its storage. Three numbers place the
# window: the **shape**, the **strides** (how many cells to jump to move one step along each
# dimension), and the **offset** (the cell where element `[0, 0, …]` sits). Element
# `[i, j]` lives in cell `offset + i·stride[0] + j·stride[1]`.

# %%
x = ipt.arange(12.0).view(3, 4)
print("shape", tuple(x.shape), "| stride", x.stride(), "| offset", x.storage_offset(),
      "| contiguous", x.is_contiguous())
print("x[2, 1] =", x[2, 1].item(), "= cell", 0 + 2 * 4 + 1 * 1)

# %% [markdown]
# ## Views share one storage
#
# Slicing, `select`, `narrow` and `view` make new tensors with different shape/stride/offset
# over the **same** storage. No numbers are copied. The picture draws the one storage and,
# under it, which cells each view reads.

# %%
row = x[1]                   # select(0, 1)
col = x[:, 2]                # a column: stride 4
mid = x.narrow(1, 1, 2)      # columns 1..2
for name, v in {"row": row, "col": col, "mid": mid}.items():
    print(f"{name:4} shape {tuple(v.shape)!s:7} stride {v.stride()!s:7} offset {v.storage_offset():2}"
          f"  same storage as x: {v.untyped_storage() is x.untyped_storage()}")
viz.storage_diagram({"x": x, "row": row, "col": col, "mid": mid}, title="Four tensors, one storage")

# %% [markdown]
# ## In-place on a view writes through to the base
#
# Because a view has no cells of its own, `col.mul_(10)` changes `x`. Base and views also share
# one version counter, so autograd notices a change made through any of them.

# %%
before = viz.snapshot({"x": x, "col": col})
col.mul_(10)
print("x =", x.tolist())
print("x._version =", x._version, "| col._version =", col._version)
viz.compare_storages(before, {"x": x, "col": col}, title="col.mul_(10) changes x's cells")

# %% [markdown]
# ## Transpose: the same cells, swapped strides
#
# `x.t()` is a view with the strides swapped: nothing moves in memory. The result is no longer
# **contiguous** (its rows are not next to each other in storage). `t_()` and `transpose_()`
# are the in-place twins: they change `x`'s *own* shape and strides (metadata), so the version
# goes up, but the data pointer and the cells stay the same.

# %%
x = ipt.arange(6.0).view(2, 3)
xt = x.t()
print("x.t():  stride", xt.stride(), "| shares storage:", xt.untyped_storage() is x.untyped_storage(),
      "| contiguous:", xt.is_contiguous())
ptr, version = x.data_ptr(), x._version
x.t_()
print("x.t_(): shape", tuple(x.shape), "stride", x.stride(), "| same data_ptr:",
      x.data_ptr() == ptr, "| version", version, "->", x._version)

# %% [markdown]
# ## `contiguous()` copies only when it has to
#
# `contiguous()` returns the tensor **itself** if it is already contiguous, and a fresh,
# row-major copy otherwise.

# %%
a = ipt.arange(12.0).view(3, 4)
with ipt.memory.record() as tr_same:
    c1 = a.contiguous()
with ipt.memory.record() as tr_copy:
    c2 = a.t().contiguous()
print(f"a.contiguous() is a: {c1 is a}, allocated {tr_same.peak - tr_same.start_allocated} B")
print(f"a.t().contiguous():  new storage, allocated {tr_copy.peak - tr_copy.start_allocated} B, "
      f"stride {c2.stride()}")

# %% [markdown]
# ## `view` vs `reshape`
#
# `view` never copies: if no strides can describe the new shape over the existing storage, it
# raises. `reshape` returns a view when one is possible and **copies** otherwise. So after
# `reshape` you cannot know, without checking, whether an in-place op will reach the original.

# %%
at = a.t()
try:
    at.view(12)
except RuntimeError as e:
    print("view:", e)
flat = at.reshape(12)
print("reshape: shares storage with a?", flat.untyped_storage() is a.untyped_storage(),
      "| values", flat.tolist())
print("a.reshape(12) (contiguous a) shares storage?", a.reshape(12).untyped_storage() is a.untyped_storage())

# %% [markdown]
# ## `expand`: stride 0, many indices on one cell
#
# `expand` repeats a size-1 dimension **without copying** by giving it stride 0: every index
# along it reads the same cell. Reading is fine. Writing in place would make several elements
# write into one cell, so PyTorch refuses. (Add `.clone()` first if you need a writable copy.)

# %%
v = ipt.tensor([1.0, 2.0, 3.0]).view(3, 1)
e = v.expand(3, 4)
print("expand stride", e.stride(), "| storage cells:", v.untyped_storage().nbytes() // 4,
      "| elements:", e.numel())
try:
    e.add_(1)
except RuntimeError as err:
    print(err)
viz.storage_diagram({"v": v, "e": e}, title="expand: 12 elements over 3 cells (stride 0)")

# %% [markdown]
# > **In real PyTorch** the strides, offsets, the view/reshape rules and the two error messages
# > above are the same (the messages match PyTorch 2.13: parity test program
# > `nb02_layout_and_errors`). To ask "same storage?" in PyTorch,
# > compare `a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()`; here comparing
# > the storage objects with `is` gives the same answer.
#
# > **On a GPU the byte counts differ.** PyTorch's CUDA caching allocator rounds every block up
# > to at least 512 B (`kMinBlockSize = 512` in `c10/cuda/CUDACachingAllocator.cpp`: "all sizes
# > are rounded to at least 512 bytes"), so a 48 B tensor takes 512 B of GPU memory. And it keeps
# > freed blocks for reuse instead of returning them: `torch.cuda.memory_allocated()` counts the
# > bytes tensors occupy now, `torch.cuda.memory_reserved()` "the current GPU memory managed by the
# > caching allocator" (PyTorch docs), which stays up after a free until
# > `torch.cuda.empty_cache()` releases the unoccupied blocks. So the same program prints other
# > numbers on a GPU; the relations (which op allocates, which shares storage) stay the same.

# %% [markdown]
# ## `channels_last`: the same shape, another order of cells
#
# Strides also decide the **order** a tensor's cells sit in memory. An image batch has shape
# `(N, C, H, W)`; in the default layout the last dim, `W`, is innermost (stride 1), so each
# channel is a plane of its own. `memory_format=torch.channels_last` keeps the shape but makes
# `C` innermost: the channels of one pixel sit side by side (NHWC). Convolution kernels on
# CPUs and GPUs often prefer it. Only the strides tell the two apart.

# %%
img = ipt.arange(24.0).view(1, 3, 2, 4)                # N, C, H, W
cl = img.contiguous(memory_format=ipt.channels_last)   # a copy, cells reordered
print("NCHW stride", img.stride(), "| channels_last stride", cl.stride())
print("same shape:", tuple(cl.shape) == tuple(img.shape), "| same values:", ipt.equal(cl, img))
print("is_contiguous():", cl.is_contiguous(), "| is_contiguous(channels_last):",
      cl.is_contiguous(memory_format=ipt.channels_last))
print("first 6 cells: NCHW", img.view(-1)[:6].tolist(), "| channels_last",
      cl.as_strided((6,), (1,)).tolist())
cl.mul_(2)                                              # in place: the layout stays
print("after mul_:", cl.stride(), "| cl + 1:", (cl + 1).stride(), "| reflect pad:",
      ipt.nn.functional.pad(cl, (1, 1, 1, 1), mode="reflect").stride())
print("empty(..., memory_format=channels_last):",
      ipt.empty(1, 3, 2, 4, memory_format=ipt.channels_last).stride())

# %% [markdown]
# In place, out of place and padded, a `channels_last` tensor stays `channels_last`: element-wise
# results follow their input's memory order. `view(-1)` would refuse it (the cells are not in
# row-major order); `reshape` copies. Channels-last is the same hazard in another form: code that
# assumes "contiguous means row-major" reads the wrong cells.
#
# > **In real PyTorch** the strides, the `is_contiguous` answers, the cell order and the
# > layouts kept by `mul_`, `+` and `F.pad` are the same (parity test program
# > `nb02_channels_last`).

# %% [markdown]
# ## `resize_` and `set_`: a new window, or a window on another storage
#
# Two in-place methods change the window itself. `resize_` gives a tensor a new shape with
# row-major strides from the same offset: a smaller one keeps the storage and all its cells; a
# larger one makes the **storage itself** grow, in place: a new, larger buffer, the old bytes
# copied to its front, the new cells uninitialised (whatever the memory held). Every tensor on
# that storage moves with it. `set_` points a tensor at another storage, at any offset and
# strides. Neither copies values from one tensor to another.

# %%
s = ipt.arange(6.0)
v = s[2:]                                 # a view: cells 2..5
store, ptr = s.untyped_storage(), s.data_ptr()
s.resize_(2, 2)                           # smaller: the same buffer, all 6 cells kept
print("resize_(2, 2):", s.tolist(), "| storage", store.nbytes(), "B | moved:",
      s.data_ptr() != ptr, "| version", s._version)
s.resize_(3, 3)                           # larger: the storage grows to 9 cells
print("resize_(3, 3): storage", store.nbytes(), "B | same storage object:",
      s.untyped_storage() is store, "| moved:", s.data_ptr() != ptr, "| version", s._version)
print("v moved with it:", v.data_ptr() == s.data_ptr() + 2 * s.element_size(), "| v =",
      v.tolist())
t = ipt.zeros(2)
t.set_(store, 1, (2, 2), (1, 3))           # t now reads cells 1, 4 / 2, 5 of s's storage
print("t =", t.tolist(), "| shares s's storage:", t.untyped_storage() is store,
      "| t._version", t._version, "| s._version", s._version)
s[2] = -1.0                               # the 3 new cells: garbage until written
viz.storage_diagram({"s": s, "v": v, "t": t}, title="resize_ grew the storage; set_ put t on it")

# %% [markdown]
# `resize_` steps the version only when the shape changes, and refuses a tensor that requires
# grad (`cannot resize variables that require grad`): no derivative could follow a change of
# shape. `set_` steps its own tensor's version, not the source's: `t` and `s` now share cells
# but not a version counter, so autograd would not notice a write through one of them in the
# other. The core counts a grown storage's new buffer like any allocation (`ipt.memory`).
#
# > **In real PyTorch** the same program prints the same (parity test program
# > `nb02_resize_and_set` in `tests/parity/test_set_storage_parity.py`); the uninitialised
# > cells are the one thing it leaves undefined, which is why the cell writes them first.

# %% [markdown]
# ## Explore strides yourself
#
# The StrideExplorer lets you type any shape, strides and offset over a 12-cell storage
# (`x = arange(12.)`) and see which cells the view reads. Try `3, 4` / `1, 3` (a transpose),
# `4` / `3` with offset `0` (every third cell), or `2, 3` / `0, 1` (a stride-0 "expand").

# %% tags=["nbval-ignore-output"]
widgets.StrideExplorer()

# %% [markdown]
# The widget's logic is a plain object, so we can drive it from code too:

# %%
sv = widgets.stride_explorer.StrideView(12)
for shape, stride, offset in [("3, 4", "1, 3", "0"), ("4", "3", "0"), ("2, 3", "0, 1", "0"),
                              ("2, 3", "1", "0")]:
    sv.set(shape, stride, offset)
    print(sv.describe())

# %% [markdown]
# ## Exercises
#
# **02.1** Give `(size, stride, offset)` for a view of `ipt.arange(12.0)` that reads
# `[1.0, 5.0, 9.0]` (the check builds it with `as_strided`).

# %%
answer = None  # your code here, e.g. ((3,), (1,), 0)
check("02.1", answer)
# hint("02.1")
# solution("02.1")

# %% [markdown]
# **02.2** For `x = ipt.arange(12.0).view(3, 4)`, which of these calls **copy** (make a new
# storage)? Answer with a dict of `True`/`False`:
# `{"x.t()": ..., "x.contiguous()": ..., "x.t().contiguous()": ..., "x.reshape(12)": ...,
# "x.t().reshape(12)": ..., "x[:, 1]": ...}`. Predict first, then test your guesses with
# `untyped_storage() is`.

# %%
answer = None  # your code here
check("02.2", answer)
# hint("02.2")
# solution("02.2")

# %% [markdown]
# ## Summary
#
# - A tensor = storage + shape + strides + offset. Slicing, `select`, `narrow`, `view`, `t`,
#   `expand` make views: no copy.
# - In-place ops on a view write into the base; base and views share one version counter.
# - `t_()`/`transpose_()` change the tensor's own metadata in place (version +1, same data).
# - `contiguous()` returns `self` when it can; `reshape` copies when `view` would fail.
# - `expand` uses stride 0, so in-place writes into it are refused.
# - `resize_` reshapes the window and grows the storage in place when it must (views move
#   with it); `set_` points a tensor at another storage, sharing cells but not the version.
#
# **Next:** [03 Inference](03_inference.ipynb).
