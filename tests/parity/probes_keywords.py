"""Keyword probes (issue 11): the public methods and functions called with their arguments by
name, as PyTorch's binding names them (``x.permute(dims=(1, 0))``, ``x.sum(dim=0)``), with
NumPy's aliases (``axis=``, ``keepdims=``), with keyword-only arguments given by position
(``x.cumsum(1, t.float64)``), and ``out=`` given to functions that have no out= form. Each line
was run on torch 2.13 first: the expected behaviour is whatever torch does, error or value."""
from __future__ import annotations

VARARGS = [  # one
    "x.permute(dims=(1, 0)).shape", "x.permute(dims=[1, 0]).shape", "x.permute(dims=0)",
    "x.permute(dims=[1.0, 0])", "x.permute(1, 0, dims=(1, 0))", "x.permute(dim=(1, 0))",
    "x.permute((1, 0), foo=1)", "x.permute(dims='ab')", "x.permute(dims=(1, 0.0))",
    "x.view(size=(3, 2)).shape", "x.view(size=6).shape", "x.view(size='a')", "x.view(size=None)",
    "x.view(shape=(6,))", "x.view(2, 3, size=(6,))", "x.view(size=[2, 'a'])",
    "x.reshape(shape=(3, 2)).shape", "x.reshape(shape=6).shape", "x.reshape(size=(6,))",
    "x.reshape(shape=None)", "x.reshape(6, shape=(6,))", "x.reshape(shape=[6.0])",
    "x.expand(size=(2, 2, 3)).shape", "x.expand(2, 2, 3, implicit=True).shape",
    "x.expand(size=(2, 2, 3), implicit=False).shape", "x.expand(2, 3, implicit='a')",
    "x.expand(size=2)", "x.expand(size=None)", "x.expand((2, 3), implicit=True).shape",
    "x.expand(2, 3, size=(2, 3))", "x.expand(sizes=(2, 3))", "x.flip(dims=(0,))",
    "x.flip(dims=[0, 1])", "x.flip(dims=None)", "x.flip(0, dims=(1,))", "x.flip(dim=0)",
    "x.flip(dims=(0.0,))", "x.flip(dims=())", "x.repeat(repeats=(2, 1)).shape",
    "x.repeat(repeats=2)", "x.repeat(repeats=None)", "x.repeat(sizes=(2, 1))",
    "x.repeat(2, 1, repeats=(2, 1))", "x.repeat(repeats=[2, 1.0])",
    "x.unflatten(dim=1, sizes=(3, 1)).shape", "x.unflatten(1, sizes=(3, 1)).shape",
    "x.unflatten(dim=1, sizes=None)", "x.unflatten(1, (3, 1), 2)", "x.unflatten(1, sizes='a')",
    "x.split(1, dim='a')", "x.split(split_size=1, dim='a')", "x.split([1, 1], dim='a')",
    "x.split(1, 1.0)", "x.split(1, None)",
]

DIMS = [  # the other shape methods, by keyword
    "x.transpose(dim0=0, dim1=1).shape", "x.transpose(0, dim1=1).shape", "x.transpose(0, dim=1)",
    "x.squeeze(dim=0).shape", "x.squeeze(dim=(0, 1)).shape", "x.unsqueeze(dim=0).shape",
    "x.unsqueeze(dim=0.0)", "x.flatten(start_dim=0, end_dim=1).shape", "x.flatten(end_dim=0).shape",
    "x.flatten(start=0)", "x.narrow(dim=1, start=0, length=2).shape", "x.select(dim=1, index=0)",
    "x.select(1, index=0)", "x.chunk(chunks=2, dim=1)", "x.chunk(2, dim=1)",
    "x.split(split_size=1, dim=1)", "x.split(1, dim=1)", "x.split(split_size_or_sections=1)",
    "x.movedim(source=0, destination=1).shape", "x.movedim(0, destination=1).shape",
    "x.moveaxis(source=0, destination=1).shape", "x.roll(shifts=1, dims=0)", "x.roll(1, dims=0)",
    "x.roll(shifts=1)", "x.roll(shifts=(1, 1), dims=(0, 1))", "x.roll(shift=1)",
    "x.diagonal(offset=1)", "x.diagonal(dim1=1, dim2=0)", "x.tril(diagonal=1)",
    "x.triu_(diagonal=-1)", "x.tril(k=1)", "x.as_strided(size=(2,), stride=(1,))",
    "x.as_strided((2,), (1,), storage_offset=1)", "x.unbind(dim=1)", "x.swapdims(dim0=0, dim1=1)",
    "x.swapaxes(axis0=0, axis1=1).shape", "x.t(0)", "x.view_as(other=x).shape",
    "x.expand_as(other=x).shape", "x.reshape_as(other=x).shape",
    "x.unfold(dimension=1, size=2, step=1)", "x.unfold(1, 2, step=1).shape",
    "x.transpose_(dim0=0, dim1=1).shape", "x.squeeze_(dim=0).shape", "x.unsqueeze_(dim=0).shape",
]

