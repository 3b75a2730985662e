"""Probes of ``torch.device`` (parity-misc): ``x.device`` as a device object (its repr, str,
equality, hash), the constructor's forms and refusals (python_device.cpp and c10::Device's
string parse), and every ``device=`` argument, ``x.to(...)``, ``x.cpu()`` and ``x.cuda()`` as
a CPU-only build of torch 2.13 takes or refuses them. A device with an index (``'cpu:0'``) is
not a tensor's own device (``cpu``, no index): ``x.to('cpu:0')`` copies. Each line was run on
torch 2.13 first. 'meta' (a device torch makes tensors on, without memory) is left out: the
core has no meta tensors and says so in its own words (test_device_parity.py)."""
from __future__ import annotations

TENSOR_DEVICE = [
    "x.device", "repr(x.device)", "str(x.device)", "type(x.device).__name__", "x.device.type",
    "x.device.index", "x.device == 'cpu'", "'cpu' == x.device", "x.device != 'cpu'",
    "x.device == t.device('cpu')", "x.device == t.device('cpu', 0)",
    "x.device == t.device('cpu:0')", "x.device is x.device", "x.device == x.device",
    "hash(x.device) == hash(t.device('cpu'))", "hash(t.device('cpu', 0)) == hash(t.device('cpu'))",
    "x.device.type == 'cpu'", "f'{x.device}'", "isinstance(x.device, t.device)", "w.device",
    "s.device", "x[0].device", "(w * 2).device", "x.device < x.device",
    "{x.device: 1}[t.device('cpu')]", "{x.device: 1}.get('cpu')", "x.is_cpu", "x.get_device()",
    "x.is_cuda", "x.device.__setattr__('type', 'cuda')", "x.device.__setattr__('index', 0)",
    "x.device.__reduce__()[1]", "t.device('cuda', 1).__reduce__()[1]",
    "t.get_default_device()", "repr(t.get_default_device())",
]

CONSTRUCTOR = [
    "repr(t.device('cpu'))", "repr(t.device('cpu', 0))", "repr(t.device('cpu:1'))",
    "repr(t.device('cuda'))", "repr(t.device('cuda:1'))", "str(t.device('cuda', 1))",
    "repr(t.device('meta'))", "repr(t.device(x.device))", "repr(t.device(type='cpu', index=2))",
    "repr(t.device(device='cpu'))", "repr(t.device('cpu', None))",
    "repr(t.device('cpu', np.int64(1)))", "repr(t.device('cpu', t.tensor(1)))",
    "repr(t.device(type='cpu'))", "t.device('cuda', 1) == t.device('cuda:1')",
    "t.device('cpu') != t.device('cuda')", "t.device('cpu', 0) == t.device('cpu', 0)",
    "t.device(0)", "t.device(-1)", "t.device(np.int64(0))", "t.device('foo')", "t.device('')",
    "t.device('cpu:-1')", "t.device('cpu', -1)", "t.device('cpu', -2)", "t.device('cpu:01')",
    "t.device('CPU')", "t.device('cuda0')", "t.device('cpu:0', 1)", "t.device('cpu:0', None)",
    "t.device('cpu:0', -1)", "t.device('cpu', 'a')", "t.device()", "t.device(None)",
    "t.device(1.0)", "t.device(True)", "t.device('cpu', True)", "t.device('cpu', 1.0)",
    "t.device('cuda:0:1')", "t.device(' cpu')", "t.device('cpu ')", "t.device('cu da')",
    "t.device('cpu:')", "t.device(':0')", "t.device('cpu:0a')", "t.device('cpu', 1, 2)",
    "t.device(index=1)", "t.device(type=None)", "t.device(device=None)",
    "t.device(device=1.0)", "t.device('cpu', index=1.5)", "t.device(type='cpu', device='cpu')",
    "t.device('cpu', type='cpu')", "t.device('cpu', idx=0)", "t.device(['cpu'])",
    "t.device(x)", "t.device('cpu', t.tensor(1.0))", "t.device('cpu', t.tensor([1]))",
    "t.device(x.device, 2)", "t.device(None, 1)", "t.device(1, 1)", "t.device('cuda:99999999999')",
    "t.device('foo', 1)", "t.device('', 1)", "t.device(type='cuda:0', index=1)",
    "t.device(type='cpu', index=-1)", "t.device('cpu', x.device)", "t.device(x.device, 1)",
    "t.device('cpu', index=x.device)",
]

