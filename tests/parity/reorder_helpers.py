"""Observation helpers shared by the shape-op parity files (test_reorder_parity.py,
test_reorder_sort_norm_parity.py)."""

from .harness import arr, fn_name, leaf, meta, upstream


def saved(fn):
    """Every ``_saved_*`` attribute of a node: names, and values (tensors compared too)."""
    if fn is None:
        return None
    return {n: getattr(fn, n) for n in sorted(dir(fn)) if n.startswith("_saved_")}


def grad_of(t, make, *shapes, seed=5):
    """Gradient of ``make(*leaves)`` under a fixed upstream gradient, with node and saved."""
    leaves = [leaf(t, arr(*s, seed=seed + i)) for i, s in enumerate(shapes)]
    y = make(*leaves)
    first = y[0] if isinstance(y, tuple) else y
    out = {"fn": fn_name(first.grad_fn), "saved": saved(first.grad_fn), "value": first}
    first.backward(upstream(t, first))
    out["grads"] = [a.grad for a in leaves]
    return out


def layouts(t, op):
    """op on contiguous, transposed, sliced and permuted inputs: values and layouts."""
    x = t.tensor(arr(4, 6, seed=3))
    b = t.tensor(arr(2, 3, 4, seed=4))
    out = {}
    for name, v in (
        ("contig", x),
        ("t", x.t()),
        ("sliced", x[:, ::2]),
        ("perm", b.permute(2, 0, 1)),
        ("row", x[1:3]),
    ):
        r = op(v)
        out[name] = (r, meta(r))
    return out
