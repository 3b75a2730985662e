"""A small "library" for the detect_inplace() parity programs: bugs that live in a helper module.

Imported only by programs that need it (it imports torch). Each buggy line carries a
``# culprit: <program>`` marker; the test finds the line number from the marker.
"""
import torch
from torch import nn


class GatedBlock(nn.Module):
    """Linear then a sigmoid gate, scaled in place (the bug: sigmoid saved its result)."""

    def __init__(self, n: int = 4):
        super().__init__()
        self.fc = nn.Linear(n, n)

    def forward(self, x):
        h = torch.sigmoid(self.fc(x))  # saved: helper_module_forward
        h.mul_(0.5)  # culprit: helper_module_forward
        return h


class ResidualBlock(nn.Module):
    """relu(fc(x)) + x, written with += (the bug: relu saved its result)."""

    def __init__(self, n: int = 4):
        super().__init__()
        self.fc = nn.Linear(n, n)

    def forward(self, x):
        out = torch.relu(self.fc(x))  # saved: helper_residual
        out += x  # culprit: helper_residual
        return out


class ResidualBlockFixed(ResidualBlock):
    def forward(self, x):
        out = torch.relu(self.fc(x))
        return out + x


def normalize_(t):
    """Centre t in place (the bug when t was saved by an op before)."""
    return t.sub_(t.mean())  # culprit: helper_function


def clip_(t, bound: float = 1.0):
    """Clamp into [-bound, bound] in place through out= (outside autograd)."""
    with torch.no_grad():
        return torch.clamp(t, -bound, bound, out=t)  # culprit: helper_out


def scale_rows_(t):
    """Double the first row in place through a view."""
    t[0].mul_(2)  # culprit: helper_view
    return t
