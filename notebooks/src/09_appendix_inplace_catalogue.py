# %% [markdown]
# # 09 · Appendix: the in-place catalogue
#
# PyTorch 2.13 has 162 public in-place methods. This appendix lists **every one of them**, live:
# whether the core has it, what it saves for backward (in PyTorch and in the core), whether it
# needs a temporary (measured), and what to write instead. Then it checks the first seed
# article's own list ("in-place operations PyTorch provides") with a demo per name: four of
# them do not exist, and for those we measure what to use instead.
#
# **Learning goals**
# - Find any in-place method in the catalogue and read off what it saves and what it costs.
# - Know which in-place methods exist, and recognise the trailing-underscore convention.
# - Know why `matmul_`, `permute_`, `minimum_` and `maximum_` don't exist, and what to write instead
#   (including the in-place metadata ops and `clamp_max_(tensor)`).
# - Know what each replacement costs in memory (measured).
#
# **Under the hood:** [`catalogue.py`](../inplace_tutorial/catalogue.py) (the table below),
# [`ops/`](../inplace_tutorial/ops/) (one module per family),
# [`ops/out_variants.py`](../inplace_tutorial/ops/out_variants.py) (`out=`); the [reading
# map](../inplace_tutorial/README.md) walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import catalogue, viz
from inplace_tutorial.exercises import check, hint, nb09, solution

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## The whole catalogue
#
# Nothing in this table is typed by hand. The list of methods, what PyTorch saves and its
# alternatives come from a data file that `tools/gen_torch_catalogue.py` writes by asking torch
# 2.13 itself (`dir(torch.Tensor)`, its operator schemas, and one small probe call per method
# whose `grad_fn._saved_*` attributes it reads); a parity test runs the tool again and fails if
# the file is stale. The core's columns are computed now, when the cell runs: the core grows
# ops, and the table grows with it.
#
# Each probe calls the method on a fresh 2×3 float32 tensor (24 B) that requires grad (a clone
# of a leaf, so in-place is allowed), with arguments of the same shape.
#
# | column | meaning |
# |---|---|
# | ★ | on the seed article's list |
# | core | `hasattr(ipt.Tensor, name)` |
# | PyTorch saves | the tensors `grad_fn._saved_*` holds after the probe, in torch 2.13 |
# | core saves | `same` if the core's node has PyTorch's name and saves the same tensors, else what differs (`≠ …`) |
# | temp B | extra bytes at the peak of the call under `no_grad`, measured with `ipt.memory` (a temporary) |
# | kept B | bytes still held after the call with grad: a copy of the old value saved for backward |
# | out-of-place / out= | PyTorch's function (with `out=` if it has one), and whether the core has it too |

# %%
rows = catalogue.rows()
print(catalogue.summary(rows))
print()
print(catalogue.table(rows))

# %% [markdown]
# How to read it:
# - **kept B = 24** means the in-place call saved a *copy* of the old `self` for backward (claim
#   14): `mul_`, `div_`, `log_`, `abs_`, `pow_`, `clamp_` and every op whose backward needs its
#   input. There the in-place version saves no memory in training. **kept B = 0** with `result`
#   saved (`exp_`, `sigmoid_`, `relu_`, `sqrt_`, `tanh_`) means backward reads the new value, so
#   writing in place is free.
# - **temp B > 0**: the core computes the result in a temporary and copies it in (the
#   matrix products: every output element reads a row of the input it overwrites).
# - `nothing` saved and a node name (`acosh_`, `asinh_`, `atanh_` and their `arc…` aliases)
#   can still fail: PyTorch has no backward for the in-place inverse hyperbolic functions and
#   raises `NotImplementedError` at `backward()` (parity test
#   `test_inplace_inverse_hyperbolic_has_no_backward`).
# - `no grad_fn`: integer ops (`bitwise_*_`, `gcd_`, `lcm_`) and `detach_`/`requires_grad_`,
#   which change autograd metadata, not values.
# - The storage-level methods change which bytes a tensor looks at, not its values:
#   `resize_` and `resize_as_` refuse a tensor that requires grad, so their probe grows a
#   detached 2×3 tensor to 3×3 (temp B: the larger buffer, made while the old one is still
#   there; kept B: what the storage grew by); `share_memory_` moves the storage to a new
#   buffer (temp B) and gives the old one back; `set_` records PyTorch's `NotImplemented`
#   node (backward through it raises), and its self's old storage is freed (kept B < 0).
# - `apply_`, `map_`, `map2_` call a Python function on every element; they refuse a tensor
#   that requires grad, in PyTorch and in the core (`fails: RuntimeError` on both sides).
#
# Where the core and PyTorch disagree, and the methods the course leaves out:

# %%
for r in rows:
    if r.saves_match is False:
        t, c = r.torch, r.core
        print(f"{r.name} ({r.variant or 'probe'}): PyTorch {t['grad_fn']} saves "
              f"{catalogue.saves_text(t)}; core {c['grad_fn'] or '-'} "
              f"{'fails' if c['error'] else 'saves ' + catalogue.saves_text(c)}")
