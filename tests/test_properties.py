"""Property tests of the core against NumPy (no PyTorch needed).

* broadcasting: result shapes and values of binary ops agree with NumPy's broadcasting;
* layouts: tensors with **permuted strides** (a contiguous tensor, then a random permutation) read
  back like NumPy's transpose; contiguous(), t(), transpose, view/reshape, expand, narrow and
  select follow the stride arithmetic; data_ptr = storage data_ptr + offset * itemsize;
* in-place ops on permuted-stride views write through to the base and keep data_ptr.

``IPT_PROPERTIES_MODULE=torch`` runs the same properties against PyTorch, to check the tests.
"""

import importlib
import os

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis_settings import examples

ipt = importlib.import_module(os.environ.get("IPT_PROPERTIES_MODULE", "inplace_tutorial"))

SETTINGS = examples(60)  # per test: don't change other modules' profile


# --------------------------------------------------------------------------------------
# strategies


def values(shape, seed, dtype=np.float32):
    rng = np.random.default_rng(seed)
    if dtype == np.int64:
        return rng.integers(-5, 6, size=shape).astype(np.int64)
    return rng.uniform(-3, 3, size=shape).astype(dtype)


@st.composite
def broadcastable_pair(draw):
    out = draw(st.lists(st.integers(1, 4), min_size=0, max_size=4))

    def operand():
        k = draw(st.integers(0, len(out)))
        suffix = out[len(out) - k :]
        return tuple(1 if draw(st.booleans()) else d for d in suffix)

    return operand(), operand()


@st.composite
def permuted(draw, min_dims=1, max_dims=4):
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=min_dims, max_size=max_dims)))
    perm = tuple(draw(st.permutations(range(len(shape)))))
    seed = draw(st.integers(0, 2**16))
    return shape, perm, seed


def c_strides(shape):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return tuple(reversed(strides))


def data_ptr_rule(x):
    return x.data_ptr() == x.untyped_storage().data_ptr() + x.storage_offset() * x.element_size()


# --------------------------------------------------------------------------------------
# broadcasting


@SETTINGS
@given(
    broadcastable_pair(), st.integers(0, 2**16), st.sampled_from(["add", "sub", "mul", "maximum"])
)
def test_broadcast_binary_matches_numpy(shapes, seed, op):
    sa, sb = shapes
    a, b = values(sa, seed), values(sb, seed + 1)
    x, y = ipt.tensor(a), ipt.tensor(b)
    r = {
        "add": lambda: x + y,
        "sub": lambda: x - y,
        "mul": lambda: x * y,
        "maximum": lambda: ipt.maximum(x, y),
    }[op]()
    ref = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "maximum": np.maximum}[op](a, b)
    assert tuple(r.shape) == np.broadcast_shapes(sa, sb) == ref.shape
    assert str(r.dtype) == "torch.float32"
    np.testing.assert_allclose(r.numpy(), ref, rtol=1e-6)


@SETTINGS
@given(broadcastable_pair(), st.integers(0, 2**16))
def test_broadcast_int_and_float_operands(shapes, seed):
    sa, sb = shapes
    a, b = values(sa, seed, np.int64), values(sb, seed + 1)
    r = ipt.tensor(a) * ipt.tensor(b)
    assert str(r.dtype) == "torch.float32"
    np.testing.assert_allclose(r.numpy(), a.astype(np.float32) * b, rtol=1e-6)
    ri = ipt.tensor(a) + ipt.tensor(a)
    assert str(ri.dtype) == "torch.int64"
    np.testing.assert_array_equal(ri.numpy(), a + a)


@SETTINGS
@given(broadcastable_pair(), st.integers(0, 2**16))
def test_inplace_broadcasts_other_into_self(shapes, seed):
    sa, sb = shapes
    out = np.broadcast_shapes(sa, sb)
    a, b = values(out, seed), values(sb, seed + 1)
    x = ipt.tensor(a)
    p = x.data_ptr()
    r = x.add_(ipt.tensor(b))
    assert r is x and x.data_ptr() == p and x._version == 1
    np.testing.assert_allclose(x.numpy(), a + b, rtol=1e-6)


@SETTINGS
@given(broadcastable_pair(), st.integers(0, 2**16))
def test_inplace_cannot_grow_self(shapes, seed):
    sa, sb = shapes
    out = np.broadcast_shapes(sa, sb)
    if tuple(out) == tuple(sa):
        return
    x = ipt.tensor(values(sa, seed))
    try:
        x.add_(ipt.tensor(values(sb, seed + 1)))
    except RuntimeError as e:
        assert "doesn't match the broadcast shape" in str(e)
    else:
        raise AssertionError(f"add_ of {sb} into {sa} should fail")
    assert x._version == 0


