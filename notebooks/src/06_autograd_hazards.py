# %% [markdown]
# # 06 · Autograd hazards: when an in-place op breaks backward
#
# In-place ops are fast and frugal, but during training autograd may still need the value you
# are about to overwrite. This notebook shows exactly *when* that happens, how PyTorch (and our
# core) notices, and the one case where nobody notices.
#
# **Learning goals**
# - Read a tensor's version counter (`_version`) and know which tensors share it.
# - Know which ops save what for backward — from the core's own derivative table.
# - Tell a dangerous in-place op from a harmless one, and predict *when* the error comes.
# - Find the culprit line with `detect_anomaly()` and check first with `explain()` / `inplace_safe()`.
# - Recognise the `.data` trap and the GAN/actor-critic `optimizer.step()` trap.
#
# **Under the hood:** [`autograd/derivatives.py`](../inplace_tutorial/autograd/derivatives.py) (the
# table), [`autograd/record.py`](../inplace_tutorial/autograd/record.py) (`record_inplace`),
# [`autograd/saved_tensor.py`](../inplace_tutorial/autograd/saved_tensor.py) (the version check),
# [`autograd/explain.py`](../inplace_tutorial/autograd/explain.py); the [reading
# map](../inplace_tutorial/README.md) walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import nn, optim, viz, widgets
from inplace_tutorial.exercises import check, hint, nb06, solution

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## 1. The version counter
#
# Every tensor carries a version counter, and each in-place op bumps it by one. A view and a
# `detach()` get their base's storage *and* its counter, so a write through any of them is
# visible to all of them. (`.data` also gets the storage but a fresh counter: section 5 shows
# why that is dangerous.)

# %%
a = ipt.tensor([1.0, 2.0, 3.0])
v = a[1:]          # a view
d = a.detach()     # another alias of the same storage
print("start:           a", a._version, "| v", v._version, "| d", d._version)
a.add_(1)
print("after a.add_(1): a", a._version, "| v", v._version, "| d", d._version)
v.mul_(2)
print("after v.mul_(2): a", a._version, "| v", v._version, "| d", d._version)
b = a + 0          # out-of-place: a new storage with its own counter
print("b = a + 0:       b", b._version, "| same storage as a:", b.data_ptr() == a.data_ptr())

# %% [markdown]
# When an op saves a tensor for backward, it writes down that tensor's version. At backward time
# the saved tensor is unpacked and the two numbers are compared. If they differ, backward refuses
# to run — it would compute a gradient from the wrong numbers.

# %% [markdown]
# ## 2. Which ops save what
#
# The table below is generated from the core's derivative table
# `ipt.autograd.function.DERIVATIVES` (the analogue of PyTorch's `derivatives.yaml`). For every
# op: the backward node it records, and which tensors it saves — with the condition, e.g.
# `self (if other requires grad)`. `result` means the op's *output*.
#
# Where PyTorch 2.13 saves something else, or the same tensors under other names, a
# "PyTorch:" line says so (from `ipt.pytorch_reference.SAVED_DIFFERENCES`). The parity test
# `test_06_saved_tensors_match_or_are_documented` runs every op of this table on PyTorch and
# checks both halves: each flagged row is what PyTorch really does, and every other row has
# exactly PyTorch's node name and saved tensors. So this table cannot drift from PyTorch.

# %%
from inplace_tutorial.autograd.function import DERIVATIVES
from inplace_tutorial.pytorch_reference import SAVED_DIFFERENCES, saved_table

nothing = [op for op, f in DERIVATIVES.items() if not f.saves and op not in SAVED_DIFFERENCES]
print(f"{len(DERIVATIVES)} ops in the table; {len(nothing)} save no tensor, here and in PyTorch:")
print(", ".join(nothing), "\n")
rows = saved_table()
w_op = max(len(op) for op, *_ in rows) + 2  # column widths from the longest names
w_node = max(len(node) for _, node, *_ in rows) + 2
print(f"{'op':<{w_op}}{'node':<{w_node}}saves")
for op, node, saves, pytorch in rows:
    print(f"{op:<{w_op}}{node:<{w_node}}{saves}")
    if pytorch:
        print(f"{'':<{w_op}}{'  PyTorch:':<{w_node}}{pytorch}")

