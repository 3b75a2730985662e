"""``torch.backends.cpu``: which CPU kernel build runs (and so which NaN bits the core leaves);
the reading of ``ATEN_CPU_CAPABILITY`` and of the CPU is in cpu_capability.py."""
from ..cpu_capability import get_cpu_capability

__all__ = ["get_cpu_capability"]
