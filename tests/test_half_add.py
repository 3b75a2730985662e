"""ops/_half_add.py: float16 and bfloat16 add/sub on the bits give the general path's bits.

The widening is checked on every finite float16, the narrowing on every scaled exponent with
every pattern of the 14 bits that decide the rounding, and the whole op on every pair of
exponents and on random bit patterns, against NumPy's own float16 arithmetic (which rounds
float32's sum once, as PyTorch) and against reduced.run, the path it replaces.
"""
from __future__ import annotations

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import dtypes, memory
from inplace_tutorial.ops import _half_add as half_add
from inplace_tutorial.ops import reduced
from inplace_tutorial.ops.tensor_iterator import ufunc_kernel

FINITE = np.arange(65536, dtype=np.uint32).astype(np.uint16)
FINITE = FINITE[(FINITE & 0x7C00) != 0x7C00].view(np.int16)  # every float16 but inf and NaN


def test_widening_every_finite_half_is_its_value_times_2_to_the_minus_112():
    w = np.empty((2, FINITE.size), np.int32)
    half_add._widen(FINITE, FINITE[::-1], w)
    for row, h in zip(w, (FINITE, FINITE[::-1]), strict=True):
        got = row.view(np.float32).astype(np.float64) * 2.0 ** 112
        want = h.view(np.float16).astype(np.float64)
        assert np.array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))  # -0.0 too


@pytest.mark.parametrize("upper", [0x1FF, 0x0AA, 0x000])  # 0x1FF: the carry into the exponent
def test_narrowing_every_exponent_every_rounding_pattern(upper):
    low = np.arange(1 << 14, dtype=np.int64)  # the kept bit deciding ties + 13 dropped bits
    exps = np.arange(31, dtype=np.int64)  # scaled float16 exponents 0 (subnormal) .. 30
    mag = (exps[:, None] << 23) | (upper << 14) | low[None, :]
    bits = np.concatenate([mag.ravel(), mag.ravel() | (1 << 31)]).astype(np.uint32)
    s = bits.view(np.int32).copy()
    out = np.empty(s.size, np.int16)
    half_add._narrow(s, np.empty_like(s), out)
    with np.errstate(over="ignore"):  # exponent 30 rounding up: inf, as it should
        want = (bits.view(np.float32).astype(np.float64) * 2.0 ** 112).astype(np.float16)
    bad = out != want.view(np.int16)
    assert not bad.any(), [hex(b) for b in bits[bad][:5]]


def _pairs(rng, n):
    """Random finite float16 pairs whose magnitudes stay below 2**15 (so no sum overflows),
    a third with small exponents (subnormal sums, cancellations), a third of exact ties."""
    bits = rng.integers(0, 1 << 16, (2, n)).astype(np.uint16)
    bits &= np.uint16(0xBFFF)  # exponent <= 15 ... then spread over 0..29 below
    exp = rng.integers(0, 30, (2, n)).astype(np.uint16)
    bits = (bits & np.uint16(0x83FF)) | (exp << np.uint16(10))
    third = n // 3
    bits[:, :third] &= np.uint16(0x87FF)  # exponents 0..1: subnormal and smallest normal
    bits[1, third:2 * third] = bits[0, third:2 * third] ^ np.uint16(0x8001)  # near -a
    return bits.view(np.float16)


@pytest.mark.parametrize("ufunc", [np.add, np.subtract])
def test_random_pairs_agree_with_numpy_and_with_the_general_path(ufunc):
    a, b = _pairs(np.random.default_rng(0), 300_001)  # not a multiple of the chunk
    out = np.empty_like(a)
    assert half_add.add_sub(ufunc, a, b, out)
    assert np.array_equal(out.view(np.int16), ufunc(a, b).view(np.int16))
    general = np.empty_like(a)
    reduced.run(ufunc_kernel(ufunc), (a, b), general)
    assert np.array_equal(out.view(np.int16), general.view(np.int16))


def test_every_exponent_pair_with_ties():
    e = np.arange(30, dtype=np.uint16)
    mant = np.array([0, 1, 0x200, 0x3FF, 0x155], dtype=np.uint16)
    ea, eb, ma, mb, sb = np.meshgrid(e, e, mant, mant, np.array([0, 0x8000], np.uint16))
    a = ((ea << np.uint16(10)) | ma).ravel().view(np.float16)
    b = ((eb << np.uint16(10)) | mb | sb).ravel().view(np.float16)
    for ufunc in (np.add, np.subtract):
        out = np.empty_like(a)
        assert half_add.add_sub(ufunc, a, b, out)
        assert np.array_equal(out.view(np.int16), ufunc(a, b).view(np.int16))


@pytest.mark.parametrize("values", [[1.0, np.inf], [np.nan, 2.0], [60000.0, 1.0]],
                         ids=["inf", "nan", "may_overflow"])