# --------------------------------------------------------------------------------------
# permuted strides


@SETTINGS
@given(permuted())
def test_permuted_reads_like_numpy_transpose(case):
    shape, perm, seed = case
    a = values(shape, seed)
    x = ipt.tensor(a)
    y = x.permute(*perm)
    assert tuple(x.stride()) == c_strides(shape)
    assert tuple(y.shape) == tuple(shape[p] for p in perm)
    assert tuple(y.stride()) == tuple(x.stride()[p] for p in perm)
    assert y.data_ptr() == x.data_ptr() and y.storage_offset() == 0
    np.testing.assert_array_equal(y.numpy(), a.transpose(perm))
    assert y.tolist() == a.transpose(perm).tolist()


@SETTINGS
@given(permuted())
def test_contiguous_produces_c_strides(case):
    shape, perm, seed = case
    a = values(shape, seed)
    y = ipt.tensor(a).permute(*perm)
    c = y.contiguous()
    assert c.is_contiguous()
    # PyTorch's contiguity ignores the strides of size-1 dimensions
    assert [s for s, n in zip(c.stride(), c.shape, strict=False) if n > 1] == [
        s for s, n in zip(c_strides(tuple(y.shape)), y.shape, strict=False) if n > 1
    ]
    assert c.storage_offset() == 0
    np.testing.assert_array_equal(c.numpy(), a.transpose(perm))
    if y.is_contiguous():
        assert c is y
    else:
        assert tuple(c.stride()) == c_strides(tuple(y.shape))
        assert c.untyped_storage().data_ptr() != y.untyped_storage().data_ptr()


@SETTINGS
@given(permuted(min_dims=2))
def test_transpose_swaps_strides(case):
    shape, perm, seed = case
    a = values(shape, seed)
    y = ipt.tensor(a).permute(*perm)
    nd = len(shape)
    for i in range(nd):
        for j in range(nd):
            z = y.transpose(i, j)
            s = list(y.stride())
            s[i], s[j] = s[j], s[i]
            assert tuple(z.stride()) == tuple(s)
            assert z.data_ptr() == y.data_ptr()
            np.testing.assert_array_equal(z.numpy(), np.swapaxes(a.transpose(perm), i, j))
    if nd == 2:
        assert tuple(y.t().stride()) == tuple(reversed(y.stride()))
        np.testing.assert_array_equal(y.t().numpy(), a.transpose(perm).T)


@SETTINGS
@given(permuted())
def test_view_reshape_round_trip(case):
    shape, perm, seed = case
    a = values(shape, seed)
    y = ipt.tensor(a).permute(*perm)
    c = y.contiguous()
    flat = c.view(-1)
    assert tuple(flat.shape) == (int(np.prod(shape)),)
    assert flat.stride() == (1,) and flat.data_ptr() == c.data_ptr()
    back = flat.reshape(*y.shape)
    assert back.data_ptr() == c.data_ptr()
    assert tuple(back.stride()) == c_strides(tuple(y.shape))
    np.testing.assert_array_equal(back.numpy(), a.transpose(perm))
    r = y.reshape(-1)  # copies exactly when the permuted layout can't be viewed flat
    np.testing.assert_array_equal(r.numpy(), a.transpose(perm).reshape(-1))
    if y.is_contiguous():
        assert r.data_ptr() == y.data_ptr()


@SETTINGS
@given(permuted(), st.integers(2, 4))
def test_expand_gives_stride_zero(case, k):
    shape, perm, seed = case
    a = values(shape, seed)
    y = ipt.tensor(a).permute(*perm).unsqueeze(0)
    e = y.expand(k, *y.shape[1:])
    assert e.stride()[0] == 0
    assert tuple(e.stride()[1:]) == tuple(y.stride()[1:])
    assert e.data_ptr() == y.data_ptr()
    np.testing.assert_array_equal(
        e.numpy(), np.broadcast_to(a.transpose(perm)[None], (k,) + tuple(y.shape[1:]))
    )
    for d, size in enumerate(y.shape):
        if size == 1 and d > 0:
            target = list(y.shape)
            target[d] = k
            assert y.expand(*target).stride()[d] == 0