# %% [markdown]
# How to read it:
# - **add, sub, neg, sum, mean and every view** save nothing: their gradients don't depend on any
#   value. Overwriting their inputs or outputs can never break *them*.
# - **mul** saves the *other* operand, and only when it is needed: `x * w` saves `w` to get
#   `x.grad` (only if x requires grad) and `x` to get `w.grad`. `x * 2` (and `x / 2`) saves only
#   the number 2, wrapped in a 0-dim tensor `_saved_other`, as PyTorch does: a private copy
#   that no in-place op on your tensors can reach, so it never goes stale.
# - **relu, sigmoid, tanh, exp, sqrt** save their **result** (the derivative is cheap to get from
#   the output: sigmoid' = s(1−s), exp' = exp, relu' = [out > 0]). Overwriting the *output* breaks them.
# - **log, abs, pow, clamp** save their **input** (log' = 1/x needs x). Overwriting the *input* breaks them.
# - **mm, bmm, addmm, addbmm** save their matrix operands.
# - The "PyTorch:" lines matter most where PyTorch saves *more*: `2 ** x` its exponent `x`, and
#   `index` its index tensors. Modifying one of those in place before `backward()` fails in
#   PyTorch; in the core it doesn't, because the core doesn't save them. (`avg_pool2d` saves its
#   input and `nll_loss` its log-probabilities, here as in PyTorch.)

# %%
x = ipt.randn(3, requires_grad=True)
w = ipt.randn(3)                       # does not require grad
y2 = x * 2
print("x * 2        _saved_other:", y2.grad_fn._saved_other.tolist(),
      f"(a {y2.grad_fn._saved_other.dim()}-dim tensor) | _saved_self:", y2.grad_fn._saved_self)
print("x * w        saved tensors:", [s.field for s in (x * w).grad_fn.saved_tensors_info()],
      " (w, because x needs a grad; x is not saved since w needs none)")
print("x.sigmoid()  saved tensors:", [s.field for s in x.sigmoid().grad_fn.saved_tensors_info()])
print("x.log()      saved tensors:", [s.field for s in x.log().grad_fn.saved_tensors_info()])

# %% [markdown]
# ## 3. Claim 7 (article): "`y = x * 2; y.relu_()` is dangerous" — what really happens
#
# The article says this destroys what the gradient needs. Check with the table: `x * 2` saves
# only its own 0-dim copy of the number 2 (nothing of `x` or `y`), and ReLU's backward uses its
# *output*, which `relu_` writes and then saves.

# %%
x = ipt.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = x * 2
y.relu_()
y.sum().backward()
print("y.grad_fn:", y.grad_fn.name(), "| x.grad =", x.grad.tolist())

# %% [markdown]
# It works, and the gradient is right: d/dx relu(2x) is 2 where x > 0 and 0 elsewhere, so
# `[2, 0, 2]`. **Claim 7 is false.** *In real PyTorch:* identical — `x.grad` is `tensor([2., 0., 2.])`
# (parity test `test_06_scalar_mul_saves_a_0dim_other`).

# %% [markdown]
# ## 4. Claim 8 (article): "an in-place ReLU in the training forward is risky" — what really happens
#
# Train `linear1 → relu_ → linear2` and the same net with out-of-place `relu`, from the same
# initial weights. Compare every gradient.

# %%
xb, yb = ipt.randn(16, 4), ipt.randn(16, 1)
grads = {}
for inplace in (False, True):
    ipt.manual_seed(1)                      # the same initial weights for both runs
    l1, l2 = nn.Linear(4, 8), nn.Linear(8, 1)
    h = l1(xb)
    h = h.relu_() if inplace else h.relu()
    loss = ((l2(h) - yb) ** 2).mean()
    loss.backward()
    grads[inplace] = [p.grad for p in (l1.weight, l1.bias, l2.weight, l2.bias)]
