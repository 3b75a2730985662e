"""torch.linalg, the part the core has: vector_norm, matrix_norm, norm (ops/norms.py), svd
and svdvals (ops/svd.py, ops/svd_out.py), cross (ops/cross.py). Tensor.norm and torch.norm
call these, as in PyTorch.

The norms here are the functions as the user calls them: input must be a Tensor, and ``out=``
gets the result copied in. vector_norm is a structured kernel (out's dtype must be the
result's, ``Expected out tensor to have dtype ...``); matrix_norm and norm are composite
(they compute, then check out's dtype in their own words and copy)."""
from __future__ import annotations

from . import modes
from .arg_parser import (
    argument_error,
    int_list,
    is_index,
    is_number,
)
from .function_parser import torch_function
from .ops import norms, out_variants, svd_out
from .ops import svd as svd_ops
from .ops.arg_checks import check_tensor
from .ops.cross import linalg_cross as cross
from .ops.out_functions import computed, exact
from .ops.out_selection import tuple_of_outs
from .signatures import binding_error, form_params
from .tensor import Tensor

__all__ = ["LinAlgError", "cross", "matrix_norm", "norm", "svd", "svdvals", "vector_norm"]

LinAlgError = svd_ops.LinAlgError  # a RuntimeError


def _composite_out(name: str, out, input: Tensor, compute, rule) -> Tensor:  # noqa: A002
    """out= of a composite (linalg_matrix_norm_out, linalg_norm_out): torch computes the
    result as the function would, with autograd, checks out's dtype, resizes out and copies
    the result in with ``copy_``, so out= with an input that requires grad is accepted and out
    gets a CopyBackwards node (a leaf out that requires grad is copy_'s own refusal). Without
    grad in play, the shared out= path does the same (one version step, resize warning)."""
    if not (isinstance(out, Tensor) and modes.is_grad_enabled()
            and (input.requires_grad or out.requires_grad)):
        return computed(name, out, (input,), compute, rule)
    result = compute()
    rule(out, result)
    out_variants.resize_output(out, result._shape)
    return out.copy_(result)


def _composite_dtype(name: str):
    def rule(out: Tensor, result: Tensor) -> None:
        if out.dtype is not result.dtype:
            raise RuntimeError(f"{name} expected out tensor dtype {result.dtype.short} but got: "
                               f"{out.dtype.short}")
    return rule


def vector_norm(input: Tensor, ord=2, dim=None, keepdim: bool = False, *,  # noqa: A002
                dtype=None, out: Tensor | None = None) -> Tensor:
    """torch.linalg.vector_norm(x, ord, dim, keepdim, *, dtype, out)."""
    check_tensor("linalg_vector_norm", "input", input, 1)

    def compute() -> Tensor:
        return norms.vector_norm(input, ord, dim, keepdim, dtype=dtype, called=True)
    if out is None:
        return compute()
    return computed("linalg_vector_norm", out, (input,), compute,
                    lambda o, r: exact(o, r.dtype), internal=False)


def matrix_norm(input: Tensor, ord="fro", dim=(-2, -1), keepdim: bool = False, *,  # noqa: A002
                dtype=None, out: Tensor | None = None) -> Tensor:
    """torch.linalg.matrix_norm(A, ord, dim, keepdim, *, dtype, out)."""
    check_tensor("linalg_matrix_norm", "input", input, 1)
    ints = isinstance(dim, (tuple, list)) and (not dim or is_index(dim[0]))
    if not (isinstance(ord, (str, Tensor)) or is_number(ord)) or not ints:
        raise TypeError("linalg_matrix_norm(): no signature takes these arguments")  # (torch's
        # parser words it: torch_function at the end of this file)
    dim = int_list("linalg_matrix_norm", "dim", (dim,), position=3, varargs=False)

    def compute() -> Tensor:
        return norms.matrix_norm(input, ord, dim, keepdim, dtype=dtype)
    if out is None:
        return compute()
    return _composite_out("linalg_matrix_norm", out, input, compute,
                          _composite_dtype("linalg.matrix_norm"))


def norm(input: Tensor, ord=None, dim=None, keepdim: bool = False, *,  # noqa: A002
         dtype=None, out: Tensor | None = None) -> Tensor:
    """torch.linalg.norm(A, ord, dim, keepdim, *, dtype, out)."""
    check_tensor("linalg_norm", "input", input, 1)
    if isinstance(dim, (tuple, list)) and dim and is_index(dim[0]):
        dim = int_list("linalg_norm", "dim", (dim,), position=3, varargs=False)  # each an int

    def compute() -> Tensor:
        return norms.linalg_norm(input, ord, dim, keepdim, dtype=dtype)
    if out is None:
        return compute()
    return _composite_out("linalg_norm", out, input, compute, _composite_dtype("linalg.norm"))


def svdvals(A: Tensor, *args, driver: str | None = None, out: Tensor | None = None) -> Tensor:
    """torch.linalg.svdvals(A, *, driver, out): S of _linalg_svd. ``driver=`` picks a
    cuSOLVER routine, so on the CPU only None is accepted; out's dtype must be S's."""
    if args:  # the parser's text for an extra positional argument, under the ATen name
        raise TypeError(f"linalg_svdvals() takes 1 positional argument but {1 + len(args)} "
                        "were given")
    check_tensor("linalg_svdvals", "A", A, 1)
    if driver is not None and A.numel():  # (an empty A never reaches the kernel's check)
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on "
                           "CUDA inputs with cuSOLVER backend.")
    if out is None:
        return svd_ops.svdvals(A)
    return computed("_linalg_svd", out, (A,), lambda: svd_ops.svdvals(A),
                    lambda o, r: exact(o, r.dtype), internal=False)


_SVD = form_params("Tensor A, bool full_matrices = True, *, c10::string_view? driver = None, "
                   "tuple of Tensors out = None")


def svd(*args, **kwargs) -> tuple:
    """torch.linalg.svd(A, full_matrices=True, *, driver=None, out=None): (U, S, Vh) with
    A = U diag(S) Vh, as torch.return_types.linalg_svd (ops/svd.py); out= writes into a
    triple of the caller's (ops/svd_out.py)."""
    error = binding_error("linalg_svd", _SVD, args, kwargs)
    if error is not None:
        raise error
    values = dict(zip(("A", "full_matrices"), args))
    values.update(kwargs)
    A, full = values["A"], values.get("full_matrices", True)
    driver, out = values.get("driver"), values.get("out")
    check_tensor("linalg_svd", "A", A, 1)
    if not isinstance(full, bool):
        raise argument_error("linalg_svd", "full_matrices", 2, "bool", full)
    if driver is not None and not isinstance(driver, str):
        raise argument_error("linalg_svd", "driver", None, "str", driver)
    if out is not None:
        return svd_out.linalg_svd_out(A, full, driver, tuple_of_outs("linalg_svd", out, 3, 3))
    return svd_ops.LinalgSvdResult(svd_ops.linalg_svd(A, full, driver))


# torch.linalg's functions are torch._C._linalg's, bound by torch's parser under their ATen
# names (linalg_matrix_norm): a call it refuses is refused in its words (function_parser.py)
vector_norm = torch_function("linalg_vector_norm", "linalg")(vector_norm)
matrix_norm = torch_function("linalg_matrix_norm", "linalg")(matrix_norm)
norm = torch_function("linalg_norm", "linalg")(norm)
svdvals = torch_function("linalg_svdvals", "linalg")(svdvals)
cross = torch_function("linalg_cross", "linalg")(cross)