REDUCTIONS = [
    "x.sum(dim=0)", "x.sum(dim=(0, 1))", "x.sum(dim=[1], keepdim=True)", "x.sum(axis=0)",
    "x.sum(0, keepdims=True)", "x.sum(0, True, t.float64)", "x.sum(dtype=t.float64).dtype",
    "x.sum(0, dtype=t.float64).dtype", "x.sum(dims=0)", "x.sum(dim=0, axis=0)", "x.mean(axis=1)",
    "x.mean(0, True, t.float64)", "x.mean(dim=0, dtype=t.float64).dtype",
    "x.mean(dim=(0, 1), keepdim=True)", "x.max(dim=0)", "x.max(dim=0, keepdim=True)",
    "x.max(axis=0)", "x.max(other=x)", "x.max(other=None)", "x.min(0, other=x)",
    "t.max(x, other=x)", "x.min(dim=1, keepdims=True)", "x.max(0, True, 1)", "x.argmax(dim=1)",
    "x.argmax(axis=1)", "x.argmin(dim=0, keepdim=True)", "x.amax(dim=(0, 1))",
    "x.amax(dim=0, keepdim=True)", "x.amin(axis=0)", "x.var(dim=0, unbiased=False)",
    "x.var(0, False, True)", "x.var(dim=0, correction=0)", "x.std(0, True, True)",
    "x.var(unbiased=False)", "x.var(0, correction=0, keepdim=True)", "x.std(axis=0)", "x.var(0, 0)",
    "x.softmax(dim=0)", "x.softmax(0, t.float64).dtype", "x.softmax(0, dtype=t.float64).dtype",
    "x.log_softmax(dim=1)", "x.softmax(axis=0)", "x.softmax()", "x.cumsum(dim=1)",
    "x.cumsum(axis=1)", "x.cumprod(1, t.float64)", "x.cumsum_(dim=1)", "x.cumsum_(1, t.float32)",
    "x.norm(p=1)", "x.norm(p=2, dim=1)", "x.norm(dim=1, keepdim=True)", "x.norm(2, 1, True)",
    "x.sort(dim=0)", "x.sort(descending=True)", "x.sort(0, True, True)",
    "x.argsort(dim=1, descending=True)", "x.topk(k=2)", "x.topk(2, dim=0, largest=False)",
    "x.topk(2, 0, False, False)", "x.logsumexp(dim=1)", "x.prod(dim=1)",
    "x.prod(1, True, t.float64)", "x.all(dim=0)", "x.any(dim=1, keepdim=True)",
]