@SETTINGS
@given(permuted(), st.data())
def test_select_and_narrow_offsets(case, data):
    shape, perm, seed = case
    a = values(shape, seed)
    x = ipt.tensor(a)
    y = x.permute(*perm)[
        tuple(slice(1, None) if s > 1 else slice(None) for s in (shape[p] for p in perm))
    ]
    ref = a.transpose(perm)[
        tuple(slice(1, None) if s > 1 else slice(None) for s in (shape[p] for p in perm))
    ]
    assert data_ptr_rule(y)
    d = data.draw(st.integers(0, y.dim() - 1))
    i = data.draw(st.integers(0, y.shape[d] - 1))
    s = y.select(d, i)
    assert s.storage_offset() == y.storage_offset() + i * y.stride(d)
    assert data_ptr_rule(s)
    np.testing.assert_array_equal(s.numpy(), np.take(ref, i, axis=d))
    start = data.draw(st.integers(0, y.shape[d] - 1))
    length = data.draw(st.integers(1, y.shape[d] - start))
    n = y.narrow(d, start, length)
    assert n.storage_offset() == y.storage_offset() + start * y.stride(d)
    assert tuple(n.stride()) == tuple(y.stride())
    assert data_ptr_rule(n)
    np.testing.assert_array_equal(n.numpy(), np.take(ref, range(start, start + length), axis=d))
    neg = y.select(d, -1)
    assert neg.storage_offset() == y.storage_offset() + (y.shape[d] - 1) * y.stride(d)


@SETTINGS
@given(permuted())
def test_inplace_on_permuted_writes_through(case):
    shape, perm, seed = case
    a = values(shape, seed)
    x = ipt.tensor(a)
    y = x.permute(*perm)
    p = y.data_ptr()
    y.add_(1.5)
    y.mul_(ipt.tensor(values(tuple(y.shape), seed + 1)))
    expected = (a.transpose(perm) + np.float32(1.5)) * values(tuple(y.shape), seed + 1)
    assert y.data_ptr() == p == x.data_ptr()
    assert x._version == y._version == 2
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-6)
    inv = np.argsort(perm)
    np.testing.assert_allclose(x.numpy(), expected.transpose(inv), rtol=1e-6)


@SETTINGS
@given(permuted(), st.data())
def test_setitem_on_permuted_writes_through(case, data):
    shape, perm, seed = case
    a = values(shape, seed)
    x = ipt.tensor(a)
    y = x.permute(*perm)
    idx = tuple(data.draw(st.integers(0, shape[p] - 1)) for p in perm)
    y[idx] = 42.0
    expected = a.copy()
    expected[tuple(idx[list(perm).index(d)] for d in range(len(shape)))] = 42.0
    np.testing.assert_array_equal(x.numpy(), expected)
    assert x._version == 1


@SETTINGS
@given(permuted(), st.sampled_from(["relu_", "neg_", "abs_", "tanh_", "zero_", "clamp_"]))
def test_unary_inplace_on_permuted(case, op):
    shape, perm, seed = case
    a = values(shape, seed)
    x = ipt.tensor(a)
    y = x.permute(*perm)
    p = y.data_ptr()
    r = y.clamp_(-1.0, 1.0) if op == "clamp_" else getattr(y, op)()
    ref = {
        "relu_": lambda v: np.maximum(v, 0),
        "neg_": np.negative,
        "abs_": np.abs,
        "tanh_": np.tanh,
        "zero_": np.zeros_like,
        "clamp_": lambda v: np.clip(v, -1, 1),
    }[op](a)
    assert r is y and y.data_ptr() == p
    np.testing.assert_allclose(x.numpy(), ref, rtol=1e-6, atol=1e-7)


@SETTINGS
@given(permuted(), permuted())
def test_copy_between_layouts(case_dst, case_src):
    shape, perm, seed = case_dst
    a = values(shape, seed)
    x = ipt.tensor(a)
    dst = x.permute(*perm)
    src_np = values(tuple(dst.shape), seed + 7)
    # give the source a permuted layout too: store it transposed, then permute back
    inv = tuple(np.argsort(perm))
    src = ipt.tensor(np.ascontiguousarray(src_np.transpose(inv))).permute(*perm)
    dst.copy_(src)
    np.testing.assert_array_equal(dst.numpy(), src_np)
    np.testing.assert_array_equal(x.numpy(), src_np.transpose(inv))


