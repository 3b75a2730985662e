# %% [markdown]
# # 13 · Mixed precision
#
# Large models train in 16-bit floats: half the bytes per number, so half the memory for
# activations and twice the numbers per memory transfer. The price is range and precision, and
# in-place ops are where you pay it without noticing: `h.add_(x)` writes its result into `h`'s
# own 16 bits, whatever the dtype of `x`. This notebook measures what that costs and shows the
# in-place steps of mixed-precision training: loss scaling, the finite check, and fp32 master
# weights copied into the 16-bit model.
#
# **Learning goals**
# - Read `float16` and `bfloat16` off their bit fields: range, precision, bytes.
# - Predict the dtype of an in-place result (`h.add_(float32_tensor)` stays `float16`) and
#   measure the rounding it costs.
# - Say where `float16` overflows (65504) and underflows, and what `bfloat16` trades instead.
# - Scale a loss, unscale its gradients in place, check them for `inf`/`nan` and skip a step.
# - Keep fp32 master weights, update them in place and `copy_` them into the 16-bit model.
#
# **Under the hood:** [`dtypes.py`](../inplace_tutorial/dtypes.py) (the dtypes, `finfo`, the
# promotion table), [`ops/tensor_iterator.py`](../inplace_tutorial/ops/tensor_iterator.py) (in-place kernels: the
# result is cast into `self`'s dtype), [`memory.py`](../inplace_tutorial/memory.py) (bytes
# counted); the [reading map](../inplace_tutorial/README.md) walks through the core.

# %%
import math

import inplace_tutorial as ipt
from inplace_tutorial import viz
from inplace_tutorial.exercises import check, hint, nb13, solution  # noqa: F401
from inplace_tutorial.nn import functional as F

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## 1. Three floating formats
#
# A float is a sign, an exponent (the range: how large and how small) and a mantissa (the
# precision: how many steps between two powers of two). `float16` cut both; `bfloat16` ("brain
# float", from Google's TPUs) keeps `float32`'s 8 exponent bits and cuts only the mantissa.

# %%
fig = viz.float_formats(title="bits of each format, and what follows from them (ipt.finfo)")
fig

# %%
for d in (ipt.float32, ipt.float16, ipt.bfloat16):
    info = ipt.finfo(d)
    print(f"{d.name:<9} {info.bits // 8} bytes | max {info.max:<10.4g} | smallest normal "
          f"{info.tiny:<9.3g} | eps (gap after 1.0) {info.eps:.3g}")

# %% [markdown]
# `eps` is the relative precision: any result is rounded to within half an `eps` of itself.
# `float16` keeps about 3 decimal digits, `bfloat16` between 2 and 3, `float32` about 7.
# *In real PyTorch:* `torch.finfo` gives the same numbers (parity test `test_13_finfo`).

# %% [markdown]
# ## 2. An in-place result keeps the dtype of `self`
#
# Predict first: `h` is `float16` and `f` is `float32`. What is the dtype of `h + f`, and of
# `h` after `h.add_(f)`?

# %%
h = ipt.tensor([1.0, 2.0, 3.0], dtype=ipt.float16)
f = ipt.tensor([0.1, 0.2, 0.3])
ptr, version = h.data_ptr(), h._version
out = h + f
h.add_(f)
print("h + f       :", out.dtype, "(a new tensor)")
print("h.add_(f)   :", h.dtype, "| same memory:", h.data_ptr() == ptr,
      "| version steps:", h._version - version)
print("f.add_(h)   :", f.add_(h).dtype)

# %% [markdown]
# Out of place, the result gets the **promoted** dtype: `float16` meets `float32` in `float32`.
# In place there is nowhere to put a `float32`: the result is written into `h`'s own 16-bit
# cells. PyTorch allows it because `float32` *can be cast* to `float16` (both are floating
# types); it refuses only casts across categories, such as a float result into an integer
# tensor (notebook 04). *In real PyTorch:* the same dtypes, same memory, one version step
# (parity test `test_13_inplace_result_keeps_self_dtype`).
#
# What does that cost? PyTorch computes the sum in `float32` and rounds it to `float16` once.
# Measure the rounding on 10,000 numbers, against the same sum kept in `float32`:

