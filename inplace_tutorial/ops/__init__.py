"""The ops, one module per family. Importing this package attaches them to Tensor."""
from . import compare, elementwise, fill, indexing, linalg, operators, reduce, views  # noqa: F401
