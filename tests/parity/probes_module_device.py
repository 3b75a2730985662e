"""Probes of nn.Module's conversions (nn/module.py: to, cpu, cuda, float, double, half,
bfloat16, type), the device=/dtype= of the layers, and how the parser names a device, a
layout, a Size or a Python class in its errors (invalid_arguments.type_name). Each line was
run on torch 2.13 first; test_module_to_parity.py holds the longer programs (Parameter
objects kept, grads, buffers, optimizers)."""
from __future__ import annotations

MODULE_TO = [
    "nn.Linear(2, 2).to(t.float64).weight.dtype",
    "nn.Linear(2, 2).to('cpu', t.float16).bias.requires_grad",
    "nn.Linear(2, 2).double().weight._version", "nn.Linear(2, 2).half().weight.is_leaf",
    "nn.Linear(2, 2).bfloat16().weight.dtype", "nn.Linear(2, 2).float().weight.dtype",
    "nn.Linear(2, 2).to(t.int64)", "nn.Linear(2, 2).to(t.bool)", "nn.Linear(2, 2).to(copy=True)",
    "nn.Linear(2, 2).to(t.float64, copy=False)", "nn.Linear(2, 2).to(1, 2, 3)",
    "nn.Linear(2, 2).to(2)", "nn.Linear(2, 2).to(-1)", "nn.Linear(2, 2).to(device=1.0)",
    "nn.Linear(2, 2).to('gpu')", "nn.Linear(2, 2).to('cuda:0')", "nn.Linear(2, 2).to(foo=1)",
    "nn.Linear(2, 2).to(t.strided)", "nn.Linear(2, 2).to(non_blocking=1)",
    "nn.Linear(2, 2).to(2.0).weight.dtype", "nn.Linear(2, 2).to(True)", "nn.Linear(2, 2).to(i)",
    "nn.Linear(2, 2).to(d).weight.dtype", "nn.Linear(2, 2).to(float).bias.dtype",
    "nn.Linear(2, 2).to(memory_format=t.channels_last).weight.stride()",
    "nn.Conv2d(2, 2, 2).to(memory_format=t.channels_last).weight.stride()",
    "nn.Conv2d(2, 2, 2).to(t.float64, memory_format=t.channels_last).weight.stride()",
    "nn.Linear(2, 2).to(memory_format=1)", "nn.Linear(2, 2).cuda(1)",
    "nn.Linear(2, 2).cuda('cpu')", "nn.Linear(2, 2).cuda(1.0)", "nn.ReLU().cuda()",
    "nn.Linear(2, 2).type(t.float64).weight.dtype", "nn.Linear(2, 2).type('torch.DoubleTensor')",
    "nn.Linear(2, 2).type(t.int32)", "nn.Linear(2, 2).type('foo')", "nn.ReLU().type(t.int8)",
    "nn.BatchNorm2d(2).type(t.float16).num_batches_tracked.dtype",
    "nn.BatchNorm2d(2).half().num_batches_tracked.dtype",
    "nn.BatchNorm2d(2).to(t.float64).running_var",
    "nn.BatchNorm1d(2).double().state_dict()['num_batches_tracked']",
    "nn.Sequential(nn.Linear(2, 2), nn.Tanh()).to(t.float16)[0].weight.dtype",
    "nn.Linear(2, 2).cpu(1)", "nn.Linear(2, 2).float(1)", "nn.Linear(2, 2).type()",
    "nn.Linear(2, 2).xpu()", "nn.Linear(2, 2).ipu()", "nn.Linear(2, 2).mtia()",
    "nn.Linear(2, 2).xpu(0)", "nn.Linear(2, 2).ipu('cpu')", "nn.ReLU().mtia() is not None",
    "x.xpu()", "x.ipu()", "x.mtia()", "x.xpu(0)", "x.xpu('cpu')", "x.ipu('cpu')",
    "x.mtia('cpu')", "x.xpu(1.0)", "x.ipu(non_blocking=1)", "x.xpu(memory_format=1)",
    "x.xpu('cuda')", "x.mtia(0)", "x.ipu(0)", "x.xpu(1, 2, 3, 4)", "x.mtia(foo=1)",
    "x.xpu(t.device('xpu'))", "x.mtia(device='mtia', non_blocking=True)",
]