OPERANDS = [  # binary and ternary ops by keyword; alpha and value are keyword-only
    "x.add(other=x, alpha=2)", "x.add(x, 2)", "x.add_(x, 2)", "x.sub(x, 2)", "x.sub_(x, 2)",
    "x.add(x, alpha=2).sum()", "x.addcmul(x, x, 2)", "x.addcdiv_(x, x, 0.5)",
    "x.addcmul(tensor1=x, tensor2=x, value=2).sum()", "x.clamp(min=0)", "x.clamp(max=0)",
    "x.clamp(min=0, max=1)", "x.clip(min=0)", "x.clamp_(min=0, max=x)",
    "x.masked_fill(mask=b, value=0.0)", "x.masked_fill_(b, value=0.0)",
    "x.index_select(dim=1, index=t.tensor([0]))", "x.gather(dim=1, index=t.tensor([[0]]))",
    "x.pow(exponent=2)", "x.mul(other=2)", "x.div(x, rounding_mode='floor')", "x.div(x, 'floor')",
    "x.div_(other=x, rounding_mode='trunc')", "x.lerp(end=x, weight=0.5)", "x.lerp(x, weight=x)",
    "x.matmul(other=x.t())", "x.mm(mat2=x.t())", "m.addmm(mat1=m, mat2=m, beta=2)",
    "m.addmm(m, m, 2, 1)", "x.addmm_(x, m, beta=0.5, alpha=2)", "x.copy_(src=x)",
    "x.copy_(x, non_blocking=True)", "x.fill_(value=2.0)",
    "x.scatter(dim=1, index=t.tensor([[0]]), src=x)", "x.maximum(other=x)", "x.eq(other=x)",
    "x.atan2(other=x)", "x.fmod(other=2)", "x.remainder(other=2)",
]

CONVERSIONS = [
    "x.to(dtype=t.float64).dtype", "x.to(t.float64, copy=True).dtype", "x.to(t.float64, True)",
    "x.to(t.float64, False, True).dtype", "x.type(dtype=t.float64).dtype",
    "x.clone(memory_format=t.contiguous_format).shape", "x.clone(t.contiguous_format)",
    "x.contiguous(memory_format=t.contiguous_format).shape", "x.requires_grad_(requires_grad=True)",
    "x.new_zeros(size=(2,)).shape", "x.new_zeros(2, 3).shape",
]

FUNCTIONS = [  # the function forms: input is position 1
    "t.sum(x, dim=0)", "t.sum(input=x)", "t.sum(x, 0, True)", "t.max(x, keepdim=True)",
    "t.max(x, dim=0, keepdim=True).values", "t.max(x, 0)", "t.max(input=x, dim=0)",
    "t.min(x, keepdim=True)", "t.max(x, keepdim=False)", "t.argmax(x, keepdim=True)",
    "t.max(x, dim=None)", "t.sum(x, keepdim=True)", "t.mean(x, keepdim=True)",
    "t.permute(x, (1, 0)).shape", "t.permute(x, dims=(1, 0)).shape", "t.permute(x, 1, 0)",
    "t.reshape(x, (6,)).shape", "t.reshape(x, 6)", "t.reshape(x, shape=(6,)).shape",
    "t.flip(x, (0,))", "t.flip(x, 0)", "t.flip(x, dims=0)", "t.transpose(x, 0, 1).shape",
    "t.cumsum(x, 1, dtype=t.float64).dtype", "t.cumsum(x, dim=1)", "t.cumsum(x, 1, t.float64)",
    "t.squeeze(x, 0).shape", "t.flatten(x, 0, 1).shape", "t.softmax(x, 0, t.float64).dtype",
    "t.var(x, 0, True, True)", "t.sum(x, axis=0)", "t.add(x, x, 2)", "t.add(x, x, alpha=2)",
    "t.clamp(x, min=0)", "t.narrow(x, dim=0, start=0, length=1)", "t.norm(x, p=1)",
    "t.sort(x, dim=0, descending=True)", "t.topk(x, k=1)", "t.roll(x, 1)",
    "t.roll(x, shifts=1, dims=0)", "t.movedim(x, source=0, destination=1).shape",
    "t.unflatten(x, 1, (3, 1)).shape", "t.unflatten(x, dim=None, sizes=(3,))",
    "t.tril(x, diagonal=1)", "t.diagonal(x, offset=1)", "t.max(x, 0, True, 1)",
    "t.max(x, x, keepdim=True)", "t.max(x, 'a')",
]

