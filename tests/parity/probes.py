"""A table of bad or odd calls, each run on torch 2.13 and on the core, side by side.

A probe is one line of Python run in a fresh namespace (``t`` is the module, ``F`` its
``nn.functional``, ``nn`` its ``nn``, plus the fixture tensors of ``FIXTURES``). What is
compared: the value or the exception (type and text) of the line, then every fixture's values
and ``_version`` after it, so a call that raises after writing part of a tensor, or that writes
without saying so, shows up. Adding a probe is adding a string to ``PROBES`` under its class.

``probe_known.KNOWN_DIFFERENT`` lists the probes where the core still disagrees, by class, with
the helper whose files own the fix (``OWNER``); they run and are counted
(``python -m tests.parity.probes``) but are not asserted. Every other probe is a test in
test_probes_table.py. ``python -m tests.parity.probes --ledger`` rewrites probe_known.py from a
fresh run.
"""
from __future__ import annotations

import sys
from collections import Counter

import numpy as np

from . import (
    probes_activations,
    probes_args,
    probes_divmem,
    probes_funcs,
    probes_funcsig,
    probes_i11,
    probes_indexing,
    probes_keywords,
    probes_last_bits,
    probes_lead,
    probes_misc,
    probes_miscops,
    probes_module_device,
    probes_nn,
    probes_nnops,
    probes_outgrow,
    probes_probes2,
    probes_probes3,
    probes_resize,
    probes_selectops,
    probes_special,
    probes_svd,
    probes_twins,
)
from .harness import Raised, _raised, compare, observe

FIXTURES = {
    # name -> (NumPy value, requires_grad)
    "x": (np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], dtype=np.float32), False),
    "v": (np.array([0.5, -1.5, 2.0], dtype=np.float32), False),
    "m": (np.arange(9, dtype=np.float32).reshape(3, 3) - 4, False),
    "d": (np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float64), False),
    "s": (np.array(2.5, dtype=np.float32), False),
    "i": (np.array([[1, -2, 3], [4, 5, -6]], dtype=np.int64), False),
    "b": (np.array([[True, False, True], [False, True, False]]), False),
    "w": (np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], dtype=np.float32), True),
    "img": (np.arange(2 * 2 * 4 * 4, dtype=np.float32).reshape(2, 2, 4, 4) / 10, False),
}


def namespace(t) -> dict:
    """Fresh fixtures for one probe, built from the same NumPy values on both sides."""
    ns = {"t": t, "F": t.nn.functional, "nn": t.nn, "np": np}
    for name, (value, rg) in FIXTURES.items():
        ns[name] = t.tensor(value.copy(), requires_grad=rg)
    ns["y"] = ns["w"] * 1  # a non-leaf that requires grad
    return ns


def _state(t, ns) -> dict:
    out = {}
    for name in list(FIXTURES) + ["y"]:
        v = ns[name]
        out[name] = (np.array(v.detach().numpy(), copy=True), int(v._version))
    return out


def run_probe(t, code: str):
    """The observation of one probe: what the line gave, and every fixture afterwards.

    A probe written ``"~ code"`` draws random numbers: fixtures' values are not compared
    after it (their shapes, dtypes and versions are)."""
    random = code.startswith("~ ")
    code = code[2:] if random else code
    ns = namespace(t)
    try:
        result = eval(compile(code, "<probe>", "eval"), ns)  # noqa: S307 - the probe table
    except Exception as e:  # noqa: BLE001 - the exception is the observation
        result = _raised(e)
    try:
        got = observe(t, result)
    except Exception as e:  # noqa: BLE001
        r = _raised(e)
        got = Raised(r.type, f"(while observing the result) {r.msg}")
    after = {k: (a, ver) for k, (a, ver) in _state(t, ns).items()}
    return {"result": got, "after": {
        k: {"values": ("numpy array", a.dtype.name, a.shape, None if random else a),
            "_version": ver} for k, (a, ver) in after.items()}}


def differences(torch_mod, core_mod, code: str) -> list[str]:
    ref, got = run_probe(torch_mod, code), run_probe(core_mod, code)
    return compare(_nan_safe(ref), _nan_safe(got), code)


def _nan_safe(obs):
    """Arrays compare with array_equal, which calls NaN != NaN: write NaN as a marker. A
    message loses the C++ backtrace PyTorch appends to some errors ("Exception raised from
    ... frame #0: ... (0x7f...)"): its paths and addresses belong to one build of torch."""
    if isinstance(obs, Raised):
        head, cut, tail = obs.msg.partition("\nException raised from ")
        return Raised(obs.type, head + ('"' if cut and tail.endswith('"') else ""))
    if isinstance(obs, dict):
        return {k: _nan_safe(v) for k, v in obs.items()}
    if isinstance(obs, tuple) and len(obs) == 4 and obs[0] == "numpy array":
        a = obs[3]
        if a is not None and a.dtype.kind == "f" and np.isnan(a).any():
            return obs[:3] + (np.where(np.isnan(a), -12345.0, a), "nan at", np.isnan(a))
        return obs
    return obs