diff = max((g1 - g2).abs().max().item() for g1, g2 in zip(grads[False], grads[True]))
print(f"loss {loss.item():.2f} | largest gradient difference, relu vs relu_: {diff:.1e}")

# %% [markdown]
# Identical gradients: linear2 saves `h` (as an operand of its matmul), but `relu_` ran *before*
# linear2 used `h`, so the version linear2 saved is the final one. What *does* fail is overwriting
# something already saved — for instance the output of `sigmoid`:

# %%
x = ipt.tensor([1.0, -2.0, 3.0], requires_grad=True)
s = x.sigmoid()
s.mul_(2)                      # overwrites SigmoidBackward0's saved result
try:
    s.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# %% [markdown]
# **Claim 8 is false as a blanket rule.** The real rule: *never modify a tensor that a backward node
# saved and still needs*. *In real PyTorch:* the same gradients and the same message word for
# word (parity test program `nb06_claim8_and_sigmoid`); torchvision's ResNet trains with
# `nn.ReLU(inplace=True)`.
#
# The picture shows the graph after `mul_`: the node that saved `s` is red and so is the path to it.

# %%
fig = viz.graph_diagram(s.sum(), names={"x": x}, title="sigmoid's saved result went stale")
fig

# %% [markdown]
# ## 5. Claim 9 (article): "PyTorch raises errors for dangerous in-place use" — what really happens
#
# True, but the errors come at different *times*:
#
# | situation | when it fails |
# |---|---|
# | in-place on a leaf that requires grad | immediately |
# | in-place on a view of such a leaf | immediately |
# | in-place on a saved tensor | only at `backward()` (version counter) |
# | in-place through `.data` | **never** — silently wrong gradients |

# %%
w = ipt.tensor([1.0, 2.0], requires_grad=True)
for code, op in [("w.add_(1)", lambda: w.add_(1)), ("w[0].mul_(2)", lambda: w[0].mul_(2))]:
    try:
        op()
    except RuntimeError as e:
        print(f"{code:<14} -> RuntimeError: {e}")
with ipt.no_grad():
    w.add_(1)                  # the optimizer's way: allowed
print("under no_grad: w =", w.tolist(), "| version", w._version)

# %% [markdown]
# ### The `.data` exception: wrong numbers, no error
#
# `.data` gives an alias with a **new** version counter, so autograd cannot see the write.
# `detach()` shares the counter and is caught. Same program, three ways:

# %%
x = ipt.tensor([1.0, -2.0, 3.0], requires_grad=True)
s = x.sigmoid()
s.sum().backward()
print("no in-place         x.grad =", [f"{v:.4f}" for v in x.grad.tolist()])

x = ipt.tensor([1.0, -2.0, 3.0], requires_grad=True)
s = x.sigmoid()
s.data.mul_(2)                 # .data: a separate version counter
s.sum().backward()
print("s.data.mul_(2)      x.grad =", [f"{v:.4f}" for v in x.grad.tolist()], " <- silently WRONG")

x = ipt.tensor([1.0, -2.0, 3.0], requires_grad=True)
s = x.sigmoid()
s.detach().mul_(2)             # detach(): the same version counter
try:
    s.sum().backward()
except RuntimeError as e:
    print("s.detach().mul_(2)  -> RuntimeError:", str(e)[:96], "...")

# %% [markdown]
# With `.data`, backward computed s(1−s) from the doubled `s` — a gradient of the wrong sign in
# two places. PyTorch's promise is: *if you get no error, the gradients are correct* — unless you
# used `.data`. Use `detach()` (or `no_grad()`), never `.data`.

# %% [markdown]
# ### Two more immediate errors: multi-output views and views made under `no_grad`

# %%
h = ipt.randn(4, 3, requires_grad=True) * 1   # a non-leaf
for code, op in [("h.unbind(0)[0].mul_(2)", lambda: h.unbind(0)[0].mul_(2)),
                 ("h.split(2)[1].zero_()", lambda: h.split(2)[1].zero_())]:
    try:
        op()
    except RuntimeError as e:
        print(f"{code} -> RuntimeError: {e}\n")
