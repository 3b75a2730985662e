"""Creation: tensor(), zeros/ones/full/empty, the *_like family, arange, strided layouts.

Each program is ordinary PyTorch code written against ``t``; the harness runs it once
with ``t = torch`` and once with ``t = inplace_tutorial`` and compares every observation.
"""

import numpy as np
import pytest

from .harness import Registry, arr, catch, check_parity, meta, same_storage

pytestmark = pytest.mark.parity

prog = Registry()


# ======================================================================================
# creation


@prog
def create_from_nested_lists(t):
    f = t.tensor([[1.0, 2.0], [3.0, 4.0]])
    i = t.tensor([[1, 2], [3, 4]])
    b = t.tensor([[True], [False]])
    m = t.tensor([1, 2.5])
    return {
        "f": f,
        "i": i,
        "b": b,
        "mixed": m,
        "dtypes": [str(x.dtype) for x in (f, i, b, m)],
        "shape": tuple(f.shape),
        "stride": f.stride(),
    }


@prog
def create_from_scalars(t):
    f = t.tensor(3.5)
    i = t.tensor(3)
    b = t.tensor(True)
    return {
        "f": f,
        "i": i,
        "b": b,
        "dims": [f.dim(), i.dim(), b.dim()],
        "shape": tuple(f.shape),
        "stride": f.stride(),
        "numel": f.numel(),
    }


@prog
def rand_and_randn_in_every_float_dtype(t):
    t.manual_seed(0)
    out = {}
    for f in (t.rand, t.randn):
        for d in (t.float16, t.bfloat16, t.float32, t.float64):
            x = f(3, 4, dtype=d)
            out[f"{f.__name__} {d}"] = (str(x.dtype), tuple(x.shape), x.stride(),
                                        int(((x >= 0) & (x < 1)).sum()) if f is t.rand
                                        else None)
        out[f"{f.__name__} int64"] = catch(lambda f=f: f(3, dtype=t.int64))
    return out

@prog
def create_with_dtype_kwarg(t):
    return {
        "f_from_ints": t.tensor([1, 2], dtype=t.float32),
        "d": t.tensor([1.5, 2.5], dtype=t.float64),
        "i_from_floats": t.tensor([1.7, -2.7], dtype=t.int64),
        "b": t.tensor([0, 2], dtype=t.bool),
    }


@prog
def create_from_numpy_copies(t):
    n = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = t.tensor(n)
    n[0, 0] = 100.0
    return {"x": x, "dtype": x.dtype, "stride": x.stride()}


@prog
def create_from_numpy_dtypes(t):
    return {
        "f64": t.tensor(np.arange(3, dtype=np.float64)).dtype,
        "f32": t.tensor(np.arange(3, dtype=np.float32)).dtype,
        "i64": t.tensor(np.arange(3, dtype=np.int64)).dtype,
        "bool": t.tensor(np.array([True, False])).dtype,
        "values": t.tensor(np.arange(3, dtype=np.int64)),
    }


@prog
def create_from_noncontiguous_numpy(t):
    n = np.arange(12, dtype=np.float32).reshape(3, 4).T
    x = t.tensor(n)
    return {"x": x, "meta": meta(x)}


@prog
def create_zeros_ones_full(t):
    return {
        "zeros_varargs": t.zeros(2, 3),
        "zeros_tuple": t.zeros((2, 3)),
        "ones": t.ones(4),
        "ones_int": t.ones(2, dtype=t.int64),
        "zeros_bool": t.zeros(2, dtype=t.bool),
        "full_float": t.full((2, 2), 1.5),
        "full_int_fill": t.full((2,), 7),
        "full_bool_fill": t.full((2,), True),
        "full_dtype": t.full((3,), 2, dtype=t.float64),
        "zeros_stride": t.zeros(2, 3, 4).stride(),
        "zeros_0dim": t.zeros(()),
    }


@prog
def create_empty_shape_and_dtype(t):
    e = t.empty(2, 3)
    e2 = t.empty((4,), dtype=t.int64)
    return {
        "shape": tuple(e.shape),
        "dtype": e.dtype,
        "stride": e.stride(),
        "contiguous": e.is_contiguous(),
        "shape2": tuple(e2.shape),
        "dtype2": e2.dtype,
        "requires_grad": e.requires_grad,
    }


@prog
def create_like_functions(t):
    x = t.tensor(arr(2, 3))
    i = t.tensor([[1, 2, 3]])
    return {
        "zeros_like": t.zeros_like(x),
        "ones_like": t.ones_like(i),
        "ones_like_dtype": t.ones_like(i, dtype=t.float32),
        "empty_like_shape": tuple(t.empty_like(x).shape),
        "empty_like_dtype": t.empty_like(i).dtype,
        "zeros_like_new_storage": same_storage(t.zeros_like(x), x),
    }


@prog
def create_like_preserves_strides_of_transposed(t):
    x = t.tensor(arr(2, 3)).t()
    z = t.zeros_like(x)
    o = t.ones_like(x)
    e = t.empty_like(x)
    return {"zeros_like": meta(z), "ones_like": meta(o), "empty_like": meta(e)}


@prog
def create_arange_ints(t):
    return {
        "a5": t.arange(5),
        "a2_10_3": t.arange(2, 10, 3),
        "neg": t.arange(-3, 3),
        "down": t.arange(5, 0, -2),
        "empty": t.arange(0),
        "dtype": t.arange(5).dtype,
    }


@prog
def create_arange_floats(t):
    return {
        "step_quarter": t.arange(0, 1, 0.25),
        "float_end": t.arange(5.0),
        "float_start": t.arange(1.5, 4),
        "dtype_kw": t.arange(4, dtype=t.float32),
        "dtype": t.arange(0, 1, 0.25).dtype,
    }


# ======================================================================================


@pytest.mark.parametrize("program", prog.params())
def test_creation_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