# --------------------------------------------------------------------------------------
# the table: class -> probe lines

BAD = ["None", "'a'", "[1.0, 2.0, 3.0]", "(1.0,)", "object()", "np.ones(3, dtype=np.float32)",
       "1j"]
BINARY_INPLACE = ["add_", "sub_", "mul_", "div_", "pow_", "copy_", "maximum", "minimum",
                  "clamp_min_", "clamp_max_"]
UNARY_INPLACE = ["abs_", "neg_", "exp_", "log_", "sqrt_", "sigmoid_", "tanh_", "relu_",
                 "sign_", "reciprocal_", "zero_"]

PROBES: dict[str, list[str]] = {
    "operand type (binary in-place)": [
        f"v.{op}({bad})" for op in BINARY_INPLACE for bad in BAD],
    "operand type (out-of-place)": [
        f"v.{op}({bad})" for op in ("add", "sub", "mul", "div", "pow", "eq", "lt", "matmul",
                                    "dot", "mm") for bad in BAD[:5]]
    + [f"v.{op}({bad})" for op in ("gt", "ge", "le", "ne", "atan2",
                                   "fmod", "remainder", "logical_and", "hypot", "copysign")
       for bad in ("None", "[1.0, 2.0, 3.0]", "np.ones(3)")]
    + [f"x.{op}({bad})" for op in ("mv", "bmm") for bad in ("None", "'a'", "[1.0]")]
    + [f"m.{op}({a}, {b})" for op in ("addmm", "addmm_") for a, b in
       (("None", "m"), ("m", "None"), ("[[1.0]]", "m"), ("m", "np.eye(3)"))]
    + [f"x[None].{op}({a}, {b})" for op in ("baddbmm", "baddbmm_", "addbmm")
       for a, b in (("None", "x[None].t()"), ("x[None]", "'a'"))]
    + ["x.addcmul(None, x)", "x.addcdiv(x, [1.0])", "x.lerp(x, None)", "i.bitwise_and(None)",
       "i.floor_divide(None)", "v.eq(np.float32(0.5))", "v.lt(np.int64(0))", "v.eq(True)"],
    "operand type (operators)": [
        f"v {o} {bad}" for o in ("+", "-", "*", "/", "**", "@", "==", "<") for bad in BAD[:3]]
    + [f"v.__i{n}__({bad})" for n in ("add", "sub", "mul", "truediv") for bad in BAD[:3]]
    + [f"{bad} {o} v" for o in ("+", "-", "*", "/", "**", "@", "==", "!=", "<", ">=")
       for bad in ("None", "'a'", "object()")]
    + [f"v {o} {bad}" for o in ("!=", ">", "<=", ">=") for bad in ("None", "'a'", "(1.0,)")]
    + [f"v.__{n}__(None)" for n in ("eq", "ne", "lt", "ge", "matmul", "rmatmul", "add",
                                    "radd", "rsub", "rtruediv", "rpow")]
    + ["v @ v", "v @ m", "m @ v", "v == v", "v < 1", "1 < v", "2 ** v", "v == 1.5", "v != 2.0",
       "v == np.float32(0.5)"],
    "scalar arguments (alpha, value)": [
        f"x.{op}(x, alpha={bad})" for op in ("add_", "sub_", "add", "sub")
        for bad in ("None", "'a'", "[2]", "1j", "True")]
    + [f"x.{op}(x, x, value={bad})" for op in ("addcmul_", "addcdiv_", "addcmul", "addcdiv")
       for bad in ("None", "'a'", "[2]", "x")]
    + [f"m.addmm_(m, m, {k}={bad})" for k in ("alpha", "beta") for bad in ("'a'", "None", "[1]")]
    + [f"t.addmm(m, m, m, {k}={bad})" for k in ("alpha", "beta") for bad in ("'a'", "None")]
    + probes_args.SCALARS,
    "clamp bounds": [
        "x.clamp_(0, 'a')", "x.clamp_('a', 1)", "x.clamp_()", "x.clamp_(None, None)",
        "x.clamp_(min=[0])", "x.clamp_(2, 1)", "x.clamp(2, 1)", "x.clamp_(0, None)",
        "x.clamp_(None, 0)", "x.clamp_min_('a')", "x.clamp_max_(None)", "x.clamp(0, 'a')",
        "x.clip_(0, 'a')", "x.clamp_(v, 1)", "x.clamp_(0, x)", "i.clamp_(0.5, 2)",
        "i.clamp(0.5, 2)", "b.clamp_(0, 1)", "x.clamp_(float('nan'), 1)", *probes_args.CLAMP],
    "unary in-place on odd dtypes": [
        f"{v}.{op}()" for op in UNARY_INPLACE for v in ("i", "b")],
    "zero-argument methods": probes_args.ZERO_ARGS,
    "in-place result dtype": [
        "i.add_(x)", "i.add_(1.5)", "i.mul_(0.5)", "i.div_(2)", "b.add_(1)", "b.mul_(b)",
        "i.pow_(0.5)", "i.sub_(b)", "x.add_(i)", "x.add_(b)", "b.sub_(b)", "i.pow_(-1)",
        "i.add_(i, alpha=0.5)", "i.copy_(x)", "b.copy_(x)",
        "x.copy_(b)"],
    "shapes and broadcasting": [
        "x.add_(v[:2])", "v.add_(x)", "x.add_(m)", "x.copy_(m)", "x.copy_(v)", "x.copy_(s)",
        "x.mul_(x.t())", "x.addcmul_(v, x.t())", "m.addmm_(x, x)", "x.addmm_(x, m)",
        "x.addmm_(m, x)", "x.lerp_(v[:2], 0.5)", "x.expand(2, 2, 3).add_(1)",
        "v.expand(3, 3).add_(1)", "x.t().add_(x.t())", "x[0].add_(x[1])",
        "x[:, :2].add_(x[:, 1:])"],
    "views and sizes": [
        "x.view(-2, -3)", "x.view(-1, -1)", "x.view(4, 2)", "x.view(6.0)", "x.view('a')",
        "x.reshape(-2, -3)", "x.reshape(4, 2)", "x.reshape(-1, 4)", "x.view(3, -1)",
        "x.t().view(6)", "x.split([4, -1])", "x.split(-1)", "x.split(0)", "x.chunk(-1)",
        "x.chunk(0)", "x.narrow(0, -5, 1)", "x.narrow(1, 2, 2)", "x.narrow(0, 0, -1)",
        "x.narrow(2, 0, 1)", "x.as_strided((10**22,), (0,))", "x.as_strided((2, 2), (1,))",
        "x.as_strided((-1,), (1,))", "x.permute(0, 0)", "x.permute(0)", "x.permute(0, 2)",
        "x.transpose(0, 2)", "x.squeeze(2)", "x.unsqueeze(3)", "x.unsqueeze(-4)", "x.select(0, 2)",
        "x.select(2, 0)", "x.select(1, -4)", "x.expand(3, 3)", "x.expand(-1, 3)",
        "x.expand(2, -1, 3)", "x.flatten(1, 0)", "x.flatten(0, 5)", "x.unbind(2)",
        "x.t_().t_()", "x.transpose_(0, 3)", "x.squeeze_(5)", "x.unsqueeze_(4)",
        *probes_args.VIEWS_AND_SIZES],
    "indexing": [
        "x[True]", "x[False]", "x[1.5]", "x[..., ...]", "x[2]", "x[0, 3]", "x[-3]", "x[None, 0]",
        "x[[0, 2]]", "x[b]", "x[b[0]]", "x[i]", "x['a']", "x[0:1, None, ..., 1]",
        "x[[True, False]]", "x[t.tensor([0, 1])]", "x[t.tensor([0.0])]", "x[t.tensor(5)]",
        "x.index_put_((t.tensor([0]),), t.tensor([1.0, 2.0]))",
        "i.index_put_((t.tensor([0]),), t.tensor(1.5))",
        "x.index_put_((b,), t.tensor([1.0, 2.0]))", "x.index_put_((b,), t.tensor(7.0))",
        "x.index_put_((b,), t.tensor([1.0, 2.0, 3.0]))", *probes_args.INDEXING,
        *probes_indexing.GETITEM, *probes_indexing.INDEX_PUT, *probes_indexing.NONZERO],
    "setitem": [
        "x.__setitem__(0, None)", "x.__setitem__(0, 'a')", "x.__setitem__(0, [1.0, 2.0])",
        "x.__setitem__(0, v)", "x.__setitem__(0, m)", "x.__setitem__(b, 0.0)",
        "i.__setitem__(0, float('nan'))", "i.__setitem__(0, 1e30)", "i.__setitem__(0, 2.7)",
        "x.__setitem__((0, 5), 1.0)", "x.__setitem__(slice(None), x.t())",
        "w.__setitem__(0, 1.0)", "y.__setitem__(0, 1.0)", *probes_args.SETITEM,
        *probes_indexing.SETITEM],
    "fill and copy": [
        "x.fill_(None)", "x.fill_('a')", "x.fill_(v)", "x.fill_(s)", "x.fill_(t.tensor([1.0]))",
        "i.fill_(2.5)", "i.fill_(float('nan'))", "b.fill_(2)",
        "x.copy_(np.zeros((2, 3), dtype=object))", "x.copy_(None)", "x.copy_([[0.0] * 3] * 2)",
        "x.copy_(x)", "x.copy_(x.t().t())", "x.copy_(x, True)", "y.copy_(x)",
        "x.fill_(1e40)", "i.fill_(2**63)"],
    "random fills": [
        "x.normal_(0, -1)", "x.uniform_(1, 0)", "x.uniform_(0, 'a')", "x.normal_('a')",
        "i.normal_()", "b.normal_()", "i.uniform_()", "x.random_(5, 2)", "x.random_(-1)",
        "w.normal_()", "w.uniform_()", "~ y.normal_().shape", "x.normal_(0, 0).sum()",
        "x.uniform_(2, 2).sum()", "~ b.random_().dtype", "x.random_(0, 1).sum()",
        "~ x.normal_()._version", "~ x[0].uniform_()._version", "~ i.random_(0, 3).dtype"],
    "reductions": [
        "x.sum(2)", "x.sum(-3)", "x.sum('a')", "x.sum((0, 0))", "x.mean(2)", "i.mean()",
        "x.var(2)", "x.var(0, correction=1)", "x.std(5)", "x.max(2)", "x.amax(2)",
        "x.argmax(2)", "x.softmax(2)", "x.log_softmax(-3)", "x.sum(dim=None)",
        "x.sum(0, keepdim='a')", "b.sum()", "i.var()", "x.mean(dtype=t.int64)",
        "x.max(0, keepdim=True).values", *probes_args.REDUCTIONS],
    "matrix products": [
        "x.mm(x)", "x.mm(v)", "v.dot(m)", "v.dot(v[:2])", "x.matmul(x)", "m.mv(x)", "x.bmm(x)",
        "d.mm(m[:2, :2])", "i.mm(i.t())", "x.mm(i.t())", "t.einsum('ij,jk->ik', x, x)",
        "t.einsum('ij->k', x)", "t.baddbmm(x[None], x[None], x[None])",
        "m.addbmm_(x[None].t(), x[None])", "x.addmm_(x, x.t())",
        "m.addmm_(x.t(), x, alpha=2, beta=0.5)", *probes_args.PRODUCTS],
    "autograd rules": [
        "w.add_(1)", "w[0].add_(1)", "w.t_()", "w.zero_()", "w.relu_()", "w.copy_(x)",
        "w.data.add_(1)", "w.detach().add_(1)", "y.add_(1).grad_fn.name()",
        "y[0].mul_(2).grad_fn.name()", "w.requires_grad_(False)", "i.requires_grad_()",
        "t.tensor([1, 2], requires_grad=True)", "w.sum().backward(t.ones(2))",
        "w.backward()", "y.backward()", "w.sum().backward(1.0)", "x.sum().backward()"],
    "creation": [
        "t.tensor(None)", "t.tensor([1j])", "t.tensor(2**63)", "t.tensor([[1, 2], [3]])",
        "t.tensor('a')", "t.tensor([])", "t.zeros(-1)", "t.zeros(2, -3)", "t.ones((2,), 3)",
        "t.full((2,), 'a')", "t.arange(0, 5, 0)", "t.arange(5, 0)", "t.arange(0, 1, 0.3)",
        "t.empty(2.5)", "t.zeros_like(None)", "t.tensor(np.array([1, 2], dtype=np.int32))",
        "t.tensor(np.array([1, 2], dtype=np.uint8))", "t.tensor(np.float16(1.5))",
        "t.tensor([True, 2])", "t.tensor([1, 2.5])", "t.tensor(x)", *probes_args.CREATION],
    "conversion": [
        "x.to('a')", "x.to(t.int64)", "x.to(None)", "i.float().dtype", "x.long()",
        "x.type(t.float64).dtype", "x.item()", "s.item()", "x.tolist()", "int(x)", "float(s)",
        "bool(x)", "x.numpy().dtype", "w.numpy()", "len(s)", "len(x)", "x.element_size()",
        "x.__index__()", *probes_args.CONVERSION],
    "nn layers": [
        "nn.Linear(3, 2)(i)", "nn.Linear(3, 2)(x.t())", "nn.Linear(-1, 2)", "nn.Linear(3, 2)(None)",
        "nn.Conv2d(2, 3, 3)(x)", "nn.Conv2d(2, 3, 3)(img[:, :1])", "nn.Conv2d(2, 3, 0)",
        "nn.BatchNorm2d(3)(img)", "nn.BatchNorm2d(2)(img[:1, :, :1, :1]).shape",
        "nn.BatchNorm1d(3)(x)", "nn.MaxPool2d(5)(img)", "nn.MaxPool2d(2)(x)",
        "nn.AvgPool2d(5)(img)",
        "nn.Dropout(1.5)", "nn.Dropout(-0.1)", "nn.Flatten()(s)", "nn.Softmax()(x).shape",
        "nn.Sequential(None)", "nn.Sequential(nn.ReLU(), 3)", "nn.Identity()(None)",
        "nn.MSELoss()(x, v[:2])", "nn.MSELoss()(x, i)",
        "nn.CrossEntropyLoss()(x, t.tensor([0, 3]))",
        "nn.CrossEntropyLoss()(x, t.tensor([0.0, 1.0]))", "nn.NLLLoss()(x, t.tensor([0]))",
        "nn.NLLLoss()(x, t.tensor([[0, 1]]))", *probes_args.NN_LAYERS, *probes_nn.LAYERS],
    "nn functional": [
        "F.relu(None)", "F.relu(x, inplace=True).data_ptr() == x.data_ptr()",
        "F.relu(w, inplace=True)", "F.softmax(x, 2)", "F.log_softmax(x, dim='a')",
        "F.linear(x, m[:2], v)", "F.linear(x, m, v[:2])",
        "F.linear(i, i)", "F.conv2d(img, x)", "F.conv2d(img, img[:3], stride=0)",
        "F.conv2d(img, img[:3, :, :3, :3], padding=-1)", "F.max_pool2d(img, 0)",
        "F.max_pool2d(img, 2, padding=2)", "F.avg_pool2d(img, 2, stride=-1)",
        "F.dropout(x, 2.0)", "F.dropout(x, 0.5, training=False).sum()",
        "~ F.dropout(x, 0.5, inplace=True)._version",
        "F.dropout(x, p=0.0, inplace=True)._version", "F.mse_loss(x, v)", "F.mse_loss(x, x.t())",
        "F.nll_loss(x, t.tensor([0, 5]))", "F.nll_loss(x, t.tensor([0, 1]), reduction='a')",
        "F.cross_entropy(x, t.tensor([0, -1]))", "F.cross_entropy(x, t.tensor([0, -100]))",
        "F.batch_norm(img, None, None, training=False)",
        "F.batch_norm(img, t.zeros(3), t.ones(3), training=True)", "hasattr(F, 'flatten')",
        *probes_args.NN_FUNCTIONAL, *probes_nn.FUNCTIONAL],
    "module-level functions": probes_args.MODULE_FUNCTIONS,
    "keyword arguments": probes_args.KEYWORDS,
    "keyword forms (varargs sizes)": probes_keywords.VARARGS,
    "keyword forms (shape methods)": probes_keywords.DIMS,
    "keyword forms (reductions)": probes_keywords.REDUCTIONS,
    "keyword forms (operands)": probes_keywords.OPERANDS,
    "keyword forms (conversions)": probes_keywords.CONVERSIONS,
    "keyword forms (functions)": probes_keywords.FUNCTIONS,
    "out= where torch has none": probes_keywords.OUT_WHERE_NONE,
    "keyword forms (creation)": probes_keywords.CREATION,
    "binding every method": probes_keywords.BINDING,
    "issue 10 ops": [*probes_args.JOIN, *probes_args.GATHER_SCATTER, *probes_args.INDEX_OPS,
                     *probes_args.MASKED, *probes_args.REORDER, *probes_args.TRIANGULAR,
                     *probes_args.SCAN, *probes_args.SORTING, *probes_args.NORMS,
                     *probes_args.DIMS, *probes_args.MORE_ISSUE_10, *probes_args.BATCH_3],
    "half-written by PyTorch": [*probes_args.HALF_WRITTEN_BY_TORCH, *probes_nnops.HALF_WRITTEN,
                                *probes_divmem.HALF_WRITTEN],
    "nn options (nnops)": probes_nnops.OPTIONS,
    "div rounding modes (divmem)": probes_divmem.DIV,
    "memory formats (divmem)": probes_divmem.MEMORY_FORMATS,
    "out= of issue 10's ops": probes_args.OUT_FORMS,
    "out= checks (every family)": probes_outgrow.OUT_CHECKS,
    "out= pairs (values, indices)": probes_outgrow.OUT_PAIRS,
    "random fills (issue 10)": probes_args.RANDOM_FILLS,
    "last session's ops (probes2)": [
        *probes_probes2.NORMAL, *probes_probes2.NORMS, *probes_probes2.ANY_ALL,
        *probes_probes2.REDUCTIONS, *probes_probes2.CLOSENESS, *probes_probes2.FACTORIES,
        *probes_probes2.SHAPES, *probes_probes2.MASKED_SELECT, *probes_probes2.VIEW_DTYPE,
        *probes_probes2.WHERE, *probes_probes2.SORT_NONZERO, *probes_probes2.POOLING,
        *probes_probes2.ROUND_2],
    "svdvals, embedding, out= of outer/masked_select (probes2)": [
        *probes_probes2.SVDVALS, *probes_probes2.EMBEDDING, *probes_probes2.OUT_NNREST],
    "selecting reductions (selectops)": [
        *probes_selectops.KTHVALUE, *probes_selectops.MEDIAN, *probes_selectops.MODE,
        *probes_selectops.CUMMAX, *probes_selectops.AMINMAX],
    "SVD: linalg.svd, torch.svd, svdvals (svd)": [
        *probes_svd.LINALG_SVD, *probes_svd.LINALG_SVD_OUT, *probes_svd.TORCH_SVD,
        *probes_svd.SVDVALS],
    "last two sessions' ops (probes3)": probes_probes3.PROBES3,
    "probes3's finds in other helpers' files": probes_probes3.OTHER_OWNERS,
    "sparse gradients (probes3)": probes_probes3.NO_SPARSE,
    "positive, angle, signbit (miscops)": probes_miscops.SIGN_ANGLE,
    "F.pad modes and padding layers (miscops)": probes_miscops.PAD,
    "module-level functions, generic (funcsig)": probes_funcsig.GENERIC,
    "numbers as tensors, deprecated forms (funcsig)": probes_funcsig.NUMBERS,
    "function binding (funcsig)": probes_funcsig.BINDING,
    "factory keywords (funcsig)": probes_funcsig.FACTORIES,
    "hand-bound functions (funcsig)": probes_funcsig.HAND_BOUND,
    "linalg, F bindings, max_pool2d, norms' out= (funcsig)": [
        *probes_funcsig.MAX_POOL, *probes_funcsig.NORM_OUT, *probes_funcsig.LINALG_NN,
        *probes_funcsig.DIM_UNPACK, *probes_funcsig.SPARSE_GRAD],
    "functions learners type (funcs)": probes_funcs.FUNCS,
    "torch.<op>_ twins, good calls (twins)": [*probes_twins.GOOD, *probes_twins.DROPOUT],
    "torch.<op>_ twins, refused calls (twins)": probes_twins.REFUSED,
    "F.elu, F.leaky_relu_ ... and their layers (twins)": [*probes_twins.ACTIVATIONS,
                                                          *probes_twins.MODULES],
    "out_dtype= of the matrix products (i11)": probes_i11.OUT_DTYPE,
    "clamp/threshold/searchsorted out=, var dof, bincount grad (i11)": probes_i11.LEFTOVERS,
    "size/stride dims, requires_grad bools (lead)": probes_lead.TENSOR_ARGUMENTS,
    "x.T, x.mT, x.H, x.mH, x.adjoint() (lead)": probes_lead.TRANSPOSES,
    "integer pow's exponent overflow (lead)": probes_lead.INT_EXPONENTS,
    "deprecated forms, scalars first (twins)": probes_twins.DEPRECATED,
    "F.silu, F.mish, F.hardswish, F.hardsigmoid and layers (activations)": [
        *probes_activations.SELF_GATED, *probes_activations.SELF_GATED_MODULES],
    "F.softplus, logsigmoid, the shrinks, glu, prelu and layers (activations)": [
        *probes_activations.OTHERS, *probes_activations.OTHER_MODULES,
        *probes_activations.OUT],
    "x.device, torch.device (misc)": [*probes_misc.TENSOR_DEVICE, *probes_misc.CONSTRUCTOR,
                                      *probes_misc.CUDA_MODULE],
    "device= arguments, to(), cpu(), cuda() (misc)": [*probes_misc.ARGUMENTS,
                                                       *probes_misc.TO_CPU_CUDA,
                                                       *probes_misc.NN_DEVICE,
                                                       *probes_misc.PINNED],
    "nn layers' device=, Module.to (misc)": probes_misc.NN_DEVICE_ELSEWHERE,
    "a device in type errors (misc)": probes_misc.DEVICE_IN_TYPE_ERRORS,
    "nn.Module.to, cpu, cuda, float ..., type (module-device)": probes_module_device.MODULE_TO,
    "device= and dtype= of nn layers (module-device)": probes_module_device.LAYER_FACTORIES,
    "type names in parser errors (module-device)": probes_module_device.TYPE_NAMES,
    "ints beyond 64 bits as Scalars (module-device)": probes_module_device.BIG_INTS,
    "unsigned Scalars in bitwise ops, arange's sizes, types before ints (last-bits)": [
        *probes_last_bits.UNSIGNED_BITWISE, *probes_last_bits.ARANGE,
        *probes_last_bits.TYPES_BEFORE_UNPACKING],
    "keywords unpacked from a dict, f(**d) (last-bits)": probes_last_bits.KEYWORDS_UNPACKED,
    "resize_, resize_as_ (resize-set)": [*probes_resize.RESIZE, *probes_resize.RESIZE_AS],
    "erf, lgamma, digamma ... in place and out (special)": [*probes_special.UNARY,
                                                            *probes_special.SPECIAL,
                                                            *probes_special.TWINS],
    "polygamma, mvlgamma (special)": [*probes_special.POLYGAMMA, *probes_special.MVLGAMMA],
    "set_ (resize-set)": probes_resize.SET,
    "igamma, igammac (special)": probes_special.IGAMMA,
    "share_memory_, apply_, map_, map2_ (resize-set)": [*probes_resize.SHARE,
                                                        *probes_resize.CALLBACKS],
    "modes and misc": [
        *probes_args.SEEDS, "t.set_grad_enabled('a')", "callable(t.no_grad(1))",
        "t.manual_seed('a')",
        "t.manual_seed(-1) is None",
        "t.where(b, 1.0, 0.0)", "t.where(b, x, 0.0)", "t.where(x, x, x)", "t.where(b, x, v[:2])",
        "t.maximum(x, 1)", "t.maximum(x, i)", "x.max(v)", "t.is_tensor(1)", "t.is_grad_enabled()",
        "t.is_tensor(x)"],
}

