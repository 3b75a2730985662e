"""The course's models, made real and measurable.

* The seed article's conv(3->64, 3x3) -> BatchNorm -> relu_ block (``ConvBNReLU``) and its
  ``ProductionModel`` pattern: an in-place inference path, a training path that never
  mutates a tensor a backward node saved.
* The article's ``custom_sgd_update`` (``param.sub_(lr * param.grad)``: a full-size
  temporary per step) beside ``pytorch_sgd_update`` (``param.add_(grad, alpha=-lr)``).
* Two digits classifiers (``digits_mlp``, ``digits_cnn``) and ``train``/``evaluate``.
* A tiny GPT with a KV cache (``gpt.py``), trained on rule-generated text (data/tiny_text.py).
* Its block with each in-place choice as a switch, and what each saves, measured
  (``block_memory.py``, notebook 11).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from .. import nn
from ..autograd import grad_mode
from ..nn import functional as F
from ..tensor import Tensor


# --------------------------------------------------------------------------- the seed's models
class ConvBNReLU(nn.Module):
    """The article's ``EfficientNet``: conv(3->64, 3x3) -> bn -> relu (``relu_`` if inplace).

    ``relu_`` after BatchNorm is safe in training too: BatchNorm's backward reads its
    *input*, not its output, so nothing saved is overwritten.
    """

    def __init__(self, in_channels: int = 3, out_channels: int = 64, inplace: bool = True):
        super().__init__()
        self.inplace = inplace
        self.conv = nn.Conv2d(in_channels, out_channels, 3)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x: Tensor) -> Tensor:
        x = self.conv(x)
        x = self.bn(x)
        return x.relu_() if self.inplace else F.relu(x)


def create_backbone(in_channels: int = 3, channels: int = 16) -> nn.Module:
    """conv -> bn -> (relu) -> maxpool; the ReLU is applied by ProductionModel's paths."""
    return nn.Sequential(nn.Conv2d(in_channels, channels, 3, padding=1),
                         nn.BatchNorm2d(channels), nn.MaxPool2d(2))


