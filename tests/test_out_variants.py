"""out= in the core: writes straight into out (0 B allocated), resizes a wrongly shaped out as
PyTorch does (its bytes counted), and refuses a matmul out that aliases an input (where the
core is stricter than PyTorch on purpose)."""
from __future__ import annotations

from pathlib import Path

import pytest

import inplace_tutorial as ipt
from inplace_tutorial import memory
from inplace_tutorial.ops import out_variants


def test_out_allocates_nothing_and_bumps_out():
    a, b = ipt.randn(512, 512), ipt.randn(512, 512)
    c = ipt.empty(512, 512)
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    ipt.minimum(a, b, out=a)
    ipt.add(a, b, alpha=-0.5, out=a)
    ipt.matmul(a, b, out=c)
    assert memory.max_memory_allocated() == base
    assert a._version == 2 and c._version == 1


def test_wrong_shape_is_resized_as_pytorch_does():
    small = ipt.zeros(2)
    memory.reset_peak_memory_stats()
    base = memory.memory_allocated()
    with pytest.warns(UserWarning, match=r"resized since it had shape \[2\], which does not "
                                         r"match the required output shape \[3\]"):
        ipt.add(ipt.ones(3), 1, out=small)
    assert small.tolist() == [2.0] * 3 and small._version == 1
    assert memory.memory_allocated() - base == 3 * 4 - 2 * 4  # grown to 3 floats, counted
    big = ipt.zeros(10)
    ptr = big.data_ptr()
    with pytest.warns(UserWarning, match="resized"):
        ipt.sin(ipt.zeros(3), out=big)
    assert big.shape == (3,) and big.data_ptr() == ptr  # large enough: same storage


def test_a_grown_storage_counts_its_new_buffer_and_gives_the_old_one_back():
    """The storage object stays (label, op trace) and grows: the new buffer is counted before
    the old one is given back; a NumPy array still looking at the old buffer keeps it (and its
    count) alive until it dies, as every buffer of the core does."""
    small = ipt.zeros(4)
    storage, label = small.untyped_storage(), small.untyped_storage().label
    old_window = small.numpy()
    base = memory.memory_allocated()
    with memory.record() as trace:
        ipt.add(ipt.ones(2, 5), 1, out=small)
    assert small.untyped_storage() is storage and storage.label == label
    assert storage.nbytes() == 40 and small.tolist() == [[2.0] * 5] * 2
    grown = [e for e in trace.events if e.label == label]
    assert [(e.kind, e.nbytes) for e in grown] == [("alloc", 40)]  # old buffer still seen
    assert memory.memory_allocated() - base == 40  # both buffers counted (the input is gone)
    with memory.record() as trace:
        del old_window
    assert [(e.kind, e.nbytes, e.label) for e in trace.events] == [
        ("free", 16, f"{label} (before resize_)")]
    assert trace.alive_at(-1) == []


def test_views_made_before_the_growth_read_the_new_buffer():
    x = ipt.zeros(3)
    view, detached = x[1:], x.detach()
    assert view.tolist() == [0.0, 0.0] and detached.sum().item() == 0.0  # windows opened
    with pytest.warns(UserWarning, match="resized"):
        ipt.mul(ipt.tensor([1.0, 2.0, 3.0, 4.0]), 10, out=x)
    assert view.tolist() == [20.0, 30.0] and detached.tolist() == [10.0, 20.0, 30.0]
    view.fill_(-1.0)
    assert x.tolist() == [10.0, -1.0, -1.0, 40.0] and x._version == view._version == 2


def test_out_ops_come_from_the_op_table():
    names = out_variants.pointwise_ops()
    assert {"sin", "atan2", "logical_and", "addcmul", "clamp", "bitwise_xor"} <= set(names)
    assert "relu" not in names  # torch.relu takes no out=
    assert all(callable(getattr(ipt, n)) for n in names)


# the ops/ modules whose ops are not element-wise (or are helpers)
# (infrastructure: arg_checks, tensor_iterator; isnan/isinf/isfinite take no out= in torch;
# fill_draw's torch.bernoulli(out=) is not there yet)
NOT_POINTWISE = {"activations", "advanced_indexing", "arg_checks", "attention", "batch_norm",
                 "casts", "cpu_lanes", "distributions", "fill_draw", "float_classes",
                 "tensor_factories", "tensor_iterator", "tensor_shape",
                 "cross_entropy", "dims", "dtype_rules", "einsum", "embedding", "fill",
                 "index_add_rounding", "index_fill", "index_ops", "index_put", "index_reduce",
                 "indexing", "joining",
                 "linalg", "loss_ops", "masking", "matrix_vector", "nan_sign", "nn_ops", "nonzero",
                 "pooling",
                 "normalization",
                 "norms", "operators", "out_functions", "out_reductions", "out_variants",
                 "put_take", "random", "random_from_to", "reduce", "reduced", "reorder",
                 "scalar_overloads", "scan", "scatter_gather", "scatter_reduce", "sorting",
                 "strided", "svd", "triangular", "view_dtype", "views"}