def test_inf_nan_and_possible_overflow_take_the_general_path(values):
    a = np.array(values * 3, dtype=np.float16)
    out = np.empty_like(a)
    assert not half_add.add_sub(np.add, a, a.copy(), out)
    x = ipt.tensor(a)
    x.add_(ipt.tensor(a))
    general = np.empty_like(a)
    reduced.run(ufunc_kernel(np.add), (a, a), general)
    assert np.array_equal(x.numpy().view(np.int16), general.view(np.int16))


def test_aliased_and_strided_operands():
    rng = np.random.default_rng(1)
    a = rng.standard_normal(70_000).astype(np.float16)
    x = ipt.tensor(a)
    x.add_(x)  # self is other
    assert np.array_equal(x.numpy(), a + a)
    y = ipt.tensor(a)
    ipt.sub(ipt.tensor(a[::-1].copy()), y, out=y)  # out is the second operand
    assert np.array_equal(y.numpy(), a[::-1] - a)
    z = ipt.tensor(a.reshape(700, 100))
    z.t().add_(ipt.tensor(a.reshape(100, 700)))  # transposed: the general path
    assert np.array_equal(z.numpy(), a.reshape(700, 100) + a.reshape(100, 700).T)


def test_in_place_add_allocates_nothing():
    x = ipt.randn(1000, 1000).half()
    y = ipt.randn(1000, 1000).half()
    x.add_(y)  # the workspace exists before the count starts
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    x.add_(y)
    x.sub_(y)
    assert memory.max_memory_allocated() == base


BF16 = dtypes.bfloat16.np


def test_bfloat16_narrowing_every_exponent_every_kind_of_tie():
    low = np.array([0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF, 0x1234, 0xC000], dtype=np.int64)
    kept = np.array([0, 1 << 16], dtype=np.int64)  # the lowest kept bit: ties to even
    upper = np.array([0, 0x3E << 17, 0x3F << 17], dtype=np.int64)  # 0x3F: carry to exponent
    exps = np.arange(255, dtype=np.int64) << 23  # 0 (subnormal) .. 254: every finite one
    mag = (exps[:, None, None, None] | upper[:, None, None] | kept[:, None] | low).ravel()
    bits = np.concatenate([mag, mag | (1 << 31)]).astype(np.uint32)
    s = bits.view(np.int32).copy()
    out = np.empty(s.size, BF16)
    with np.errstate(over="ignore"):  # the largest exponent rounding up: inf, as it should
        half_add._narrow_bf16(s, np.empty_like(s), out)
    # c10's round_to_nearest_even, on the bits: add 0x7FFF and the lowest kept bit, keep 16
    u = bits.astype(np.int64)
    want = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    bad = out.view(np.uint16) != want
    assert not bad.any(), [hex(b) for b in bits[bad][:5]]


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply])
def test_bfloat16_random_pairs_agree_with_the_general_path(ufunc):
    rng = np.random.default_rng(2)
    bits = rng.integers(0, 1 << 16, (2, 200_001)).astype(np.uint16)
    bits[:, bits.shape[1] // 2:] &= np.uint16(0x80FF)  # small exponents: subnormal sums
    bits[bits & np.uint16(0x7F80) == np.uint16(0x7F80)] ^= np.uint16(0x0100)  # no inf/NaN
    bits[1, :1000] = bits[0, :1000] ^ np.uint16(0x8000)  # exact cancellations
    a, b = bits.view(BF16)
    out = np.empty_like(a)
    assert half_add.add_sub(ufunc, a, b, out)
    general = np.empty_like(a)
    with np.errstate(over="ignore"):
        reduced.run(ufunc_kernel(ufunc), (a, b), general)
    assert np.array_equal(out.view(np.int16), general.view(np.int16))
    assert (np.isinf(out.astype(np.float32))).any()  # some sums overflowed, to inf as there


def test_bfloat16_inf_nan_take_the_general_path_and_in_place_allocates_nothing():
    a = np.array([1.0, np.inf, np.nan, -2.0], dtype=np.float32).astype(BF16)
    assert not half_add.add_sub(np.add, a, a.copy(), np.empty_like(a))
    x = ipt.randn(1000, 1000).bfloat16()
    y = ipt.randn(1000, 1000).bfloat16()
    x.add_(y)
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    x.sub_(y)
    assert memory.max_memory_allocated() == base


def test_float16_products_take_the_general_path():
    a = np.array([1.5, 2.0 ** -12, -3.0], dtype=np.float16)
    assert not half_add.add_sub(np.multiply, a, a.copy(), np.empty_like(a))
    x = ipt.tensor(a)
    x.mul_(ipt.tensor(a))
    assert np.array_equal(x.numpy().view(np.int16), (a * a).view(np.int16))
