"""Grad modes: no_grad, enable_grad, set_grad_enabled and inference_mode.

Each is a context manager and a decorator, as in torch. They flip the switches in
``modes.STATE`` (below the tensor); the core reads ``STATE["grad"]`` before it records a
graph node.
"""
from __future__ import annotations

import functools

from ..modes import STATE, is_grad_enabled, is_inference_mode_enabled

_KEYS = ("grad", "inference")  # what a grad mode saves and restores (anomaly is separate)


def _snapshot() -> dict:
    return {k: STATE[k] for k in _KEYS}


class _Mode:
    _enabled: bool = True
    _inference: bool = False

    def __enter__(self):
        self._prev = _snapshot()
        STATE["grad"] = self._enabled
        STATE["inference"] = self._inference
        return self

    def __exit__(self, *exc):
        STATE.update(self._prev)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)(*self._args):
                return fn(*args, **kwargs)

        return wrapper

    _args: tuple = ()


class no_grad(_Mode):
    """Ops inside record no graph; in-place ops still bump versions."""

    def __init__(self):
        self._enabled = False
        self._inference = STATE["inference"]


class enable_grad(_Mode):
    def __init__(self):
        self._enabled = True
        self._inference = False


class set_grad_enabled(_Mode):
    def __init__(self, mode: bool):
        self._args = (mode,)
        self._enabled = bool(mode)
        self._inference = STATE["inference"]
        self._before = _snapshot()
        STATE["grad"] = bool(mode)  # like torch, it also works as a plain function call

    def __enter__(self):
        super().__enter__()
        self._prev = self._before  # restore what was there before the constructor ran
        return self


class inference_mode(_Mode):
    """No graph at all, and tensors made inside are marked ``is_inference()``."""

    def __init__(self, mode: bool = True):
        self._args = (mode,)
        self._enabled = not mode
        self._inference = bool(mode)


__all__ = ["enable_grad", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled",
           "no_grad", "set_grad_enabled"]