NOT_POINTWISE |= {"any_all", "reduce_ops", "tensor_compare"}  # issue 10's reductions (norms)
# selections with value/index pairs (their out= pairs live in out_selection.py), and the
# constant pad that conv padding='same' records
NOT_POINTWISE |= {"aminmax", "cummaxmin", "mode", "out_selection", "selection", "pad_nd"}
# cross (its own out=), and the composites whose out= is sub's/gather's (diff, take_along_dim)
NOT_POINTWISE |= {"cross", "diff", "take_along_dim"}
NOT_POINTWISE |= {"unary_nan_bits"}  # the NaN bits of unary ops (no ops of its own)
NOT_POINTWISE |= {"half_backward", "tanh_backward"}  # gradients' kernels (no ops of theirs)
NOT_POINTWISE |= {"cpu_loops"}  # the overlap walk's loop order (no ops of its own)
NOT_POINTWISE |= {"var_std", "max_min", "softmax", "addmm",  # split out of reduce.py, linalg.py
                  "tensor_split", "repeat_interleave",  # and tensor_shape.py
                  "multi_output_views",  # and indexing.py
                  "workspace",  # and tensor_iterator.py (no ops of its own)
                  "random_factories"}  # randint, randperm ... (no out=)
NOT_POINTWISE |= {"padding"}  # F.pad's reflect/replicate kernels, circular copies (no out=)
NOT_POINTWISE |= {"svd_out"}  # linalg.svd's and torch.svd's out= triples
NOT_POINTWISE |= {"tensor_transformations", "atleast"}  # rot90, flips, ravel, atleast_Nd
NOT_POINTWISE |= {"diag", "tensordot", "kron"}  # diag/inner/kron: their own out= forms
# logaddexp(2) have no in-place twin (functional.py lists their out=); reductions
NOT_POINTWISE |= {"logaddexp", "nanmean", "var_mean"}
NOT_POINTWISE |= {"bucketization", "bincount"}  # index answers; their out= in bucketization
NOT_POINTWISE |= {"meshgrid", "vander"}  # grids of views; vander made of fill_/copy_/cumprod
NOT_POINTWISE |= {"activation", "rrelu"}  # celu/selu/rrelu: no out= in torch
NOT_POINTWISE |= {"activation_out"}  # torch.threshold's out= (its own, no overlap check)
# the activations helper's: F.* take no out=; torch.hardshrink/_nn.softplus ... have theirs
NOT_POINTWISE |= {"self_gated", "shrink", "softplus", "glu", "prelu", "activations_out"}
NOT_POINTWISE |= {"sorting_utils"}  # kthvalue's quickselect replayed on many lines: no op
NOT_POINTWISE |= {"adjoint"}  # x.T, x.mT, x.H, x.mH, x.adjoint(): views, no out=
NOT_POINTWISE |= {"resize", "set_storage", "callbacks"}  # storage-level; apply_, map_: no out=


def test_every_ops_module_is_classified():
    """A module split out of an element-wise family (rounding.py from unary_math.py) must join
    out_variants.POINTWISE_MODULES, or its ops silently lose out=."""
    modules = {p.stem for p in Path(out_variants.__file__).parent.glob("*.py")
               if not p.stem.startswith("_")}
    assert modules - set(out_variants.POINTWISE_MODULES) - NOT_POINTWISE == set()
    assert {"ceil", "floor", "round", "trunc", "frac"} <= set(out_variants.pointwise_ops())


def test_matmul_refuses_out_that_aliases_an_input():
    a, b = ipt.ones(3, 3), ipt.ones(3, 3)
    with pytest.raises(RuntimeError, match="out shares memory with an input"):
        ipt.matmul(a, b, out=a)
    assert a.tolist() == [[1.0] * 3] * 3 and a._version == 0  # nothing half-written


def test_ops_without_out_say_so():
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        ipt.flip(ipt.ones(2), [0], out=ipt.zeros(2))
    # sum has out= only with a dim (as PyTorch's overloads say)
    with pytest.raises(TypeError, match=r"sum\(\) received an invalid combination of "
                                        r"arguments - got \(Tensor, out=Tensor\)"):
        ipt.sum(ipt.ones(2), out=ipt.zeros(()))