# %%
x = ipt.randn(10_000)
step = ipt.randn(10_000) * 0.01
for d in (ipt.float16, ipt.bfloat16):
    w = x.to(d)
    exact = w.float() + step        # the sum, kept in float32
    w.add_(step)                    # the sum, rounded into w's 16 bits
    rel = ((w.float() - exact).abs() / exact.abs()).amax().item()
    half_eps = ipt.finfo(d).eps / 2
    print(f"{d.name:<9} largest relative error {rel / half_eps:.2f} x (eps / 2) "
          f"| within eps / 2 = {half_eps:.2g}: {rel <= half_eps}")

# %% [markdown]
# One in-place add costs at most half an `eps` of relative error: about 0.05 % in `float16`,
# 0.4 % in `bfloat16`. *In real PyTorch:* the result is the same, bit for bit (parity test
# `test_13_add_into_half_rounds_once`). One step is harmless. Many small steps into the same
# tensor are not.

# %% [markdown]
# ## 3. Small updates vanish
#
# Add `1e-4` to a tensor that starts at 0, 3000 times, in place. The exact result is 0.3.

# %%
sums = {d: ipt.zeros(1, dtype=d) for d in (ipt.float32, ipt.float16, ipt.bfloat16)}
history = {d.name: [] for d in sums}
for i in range(3000):
    for t in sums.values():
        t.add_(1e-4)
    if i % 50 == 49:
        for d, t in sums.items():
            history[d.name].append(t.item())
for d, t in sums.items():
    print(f"{d.name:<9} after 3000 x add_(1e-4): {t.item():.4f}")
fig = viz.line_chart(history, x=range(50, 3001, 50), xlabel="calls of t.add_(1e-4)",
                     ylabel="t", title="an accumulator that stops growing")
fig

# %% [markdown]
# `float16` stops at 0.25: there the gap between neighbouring `float16` numbers is
# `0.25 * eps = 0.000244`, so `0.25 + 0.0001` is closer to 0.25 than to the next number up and
# rounds back to it. Every further `add_` writes the same value, forever. On the way it even
# ran *ahead* of the exact sum: between 0.0625 and 0.25 the gap is 0.000061 or 0.000122, and
# `+ 0.0001` rounds up to a whole gap or two. Each `add_` is rounded on its own, and the errors
# do not cancel. `bfloat16`, with gaps 8 times larger, stops at 0.03125. `float32` gets to 0.3,
# with its own small rounding.
#
# That is exactly an optimizer step: a weight of 1.0 and an update `lr * grad = 1e-4`:

# %%
for d in (ipt.float32, ipt.float16, ipt.bfloat16):
    weight = ipt.ones(1, dtype=d)
    for _ in range(100):
        weight.add_(1e-4)
    print(f"{d.name:<9} weight after 100 updates of 1e-4: {weight.item():.4f} (exact 1.0100)")

# %% [markdown]
# In `float16` and `bfloat16` the weight never moves. That is why mixed-precision training
# keeps a **`float32` master copy** of the weights for the update (section 6), and uses the
# 16-bit copy only for the forward and backward passes. *In real PyTorch:* the same numbers
# (parity test `test_13_small_updates_vanish`).

# %% [markdown]
# ## 4. Range: overflow and underflow
#
# `float16`'s largest number is 65504. Predict: what does `mul_(2)` do to 60000 in `float16`?
# And what happens to numbers smaller than its smallest one?

# %%
big = ipt.tensor([60000.0, 1000.0], dtype=ipt.float16)
big.mul_(2)
print("float16 [60000, 1000].mul_(2):", big.tolist(), "| dtype", big.dtype)
print("inf - inf =", (big - big).tolist()[0])
print()
values = [65504.0, 65520.0, 1e5, 257.0, 1e-5, 1e-8]
print(f"{'value':>10} | {'float16':>10} | {'bfloat16':>10}")
for v in values:
    row = [ipt.tensor([v]).to(d).item() for d in (ipt.float16, ipt.bfloat16)]
    print(f"{v:>10.6g} | " + " | ".join(f"{r:>10.6g}" for r in row))

