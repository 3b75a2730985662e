"""Module: the container that owns Parameters, buffers and child Modules.

Assigning a Parameter, a Module or (through ``register_buffer``) a tensor as an attribute
registers it, as in PyTorch; everything else here (parameters(), state_dict(), train(),
zero_grad(), the repr) walks those three dictionaries. The conversions (to(), cpu(),
double(), half() ...) go through ``_apply``, which keeps every Parameter object and swaps
its ``.data``, as torch's does.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator

from ..autograd import grad_mode
from ..creation import empty_like
from ..tensor import Tensor
from .parameter import Parameter
from .parse_to import parse_to


class Module:
    training: bool

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    # ------------------------------------------------------------------ registration
    def __setattr__(self, name: str, value) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign before Module.__init__() call")
        params, mods, bufs = self._parameters, self._modules, self._buffers
        if isinstance(value, Parameter):
            self._forget(name)
            params[name] = value
        elif name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter "
                                f"'{name}' (torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            self._forget(name)
            mods[name] = value
        elif name in mods:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as child module "
                                f"'{name}' (torch.nn.Module or None expected)")
            mods[name] = None
        elif name in bufs:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{type(value).__name__}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            bufs[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str) -> None:
        self.__dict__.pop(name, None)
        for store in (self._parameters, self._buffers, self._modules):
            store.pop(name, None)

    def __getattr__(self, name: str):
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        self._buffers[name] = tensor
        if not persistent:
            self.__dict__.setdefault("_non_persistent", set()).add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name: str, module: Module | None) -> None:
        self.add_module(name, module)

    # ------------------------------------------------------------------ walking the tree
    def named_modules(self, memo: set | None = None, prefix: str = ""):
        memo = set() if memo is None else memo
        if id(self) in memo:
            return
        memo.add(id(self))
        yield prefix, self
        for name, m in self._modules.items():
            if m is not None:
                yield from m.named_modules(memo, f"{prefix}.{name}" if prefix else name)

    def modules(self) -> Iterator[Module]:
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        for name, m in self._modules.items():
            if m is not None:
                yield name, m

    def children(self) -> Iterator[Module]:
        for _, m in self.named_children():
            yield m

    def _named(self, store: str, prefix: str, recurse: bool):
        seen: set[int] = set()
        mods = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for mod_prefix, m in mods:
            for name, t in getattr(m, store).items():
                if t is None or id(t) in seen:
                    continue
                seen.add(id(t))
                yield (f"{mod_prefix}.{name}" if mod_prefix else name), t

    def named_parameters(self, prefix: str = "", recurse: bool = True):
        return self._named("_parameters", prefix, recurse)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix: str = "", recurse: bool = True):
        return self._named("_buffers", prefix, recurse)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def get_submodule(self, target: str) -> Module:
        """The module at a dotted path (``"features.0"``); ``""`` is the module itself."""
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(f"{type(mod).__name__} has no attribute `{item}`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError(f"`{item}` is not an nn.Module")
        return mod

    def get_parameter(self, target: str) -> Parameter:
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{type(mod).__name__} has no attribute `{name}`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(f"{type(mod).__name__} has no attribute `{name}`")
        buffer = getattr(mod, name)
        if name not in mod._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return buffer

    # ------------------------------------------------------------------ modes and grads
    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """set_to_none=True (the default) frees the grads; False zero-fills them in place."""
        for p in self.parameters():
            zero_grad_of(p, set_to_none)

    def apply(self, fn) -> Module:
        """``fn(module)`` for every child, depth first, then for the module itself (a custom
        initialisation: ``model.apply(init_weights)``)."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------ conversions
    def _apply(self, fn, recurse: bool = True) -> Module:
        """torch's Module._apply: ``fn`` on every parameter, gradient and buffer, children
        first. A Parameter stays the same object (an optimizer holding it still steps it): its
        ``.data`` is replaced (set_data keeps its version counter), and so is its grad's. A
        buffer is replaced by ``fn``'s result."""
        if recurse:
            for module in self.children():
                module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with grad_mode.no_grad():
                param_applied = fn(param)
            param_grad = param.grad
            param.data = param_applied
            if param_grad is not None:
                with grad_mode.no_grad():
                    param_grad.data = fn(param_grad)
        bufs = self._buffers
        for key, buf in bufs.items():
            if buf is not None:
                bufs[key] = fn(buf)
        return self

    def to(self, *args, **kwargs) -> Module:
        """Every parameter and buffer ``t.to(device, dtype, non_blocking)``; the dtype only
        for floating tensors (an integer buffer keeps its own); memory_format= only for 4-
        and 5-dimensional ones."""
        device, dtype, non_blocking, memory_format = parse_to(args, kwargs)
        if dtype is not None and not dtype.is_floating_point:  # the core has no complex dtype
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but "
                            f"got desired dtype={dtype}")

        def convert(t: Tensor) -> Tensor:
            cast = dtype if t.dtype.is_floating_point else None
            if memory_format is not None and t.dim() in (4, 5):
                return t.to(device, cast, non_blocking, memory_format=memory_format)
            return t.to(device, cast, non_blocking)

        return self._apply(convert)

    def cpu(self) -> Module:
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None) -> Module:
        """Refused by the first tensor, as a CPU-only torch refuses it (a module without
        tensors is returned as it is)."""
        return self._apply(lambda t: t.cuda(device))

    def xpu(self, device=None) -> Module:
        return self._apply(lambda t: t.xpu(device))

    def ipu(self, device=None) -> Module:
        return self._apply(lambda t: t.ipu(device))

    def mtia(self, device=None) -> Module:
        return self._apply(lambda t: t.mtia(device))

    def type(self, dst_type) -> Module:  # noqa: A003  (torch's name)
        """Every parameter and buffer cast, integer buffers too (to() and float() leave them)."""
        return self._apply(lambda t: t.type(dst_type))

    def float(self) -> Module:  # noqa: A003
        return self._apply(lambda t: t.float() if t.dtype.is_floating_point else t)

    def double(self) -> Module:
        return self._apply(lambda t: t.double() if t.dtype.is_floating_point else t)

    def half(self) -> Module:
        return self._apply(lambda t: t.half() if t.dtype.is_floating_point else t)

    def bfloat16(self) -> Module:
        return self._apply(lambda t: t.bfloat16() if t.dtype.is_floating_point else t)

    def to_empty(self, *, device, recurse: bool = True) -> Module:
        """Every parameter and buffer replaced by ``empty_like(t, device=device)``: new,
        uninitialised memory (Parameters stay the same objects, as in ``to``)."""
        return self._apply(lambda t: empty_like(t, device=device), recurse=recurse)

    # ------------------------------------------------------------------ state
    def state_dict(self, destination=None, prefix: str = "", keep_vars: bool = False):
        out = OrderedDict() if destination is None else destination
        for name, m in self.named_modules(prefix=prefix.rstrip(".")):
            skip = m.__dict__.get("_non_persistent", set())
            items = [*m._parameters.items(), *((k, v) for k, v in m._buffers.items()
                                               if k not in skip)]
            for key, t in items:
                if t is not None:
                    out[f"{name}.{key}" if name else key] = t if keep_vars else t.detach()
        return out

    def load_state_dict(self, state_dict, strict: bool = True):
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            parts = []
            if missing:
                parts.append("Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing)
                             + ". ")
            if unexpected:
                parts.append("Unexpected key(s) in state_dict: "
                             + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(parts))
        with grad_mode.no_grad():  # an in-place copy into each parameter and buffer
            for k, t in own.items():
                if k in state_dict:
                    src = state_dict[k]
                    if tuple(src.shape) != tuple(t.shape):
                        raise RuntimeError(
                            f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                            f"size mismatch for {k}: copying a param with shape {src.shape} "
                            f"from checkpoint, the shape in current model is {t.shape}.")
                    t.copy_(src)
        return _IncompatibleKeys(missing, unexpected)

    # ------------------------------------------------------------------ repr
    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = [line for line in self.extra_repr().split("\n") if line]
        for name, m in self._modules.items():
            lines.append(f"({name}): " + _addindent(repr(m), 2))
        main = type(self).__name__ + "("
        if lines:
            if len(lines) == 1 and not self._modules:
                main += lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


