"""PyTorch's autograd error texts, word for word, in one place.

The parity suites compare these strings with PyTorch 2.13's, so each lives here once and
the code that raises it imports it. ``short_name`` is how those texts name a node.
"""
from __future__ import annotations

import re

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)
VERSION_HINT = (
    " Hint: enable anomaly detection to find the operation that failed to compute its "
    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
ANOMALY_HINT = (
    " Hint: the backtrace further above shows the operation that failed to compute its "
    "gradient. The variable in question was changed in there or anywhere later. Good luck!"
)
NO_GRAD_VIEW = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace "
    "to be tracked)."
)
MULTI_VIEW_TAIL = (
    "This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation "
    "by an out-of-place one."
)
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
    "`torch.inference_mode()`."
)
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)
LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
LEAF_VIEW_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation.")
HIGHER_ORDER = (
    "create_graph=True asks for a graph of the backward pass itself (higher-order gradients). "
    "This core computes first-order gradients only: higher-order gradients are out of scope.")


def short_name(node_name: str) -> str:
    """PyTorch 2.13's error texts drop "Backward0" and keep other digits: PowBackward1 -> Pow1."""
    return re.sub(r"Backward(\d*)$", lambda m: "" if m.group(1) == "0" else m.group(1), node_name)
