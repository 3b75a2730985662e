"""Write inplace_tutorial/data/torch_signatures.json (torch 2.13's overloads of every Tensor
method) and data/torch_function_signatures.json (those of torch.*, torch._C._nn and
torch._C._linalg's functions).

    .venv/bin/python tools/gen_torch_signatures.py          # rewrite the data files
    .venv/bin/python tools/gen_torch_signatures.py --check  # exit 1 if one is stale

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
call's error text. Only the printing (PyTorch's FunctionSignature::toString) is written by
hand, in inplace_tutorial/signatures.py:printed.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from inplace_tutorial.signatures import printed  # noqa: E402  (the printing, one copy)

DATA = ROOT / "inplace_tutorial" / "data" / "torch_signatures.json"
FUNCTIONS = ROOT / "inplace_tutorial" / "data" / "torch_function_signatures.json"

_ARGS = 40  # more than any signature takes: no overload is plausible, torch lists them all


def _torchgen_pairs(method: bool):
    import torchgen
    from torchgen.gen import parse_native_yaml
    from torchgen.model import Variant
    from torchgen.packaged.autograd import gen_python_functions as gen

    base = os.path.join(os.path.dirname(torchgen.__file__), "packaged")
    native = parse_native_yaml(f"{base}/ATen/native/native_functions.yaml",
                               f"{base}/ATen/native/tags.yaml").native_functions
    native = [f for f in native if gen.should_generate_py_binding(f)]
    return gen, Variant, gen.load_signatures(native, f"{base}/autograd/deprecated.yaml",
                                             method=method)


def torchgen_methods() -> dict[str, list[tuple[str, bool]]]:
    """name -> [(signature as the parser is given it, hidden)], in the binding's order."""
    gen, Variant, pairs = _torchgen_pairs(method=True)
    grouped = gen.group_filter_overloads(
        pairs, lambda f: f.python_module is None and Variant.method in f.variants)
    out = {}
    for name, overloads in grouped.items():
        sigs = gen.sort_overloads(gen.group_overloads(overloads, symint=True), symint=True)
        out[str(name)] = [(s.signature.signature_str(symint=True).partition("|")[0],
                           s.signature.deprecated) for s in sigs]
    return out


# the modules whose functions PyTorch binds with its parser: torch.*, torch._C._nn (F.linear,
# F.avg_pool2d ...) and torch._C._linalg (torch.linalg.matrix_norm is linalg_matrix_norm)
FUNCTION_MODULES = {"functions": None, "nn": "nn", "linalg": "linalg"}


# torch functions bound by hand in python_torch_functions_manual.cpp: their parsers' signatures
# as that file writes them (torchgen can't see them; nonzero's there wins over torchgen's).
# The tool checks each against the count torch prints for a call of 40 arguments.
MANUAL = {
    "tensor": ["(PyObject* data, *, ScalarType dtype=None, Device? device=None, "
               "bool pin_memory=False, bool requires_grad=False, DimnameList? names=None)"],
    "as_tensor": ["(PyObject* data, *, ScalarType dtype=None, Device? device=None)"],
    "asarray": ["(PyObject* obj, *, ScalarType? dtype=None, Device? device=None, "
                "bool? copy=None, bool requires_grad=False)"],
    "nonzero": ["(Tensor input, *, bool as_tuple=False, Tensor out=None)"],
    "get_device": ["(Tensor input)"],
    "numel": ["(Tensor input)"],
}


def torchgen_functions(module: str | None) -> dict[str, list[str]]:
    """name -> the signatures its parser is given (what follows the name, ``|deprecated``
    kept), in the binding's order: the functions of one Python module."""
    gen, Variant, pairs = _torchgen_pairs(method=False)
    grouped = gen.group_filter_overloads(
        pairs, lambda f: f.python_module == module and (
            module is not None or Variant.function in f.variants))
    out = {}
    for name, overloads in grouped.items():
        sigs = gen.sort_overloads(gen.group_overloads(overloads, symint=True), symint=True)
        out[str(name)] = [s.signature.signature_str(symint=True)[len(str(name)):]
                          for s in sigs]
    return out