class ProductionModel(nn.Module):
    """The article's ProductionModel: two forward paths over the same weights.

    Inference (``model.eval()``) runs under ``inference_mode`` and works in place: it
    normalises the caller's tensor with ``sub_``/``div_`` (pass ``x.clone()`` to keep it),
    and applies ``relu_`` after BatchNorm and after pooling. Training uses out-of-place
    preprocessing and ReLU, so no tensor saved for backward is ever mutated.
    """

    def __init__(self, in_channels: int = 3, channels: int = 16, num_classes: int = 10,
                 image_size: int = 8, mean: float = 0.5, std: float = 0.25):
        super().__init__()
        self.mean, self.std = mean, std
        self.backbone = create_backbone(in_channels, channels)
        self.head = nn.Linear(channels * (image_size // 2) ** 2, num_classes)

    @property
    def is_training(self) -> bool:  # the article's flag is Module.training here
        return self.training

    def forward(self, x: Tensor) -> Tensor:
        if not self.training:
            with grad_mode.inference_mode():
                x = self.preprocess_inplace(x)
                features = self.extract_features_inplace(x)
                return self.postprocess(features)
        x = self.preprocess_standard(x)
        return self.postprocess(self.extract_features_standard(x))

    def preprocess_inplace(self, x: Tensor) -> Tensor:
        return x.sub_(self.mean).div_(self.std)

    def preprocess_standard(self, x: Tensor) -> Tensor:
        return (x - self.mean) / self.std

    def extract_features_inplace(self, x: Tensor) -> Tensor:
        conv, bn, pool = self.backbone
        x = bn(conv(x))
        x.relu_()
        x = pool(x)
        x.relu_()  # the article's second relu_: a no-op after relu + max, and free
        return x

    def extract_features_standard(self, x: Tensor) -> Tensor:
        conv, bn, pool = self.backbone
        return pool(F.relu(bn(conv(x))))

    def postprocess(self, features: Tensor) -> Tensor:
        return self.head(features.flatten(1))


def custom_sgd_update(parameters: Iterable[Tensor], lr: float) -> None:
    """The article's update. ``lr * param.grad`` allocates a full-size temporary each time."""
    with grad_mode.no_grad():
        for param in parameters:
            if param.grad is not None:
                param.sub_(lr * param.grad)


def pytorch_sgd_update(parameters: Iterable[Tensor], lr: float) -> None:
    """What torch.optim.SGD does: the scaled add is fused (here: chunked), no temporary."""
    with grad_mode.no_grad():
        for param in parameters:
            if param.grad is not None:
                param.add_(param.grad, alpha=-lr)


# --------------------------------------------------------------------------- digits models
def digits_mlp(hidden: int = 128, inplace: bool = True) -> nn.Sequential:
    """Flatten -> Linear(64, hidden) -> ReLU -> Linear(hidden, 10)."""
    return nn.Sequential(nn.Flatten(), nn.Linear(64, hidden), nn.ReLU(inplace=inplace),
                         nn.Linear(hidden, 10))


def digits_cnn(channels: tuple[int, int] = (16, 32), inplace: bool = True) -> nn.Sequential:
    """Two conv -> bn -> relu -> maxpool blocks (8x8 -> 4x4 -> 2x2), then a linear head."""
    c1, c2 = channels
    return nn.Sequential(
        nn.Conv2d(1, c1, 3, padding=1), nn.BatchNorm2d(c1), nn.ReLU(inplace=inplace),
        nn.MaxPool2d(2),
        nn.Conv2d(c1, c2, 3, padding=1), nn.BatchNorm2d(c2), nn.ReLU(inplace=inplace),
        nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(c2 * 4, 10))


# --------------------------------------------------------------------------- training
def _correct(logits: Tensor, target: Tensor) -> int:
    return int((logits.detach().numpy().argmax(1) == target.numpy()).sum())


def train(model: nn.Module, loader, optimizer, epochs: int = 1,
          loss_fn: Callable = F.cross_entropy, progress: Callable | None = None,
          verbose: bool = True) -> list[dict]:
    """The usual loop: zero_grad (set_to_none), forward, loss, backward, step.

    ``progress(epoch=, step=, total=, loss=, acc=)`` is called after every step if given
    (``ipt.widgets.Progress`` is one); otherwise one line per epoch is printed unless
    ``verbose=False``. Returns one dict per epoch: mean loss and training accuracy.
    """
    history, step, total = [], 0, epochs * len(loader)
    for epoch in range(epochs):
        model.train()
        loss_sum, correct, seen = 0.0, 0, 0
        for xb, yb in loader:
            optimizer.zero_grad()
            out = model(xb)
            loss = loss_fn(out, yb)
            loss.backward()
            optimizer.step()
            step += 1
            n = yb.shape[0]
            loss_sum += loss.item() * n
            correct += _correct(out, yb)
            seen += n
            if progress is not None:
                progress(epoch=epoch + 1, step=step, total=total, loss=loss_sum / seen,
                         acc=correct / seen)
        history.append({"epoch": epoch + 1, "loss": loss_sum / seen, "acc": correct / seen})
        if progress is None and verbose:
            print(f"epoch {epoch + 1}/{epochs}  loss {loss_sum / seen:.4f}  "
                  f"train acc {correct / seen:.3f}")
    return history


def evaluate(model: nn.Module, x: Tensor, y: Tensor, batch_size: int = 512) -> float:
    """Accuracy in eval mode under no_grad (BatchNorm uses its running statistics)."""
    was_training = model.training
    model.eval()
    correct = 0
    with grad_mode.no_grad():
        for i in range(0, x.shape[0], batch_size):
            correct += _correct(model(x[i:i + batch_size]), y[i:i + batch_size])
    model.train(was_training)
    return correct / max(x.shape[0], 1)


from .gpt import (  # noqa: E402  (the tiny GPT)
    GPT,
    TARGET_LOSS,
    Block,
    CausalSelfAttention,
    KVCache,
    heldout_loss,
    text_corpus,
    train_tiny_gpt,
)

__all__ = ["GPT", "TARGET_LOSS", "Block", "CausalSelfAttention", "KVCache", "heldout_loss",
           "text_corpus", "train_tiny_gpt", "ConvBNReLU", "ProductionModel", "create_backbone",
           "custom_sgd_update",
           "digits_cnn", "digits_mlp", "evaluate", "pytorch_sgd_update", "train"]