# %% [markdown]
# - **Overflow is silent.** `60000 * 2` is `inf`, written in place with no error. One `inf`
#   spreads: `inf - inf` is `nan`, and a `nan` in a gradient turns every weight it reaches into
#   `nan`. Anything at or above 65520 rounds to `inf` in `float16`.
# - **Underflow is silent too.** `1e-8` becomes 0 in `float16` (its smallest number is about
#   6e-8, and below 6.1e-5 it is already losing bits: `1e-5` comes back as `1.00136e-05`).
#   Small gradients are exactly such numbers.
# - **`bfloat16` has `float32`'s range** (1e5 and 1e-8 survive) but only 8 bits of precision:
#   257 comes back as 256.
#
# *In real PyTorch:* the same values (parity test `test_13_overflow_and_underflow`).

# %% [markdown]
# ## 5. Memory: half, measured
#
# A two-layer MLP (64 → 256 → 64) and a batch of 128. We count the bytes of its weights, and
# the bytes a training forward pass leaves allocated: the output and the activations that
# backward will read, all kept until `backward()` runs.

# %%
shapes = {"w1": (256, 64), "b1": (256,), "w2": (64, 256), "b2": (64,)}
params32 = {name: ipt.randn(*shape) * 0.1 for name, shape in shapes.items()}
x32 = ipt.randn(128, 64)


def mlp(x, p):
    return F.linear(F.linear(x, p["w1"], p["b1"]).relu(), p["w2"], p["b2"])


def measure(dtype):
    before = ipt.memory.memory_allocated()
    params = {k: ipt.zeros(*v.shape, dtype=dtype).copy_(v).requires_grad_()  # a fresh copy
              for k, v in params32.items()}
    weights = ipt.memory.memory_allocated() - before
    xd = x32.to(dtype)
    before = ipt.memory.memory_allocated()
    out = mlp(xd, params)
    kept = ipt.memory.memory_allocated() - before     # out + what backward will read
    del out                                           # (alive until measured)
    return weights, kept


(w32, a32), (w16, a16) = measure(ipt.float32), measure(ipt.float16)
print(f"weights              float32 {w32:>7,} B | float16 {w16:>7,} B | ratio {w16 / w32:.2f}")
print(f"kept by the forward  float32 {a32:>7,} B | float16 {a16:>7,} B | ratio {a16 / a32:.2f}")
print(f"mixed precision keeps both weight copies: {w32 + w16:,} B = {(w32 + w16) / w32:.1f} x "
      "the float32 weights")

# %% [markdown]
# Activations halve, and they are what grows with batch size and sequence length. The weights
# halve only in a model that is *all* 16-bit (inference). Mixed-precision training keeps the
# `float32` master weights *and* a 16-bit copy: 1.5 times the bytes, and an optimizer's state
# (Adam's two buffers per weight) comes on top.

# %% [markdown]
# ## 6. Mixed-precision training, every step in place
#
# ### Loss scaling
#
# Gradients are often smaller than `float16` can hold (section 4). The cure: multiply the loss
# by a large `scale` before `backward()`. Every gradient is then `scale` times larger (the
# chain rule is linear), so it survives in `float16`; afterwards, divide by `scale` in `float32`.

# %%
grad = ipt.tensor([1e-3, 1e-5, 1e-7, 1e-8])
scale = 1024.0
plain = grad.to(ipt.float16)                       # what backward would store unscaled
scaled = (grad * scale).to(ipt.float16)            # with the loss scaled by 1024
unscaled = ipt.zeros(4)                            # a float32 buffer for the master gradient
unscaled.copy_(scaled)                             # in place: float16 -> float32
unscaled.mul_(1 / scale)                           # in place: undo the scale
print("float16 without scaling :", [f"{v:.3g}" for v in plain.tolist()])
print("scaled, then unscaled   :", [f"{v:.3g}" for v in unscaled.tolist()])

