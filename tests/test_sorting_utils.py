"""ops/sorting_utils.py: quick_select_template on many short lines at once leaves at k what
quick_select's line-by-line replay leaves (random lines full of ties, every k), and kthvalue
through it still answers as before on tensors of short tied lines (the per-line replay, which
the parity suite checks against torch, is the reference)."""
from __future__ import annotations

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial.ops import _std_sort, selection, sorting_utils
from inplace_tutorial.ops.sorting_utils import quick_select_lines


@pytest.mark.parametrize("seed", range(6))
def test_lines_at_once_pick_what_one_line_at_a_time_picks(seed):
    rng = np.random.default_rng(seed)
    for _ in range(40):
        n, levels, count = (int(rng.integers(1, 40)), int(rng.integers(1, 8)),
                            int(rng.integers(1, 30)))
        keys = rng.integers(0, levels, (count, n)).astype(np.int64)
        k = int(rng.integers(0, n))
        work = _std_sort.Work.new(n, "test")
        want = [sorting_utils.quick_select(keys[r].copy(), k, work) for r in range(count)]
        assert quick_select_lines(keys.copy(), k).tolist() == want


@pytest.mark.parametrize("shape", [(300, 9), (200, 40), (3, 50, 5)])
@pytest.mark.parametrize("dtype", [ipt.int64, ipt.float32, ipt.float16])
def test_kthvalue_of_short_tied_lines_is_the_line_by_line_replay(dtype, shape, monkeypatch):
    """(More tied lines than one batch of 128 holds: replayed in several.)"""
    rng = np.random.default_rng(1)
    a = rng.integers(0, 4, shape).astype(np.float64) - 1
    if dtype.is_floating_point:
        a[a == 1] = np.nan
        a[a == 0] = np.where(rng.random(int((a == 0).sum())) < 0.5, -0.0, 0.0)
    x = ipt.tensor(a).to(dtype)
    for k in (1, 4, shape[-1]):
        got = x.kthvalue(k, -1)
        monkeypatch.setattr(selection, "_LOCKSTEP", 0)
        want = x.kthvalue(k, -1)
        monkeypatch.undo()
        assert got.indices.tolist() == want.indices.tolist()
        assert np.array_equal(np.signbit(got.values.float().numpy()),
                              np.signbit(want.values.float().numpy()))
