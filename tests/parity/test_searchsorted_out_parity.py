"""torch.searchsorted and torch.bucketize: ``out=``, the order of searchsorted_pre_check's
refusals, and the one-time warnings about non-contiguous operands, side by side with torch
2.13 (issue 11).

The checks run sorter first (same size as the boundaries, int64, indices in range), then the
scalar input, the boundaries' dims, and last out's dtype (int64, or int32 with out_int32).
Then out is resized (with its warning when it had elements) and written, its version up by
one even when there is nothing to search. A non-contiguous input value, boundary or sorter
tensor warns once per process for each of the three (TORCH_WARN_ONCE in
searchsorted_maybe_trim_input_tensors), bucketize included, never for an empty input: checked
in fresh processes, since the flags can't be reset.
"""
import numpy as np
import pytest

from .harness import Registry, catch, check_parity, warned
from .warn_once import run_sequence

pytestmark = pytest.mark.parity

prog = Registry()


def _f(*values):
    return np.array(values, dtype=np.float32)


def _into(t, call, out):
    r, w = warned(lambda: call(out))
    return {"returned": r if not isinstance(r, t.Tensor) else r is out, "out": out,
            "version": out._version, "warnings": w}


@prog
def searchsorted_writes_into_out(t):
    b, v = t.tensor(_f(0, 1, 2, 3, 4)), t.tensor(_f(1.5, 3.0, -1.0))
    wide = t.zeros(6, dtype=t.int64)
    return [_into(t, lambda o: t.searchsorted(b, v, out=o), t.zeros(3, dtype=t.int64)),
            _into(t, lambda o: t.searchsorted(b, v, right=True, out=o),
                  t.zeros(3, dtype=t.int64)),
            _into(t, lambda o: t.searchsorted(b, v, side="right", out_int32=True, out=o),
                  t.zeros(3, dtype=t.int32)),
            _into(t, lambda o: t.searchsorted(b, v, out=o), t.zeros(5, dtype=t.int64)),
            _into(t, lambda o: t.searchsorted(b, v, out=o), t.zeros(0, dtype=t.int64)),
            _into(t, lambda o: t.searchsorted(b, 2.5, out=o), t.zeros(2, dtype=t.int64)),
            _into(t, lambda o: t.searchsorted(b, v, out=o), wide[::2]), wide]


@prog
def bucketize_writes_into_out(t):
    b, v = t.tensor(_f(0, 1, 2, 3, 4)), t.tensor(_f(1.5, 3.0, -1.0, 9.0))
    return [_into(t, lambda o: t.bucketize(v, b, out=o), t.zeros(4, dtype=t.int64)),
            _into(t, lambda o: t.bucketize(v, b, right=True, out=o), t.zeros(3, dtype=t.int64)),
            _into(t, lambda o: t.bucketize(v, b, out_int32=True, out=o),
                  t.zeros(4, dtype=t.int32))]


@prog
def rows_into_a_transposed_out(t):
    b = t.tensor(np.array([[1, 2, 3, 4], [2, 3, 4, 5]], dtype=np.float32))
    v = t.tensor(np.array([[2.5, 0, 9], [2.5, 5, 5]], dtype=np.float32))
    o = t.zeros(3, 2, dtype=t.int64)
    return [_into(t, lambda out: t.searchsorted(b, v, out=out), o.t()), o]


@prog
def nothing_to_search_still_counts_as_a_write(t):
    b = t.tensor(_f(0, 1, 2))
    return [_into(t, lambda o: t.searchsorted(b, t.tensor(_f())[None], out=o),
                  t.zeros(4, dtype=t.int64)),
            _into(t, lambda o: t.bucketize(t.tensor(_f()), b, out=o), t.zeros(0, dtype=t.int64))]


@prog
def out_dtype_is_checked_last(t):
    b, v = t.tensor(_f(0, 1, 2, 3)), t.ones(2)
    calls = [
        lambda: t.searchsorted(b, v, out=t.zeros(2, dtype=t.int32)),
        lambda: t.searchsorted(b, v, out=t.zeros(2)),
        lambda: t.searchsorted(b, v, out_int32=True, out=t.zeros(2, dtype=t.int64)),
        lambda: t.bucketize(v, b, out_int32=True, out=t.zeros(2, dtype=t.int64)),
        lambda: t.searchsorted(b, v, sorter=t.tensor([0, 1, 2, 7]), out=t.zeros(2)),
        lambda: t.searchsorted(b, v, sorter=t.tensor([0, 1, 2, 3], dtype=t.int32),
                               out=t.zeros(2)),
        lambda: t.searchsorted(t.tensor(4.0), v, out=t.zeros(2)),
        lambda: t.searchsorted(t.ones(2, 4), t.ones(3, 2), out=t.zeros(2)),
        lambda: t.searchsorted(b, v, side="x", out=t.zeros(2))]
    return [catch(c) for c in calls]


