# %% [markdown]
# # 07 · When in-place saves nothing
#
# "In-place saves memory" is the headline of the article. In **training** it is often not true:
# some in-place ops must keep a copy of what they overwrite, and even when they don't, the saving
# is often gone a moment later anyway. This notebook measures it, byte by byte.
#
# **Learning goals**
# - Explain why `log_()`, `abs_()`, `pow_()`, `clamp_()` and `mul_`/`div_` by a grad-requiring
#   tensor clone their input in training — and measure that clone.
# - Tell *transient* memory (alive for a moment) from *persistent* memory (kept for backward).
# - Read a memory timeline and find what is alive at the peak.
# - Decide, with a measured table, when an in-place op is worth it.
#
# **Under the hood:** [`autograd/record.py`](../inplace_tutorial/autograd/record.py)
# (`record_inplace` clones self), [`ops/unary.py`](../inplace_tutorial/ops/unary.py) (what each op
# saves); the [reading map](../inplace_tutorial/README.md) walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import viz
from inplace_tutorial.exercises import check, hint, nb07, solution

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## 1. `log_()` in training: the clone you didn't ask for
#
# The derivative of log x is 1/x: backward needs the **original** x. If `log_()` overwrote x,
# the value would be gone. So autograd does what PyTorch does: it saves a **clone** of x before
# writing. Measure it (y is 256×256 float32):

# %%
leaf = ipt.rand(256, 256, requires_grad=True)
y = leaf + 0.5                 # a non-leaf, so in-place is allowed at all
print(f"y itself: {y.untyped_storage().nbytes():,} B")
with ipt.memory.record() as tr:
    y.log_()
for e in tr.events:
    print(f"  {e.kind:<5} {e.nbytes:>9,} B  made by {e.op!r}")
print(f"log_() in training kept {ipt.memory.memory_allocated() - tr.start_allocated:,} B extra")
print("saved by LogBackward0:", [s.field for s in y.grad_fn.saved_tensors_info()])

# %% [markdown]
# The cell above shows one allocation of the full size of y, made by `clone`. The out-of-place
# `y.log()` would also allocate one buffer of that size (its result). **Nothing saved.** Without
# autograd — under `no_grad()`, i.e. inference — the same call allocates nothing:

# %%
with ipt.no_grad():
    z = ipt.rand(256, 256) + 0.5
    with ipt.memory.record() as tr:
        z.log_()
print(f"log_() under no_grad: {len(tr.events)} allocations, "
      f"{ipt.memory.memory_allocated() - tr.start_allocated} B extra")

# %% [markdown]
# ## 2. Claim 14 (article): "in-place operations save memory" — what really happens
#
# Measure each op, in place and out of place, in training (the input requires grad) and in
# inference (`no_grad`). The number is the extra bytes still alive right after the op, with the
# result kept (as a forward pass keeps it). Input: 256×256 float32 = 262,144 B.
# `w` is a second 256×256 tensor that requires grad in training.

# %%
print(f"{'op':<15}{'training: in-place':>20}{'out-of-place':>14}{'inference: in-place':>22}{'out-of-place':>14}   saves in training?")
for name in nb07.CASES:
    t_in, t_out = nb07.op_cost(name, True)[1], nb07.op_cost(name, True, inplace=False)[1]
    i_in, i_out = nb07.op_cost(name, False)[1], nb07.op_cost(name, False, inplace=False)[1]
    verdict = "yes" if t_in < t_out else "NO: clones its input"
    print(f"{name:<15}{t_in:>20,}{t_out:>14,}{i_in:>22,}{i_out:>14,}   {verdict}")

# %% [markdown]
# Read the table from the right:
# - **Inference**: every in-place op keeps 0 B extra; every out-of-place op keeps one new buffer.
# - **Training**: ops whose backward uses their *output* (relu, sigmoid, exp) or nothing
#   (add, scalar mul) keep their saving. Ops whose backward needs their *input* — log, abs, pow,
#   clamp, and mul/div by a tensor that requires grad — clone it first, and the saving is **zero**.
#
# So claim 14 is half true. *In real PyTorch:* the same rule — an in-place op whose derivative
# formula reads `self` saves `self.clone()` first.
#
# (Why `mul_(w)`? `y * w` needs the original y to compute `w.grad`. `div_(w)` needs y for the
# same reason.)

# %% [markdown]
# ## 3. Transient vs persistent memory
#
# Even an in-place op that saves bytes might not lower the number that matters: the **peak**.
# Two kinds of memory:
# - **persistent**: kept alive until backward (saved activations) — it adds up layer by layer;
# - **transient**: alive only for a moment (an input that nobody saved, freed right after the op).
#
# Take `linear1 → relu → linear2` in training. linear2 saves its input (the ReLU output);
# ReLU saves its output too — the same tensor. With out-of-place `relu`, the pre-activation `h` is
# saved by nobody and is freed as soon as the Python name moves on: a transient.

