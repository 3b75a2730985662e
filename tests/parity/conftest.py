"""Fixtures for the parity suite.

Every parity test skips when PyTorch is not installed (CI installs it and checks that nothing
skipped). The skip happens in the fixtures, so the modules still collect and the skips are counted.
Set ``IPT_PARITY_CORE=torch`` to run every program torch-vs-torch: a sanity check of the programs
and the harness themselves, independent of the core.
"""

import importlib
import os
import sys

import pytest


@pytest.fixture(scope="session")
def torch_mod():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_default_dtype(torch.float32)
    return torch


@pytest.fixture(scope="session")
def core(torch_mod):
    """The module compared against torch: inplace_tutorial (or torch itself in sanity mode)."""
    name = os.environ.get("IPT_PARITY_CORE", "inplace_tutorial")
    return importlib.import_module(name)


def pytest_terminal_summary(terminalreporter):
    """After a run with the fuzz test: how many programs raised, how many compared grads."""
    mod = next(
        (m for name, m in sys.modules.items() if name.endswith("parity.test_fuzz_parity")), None
    )
    results = getattr(mod, "RESULTS", None)
    if not results:
        return
    n = len(results)
    fwd = sum(1 for o, st, _ in results.values() if o == "raised" and st == "forward")
    bwd = sum(1 for o, st, _ in results.values() if o == "raised" and st == "backward")
    grads = sum(1 for o, _, _ in results.values() if o == "grads")
    agreed = sum(1 for *_, ok in results.values() if ok)
    terminalreporter.write_sep("-", "fuzz parity")
    terminalreporter.write_line(
        f"{n} programs: torch raised in {fwd} (forward) + {bwd} (backward), "
        f"computed gradients in {grads}; "
        f"the core agreed on {agreed}/{n}"
    )
