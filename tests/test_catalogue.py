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
    assert rows["resize_"].scope == "storage" and rows["apply_"].scope == "Python callback"
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


def test_table_is_deterministic_and_lists_every_in_scope_method():
    first = catalogue.table(catalogue.rows())
    assert first == catalogue.table(catalogue.rows())
    for m in catalogue.load()["methods"]:
        assert (f" {m['name']} " in first) == (not m["scope"])
    assert "★ add_" in first
