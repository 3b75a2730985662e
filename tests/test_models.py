"""models: the seed article's models made real, the SGD-update memory claim, digits accuracy."""
import numpy as np
import pytest

import inplace_tutorial as ipt
from inplace_tutorial import models, nn, optim
from inplace_tutorial.data import DataLoader, TensorDataset, digits_split
from inplace_tutorial.nn import functional as F


def _params_with_grads(n):
    p = nn.Parameter(ipt.zeros(n))
    p.grad = ipt.ones(n)
    return [p]


def test_custom_sgd_update_allocates_a_full_size_temporary_pytorch_form_does_not():
    n = 1_000_000  # 4 MB of float32
    params = _params_with_grads(n)
    with ipt.memory.record() as article:
        models.custom_sgd_update(params, 0.01)
    with ipt.memory.record() as torch_form:
        models.pytorch_sgd_update(params, 0.01)
    big = [e for e in article.events if e.kind == "alloc" and e.nbytes == 4 * n]
    assert big and big[0].op == "mul"  # lr * param.grad
    # PyTorch's form works through the core's fixed workspace: no allocation at all
    assert [e for e in torch_form.events if e.kind == "alloc"] == []
    np.testing.assert_allclose(params[0].detach().numpy()[:3], [-0.02] * 3, rtol=1e-6)


@pytest.mark.parametrize("inplace", [True, False])
def test_conv_bn_relu_block_trains_and_infers(inplace):
    ipt.manual_seed(0)
    m = models.ConvBNReLU(3, 8, inplace=inplace)
    x = ipt.randn(2, 3, 6, 6)
    y = m(x)
    assert y.shape == (2, 8, 4, 4) and float(y.detach().numpy().min()) >= 0
    y.sum().backward()  # relu_ after BatchNorm is safe: BN saved its input, not its output
    assert m.conv.weight.grad is not None
    m.eval()
    with ipt.no_grad():
        np.testing.assert_array_equal(m(x).shape, (2, 8, 4, 4))


def test_conv_bn_relu_inplace_saves_the_relu_output_buffer():
    ipt.manual_seed(0)
    x = ipt.randn(2, 3, 10, 10)
    peaks = {}
    for inplace in (True, False):
        m = models.ConvBNReLU(3, 16, inplace=inplace).eval()
        with ipt.no_grad(), ipt.memory.record() as trace:
            m(x)
        peaks[inplace] = [e for e in trace.events if e.kind == "alloc" and e.op == "relu"]
    assert peaks[True] == [] and len(peaks[False]) == 1
    assert peaks[False][0].nbytes == 2 * 16 * 8 * 8 * 4


def test_production_model_paths_agree_and_inference_is_in_place():
    ipt.manual_seed(0)
    m = models.ProductionModel(in_channels=1, channels=4, num_classes=3)
    x = ipt.rand(5, 1, 8, 8)
    m.train()
    logits = m(x)
    logits.sum().backward()  # the training path is differentiable
    assert m.head.weight.grad is not None
    m.eval()
    with ipt.no_grad():
        ref = m.postprocess(m.extract_features_standard(m.preprocess_standard(x)))
    xi = x.clone()
    out = m(xi)
    assert out.is_inference() and not out.requires_grad
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(xi.numpy(), (x.numpy() - 0.5) / 0.25, rtol=1e-6)  # overwritten


def _fit(model, epochs, lr):
    ipt.manual_seed(0)
    xtr, xte, ytr, yte = digits_split()
    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=64, shuffle=True, seed=0)
    calls = []
    hist = models.train(model, loader, optim.Adam(model.parameters(), lr=lr), epochs,
                        progress=lambda **kw: calls.append(kw))
    return hist, calls, models.evaluate(model, xte, yte), len(loader)


def test_digits_mlp_reaches_95_percent():
    ipt.manual_seed(0)
    hist, calls, acc, steps = _fit(models.digits_mlp(), epochs=8, lr=0.01)
    assert acc >= 0.95, acc
    assert len(calls) == 8 * steps and calls[-1]["step"] == calls[-1]["total"]
    assert set(calls[0]) == {"epoch", "step", "total", "loss", "acc"}
    assert hist[-1]["loss"] < hist[0]["loss"]


def test_digits_cnn_reaches_95_percent():
    ipt.manual_seed(0)
    _, _, acc, _ = _fit(models.digits_cnn(), epochs=3, lr=0.01)
    assert acc >= 0.95, acc


