# %% [markdown]
# # 04 · Preprocessing in place
#
# **Learning goals.** After this notebook you can:
# - normalise a batch with the chain `t.sub_(mean).div_(std)` and measure what it saves;
# - say what is left of the saving when you need the original too (`clone()` first);
# - clip values with `clamp_` and normalise a whole dataset batch by batch, in place, and check
#   the result against the out-of-place version;
# - explain why an in-place op can't change a tensor's dtype, and fix the error.
#
# **Under the hood:** [`ops/elementwise.py`](../inplace_tutorial/ops/elementwise.py) (`sub_`,
# `div_`), [`ops/compare.py`](../inplace_tutorial/ops/compare.py) (`clamp_`),
# [`ops/tensor_iterator.py`](../inplace_tutorial/ops/tensor_iterator.py) (the dtype check); the [reading
# map](../inplace_tutorial/README.md) walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import viz
from inplace_tutorial.exercises import check, hint, solution  # noqa: F401

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## Chained in-place ops
#
# Every in-place method returns the tensor it changed, so calls chain:
# `t.sub_(mean).div_(std)` subtracts, then divides the **same** tensor. `mean` and `std` are
# 0-dimensional tensors (one number each).

# %%
t = ipt.rand(4, 3, 64, 64)
mean, std = t.mean(), t.std()
print(f"mean is a {tuple(mean.shape)} tensor of {mean.untyped_storage().nbytes()} B")
result = t.sub_(mean).div_(std)
print("chain returned t itself:", result is t, "| version:", t._version,
      f"| new |mean| {abs(t.mean().item()):.4f}, std {t.std().item():.4f}")

# %% [markdown]
# ### Claim 4 (article): `t.sub_(mean).div_(std)` saves 32·3·224·224·4 B ≈ 19 MB — what really happens
#
# First the article's arithmetic, then a measurement of three ways to normalise, on our smaller
# batch of 4×3×64×64.

# %%
article = 32 * 3 * 224 * 224 * 4
print(f"32·3·224·224·4 = {article:,} B = {article / 2**20:.1f} MiB")

batch = ipt.rand(4, 3, 64, 64)
runs = {}
t = batch.clone()
with ipt.memory.record() as runs["out of place: (t - m) / s"]:
    out = (t - t.mean()) / t.std()
del out
t = batch.clone()
with ipt.memory.record() as runs["in place: t.sub_(m).div_(s)"]:
    out = t.sub_(t.mean()).div_(t.std())
del out
t = batch.clone()
with ipt.memory.record() as runs["clone first, then in place"]:
    out = t.clone().sub_(t.mean()).div_(t.std())
size = t.untyped_storage().nbytes()
print(f"one batch = {size:,} B")
for name, tr in runs.items():
    kept = tr.events[-1].allocated - tr.start_allocated
    print(f"{name:30} peak +{tr.peak - tr.start_allocated:>7,} B, still allocated after: +{kept:,} B")

# %% [markdown]
# The cell above shows:
#
# - **Out of place** needs two full buffers at its peak: `t - m` is a temporary that is alive
#   while `/ s` writes the result. One buffer (the result) stays.
# - **In place** allocates only a few bytes: the 4-byte mean and std (and, inside `std()`, a
#   4-byte mean of its own, so the peak is two scalars at once). Claim 4 is true: the result buffer
#   (the article's 19,267,584 B at its size) is saved, along with the temporary.
# - **Clone first**, which the article suggests when you still need the original: the clone is
#   a full buffer and it stays, so the result buffer is *not* saved. Only the temporary of the
#   two-step expression is avoided.
#
# So `clone()` + in-place keeps as much as the out-of-place form; prefer in place only when you
# really don't need the input any more.
#
# The timelines below show the same three runs, counted from the memory already in use when
# each run started (the batch and its working copy): every step is the normalisation's own.

# %%
viz.memory_timeline(runs, layout="side", title="Normalising one batch of 4×3×64×64: three ways")

# %% [markdown]
# ## Clipping with `clamp_`
#
# The article follows the normalisation with `image_tensor.clamp_(min=0)`. That keeps only the
# above-average pixels, which is rarely what you want after normalising; clipping outliers to a
# range is the common use. Either way `clamp_` allocates nothing and returns the tensor.

# %%
t = batch.clone().sub_(0.5).mul_(8)
with ipt.memory.record() as tr:
    same = t.clamp_(min=-2.0, max=2.0)
