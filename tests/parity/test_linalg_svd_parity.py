"""torch.linalg.svd on torch 2.13 and the core: U, S, Vh as far as they are defined, their
layouts, the named tuple, full_matrices, the empty and NaN cases, error texts, and the backward
through all three outputs (LinalgSvdBackward0: saved fields, gradients, version checks,
PyTorch's inf/NaN where svd_backward divides by zero).

U and Vh are fixed only up to a sign per singular triple (MKL and OpenBLAS pick differently),
so they are compared through what does not depend on it: each term u_j v_jᵀ, UᵀU, VhVhᵀ, and
the projector onto the columns of a full U (rows of a full Vh) past k = min(m, n). Losses
that reach U and Vh are sign-invariant too (|U|, u_j v_jᵀ), so their gradients are defined.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, leaf, meta, upstream, warned

pytestmark = pytest.mark.parity

prog = Registry()
F64 = np.float64


def gauge(r):
    """What an SVD result (U, S, Vh) determines whatever the signs LAPACK picked."""
    U, S, Vh = r
    k = S.shape[-1]
    Uk, Vk = U[..., :, :k], Vh[..., :k, :]
    out = {"S": S, "metas": [meta(U), meta(S), meta(Vh)],
           "terms": Uk.unsqueeze(-1) * Vk.unsqueeze(-3),  # (..., m, k, n): u_j v_jᵀ
           "UtU": U.mT @ U, "VVt": Vh @ Vh.mT,
           "requires_grad": [U.requires_grad, S.requires_grad, Vh.requires_grad]}
    if U.shape[-1] > k:
        out["U_rest"] = U[..., k:] @ U[..., k:].mT
    if Vh.shape[-2] > k:
        out["Vh_rest"] = Vh[..., k:, :].mT @ Vh[..., k:, :]
    return out


def svd_saved(fn):
    """LinalgSvdBackward0's saved fields (U and Vh through gauge)."""
    return {"name": type(fn).__name__, "full_matrices": fn._saved_full_matrices,
            "k": fn._saved_S_sym_argsize_minus_1,
            "saved": gauge((fn._saved_U, fn._saved_S, fn._saved_Vh)),
            "names": sorted(n for n in dir(fn) if n.startswith("_saved_"))}


SHAPES = [(4, 3), (3, 4), (3, 3), (2, 5, 3), (2, 3, 5), (1, 1), (5, 1), (1, 5), (2, 1, 3, 2)]


@prog
def linalg_svd_values(t):
    out = {}
    for i, shape in enumerate(SHAPES):
        x = t.tensor(arr(*shape, seed=40 + i, dtype=F64))
        for full in (True, False):
            out[f"{shape}_{full}"] = gauge(t.linalg.svd(x, full_matrices=full))
        out[f"{shape}_default"] = gauge(t.linalg.svd(x))
        out[f"{shape}_positional"] = gauge(t.linalg.svd(x, False))
    return out


@prog
def linalg_svd_layouts_and_dtypes(t):
    x = t.tensor(arr(4, 6, seed=50))
    b = t.tensor(arr(3, 4, 5, seed=51))
    return {
        "float32": gauge(t.linalg.svd(x)),
        "float32_reduced": gauge(t.linalg.svd(x, full_matrices=False)),
        "transposed": gauge(t.linalg.svd(x.t(), full_matrices=False)),
        "strided": gauge(t.linalg.svd(x[:, ::2])),
        "expanded": gauge(t.linalg.svd(x.unsqueeze(0).expand(2, 4, 6), full_matrices=False)),
        "batch_permuted": gauge(t.linalg.svd(b.permute(2, 0, 1), full_matrices=False)),
        "batch_full": gauge(t.linalg.svd(b)),
        "float64": gauge(t.linalg.svd(x.double(), full_matrices=False)),
        "storages": (t.linalg.svd(x)[0].untyped_storage().nbytes(),
                     t.linalg.svd(x)[2].untyped_storage().nbytes()),
        "input_version": x._version,
    }


@prog
def linalg_svd_empty(t):
    out = {}
    for shape in [(0, 3), (3, 0), (2, 0, 3), (2, 3, 0), (0, 3, 2), (0, 0)]:
        x = t.zeros(shape)
        for full in (True, False):
            r = t.linalg.svd(x, full_matrices=full)
            out[f"{shape}_{full}"] = {"values": tuple(r), "metas": [meta(a) for a in r]}
    out["driver_empty"] = t.linalg.svd(t.zeros(0, 3), driver="gesvd")
    out["half_empty"] = catch(lambda: t.linalg.svd(t.zeros(0, 3).half()))
    out["svdvals_driver_empty"] = t.linalg.svdvals(t.zeros(3, 0), driver="gesvd")
    return out