def test_train_prints_one_line_per_epoch_unless_quiet(capsys):
    ipt.manual_seed(0)
    x, y = ipt.rand(20, 1, 8, 8), ipt.tensor([i % 10 for i in range(20)])
    loader = DataLoader(TensorDataset(x, y), batch_size=10)
    model = models.digits_mlp(hidden=8)
    models.train(model, loader, optim.SGD(model.parameters(), lr=0.1), 2)
    assert capsys.readouterr().out.count("epoch ") == 2
    models.train(model, loader, optim.SGD(model.parameters(), lr=0.1), 2, verbose=False)
    assert capsys.readouterr().out == ""
    assert F.cross_entropy(model(x), y).item() > 0


# --------------------------------------------------------------------------- the tiny GPT
def _tiny(use_sdpa=True, seed=0, **kw):
    ipt.manual_seed(seed)
    cfg = dict(block_size=16, n_embd=16, n_head=2, n_layer=2)
    cfg.update(kw)
    return models.GPT(11, use_sdpa=use_sdpa, **cfg)


def test_gpt_attention_written_out_equals_scaled_dot_product_attention():
    a, b = _tiny(use_sdpa=True), _tiny(use_sdpa=False)
    b.load_state_dict(a.state_dict())
    x = ipt.tensor(np.random.default_rng(0).integers(0, 11, (3, 9)))
    la, loss_a = a(x, x)
    lb, loss_b = b(x, x)
    np.testing.assert_allclose(la.detach().numpy(), lb.detach().numpy(), rtol=1e-5, atol=1e-6)
    loss_a.backward()
    loss_b.backward()
    for (name, pa), (_, pb) in zip(a.named_parameters(), b.named_parameters()):
        np.testing.assert_allclose(pa.grad.numpy(), pb.grad.numpy(), rtol=1e-4, atol=1e-6,
                                   err_msg=name)
    names = set()
    fn = [loss_a.grad_fn]
    while fn:  # the fused attention node is in the graph once per block
        f = fn.pop()
        names.add(f.name())
        fn.extend(g for g, _ in f.next_functions if g is not None)
    assert "ScaledDotProductFlashAttentionForCpuBackward0" in names


@pytest.mark.parametrize("use_sdpa", [True, False])
@pytest.mark.parametrize("seed", [None, 7])
def test_gpt_kv_cache_generation_equals_no_cache_token_for_token(use_sdpa, seed):
    m = _tiny(use_sdpa=use_sdpa, seed=1)
    prompt = ipt.tensor([[1, 2, 3], [4, 5, 6]])
    # 30 new tokens: more than block_size (16), so the window slides and the cache refills
    a = m.generate(prompt, 30, use_cache=True, seed=seed)
    b = m.generate(prompt, 30, use_cache=False, seed=seed)
    assert a.shape == (2, 33)
    assert a.numpy().tolist() == b.numpy().tolist()


def test_gpt_kv_cache_is_preallocated_and_written_in_place():
    m = _tiny()
    cache = models.KVCache(2, 1, 2, 16, 8)
    ptrs = [k.data_ptr() for k in cache.keys]
    with ipt.inference_mode():
        m(ipt.tensor([[1, 2, 3]]), cache=cache)
        m(ipt.tensor([[4]]), cache=cache)
    assert cache.pos == 4 and [k.data_ptr() for k in cache.keys] == ptrs
    assert cache.keys[0]._version == 2  # one slice assignment per forward
    assert float(cache.keys[0][:, :, 4:].abs().sum()) == 0.0


def test_gpt_too_long_a_sequence_is_refused():
    with pytest.raises(ValueError, match="longer than block_size"):
        _tiny()(ipt.zeros(1, 17, dtype=ipt.int64))


def test_tiny_gpt_learns_the_rule_generated_text():
    # a short run of the recipe benchmarks/bench_gpt.py times to models.TARGET_LOSS
    model, vocab, losses, held = models.train_tiny_gpt(steps=120)
    assert losses[0] > 3.0 and held < 1.2  # from log(V) ~ 3.3 toward the rule's 0.40
    text = vocab.decode(model.generate(ipt.tensor([vocab.encode("tom ")]), 40)[0].numpy())
    assert text.startswith("tom ") and len(text) == 44
