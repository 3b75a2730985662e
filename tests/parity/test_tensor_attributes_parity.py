"""Attributes a CPU tensor answers without reading its cells: ``nelement()``, ``ndimension()``,
``itemsize``, ``nbytes`` (numel × itemsize, whatever the storage holds), ``is_signed()``,
``is_complex()``, ``get_device()``, ``is_cpu``/``is_cuda``/``is_meta``/``is_sparse``/
``is_quantized``. (inplace_tutorial/tensor_attributes.py)
"""

import pytest

from .harness import Registry, arr, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()

DTYPES = ("float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "int32",
          "int64", "bool")


@prog
def nbytes_counts_the_elements_a_tensor_addresses(t):
    x = t.tensor(arr(2, 3))
    column, wide = x[:, 1], x.expand(4, 2, 3)
    return {
        "x": (x.nbytes, x.itemsize, x.nelement(), x.ndimension()),
        "column": (column.nbytes, column.untyped_storage().nbytes()),
        "expanded": (wide.nbytes, wide.nelement() * wide.element_size()),
        "empty": t.ones(0, 3).nbytes, "scalar": (t.tensor(1.5).nbytes, t.tensor(1.5).ndimension()),
    }


@prog
def per_dtype_answers(t):
    return {name: (t.ones(2, dtype=getattr(t, name)).itemsize,
                   t.ones(2, dtype=getattr(t, name)).nbytes,
                   t.ones(2, dtype=getattr(t, name)).is_signed(),
                   t.ones(2, dtype=getattr(t, name)).is_complex()) for name in DTYPES}


@prog
def where_a_cpu_tensor_lives(t):
    x = t.ones(2, requires_grad=True)
    return {"device": x.get_device(), "cpu": x.is_cpu, "cuda": x.is_cuda, "meta": x.is_meta,
            "sparse": x.is_sparse, "quantized": x.is_quantized,
            "argument": catch(lambda: x.get_device(0)), "keyword": catch(lambda: x.nelement(a=1))}


@pytest.mark.parametrize("program", prog.params())
def test_tensor_attributes_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