class _IncompatibleKeys(tuple):
    def __new__(cls, missing_keys, unexpected_keys):
        return super().__new__(cls, (missing_keys, unexpected_keys))

    missing_keys = property(lambda self: self[0])
    unexpected_keys = property(lambda self: self[1])

    def __repr__(self) -> str:
        if not self[0] and not self[1]:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self[0]}, unexpected_keys={self[1]})"


def zero_grad_of(p: Tensor, set_to_none: bool) -> None:
    """What Module.zero_grad and Optimizer.zero_grad do to one parameter, as in PyTorch:
    drop its .grad (set_to_none), or detach it and zero-fill it in place."""
    if p.grad is None:
        return
    if set_to_none:
        p.grad = None
    else:
        if p.grad.grad_fn is not None:
            p.grad.detach_()
        else:
            p.grad.requires_grad_(False)
        p.grad.zero_()


def _addindent(s: str, n: int) -> str:
    first, *rest = s.split("\n")
    if not rest:
        return s
    return first + "\n" + "\n".join(" " * n + line for line in rest)


def _typename(obj) -> str:
    """torch.typename: a tensor's type() string, else the object's module-qualified name."""
    if isinstance(obj, Tensor):
        return obj.type()
    module, qualname = getattr(obj, "__module__", "") or "", ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module, qualname = type(obj).__module__ or "", type(obj).__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"
