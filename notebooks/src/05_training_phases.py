# %% [markdown]
# # 05 · Training phases, step by step
#
# **Learning goals.** After this notebook you can:
# - name the phases of a training step (forward, backward, update, zero_grad) and what memory
#   each one holds;
# - profile one step and say which phase sets the peak;
# - write an SGD update that allocates no full-size temporary, and explain why the article's
#   `param.sub_(lr * param.grad)` does not;
# - explain why updates run under `no_grad`, what `zero_grad(set_to_none=True)` changes, and how
#   much memory optimizer state takes.
#
# **Under the hood:** [`optim/sgd.py`](../inplace_tutorial/optim/sgd.py),
# [`optim/adam.py`](../inplace_tutorial/optim/adam.py),
# [`autograd/engine.py`](../inplace_tutorial/autograd/engine.py) (backward),
# [`profiler.py`](../inplace_tutorial/profiler.py); the [reading
# map](../inplace_tutorial/README.md) walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import viz, widgets
from inplace_tutorial.exercises import check, hint, solution  # noqa: F401

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## One step, one op at a time
#
# The TrainingStepper runs one training step of a tiny classifier (4 inputs → 8 hidden → 3
# classes, batch 16) an op at a time. Press the phase buttons and watch the graph, the live
# storages and the memory timeline grow. The switch picks in-place variants (`relu_`,
# `add_(…, alpha=-lr)`, grads set to `None`) or out-of-place ones.

# %% tags=["nbval-ignore-output"]
widgets.TrainingStepper()

# %% [markdown]
# The same logic, driven from code: each line is one op with its phase and the peak so far.
# (These are bytes of a tiny model. On a GPU each small tensor would occupy at least a 512 B
# block of PyTorch's CUDA caching allocator, so the numbers there are larger: notebook 02.)

# %%
step = widgets.training_stepper.TrainingStep(inplace=True)
while step.next_op():
    phase = step.ops[step.op_index - 1][0]   # the phase of the op that just ran
    print(f"{phase:9} | {step.current_op:48} | peak so far {step.peak - step.trace.start_allocated:,} B")

# %% [markdown]
# ## Profiling a real step
#
# `ipt.profiler.profile_step` runs forward, backward, `optimizer.step()` and `zero_grad` on a
# model and gives every storage alive at the peak a role. Here: the digits MLP
# (64 → 128 → 10, in-place ReLU) with SGD and momentum, on a batch of 64 images.

# %%
X_train, X_test, y_train, y_test = ipt.data.digits_split()
model = ipt.models.digits_mlp(hidden=128)
optimizer = ipt.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
batch = (X_train[:64].clone(), y_train[:64].clone())   # clone: a slice would keep all of X_train
profile = ipt.profiler.profile_step(model, batch, ipt.nn.functional.cross_entropy, optimizer)
print(profile.summary(top=6))

# %%
viz.memory_timeline(profile.trace, title="One training step of the digits MLP (first step)")

# %% [markdown]
# The curve counts bytes from what was already allocated before the step (the digits dataset,
# the model and the core's fixed workspace); the summary above gives absolute numbers.
# Read the step by its coloured bands:
#
# - **forward** allocates activations; the ones a backward node saved stay alive.
# - **backward** allocates the gradients (`.grad`, one per parameter) and temporary gradients
#   for the activations, and frees the saved tensors as it goes. The summary above names the
#   phase where this step peaks.
# - **update** (`optimizer.step()`): on the first step, SGD with momentum allocates its momentum
#   buffers (optimizer state, as big as the parameters). The weights themselves are updated in
#   place and allocate nothing.
# - **zero_grad** with `set_to_none=True` frees the gradients.

# %% [markdown]
# ### Claim 5 (article): `param.sub_(lr * param.grad)` updates the weights "without any new memory" — what really happens
#
# `ipt.models.custom_sgd_update` is the article's code; `pytorch_sgd_update` is the form
# PyTorch's own SGD uses: `param.add_(param.grad, alpha=-lr)`. We measure both on parameters big
# enough to see the difference.

# %%
for rows in (1000, 2000):
    param = ipt.randn(rows, 1000, requires_grad=True)
    param.grad = ipt.randn(rows, 1000)
    size = param.untyped_storage().nbytes()
    with ipt.memory.record() as article_way:
        ipt.models.custom_sgd_update([param], lr=0.01)
    with ipt.memory.record() as pytorch_way:
        ipt.models.pytorch_sgd_update([param], lr=0.01)
    print(f"param {rows}×1000 = {size:,} B | sub_(lr * grad): +{article_way.peak - article_way.start_allocated:,} B"
          f" | add_(grad, alpha=-lr): +{pytorch_way.peak - pytorch_way.start_allocated:,} B")
print("ops that allocated in the article's form:", sorted({e.op for e in article_way.events}))