@prog
def linalg_svd_named_tuple(t):
    x = t.tensor(arr(3, 2, seed=52, dtype=F64))
    r = t.linalg.svd(x)
    U, S, Vh = r
    return {
        "type": type(r).__name__, "is_tuple": isinstance(r, tuple), "len": len(r),
        "fields": (r.U is U, r.S is S, r.Vh is Vh, r[1] is S),
        "repr_head": repr(r).split("\n")[0], "repr_fields": [
            line.split("=")[0] for line in repr(r).split("\n") if "=tensor(" in line],
    }


@prog
def linalg_svd_errors(t):
    x = t.zeros(3, 4)
    v = t.zeros(4)
    return {
        "1d": catch(lambda: t.linalg.svd(v)),
        "0d": catch(lambda: t.linalg.svd(t.tensor(1.0))),
        "long": catch(lambda: t.linalg.svd(x.long())),
        "bool": catch(lambda: t.linalg.svd(x.bool())),
        "half": catch(lambda: t.linalg.svd(x.half())),
        "bf16": catch(lambda: t.linalg.svd(x.bfloat16())),
        "driver": catch(lambda: t.linalg.svd(x, driver="gesvd")),
        "driver_1d": catch(lambda: t.linalg.svd(v, driver="gesvd")),
        "driver_half": catch(lambda: t.linalg.svd(x.half(), driver="gesvd")),
        "driver_none": tuple(t.linalg.svd(x, driver=None)[1].shape),
        "driver_int": catch(lambda: t.linalg.svd(x, driver=3)),
        "three_positional": catch(lambda: t.linalg.svd(x, False, 1)),
        "full_int": catch(lambda: t.linalg.svd(x, full_matrices=1)),
        "full_none": catch(lambda: t.linalg.svd(x, full_matrices=None)),
        "none": catch(lambda: t.linalg.svd(None)),
        "list": catch(lambda: t.linalg.svd([[1.0, 2.0]])),
        "kw_foo": catch(lambda: t.linalg.svd(x, foo=1)),
        "kw_A": tuple(t.linalg.svd(A=x)[0].shape),
        "kw_A_twice": catch(lambda: t.linalg.svd(x, A=x)),
        "missing": catch(lambda: t.linalg.svd()),
        "kw_full": tuple(t.linalg.svd(x, full_matrices=False)[2].shape),
    }


@prog
def linalg_svd_nan_input(t):
    nan = float("nan")
    m = t.tensor([[nan, 1.0], [2.0, 3.0]])
    b = t.tensor(arr(3, 2, 2, seed=53))
    b[1, 0, 1] = nan
    b2 = t.tensor(arr(3, 2, 2, seed=54))
    b2[2, 1, 1] = nan
    b2[2, 0, 0] = nan
    return {
        "matrix": catch(lambda: t.linalg.svd(m)),
        "batch_1": catch(lambda: t.linalg.svd(b)),
        "batch_2": catch(lambda: t.linalg.svd(b2, full_matrices=False)),
        "batch_of_one": catch(lambda: t.linalg.svd(m.unsqueeze(0))),
        "type": catch(lambda: isinstance(catch(lambda: t.linalg.svd(m)), Exception)),
        "is_linalg_error": _raised_type(t, lambda: t.linalg.svd(m)),
        "svdvals": catch(lambda: t.linalg.svdvals(m)),
        "nuc": catch(lambda: t.linalg.matrix_norm(m, "nuc")),
        "nan_in_empty_batch": t.linalg.svd(t.zeros(0, 2, 2))[1].shape,
    }


def _raised_type(t, fn):
    try:
        fn()
    except t.linalg.LinAlgError as e:
        return ("LinAlgError", isinstance(e, RuntimeError))
    return None