OUT_WHERE_NONE = [  # out= given to a function with no out= form
    "t.permute(x, (1, 0), out=x)", "t.flip(x, 0, out=x)", "t.flip(x, (0,), out=x)",
    "t.transpose(x, 0, 1, out=x)", "t.reshape(x, (6,), out=x)", "t.squeeze(x, out=x)",
    "t.t(x, out=x)", "t.narrow(x, 0, 0, 1, out=x)", "t.unbind(x, out=x)",
    "t.select(x, 0, 0, out=x)", "t.chunk(x, 2, out=x)", "t.split(x, 1, out=x)",
    "t.detach(x, out=x)", "t.as_strided(x, (2,), (1,), out=x)", "t.unsqueeze(x, 0, out=x)",
    "t.flatten(x, out=x)", "t.diagonal(x, out=x)", "t.swapdims(x, 0, 1, out=x)",
    "t.unflatten(x, 1, (3, 1), out=x)", "t.relu(x, out=x)", "t.clone(x, out=x)",
    "t.softmax(x, 0, out=t.empty(0))", "t.log_softmax(x, 0, out=t.empty(0))",
    "t.masked_fill(x, b, 0.0, out=x)", "t.clamp_(x, 0, out=x)", "t.relu_(x, out=x)",
    "t.index_put(x, (t.tensor([0]),), t.tensor(1.0), out=x)", "t.dot(v, v, out=s)",
    "t.max(x, out=t.empty(0))", "t.einsum('ij->ji', x, out=x)", "t.flip(x, dims=(0,), out=x)",
    "t.permute(x, dims=(1, 0), out=None)", "t.relu(x, out=None).shape",
    "t.permute(x, (1, 0), out=1)",
]

CREATION = [
    "t.zeros(size=(2,)).shape", "t.zeros((2,), dtype=t.int64).dtype",
    "t.zeros(2, 3, dtype=t.float64).dtype", "t.ones(size=2)", "t.ones(2, size=(2,))",
    "t.full(size=(2,), fill_value=1.0)", "t.full((2,), fill_value=1)", "t.arange(end=3)",
    "t.arange()", "t.arange(start=1)", "t.arange(start=1, end=3)", "t.arange(0, 3, step=2)",
    "t.empty(size=(2,)).shape", "t.tensor(data=[1.0])", "t.tensor([1.0], t.float64)",
    "t.zeros_like(input=x).shape", "t.ones_like(x, dtype=t.int64).dtype",
    "t.randn(size=(2,)).shape", "t.rand(2, 3).shape",
]