with ipt.no_grad():
    row = h[0]                 # view created under no_grad
try:
    row.mul_(2)                # modified with grad enabled
except RuntimeError as e:
    print("row.mul_(2) ->", e)

# %% [markdown]
# Fixes: index instead of unbind (`h[0].mul_(2)` is fine on a non-leaf), or use the out-of-place
# op; keep the view and the in-place op both inside or both outside `no_grad`.

# %% [markdown]
# ## 6. Ask before you mutate: `explain(t)` and `inplace_safe(t)`
#
# `ipt.autograd.explain(t)` lists every graph node that saved `t`'s storage, with versions, and
# applies the leaf/view rules. (PyTorch has no such function; you would read `grad_fn._saved_*`
# by hand.)

# %%
x = ipt.tensor([0.5, 1.0, 2.0], requires_grad=True)
h = x * 3          # saves only the number 3
s = h.sigmoid()    # saves s
lg = h.log()       # saves h
m = h + 1          # nothing saves m
for name, t in [("x", x), ("h", h), ("s", s), ("m", m)]:
    print(f"{name}: inplace_safe = {ipt.autograd.inplace_safe(t)}")
print()
print(ipt.autograd.explain(h))

# %% [markdown]
# ## 7. Finding the culprit: `detect_anomaly()`
#
# Without anomaly mode the error tells you *which* tensor is stale but not *where* it was changed.
# Inside `ipt.autograd.detect_anomaly()` every node and every in-place op remembers the line that
# made it, and the error names both (in a notebook, as "Cell In[n], line k").

# %%
with ipt.autograd.detect_anomaly():
    x = ipt.tensor([0.5, 1.0, 2.0], requires_grad=True)
    h = x * 3
    e = h.exp()
    e.add_(1)                  # the culprit
    loss = e.sum()
    try:
        loss.backward()
    except RuntimeError as err:
        print(err)

# %% [markdown]
# *In real PyTorch:* `torch.autograd.detect_anomaly()` prints the *forward* traceback of the node
# whose backward failed (here the `exp` line); finding the in-place line is then up to you.

# %% [markdown]
# ## 8. Claim 13 (article): "weight updates are always safe in place" — what really happens
#
# Mostly true: after `backward()` the graph is done. But GAN and actor-critic code often runs
# **two** backward passes over one graph and steps an optimizer in between. `step()` updates the
# weights in place — and the second backward still needs the old weights.

# %%
ipt.manual_seed(0)
G, D = nn.Linear(3, 3), nn.Linear(3, 1)
optG, optD = optim.SGD(G.parameters(), lr=0.1), optim.SGD(D.parameters(), lr=0.1)
fake = G(ipt.randn(4, 3))
d_loss = D(fake).mean()
g_loss = -D(fake).mean()       # shares D's graph: its AddmmBackward0 saved D.weight.t()
d_loss.backward(retain_graph=True)
optD.step()                    # in-place update of D.weight: version bump
try:
    g_loss.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# %% [markdown]
# `D(fake)` is a linear layer, recorded as `AddmmBackward0`; to compute `fake`'s gradient it
# saved `D.weight.t()`, a view of the weight made by `TBackward0`. `optD.step()` bumped the
# weight's version. Why does the message say "output 0 of AsStrided" and not "of T"? To name the
# saved tensor, the error asks it for its `grad_fn`, and a view whose base was modified in place
# gets its `grad_fn` *regenerated* as `AsStridedBackward0` (the view re-read from the new base).
# Real PyTorch prints the same message (parity test `test_06_step_between_backwards_fails`).
#
# The fix: finish **all** backward passes before any `step()` (or recompute the forward after the
# step).