print("returns t:", same is t, "| allocated:", tr.peak - tr.start_allocated, "B",
      f"| largest |value| now {t.abs().amax().item():.1f}")

# %% [markdown]
# ## A whole dataset, batch by batch
#
# The digits dataset (1,797 images of 8×8 pixels, values in [0, 1]) fits in memory. To
# normalise it without a second copy, compute the statistics once, then update it slice by
# slice: each `X[i:i + 256]` is a **view**, so the in-place ops write into `X` itself.

# %%
X, y = ipt.data.load_digits()
reference = (X - X.mean()) / X.std()          # out of place, to compare against
mean, std = X.mean(), X.std()
with ipt.memory.record() as tr:
    for i in range(0, X.shape[0], 256):
        X[i:i + 256].sub_(mean).div_(std)
print(f"dataset: {X.untyped_storage().nbytes():,} B; allocated while normalising: "
      f"{tr.peak - tr.start_allocated} B")
print(f"largest difference from the out-of-place result: {(X - reference).abs().amax().item():.1e}")
print(f"|mean| {abs(X.mean().item()):.4f}, std {X.std().item():.4f}, "
      f"version {X._version} (two in-place ops per batch)")

# %% [markdown]
# The same numbers as the out-of-place result, with no extra buffer.
#
# > **In real PyTorch** a `DataLoader` usually normalises each sample in
# > `torchvision.transforms.Normalize(mean, std, inplace=False)`; its documentation says it
# > "acts out of place, i.e., it does not mutate the input tensor" unless you pass
# > `inplace=True` — safe only when the loader built that tensor and nothing else holds it.

# %% [markdown]
# ## In-place ops can't change the dtype
#
# Images often arrive as integers (0–255). An in-place op must write its result into the
# existing integer storage, so any op whose result is a float is refused:

# %%
img = ipt.tensor([[0, 128, 255], [64, 32, 16]])
print("dtype:", img.dtype)
try:
    img.div_(255)
except RuntimeError as e:
    print(e)

# %% [markdown]
# The fix: convert first. `.float()` allocates one float32 copy; after that, every step can be in
# place.

# %%
with ipt.memory.record() as tr:
    unit = img.float().div_(255).sub_(0.5).div_(0.25)
print("dtype:", unit.dtype, "| allocated:", tr.peak - tr.start_allocated, "B (the float copy)",
      "| values:", [[round(v, 3) for v in row] for row in unit.tolist()])

# %% [markdown]
# > **In real PyTorch** images are usually `uint8`, and the message names that type: "result type
# > Float can't be cast to the desired output type Byte", in PyTorch and in the core (try
# > `dtype=ipt.uint8` above); for `int64` both say "Long" (parity tests
# > `test_04_uint8_message_names_byte`, `nb04_int_inplace_div`).
# > The rule is the same: an in-place result must be castable to the tensor's own dtype
# > (integer → float is not allowed in place; float → … keeps float).
# >
# > On a GPU, the 24 B float copy above would occupy a 512 B block: PyTorch's CUDA caching
# > allocator rounds every block up to 512 B (notebook 02 has the details).

# %% [markdown]
# ## Exercises
#
# **04.1** Write `normalize_(t)` that normalises `t` by its own mean and std **in place** and
# returns it, allocating nothing bigger than a scalar.

# %%
answer = None  # your code here
check("04.1", answer)
# hint("04.1")
# solution("04.1")

# %% [markdown]
# **04.2** Write `to_unit(img)` that takes an int64 image (0–255) and returns a float32 tensor
# in [0, 1] (`img / 255`), without changing `img`.

# %%
answer = None  # your code here
check("04.2", answer)
# hint("04.2")
# solution("04.2")

# %% [markdown]
# ## Summary
#
# - `t.sub_(mean).div_(std)` works because in-place ops return `self`; it allocates only the
#   scalar statistics (claim 4 ✔: the result buffer is saved).
# - The out-of-place expression needs a temporary plus the result at its peak.
# - If you still need the original, `clone()` brings the full buffer back: the result buffer is
#   no longer saved.
# - `clamp_` clips in place; slices are views, so a dataset can be normalised batch by batch
#   with no copy.
# - In-place results keep the tensor's dtype: convert integer images with `.float()` first.
#
# **Next:** [05 Training phases](05_training_phases.ipynb).
