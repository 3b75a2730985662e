# %% [markdown]
# # 14 · Gradients are updated in place too
#
# The optimizer's update is not the only in-place step of training. `backward()` *adds* into
# `.grad` in place, `zero_grad()` either frees the gradients or zeroes them in place, and
# `clip_grad_norm_` rescales them in place. This notebook measures each of them.
#
# **Learning goals**
# - Predict what `.grad` holds after several `backward()` calls, and use that for gradient
#   accumulation (`loss / k`).
# - Choose between `zero_grad(set_to_none=True)` and zeroing in place, by the bytes each keeps.
# - Say what `clip_grad_norm_` changes in place and what it allocates.
# - Change a gradient in a hook without writing into the hook's argument.
# - Know why eager-mode memory reasoning changes under `torch.compile`.
#
# **Under the hood:** [`autograd/engine.py`](../inplace_tutorial/autograd/engine.py) (gradient
# accumulation), [`optim/optimizer.py`](../inplace_tutorial/optim/optimizer.py) (`zero_grad`),
# [`nn/utils.py`](../inplace_tutorial/nn/utils.py) (`clip_grad_norm_`),
# [`autograd/hooks.py`](../inplace_tutorial/autograd/hooks.py) (`register_hook`); the [reading
# map](../inplace_tutorial/README.md) walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import nn, viz
from inplace_tutorial.exercises import check, hint, nb14, solution
from inplace_tutorial.nn import utils

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## 1. `backward()` adds into `.grad`, in place
#
# Predict first: after two `backward()` calls, does `w.grad` hold the second gradient, or the
# sum? And is it the same tensor as before?

# %%
w = ipt.tensor([1.0, 2.0, 3.0], requires_grad=True)
(w * 2).sum().backward()            # d/dw = 2
g = w.grad                          # keep a reference to the gradient tensor
storage, version = g.untyped_storage(), g._version
print("after the 1st backward:", g.tolist())
(w * w).sum().backward()            # d/dw = 2w, added to what is there
print("after the 2nd backward:", w.grad.tolist())
print("same tensor:", w.grad is g, "| same storage:", w.grad.untyped_storage() is storage,
      "| version steps:", w.grad._version - version)
print("our old reference g sees the sum:", g.tolist())

# %% [markdown]
# The second gradient `[2, 4, 6]` was **added in place** into the existing `.grad`: same
# tensor, same storage, one version step, and any reference you kept (`g`) changes with it.
# *In real PyTorch* the same (parity test `test_14_grad_accumulates_in_place`): its
# `AccumulateGrad` node does `grad += new_grad` when `backward()` runs without `create_graph`.
#
# ## 2. Gradient accumulation: `loss / k`
#
# Because `backward()` adds, you can split a batch of 64 into `k` micro-batches and call
# `backward()` on each: the gradient is the same as the full batch's if each micro-batch loss
# (a mean over its rows) is divided by `k`. What you gain is memory: only one micro-batch's
# activations are alive at a time.

# %%
model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10))
x, y = ipt.randn(64, 64), ipt.randn(64, 10)


def mse(out, target):
    return ((out - target) ** 2).mean()


def full_batch():
    mse(model(x), y).backward()


def accumulated(k):
    for xb, yb in zip(x.chunk(k), y.chunk(k)):
        (mse(model(xb), yb) / k).backward()


grads = {}
for name, step in {"full batch (64)": full_batch,
                   "k = 4 micro-batches of 16": lambda: accumulated(4),
                   "k = 16 micro-batches of 4": lambda: accumulated(16)}.items():
    for p in model.parameters():
        p.grad = None
    with ipt.memory.record() as trace:
        step()
    grads[name] = [p.grad.clone() for p in model.parameters()]
    print(f"{name:<27} peak above start {trace.peak - trace.start_allocated:>8,} B")