print()
for reason in sorted({r.scope for r in rows if r.scope}):
    print(f"left out ({reason}):", ", ".join(r.name for r in rows if r.scope == reason))

# %% [markdown]
# ## Claim 12 (article): "PyTorch provides matmul_, permute_, minimum_, maximum_ …" — what really happens
#
# For each name in the article's list: does `Tensor` have it, and what does a one-line demo do?
# Each demo runs on a fresh `t = tensor([[1., -2.], [3., -4.]])`; "same storage" compares the
# storage before and after, "version" is `t._version` after the call.

# %%
DEMOS = {
    "add_": "t.add_(1)", "sub_": "t.sub_(1)", "mul_": "t.mul_(2)", "div_": "t.div_(2)",
    "relu_": "t.relu_()", "sigmoid_": "t.sigmoid_()", "tanh_": "t.tanh_()", "pow_": "t.pow_(2)",
    "neg_": "t.neg_()", "transpose_": "t.transpose_(0, 1)", "clamp_min_": "t.clamp_min_(0)",
    "clamp_max_": "t.clamp_max_(0)", "clamp_": "t.clamp_(-1, 1)", "zero_": "t.zero_()",
    "fill_": "t.fill_(7)", "copy_": "t.copy_(ipt.ones(2, 2))", "random_": "t.random_(0, 10)",
    "normal_": "t.normal_()",
}
print(f"{'method':<12}{'exists':<8}{'demo':<25}{'t after':<32}same storage  version")
exists = 0
for name in nb09.ARTICLE_LIST:
    t = ipt.tensor([[1.0, -2.0], [3.0, -4.0]])
    if not hasattr(t, name):
        print(f"{name:<12}{'NO':<8}{'-':<25}AttributeError")
        continue
    exists += 1
    before = t.untyped_storage()
    r = eval(DEMOS[name])
    vals = "[" + ", ".join(f"{v:.3g}" for v in r.flatten().tolist()) + "]"
    print(f"{name:<12}{'yes':<8}{DEMOS[name]:<25}{vals:<32}{str(r.untyped_storage() is before):<14}{t._version}")
print(f"\n{exists} of {len(nb09.ARTICLE_LIST)} exist")

# %% [markdown]
# All those that exist write into `t`'s own storage and bump its version (`transpose_` changes
# only the shape and strides; the values listed are read in the new order). `random_` and
# `normal_` fill with random numbers (seeded here). **Claim 12 is false for four names:**
# `matmul_`, `permute_`, `minimum_` and `maximum_` do not exist, in the core or in PyTorch.
# *In real PyTorch:* `hasattr(torch.Tensor, "matmul_")` is `False` as well, and so for the other three.

# %%
for name in ("matmul_", "permute_", "minimum_", "maximum_"):
    try:
        getattr(ipt.randn(2, 2), name)
    except AttributeError as e:
        print("AttributeError:", e)

# %% [markdown]
# ## Why they don't exist, and what to write instead
#
# - `matmul`: the result generally has a different shape from either operand, and every output
#   element reads a whole row of `a` — writing into `a` while reading it would corrupt the inputs.
#   A temporary is unavoidable.
# - `permute`: not because "there is nothing to do in place". An in-place permute would rewrite
#   the tensor's own shape and strides, and PyTorch has exactly such **in-place metadata ops**:
#   `transpose_`, `t_`, `swapdims_` (alias `swapaxes_`), `squeeze_`, `unsqueeze_` and
#   `as_strided_`. PyTorch simply never defined a `permute_` operator (there is no
#   `aten::permute_`; the parity test `test_09_inplace_metadata_ops_exist_permute_does_not`
#   checks this). You can spell one with `as_strided_` (next cell), or with a chain of
#   `transpose_` calls. Moving the data into the new order still needs a second buffer
#   (`permute(...).contiguous()`).
# - `minimum`/`maximum`: never added as methods. But `clamp_max_` and `clamp_min_` accept a
#   **tensor** bound, and then they *are* the in-place `minimum`/`maximum`: `a.clamp_max_(b)`
#   writes `min(a, b)` into `a`'s own storage and allocates nothing (measured below).
#   The module-level functions also take `out=`: `ipt.minimum(a, b, out=a)` does the same.
# - `out=` works for matmul too, but only into a **separate** tensor: a matrix product reads each
#   input element many times while it writes, so `out` must not be one of its inputs.
#
# The metadata ops first: an in-place permute, spelled with `as_strided_`.

# %%
m = ipt.arange(24.0).view(2, 3, 4)
expected = m.permute(2, 0, 1)
storage, dims = m.untyped_storage(), (2, 0, 1)
m.as_strided_([m.shape[d] for d in dims], [m.stride()[d] for d in dims])
print("shape", tuple(m.shape), "| strides", m.stride(), "| same values as permute(2, 0, 1):",
      m.tolist() == expected.tolist())
print("same storage:", m.untyped_storage() is storage, "| version", m._version)

# %% [markdown]
# *In real PyTorch* the same program prints the same. For two dims there are also
# `transpose_`, `swapdims_` and `swapaxes_`, in PyTorch and in the core.
#
# Now the costs, measured on 256×256 float32 (one buffer = 262,144 B):

