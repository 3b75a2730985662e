"""Write inplace_tutorial/data/torch_signatures.json: torch 2.13's overloads of every Tensor method.

    .venv/bin/python tools/gen_torch_signatures.py          # rewrite the data file
    .venv/bin/python tools/gen_torch_signatures.py --check  # exit 1 if the file is stale

PyTorch binds a Tensor method with a list of signatures (python_variable_methods.cpp, generated
by torchgen from native_functions.yaml and deprecated.yaml). When a call fits none, its parser
prints every visible one (``add() received an invalid combination of arguments - got ..., but
expected (Tensor other, *, Number alpha = 1)``); a method with one signature in all names the
bad argument instead (``cumsum() takes 1 positional argument but 7 were given``). The core's
binding (arg_parser.py) raises the same texts from this file.

Where the facts come from: torchgen, shipped inside the torch wheel, gives the signatures in the
binding's order, and torch itself prints them: every listing torch prints for a call of 40
``object()`` arguments must equal the one written here, or the tool stops. Methods written by
hand in torch's C++ (``to``, ``view`` ...) are not in torchgen: their listing is read from that
call's error text. Only the printing (PyTorch's FunctionSignature::toString) is written here.
"""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "inplace_tutorial" / "data" / "torch_signatures.json"

# FunctionParameter::type_name: the parser's C++ type -> the name its messages print
PRINTED_TYPE = {
    "Tensor": "Tensor", "Scalar": "Number", "int64_t": "int", "SymInt": "int",
    "double": "float", "complex": "complex", "TensorList": "tuple of Tensors",
    "c10::List<::std::optional<Tensor>>": "tuple of Tensors", "IntArrayRef": "tuple of ints",
    "SymIntArrayRef": "tuple of ints", "ArrayRef<double>": "tuple of floats",
    "Generator": "torch.Generator", "bool": "bool", "Storage": "torch.Storage",
    "PyObject*": "object", "ScalarType": "torch.dtype", "Layout": "torch.layout",
    "MemoryFormat": "torch.memory_format", "QScheme": "torch.qscheme", "Device": "torch.device",
    "Stream": "torch.Stream", "std::string": "str", "c10::string_view": "str",
    "Dimname": "name", "DimnameList": "tuple of names", "ScalarList": "tuple of Scalars",
    "DispatchKeySet": "DispatchKeySet",
}
_ARGS = 40  # more than any signature takes: no overload is plausible, torch lists them all


def printed(signature: str) -> str:
    """``add(Tensor other, *, Scalar alpha=1)`` as FunctionSignature::toString prints it,
    without the parentheses: ``Tensor other, *, Number alpha = 1``."""
    inner = signature[signature.index("(") + 1:signature.rindex(")")]
    out = []
    for piece in filter(None, inner.split(", ")):
        if piece == "*":
            out.append("*")
            continue
        kind, _, rest = piece.partition(" ")
        kind = re.sub(r"\[\d*\]", "", kind.rstrip("?")).rstrip("?")
        name, eq, default = rest.partition("=")
        out.append(f"{PRINTED_TYPE[kind]} {name}" + (f" = {default}" if eq else ""))
    return ", ".join(out)


def torchgen_methods() -> dict[str, list[tuple[str, bool]]]:
    """name -> [(signature as the parser is given it, hidden)], in the binding's order."""
    import torchgen
    from torchgen.gen import parse_native_yaml
    from torchgen.model import Variant
    from torchgen.packaged.autograd import gen_python_functions as gen

    base = os.path.join(os.path.dirname(torchgen.__file__), "packaged")
    native = parse_native_yaml(f"{base}/ATen/native/native_functions.yaml",
                               f"{base}/ATen/native/tags.yaml").native_functions
    native = [f for f in native if gen.should_generate_py_binding(f)]
    pairs = gen.load_signatures(native, f"{base}/autograd/deprecated.yaml", method=True)
    grouped = gen.group_filter_overloads(
        pairs, lambda f: f.python_module is None and Variant.method in f.variants)
    out = {}
    for name, overloads in grouped.items():
        sigs = gen.sort_overloads(gen.group_overloads(overloads, symint=True), symint=True)
        out[str(name)] = [(s.signature.signature_str(symint=True).partition("|")[0],
                           s.signature.deprecated) for s in sigs]
    return out


def listing(torch, name: str) -> list[str] | None:
    """The signatures torch prints for ``x.name(object(), ... 40 times)``, or None when it
    names an argument instead (a method with a single signature)."""
    try:
        getattr(torch.empty(0), name)(*[object()] * _ARGS)
    except TypeError as e:
        text = str(e)
    else:
        raise AssertionError(f"{name} took {_ARGS} objects")
    head = f"{name}() received an invalid combination of arguments - got ("
    if not text.startswith(head):
        return None
    _, one, rest = text.partition("), but expected (")
    if one:
        return [rest[:-1]]
    return [line[4:-1] for line in text.splitlines()[1:] if line.startswith(" * (")]


def build() -> dict:
    import torch

    generated = torchgen_methods()
    methods = {}
    for name in sorted(set(generated) | set(dir(torch.Tensor))):
        if name.startswith("_") or not callable(getattr(torch.Tensor, name, None)):
            continue
        if not type(getattr(torch.Tensor, name)).__name__ == "method_descriptor":
            continue  # written in Python (norm, split ...): Python binds its arguments
        shown = listing(torch, name)
        if name in generated:
            sigs = generated[name]
            visible = [printed(s) for s, hidden in sigs if not hidden]
            if shown is not None and shown != visible or shown is None and len(sigs) > 1:
                raise AssertionError(f"{name}: torch prints {shown}, torchgen gives {visible}")
            entry = {"forms": visible}
            if any(hidden for _, hidden in sigs):
                entry["hidden"] = [printed(s) for s, hidden in sigs if hidden]
        elif shown is not None:  # written by hand in C++: only its listing is known
            entry = {"forms": shown, "hidden": None}
        else:
            continue
        methods[name] = entry
    return {"torch": torch.__version__.split("+")[0], "methods": methods}


def dump(data: dict) -> str:
    lines = ["{", f'  "torch": {json.dumps(data["torch"])},', '  "methods": {']
    items = list(data["methods"].items())
    for k, (name, entry) in enumerate(items):
        comma = "," if k < len(items) - 1 else ""
        lines.append(f"    {json.dumps(name)}: {json.dumps(entry)}{comma}")
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = dump(build())
    if "--check" in argv:
        stale = not DATA.exists() or DATA.read_text(encoding="utf-8") != text
        print("stale: run tools/gen_torch_signatures.py" if stale else "up to date")
        return int(stale)
    DATA.write_text(text, encoding="utf-8")
    print(f"wrote {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