# %% [markdown]
# Without scaling, `1e-8` is lost and `1e-7` keeps one significant bit. With it, all four
# come back correct to 3 digits. Too large a scale overflows instead: the gradient
# becomes `inf`. So the step must **check** the gradients and **skip** the update when it finds
# an `inf` or `nan`, and lower the scale.

# %% [markdown]
# ### The training loop
#
# A linear model learns `y = x @ w_true`. The model's weight `w16` is `float16`; the master
# weight `master` and its gradient buffer `grad32` are `float32`, allocated once. Each step:
# scaled backward, `copy_` the gradient into `float32`, unscale it in place, check, update the
# master in place, `copy_` it back into `w16`. The scale starts at 65536 (PyTorch's `GradScaler`
# default), halves on every skipped step and doubles after 10 good steps in a row.

# %%
_ = ipt.manual_seed(13)                            # the data of the parity test below
x = ipt.randn(128, 32).to(ipt.float16)
w_true = ipt.randn(32, 4)
y = x.float() @ w_true
master = ipt.zeros(32, 4)                          # float32 master weight
w16 = master.to(ipt.float16).requires_grad_()      # the model's float16 weight
grad32 = ipt.zeros(32, 4)                          # float32 gradient buffer
scale, good_steps, lr = 65536.0, 0, 0.1
scales, skipped, losses = [], [], []
update_bytes = 0
for step in range(60):
    w16.grad = None
    loss = ((x @ w16).float() - y).pow(2).mean()   # float16 matmul, float32 loss
    (loss * scale).backward()
    scales.append(scale)
    losses.append(loss.item())
    with ipt.memory.record() as update:
        grad32.copy_(w16.grad)                     # float16 -> float32, in place
        grad32.mul_(1 / scale)                     # unscale, in place
        finite = math.isfinite(grad32.sum().item())
        if finite:
            with ipt.no_grad():
                master.add_(grad32, alpha=-lr)     # the update, in float32, in place
                w16.copy_(master)                  # round into the float16 model, in place
    update_bytes = max(update_bytes, update.peak - update.start_allocated)
    if not finite:
        skipped.append(step)
        scale, good_steps = scale / 2, 0
        continue
    good_steps += 1
    if good_steps == 10:
        scale, good_steps = scale * 2, 0
print(f"skipped steps: {skipped}")
print(f"loss: first {losses[0]:.1f}, last {losses[-1]:.2f}")
print(f"largest allocation of one update (unscale, check, step, copy): {update_bytes} B")
fig = viz.line_chart({"loss scale": scales}, logy=True, steps=True, ylabel="scale",
                     marks={"step skipped (inf in the gradient)":
                            [(s, scales[s]) for s in skipped]},
                     title="the loss scale over training")
fig

# %% [markdown]
# The scale climbs while gradients stay finite, and every time it climbs too high a gradient
# overflows: that step is skipped (the master weight is not touched) and the scale halves. The
# update itself allocates only the 4-byte sum of the finite check: the gradient copy, the
# unscale, the master update and the copy into `w16` all write into buffers allocated once.
#
# Two in-place details carry the method:
# - `w16.copy_(master)` rounds into the **existing** `float16` weight: the model keeps its
#   tensor (an optimizer holding `w16`, or a view of it, still sees it), one version step.
#   `w16 = master.to(ipt.float16)` would allocate a new tensor and leave the old one behind.
# - `grad32.sum()` is `inf` or `nan` whenever any element is (`inf + x = inf`,
#   `inf - inf = nan`), so one sum checks a whole buffer. The check must come **before** the
#   update: an `inf` added into `master` would stay there.
#
# *In real PyTorch:* `copy_` into a `float16` tensor keeps its memory and rounds (parity test
# `test_13_copy_into_half_in_place`); the sum is non-finite whenever an element is (parity
# test `test_13_one_sum_checks_for_inf_and_nan`); the loop's gradients overflow at the same
# steps (parity test `test_13_scaled_training_skips_the_same_steps`).

