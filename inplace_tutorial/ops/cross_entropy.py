"""cross_entropy: not a kernel of its own, as in PyTorch (cross_entropy_loss in LossNLL.cpp),
but one of three compositions of other ops, so its grad_fn is whatever the last one records:

- class-index targets: log_softmax over the class dim, then nll_loss (NllLossBackward0);
- with label_smoothing: (1 - s) * that nll_loss + s / C * the mean of -log_softmax over the
  classes (AddBackward0 over two MulBackward1);
- probability targets (target shaped like input): -(log_softmax * target).sum() / batch
  (DivBackward1), written out op by op, so a target that requires grad gets a gradient too.
"""
from __future__ import annotations

from ..tensor import Tensor
from .loss_ops import _check_reduction, nll_loss_nd
from .scalar_overloads import add_scalar, div_scalar, mul_scalar
from .softmax import _softmax


def cross_entropy(self: Tensor, target: Tensor, weight: Tensor | None = None,
                  reduction: str = "mean", ignore_index: int = -100,
                  label_smoothing: float = 0.0) -> Tensor:
    _check_reduction(reduction)
    class_dim = 0 if len(self._shape) == 1 else 1
    if self._shape == target._shape:  # PyTorch takes same-shaped targets as probabilities
        if not target.dtype.is_floating_point:
            raise RuntimeError("Expected floating point type for target with class "
                               f"probabilities, got {target.dtype.short}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _probability_targets(self, target, weight, reduction, label_smoothing,
                                    class_dim)
    if label_smoothing > 0.0:
        _check_smoothing(label_smoothing)
        return _label_smoothing(self, target, weight, reduction, ignore_index,
                                label_smoothing, class_dim)
    return nll_loss_nd(_softmax("log_softmax", self, class_dim, None, True), target, weight,
                       reduction, ignore_index)


def _check_smoothing(label_smoothing: float) -> None:
    if label_smoothing > 1.0:
        raise RuntimeError("label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{_float_text(label_smoothing)}")


def _float_text(v: float) -> str:
    """A double as C++'s ostream prints it (6 significant digits: 1.5, 2, 1e+10)."""
    text = f"{v:.6g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        text = f"{mantissa}e{exp[0]}{int(exp[1:]):02d}"
    return text


def _class_shaped(weight: Tensor, ndim: int, class_dim: int) -> Tensor:
    """weight viewed as (1, C, 1, ...) so it broadcasts along the class dim."""
    if ndim <= 1:
        return weight
    shape = [1] * ndim
    shape[class_dim] = weight._shape[0]
    return weight.view(shape)


def _probability_targets(self: Tensor, target: Tensor, weight: Tensor | None,
                         reduction: str, label_smoothing: float, class_dim: int) -> Tensor:
    """cross_entropy_loss_prob_target: -(log_softmax(self) * target [* weight]), summed
    over the classes (none), over everything (sum), or that sum over the batch size (mean)."""
    n_classes = self._shape[class_dim]
    if weight is not None and not (weight.dim() == 1 and weight.numel() == n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all "
                           f"{n_classes} classes or no classes but got weight tensor of shape: "
                           f"{list(weight._shape)}")
    logp = self.log_softmax(class_dim)
    if label_smoothing > 0.0:
        _check_smoothing(label_smoothing)
        target = add_scalar(mul_scalar(target, 1 - label_smoothing),
                            label_smoothing / n_classes)
    terms = logp * target
    if weight is not None:
        terms = terms * _class_shaped(weight, logp.dim(), class_dim)
    if reduction == "none":
        return -terms.sum(class_dim)
    loss = -terms.sum()
    if reduction == "sum":
        return loss
    if logp.numel() == 0:  # PyTorch: nan for the mean of nothing
        return loss.fill_(float("nan"))
    return div_scalar(loss, logp.numel() // n_classes)


def _label_smoothing(self: Tensor, target: Tensor, weight: Tensor | None, reduction: str,
                     ignore_index: int, label_smoothing: float, class_dim: int) -> Tensor:
    """cross_entropy_loss_label_smoothing: (1 - s) * nll_loss + s / C * smooth_loss, where
    smooth_loss is -log_softmax summed over the classes (weighted), 0 at ignored targets,
    then reduced like nll_loss (the mean divides by the targets' total weight)."""
    logp = self.log_softmax(class_dim)
    nll = nll_loss_nd(logp, target, weight, reduction, ignore_index)
    n_classes = logp._shape[class_dim]
    if weight is not None:
        smooth = -(logp * _class_shaped(weight, logp.dim(), class_dim)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    ignored = target == ignore_index
    smooth.masked_fill_(ignored, 0.0)
    if reduction == "mean":
        if weight is not None:  # the targets' total weight (PyTorch's path for tensor
            # subclasses: gather at every target, ignored ones read class 0, then zeroed)
            picked = weight.gather(0, target.masked_fill(ignored, 0).flatten())
            ret = smooth.sum() / picked.masked_fill_(ignored.flatten(), 0).sum()
        else:
            ret = smooth.sum() / ignored.logical_not().sum()
    elif reduction == "sum":
        ret = smooth.sum()
    else:
        ret = smooth
    return mul_scalar(nll, 1 - label_smoothing) + mul_scalar(ret, label_smoothing / n_classes)