# %% [markdown]
# **False.** `sub_` itself is in place, but its argument `lr * param.grad` is an ordinary
# out-of-place multiply: a temporary as big as the parameter, allocated and freed on every step
# for every parameter (the cell shows it grows with the parameter). `add_(grad, alpha=-lr)`
# scales and adds in one op with no full-size temporary.
#
# (Our core scales `grad` chunk by chunk inside one fixed 256 KiB workspace that it allocated
# once at import, like a BLAS workspace, so the second column is 0. PyTorch's fused kernel
# needs no workspace at all.)
#
# ### Claim 6 (article): a 50M-parameter model saves ≈190 MB per update — what it really means
#
# Notebook 01 computed 50,000,000 × 4 B = 190.7 MiB. That is the size of the temporary the
# article's own `sub_(lr * param.grad)` still allocates (spread over the parameters, one
# parameter at a time, so the peak extra is the size of the largest parameter). The saving is
# real for `param = param - lr * param.grad` vs **PyTorch's** form, not for the article's code.
#
# ### PyTorch's own SGD: in place only with its default settings
#
# `torch.optim.SGD` (its `_single_tensor_sgd` in `torch/optim/sgd.py`, the default on CPU)
# updates with `param.add_(grad, alpha=-lr)` and momentum with
# `buf.mul_(momentum).add_(grad, alpha=1 - dampening)`: in place. But two options rebind `grad`
# to an **out-of-place** result: `weight_decay` does `grad = grad.add(param, alpha=weight_decay)`
# and `nesterov=True` does `grad = grad.add(buf, alpha=momentum)`. Each is a full-size temporary
# per parameter, per step. (`maximize=True` starts with `-grad`, another one.) The core's SGD
# follows the same code, so we can measure it: the second step (momentum buffers already
# exist) on one 1000×1000 parameter, next to PyTorch's figure for the same program.

# %%
from inplace_tutorial import pytorch_reference

param = ipt.randn(1000, 1000, requires_grad=True)
param.grad = ipt.randn(1000, 1000)
print(f"param: {param.untyped_storage().nbytes():,} B")
print(f"{'optimizer':<58}{'core: peak of step()':>21}{'PyTorch 2.13':>15}")
for name, torch_bytes in pytorch_reference.SGD_STEP_PEAK.items():
    sgd = ipt.optim.SGD([param], lr=0.01, **pytorch_reference.sgd_kwargs(name))
    sgd.step()                                   # first step: creates the momentum buffer
    with ipt.memory.record() as tr:
        sgd.step()
    print(f"{name:<58}{tr.peak - tr.start_allocated:>19,} B{torch_bytes:>13,} B")
for name, torch_bytes in pytorch_reference.SGD_STEP_PEAK_OTHER_IMPLEMENTATIONS.items():
    print(f"{name:<58}{'(PyTorch only)':>21}{torch_bytes:>13,} B")

# %% [markdown]
# With the defaults (and with plain momentum) the step allocates nothing. With `weight_decay`
# or `nesterov=True` it allocates one parameter-sized temporary, with both two, alive at the same
# time. PyTorch's figures (right column) were measured with `torch.profiler` (`profile_memory=True`)
# and are checked by the parity test `test_05_sgd_step_temporaries`; its extra 12 B with momentum
# are the Python number `momentum`, wrapped in a tensor for one call.
#
# The last two rows are PyTorch's other implementations. `foreach=True` (the default on CUDA)
# groups the parameters into `torch._foreach_*` calls with the same structure, so
# `weight_decay` there is `torch._foreach_add(grads, params, ...)`: a new full-size tensor per
# parameter again. `fused=True` runs the whole update in one kernel and allocates nothing, with
# every option on.

# %% [markdown]
# ## Why updates run under `no_grad`
#
# A parameter is a **leaf** that requires grad. Modifying it in place while autograd is
# recording would put the update itself into the graph, so PyTorch refuses:

# %%
w = ipt.randn(3, requires_grad=True)
w.grad = ipt.ones(3)
try:
    w.add_(w.grad, alpha=-0.1)
except RuntimeError as e:
    print(e)
with ipt.no_grad():
    w.add_(w.grad, alpha=-0.1)
print("under no_grad: ok, version", w._version, "| requires_grad still", w.requires_grad)

# %% [markdown]
# ## `zero_grad`: set to `None` or fill with zeros?
#
# `optimizer.zero_grad()` sets every `.grad` to `None` by default (`set_to_none=True`), which
# **frees** the gradient memory until the next backward allocates it again.
# `set_to_none=False` keeps the buffers and fills them with zeros in place.

