"""torch.meshgrid, torch.cartesian_prod and torch.vander against torch 2.13.

meshgrid: views (ExpandBackward0 over ViewBackward0, stride 0 along the other dims), "xy"
swapping the first two, the list form, 0-dim inputs; its checks in torch's order.
cartesian_prod: flattened grids stacked as columns; one tensor is returned as itself.
vander: ones, x copied into a slice, the slice's cumprod copied back (CopySlices twice), then
a flip; integer and bool x give int64 (and torch itself can't run its backward). The warning
meshgrid gives without ``indexing`` comes once per process (TORCH_WARN_ONCE): checked in
fresh processes.
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from .harness import Raised, Registry, arr, catch, check_parity, graph, meta, upstream

pytestmark = [pytest.mark.parity, pytest.mark.filterwarnings("ignore:torch.meshgrid")]

prog = Registry()


def _grid_program(name, shapes, **kw):
    def program(t):
        leaves = [t.tensor(arr(*s, seed=k + 1), requires_grad=True) for k, s in enumerate(shapes)]
        xs = [x * 1 for x in leaves]
        grids = t.meshgrid(*xs, **kw)
        obs = {"type": type(grids).__name__, "grids": grids,
               "metas": [meta(g) for g in grids], "graphs": [graph(g.grad_fn, 3) for g in grids],
               "views": [g._base is xs[k] for k, g in enumerate(grids)] if len(xs) < 2 else None,
               "ptrs": [g.data_ptr() == x.data_ptr() for g in grids for x in xs]}
        sum(((g * (k + 1)).sum() for k, g in enumerate(grids)), t.tensor(0.0)).backward()
        return {**obs, "grads": [x.grad for x in leaves]}
    program.__name__ = name
    prog(program)


_grid_program("meshgrid_ij", [(3,), (2,)], indexing="ij")
_grid_program("meshgrid_xy", [(3,), (2,)], indexing="xy")
_grid_program("meshgrid_three_xy", [(3,), (2,), (4,)], indexing="xy")
_grid_program("meshgrid_three_ij", [(3,), (2,), (4,)], indexing="ij")
_grid_program("meshgrid_one_xy", [(3,)], indexing="xy")
_grid_program("meshgrid_scalar", [(), (3,)], indexing="ij")
_grid_program("meshgrid_default", [(2,), (3,)])


@prog
def meshgrid_forms_and_errors(t):
    a, b = t.tensor(arr(3, seed=4)), t.tensor(arr(2, seed=5))
    calls = {
        "list": lambda: [tuple(g.shape) for g in t.meshgrid([a, b], indexing="xy")],
        "tuple": lambda: [tuple(g.shape) for g in t.meshgrid((a, b), indexing="ij")],
        "ints": lambda: t.meshgrid(t.arange(3), t.arange(2), indexing="xy"),
        "empty_input": lambda: [tuple(g.shape) for g in t.meshgrid(t.zeros(0), a, indexing="ij")],
        "none": lambda: t.meshgrid(indexing="ij"), "empty_list": lambda: t.meshgrid([]),
        "dtypes": lambda: t.meshgrid(a, b.double(), indexing="ij"),
        "indexing": lambda: t.meshgrid(a, b, indexing="zz"),
        "indexing_int": lambda: t.meshgrid(a, indexing=1),
        "numbers": lambda: t.meshgrid(1, 2), "mixed": lambda: t.meshgrid([a, 1]),
        "dtypes_before_indexing": lambda: t.meshgrid(a, b.long(), indexing="zz"),
    }
    return {name: catch(fn) for name, fn in calls.items()}


@prog
def cartesian_prod_graph(t):
    a = t.tensor(arr(3, seed=6), requires_grad=True)
    b = t.tensor(arr(2, seed=7), requires_grad=True)
    c = t.tensor(arr(2, seed=8), requires_grad=True)
    y = t.cartesian_prod(a * 1, b * 1)
    z = t.cartesian_prod(a, b, c)
    obs = {"y": y, "z": z, "meta": meta(y), "graph": graph(y.grad_fn, 5),
           "one": t.cartesian_prod(a) is a}
    (y * upstream(t, y)).sum().backward()
    z.backward(upstream(t, z))
    return {**obs, "a.grad": a.grad, "b.grad": b.grad, "c.grad": c.grad}


@prog
def cartesian_prod_errors(t):
    a = t.tensor(arr(3, seed=9))
    calls = {"matrix": lambda: t.cartesian_prod(a, t.zeros(2, 2)),
             "scalar": lambda: t.cartesian_prod(a[0]), "none": lambda: t.cartesian_prod(),
             "dtypes": lambda: t.cartesian_prod(a, a.double()),
             "ints": lambda: t.cartesian_prod(t.arange(2), t.arange(3)),
             "list": lambda: t.cartesian_prod([a, a]), "number": lambda: t.cartesian_prod(a, 1),
             "empty": lambda: t.cartesian_prod(a, t.zeros(0))}
    return {name: catch(fn) for name, fn in calls.items()}


def _vander_program(name, *args, **kw):
    def program(t):
        a = t.tensor(arr(4, seed=10), requires_grad=True)
        y = t.vander(a * 1, *args, **kw)
        obs = {"y": y, "meta": meta(y), "graph": graph(y.grad_fn, 7)}
        # torch 2.13 can't differentiate vander: cumprod saves the slice that the next copy_
        # overwrites, so backward raises the version error (its counts name one more bump
        # than the core's: not compared, only that it raises)
        r = catch(lambda: y.backward(upstream(t, y))) if y.requires_grad else None
        return {**obs, "backward": r.type if isinstance(r, Raised) else r, "a.grad": a.grad}
    program.__name__ = name
    prog(program)


_vander_program("vander_default")
_vander_program("vander_N2", 2)
_vander_program("vander_N6", 6)
_vander_program("vander_N1", 1)
_vander_program("vander_N0", 0)
_vander_program("vander_increasing", None, True)
_vander_program("vander_keywords", N=3, increasing=True)


@prog
def vander_dtypes_and_errors(t):
    ints = t.tensor(arr(4, seed=11, dtype=np.int64, low=-3, high=4))
    calls = {
        "int64": lambda: t.vander(ints), "int8": lambda: t.vander(ints.to(t.int8), 3),
        "bool": lambda: t.vander(ints > 0), "double": lambda: t.vander(ints.double(), 3, True),
        "half": lambda: t.vander(ints.half()), "empty": lambda: t.vander(t.zeros(0)),
        "strided": lambda: t.vander(t.arange(8.0)[::2]),
        "matrix": lambda: t.vander(t.zeros(2, 2)), "scalar": lambda: t.vander(t.tensor(1.0)),
        "negative": lambda: t.vander(ints, -1), "float_N": lambda: t.vander(ints, 2.0),
        "list": lambda: t.vander([1, 2]), "input_keyword": lambda: t.vander(input=ints),
        "x_keyword": lambda: t.vander(x=ints, N=2),
    }
    return {name: (lambda r: (r, meta(r)) if hasattr(r, "stride") else r)(catch(fn))
            for name, fn in calls.items()}


@pytest.mark.parametrize("program", prog.params())
def test_meshgrid_vander_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


_WARN_SCRIPT = """
import json, sys, warnings
if sys.argv[1] == "torch":
    import torch as t
else:
    import inplace_tutorial as t
a = t.ones(3)
seen = []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for call in (lambda: t.meshgrid(a, a, indexing="ij"), lambda: t.meshgrid(a, a),
                 lambda: t.meshgrid([a]), lambda: t.cartesian_prod(a, a)):
        call()
        seen.append([str(w.message).split(" (Triggered internally")[0] for w in caught
                     if w.category is UserWarning])
print(json.dumps(seen))
"""


def test_meshgrid_without_indexing_warns_once(torch_mod):
    """TORCH_WARN_ONCE: the first meshgrid without indexing warns, later ones don't; with
    indexing (and cartesian_prod) it never does (a fresh process per library)."""
    def seen(which):
        done = subprocess.run([sys.executable, "-c", _WARN_SCRIPT, which], capture_output=True,
                              text=True, check=True)
        return json.loads(done.stdout)
    expected = seen("torch")
    assert expected[0] == [] and len(expected[1]) == 1 and expected[3] == expected[1]
    assert seen("core") == expected
