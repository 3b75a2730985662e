"""The ops, one module per family. Importing this package is the registration step: each
``@tensor_method`` def attaches itself to Tensor, and each ``@derivative`` adds a row to the
derivative table (autograd/derivatives.py; also importable as autograd.function.DERIVATIVES).

The import order below is the order of the table's rows, which the course prints.
"""
# isort: off
from . import advanced_indexing, index_put  # noqa: F401
from . import elementwise, unary, compare  # noqa: F401
from . import fill, random, random_from_to, casts  # noqa: F401
from . import fill_draw  # noqa: F401
from . import views, adjoint, indexing, multi_output_views, strided  # noqa: F401
from . import linalg, addmm, einsum, loss_ops, nn_ops, pooling, batch_norm  # noqa: F401
from . import reduce, var_std, max_min, softmax, ternary  # noqa: F401
from . import operators  # noqa: F401
from . import normalization, embedding, activations, attention  # noqa: F401
from . import trig, rounding, unary_math, logit, nan_to_num  # noqa: F401
from . import comparisons, logical, bitwise, binary_math  # noqa: F401
from . import joining, masking, index_ops, index_fill, scatter_gather  # noqa: F401
from . import scatter_reduce, index_reduce  # noqa: F401
from . import reorder, triangular, scan, sorting, dims, special, svd, norms  # noqa: F401
from . import matrix_vector, put_take  # noqa: F401
from . import scalar_overloads  # noqa: F401
from . import nonzero, float_classes  # noqa: F401
from . import any_all, reduce_ops, tensor_compare  # noqa: F401
from . import distributions, tensor_shape, tensor_split, repeat_interleave  # noqa: F401
from . import tensor_factories  # noqa: F401
from . import selection, out_selection  # noqa: F401
from . import pad_nd, cross, diff, take_along_dim  # noqa: F401
from . import cummaxmin, aminmax, mode  # noqa: F401
from . import fmax_fmin  # noqa: F401
from . import sign_angle  # noqa: F401
from . import padding  # noqa: F401
from . import tensor_transformations, atleast  # noqa: F401
from . import diag, tensordot, kron  # noqa: F401
from . import activation, rrelu  # noqa: F401
from . import self_gated, shrink, softplus, glu, prelu  # noqa: F401
from . import logaddexp, nanmean, var_mean  # noqa: F401
from . import meshgrid, vander  # noqa: F401
from . import random_factories  # noqa: F401
from . import bucketization, bincount  # noqa: F401
from . import resize  # noqa: F401
from . import erf, gamma, polygamma  # noqa: F401  (erf/erfc/erfinv; lgamma, digamma ...)
from . import set_storage, callbacks  # noqa: F401
from . import igamma  # noqa: F401  (igamma, igammac)
# isort: on
