"""einsum's contraction paths on torch 2.13 and the core: the core multiplies pairs of operands
with np.matmul after permuting and merging their dimensions (ops/einsum.py), so every way a
label can be placed gets a program: batch, kept and summed labels in any order, a label only
one operand holds (summed out first), a diagonal ('ii'), size-1 labels broadcast against
size n, sizes of 0, three operands, and the gradients of the two-operand node.
"""

import pytest

from .harness import Registry, arr, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def _x(t, *shape, seed=0):
    return t.tensor(arr(*shape, seed=seed)).double()


@prog
def einsum_label_placements(t):
    a, b = _x(t, 3, 4, 5, seed=1), _x(t, 3, 5, 6, seed=2)
    g, h = _x(t, 4, 6, seed=3), _x(t, 2, 3, 4, 5, seed=4)
    return {
        "bij,bjk->ik": t.einsum("bij,bjk->ik", a, b),
        "bij,bjk->kib": t.einsum("bij,bjk->kib", a, b),
        "ik,bjk->bij": t.einsum("ik,bjk->bij", g, b.transpose(1, 2)),
        "ik,bij->bjk": t.einsum("ik,bij->bjk", g, a),
        "only_in_one": t.einsum("bij,bkl->ik", a, b),
        "outer": t.einsum("i,j->ji", a[0, :, 0], b[0, 0]),
        "dot": t.einsum("bij,bij->", a, a),
        "four_labels": t.einsum("abcd,cdbe->ae", h, _x(t, 4, 5, 3, 6, seed=5)),
        "transposed_operand": t.einsum("ji,jk->ik", a[0].t(), b[0]),
        "implicit": t.einsum("ij,kj", g, g),
        "upper_first": t.einsum("Ba,aB", g, g.t()),
    }


@prog
def einsum_one_operand(t):
    m = _x(t, 4, 4, seed=6)
    c = _x(t, 2, 3, 4, seed=7)
    return {"diag": t.einsum("ii->i", m), "trace": t.einsum("ii", m),
            "sum": t.einsum("ijk->", c), "permute": t.einsum("ijk->kij", c),
            "partial": t.einsum("ijk->ki", c)}


@prog
def einsum_diagonal_broadcast_and_empty(t):
    d = _x(t, 3, 3, 4, seed=8)
    return {
        "diagonal_pair": t.einsum("iij,jk->ik", d, _x(t, 4, 2, seed=9)),
        "broadcast_summed": t.einsum("ij,j->i", _x(t, 3, 1, seed=10), _x(t, 4, seed=11)),
        "broadcast_kept": t.einsum("ij,ij->i", _x(t, 1, 4, seed=12), _x(t, 3, 1, seed=13)),
        "broadcast_batch": t.einsum("bij,bjk->bik", _x(t, 1, 2, 3, seed=14),
                                    _x(t, 4, 3, 2, seed=15)),
        "empty_kept": t.einsum("ij,jk->ik", t.zeros(0, 3), t.ones(3, 2)),
        "empty_summed": t.einsum("ij,jk->ik", t.zeros(2, 0), t.ones(0, 2)),
    }


@prog
def einsum_three_operands(t):
    x, y, z = _x(t, 2, 3, seed=16), _x(t, 3, 4, seed=17), _x(t, 4, 5, seed=18)
    return {"chain": t.einsum("ij,jk,kl->il", x, y, z),
            "shared": t.einsum("ij,jk,ji->k", x, y, x.t())}


@prog
def einsum_gradients(t):
    out = {}
    for eq, sa, sb in [("bij,bjk->ik", (3, 4, 5), (3, 5, 6)),
                       ("ik,bij->bjk", (4, 6), (3, 4, 5)),
                       ("bij,bkl->ik", (3, 4, 5), (3, 2, 6)),
                       ("i,j->ji", (3,), (4,))]:
        a = _x(t, *sa, seed=19).requires_grad_()
        b = _x(t, *sb, seed=20).requires_grad_()
        r = t.einsum(eq, a, b)
        r.backward(_x(t, *r.shape, seed=21))
        out[eq] = (r, a.grad, b.grad)
    return out


@pytest.mark.parametrize("prog", prog.params())
def test_einsum_contract_parity(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)