# Every public method both libraries have, called with a keyword neither knows and with too
# many positional arguments: how each binding refuses a call (a missing argument comes before
# an unknown keyword; self is not counted; several overloads are listed). (x.nonzero(foo=1) is
# in probes_indexing.py.)
BOUND_METHODS = [
    "abs", "abs_", "absolute", "absolute_", "acos", "acos_", "acosh", "acosh_", "add", "add_",
    "addbmm", "addbmm_", "addcdiv", "addcdiv_", "addcmul", "addcmul_", "addmm", "addmm_", "addmv",
    "addmv_", "addr", "addr_", "all", "amax", "amin", "any", "arccos", "arccos_", "arccosh",
    "arccosh_", "arcsin", "arcsin_", "arcsinh", "arcsinh_", "arctan", "arctan2", "arctan2_",
    "arctan_", "arctanh", "arctanh_", "argmax", "argmin", "argsort", "as_strided", "as_strided_",
    "asin", "asin_", "asinh", "asinh_", "atan", "atan2", "atan2_", "atan_", "atanh", "atanh_",
    "baddbmm", "baddbmm_", "bernoulli", "bernoulli_", "bfloat16", "bitwise_and", "bitwise_and_",
    "bitwise_left_shift", "bitwise_left_shift_", "bitwise_not", "bitwise_not_", "bitwise_or",
    "bitwise_or_", "bitwise_right_shift", "bitwise_right_shift_", "bitwise_xor", "bitwise_xor_",
    "bmm", "bool", "byte", "cauchy_", "ceil", "ceil_", "char", "chunk", "clamp", "clamp_",
    "clamp_max", "clamp_max_", "clamp_min", "clamp_min_", "clip", "clip_", "clone", "conj_physical",
    "conj_physical_", "contiguous", "copy_", "copysign", "copysign_", "cos", "cos_", "cosh",
    "cosh_", "cumprod", "cumprod_", "cumsum", "cumsum_", "data_ptr", "deg2rad", "deg2rad_",
    "detach", "detach_", "diagonal", "dim", "div", "div_", "divide", "divide_", "dot", "double",
    "element_size", "eq", "eq_", "exp", "exp2", "exp2_", "exp_", "expand", "expand_as", "expm1",
    "expm1_", "exponential_", "fill_", "fill_diagonal_", "fix", "fix_", "flatten", "flip", "float",
    "float_power", "float_power_", "floor", "floor_", "floor_divide", "floor_divide_", "fmod",
    "fmod_", "frac", "frac_", "gather", "gcd", "gcd_", "ge", "ge_", "geometric_", "greater",
    "greater_", "greater_equal", "greater_equal_", "gt", "gt_", "half", "heaviside", "heaviside_",
    "hypot", "hypot_", "i0", "i0_", "index_add", "index_add_", "index_copy", "index_copy_",
    "index_fill", "index_fill_", "index_put", "index_put_", "index_reduce", "index_reduce_",
    "index_select", "int", "is_contiguous", "is_floating_point", "is_inference", "isfinite",
    "isinf", "isnan", "lcm", "lcm_", "ldexp", "ldexp_", "le", "le_", "lerp", "lerp_", "less",
    "less_", "less_equal", "less_equal_", "log", "log10", "log10_", "log1p", "log1p_", "log2",
    "log2_", "log_", "log_normal_", "log_softmax", "logical_and", "logical_and_", "logical_not",
    "logical_not_", "logical_or", "logical_or_", "logical_xor", "logical_xor_", "logit", "logit_",
    "long", "lt", "lt_", "masked_fill", "masked_fill_", "masked_scatter", "masked_scatter_",
    "matmul", "max", "maximum", "mean", "min", "minimum", "mm", "moveaxis", "movedim", "msort",
    "mul", "mul_", "multiply", "multiply_", "mv", "nan_to_num", "nan_to_num_", "narrow", "ne",
    "ne_", "neg", "neg_", "negative", "negative_", "nextafter", "nextafter_", "nonzero", "norm",
    "normal_", "not_equal", "not_equal_", "numel", "permute", "pow", "pow_", "put", "put_",
    "rad2deg", "rad2deg_", "random_", "reciprocal", "reciprocal_", "relu", "relu_", "remainder",
    "remainder_", "renorm", "renorm_", "repeat", "requires_grad_", "reshape", "reshape_as",
    "retain_grad", "roll", "round", "round_", "rsqrt", "rsqrt_", "scatter", "scatter_",
    "scatter_add", "scatter_add_", "scatter_reduce", "scatter_reduce_", "select", "sgn", "sgn_",
    "short", "sigmoid", "sigmoid_", "sign", "sign_", "sin", "sin_", "sinc", "sinc_", "sinh",
    "sinh_", "size", "softmax", "sort", "split", "split_with_sizes", "sqrt", "sqrt_", "square",
    "square_", "squeeze", "squeeze_", "std", "storage_offset", "stride", "sub", "sub_", "subtract",
    "subtract_", "sum", "swapaxes", "swapaxes_", "swapdims", "swapdims_", "t", "t_", "take", "tan",
    "tan_", "tanh", "tanh_", "to", "topk", "transpose", "transpose_", "tril", "tril_", "triu",
    "triu_", "true_divide", "true_divide_", "trunc", "trunc_", "type", "type_as", "unbind",
    "unflatten", "unfold", "uniform_", "unsqueeze", "unsqueeze_", "untyped_storage", "var", "view",
    "view_as", "where", "xlogy", "xlogy_", "zero_",
]
BINDING = [f"x.{n}(foo=1)" for n in BOUND_METHODS if n != "nonzero"] + [
    f"x.{n}(1, 2, 3, 4, 5, 6, 7)" for n in BOUND_METHODS]