ref = grads["full batch (64)"]
for name, gs in grads.items():
    diff = max((a - b).abs().amax().item() for a, b in zip(gs, ref))
    print(f"{name:<27} same gradient as the full batch (max |diff| < 1e-5): {diff < 1e-5}")

# %% [markdown]
# Same gradients, lower peak: the gradient buffers (one per parameter) are allocated once and
# then only added into, while the activations of a micro-batch are freed by its `backward()`
# before the next one runs. Forgetting `/ k` gives a gradient `k` times too large
# (exercise 14.1).
#
# ## 3. `zero_grad(set_to_none=True)` vs zeroing in place
#
# Since `.grad` accumulates, each step must clear it. `zero_grad()` can do it two ways:

# %%
opt = ipt.optim.SGD(model.parameters(), lr=0.1)
grad_bytes = sum(p.grad.untyped_storage().nbytes() for p in model.parameters())
print(f"gradient buffers: {grad_bytes:,} B")
for set_to_none in (False, True):
    full_batch()
    first = model[0].weight.grad if not set_to_none else None  # a reference keeps memory alive
    before = ipt.memory.memory_allocated()
    opt.zero_grad(set_to_none=set_to_none)
    freed = before - ipt.memory.memory_allocated()
    state = ("None" if model[0].weight.grad is None
             else f"zeros, same tensor as before: {model[0].weight.grad is first}")
    print(f"set_to_none={set_to_none!s:<5}: frees {freed:>7,} B; first layer's .grad: {state}")
    del first

# %% [markdown]
# - `set_to_none=True` (the default in PyTorch 2.x and here) **frees** the gradient memory.
#   The next `backward()` allocates fresh gradients (it hands its result to `.grad` instead of
#   adding). Between steps the memory is free for something else, and nothing has to write
#   zeros.
# - `set_to_none=False` **keeps** the buffers and writes zeros in place (`grad.zero_()`); the
#   next `backward()` adds into them. Code that reads `.grad` between steps, or holds a
#   reference to it, sees zeros instead of `None`.
#
# *In real PyTorch:* the same (parity test `test_14_zero_grad_frees_or_zeroes`).
#
# ## 4. `clip_grad_norm_`: in place, and what it allocates
#
# `clip_grad_norm_(params, max_norm)` computes the total 2-norm of all gradients and, if it
# exceeds `max_norm`, scales every gradient down in place. Predict: does it touch the gradients
# when the norm is already below `max_norm`?

# %%
full_batch()
grads = [p.grad for p in model.parameters()]
storages = [g.untyped_storage() for g in grads]
for max_norm in (0.5, 1000.0):
    versions = [g._version for g in grads]
    with ipt.memory.record() as trace:
        total = utils.clip_grad_norm_(model.parameters(), max_norm)
    allocs = [e.nbytes for e in trace.events if e.kind == "alloc"]
    print(f"max_norm={max_norm:<7} total norm above max: {total.item() > max_norm}; "
          f"same storages: {all(g.untyped_storage() is s for g, s in zip(grads, storages))}; "
          f"version steps: {sorted({g._version - v for g, v in zip(grads, versions)})}")
    print(f"   allocations: {len(allocs)}, largest {max(allocs)} B (the gradients hold "
          f"{grad_bytes:,} B)")

# %% [markdown]
# It always multiplies every gradient in place, also when the norm is below `max_norm` (then
# by 1.0): PyTorch's code avoids an `if` on the norm, which on a GPU would have to wait for the
# device. Each gradient gets one version step per call. The allocations are all 0-dim tensors
# (the norms and the coefficient); the gradients themselves are never copied.
# *In real PyTorch:* the same storages and version steps (parity test
# `test_14_clip_grad_norm_scales_in_place`); its source is `torch/nn/utils/clip_grad.py`.
#
# The naive version, `p.grad = p.grad * coef`, allocates a full copy of every gradient and
# drops the old one; notebook 10's lab measures that.
#
# ## 5. Hooks that change gradients
#
# `t.register_hook(fn)` calls `fn(grad)` when the gradient of `t` is computed; if `fn` returns a
# tensor, that tensor replaces the gradient. Predict: can the hook just scale `grad` in place
# instead (`grad.mul_(0.5)`)?