# %%
a, b, c = ipt.randn(256, 256), ipt.randn(256, 256), ipt.empty(256, 256)
try:
    ipt.matmul(a, b, out=a)
except RuntimeError as e:
    print("ipt.matmul(a, b, out=a) ->", str(e).split(". ")[0] + ".")
print()
ways = {
    "ipt.minimum(a, b, out=a)": lambda: ipt.minimum(a, b, out=a),
    "ipt.matmul(a, b, out=c)": lambda: ipt.matmul(a, b, out=c),
    "a.copy_(a @ b)": lambda: a.copy_(a @ b),
    "a.permute(1, 0).contiguous()": lambda: a.permute(1, 0).contiguous(),
    "a.t_()  (metadata only)": lambda: a.t_(),
    "a.copy_(ipt.minimum(a, b))": lambda: a.copy_(ipt.minimum(a, b)),
    "a.copy_(ipt.where(a < b, a, b))": lambda: a.copy_(ipt.where(a < b, a, b)),
    "a.clamp_max_(b)  (tensor bound)": lambda: a.clamp_max_(b),
    "a.clamp_max_(0.5)  (scalar)": lambda: a.clamp_max_(0.5),
    "a.clamp_min_(0.5)  (scalar)": lambda: a.clamp_min_(0.5),
}
for name, fn in ways.items():
    with ipt.memory.record() as tr:
        fn()
    print(f"{name:<33} peak extra {tr.peak - tr.start_allocated:>9,} B")

# %% [markdown]
# The cell above shows the costs: `minimum(a, b, out=a)` and `matmul(a, b, out=c)` allocate
# nothing (the result goes straight into an existing buffer). `copy_(a @ b)` and
# `copy_(minimum(a, b))` need one temporary of the result's size (freed right after), so they
# "save" the *persistent* buffer but not the peak. `where` needs a little more (its boolean
# mask). `clamp_max_(b)` with a tensor `b` needs nothing: it is the in-place `minimum`.
# The scalar `clamp_*_` forms need nothing either.
#
# The picture: `t()` relabels the same storage (new strides); `contiguous()` copies the data into
# a second storage in the new order.

# %%
m = ipt.arange(6.0).view(2, 3)
mt = m.t()
mc = mt.contiguous()
fig = viz.storage_diagram({"m": m, "m.t()": mt, "m.t().contiguous()": mc},
                          title="a transpose is a view; contiguous() copies")
fig

# %% [markdown]
# One trap: `a.copy_(a.t())` — "in-place transpose of the data" — fails, because source and
# destination overlap:

# %%
x = ipt.randn(3, 3)
try:
    x.copy_(x.t())
except RuntimeError as e:
    print("RuntimeError:", e)
x.copy_(x.t().clone())   # what the message suggests: a temporary
print("with clone(): ok")

# %% [markdown]
# *In real PyTorch:* the same message for `copy_`; `torch.minimum(a, b, out=a)`,
# `a.clamp_max_(b)` and `torch.matmul(a, b, out=c)` behave as here and allocate nothing (parity
# tests `test_09_clamp_max_with_a_tensor_is_inplace_minimum`, `test_out_parity.py`).
# One difference: PyTorch does **not** refuse `torch.matmul(a, b, out=a)` (or `out=b`). It runs
# without an error and **may silently return wrong values**, because the product overwrites an
# input while still reading it. Whether the values come out wrong depends on the size and on the
# BLAS library (the parity test `test_09_matmul_out_aliasing_input_may_be_wrong` finds wrong
# values on torch 2.13 CPU). Never pass an input as a matrix product's `out`.

# %% [markdown]
# ## Exercises
#
# **09.1** Which of these names exist as in-place `Tensor` methods? Answer a set.

# %%
print(nb09.QUIZ)

# %%
answer = None  # your code here
check("09.1", answer)
# hint("09.1")
# solution("09.1")

# %% [markdown]
# **09.2** Write `f(a, b)` that does what a `minimum_` would: writes `min(a, b)` into `a`'s own
# storage and returns `a`.

# %%
answer = None  # your code here: a function
check("09.2", answer)
# hint("09.2")
# solution("09.2")

# %% [markdown]
# ## Summary
# - The catalogue above is generated from torch 2.13 and from the core as it is: what each
#   in-place method saves, what it keeps (a copy of the old value where backward needs it) and
#   what it allocates.
# - A trailing underscore means "writes into self"; it returns self and bumps `_version`.
# - Of the article's list, `matmul_`, `permute_`, `minimum_`, `maximum_` don't exist (claim 12).
# - Instead: `a.clamp_max_(b)` or `ipt.minimum(a, b, out=a)` (no allocation),
#   `ipt.matmul(a, b, out=c)` into a separate `c` (or `a.copy_(a @ b)`, one temporary),
#   `permute(...).contiguous()` (new buffer) or `t_()`/`transpose_()`/`as_strided_()` (metadata
#   only; PyTorch also has `swapdims_`).
