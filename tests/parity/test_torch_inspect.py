"""detect_inplace() on real PyTorch: the exact culprit line for every program in
``inplace_programs``, nothing at all for programs without a bug."""
from __future__ import annotations

import os
import re

import pytest

from . import inplace_programs as P

HERE = os.path.dirname(os.path.abspath(__file__))
_SOURCES = [os.path.join(HERE, f) for f in ("inplace_programs.py", "inplace_helpers.py",
                                            "test_torch_inspect.py")]


def marked(kind: str, name: str) -> list[str]:
    """'file.py:line' of every line carrying ``# <kind>: <name>``."""
    out = []
    for path in _SOURCES:
        with open(path) as f:
            for i, line in enumerate(f, 1):
                if re.search(rf"# {kind}: {re.escape(name)}$", line.rstrip()):
                    out.append(f"{os.path.basename(path)}:{i}")
    return out


def _run(torch, prog, managed: bool):
    from inplace_tutorial.torch_inspect import detect_inplace

    if not managed:
        return prog(torch)
    with detect_inplace():
        return prog(torch)


@pytest.fixture(scope="module")
def torch(torch_mod):
    return torch_mod


def test_at_least_30_culprit_programs():
    assert len(P.BUGGY) >= 30
    for name in P.BUGGY:
        assert marked("culprit", name), f"{name} has no '# culprit: {name}' line"


@pytest.mark.parametrize("name", sorted(P.BUGGY))
def test_culprit_line_is_named(torch, name):
    prog = P.BUGGY[name]
    with pytest.raises(RuntimeError) as plain:
        _run(torch, prog, managed=False)
    with pytest.raises(RuntimeError) as ours:
        _run(torch, prog, managed=True)
    original, text = str(plain.value), str(ours.value)
    assert type(ours.value) is type(plain.value)
    assert "modified by an inplace operation" in original
    assert text.startswith(original + "\n\n"), "PyTorch's text must come first, unchanged"
    report = text[len(original):]
    assert "detect_inplace(): the in-place op that broke backward" in report, report
    culprits = marked("culprit", name)
    # Every marked line, in order, each with the versions it moved the tensor through.
    found = re.findall(r"^  - .* at (\S+:\d+) \(version (\d+) -> (\d+)\)$", report, re.M)
    assert [f for f, _, _ in found] == culprits, report
    m = re.search(r"is at version (\d+); expected version (\d+)", original)
    now, saved = int(m[1]), int(m[2])
    assert int(found[0][1]) == saved and int(found[-1][2]) == now, report
    for (_, _, after), (_, before, _) in zip(found, found[1:]):
        assert after == before, report
    saves = marked("saved", name)
    if saves:
        assert re.search(rf"^  saved: as '[\w\[\]]+' by \w+, created by \S+ at {saves[0]}$",
                         report, re.M), report
    if name in P.LIBRARY:
        assert f"    inside {P.LIBRARY[name]}:" in report, report


@pytest.mark.parametrize("name", sorted(P.FIXED))
def test_no_bug_no_report_same_gradients(torch, name, capsys):
    prog = P.FIXED[name]
    plain = _run(torch, prog, managed=False)
    ours = _run(torch, prog, managed=True)
    assert capsys.readouterr() == ("", ""), "the manager must stay silent"
    assert plain.keys() == ours.keys()
    for k in plain:
        assert torch.equal(plain[k], ours[k]), k


def test_other_errors_pass_through_unchanged(torch):
    from inplace_tutorial.torch_inspect import detect_inplace

    a = torch.ones(3, requires_grad=True)
    y = (a * 2).sum()
    y.backward()
    with pytest.raises(RuntimeError) as plain:
        y.backward()
    y = (a * 2).sum()
    y.backward()
    with pytest.raises(RuntimeError) as ours:
        with detect_inplace():
            y.backward()
    assert str(ours.value) == str(plain.value)


def test_write_before_the_manager_is_reported_as_such(torch):
    from inplace_tutorial.torch_inspect import detect_inplace

    a = torch.ones(3, requires_grad=True)
    y = a.exp()
    y.mul_(2)
    with pytest.raises(RuntimeError) as err:
        with detect_inplace():
            y.sum().backward()
    text = str(err.value)
    assert "created before detect_inplace() started" in text
    assert "no in-place op was recorded between version 0 and 1" in text


def test_manager_leaves_nothing_installed(torch):
    from torch.overrides import _get_current_function_mode_stack

    from inplace_tutorial.torch_inspect import detect_inplace

    before = len(_get_current_function_mode_stack())
    with detect_inplace():
        assert len(_get_current_function_mode_stack()) == before + 1
    assert len(_get_current_function_mode_stack()) == before
    with pytest.raises(RuntimeError):
        with detect_inplace():
            y = torch.ones(2, requires_grad=True).exp()
            y.add_(1)
            y.sum().backward()
    assert len(_get_current_function_mode_stack()) == before


def test_autograd_grad_and_direct_unpacking_are_covered(torch):
    """Errors from torch.autograd.grad, and from reading grad_fn._saved_* by hand (which no
    torch function wraps: the manager's exit handles it), get the same report."""
    from inplace_tutorial.torch_inspect import detect_inplace

    for how in ("grad", "unpack"):
        with pytest.raises(RuntimeError) as err:
            with detect_inplace():
                a = torch.ones(3, requires_grad=True)
                y = a.sigmoid()
                y.mul_(3)  # culprit: grad_and_unpack
                if how == "grad":
                    torch.autograd.grad(y.sum(), a)
                else:
                    y.grad_fn.next_functions[0][0]._saved_result  # noqa: B018
        text = str(err.value)
        where = marked("culprit", "grad_and_unpack")[0]
        assert f"- Tensor.mul_ at {where} (version 0 -> 1)" in text, text


def test_nested_managers_report_once(torch):
    from inplace_tutorial.torch_inspect import detect_inplace

    with pytest.raises(RuntimeError) as err:
        with detect_inplace():
            with detect_inplace():
                y = torch.ones(2, requires_grad=True).exp()
                y.add_(1)
                y.sum().backward()
    assert str(err.value).count("detect_inplace(): the in-place op that broke backward") == 1