# funcsig's generated calls (every function x four bad calls) meet lines other classes wrote
# by hand: each probe is kept once, in the class that had it first
_SEEN: set = set()
for _cls, _codes in PROBES.items():
    PROBES[_cls] = [c for c in dict.fromkeys(_codes) if c not in _SEEN]
    _SEEN.update(PROBES[_cls])

OWNER = {  # which helper's files hold the fix for a class (HELPERS.md)
    "operand type (binary in-place)": "pointwise", "operand type (out-of-place)": "pointwise",
    "operand type (operators)": "pointwise", "scalar arguments (alpha, value)": "pointwise",
    "clamp bounds": "pointwise", "unary in-place on odd dtypes": "pointwise",
    "in-place result dtype": "pointwise", "random fills": "pointwise", "fill and copy": "pointwise",
    "shapes and broadcasting": "shapes", "views and sizes": "shapes", "indexing": "shapes",
    "setitem": "shapes", "reductions": "shapes", "matrix products": "shapes",
    "creation": "dtypes", "conversion": "dtypes", "autograd rules": "autograd",
    "modes and misc": "autograd", "nn layers": "nnops", "nn functional": "nnops",
    "module-level functions": "probes", "zero-argument methods": "probes",
    "keyword arguments": "probes", "issue 10 ops": "probes",
    **{c: "keywords" for c in ("keyword forms (varargs sizes)", "keyword forms (shape methods)",
                               "keyword forms (reductions)", "keyword forms (operands)",
                               "keyword forms (conversions)", "keyword forms (functions)",
                               "out= where torch has none", "keyword forms (creation)",
                               "binding every method")},
    "random fills (issue 10)": "probes",
    "out= of issue 10's ops": "outgrow", "out= checks (every family)": "outgrow",
    "out= pairs (values, indices)": "outgrow",
    "half-written by PyTorch": "none: the core validates before its first write, as promised",
    "nn options (nnops)": "nnops",
    "last session's ops (probes2)": "probes2",
    "svdvals, embedding, out= of outer/masked_select (probes2)":
        "nnrest",
    "selecting reductions (selectops)": "selectops",
    "div rounding modes (divmem)": "divmem", "memory formats (divmem)": "divmem",
    "last two sessions' ops (probes3)": "probes3",
    "probes3's finds in other helpers' files": "overlap, funcsig (probes_probes3.OTHER_OWNERS)",
    "sparse gradients (probes3)": "none: the core has no sparse tensors",
    "positive, angle, signbit (miscops)": "miscops",
    "F.pad modes and padding layers (miscops)": "miscops",
    "SVD: linalg.svd, torch.svd, svdvals (svd)": "svd",
    "functions learners type (funcs)": "funcs",
    "torch.<op>_ twins, good calls (twins)": "twins",
    "torch.<op>_ twins, refused calls (twins)": "twins",
    "F.elu, F.leaky_relu_ ... and their layers (twins)": "twins",
    "out_dtype= of the matrix products (i11)": "i11",
    "clamp/threshold/searchsorted out=, var dof, bincount grad (i11)": "i11",
    "size/stride dims, requires_grad bools (lead)": "lead",
    "x.T, x.mT, x.H, x.mH, x.adjoint() (lead)": "lead",
    "integer pow's exponent overflow (lead)": "lead",
    "deprecated forms, scalars first (twins)": "twins",
    "F.silu, F.mish, F.hardswish, F.hardsigmoid and layers (activations)": "activations",
    "F.softplus, logsigmoid, the shrinks, glu, prelu and layers (activations)": "activations",
    "x.device, torch.device (misc)": "parity-misc",
    "device= arguments, to(), cpu(), cuda() (misc)": "parity-misc",
    # (nn/linear.py, nn/module.py; nn/conv.py, nn/batchnorm.py; nn/activation.py)
    "nn layers' device=, Module.to (misc)": "perf-forward, perf-relu-cnn, activations",
    "a device in type errors (misc)": "perf-forward (invalid_arguments.type_name)",
    "nn.Module.to, cpu, cuda, float ..., type (module-device)": "module-device",
    "device= and dtype= of nn layers (module-device)": "module-device",
    "type names in parser errors (module-device)": "module-device",
    # (arg_parser.is_number; the float fast path ops/elementwise.py:_plain_args; pow's
    # unsigned scalars; bitwise ops', arange, rsub and add_'s argument order: last-bits)
    "ints beyond 64 bits as Scalars (module-device)": "module-device, fma",
    "unsigned Scalars in bitwise ops, arange's sizes, types before ints (last-bits)":
        "last-bits",
    "keywords unpacked from a dict, f(**d) (last-bits)": "last-bits",
    "resize_, resize_as_ (resize-set)": "resize-set", "set_ (resize-set)": "resize-set",
    "share_memory_, apply_, map_, map2_ (resize-set)": "resize-set",
    **{c: "funcsig" for c in ("module-level functions, generic (funcsig)",
                              "numbers as tensors, deprecated forms (funcsig)",
                              "function binding (funcsig)", "factory keywords (funcsig)",
                              "hand-bound functions (funcsig)",
                              "linalg, F bindings, max_pool2d, norms' out= (funcsig)")},
    "erf, lgamma, digamma ... in place and out (special)": "special",
    "polygamma, mvlgamma (special)": "special",
    "igamma, igammac (special)": "special",
}


