"""Probes of last-bits' fixes (tests/parity/probe_known.py's ints beyond 64 bits, and their
neighbours), each line run on torch 2.13 first.

A Python int from 2**63 to 2**64-1 is an unsigned Scalar: the bitwise ops and shifts cast it
to the result's type as C++ casts (``i & 2**63`` is ``i & INT64_MIN``). ``torch.arange``
sizes itself as RangeUtils.h's compute_arange_size does: bounds checked in doubles (step
first), an int64 result counted in int64 (its ends converted with c10's overflow check, the
span wrapping), every other dtype in doubles; the count must fit int64 sizes and bytes.
The parser checks every argument's type before it unpacks an int (``x.add_(2**70,
alpha='a')`` names alpha), and ``2**70 - x`` overflows as rsub's Scalar.
"""
from __future__ import annotations

UNSIGNED_BITWISE = [
    "i.bitwise_and(2**63)", "i.bitwise_or_(2**63)", "i.bitwise_xor(2**64-1)", "i & 2**63",
    "2**63 & i", "2**64-1 | i", "i ^ (2**64-1)", "i.__iand__(2**63)",
    "i.to(t.int8).bitwise_and(2**63)", "i.to(t.int8).bitwise_and_(2**64-1)",
    "i.to(t.int32).bitwise_or(2**64-1)", "i.to(t.uint8).bitwise_xor_(2**64-1)",
    "i.to(t.uint8).bitwise_and(2**63)", "i.bitwise_and(other=2**63)", "t.bitwise_and(i, 2**63)",
    "i.bitwise_left_shift(2**63)", "i.bitwise_right_shift_(2**64-1)", "i << 2**63",
    "i >> 2**64 - 1", "i.to(t.int8) << 2**63", "i.to(t.int8) >> 2**64-1",
    "i.to(t.uint8) >> 2**64-1", "i << -1", "i >> -1", "i << 64", "i >> 64",
]

ARANGE = [
    "t.arange(2**63)", "t.arange(2**63, 2**63+2)", "t.arange(2**64-3, 2**64-1)",
    "t.arange(0, 2**63, 2**62)", "t.arange(0, 4, 2**63)", "t.arange(0, 2**63, dtype=t.float32)",
    "t.arange(0, 2**63, 2**60, dtype=t.float64)", "t.arange(2**63, 2**63+2, dtype=t.float64)",
    "t.arange(0, 2**63, dtype=t.int32)", "t.arange(0, 2**63, dtype=t.uint8)",
    "t.arange(0, 2**63, dtype=t.int64)", "t.arange(0, 2**63 - 1, 2**61)",
    "t.arange(-2**63, 0, 2**62)", "t.arange(0, 2**62, 2**60, dtype=t.int8)",
    "t.arange(0, 2**63, 1.5)", "t.arange(0.5, 2**63)",
    "t.arange(0, 2**63, 2**61, out=t.zeros(2, dtype=t.int64))",
    "t.arange(0, 2**63-1, out=t.zeros(2, dtype=t.int64))",
    "t.arange(0, 2**63, 1.5, out=t.zeros(2))", "t.arange(0, 2**62)",
    "t.arange(0, float('inf'), 0)", "t.arange(2.0, float('inf'))",
    "t.arange(123456789.0, float('nan'))", "t.arange(-0.0, float('inf'))",
    "t.arange(0, 1e30, dtype=t.int64)", "t.arange(0, 10, 1e30, dtype=t.int64)",
    "t.arange(0, 2**63, 2**61, dtype=t.int32)", "t.arange(2**62, 2**62 + 10, dtype=t.float32)",
    "t.arange(0, 2**63, 0)", "t.arange(2**63, 0)", "t.arange(0, 2**63 - 1, 2**62)",
    "t.arange(-2**63, 2**63-1, 2**63-1)", "t.arange(10, 2**63-1, 2**63-1)",
    "t.arange(-1e308, 1e308, 1e307)", "t.arange(0, 5, float('inf'))",
    "t.arange(0, 5, float('inf'), dtype=t.int64)", "t.arange(0, 5, float('nan'))",
    "t.arange(5, -5, -3)", "t.arange(0.5, 3.7, dtype=t.int64)",
]

TYPES_BEFORE_UNPACKING = [
    "i.add(2**70, alpha='a')", "i.sub_(2**70, alpha='a')", "i.sub(-2**70, alpha=None)",
    "x.add_(2**70, alpha='a')", "x.add_(-2**70, alpha=[1])", "i.add_(None, alpha=2**70)",
    "i.add_(2**70, alpha=2**70)", "-2**70 - i", "2**64 - x", "2**63 - i", "2**64 - 1 - i",
    "t.rsub(i, 2**70)", "t.rsub(i, 2**63)", "i.__rsub__(2**70)", "'a' - i",
]

# keywords that arrive in a dict (f(**d)): not in the caller's bytecode, so call_site.py reads
# them from the binding's **kwargs; "(position 1)" only for an argument given by position
KEYWORDS_UNPACKED = [
    "x.add_(**{'other': None})", "x.add(**{'other': 'a'})", "x.mul_(**{'other': None})",
    "x.sub_(**dict(other='a', alpha=2))", "x.clamp_min_(**{'min': 'a'})",
    "x.add_(*[None])", "x.add_(*(None,), **{})", "getattr(x, 'add_')(other=None)",
    "(lambda f: f(other=None))(x.add_)", "t.add(x, **{'other': None})",
    "t.add(**{'input': x, 'other': None})",
]