@prog
def sorter_checks_come_first(t):
    b, v = t.tensor(_f(0, 1, 2, 3)), t.ones(2)
    calls = [
        lambda: t.searchsorted(b, v, sorter=t.tensor([0, 1, 2], dtype=t.int32)),
        lambda: t.searchsorted(t.ones(2, 4), t.ones(3, 2), sorter=t.tensor([0, 1, 2])),
        lambda: t.searchsorted(t.tensor(4.0), v, sorter=t.tensor([0, 1, 2])),
        lambda: t.searchsorted(t.ones(2, 4), t.ones(3, 2), sorter=t.zeros(2, 4, dtype=t.int32)),
        lambda: t.searchsorted(t.ones(2, 4), t.ones(3, 2),
                               sorter=t.zeros(2, 4, dtype=t.int64) + 9),
        lambda: t.searchsorted(b, v, sorter=t.tensor(_f(0, 1, 2, 3))),
        lambda: t.searchsorted(b, v, sorter=t.tensor([3, 2, 1, 0]))]
    return [catch(c) for c in calls]


@prog
def a_scalar_input_needs_one_dim_boundaries(t):
    return [catch(lambda: t.searchsorted(t.ones(2, 4), 2.5)),
            catch(lambda: t.searchsorted(t.ones(2, 4), t.tensor(2.5))),
            catch(lambda: t.searchsorted(t.tensor(4.0), t.tensor(2.5))),
            catch(lambda: t.searchsorted(t.ones(4), t.tensor(2.5))),
            catch(lambda: t.searchsorted(t.ones(1, 4), t.tensor(_f(2.5))))]


@pytest.mark.parametrize("program", prog.params())
def test_searchsorted_out_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)


def test_enough_programs():
    assert len(prog.params()) >= 7


_CALLS = """
b = t.tensor(np.arange(10, dtype=np.float32))
v = t.tensor(np.array([3.0, 6.0, 1.0, 1.0], dtype=np.float32))
perm = t.tensor(np.array([0, 9, 1, 9, 2, 9, 3, 9, 4, 9]))[::2]
calls = {
    "boundary": lambda: t.searchsorted(b[::2], v),
    "input": lambda: t.searchsorted(b, v[::2]),
    "sorter": lambda: t.searchsorted(b[:5], v, sorter=perm),
    "all_three": lambda: t.searchsorted(b[:9:2], v[::2], sorter=perm),
    "bucketize_boundary": lambda: t.bucketize(v, b[::2]),
    "bucketize_input": lambda: t.bucketize(v[::2], b),
    "empty_input": lambda: t.searchsorted(b[::2], v[:0]),
    "rows": lambda: t.searchsorted(t.tensor(np.arange(6.0, dtype=np.float32).reshape(3, 2)).t(),
                                   t.tensor(np.ones((2, 1), dtype=np.float32))),
    "scalar": lambda: t.searchsorted(b[::2], 2.5),
    "other_dtype": lambda: t.searchsorted(b, t.tensor([3, 4])),
    "out": lambda: t.searchsorted(b[::2], v, out=t.empty(4, dtype=t.int64)),
    "contiguous": lambda: t.searchsorted(b, v),
}
"""

SEQUENCES = [  # each in two fresh processes (the flags can't be reset)
    # nothing to say for contiguous or empty inputs; each operand's warning once
    "contiguous,other_dtype,empty_input,boundary,boundary,input,input,sorter,sorter",
    # bucketize uses searchsorted's flags; one call can warn for all three operands
    "bucketize_boundary,boundary,all_three,bucketize_input",
    "scalar,rows,out,input",
]


def _run(which: str, sequence: str) -> list:
    return run_sequence(_CALLS, which, sequence)


@pytest.mark.parametrize("sequence", SEQUENCES)
def test_non_contiguous_operands_warn_once_a_process(sequence, torch_mod):
    expected = _run("torch", sequence)
    assert any(w for _, _, w in expected)  # torch warned at least once in this sequence
    assert _run("core", sequence) == expected
