"""``detect_inplace()``: name the in-place line that broke backward in a real PyTorch model.

Inside the manager, every Python-level torch call is recorded (see ``record``). When PyTorch
raises its version-counter error, the same exception type is raised again with PyTorch's
text first and a report below it: the in-place op(s) that modified the saved tensor, the
versions they moved it through, and the forward op that saved it, each with file:line.
Without an error the manager prints nothing and changes no value.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator

from . import report
from .record import Recorder
from .saved import VERSION_ERROR

_MARK = "_ipt_inplace_report"


def _augment(err: BaseException, roots: list, rec: Recorder) -> None:
    if getattr(err, _MARK, None) is not None or not VERSION_ERROR.search(str(err)):
        return
    text = report.build(str(err), roots, rec)
    try:
        new = type(err)(f"{err}\n\n{text}")
    except Exception:
        new = RuntimeError(f"{err}\n\n{text}")
    setattr(new, _MARK, text)
    raise new.with_traceback(err.__traceback__) from None


@contextlib.contextmanager
def detect_inplace() -> Iterator[None]:
    """Wrap a forward + backward (or a whole training step) of real PyTorch code.

    Costs nothing outside the ``with`` block; inside, Python-level torch calls run slower
    (see benchmarks/bench_torch_inspect.py), backward's C++ kernels do not.
    """
    rec = Recorder(on_error=lambda err, tensors, r: _augment(err, tensors, r))
    _active.append(rec)
    try:
        with rec:
            try:
                yield
            except RuntimeError as err:
                pending = err
            else:
                return
    finally:
        _active.remove(rec)
    # The mode is off again here: building the report must not record itself.
    _augment(pending, list(rec.outputs), rec)
    raise pending


_active: list[Recorder] = []


def active_outputs() -> list:
    """Live results recorded by the innermost active ``detect_inplace()`` (else none)."""
    return list(_active[-1].outputs) if _active else []
