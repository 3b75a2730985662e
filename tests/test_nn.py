"""nn: Module bookkeeping, the layers' values and gradients (gradcheck), memory visibility."""
import math

import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import nn
from inplace_tutorial.autograd import gradcheck
from inplace_tutorial.nn import functional as F


def f64(*shape, seed=0):
    rng = np.random.default_rng(seed)
    return ipt.tensor(rng.standard_normal(shape), dtype=ipt.float64, requires_grad=True)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.bn = nn.BatchNorm1d(3)
        self.act = nn.ReLU(inplace=True)
        self.fc2 = nn.Linear(3, 2, bias=False)

    def forward(self, x):
        return self.fc2(self.act(self.bn(self.fc1(x))))


# ----------------------------------------------------------------------------- Module
def test_parameters_children_modules_and_buffers():
    net = Net()
    names = [n for n, _ in net.named_parameters()]
    assert names == ["fc1.weight", "fc1.bias", "bn.weight", "bn.bias", "fc2.weight"]
    assert sum(p.numel() for p in net.parameters()) == 12 + 3 + 3 + 3 + 6
    assert [type(c).__name__ for c in net.children()] == ["Linear", "BatchNorm1d", "ReLU",
                                                          "Linear"]
    assert len(list(net.modules())) == 5
    assert [n for n, _ in net.named_buffers()] == ["bn.running_mean", "bn.running_var",
                                                   "bn.num_batches_tracked"]


def test_parameter_is_a_leaf_tensor_with_torch_repr():
    p = nn.Parameter(ipt.ones(2))
    assert isinstance(p, ipt.Tensor) and p.is_leaf and p.requires_grad
    assert repr(p) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"
    assert type(p * 2) is ipt.Tensor  # results of ops are plain tensors


def test_train_eval_propagate():
    net = Net()
    net.eval()
    assert not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())


def test_zero_grad_sets_none_by_default_or_zero_fills_in_place():
    net = Net()
    net(ipt.randn(5, 4)).sum().backward()
    g = net.fc1.weight.grad
    ptr = g.data_ptr()
    net.zero_grad(set_to_none=False)
    assert net.fc1.weight.grad.data_ptr() == ptr and float(g.abs().sum()) == 0.0
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_state_dict_round_trip_copies_in_place():
    a, b = Net(), Net()
    a(ipt.randn(6, 4))  # moves bn running stats
    sd = a.state_dict()
    assert list(sd) == ["fc1.weight", "fc1.bias", "bn.weight", "bn.bias", "bn.running_mean",
                        "bn.running_var", "bn.num_batches_tracked", "fc2.weight"]
    ptr = b.fc1.weight.data_ptr()
    assert repr(b.load_state_dict(sd)) == "<All keys matched successfully>"
    assert b.fc1.weight.data_ptr() == ptr
    for k, v in b.state_dict().items():
        np.testing.assert_array_equal(v.numpy(), sd[k].numpy())
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "fc2.weight"'):
        b.load_state_dict({k: v for k, v in sd.items() if k != "fc2.weight"})


def test_repr_like_torch():
    m = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
                      nn.Flatten(), nn.Linear(4, 2, bias=False))
    assert repr(m) == (
        "Sequential(\n"
        "  (0): Conv2d(1, 2, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))\n"
        "  (1): ReLU(inplace=True)\n"
        "  (2): MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)\n"
        "  (3): Flatten(start_dim=1, end_dim=-1)\n"
        "  (4): Linear(in_features=4, out_features=2, bias=False)\n"
        ")")


def test_sequential_index_len_slice():
    m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(m) == 3 and isinstance(m[-1], nn.Linear) and len(m[:2]) == 2
    with pytest.raises(IndexError):
        m[3]


# ----------------------------------------------------------------------------- init
def test_default_init_bounds_and_seed():
    ipt.manual_seed(3)
    a = nn.Linear(50, 20)
    ipt.manual_seed(3)
    b = nn.Linear(50, 20)
    np.testing.assert_array_equal(a.weight.detach().numpy(), b.weight.detach().numpy())
    bound = 1 / math.sqrt(50)  # kaiming_uniform_(a=sqrt(5)) gives exactly 1/sqrt(fan_in)
    w = a.weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert np.abs(a.bias.detach().numpy()).max() <= bound


# ----------------------------------------------------------------------------- layers
def test_linear_matches_numpy_and_uses_addmm():
    lin = nn.Linear(4, 3)
    x = ipt.randn(5, 4)
    y = lin(x)
    ref = x.numpy() @ lin.weight.detach().numpy().T + lin.bias.detach().numpy()
    np.testing.assert_allclose(y.detach().numpy(), ref, rtol=1e-6, atol=1e-6)
    assert y.grad_fn.name() == "AddmmBackward0"


