"""The meter of byte_intervals.py against another thread's bytes: tracemalloc counts every
thread's allocations, so a check that fails while another thread ran says so
(``OtherThreadRan``) and ``remeasured`` runs the test again; a failure measured while no
other thread ran is final. (That the check fails on an op's own uncounted temporary:
test_byte_accounting.py::test_the_meter_sees_a_temporary_freed_before_the_peak.)"""
from __future__ import annotations

import threading

import numpy as np
import pytest
from byte_intervals import RUNS, OtherThreadRan, check, measure, remeasured, set_floor, tracing

import inplace_tutorial as ipt

N = 1 << 16  # float64: 512 KiB


@pytest.fixture(scope="module", autouse=True)
def traced():
    with tracing():
        yield


def test_another_threads_bytes_during_an_op_are_named_as_such():
    """A thread that makes a 256 KiB buffer while the op waits for it (as NumPy lets other
    threads run while it computes): by size the bytes look like the op's own temporary."""
    a = ipt.tensor(np.ones(N))
    set_floor()
    go, made = threading.Event(), threading.Event()

    def other():
        go.wait()
        message = bytearray(256 * 1024)  # as a message read by pytest-xdist's I/O thread
        made.set()
        del message

    thread = threading.Thread(target=other)
    thread.start()

    def op():
        y = a * 2
        go.set()
        made.wait()
        return y + 1

    small = measure(lambda: a[:4] * 2 + 1)[1]
    big = measure(op)[1]
    thread.join()
    assert big.others_ran
    assert big.worst >= 256 * 1024
    with pytest.raises(OtherThreadRan, match="not counted .* while another thread ran"):
        check("op", small, big)


def test_remeasured_runs_a_test_again_only_while_other_threads_disturb_it():
    runs = []

    @remeasured
    def disturbed_twice():
        runs.append("disturbed")
        if len(runs) < 3:
            raise OtherThreadRan("another thread ran")

    disturbed_twice()
    assert len(runs) == 3

    runs.clear()

    @remeasured
    def own_temporary():
        runs.append("own")
        raise AssertionError("not counted")

    with pytest.raises(AssertionError, match="not counted"):
        own_temporary()
    assert runs == ["own"]  # measured while alone: final at once

    runs.clear()

    @remeasured
    def always_disturbed():
        runs.append("disturbed")
        raise OtherThreadRan("another thread ran")

    with pytest.raises(OtherThreadRan):
        always_disturbed()
    assert len(runs) == RUNS  # an op's own temporary fails, a few runs later