LAYER_FACTORIES = [
    "nn.Linear(2, 2, device='cpu').weight.device", "nn.Linear(2, 2, dtype=t.float64).bias.dtype",
    "nn.Linear(2, 2, device='cuda:1')", "nn.Linear(2, 2, device=-1)",
    "nn.Conv2d(1, 1, 2, device=1)", "nn.Conv2d(1, 1, 2, dtype=t.float16).weight.dtype",
    "nn.BatchNorm2d(2, dtype=t.float64).running_mean.dtype",
    "nn.BatchNorm2d(2, dtype=t.float64).num_batches_tracked.dtype",
    "nn.BatchNorm1d(2, device=t.device('cpu', 0)).running_var",
    "nn.BatchNorm2d(2, dtype=t.int64)", "nn.BatchNorm2d(2, device=1.0)",
    "nn.BatchNorm2d(2, bias=False).bias", "nn.BatchNorm2d(2, bias=False)",
    "nn.BatchNorm1d(2, bias=False)(x.T.contiguous()).grad_fn.name()",
    "nn.BatchNorm1d(2, affine=False, bias=False)",
]

TYPE_NAMES = [
    "x.add(t.Size([2]))", "x.add(t.strided)", "x.add(t.contiguous_format)",
    "x.add(t.finfo(t.float32))", "x.add(t.iinfo(t.int8))", "x.add(nn.Linear(1, 1))",
    "x.add(t.no_grad())", "x.add(x.untyped_storage())", "t.zeros(2, dtype=t.strided)",
    "x.view(t.channels_last)", "t.add(x, x.device)",
]

# A Python int is unpacked into a Scalar as 64 bits, signed, else unsigned (PythonArgs::scalar:
# PyLong_AsLongLongAndOverflow, then PyLong_AsUnsignedLongLong): beyond, OverflowError before
# the op runs (before its dtype checks too); 2**63 .. 2**64-1 passes, as an unsigned scalar.
_BIG = ["2**70", "-2**70", "2**64", "-2**63-1", "2**63", "2**64-1", "-2**63"]
BIG_INTS = [
    *(f"i.{op}({n})" for op in ("add_", "sub_", "mul_", "add", "sub", "mul", "div", "div_",
                                "remainder_", "fmod_", "pow", "eq", "lt_", "bitwise_and_",
                                "fill_", "clamp_", "clamp_min", "floor_divide_")
      for n in _BIG),
    *(f"x.{op}({n})" for op in ("add_", "mul", "div_", "pow_", "ge", "maximum") for n in _BIG),
    "i + 2**70", "2**70 - i", "i * 2**64", "i / 2**70", "i ** 2**70", "i == 2**70",
    "i.add_(1, alpha=2**70)", "i.add_(i, alpha=2**64)", "i.add(i, alpha=-2**63-1)",
    "x.add_(x, alpha=2**70)", "t.add(i, 2**70)", "t.add(i, i, alpha=2**70)",
    "t.mul(2**70, i)", "t.full((2,), 2**70)", "t.full((2,), 2**63)", "i.masked_fill_(b, 2**70)",
    "i.masked_fill_(b, 2**63)", "t.where(b, i, 2**70)", "t.clamp(i, max=2**64)",
    "i.addcmul_(i, i, value=2**70)", "x.lerp_(x, 2**70)", "i.index_fill_(0, t.tensor([0]), 2**64)",
    "t.arange(2**70)", "t.arange(0, 2**63)", "i.div_(2**70, rounding_mode='floor')",
    "i.add_(2**70, alpha='a')", "i.sub_(2**70, i)", "x.addcdiv_(x, x, value=2**64)",
    "i.new_full((2,), 2**70)", "x.threshold_(2**70, 0)", "F.threshold(x, 1, 2**70)",
]
