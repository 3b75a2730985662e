"""max_pool2d's choice of cell, against PyTorch: which of equal maxima, which NaN, the sign of
a zero, bit for bit, and the indices that backward scatters through.

PyTorch's CPU kernel walks each window in row-major order and takes a cell when
``val > maxval || isnan(val)``: the first of equal maxima, the last NaN. The core's kernel
(ops/pooling.py ``_max_windows``) runs that rule one window offset at a time; these programs
cover ties, NaNs, signed zeros, padding, overlapping windows, strided inputs, 16-bit and
64-bit floats, many planes (several workspace chunks) and one plane too big for the workspace.
"""

import numpy as np
import pytest

from .harness import Registry, arr, check_parity, fn_name, ints

prog = Registry()
NAN = float("nan")


def _bits(y):
    a = y.detach().numpy()
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize]).copy()


def pool_program(name, make_input, kernel, stride=None, padding=0, grad=True):
    """Pool, then backprop a fixed upstream gradient: values as bits, indices, x.grad."""

    def program(t):
        x = make_input(t)
        if grad:
            x.requires_grad_(True)
        y, idx = t.nn.functional.max_pool2d(x, kernel, stride, padding, return_indices=True)
        obs = {"y": y, "bits": _bits(y), "indices": idx, "grad_fn": fn_name(y.grad_fn)}
        if grad:
            y.backward(t.tensor(arr(*tuple(y.shape), seed=7, low=-1.0, high=1.0)).to(y.dtype))
            obs["x.grad"] = x.grad
        return obs

    program.__name__ = name
    prog(program)


def _const(values, shape, dtype=np.float32):
    return lambda t: t.tensor(np.array(values, dtype).reshape(shape))


# ties among small integers: the first of equal maxima wins
pool_program("ties_k2", lambda t: t.tensor(ints(3, 4, 6, 6, seed=1, low=-1, high=2)), 2)
pool_program("ties_k3_s1_p1", lambda t: t.tensor(ints(2, 3, 5, 7, seed=2, low=0, high=2)),
             3, 1, 1)
pool_program("ties_k3_s2_overlapping",
             lambda t: t.tensor(ints(2, 2, 9, 9, seed=3, low=-1, high=1)), 3, 2)
# NaNs: the last NaN of a window wins, whatever came before it
pool_program("nan_first_and_last", _const([NAN, 1, NAN, 2, 1, NAN, 2, NAN, 3, 3, NAN, NAN,
                                           5, 1, NAN, 9], (1, 4, 2, 2)), 2)
pool_program("nan_sign_bits_kept",
             lambda t: t.tensor(np.array([-NAN, NAN, 1, 1, NAN, -NAN, 0, 0], np.float32)
                                .reshape(1, 2, 2, 2)), 2, grad=False)
pool_program("nan_scattered_k3_p1", lambda t: t.tensor(np.where(
    ints(2, 3, 7, 7, seed=4, low=0, high=5) == 0, NAN, arr(2, 3, 7, 7, seed=5))
    .astype(np.float32)), 3, 2, 1)
# signed zeros: a later +0.0 is not greater than an earlier -0.0
pool_program("signed_zero_ties", _const([-0.0, 0.0, 0.0, -0.0, 0.0, -0.0, -0.0, 0.0],
                                        (1, 2, 2, 2)), 2, grad=False)
pool_program("padding_all_negative", lambda t: t.tensor(-5 - np.abs(arr(2, 2, 5, 6, seed=6))),
             3, 2, 1)
pool_program("rect_kernel_stride", lambda t: t.tensor(arr(2, 3, 9, 8, seed=8)), (3, 2), (2, 3),
             (1, 1))
pool_program("kernel_1", lambda t: t.tensor(arr(2, 2, 3, 3, seed=9)), 1)
pool_program("strided_input_transposed",
             lambda t: t.tensor(arr(2, 3, 6, 8, seed=10)).transpose(2, 3), 2)
pool_program("strided_input_channels_sliced",
             lambda t: t.tensor(arr(2, 6, 6, 6, seed=11))[:, ::2], 2)
pool_program("float64", lambda t: t.tensor(arr(2, 2, 6, 6, seed=12, dtype=np.float64)), 2)
pool_program("float16", lambda t: t.tensor(ints(2, 2, 6, 6, seed=13, low=-2, high=3)
                                           .astype(np.float16)), 2, grad=False)
pool_program("bfloat16", lambda t: t.tensor(ints(2, 2, 6, 6, seed=14, low=-2, high=3))
             .to(t.bfloat16), 2, grad=False)
# many planes: more than one workspace chunk; one big plane: a counted buffer of its own
pool_program("many_planes_chunked", lambda t: t.tensor(ints(64, 32, 8, 8, seed=15, low=-3,
                                                            high=4)), 2)
pool_program("one_plane_bigger_than_workspace",
             lambda t: t.tensor(ints(1, 1, 300, 300, seed=16, low=-3, high=4)), 2)


@pytest.mark.parametrize("program", prog.params())
def test_max_pool_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.programs) >= 15