ARGUMENTS = [
    "t.zeros(2, device=x.device)", "t.zeros(2, device=t.device('cpu', 1)).device",
    "t.zeros(2, device='cpu:0').device", "t.zeros(2, device='cuda')",
    "t.zeros(2, device=t.device('cuda'))", "t.zeros(2, device='cuda:0')",
    "t.zeros(2, device='xpu')", "x.to('xpu:1')", "t.tensor([1.0], device='xpu')",
    "t.zeros(2, device=0)", "t.zeros(2, device=-1)", "t.zeros(2, device='foo')",
    "t.zeros(2, device=1.0)", "t.zeros(-1, device='cuda')", "t.zeros(2, device='cuda', dtype=1)",
    "t.zeros(2, device='cuda', pin_memory=True)", "t.zeros(2, device='cuda', requires_grad=1)",
    "t.ones(2, 3, device='cuda')", "t.empty(2, device='cuda')", "t.full((2,), 1.0, device='cuda')",
    "t.eye(2, device='cuda')", "t.empty_strided((2,), (1,), device='cuda')",
    "t.arange(3, device='cuda')", "t.linspace(0, 1, 3, device='cuda')",
    "t.logspace(0, 1, 3, device='cuda')", "t.randn(2, device='cuda')", "t.rand(2, device='cuda')",
    "t.randint(3, (2,), device='cuda')", "t.randperm(3, device='cuda')",
    "t.zeros_like(x, device='cuda')", "t.ones_like(x, device=t.device('cpu', 2)).device",
    "t.rand_like(x, device='cuda')", "t.tril_indices(3, 3, device='cuda')",
    "t.normal(0.0, 1.0, (2,), device='cuda')", "t.tensor([1.0], device='cuda')",
    "t.tensor([1.0], device=0)", "t.tensor([1.0], device=1.0)",
    "t.tensor([1.0], device=t.device('cpu', 3)).device", "t.as_tensor([1.0], device='cuda')",
    "t.as_tensor(x, device='cpu') is x", "t.as_tensor(x, device='cpu:0') is x",
    "t.as_tensor(x, device=t.device('cpu', 0)) is x",
    "t.as_tensor(w, device='cpu:0').grad_fn.name()",
    "x.new_zeros(2, device=t.device('cpu')).device", "x.new_zeros(2, device=1.0)",
    "x.new_zeros(2, device=0)", "x.new_zeros(2, device='foo')",
    "x.new_tensor([1.0], device='cuda')", "x.new_ones(2, device='cpu:1').device",
    "x.new_full((2,), 1.0, device='cuda')", "x.new_empty(2, device='cuda')",
]

TO_CPU_CUDA = [
    "x.to('cpu') is x", "x.to(x.device) is x", "x.to(t.device('cpu', 0)) is x",
    "x.to('cpu:0') is x", "x.to('cpu:0')._version", "x.to('cpu:0').device",
    "w.to('cpu:0').grad_fn.name()", "w.to('cpu').grad_fn", "x.to(device='cpu:0') is x",
    "x.to('cpu:0', copy=False) is x", "x.to('cuda')", "x.to(t.device('cuda'))",
    "x.to(device='cuda')", "x.to('cuda:0')", "x.to(0)", "x.to(1)", "x.to(-1)",
    "x.to(np.int64(0))", "x.to('foo')", "x.to('cpu:1')", "x.to(2.0)", "x.to(2)", "x.to(True)",
    "x.to(None) is x", "x.to('cpu', 'cpu')", "x.to('cpu', 1)", "x.to(x, 'cpu')",
    "x.to('cpu', x)", "x.to(device=0)", "x.to(device=1.0)", "x.to(device=None) is x",
    "x.to(device='')", "x.to(device=t.device('cuda'))", "x.to('cpu', t.float64)",
    "x.to(t.device('cpu', 0), t.float16)", "x.to(device='cpu', dtype=t.float64)",
    "x.to('cpu', non_blocking=True) is x", "x.to('cpu', memory_format=t.contiguous_format) is x",
    "x.to(dtype=t.float32, device='cuda')", "x.to(t.float64, device='cpu')",
    "x.to('cuda', t.float64)", "x.to('foo', t.float64)", "x.to('meta', 1)", "x.to(float)",
    "x.to(int)", "x.to(i)", "x.to(i, copy=True)", "x.to(x) is x", "x.to(x, copy=True) is x",
    "x.to('cpu', t.float32, True, True) is x", "x.to('cpu', None, False, False) is x",
    "x.cpu() is x", "x.cpu(1)", "x.cpu(memory_format=t.contiguous_format) is x",
    "x.cpu(memory_format=t.channels_last)", "img.cpu(memory_format=t.channels_last).stride()",
    "x.cpu(memory_format=1)", "x.cpu(a=1)", "w.cpu() is w",
    "x.cuda()", "x.cuda(0)", "x.cuda('a')", "x.cuda(device='cpu')", "x.cuda('meta')",
    "x.cuda(non_blocking=True)", "x.cuda(1.0)", "x.cuda(device=1.0)", "x.cuda(None)",
    "x.cuda(non_blocking=1)", "x.cuda(memory_format=1)", "x.cuda('cuda', True)",
    "x.cuda('cuda', True, 1)", "x.cuda(a=1)", "x.cuda(t.device('cuda', 1))", "x.cuda(-1)",
]

