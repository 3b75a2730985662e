"""Notebook 01's statements about in-place ops whose operand overlaps the tensor they write,
run on torch 2.13 and the core: what PyTorch refuses, what it runs, and in which order."""
from __future__ import annotations

import pytest

from .harness import catch, check_parity

pytestmark = pytest.mark.parity

COURSE = {}


def course(fn):
    COURSE[fn.__name__] = fn
    return fn


@course
def nb01_overlap_refused_and_running_sum(t):
    v = t.ones(6)
    refused = catch(lambda: v[1:].add_(v[:-1]))
    x = t.ones(2, 6)
    x[:, 1:].add_(x[:, :-1])
    y = t.ones(2, 41)
    y[:, 1:].add_(y[:, :-1])
    return {"refused": refused, "v": v, "short": x, "long": y, "version": y._version}


@course
def nb01_overlap_div_by_first_column(t):
    x = t.tensor([[2.0, 4.0, 6.0], [10.0, 20.0, 30.0]])
    x.div_(x[:, :1])
    y = t.tensor([[2.0, 4.0, 6.0], [10.0, 20.0, 30.0]])
    y.div_(y[:, :1].clone())
    return {"aliased": x, "cloned": y}


@pytest.mark.parametrize("prog", [pytest.param(f, id=n) for n, f in COURSE.items()])
def test_course_overlap_programs(prog, torch_mod, core):
    check_parity(prog, torch_mod, core)


def test_01_overlap_numbers_as_printed(core):
    """The numbers notebook 01 prints and explains (cell 17 is 3, cells 33 to 40 run 3..10)."""
    x = core.ones(2, 41)
    x[:, 1:].add_(x[:, :-1])
    assert [int(c) for c in x[0].tolist()] == [1] + [2] * 16 + [3] + [2] * 15 + list(range(3, 11))


def test_01_overlap_depends_on_threads(torch_mod):
    """Over 32,768 elements torch splits the walk between threads, each starting its 64-byte
    steps where its share starts: some cells differ from the one-thread answer."""
    torch = torch_mod
    before = torch.get_num_threads()

    def shifted(threads):
        torch.set_num_threads(threads)
        x = torch.ones(41, 1001)  # 41,041 elements: the split falls inside row 20
        x[:, 1:].add_(x[:, :-1])
        return x

    try:
        one, two = shifted(1), shifted(2)
    finally:
        torch.set_num_threads(before)
    differ = (one != two).nonzero()
    assert len(differ) > 0
    assert set(differ[:, 0].tolist()) == {20}