@prog
def linalg_svd_out(t):
    x = t.tensor(arr(3, 4, seed=55, dtype=F64))

    def outs(*shapes, dtype=t.float64):
        return tuple(t.empty(s, dtype=dtype) for s in shapes)

    def into(full, o, **kwargs):
        r, warnings = warned(lambda: t.linalg.svd(x, full, out=o, **kwargs))
        if not isinstance(r, tuple):
            return r, warnings, [meta(a) for a in o]
        return {"type": type(r).__name__, "same": [a is b for a, b in zip(r, o)],
                "gauge": gauge(o), "versions": [a._version for a in o], "warnings": warnings}

    transposed = (t.empty(3, 3, dtype=t.float64).t(), t.empty(3, dtype=t.float64),
                  t.empty(4, 4, dtype=t.float64).t())
    strided = (t.empty(3, 6, dtype=t.float64)[:, ::2], t.empty(6, dtype=t.float64)[::2],
               t.empty(3, 4, dtype=t.float64))
    return {
        "right_shapes": into(True, outs((3, 3), (3,), (4, 4))),
        "empty": into(True, outs((0,), (0,), (0,))),
        "empty_reduced": into(False, outs((0,), (0,), (0,))),
        "wrong_shapes": into(True, outs((2, 2), (5,), (4, 4))),
        "transposed": into(True, transposed),
        "strided": into(False, strided),
        "list": into(False, list(outs((0,), (0,), (0,)))),
        "dtype_U": into(True, outs((0,), (0,), (0,), dtype=t.float32)),
        "dtype_S": into(True, (t.empty(0, dtype=t.float64), t.empty(0),
                               t.empty(0, dtype=t.float64))),
        "dtype_Vh_after_resize": into(True, (t.empty(2, 2, dtype=t.float64),
                                             t.empty(5, dtype=t.float64), t.empty(0).long())),
        "two": catch(lambda: t.linalg.svd(x, out=outs((0,), (0,)))),
        "four": catch(lambda: t.linalg.svd(x, out=outs((0,), (0,), (0,), (0,)))),
        "ints": catch(lambda: t.linalg.svd(x, out=(1, 2, 3))),
        "tensor": catch(lambda: t.linalg.svd(x, out=t.empty(3))),
        "none_in": catch(lambda: t.linalg.svd(x, out=(t.empty(0), None, t.empty(0)))),
        "requires_grad": catch(lambda: t.linalg.svd(leaf(t, arr(3, 4)), out=outs(
            (0,), (0,), (0,), dtype=t.float32))),
        "out_requires_grad": catch(lambda: t.linalg.svd(x, out=(
            t.empty(0, dtype=t.float64, requires_grad=True), *outs((0,), (0,))))),
        "1d": catch(lambda: t.linalg.svd(x[0], out=outs((2,), (5,), (4, 4)))),
        "driver": into(True, outs((2,), (0,), (0,)), driver="gesvd"),
        "nan": catch(lambda: t.linalg.svd(x * float("nan"), out=outs((0,), (0,), (0,)))),
    }


@prog
def linalg_svd_out_empty_input(t):
    o = (t.empty(5), t.empty(0), t.empty(0))
    r, w = warned(lambda: t.linalg.svd(t.zeros(2, 0, 3), out=o))
    return {"values": tuple(r), "metas": [meta(a) for a in o], "warnings": w,
            "versions": [a._version for a in o]}


def _sign_free(t, U, S, Vh, w=None):
    """A loss through all three outputs that no sign choice changes."""
    k = S.shape[-1]
    terms = U[..., :, :k].unsqueeze(-1) * Vh[..., :k, :].unsqueeze(-3)
    w = t.tensor(arr(*terms.shape, seed=60, dtype=F64)) if w is None else w
    return (terms * w).sum() + (S * S).sum() * 0.5


@prog
def linalg_svd_grads(t):
    out = {}
    losses = {
        "U_abs": lambda U, S, Vh: U.abs().sum(),
        "Vh_abs": lambda U, S, Vh: (Vh.abs() * 1.5).sum(),
        "S_only": lambda U, S, Vh: (S * t.tensor(arr(S.shape[-1], seed=61, dtype=F64))).sum(),
        "all": lambda U, S, Vh: _sign_free(t, U, S, Vh),
        "U_and_S": lambda U, S, Vh: U.abs().sum() + S.sum(),
        "Vh_and_S": lambda U, S, Vh: Vh.abs().sum() + (S * S).sum(),
    }
    for i, shape in enumerate([(4, 3), (3, 4), (3, 3), (2, 5, 3), (2, 3, 5)]):
        for full in (False, True):
            for name, loss in losses.items():
                a = leaf(t, arr(*shape, seed=70 + i, dtype=F64))
                r = t.linalg.svd(a, full_matrices=full)
                loss(*r).backward()
                out[f"{shape}_{full}_{name}"] = a.grad
    return out


