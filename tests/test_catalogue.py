"""inplace_tutorial.catalogue: the rows notebook 09 prints (no torch needed)."""
from __future__ import annotations

import inplace_tutorial as ipt
from inplace_tutorial import catalogue


def test_one_row_per_probe_and_the_core_introspected():
    data = catalogue.load()
    rows = catalogue.rows()
    assert len(rows) == sum(max(1, len(m["probes"])) for m in data["methods"])
    for r in rows:
        assert r.exists == hasattr(ipt.Tensor, r.name)
        assert r.highlighted == (r.name in catalogue.ARTICLE_LIST)
        if r.exists and not r.scope and not r.core["error"]:
            assert r.temp_bytes is not None and r.kept_bytes is not None


def test_scope_follows_the_issue():
    rows = {r.name: r for r in catalogue.rows()}
    assert rows["sparse_resize_"].scope == "sparse"
    assert not rows["resize_"].scope and not rows["apply_"].scope  # (ops/resize.py, callbacks.py)
    assert not rows["erfinv_"].scope  # (ops/erf.py)
    assert not rows["masked_fill_"].scope


def test_measured_bytes_and_saves():
    rows = {(r.name, r.variant): r for r in catalogue.rows()}
    relu = rows[("relu_", "")]
    assert relu.core["grad_fn"] == "ReluBackward0" and relu.core["saved"]["tensors"] == ["result"]
    assert relu.temp_bytes == 0 and relu.kept_bytes == 0
    # mul_ by a tensor that requires grad must keep a copy of the old self (2x3 float32)
    assert rows[("mul_", "")].kept_bytes == 24
    assert rows[("addmm_", "")].temp_bytes == 24  # the product, then added in place
    # resize_ grows a 2x3 float32 storage to 3x3: the new 36 B buffer exists while the old
    # one is copied from, then the old 24 B go back; share_memory_ moves 24 B the same way
    assert (rows[("resize_", "")].temp_bytes, rows[("resize_", "")].kept_bytes) == (36, 12)
    assert (rows[("share_memory_", "")].temp_bytes, rows[("share_memory_", "")].kept_bytes) \
        == (24, 0)


def test_table_is_deterministic_and_lists_every_in_scope_method():
    first = catalogue.table(catalogue.rows())
    assert first == catalogue.table(catalogue.rows())
    for m in catalogue.load()["methods"]:
        assert (f" {m['name']} " in first) == (not m["scope"])
    assert "★ add_" in first