def listing(torch, name: str, fn=None) -> list[str] | None:
    """The signatures torch prints for ``x.name(object(), ... 40 times)`` (or ``fn(...)``), or
    None when it names an argument instead (a single signature)."""
    try:
        (fn or getattr(torch.empty(0), name))(*[object()] * _ARGS)
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


def _count_text(torch, fn) -> str:
    try:
        fn(*[object()] * _ARGS)
    except TypeError as e:
        return str(e)
    return ""


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
    data = {"torch": torch.__version__.split("+")[0], "methods": methods}
    for key, module in FUNCTION_MODULES.items():
        data[key] = functions(torch, module)
    return data


def functions(torch, module: str | None) -> dict:
    """One module's functions: ``raw``, the signatures torchgen gives its parser (types,
    defaults, ``?`` and sizes: what a call is checked against), or, for one written by hand in
    torch's C++, only the ``forms`` its error lists."""
    owner = {None: torch._C._VariableFunctions, "nn": torch._C._nn,
             "linalg": torch._C._linalg}[module]
    generated = torchgen_functions(module)
    out = {}
    for name in sorted(n for n in dir(owner) if not n.startswith("_")):
        fn = getattr(owner, name)
        if type(fn).__name__ != "builtin_function_or_method":
            continue
        if module is None and getattr(torch, name, None) is not fn:
            continue  # torch.split, torch.norm ... are Python (torch/functional.py)
        try:
            shown = listing(torch, name, fn)
        except AssertionError:  # no parser: is_vulkan_available() ignores its arguments
            continue
        sigs = generated.get(name)
        if module is None and name in MANUAL:
            sigs = MANUAL[name]
            n = printed(sigs[0]).split(", *")[0].count(", ") + 1
            told = _count_text(torch, fn)
            if not told.startswith(f"{name}() takes {n} positional argument"):
                raise AssertionError(f"{name}: torch says {told!r}, the manual signature {n}")
            out[name] = {"raw": sigs}
            continue
        if sigs is not None:
            visible = [printed(s) for s in sigs if "|" not in s]
            if shown is not None and shown != visible or shown is None and len(sigs) > 1:
                raise AssertionError(f"{name}: torch prints {shown}, torchgen gives {visible}")
            entry = {"raw": sigs}
            if torch._C._should_allow_numbers_as_tensors(name):
                entry["numbers"] = True  # python_arg_parser.cpp: torch.div(2, x) is allowed
        elif shown is not None:
            entry = {"forms": shown, "hidden": None}
        else:
            continue
        out[name] = entry
    return out


def dump(data: dict) -> str:
    lines = ["{", f'  "torch": {json.dumps(data["torch"])},', '  "methods": {']
    items = list(data["methods"].items())
    for k, (name, entry) in enumerate(items):
        comma = "," if k < len(items) - 1 else ""
        lines.append(f"    {json.dumps(name)}: {json.dumps(entry)}{comma}")
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def dump_functions(data: dict) -> str:
    lines = ["{", f'  "torch": {json.dumps(data["torch"])},']
    for n, key in enumerate(FUNCTION_MODULES):
        lines.append(f"  {json.dumps(key)}: {{")
        items = list(data[key].items())
        for k, (name, entry) in enumerate(items):
            comma = "," if k < len(items) - 1 else ""
            lines.append(f"    {json.dumps(name)}: {json.dumps(entry)}{comma}")
        lines.append("  }" + ("," if n < len(FUNCTION_MODULES) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    data = build()
    texts = {DATA: dump(data), FUNCTIONS: dump_functions(data)}
    if "--check" in argv:
        stale = any(not p.exists() or p.read_text(encoding="utf-8") != text
                    for p, text in texts.items())
        print("stale: run tools/gen_torch_signatures.py" if stale else "up to date")
        return int(stale)
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
