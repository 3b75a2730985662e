"""PyTorch's words for a call its parser refused: how it names a Python value
(``NoneType``, ``numpy.ndarray``, ``list of [int, float]``) and its "invalid combination of
arguments" message, word for word from invalid_arguments.cpp.

arg_parser.py, above, binds calls and raises these; everything that reports a refused
argument names the value with ``type_name``.
"""
from __future__ import annotations

from . import dtypes
from .tensor import Tensor

# PyTorch prints a type's C name (tp_name): a class written in Python has its bare name
# (``Linear``, ``no_grad``, your own ``Foo``), a C type its dotted one (``numpy.ndarray``,
# ``collections.OrderedDict``). These classes are written in C in PyTorch and in Python here,
# so they are named by table (by their qualified names: device.py is above this module).
_TORCH_C_TYPES = {
    "inplace_tutorial.device.device": "torch.device",
    "inplace_tutorial.size.Size": "torch.Size",
    "inplace_tutorial.layout.layout": "torch.layout",
    "inplace_tutorial.layout.memory_format": "torch.memory_format",
    "inplace_tutorial.dtypes.finfo": "torch.finfo",
    "inplace_tutorial.dtypes.iinfo": "torch.iinfo",
    "inplace_tutorial.storage.UntypedStorage": "torch.storage.UntypedStorage",
}
_HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: the type was made by a class statement


def type_name(v, detailed: bool = False) -> str:
    """The name PyTorch prints for a Python value: ``NoneType``, ``numpy.ndarray`` ...;
    ``detailed`` spells out sequences as the overload message does (``list of [int, float]``)."""
    if isinstance(v, Tensor):  # a Parameter is named so ("got (NoneType, Parameter)")
        return type(v).__name__
    if isinstance(v, dtypes.dtype):
        return "torch.dtype"
    t = type(v)
    name = f"{t.__module__}.{t.__qualname__}"
    if name in _TORCH_C_TYPES:
        name = _TORCH_C_TYPES[name]
    elif t.__flags__ & _HEAPTYPE or t.__module__ == "builtins":
        name = t.__name__  # a class written in Python (yours, or the core's): its bare name
    if detailed and isinstance(v, (list, tuple)):
        inner = ", ".join(type_name(x) for x in v)
        if isinstance(v, list):
            return f"{name} of [{inner}]"
        return f"{name} of ({inner},)" if len(v) == 1 else f"{name} of ({inner})"  # as repr
    return name


def _matches(kind: str, v) -> bool:
    """invalid_arguments.cpp's type test: the Python type's name against the signature's
    (``float`` also takes an int); ``Number``, ``tuple of ints`` ... never match."""
    name = type_name(v)
    if kind == "float":
        return name in ("float", "int")
    return name == kind


def _describe(v) -> str:
    return type_name(v, detailed=True)


def invalid_combination(op: str, args: tuple, forms: list[str], kwargs: dict | None = None
                        ) -> TypeError:
    """PyTorch's overload error (format_invalid_args in invalid_arguments.cpp), word for word.

    ``forms`` are the signatures as PyTorch prints them, without the parentheses; ``args`` the
    positional arguments, ``kwargs`` the keyword ones in call order. PyTorch lists keywords in
    reverse call order (the order of its C++ map) and, after keywords only, leaves a trailing
    ", " in place. A form gets its "didn't match" line when the number of arguments equals its
    number of comma-separated pieces (``*`` and defaults count as written, and a default's
    value is read as the parameter's name: invalid_arguments.cpp splits at the last space).
    With a single visible form there is no list: an unknown keyword is named, else the call is
    set against that form."""
    kwargs = kwargs or {}

    def listing(parts: list[str]) -> str:
        text = "".join(p + ", " for p in parts)
        return f"({text[:-2] if args else text})"

    def unmatched(names: list[str]) -> list[str]:  # _tryMatchKwargs: the last len(kwargs) names
        return [k for k in reversed(kwargs) if k not in names[max(len(names) - len(kwargs), 0):]]

    def marked(pieces: list[tuple[str, str, str]]) -> str:  # _formattedArgDesc
        marks = []
        for i, (kind, _, name) in enumerate(pieces):
            v = args[i] if i < len(args) else kwargs[name]
            text = _describe(v) if i < len(args) else f"{name}={_describe(v)}"
            marks.append(text if _matches(kind, v) else f"!{text}!")
        return listing(marks)

    head = f"{op}() received an invalid combination of arguments - got "
    got = listing([type_name(v) for v in args]
                  + [f"{k}={type_name(v)}" for k, v in reversed(kwargs.items())])
    if len(forms) == 1:
        pieces = [p.rpartition(" ") for p in forms[0].split(", ")]  # (type, _, name)
        wrong = unmatched([name for _, _, name in pieces]) if kwargs else []
        if wrong:
            return TypeError(f"{head}unrecognized keyword arguments: {', '.join(wrong)}")
        fits = len(args) + len(kwargs) == len(pieces)
        return TypeError(f"{head}{marked(pieces) if fits else got}, but expected ({forms[0]})")
    lines = [f"{head}{got}, but expected one of:"]
    for form in forms:
        lines.append(f" * ({form})")
        pieces = [p.rpartition(" ") for p in form.split(", ")]
        if len(args) + len(kwargs) != len(pieces):
            continue
        wrong = unmatched([name for _, _, name in pieces])
        if wrong:
            lines.append("      didn't match because some of the keywords were incorrect: "
                         + ", ".join(wrong))
            continue
        lines.append("      didn't match because some of the arguments have invalid "
                     f"types: {marked(pieces)}")
    return TypeError("\n".join(lines) + "\n")
