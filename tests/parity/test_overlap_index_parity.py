"""Index ops whose source shares cells with the tensor they write, where torch's overlap check
lets it through (neither is dense: ``x[:, :5].index_copy_(1, i, x[:, 1:6])``), in torch's
default (not deterministic) mode. put_ reads each
source element just before its own write, in TensorIterator's order over (source, index), so
a source cell written earlier is read new (ops/put_take.py:_put_in_order); the index, scatter
and masked ops agree with torch's loops as they are. One thread, as the core.
"""

import numpy as np
import pytest

from .harness import Registry, compare, run

pytestmark = pytest.mark.parity

prog = Registry()


@pytest.fixture(autouse=True)
def _default_determinism(torch_mod):
    """The parity session turns on torch.use_deterministic_algorithms, under which put_
    refuses to run (and index_put_ sorts its indices first); these programs compare
    PyTorch's default mode, which the core follows."""
    torch_mod.use_deterministic_algorithms(False)
    yield
    torch_mod.use_deterministic_algorithms(True)


def _x(t, rows=3, cols=40):
    return t.tensor(((np.arange(rows * cols) % 7) * 0.37 + 1.1).astype(np.float32)
                    .reshape(rows, cols))


def _index(n, kind):
    return {"ar": np.arange(n), "rev": np.arange(n)[::-1].copy(),
            "perm": np.random.default_rng(3).permutation(n)}[kind]


def _put(kind, shift, accumulate, transposed=False, flat=False):
    def program(t):
        x = _x(t)
        n = 15
        self_ = x[:, 5:5 + n]
        src = x[:, 5 + shift:5 + shift + n]
        idx = np.tile(_index(n, kind), (3, 1)) + np.arange(3)[:, None] * n
        if transposed:
            src, idx = src.t(), idx.T.copy()
        i = t.tensor(idx.reshape(-1) if flat else idx)
        self_.put_(i, src, accumulate=accumulate)
        return x, x._version
    program.__name__ = (f"put_{kind}_{shift}" + ("_acc" if accumulate else "")
                        + ("_t" if transposed else "") + ("_flat" if flat else ""))
    return program


for _kind in ("ar", "rev", "perm"):
    for _shift in (-1, 1, -2):
        prog(_put(_kind, _shift, False))
        prog(_put(_kind, _shift, True))
for _args in (("ar", -1, False, True), ("perm", 1, True, True), ("rev", -1, False, False, True),
              ("ar", -2, True, True, True)):
    prog(_put(*_args))


@prog
def put_negative_indices_and_repeats(t):
    """-1 is self's last element; a repeated index: the last write wins, or every add counts."""
    out = {}
    for acc in (False, True):
        x = _x(t, 2, 12)
        x[:, :6].put_(t.tensor([-1, 0, 0, 5, -1, 3, 2, 2]), x[:, 1:5], accumulate=acc)
        out[acc] = x
    return out


def _other(op, kind, shift):
    """index_copy_/index_add_/scatter_/scatter_add_/masked_scatter_/index_put_ with the source
    a shifted view of self along the indexed dim."""
    def program(t):
        x = _x(t)
        n = 15
        self_, src = x[:, 5:5 + n], x[:, 5 + shift:5 + shift + n]
        i = t.tensor(_index(n, kind))
        s = t.tensor(np.tile(_index(n, kind), (3, 1)))
        if op == "index_copy_":
            self_.index_copy_(1, i, src)
        elif op == "index_add_":
            self_.index_add_(1, i, src, alpha=2)
        elif op == "scatter_":
            self_.scatter_(1, s, src)
        elif op == "scatter_add_":
            self_.scatter_add_(1, s, src)
        elif op == "masked_scatter_":
            self_.masked_scatter_(self_ > 2, src)
        else:
            self_.index_put_((t.arange(3)[:, None], s), src, accumulate=op.endswith("acc"))
        return x, x._version
    program.__name__ = f"{op}_{kind}_{shift}"
    return program


for _op in ("index_copy_", "index_add_", "scatter_", "scatter_add_", "masked_scatter_",
            "index_put_", "index_put_acc"):
    for _kind, _shift in (("ar", -1), ("rev", 1), ("perm", -2)):
        prog(_other(_op, _kind, _shift))


@pytest.mark.parametrize("prog", prog.params())
def test_overlap_index_parity(prog, torch_mod, core):
    diffs = compare(run(torch_mod, prog), run(core, prog))
    assert not diffs, "\n".join(d[:1500] for d in diffs)
