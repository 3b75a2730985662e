"""Fixtures for the parity suite.

The suite skips when PyTorch is not installed (CI installs it and checks that nothing skipped).
Set ``IPT_PARITY_CORE=torch`` to run every program torch-vs-torch: a sanity check of the
programs and the harness themselves, independent of the core.
"""

import importlib
import os

import pytest

torch = pytest.importorskip("torch")


@pytest.fixture(scope="session", autouse=True)
def _deterministic_torch():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    torch.use_deterministic_algorithms(True)
    torch.set_default_dtype(torch.float32)
    yield


@pytest.fixture(scope="session")
def torch_mod():
    return torch


@pytest.fixture(scope="session")
def core():
    """The module compared against torch: inplace_tutorial (or torch itself in sanity mode)."""
    name = os.environ.get("IPT_PARITY_CORE", "inplace_tutorial")
    return importlib.import_module(name)
