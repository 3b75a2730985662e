"""torch_inspect without PyTorch: nothing imports torch until asked, the install hint, and the
graph-reading helpers on stand-in objects (the real-torch tests are in tests/parity/)."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from inplace_tutorial import torch_inspect
from inplace_tutorial.torch_inspect import saved

ROOT = Path(__file__).resolve().parents[1]


def test_importing_the_package_and_viz_never_imports_torch():
    code = (
        "import sys\n"
        "import matplotlib; matplotlib.use('Agg')\n"
        "import inplace_tutorial as ipt\n"
        "from inplace_tutorial import viz, torch_inspect\n"
        "from inplace_tutorial.torch_inspect import saved, layout\n"
        "x = ipt.tensor([1.0, 2.0], requires_grad=True).clone(); y = x.sigmoid()\n"
        "viz.storage_diagram({'y': y}); viz.graph_diagram(y.sum())\n"
        "torch_inspect.torch_available()\n"
        "print('torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_missing_torch_gives_the_one_line_install_hint(monkeypatch):
    monkeypatch.setattr(torch_inspect, "torch_available", lambda: False)
    for name in ("detect_inplace", "explain", "inplace_safe"):
        with pytest.raises(ImportError) as err:
            getattr(torch_inspect, name)
        assert str(err.value) == torch_inspect.INSTALL_HINT
    with pytest.raises(ImportError, match="pip install torch==2.13.0 --index-url "
                                          "https://download.pytorch.org/whl/cpu"):
        torch_inspect.require_torch()
    assert "\n" not in torch_inspect.INSTALL_HINT
    with pytest.raises(AttributeError):
        torch_inspect.no_such_name  # noqa: B018


def test_torch_available_matches_find_spec():
    assert torch_inspect.torch_available() == (importlib.util.find_spec("torch") is not None)


@pytest.mark.parametrize(("message", "producer", "current", "saved_v"), [
    ("one of the variables needed for gradient computation has been modified by an inplace "
     "operation: [torch.FloatTensor [3, 8]], which is output 0 of ReluBackward0, is at version "
     "2; expected version 1 instead. Hint: ...", "ReluBackward0", "2", "1"),
    ("one of the variables needed for gradient computation has been modified by an inplace "
     "operation: [torch.FloatTensor [2, 2]], which is output 0 of "
     "torch::autograd::CopySlices, is at version 1; expected version 0 instead.",
     "torch::autograd::CopySlices", "1", "0"),
    ("one of the variables needed for gradient computation has been modified by an inplace "
     "operation: [torch.FloatTensor []] is at version 3; expected version 0 instead.",
     None, "3", "0"),
])
def test_version_error_is_parsed(message, producer, current, saved_v):
    m = saved.VERSION_ERROR.search(message)
    assert m is not None
    assert (m["producer"], m["current"], m["saved"]) == (producer, current, saved_v)


def test_other_errors_are_not_version_errors():
    assert saved.VERSION_ERROR.search("Trying to backward through the graph a second time") \
        is None


# ---- stand-ins for PyTorch's node objects --------------------------------------------------

class _T:
    """A saved tensor: just a version."""

    def __init__(self, version):
        self._version = version


class _Saved:
    def __init__(self, tensor, freed=False):
        self._tensor, self._freed = tensor, freed

    @property
    def data(self):
        if self._freed:
            raise RuntimeError("Trying to backward through the graph a second time")
        return self._tensor


class _Node:
    """Saved ``self`` (fresh), ``result`` (saved at v0, now v2) and an absent optional."""

    next_functions = ()

    def __init__(self, freed=False):
        self._raw_saved_self = _Saved(_T(0), freed)
        self._raw_saved_result = _Saved(_T(2), freed)
        self._raw_saved_weight = _Saved(None)

    def name(self):
        return "FakeBackward0"

    @property
    def _saved_self(self):
        return self._raw_saved_self.data

    @property
    def _saved_result(self):
        raise RuntimeError(
            "one of the variables needed for gradient computation has been modified by an "
            "inplace operation: [torch.FloatTensor [2]], which is output 0 of FakeBackward0, "
            "is at version 2; expected version 0 instead.")

    @property
    def _saved_weight(self):
        return None


def test_saved_refs_read_versions_and_staleness():
    refs = {r.field: r for r in saved.saved_refs(_Node())}
    assert set(refs) == {"self", "result"}  # an absent optional is not a saved tensor
    assert (refs["self"].saved_version, refs["self"].current_version, refs["self"].stale) == \
        (0, 0, False)
    assert (refs["result"].saved_version, refs["result"].current_version) == (0, 2)
    assert refs["result"].stale and "expected version 0" in refs["result"].message
    lines, stale = saved.saved_lines(_Node())
    assert stale
    assert sorted(lines) == ["result: saved v0, now v2 STALE", "self: saved v0, now v0"]


def test_freed_saved_tensors_are_reported_as_freed():
    lines, stale = saved.saved_lines(_Node(freed=True))
    assert not stale
    assert lines == ["result: freed after backward", "self: freed after backward"]


def test_walk_visits_each_node_once():
    a, b, c = _Node(), _Node(), _Node()
    a.next_functions = ((b, 0), (c, 0), (None, 0))
    b.next_functions = ((c, 0),)
    assert saved.walk([a]) == [a, b, c]


def test_core_tensors_are_not_torch_tensors():
    import numpy as np

    import inplace_tutorial as ipt

    assert not saved.is_torch_tensor(ipt.ones(2))
    assert not saved.is_torch_tensor(np.ones(2))


def test_torch_notebook_is_collected_only_with_parity(monkeypatch):
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    root = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(root)
    nb = ROOT / "notebooks" / "15_your_own_pytorch_model.ipynb"
    other = ROOT / "notebooks" / "06_autograd_hazards.ipynb"
    monkeypatch.delenv("PARITY", raising=False)
    monkeypatch.delenv("IPT_REQUIRE_PARITY", raising=False)
    assert root.pytest_ignore_collect(nb, None) is True
    assert root.pytest_ignore_collect(other, None) is None
    monkeypatch.setenv("PARITY", "1")
    assert root.pytest_ignore_collect(nb, None) is None