# %% [markdown]
# ## 7. In real PyTorch: autocast and `GradScaler`
#
# Real code rarely writes this loop by hand. Two tools do it; the core models neither.
#
# - **`torch.autocast(device_type, dtype=...)`** keeps the weights in `float32` and casts *per
#   op*: matrix products and convolutions run in the 16-bit dtype, and ops on the device's
#   `float32` list (losses such as `mse_loss`; on CUDA also `softmax`, on CPU not) in
#   `float32`. The 16-bit copies of the weights are temporaries made inside the forward pass
#   (cached while the `with` block runs, `cache_enabled=True`), so there is no 16-bit model to
#   `copy_` into. **In-place ops are not autocast**: `acc.addmm_(a, b)` writes into `acc` in
#   its own dtype, as in section 2, while `acc.addmm(a, b)` gives a 16-bit result. Parity test
#   `test_13_autocast_casts_per_op`, under `torch.autocast("cpu", dtype=torch.bfloat16)`.
# - **`torch.amp.GradScaler`** does section 6: `scaler.scale(loss).backward()`;
#   `scaler.step(optimizer)` unscales the gradients **in place** (one fused kernel,
#   `torch._amp_foreach_non_finite_check_and_unscale_`, which also sets a `found_inf` flag)
#   and skips `optimizer.step()` if it found `inf`/`nan`; `scaler.update()` halves the scale
#   after a skipped step (`backoff_factor=0.5`) and doubles it after `growth_interval=2000`
#   good steps (`growth_factor=2.0`), starting from `init_scale=2**16`. It refuses `float16`
#   gradients ("Attempting to unscale FP16 gradients."): it is meant for `float32` weights
#   under autocast. Parity tests `test_13_grad_scaler_defaults`,
#   `test_13_grad_scaler_unscales_in_place_and_skips`.
# - **`bfloat16`** has `float32`'s range, so bf16 autocast usually needs no loss scaling: the
#   documentation's CPU recipe with `bfloat16` uses `torch.autocast` alone.
#
# Sources: PyTorch's [Automatic Mixed Precision
# documentation](https://docs.pytorch.org/docs/stable/amp.html) (which ops autocast to which
# dtype) and `torch/amp/grad_scaler.py`.

# %% [markdown]
# ## Exercises
#
# **13.1** Write `master_step_(master, half, grads, lr)`: `master`, `half` and `grads` are lists
# of tensors (`float32`, `float16`, `float32`). Update each master weight with plain SGD
# (`master -= lr * grad`) and bring the `float16` weight up to date, everything in place and
# without a full-size temporary.

# %%
answer = None  # your code here: a function
check("13.1", answer)
# hint("13.1")
# solution("13.1")

# %% [markdown]
# **13.2** Write `unscale_(grads, scale)`: divide every gradient in the list by `scale` in
# place, and return `True` if all of them are finite afterwards (the step may run), `False` if
# any holds an `inf` or `nan`.

# %%
answer = None  # your code here: a function
check("13.2", answer)
# hint("13.2")
# solution("13.2")

# %% [markdown]
# ## Summary
# - `float16`: 2 bytes, max 65504, about 3 digits. `bfloat16`: 2 bytes, `float32`'s range,
#   2–3 digits.
# - An in-place op writes into `self`'s dtype: `h.add_(float32)` stays `float16`, rounded
#   once, within half an `eps`.
# - Repeated small in-place updates of a 16-bit tensor stall: keep `float32` master weights.
# - Overflow to `inf` and underflow to 0 are silent; loss scaling moves gradients into range.
# - Mixed precision in place: `copy_` the gradient into `float32`, `mul_(1 / scale)`, check
#   with one sum, skip or `add_` into the master, `copy_` into the 16-bit weight.
# - Activations halve; weights in mixed-precision training take 1.5 times the `float32` bytes.