# %%
w = ipt.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = w * 4
strides = []
y.register_hook(lambda grad: strides.append(grad.stride()))
y.register_hook(lambda grad: grad.mul_(0.5))      # in place on the hook's argument
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(". ")[0] + ".")
print("strides of the gradient the hooks received:", strides)

w.grad = None
y = w * 4
y.register_hook(lambda grad: grad * 0.5)          # return a new gradient instead
y.sum().backward()
print("with a returned gradient: w.grad =", w.grad.tolist())

# %% [markdown]
# The gradient of `sum()` is one value **expanded** to the shape of `y` (stride 0: every
# element is the same memory location), so an in-place op on it is refused. In other graphs the
# gradient a hook receives may be a buffer that another branch of the graph also reads. That is
# why PyTorch's documentation of `register_hook` says the hook should not modify its argument:
# return a new tensor instead. It costs one gradient-sized allocation per call, and it is the
# safe form. *In real PyTorch:* the same error and the same result (parity test
# `test_14_hook_on_an_expanded_gradient`).
#
# ## 6. A note on `torch.compile`
#
# Everything above is **eager mode**: each op runs as you call it, and an in-place op writes
# into its tensor at once. `torch.compile` traces your code into a graph first, and its
# AOTAutograd stage *functionalizes* that graph: every in-place op on an intermediate tensor is
# replaced by its out-of-place twin (`y.add_(1)` becomes `y2 = y.add(1)`), and a mutation of an
# input becomes an out-of-place op plus one `copy_` back into the input at the end. The
# compiler (Inductor) then decides where to write in place again (its "reinplacing" pass,
# `torch/_inductor/fx_passes/reinplace.py`), and it can also fuse ops so that no intermediate
# exists at all. So under `torch.compile` the memory reasoning of this course describes what
# your code *asks for*, not exactly what runs. Sources: the documentation of
# [`torch.func.functionalize`](https://docs.pytorch.org/docs/stable/generated/torch.func.functionalize.html)
# and the parity test `test_14_functionalize_replaces_inplace_ops`, which traces
# `y = x * 2; y.add_(1); x.mul_(3)` and finds `add`, `mul` and one `copy_`, and no `add_`.
# The core does not compile.

# %% [markdown]
# ## Exercises
#
# **14.1** Write `accumulate(w, x, y, k)` that splits `x` and `y` into `k` micro-batches (use
# `chunk`) and calls `backward()` once per micro-batch, so that `w.grad` ends up equal to the
# gradient of the full-batch loss `((x @ w - y) ** 2).mean()`.

# %%
answer = None  # your code here: a function
check("14.1", answer)
# hint("14.1")
# solution("14.1")

# %% [markdown]
# **14.2** Write `zero_grads_(params)` that clears the gradients like
# `zero_grad(set_to_none=False)`: the buffers stay allocated and hold zeros.

# %%
answer = None  # your code here: a function
check("14.2", answer)
# hint("14.2")
# solution("14.2")

# %% [markdown]
# ## Summary
# - `backward()` adds into `.grad` in place: same tensor, one version step per call.
# - Gradient accumulation: `(loss / k).backward()` per micro-batch gives the full-batch
#   gradient with a lower activation peak.
# - `zero_grad()` frees the gradients (`set_to_none=True`, the default) or zeroes them in place.
# - `clip_grad_norm_` always scales every gradient in place and allocates only 0-dim tensors.
# - A gradient hook returns a new gradient; it must not modify its argument in place.
# - Under `torch.compile`, in-place ops are functionalized and the compiler decides again where
#   to write in place.