# %%
for training in (True, False):
    mode = "training " if training else "inference"
    for inplace in (False, True):
        peak, alive = nb07.mlp_forward_memory(inplace, training=training)
        print(f"{mode} {'relu_' if inplace else 'relu ':<6}: forward peak {peak:>9,} B | "
              f"alive after forward {alive:>9,} B")

# %% [markdown]
# The cell above shows: `relu_` lowers the **peak during the forward** (h and relu(h) are never
# alive together), but in training it leaves **exactly the same bytes alive after the forward** —
# the saved activations backward needs.
#
# A timeline makes it visible. Both runs below: forward, then backward, of the same network.

# %%
from inplace_tutorial import nn

traces = {}
for name in ("relu", "relu_"):
    ipt.manual_seed(0)
    l1, l2 = nn.Linear(64, 256), nn.Linear(256, 64)
    x = ipt.randn(256, 64)
    with ipt.memory.record() as tr:
        with ipt.memory.phase("forward"):
            h = l1(x)
            h = h.relu_() if name == "relu_" else h.relu()
            loss = l2(h).pow(2).mean()
            del h
        with ipt.memory.phase("backward"):
            loss.backward()
    traces[name] = tr
    print(f"{name:<6} peak {tr.peak:>9,} B allocated in total, "
          f"reached in phase {tr.events[tr.peak_index].phase}")
diff = traces["relu"].peak - traces["relu_"].peak
print(f"peak difference for the whole step: {diff} B ({diff / traces['relu'].peak:.4%})")
fig = viz.memory_timeline(traces, title="linear → relu → linear, one training step", layout="side")
fig

# %% [markdown]
# On the left, the forward band has a bump that the right one doesn't: the transient `h`, alive
# next to `relu(h)`. But the dot — the peak of the step — sits in **backward** in both runs, where
# gradients and saved activations are alive together, and it is the same height (the cell above
# prints the difference). For this network, `relu_` changed nothing that matters.
# The report below lists what is alive at each peak.

# %%
for name, tr in traces.items():
    print(name)
    for line in viz.peak_report(tr):
        print("  ", line)

# %% [markdown]
# ## 4. What PyTorch itself says
#
# The `torch.autograd` documentation (section "In-place operations on Tensors", in
# `docs/source/autograd.rst`) puts it plainly, in our words: supporting in-place ops in
# autograd is hard and they are discouraged in most cases;
# autograd already frees and reuses buffers aggressively, so an in-place op seldom lowers memory
# use by a significant amount; unless you are under heavy memory pressure you might never need them.
# The measurements above are that sentence, in bytes.
#
# Where in-place ops *do* pay: inference (no graph, nothing saved), preprocessing (claim 4's
# `sub_().div_()`), and optimizer updates (`p.add_(g, alpha=-lr)` under `no_grad`).

# %% [markdown]
# ## 5. "Normal ops keep history, in-place ops overwrite it"
#
# The first article offers this intuition. Half of it is right. An in-place op overwrites
# **values**; it does not overwrite autograd's **history**. The graph keeps every step, and the
# in-place op adds its own node on top:

# %%
x = ipt.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = x * 2
node_before = y.grad_fn
y.relu_()
chain, f = [], y.grad_fn
while f is not None:
    chain.append(f.name())
    f = f.next_functions[0][0] if f.next_functions else None
print("y.grad_fn chain after relu_:", " -> ".join(chain))
print("MulBackward0 is still in the graph:", y.grad_fn.next_functions[0][0] is node_before)

# %% [markdown]
# What an in-place op can destroy is a *value that a node saved*, and the version counter
# catches that (notebook 06), or a clone keeps it (section 1 above). So a better picture: an
# out-of-place op writes a **new page**; an in-place op **rewrites a page** that autograd may
# have bookmarked. Autograd keeps the history either way and checks the bookmarks.
# *In real PyTorch:* the same chain, `ReluBackward0 -> MulBackward0 -> torch::autograd::AccumulateGrad`
# (parity test program `nb07_history_chain`).

# %% [markdown]
# ## 6. In-place activations and BatchNorm in ResNets
#
# The article ends: in deep networks such as ResNet, in-place activations and BatchNorm cut the
# memory of intermediate layers a lot. Measure the training case on the article's block,
# conv → BatchNorm → ReLU, keeping what a forward pass keeps (the output and everything saved
# for backward):

# %%
from inplace_tutorial import peaks, pytorch_reference