# nn layers make their parameters with torch.empty(..., device=device): its checks and words
NN_DEVICE = [
    "nn.LayerNorm(2, device='cuda')", "nn.LayerNorm(2, device=1.0)",
    "nn.LayerNorm(2, device='foo')", "nn.LayerNorm(2, device='cpu:1').weight.device",
    "nn.LayerNorm(2, elementwise_affine=False, device='cuda')", "nn.LayerNorm(2, device=0)",
    "repr(nn.LayerNorm(2, bias=False))", "repr(nn.LayerNorm(2, elementwise_affine=False))",
    "nn.Embedding(3, 2, device='cuda')", "nn.Embedding(3, 2, device=1.0)",
    "nn.Embedding(3, 2, device=t.device('cpu')).weight.device",
    "nn.Embedding(3, 2, _weight=t.ones(3, 2), device='cuda').weight.shape",
]

# the same in layers whose files other helpers own (probes.OWNER), and Module.to/cpu/cuda,
# which the core's nn.Module lacks
NN_DEVICE_ELSEWHERE = [
    "nn.Linear(2, 2, device='cuda')", "nn.Linear(2, 2, bias=False, device=1.0)",
    "nn.Linear(2, 2, device='cpu').weight.device", "nn.Conv2d(1, 1, 2, device='cuda')",
    "nn.PReLU(device='cuda')", "nn.BatchNorm2d(2, device='cuda')",
    "nn.Linear(2, 2).to('cuda')", "nn.Linear(2, 2).to('cpu').weight.device",
    "nn.Linear(2, 2).cpu().weight.device", "nn.Linear(2, 2).cuda()",
]

# a device named in another parser's refusal: torch prints its type as torch.device
# (invalid_arguments.type_name prints the core's class path)
DEVICE_IN_TYPE_ERRORS = [
    "t.zeros(2, dtype=x.device)", "x.add(x.device)", "x.view(x.device)",
    "x.to(x.device, x.device)", "x.new_zeros(2, dtype=x.device)",
]

# pinned memory: an accelerator's (is_pinned() False, pin_memory() refused)
PINNED = [
    "x.is_pinned()", "x.is_pinned('foo')", "x.is_pinned(1.0)", "x.is_pinned(a=1)",
    "x.is_pinned(None)", "x.pin_memory()", "x.pin_memory(1.0)", "x.pin_memory('cpu')",
    "x.pin_memory('cuda')", "x.pin_memory(device=0)", "x.pin_memory(1, 2)",
]

# torch.cuda's first questions on a CPU-only build
CUDA_MODULE = [
    "t.cuda.is_available()", "t.cuda.device_count()", "t.cuda.is_initialized()",
    "t.cuda.current_device()", "t.cuda.synchronize()", "t.cuda.is_available(1)",
    "t.cuda.device_count(1)", "t.device('cuda' if t.cuda.is_available() else 'cpu')",
    "x.to('cuda' if t.cuda.is_available() else 'cpu') is x",
]
