# %% [markdown]
# # 03 · Inference: where is the peak?
#
# **Learning goals.** After this notebook you can:
# - record a model's memory use as a timeline of allocations and frees;
# - find the **peak** and list what is alive at it;
# - say whether `relu_()` lowers the peak, and why "it saves N bytes" is not the same as "the
#   model needs N bytes less";
# - use `no_grad` vs `inference_mode`, and read the error you get when you later modify an
#   inference tensor in place.
#
# **Under the hood:** [`ops/nn_ops.py`](../inplace_tutorial/ops/nn_ops.py) (convolution),
# [`ops/batch_norm.py`](../inplace_tutorial/ops/batch_norm.py) (batch norm),
# [`ops/unary.py`](../inplace_tutorial/ops/unary.py) (`relu_`),
# [`memory.py`](../inplace_tutorial/memory.py) (the timeline's events); the [reading
# map](../inplace_tutorial/README.md) walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import viz
from inplace_tutorial.exercises import check, hint, solution  # noqa: F401

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## The article's network
#
# The article's `EfficientNet` is conv(3→64, 3×3) → BatchNorm → `x.relu_()`. It lives in the
# package as `ipt.models.ConvBNReLU`, with an `inplace` switch that picks `relu_()` or
# `F.relu()`. We run it in eval mode under `no_grad` (inference: nothing is kept for backward)
# on a **small** batch of 4 images of 16×16 pixels, so it runs in a blink.
# Sizes scale linearly, and we scale them up to the article's batch at the end.

# %%
model = ipt.models.ConvBNReLU(3, 64).eval()
x = ipt.randn(4, 3, 16, 16)
traces = {}
for inplace in (True, False):
    model.inplace = inplace
    with ipt.no_grad(), ipt.memory.record() as trace:
        out = model(x)
        del out
    traces["relu_ (in place)" if inplace else "relu (out of place)"] = trace
for name, trace in traces.items():
    allocated = sum(e.nbytes for e in trace.events if e.kind == "alloc")
    print(f"{name:20} peak {trace.peak - trace.start_allocated:,} B above the start "
          f"at event {trace.peak_index + 1}; bytes allocated in total {allocated:,}")
print(f"(already allocated before the call: {trace.start_allocated:,} B: the weights, the input"
      " and the core's fixed 256 KiB workspace)")

# %% [markdown]
# ### Claim 3 (article): `relu_` saves 32·64·222·222·4 B in this network — what really happens
#
# The cell above shows the two peaks are **the same**. `relu_` did allocate fewer bytes in
# total (one activation-sized buffer fewer), but the peak did not move. The timeline shows why.
# Each step of the curve is one allocation or free; the dot marks the peak, and the box lists
# the largest storages alive at that moment. Both curves are drawn relative to what was already
# allocated before the call (the last line printed above).

# %%
viz.memory_timeline(traces, layout="side", title="conv → bn → relu, batch 4×3×16×16, no_grad")

# %%
for name, trace in traces.items():
    at_peak = trace.events[trace.peak_index]
    print(f"{name}: peak reached when '{at_peak.op}' allocated; alive then:")
    for line in viz.peak_report(trace, top=4):
        print("   ", line)

# %% [markdown]
# Read the timelines from left to right. There are **three plateaus of the same height**, about
# two activations each:
#
# 1. **The conv alone** already holds two activation-sized buffers: its `gemm` result and its
#    output (the matrix product comes out channel-major, (C, N, H, W), and is copied into the
#    output's (N, C, H, W) layout, then freed). PyTorch's CPU conv also holds two
#    activation-sized buffers at this moment (measured below).
# 2. **BatchNorm** allocates its output while its input (the conv output) is still alive: two
#    activations again, plus its two per-channel statistics of 256 B each. That makes this
#    plateau the highest point, but only by those 512 B.
# 3. **An out-of-place ReLU** allocates a new buffer while BatchNorm's output is alive: two
#    activations a third time.
#
# `relu_` removes the third plateau; the first two remain, so the peak does not move. The claim's
# arithmetic is right (below), but it is the size of one buffer that is not allocated, not a
# drop in the memory the block needs.
#
# Does it help to fold BatchNorm into the conv weights, as inference deployments do, so that
# `relu_` follows the conv directly? Measure it, with the variants in `ipt.peaks`, next to the
# same programs measured on PyTorch 2.13 (CPU, `torch.profiler` with `profile_memory=True`,
# checked by the parity test `test_03_conv_block_peaks`):

# %%
from inplace_tutorial import peaks, pytorch_reference

