# %% [markdown]
# # 15 · Your own PyTorch model: which line broke backward?
#
# Everything so far ran on the course's small core. This notebook takes the same tools to **real
# PyTorch**: a model with a hidden in-place bug, PyTorch's own error, then
# `inplace_tutorial.torch_inspect.detect_inplace()` naming the line, the graph with the stale save,
# and the fix.
#
# **Needs PyTorch.** Without it, read the stored outputs below, or install the CPU build:
# `pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu`
#
# **Learning goals**
# - Read PyTorch's version-counter error and see why it cannot tell you the line.
# - Wrap a training step in `detect_inplace()` and read its report.
# - See the stale saved tensor in PyTorch's real graph, and fix the line.
# - Ask before you mutate: `explain(t)` / `inplace_safe(t)` on real tensors.

# %%
from inplace_tutorial import viz
from inplace_tutorial.data import load_digits
from inplace_tutorial.torch_inspect import detect_inplace, explain, require_torch

torch = require_torch()  # ImportError with the install line when PyTorch is missing
nn, F = torch.nn, torch.nn.functional
viz.setup_notebook()
torch.manual_seed(0)
images, labels = load_digits()
x = torch.tensor(images.numpy()[:64])
y = torch.tensor(labels.numpy()[:64])
print("batch:", tuple(x.shape), x.dtype, "| labels:", tuple(y.shape), y.dtype)

# %% [markdown]
# ## 1. A model with a hidden bug
#
# A gated MLP: the hidden units are multiplied by a learned gate in (0, 1). Its author used
# `inplace=True` and `*=` to save memory. Read `forward`: can you spot the line that will break
# backward?

# %%
class GatedMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.gate = nn.Linear(64, 32)
        self.act = nn.ReLU(inplace=True)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = x.flatten(1)
        h = self.act(self.fc1(x))
        g = torch.sigmoid(self.gate(x))
        h *= g
        return self.fc2(h)


model = GatedMLP()
opt = torch.optim.SGD(model.parameters(), lr=0.1)

# %% [markdown]
# ## 2. PyTorch's error
#
# The forward pass runs. Backward does not:

# %%
opt.zero_grad()
loss = F.cross_entropy(model(x), y)
try:
    loss.backward()
except RuntimeError as e:
    print(e)

# %% [markdown]
# The message names the tensor (`[torch.FloatTensor [64, 32]]`), the node whose saved copy went
# stale (`ReluBackward0`) and two versions. It cannot name the line: the in-place op ran long
# before backward, and PyTorch only finds out when the node unpacks what it saved.
#
# ## 3. `detect_inplace()` names the line
#
# Wrap the step. Nothing changes until PyTorch raises its error; then the same `RuntimeError`
# comes back with PyTorch's text first and a report under it:

# %%
try:
    with detect_inplace():
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
except RuntimeError as e:
    print(e)

# %% [markdown]
# Read it bottom-up: `ReluBackward0` saved its **result** (ReLU's gradient is "1 where the output
# is positive", so it keeps the output). `nn.ReLU(inplace=True)` was fine on its own: it wrote into
# `fc1`'s output, which nobody had saved, and the version went 0 → 1 before `ReluBackward0` saved
# it. Then `h *= g` (PyTorch runs it as `Tensor.mul_`) wrote into that saved result: 1 → 2. `Cell In[N]:L` is the cell and the line
# inside it; in a script you see `model.py:L`. (When an in-place op runs inside torch, e.g. in
# an `nn` module or an optimizer, the report adds the torch line under yours.)
#
# ## 4. The stale save in PyTorch's real graph
#
# `viz.graph_diagram` draws PyTorch's own graph: every node with what it saved, the version it
# saved and the version now. The stale one is red, and so is the path backward takes to it.

# %%
loss = F.cross_entropy(model(x), y)
params = dict(model.named_parameters())
viz.graph_diagram(loss, names=params, root_name="loss", title="GatedMLP: the graph before backward")

# %% [markdown]
# ## 5. The fix
#
# Multiply out of place: `h = h * g` makes a new tensor and leaves ReLU's saved result alone.
# (`MulBackward0` now saves `h` and `g`; both stay at their version.) Keep `inplace=True` on the
# ReLU: it was never the problem.

# %%
class GatedMLPFixed(GatedMLP):
    def forward(self, x):
        x = x.flatten(1)
        h = self.act(self.fc1(x))
        g = torch.sigmoid(self.gate(x))
        h = h * g
        return self.fc2(h)


fixed = GatedMLPFixed()
fixed.load_state_dict(model.state_dict())
opt = torch.optim.SGD(fixed.parameters(), lr=0.1)
losses = []
for _ in range(20):
    with detect_inplace():  # silent: no error, no report
        opt.zero_grad()
        loss = F.cross_entropy(fixed(x), y)
        loss.backward()
        opt.step()
    losses.append(loss.item())
print("20 steps under detect_inplace(); loss went down:", losses[-1] < losses[0])

# %% [markdown]
# Inside the manager the same code computes the same numbers: only Python-level torch calls are
# watched, backward's C++ kernels are untouched.

# %%
def grads(under_manager):
    net = GatedMLPFixed()
    net.load_state_dict(model.state_dict())
    if under_manager:
        with detect_inplace():
            F.cross_entropy(net(x), y).backward()
    else:
        F.cross_entropy(net(x), y).backward()
    return {n: p.grad for n, p in net.named_parameters()}


plain, watched = grads(False), grads(True)
print("identical gradients:", all(torch.equal(plain[n], watched[n]) for n in plain))

# %% [markdown]
# ## 6. Ask before you mutate
#
# `explain(t)` reads PyTorch's graph the way the core's `ipt.autograd.explain` reads ours: which
# nodes saved `t` (or a tensor over its storage), at which version, and whether an in-place op
# now would break backward. Pass the output you will call backward on, so that the nodes that
# *use* `t` can be found.

# %%
xf = x.flatten(1)
h = model.act(model.fc1(xf))
g = torch.sigmoid(model.gate(xf))
out = h * g
print(explain(h, out))
print()
print(explain(out, out))

# %% [markdown]
# `viz.storage_diagram` and `viz.compare_storages` take real tensors too: PyTorch's storage,
# strides, offset and version, as in notebook 02.

# %%
t = torch.arange(6.0).view(2, 3)
before = viz.snapshot({"t": t, "t.T": t.T, "row": t[1]})
t[1].mul_(10)
viz.compare_storages(before, {"t": t, "t.T": t.T, "row": t[1]}, title="t[1].mul_(10) on real PyTorch")

# %% [markdown]
# ## Summary
#
# - PyTorch's error names the stale tensor and the node that saved it, never the line that
#   changed it.
# - `with detect_inplace():` around a step adds that line (and the torch line when the write
#   happened inside `nn` or `torch.optim`), the versions it moved the tensor through, and the
#   forward line that saved it. Without an error it is silent.
# - `explain(t, out)` / `inplace_safe(t, out)` answer "may I mutate t now?" from the real graph.
# - `ipt.viz` draws real tensors and real graphs, stale saves in red.