@SETTINGS
@given(permuted())
def test_out_of_place_on_permuted_matches_numpy(case):
    shape, perm, seed = case
    a = values(shape, seed)
    y = ipt.tensor(a).permute(*perm)
    ref = a.transpose(perm)
    np.testing.assert_allclose((y * 2 + 1).numpy(), ref * 2 + 1, rtol=1e-6)
    np.testing.assert_allclose(y.exp().numpy(), np.exp(ref), rtol=1e-5)
    np.testing.assert_allclose(y.sum().item(), ref.sum(dtype=np.float64), rtol=1e-4, atol=1e-4)
    for d in range(y.dim()):
        np.testing.assert_allclose(y.sum(d).numpy(), ref.sum(axis=d), rtol=1e-5, atol=1e-5)
    assert y.clone().numpy().tolist() == ref.tolist()


@st.composite
def non_broadcastable_pair(draw):
    sa, sb = draw(broadcastable_pair())
    sa, sb = list(sa), list(sb)
    if not sa:
        sa = [draw(st.integers(2, 4))]
    # make one or more aligned dimensions disagree (both sizes != 1)
    ks = draw(st.lists(st.integers(1, len(sa)), min_size=1, max_size=len(sa), unique=True))
    while len(sb) < max(ks):
        sb.insert(0, 1)
    for k in ks:
        a_size = draw(st.integers(2, 4))
        b_size = draw(st.integers(2, 4).filter(lambda v, a_size=a_size: v != a_size))
        sa[-k], sb[-k] = a_size, b_size
    return tuple(sa), tuple(sb)


def expected_broadcast_error(sa, sb):
    """PyTorch's infer_size: scan from the last dimension, report the first mismatch."""
    nd = max(len(sa), len(sb))
    for i in range(nd - 1, -1, -1):
        off = nd - 1 - i
        a = sa[len(sa) - 1 - off] if len(sa) - 1 - off >= 0 else 1
        b = sb[len(sb) - 1 - off] if len(sb) - 1 - off >= 0 else 1
        if a != b and a != 1 and b != 1:
            return (
                f"The size of tensor a ({a}) must match the size of tensor b ({b}) "
                f"at non-singleton dimension {i}"
            )
    raise AssertionError("shapes broadcast")


@SETTINGS
@given(non_broadcastable_pair(), st.integers(0, 2**16))
def test_broadcast_error_message(shapes, seed):
    sa, sb = shapes
    x, y = ipt.tensor(values(sa, seed)), ipt.tensor(values(sb, seed + 1))
    for op in (lambda: x + y, lambda: x * y, lambda: ipt.maximum(x, y)):
        try:
            op()
        except RuntimeError as e:
            assert str(e) == expected_broadcast_error(sa, sb)
        else:
            raise AssertionError(f"{sa} and {sb} should not broadcast")


@examples(500)
@given(
    permuted(min_dims=2),
    st.data(),
    st.sampled_from(["neg_", "sigmoid_", "relu_", "mul_", "add_tensor", "copy_", "setitem"]),
)
def test_inplace_on_narrowed_permuted_view_writes_the_right_elements(case, data, op):
    """Narrow a permuted tensor (maybe to size 1), write in place, compare with NumPy's view."""
    shape, perm, seed = case
    a = values(shape, seed)
    x = ipt.tensor(a)
    y = x.permute(*perm)
    ref_base = a.copy()
    ref = ref_base.transpose(perm)  # a NumPy view with the same layout semantics
    for d in range(y.dim()):
        start = data.draw(st.integers(0, y.shape[d] - 1))
        # length 1 often: a size-1 dimension whose stride is the smallest one is a classic trap
        length = data.draw(st.one_of(st.just(1), st.integers(1, y.shape[d] - start)))
        y = y.narrow(d, start, length)
        ref = ref[(slice(None),) * d + (slice(start, start + length),)]
    other = values(tuple(y.shape), seed + 3)
    if op == "neg_":
        y.neg_()
        ref *= -1
    elif op == "sigmoid_":
        y.sigmoid_()
        ref[...] = 1 / (1 + np.exp(-ref))
    elif op == "relu_":
        y.relu_()
        ref[...] = np.maximum(ref, 0)
    elif op == "mul_":
        y.mul_(3.0)
        ref *= np.float32(3.0)
    elif op == "add_tensor":
        y.add_(ipt.tensor(other))
        ref += other
    elif op == "copy_":
        y.copy_(ipt.tensor(other))
        ref[...] = other
    else:
        y[...] = 5.0
        ref[...] = 5.0
    np.testing.assert_allclose(y.numpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(x.numpy(), ref_base, rtol=1e-6)