def all_probes() -> list[tuple[str, str]]:
    return [(cls, code) for cls, codes in PROBES.items() for code in codes]


def known(code: str) -> bool:
    from .probe_known import KNOWN_DIFFERENT

    return any(code in s for s in KNOWN_DIFFERENT.values())


def survey(torch_mod, core_mod) -> dict[str, Counter]:
    """Agree / differ counts by class (and the differing probes' first lines)."""
    out: dict[str, Counter] = {}
    for cls, code in all_probes():
        ok = not differences(torch_mod, core_mod, code)
        out.setdefault(cls, Counter())["agree" if ok else "differ"] += 1
    return out


if __name__ == "__main__":
    import torch

    import inplace_tutorial

    torch.set_num_threads(1)  # as the test suite runs torch (conftest.py): a probe writing into
    # an expanded out= gives a thread-dependent answer

    verbose = "-v" in sys.argv
    total: Counter = Counter()
    differ: dict[str, list[str]] = {}
    for cls, code in all_probes():
        d = differences(torch, inplace_tutorial, code)
        total["agree" if not d else "differ"] += 1
        total[(cls, "agree" if not d else "differ")] += 1
        if d and verbose:
            print("\n".join(d)[:600])
            print("-" * 60)
        if d:
            differ.setdefault(cls, []).append(code)
    for cls in PROBES:
        print(f"{cls:<40} agree {total[(cls, 'agree')]:>4}  differ {total[(cls, 'differ')]:>4}")
    print(f"{'total':<40} agree {total['agree']:>4}  differ {total['differ']:>4}")
    if "--ledger" in sys.argv:
        lines = ['"""Probes of probes.py where the core differs from torch 2.13 (written by',
                 '``python -m tests.parity.probes --ledger``; the owner of each class is in',
                 'probes.OWNER). A fix removes its probe from here."""', "",
                 "KNOWN_DIFFERENT: dict[str, set[str]] = {"]
        for cls, codes in differ.items():
            lines.append(f"    {cls!r}: {{  # {OWNER[cls]}")
            lines += [f"        {c!r}," for c in codes]
            lines.append("    },")
        lines.append("}")
        with open(__file__.replace("probes.py", "probe_known.py"), "w") as f:
            f.write("\n".join(lines) + "\n")