def _conv_ref(x, w, b, s, p):
    x = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    n, c, h, wd = x.shape
    co, _, kh, kw = w.shape
    ho, wo = (h - kh) // s + 1, (wd - kw) // s + 1
    out = np.zeros((n, co, ho, wo))
    for i in range(ho):
        for j in range(wo):
            patch = x[:, :, i * s:i * s + kh, j * s:j * s + kw]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w) + b
    return out


@pytest.mark.parametrize("stride,padding", [(1, 0), (2, 1), (1, 2)])
def test_conv2d_matches_direct_loops(stride, padding):
    conv = nn.Conv2d(2, 3, 3, stride=stride, padding=padding)
    x = ipt.randn(2, 2, 7, 6)
    y = conv(x)
    ref = _conv_ref(x.numpy(), conv.weight.detach().numpy(), conv.bias.detach().numpy(),
                    stride, padding)
    np.testing.assert_allclose(y.detach().numpy(), ref, rtol=1e-5, atol=1e-5)
    assert y.grad_fn.name() == "ConvolutionBackward0"


@pytest.mark.parametrize("stride,padding", [(1, 1), (2, 0)])
def test_conv2d_gradcheck(stride, padding):
    x, w, b = f64(2, 2, 5, 5, seed=1), f64(3, 2, 3, 3, seed=2), f64(3, seed=3)
    assert gradcheck(lambda x, w, b: F.conv2d(x, w, b, stride, padding), (x, w, b))


def test_conv2d_im2col_workspace_is_visible():
    conv = nn.Conv2d(3, 8, 3)
    x = ipt.randn(2, 3, 10, 10)
    with ipt.memory.record() as trace:
        conv(x)
    cols = [e for e in trace.events if e.kind == "alloc" and e.op == "conv2d im2col"]
    assert cols and max(e.nbytes for e in cols) == 3 * 3 * 3 * 2 * 8 * 8 * 4


def test_pools_values_and_gradcheck():
    x = ipt.tensor(np.arange(16.0).reshape(1, 1, 4, 4), requires_grad=True)
    y, idx = F.max_pool2d(x, 2, return_indices=True)
    assert y.detach().tolist() == [[[[5.0, 7.0], [13.0, 15.0]]]]
    assert idx.tolist() == [[[[5, 7], [13, 15]]]]
    assert y.grad_fn.name() == "MaxPool2DWithIndicesBackward0"
    assert F.avg_pool2d(x, 2).detach().tolist() == [[[[2.5, 4.5], [10.5, 12.5]]]]
    z = f64(2, 2, 5, 5, seed=4)
    assert gradcheck(lambda t: F.max_pool2d(t, 3, 2, 1), (z,))
    assert gradcheck(lambda t: F.avg_pool2d(t, 2, 1), (z,))


def test_batchnorm_training_updates_running_stats_in_place():
    bn = nn.BatchNorm2d(3)
    x = ipt.randn(4, 3, 5, 5) * 2 + 1
    ptr, v0 = bn.running_mean.data_ptr(), bn.running_mean._version
    y = bn(x)
    a = x.numpy()
    mean, var_u = a.mean(axis=(0, 2, 3)), a.var(axis=(0, 2, 3), ddof=1)
    np.testing.assert_allclose(bn.running_mean.numpy(), 0.1 * mean, rtol=1e-5)
    np.testing.assert_allclose(bn.running_var.numpy(), 0.9 + 0.1 * var_u, rtol=1e-5)
    # written in place, but (as in PyTorch) without a version step: the kernel writes them
    assert bn.running_mean.data_ptr() == ptr and bn.running_mean._version == v0 == 1
    assert int(bn.num_batches_tracked) == 1
    yn = y.detach().numpy()
    np.testing.assert_allclose(yn.mean(axis=(0, 2, 3)), 0, atol=1e-5)
    assert y.grad_fn.name() == "NativeBatchNormBackward0"
    bn.eval()
    ye = bn(x).detach().numpy()
    ref = (a - bn.running_mean.numpy().reshape(1, 3, 1, 1)) / np.sqrt(
        bn.running_var.numpy().reshape(1, 3, 1, 1) + 1e-5)
    np.testing.assert_allclose(ye, ref, rtol=1e-4, atol=1e-5)
    assert int(bn.num_batches_tracked) == 1


def test_batchnorm_cumulative_average_when_momentum_none():
    bn = nn.BatchNorm1d(2, momentum=None)
    xs = [ipt.randn(8, 2) + i for i in range(3)]
    for x in xs:
        bn(x)
    ref = np.mean([x.numpy().mean(0) for x in xs], axis=0)
    np.testing.assert_allclose(bn.running_mean.numpy(), ref, rtol=1e-5)