act_bytes = peaks.activation_bytes()
for name, kept in peaks.training_saved_bytes().items():
    print(f"{name:<22} kept after forward: {kept:,} B = {kept / act_bytes:.2f} activations "
          f"(PyTorch: {pytorch_reference.TRAINING_KEPT[name]:,} B)")

# %% [markdown]
# Identical, in the core and in PyTorch (parity test
# `test_03_training_relu_inplace_keeps_the_same_bytes`): BatchNorm saves its **input** (the conv
# output) for backward, and ReLU saves its **output**. With `relu_` the ReLU output *is*
# BatchNorm's output buffer, but with `relu` BatchNorm's output is freed at once because nobody
# saved it. Two activations stay alive either way; `relu_` only removes a transient.
#
# **In-place BatchNorm** is not something PyTorch offers: `nn.BatchNorm2d` and
# `F.batch_norm` have no `inplace` option (only activations such as `nn.ReLU` do; the parity test
# `test_03_no_inplace_batchnorm_in_pytorch_but_conv_bn_folding` checks both). It exists as a
# published technique: **InPlace-ABN** (Rota Bulò, Porzi and Kontschieder, "In-Place Activated
# BatchNorm for Memory-Optimized Training of DNNs", CVPR 2018; code in `mapillary/inplace_abn`).
# - **What it does:** it merges BatchNorm and the activation into one in-place layer that keeps
#   only its *output*. Backward rebuilds what it needs from that output, by inverting the
#   activation and BatchNorm's affine step. In the block above that drops the saved BatchNorm
#   input: one activation instead of two. The authors report up to 50% less training memory
#   in ResNet, ResNeXt and Wide ResNet.
# - **What it doesn't do:** it needs an *invertible* activation (leaky ReLU or ELU; plain ReLU
#   maps every negative to 0 and can't be inverted); it recomputes in backward, so it costs
#   time; and it saves nothing at inference, where nothing is kept for backward anyway (notebook
#   03 measured that the conv, not BatchNorm, sets the inference peak). At inference the usual
#   trick is different: fold BatchNorm into the conv's weights
#   (`torch.nn.utils.fusion.fuse_conv_bn_eval`), which removes BatchNorm's buffer altogether.
#
# So the article's sentence needs two corrections: plain `relu_` after BatchNorm saves no
# training memory that backward needs, and "in-place BatchNorm" is a specialised layer with an
# invertible activation, not a flag.

# %% [markdown]
# ## 7. A rule of thumb, measured
#
# | situation | in-place worth it? | why (measured above) |
# |---|---|---|
# | inference / `no_grad` / preprocessing | **yes** | 0 B instead of one buffer per op |
# | training: relu_, sigmoid_, exp_, add_, scalar mul_ | lowers the *transient* peak only | saved activations are unchanged |
# | training: log_, abs_, pow_, clamp_, mul_/div_ by a grad tensor | **no** | clones its input: same bytes as out of place |
# | training: anything a backward node already saved | **never** | backward fails (notebook 06) |
# | training: BatchNorm → `relu_` | saves no kept memory | BN keeps its input, ReLU its output (section 6) |
# | optimizer update under `no_grad` | **yes** | `add_(g, alpha=-lr)`; avoid `sub_(lr * g)`'s temporary |

# %% [markdown]
# ## Exercises
#
# **07.1** How many bytes does `y.log_()` keep alive in training, for `y = leaf * 1` with
# `leaf` of shape (256, 256) requiring grad? Measure it (don't compute it on paper).

# %%
answer = None  # your code here: an int
check("07.1", answer)
# hint("07.1")
# solution("07.1")

# %% [markdown]
# **07.2** Which of the ops in `nb07.CASES` keep their memory saving in training?
# Answer a set of names, e.g. `{"relu_()", ...}`.

# %%
answer = None  # your code here
check("07.2", answer)
# hint("07.2")
# solution("07.2")

# %% [markdown]
# **07.3** In `linear1 → relu → linear2` (training, `nb07.mlp_forward_memory`), by how many bytes
# does switching to `relu_` lower the memory **alive after the forward pass**?

# %%
answer = None  # your code here: an int
check("07.3", answer)
# hint("07.3")
# solution("07.3")

# %% [markdown]
# ## Summary
# - In training, an in-place op whose backward needs the original input (log_, abs_, pow_, clamp_,
#   mul_/div_ by a grad tensor) saves a clone of it: **no memory saved** (claim 14, measured).
# - Ops whose backward uses the output (relu_, sigmoid_, exp_) or nothing (add_, scalar mul_) do
#   save a buffer — but often only a **transient** one; the saved activations stay the same.
# - The peak is what counts: find it on a timeline and look at what is alive there.
# - In inference, preprocessing and optimizer updates, in-place ops save a full buffer each time.