# %%
for set_to_none in (True, False):
    ipt.nn.functional.cross_entropy(model(batch[0]), batch[1]).backward()
    before = ipt.memory.memory_allocated()
    optimizer.zero_grad(set_to_none=set_to_none)
    grads = [p.grad for p in model.parameters()]
    kind = "None" if grads[0] is None else f"zeros, sum {sum(g.abs().sum().item() for g in grads):.1f}"
    print(f"set_to_none={set_to_none!s:5}: grads are {kind:14} | memory change "
          f"{ipt.memory.memory_allocated() - before:+,} B")

# %% [markdown]
# Freeing the grads lowers memory between steps (useful during evaluation or when the forward
# pass is the peak), and skips a pass of writing zeros. The next backward allocates them again.

# %% [markdown]
# ## Optimizer state is allocated memory too
#
# SGD with momentum keeps a `momentum_buffer` per parameter; Adam keeps `exp_avg` and
# `exp_avg_sq`, two buffers per parameter. They are allocated on the first `step()` and updated
# in place afterwards.

# %%
param_bytes = sum(p.untyped_storage().nbytes() for p in model.parameters())
for name, make in {"SGD(momentum=0.9)": lambda ps: ipt.optim.SGD(ps, lr=0.1, momentum=0.9),
                   "Adam": lambda ps: ipt.optim.Adam(ps, lr=1e-3)}.items():
    m = ipt.models.digits_mlp(hidden=128)
    opt = make(m.parameters())
    ipt.nn.functional.cross_entropy(m(batch[0]), batch[1]).backward()
    with ipt.memory.record() as tr:
        opt.step()
    per_kind = {}
    for s in opt.state.values():
        for k, v in s.items():
            if isinstance(v, ipt.Tensor) and v.dim() > 0:
                per_kind[k] = per_kind.get(k, 0) + v.untyped_storage().nbytes()
    print(f"{name:18} first step allocated +{tr.events[-1].allocated - tr.start_allocated:,} B kept;"
          f" state: {per_kind} (params: {param_bytes:,} B)")

# %% [markdown]
# The cell above shows momentum costs one parameter-sized buffer and Adam two. For a large model
# that is the biggest block of memory after the weights themselves, which is why optimizers
# update it in place.

# %% [markdown]
# ## Train the digits model
#
# Now the whole loop: `ipt.models.train` runs zero_grad, forward, loss, backward and step for
# every batch, with a progress bar.

# %%
_ = ipt.manual_seed(0)
model = ipt.models.digits_mlp(hidden=128)
optimizer = ipt.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loader = ipt.data.DataLoader(ipt.data.TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

# %% tags=["nbval-ignore-output"]
bar = widgets.Progress(total=5 * len(loader), description="digits MLP")
history = ipt.models.train(model, loader, optimizer, epochs=5, progress=bar)
bar.close()

# %%
accuracy = ipt.models.evaluate(model, X_test, y_test)
print(f"test accuracy after {len(history)} epochs above 95%: {accuracy > 0.95} ({X_test.shape[0]} held-out images)")

# %% [markdown]
# ## Claim 13 in brief: "weight updates are always safe in place because backward is finished"
#
# Mostly true: in the loop above every `step()` comes after the `backward()` that used the
# weights, and the next forward builds a new graph. The exception is code that calls `backward()`
# twice over one graph with a `step()` in between (GANs, actor-critic): the update bumps the
# weights' version, and the second backward fails. Notebook 06 runs that case.

# %% [markdown]
# ## Exercises
#
# **05.1** Write `sgd_update(params, lr)` that does `param -= lr * grad` for every param whose
# grad is not `None`, **without a full-size temporary**, leaving each `.grad` as it was.

# %%
answer = None  # your code here
check("05.1", answer)
# hint("05.1")
# solution("05.1")

# %% [markdown]
# **05.2** How many bytes of optimizer state does `ipt.optim.Adam` keep for
# `ipt.models.digits_mlp()` (hidden=128, float32) after its first step? Give an `int`.

# %%
answer = None  # your code here
check("05.2", answer)
# hint("05.2")
# solution("05.2")

# %% [markdown]
# ## Summary
#
# - A step has phases: forward (activations, saved tensors), backward (grads), update, zero_grad.
#   Profile them to see which one peaks.
# - `param.sub_(lr * param.grad)` allocates a full-size temporary every step (claim 5 ✗);
#   `param.add_(param.grad, alpha=-lr)` does not. Claim 6's 190.7 MiB is only saved by the latter.
# - Updates must run under `no_grad`: in-place on a leaf that requires grad is an error otherwise.
# - `zero_grad(set_to_none=True)` frees gradients; optimizer state (momentum, Adam's two
#   moments) is parameter-sized memory updated in place.
# - Updates after backward are safe, except when a graph is backpropagated again after a step
#   (notebook 06).
#
# **Next:** [06 Autograd hazards](06_autograd_hazards.ipynb).