@pytest.mark.parametrize("training", [True, False])
def test_batchnorm_gradcheck(training):
    x, w, b = f64(4, 3, 2, 2, seed=5), f64(3, seed=6), f64(3, seed=7)
    rm, rv = ipt.zeros(3, dtype=ipt.float64), ipt.ones(3, dtype=ipt.float64) * 1.5
    assert gradcheck(lambda x, w, b: F.batch_norm(x, rm.clone(), rv.clone(), w, b, training),
                     (x, w, b))


def test_relu_inplace_returns_its_input_and_sigmoid_then_relu_inplace_fails():
    x = ipt.randn(3, 4)
    assert nn.ReLU(inplace=True)(x) is x
    w = ipt.randn(3, 4, requires_grad=True)
    y = nn.ReLU(inplace=True)(nn.Sigmoid()(w * 1.0))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_dropout_seeded_scaled_and_identity_in_eval():
    d = nn.Dropout(0.25)
    x = ipt.ones(1000)
    ipt.manual_seed(1)
    a = d(x).numpy().copy()
    ipt.manual_seed(1)
    b = d(x).numpy().copy()
    np.testing.assert_array_equal(a, b)
    assert set(np.unique(a)) == {0.0, np.float32(1 / 0.75)}
    assert 0.18 < (a == 0).mean() < 0.32
    d.eval()
    assert d(x) is x


def test_cross_entropy_nll_and_mse_match_numpy():
    logits, target = f64(5, 4, seed=8), ipt.tensor([0, 3, 1, 1, 2])
    a = logits.detach().numpy()
    logp = a - a.max(1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(1, keepdims=True))
    picked = -logp[np.arange(5), target.numpy()]
    for red, ref in (("mean", picked.mean()), ("sum", picked.sum()), ("none", picked)):
        out = F.cross_entropy(logits, target, reduction=red)
        np.testing.assert_allclose(out.detach().numpy(), ref, rtol=1e-10)
    assert F.cross_entropy(logits, target).grad_fn.name() == "NllLossBackward0"
    ign = F.nll_loss(logits.log_softmax(1), ipt.tensor([0, -100, 1, 1, 2]))
    np.testing.assert_allclose(ign.item(), picked[[0, 2, 3, 4]].mean(), rtol=1e-10)
    assert gradcheck(lambda z: F.cross_entropy(z, target), (logits,))
    y = f64(5, 4, seed=9)
    assert gradcheck(lambda a, b: F.mse_loss(a, b, reduction="sum"), (logits, y))
    np.testing.assert_allclose(F.mse_loss(logits, y).item(),
                               ((a - y.detach().numpy()) ** 2).mean(), rtol=1e-10)
    assert F.mse_loss(logits, y, reduction="none").shape == (5, 4)


def test_softmax_and_flatten():
    x = ipt.randn(2, 3, 2, 2)
    assert nn.Flatten()(x).shape == (2, 12)
    s = F.softmax(ipt.randn(4, 5), dim=1).numpy()
    np.testing.assert_allclose(s.sum(1), 1, rtol=1e-6)


def test_embedding_sparse_backward_says_the_core_has_no_sparse_tensors():
    """PyTorch gives the weight a sparse COO gradient; the core can't, and says so in backward
    (the forward and its node are as in PyTorch: test_embedding_grad_parity.py)."""
    w = ipt.tensor(np.arange(12.0).reshape(4, 3), requires_grad=True)
    y = F.embedding(ipt.tensor([0, 2, 2]), w, sparse=True)
    assert y.grad_fn._saved_sparse is True
    with pytest.raises(NotImplementedError, match="no sparse tensors"):
        y.sum().backward()
    assert w.grad is None


@pytest.mark.filterwarnings("ignore:Using padding='same'")
@pytest.mark.parametrize("kernel,dilation", [((2, 4), 1), ((3, 2), (2, 1)), ((2, 2), 3)])
def test_conv2d_same_even_kernel_matches_explicit_padding(kernel, dilation):
    """padding='same' with an odd total: the left amount on both sides plus one more cell on
    the right (bottom), as NumPy's own zero-padding and direct loops compute it."""
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((2, 3, 6, 7)), rng.standard_normal((4, 3, *kernel))
    d = (dilation,) * 2 if isinstance(dilation, int) else dilation
    total = [di * (k - 1) for di, k in zip(d, kernel)]
    xp = np.pad(x, ((0, 0), (0, 0), (total[0] // 2, total[0] - total[0] // 2),
                    (total[1] // 2, total[1] - total[1] // 2)))
    want = np.zeros((2, 4, 6, 7))
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            win = xp[:, :, i * d[0]:i * d[0] + 6, j * d[1]:j * d[1] + 7]
            want += np.einsum("nchw,oc->nohw", win, w[:, :, i, j])
    got = F.conv2d(ipt.tensor(x), ipt.tensor(w), padding="same", dilation=dilation)
    assert got.shape == (2, 4, 6, 7)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)