act_bytes = peaks.activation_bytes()
print(f"one activation: {act_bytes:,} B")
print(f"{'block (no_grad, eval)':<40}{'core peak':>15}{'PyTorch':>21}")
for name, peak in peaks.block_peaks().items():
    theirs = pytorch_reference.CONV_BLOCK_PEAK[name]
    print(f"{name:<40}{peak:>12,} B {peak / act_bytes:4.2f}×{theirs:>12,} B {theirs / act_bytes:4.2f}×")

# %% [markdown]
# `conv → relu_` and `conv → relu` peak the same, in the core and in PyTorch: the conv's own two
# buffers are the peak, and PyTorch's CPU conv also holds two activation-sized buffers at once.
# Folding BatchNorm away saves its 512 B and one buffer's allocation, not the peak.
#
# So when *does* `relu_` lower the peak? When the ReLU's moment (its input and its output alive
# together) is the highest point. That happens after a layer whose output is much bigger than
# its input, for example a Linear layer from 8 to 4,096 features on a batch of 64:

# %%
for name, peak in peaks.expanding_peaks().items():
    print(f"{name:<18} peak {peak:>10,} B   (PyTorch: {pytorch_reference.EXPANDING_PEAK[name]:,} B)")

# %% [markdown]
# Here the linear layer's moment is small (its input is 64×8) and the ReLU's is two outputs of
# 1 MiB each, so `relu_` halves the peak, in the core and in PyTorch. Whether an in-place op
# lowers the peak depends on what else is alive at that moment; you find out by measuring.

# %% [markdown]
# ## Scaling up to the article's batch
#
# The article's batch is 32 RGB images of 224×224. A 3×3 conv without padding gives 222×222
# outputs, 64 channels, 4 bytes each.

# %%
article = 32 * 64 * 222 * 222 * 4
print(f"32·64·222·222·4 = {article:,} B = {article / 2**20:.0f} MiB  (one activation)")

act = model.conv(x)
ours = act.untyped_storage().nbytes()
scale = article / ours
n, c, h, w = act.shape
print(f"our activation: {n}·{c}·{h}·{w}·4 = {ours:,} B; the article's batch is {scale:,.1f}× bigger")
peak_small = traces["relu_ (in place)"].peak - traces["relu_ (in place)"].start_allocated
peak_oop = traces["relu (out of place)"].peak - traces["relu (out of place)"].start_allocated
print(f"measured peak ÷ activation: in place {peak_small / ours:.2f}, out of place {peak_oop / ours:.2f}")
print(f"so at the article's size the block peaks near {2 * article / 2**20:.0f} MiB "
      f"with or without relu_")

# %% [markdown]
# What the 385 MiB figure **does** mean: with `relu_`, this block allocates one 385 MiB buffer
# fewer per forward pass, and that buffer's allocation and writing are saved. What it **does
# not** mean: that the block needs 385 MiB less. It peaks at about two activations either way,
# as the measurements above show.
#
# > **In real PyTorch** you measure the same thing on a GPU with
# > `torch.cuda.reset_peak_memory_stats()` and `torch.cuda.max_memory_allocated()`, or with
# > `torch.cuda.memory._record_memory_history()` for a timeline. The caching allocator keeps
# > freed blocks reserved (`memory_reserved()` ≥ `memory_allocated()`), and cuDNN may allocate
# > its own workspace, so real peaks differ in detail from ours; the question "what is alive at
# > the peak?" is the same.

# %% [markdown]
# ## The article's `inference()`: `relu_` twice
#
# The article's summary runs conv → bn → `relu_` → pool → `relu_` and says using `relu_` more
# than once is no problem. Run it and look at what the second `relu_` does:

# %%
pool = ipt.nn.MaxPool2d(2)
model.inplace = True
with ipt.no_grad():
    h = pool(model(x))            # conv -> bn -> relu_ -> pool
    before = h.clone()
    with ipt.memory.record() as tr:
        h.relu_()                 # the article's second relu_
print(f"second relu_: allocated {tr.peak - tr.start_allocated} B, version {h._version}, "
      f"values changed: {(h - before).abs().amax().item() != 0}")
print("negative values going into it:", int((before < 0).sum().item()))

# %% [markdown]
# "Repeating is fine" is true: no error, and `relu_` allocates nothing. But here the second
# `relu_` **does nothing**: after the first `relu_` every value is ≥ 0, and a max-pool only picks
# among those values, so nothing is negative any more. It is a wasted pass over the data (and a
# version bump). A second ReLU only changes values when a layer in between can produce
# negatives (a conv, a linear layer, a BatchNorm). The peak table above has this block too:
# the two `relu_` calls add nothing to the peak. *In real PyTorch:* the same (its peak for this
# block is in the table; its `relu_` allocates nothing either).

