"""What PyTorch 2.13 (CPU) does where the course cites it, and where the core differs.

The notebooks never import torch. When a lesson gives a PyTorch figure (the bytes an op
allocates, what a backward node saves), it prints it from here, and
``tests/parity/test_course_claims.py`` measures every value again on torch 2.13: a figure that
stops being true fails the parity suite. Bytes were measured with
``torch.profiler.profile(profile_memory=True)`` on one CPU thread.
"""
from __future__ import annotations

from .autograd.function import DERIVATIVES

TORCH_VERSION = "2.13.0"

# --------------------------------------------------------------------------- saved tensors
# Ops of the core's derivative table whose PyTorch node saves other tensors, or the same ones
# under other names: op -> (PyTorch's node name, its grad_fn._saved_<name> tensors, why it matters).
SAVED_DIFFERENCES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "einsum": ("(no einsum node)", (),
               "PyTorch decomposes einsum into permutes/views and a BmmBackward0 that saves "
               "both (reshaped) operands"),
}


def _core_saves(op: str) -> str:
    f = DERIVATIVES[op]
    return ", ".join(k if c is None else f"{k} (if {c} requires grad)" for k, c in f.saves.items())


def saved_table() -> list[tuple[str, str, str, str]]:
    """One row per op of the core's derivative table that saves something here or in PyTorch:
    (op, node, what the core saves, how PyTorch differs or "")."""
    rows = []
    for op, f in DERIVATIVES.items():
        diff = SAVED_DIFFERENCES.get(op)
        if not f.saves and diff is None:
            continue
        note = ""
        if diff is not None:
            node, fields, why = diff
            saved = ", ".join(fields) or "nothing"
            note = f"{node}: {saved} ({why})" if node != f.node else f"{saved} ({why})"
        rows.append((op, f.node, _core_saves(op) or "nothing", note))
    return rows


# --------------------------------------------------------------------------- bytes allocated
# optimizer.step() on one 1000x1000 float32 parameter (4,000,000 B), second step (momentum
# buffers exist already): peak bytes allocated during the step. The 12 B with momentum are
# PyTorch wrapping a Python scalar as a tensor (freed before the full-size temporaries come).
SGD_STEP_PEAK: dict[str, int] = {
    "SGD(lr)": 0,
    "SGD(lr, momentum=0.9)": 12,
    "SGD(lr, weight_decay=1e-4)": 4_000_000,
    "SGD(lr, momentum=0.9, nesterov=True)": 4_000_000,
    "SGD(lr, momentum=0.9, nesterov=True, weight_decay=1e-4)": 8_000_000,
}
# The same measurement for PyTorch's other two implementations (the core has only one).
SGD_STEP_PEAK_OTHER_IMPLEMENTATIONS: dict[str, int] = {
    "SGD(lr, weight_decay=1e-4, foreach=True)": 4_000_000,
    "SGD(lr, weight_decay=1e-4, fused=True)": 0,
}


def sgd_kwargs(name: str) -> dict:
    """The keyword arguments spelled in a name like "SGD(lr, momentum=0.9, nesterov=True)"."""
    kwargs = {}
    for part in name[len("SGD(lr"):-1].split(", "):
        if part:
            key, value = part.split("=")
            kwargs[key] = True if value == "True" else float(value)
    return kwargs


# out (64, 64) += sum of 64 products (64x32 @ 32x64), float32: peak bytes allocated.
ADDBMM_PEAK: dict[str, int] = {
    "out.addbmm_(b1, b2)": 0,
    "out + bmm(b1, b2).sum(0)": 1_064_960,
    "out.add_(einsum('bij,bjk->ik'))": 540_672,
}

# conv(3->64, 3x3) on a 4x3x16x16 batch, eval mode, under no_grad: peak bytes allocated.
# One activation (4x64x14x14 float32) is 200,704 B.
CONV_BLOCK_PEAK: dict[str, int] = {
    "conv": 401_408,
    "conv -> relu": 401_408,
    "conv -> relu_": 401_408,
    "conv -> bn -> relu": 401_920,
    "conv -> bn -> relu_": 401_920,
    "conv -> bn -> relu -> pool -> relu": 401_920,
    "conv -> bn -> relu_ -> pool -> relu_": 401_920,
}
# Where the core's peak for a variant is higher than PyTorch's, and why: nowhere since
# max_pool2d compares its windows one offset at a time instead of copying them.
CONV_BLOCK_CORE_DIFFERS: dict[str, str] = {}

# Linear(8 -> 4096) on a batch of 64 under no_grad (output 1,048,576 B): peak bytes allocated.
EXPANDING_PEAK: dict[str, int] = {"linear -> relu": 2_097_152, "linear -> relu_": 1_048_576}

# conv -> bn -> relu(_) in training on the 4x3x16x16 batch: bytes still allocated after the
# forward pass (the output plus what backward saved).
TRAINING_KEPT: dict[str, int] = {"conv -> bn -> relu": 401_920, "conv -> bn -> relu_": 401_920}

# What inference tensors do with _version.
INFERENCE_VERSION_ERROR = "Inference tensors do not track version counter."
