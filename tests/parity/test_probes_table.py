"""The probe table (probes.py) side by side with torch 2.13: type, text, value and the fixtures'
values and ``_version`` after every call. Probes listed in probe_known.py still differ; they
are checked to still differ, so the ledger can't go stale: a fix that makes one agree must
move it out (``python -m tests.parity.probes --ledger``). Every other probe must agree."""
from __future__ import annotations

import pytest

from .probes import all_probes, differences, known

AGREEING = [(cls, code) for cls, code in all_probes() if not known(code)]
KNOWN = [(cls, code) for cls, code in all_probes() if known(code)]


@pytest.mark.parametrize("cls,code", AGREEING, ids=[code for _, code in AGREEING])
def test_probe(cls, code, torch_mod, core):
    diffs = differences(torch_mod, core, code)
    if diffs:
        pytest.fail(f"[{cls}] {code}: core differs from torch\n  " + "\n  ".join(diffs),
                    pytrace=False)


def test_the_table_is_large_and_the_ledger_names_only_probes_in_it():
    probes = [code for _, code in all_probes()]
    assert len(probes) >= 500 and len(set(probes)) == len(probes)
    from .probe_known import KNOWN_DIFFERENT
    listed = set().union(*KNOWN_DIFFERENT.values())
    assert listed <= set(probes), sorted(listed - set(probes))


@pytest.mark.parametrize("cls,code", KNOWN, ids=[code for _, code in KNOWN])
def test_ledger_entry_still_differs(cls, code, torch_mod, core):
    if not differences(torch_mod, core, code):
        pytest.fail(f"[{cls}] {code} now agrees with torch: take it out of probe_known.py "
                    "(python -m tests.parity.probes --ledger)", pytrace=False)
