"""``torch.backends``: the switches and facts of the machinery under the ops. The core has one:
``backends.cpu.get_cpu_capability()``, which of PyTorch's CPU builds it imitates."""
from . import cpu  # noqa: F401