# %%
ipt.manual_seed(0)
G, D = nn.Linear(3, 3), nn.Linear(3, 1)
optG, optD = optim.SGD(G.parameters(), lr=0.1), optim.SGD(D.parameters(), lr=0.1)
fake = G(ipt.randn(4, 3))
d_loss = D(fake.detach()).mean()   # D's loss: no gradient into G
g_loss = -D(fake).mean()
optD.zero_grad(); d_loss.backward()
optG.zero_grad(); g_loss.backward()  # both backwards first ...
optD.step(); optG.step()             # ... then the in-place updates
print("both updates done; D.weight version", D.weight._version, "| G.weight version", G.weight._version)

# %% [markdown]
# ## 9. Try it: the HazardLab
#
# Pick a forward op, an in-place op and whether it hits the input `x` or the output `y`. Predict,
# then press Run. The widget shows the real outcome, the saved tensors' versions and `explain()`.

# %% tags=["nbval-ignore-output"]
lab = widgets.HazardLab()
lab

# %%
for fwd, inp, tgt in [("relu", "relu_()", "output y"), ("sigmoid", "mul_(2)", "output y"),
                      ("log", "add_(1)", "input x"), ("log", "add_(1)", "output y"),
                      ("mul", "zero_()", "input x"), ("add", "zero_()", "input x")]:
    r = widgets.hazard_lab.run_experiment(fwd, inp, tgt)
    print(f"{fwd:>8} then {inp:<8} on {tgt:<9} -> {'FAILS at ' + r.stage if r.failed else 'works'}")

# %% [markdown]
# Note the first row: `relu()` *then* `relu_()` on its output fails, because ReluBackward0 saved that
# output. In claim 7 the tensor hit by `relu_` came from `x * 2`, which saved only its copy of 2.

# %% [markdown]
# ## Exercises
#
# **06.1** Predict which programs fail at `y.sum().backward()`. Answer a dict like
# `{"A": False, "B": True, ...}` (True = fails).

# %%
nb06.show_programs()

# %%
answer = None  # your code here
check("06.1", answer)
# hint("06.1")
# solution("06.1")

# %% [markdown]
# **06.2** `nb06.broken_forward(x)` computes `sum(2·sigmoid(x))` with a `mul_` that breaks
# backward. Write a fixed `f(x)` returning the same loss, with correct gradients.

# %%
nb06.show_broken_forward()

# %%
answer = None  # your code here: a function f(x) -> scalar loss
check("06.2", answer)
# hint("06.2")
# solution("06.2")

# %% [markdown]
# **06.3** `nb06.safety_scenario()` builds the small program below and returns its tensors as a
# dict (`w, x, h, a, b, c`). Which ones can be changed in place right now without an immediate
# error and without breaking backward? Answer a set of names.

# %%
nb06.show_scenario()

# %% [markdown]
# Its backward graph (each box lists what the node saved):

# %%
env = nb06.safety_scenario()
fig = viz.graph_diagram(env["c"], names={"w": env["w"]}, root_name="c",
                        title="safety_scenario(): the graph behind c")
fig

# %%
answer = None  # your code here, e.g. {"b"}
check("06.3", answer)
# hint("06.3")
# solution("06.3")

# %% [markdown]
# ## Summary
# - Every tensor has a version counter, shared by its views and by `detach()` (not by `.data`);
#   in-place ops bump it.
# - A backward node records the versions of what it saved; a mismatch fails **at backward**.
# - What is saved is in the derivative table: outputs for relu/sigmoid/tanh/exp/sqrt, inputs for
#   log/abs/pow/clamp, operands for mul/matmul, nothing for add/sub/sum/views (scalar mul keeps a
#   0-dim copy of the number). Where PyTorch saves more (`2 ** x`), the table says
#   so.
# - So `x * 2` then `relu_()` is fine (claim 7), an in-place ReLU in training is fine (claim 8),
#   `sigmoid()` then `mul_()` is not.
# - Leaves and views of leaves fail at once; `.data` never fails and gives wrong gradients (claim 9).
# - `optimizer.step()` between two backward passes over a shared graph fails (claim 13): do all
#   backward passes first.
# - Before an in-place op, `explain(t)`; after an error, `detect_anomaly()`.
