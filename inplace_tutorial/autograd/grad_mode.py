"""Grad modes: no_grad, enable_grad, set_grad_enabled and inference_mode.

Each is a context manager and a decorator, as in torch: ``@no_grad()`` and bare ``@no_grad``
both work (so do ``@enable_grad`` and ``@inference_mode``); ``set_grad_enabled`` needs its
bool. They set this thread's switches in ``modes`` (below the tensor) and put back, on exit,
exactly what the thread had when the block was entered.
"""
from __future__ import annotations

import functools
import inspect

from ..modes import STATE, is_grad_enabled, is_inference_mode_enabled, set_modes


def _snapshot() -> tuple[bool, bool]:
    return (STATE.grad_mode, STATE.inference)


class _Mode:
    """A context manager that is also a decorator: the wrapped function (or each step of a
    wrapped generator) runs inside a fresh instance of the same mode."""

    _args: tuple = ()

    def _target(self) -> tuple[bool, bool]:  # (grad mode, inference mode) inside the block
        raise NotImplementedError

    def __enter__(self):
        self._prev = _snapshot()
        set_modes(*self._target())
        return self

    def __exit__(self, *exc) -> bool:
        set_modes(*self._prev)
        return False

    def clone(self) -> _Mode:
        return type(self)(*self._args)

    def __call__(self, fn):
        if inspect.isgeneratorfunction(fn):
            @functools.wraps(fn)
            def gen_wrapper(*args, **kwargs):
                gen = fn(*args, **kwargs)
                try:  # each resumption of the generator runs inside the mode, as in PyTorch
                    with self.clone():
                        response = gen.send(None)
                    while True:
                        try:
                            request = yield response
                        except GeneratorExit:
                            with self.clone():
                                gen.close()
                            raise
                        except BaseException as exc:  # noqa: BLE001  (thrown into it)
                            with self.clone():
                                response = gen.throw(exc)
                        else:
                            with self.clone():
                                response = gen.send(request)
                except StopIteration as stop:
                    return stop.value

            return gen_wrapper

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)

        return wrapper


class _NoParamMode(_Mode):
    """``@no_grad`` without parentheses: called with the function itself, return it wrapped."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamMode):
    """Ops inside record no graph; in-place ops still bump versions."""

    def __init__(self) -> None:
        pass

    def _target(self) -> tuple[bool, bool]:
        return (False, STATE.inference)


class enable_grad(_NoParamMode):
    """Grad mode on again (inside no_grad). Inside inference_mode ops still record nothing:
    inference mode stays on, as in PyTorch."""

    def __init__(self) -> None:
        pass

    def _target(self) -> tuple[bool, bool]:
        return (True, STATE.inference)


class set_grad_enabled(_Mode):
    """Sets grad mode as soon as it is constructed (so it also works as a plain call); as a
    context manager it restores what was there before the constructor ran."""

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError("set_grad_enabled(): argument 'enabled' (position 1) must be bool, "
                            f"not {type(mode).__name__}")
        self._args = (mode,)
        self._before = _snapshot()
        set_modes(mode, STATE.inference)

    def _target(self) -> tuple[bool, bool]:
        return (self._args[0], STATE.inference)

    def __enter__(self):
        super().__enter__()
        self._prev = self._before
        return self

    def __call__(self, fn):
        set_modes(*self._before)  # used as a decorator: the constructor's flip is undone
        return super().__call__(fn)

    def clone(self) -> _Mode:
        return _GradModeBlock(self._args[0])  # wraps each call; must not flip the mode now


class _GradModeBlock(_Mode):
    """``@set_grad_enabled(mode)``'s per-call block: set grad mode, restore it on exit."""

    def __init__(self, mode: bool) -> None:
        self._args = (mode,)

    def _target(self) -> tuple[bool, bool]:
        return (self._args[0], STATE.inference)


class inference_mode(_Mode):
    """No graph at all, and tensors made inside are marked ``is_inference()``.

    ``inference_mode(False)`` turns it off again, and turns grad mode on (PyTorch's InferenceMode
    guard sets both). Called with anything but a bool (``@inference_mode`` bare), it wraps it."""

    def __new__(cls, mode=True):
        if mode is None or isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode: bool = True) -> None:
        self._args = (mode,)

    def _target(self) -> tuple[bool, bool]:
        mode = bool(self._args[0])
        return (not mode, mode)


__all__ = ["enable_grad", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled",
           "no_grad", "set_grad_enabled"]
