"""What Python's own syntax does with a tensor: f-strings, ``reversed``, ``in``, ``bool``, and
assigning ``.data`` and ``.requires_grad``.

torch/_tensor.py writes ``__format__``, ``__reversed__`` and ``__contains__`` in Python; the
setters of ``.data`` and ``.requires_grad`` (python_variable.cpp) check what they are given.
(inplace_tutorial/tensor.py:Tensor, inplace_tutorial/tensor_conversions.py)
"""

import pytest

from .harness import Registry, arr, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


@prog
def format_of_a_zero_dim_tensor_is_its_number(t):
    loss = t.tensor(2.5, requires_grad=True) * 1
    return {
        "plain": f"{t.tensor(2.5)}", "grad": f"{loss}", "spec": f"{loss:.3f}",
        "int": f"{t.tensor(3)}", "bool": f"{t.tensor(True)}", "wide": f"{t.tensor(2.5):>8}",
        "one_d": f"{t.ones(2)}", "one_d_spec": catch(lambda: format(t.ones(2), ".2f")),
        "parameter": f"{t.nn.Parameter(t.tensor(1.5))}",
    }


@prog
def reversed_flips_dim_0(t):
    x = t.tensor(arr(3, 2))
    r = reversed(x)
    s = t.tensor(4.0)
    return {"r": r, "same_storage": r.data_ptr() == x.data_ptr(),
            "scalar_is_itself": reversed(s) is s, "list": list(reversed(t.arange(3)))}


@prog
def in_compares_every_element(t):
    x = t.tensor([[1.0, 2.0], [3.0, float("nan")]])
    return {"number": 3 in x, "absent": 7.5 in x, "nan": float("nan") in x,
            "tensor": t.tensor([1.0, 2.0]) in x, "bool": True in t.tensor([0, 1]),
            "str": catch(lambda: "a" in x), "none": catch(lambda: None in x)}


@prog
def bool_of_empty_and_of_many(t):
    return {"empty": catch(lambda: bool(t.tensor([]))), "many": catch(lambda: bool(t.ones(2))),
            "one": bool(t.tensor([0.5])), "zero": bool(t.zeros(1, 1))}


@prog
def assigning_data_checks_it(t):
    w = t.tensor(arr(3), requires_grad=True)
    x = t.tensor(arr(2))
    x.data = t.ones(4, dtype=t.int64)  # no grad: any dtype, any shape
    return {"int_into_grad": catch(lambda: setattr(w, "data", t.ones(3, dtype=t.int64))),
            "number": catch(lambda: setattr(w, "data", 5)),
            "none": catch(lambda: setattr(w, "data", None)),
            "w_after": w, "x": x, "x_dtype": str(x.dtype)}


@prog
def assigning_requires_grad_takes_a_bool(t):
    x = t.tensor(arr(2))
    x.requires_grad = True
    return {"one": catch(lambda: setattr(t.ones(2), "requires_grad", 1)),
            "none": catch(lambda: setattr(t.ones(2), "requires_grad", None)),
            "x": x.requires_grad}


@pytest.mark.parametrize("program", prog.params())
def test_tensor_protocol_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