# %% [markdown]
# ## `no_grad` vs `inference_mode`
#
# Both switch off graph recording. `inference_mode` goes further: tensors created inside it are
# **inference tensors**. They carry no version counter at all (less bookkeeping per op), so
# reading `_version` on one raises, in PyTorch and in the core alike. A view of an inference
# tensor is one too. The rule that follows: you may not modify an inference tensor in place
# later, outside inference mode.

# %%
with ipt.no_grad():
    a = model(x)
with ipt.inference_mode():
    b = model(x)

print("under no_grad:        is_inference =", a.is_inference())
print("under inference_mode: is_inference =", b.is_inference(), "| its view too:", b[0].is_inference())
try:
    b._version
except RuntimeError as e:
    print("b._version ->", e)
a.add_(1)                     # fine: a normal tensor
before = b.clone()
try:
    b.add_(1)                 # outside inference_mode now
except RuntimeError as e:
    print(e)
print("b changed by the refused add_?", not (b - before).abs().amax().item() == 0)

# %% [markdown]
# The fix the message suggests: `b.clone()` (outside inference mode) gives a normal tensor you
# may modify. Inside another `with ipt.inference_mode():` block, in-place updates of `b` are
# allowed.
#
# > **In real PyTorch** the message is the same, with one surprise: PyTorch raises it *after* its
# > kernel has written into `b`, so `b` holds the added values although the call failed. The
# > core checks first and leaves `b` unchanged (parity tests `nb03_inference_mode_inplace`,
# > `test_03_inference_inplace_error_comes_after_the_write`, `test_03_inference_tensors_version_counter`).
# > Use `inference_mode` for pure serving code, and `no_grad` when the results may later meet
# > autograd or in-place updates.

# %% [markdown]
# ## The article's `ProductionModel` pattern
#
# The article suggests one model class with two forward paths: an in-place inference path and an
# out-of-place training path. `ipt.models.ProductionModel` implements it (the flag is
# `model.training`, set by `.eval()`/`.train()`). The in-place path normalises **the caller's
# tensor** with `sub_`/`div_`, so a caller who still needs the image must pass a clone.

# %%
prod = ipt.models.ProductionModel(in_channels=3, channels=16, image_size=8)
image = ipt.rand(2, 3, 8, 8)
original = image.clone()

prod.eval()
logits = prod(image)
print("eval path:  output is_inference =", logits.is_inference(),
      "| caller's image changed:", (image - original).abs().amax().item() > 0)

prod.train()
image = original.clone()
logits = prod(image)
print("train path: output grad_fn =", logits.grad_fn.name(),
      "| caller's image changed:", (image - original).abs().amax().item() > 0)

# %% [markdown]
# That side effect is the cost of in-place preprocessing (notebook 04 measures it). The training
# path does not need to avoid every in-place op, only those that overwrite a tensor a backward
# node saved (notebook 06).

# %% [markdown]
# ## Exercises
#
# **03.1** Write `activation_bytes(n, channels, h, w)`: the bytes of a float32 3×3 conv output
# without padding, for `n` images of `h`×`w`. (The check compares with real conv outputs.)

# %%
answer = None  # your code here, e.g. lambda n, channels, h, w: ...
check("03.1", answer)
# hint("03.1")
# solution("03.1")

# %% [markdown]
# **03.2** `feat` was computed under `inference_mode`. Write `fix(t)` that returns a tensor with
# the same values which you are allowed to modify in place afterwards.

# %%
answer = None  # your code here
check("03.2", answer)
# hint("03.2")
# solution("03.2")

# %% [markdown]
# ## Summary
#
# - Peak memory is set by what is alive *together*. In conv → bn → relu the conv alone holds two
#   activations (its gemm result and its output), and so do bn and an out-of-place relu: three
#   equal plateaus. `relu_` removes one and the peak stays at about two activations, in the core
#   and in PyTorch (claim 3: the arithmetic is right, about 385 MiB per activation, but the peak
#   does not drop here; folding BatchNorm into the conv doesn't change that).
# - `relu_` still saves one allocation per call; it lowers the peak only where the ReLU moment
#   is the peak, e.g. after a layer whose output is much bigger than its input (measured: half).
# - A second `relu_` after a max-pool is harmless and does nothing.
# - `inference_mode` makes inference tensors (no version counter, in PyTorch and in the core):
#   no in-place updates later outside inference mode; `clone()` first.
# - An in-place inference path modifies its input: callers must pass a clone if they need it.
#
# **Next:** [04 Preprocessing](04_preprocessing.ipynb).