@prog
def linalg_svd_grads_float32_and_upstream(t):
    a = leaf(t, arr(5, 3, seed=80))
    U, S, Vh = t.linalg.svd(a, full_matrices=False)
    (U.abs() * upstream(t, U)).sum().backward()
    b = leaf(t, arr(2, 3, 4, seed=81))
    U2, S2, Vh2 = t.linalg.svd(b)
    S2.backward(upstream(t, S2))
    c = leaf(t, arr(3, 4, seed=82, dtype=F64))
    r = t.linalg.svd(c.t() * 2, full_matrices=False)  # a non-leaf, transposed input
    (r.Vh.abs().sum() + r.U.abs().sum()).backward()
    return {"float32": a.grad, "S_upstream": b.grad, "non_leaf": c.grad,
            "grad_layout": (meta(a.grad), meta(b.grad), meta(c.grad))}


@prog
def linalg_svd_graph(t):
    a = leaf(t, arr(4, 3, seed=83, dtype=F64))
    U, S, Vh = t.linalg.svd(a)
    fn = U.grad_fn
    out = {
        "names": [type(z.grad_fn).__name__ for z in (U, S, Vh)],
        "one_node": (S.grad_fn is fn, Vh.grad_fn is fn),
        "output_nr": [z.output_nr for z in (U, S, Vh)],
        "next": [(type(f).__name__, i) for f, i in fn.next_functions],
        "leaf_view": [(z.is_leaf, z._is_view()) for z in (U, S, Vh)],
        "saved": svd_saved(fn),
        "saved_reduced": svd_saved(t.linalg.svd(a, full_matrices=False).S.grad_fn),
        "saved_wide_batch": svd_saved(t.linalg.svd(leaf(t, arr(2, 2, 5, seed=84)))[0].grad_fn),
        "versions": [z._version for z in (U, S, Vh)],
        "name": fn.name(),
    }
    with t.no_grad():
        out["no_grad"] = [z.requires_grad for z in t.linalg.svd(a)]
    out["not_requiring"] = [z.grad_fn is None for z in t.linalg.svd(a.detach())]
    return out


@prog
def linalg_svd_saved_outputs_modified(t):
    """U, S and Vh are saved as outputs: modifying one in place before backward raises,
    even for a loss that only reaches S; modifying A does not (A is not saved)."""
    out = {}
    for i, name in enumerate(("U", "S", "Vh")):
        a = leaf(t, arr(3, 3, seed=85, dtype=F64))
        r = t.linalg.svd(a)
        loss = r.S.sum()
        r[i].mul_(2)
        out[name] = (r[i]._version, catch(lambda loss=loss: loss.backward()))
    h = leaf(t, arr(3, 3, seed=86, dtype=F64)) * 1
    r = t.linalg.svd(h)
    h.add_(1)
    r.S.sum().backward()
    out["A_modified"] = h.grad_fn is not None
    a = leaf(t, arr(3, 3, seed=87, dtype=F64))
    U, S, Vh = t.linalg.svd(a)
    out["leaf_inplace"] = catch(lambda: U.add_(1)) is U
    out["S_inplace_then_use"] = catch(lambda: (S.mul_(2), (U * S).sum().backward()))
    return out


@prog
def linalg_svd_ill_defined(t):
    """PyTorch doesn't check for repeated or zero singular values: svd_backward divides by
    S_k² - S_j² and, for a rectangular A, by S, and returns what comes out."""
    out = {}
    cases = {
        "identity": np.eye(3),
        "repeated": np.diag([2.0, 1.0, 1.0]),
        "zero_tall": np.array([[3.0, 0, 0], [0, 2, 0], [0, 0, 0], [0, 0, 0]]),
        "zero_wide": np.array([[3.0, 0, 0], [0, 2, 0], [0, 0, 0], [0, 0, 0]]).T.copy(),
        "zeros": np.zeros((2, 3)),
    }
    losses = {"U": lambda U, S, Vh: U.abs().sum(), "Vh": lambda U, S, Vh: Vh.abs().sum(),
              "S": lambda U, S, Vh: S.sum(), "both": lambda U, S, Vh: _sign_free(t, U, S, Vh)}
    for cname, value in cases.items():
        for lname, loss in losses.items():
            a = leaf(t, value)
            r = t.linalg.svd(a, full_matrices=False)
            loss(*r).backward()
            out[f"{cname}_{lname}"] = a.grad
    return out


@prog
def linalg_svd_empty_grads(t):
    out = {}
    for shape in [(0, 3), (3, 0), (2, 0, 3), (2, 3, 0)]:
        for full in (True, False):
            a = leaf(t, np.zeros(shape))
            U, S, Vh = t.linalg.svd(a, full_matrices=full)
            (U.sum() + S.sum() + Vh.sum()).backward()
            out[f"{shape}_{full}"] = (a.grad, type(U.grad_fn).__name__)
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_linalg_svd_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
