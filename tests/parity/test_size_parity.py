"""torch.Size: what ``x.shape`` is, and what slicing, ``+`` and ``*`` of it give.

A slice, a concatenation or a repetition of a Size is a Size again (it prints as
``torch.Size([3, 4])``, not ``(3, 4)``, and has ``numel()``); ``torch.Size(...)`` takes ints
and whatever has ``__index__``, and refuses the rest in Size.cpp's words.
(inplace_tutorial/size.py:Size)
"""

import copy
import pickle

import numpy as np
import pytest

from .harness import Registry, catch, check_parity

pytestmark = pytest.mark.parity

prog = Registry()


def _seen(s):
    """What a learner sees of a value: its type's name and how it prints."""
    return (type(s).__name__, repr(s))


@prog
def size_slices_are_sizes(t):
    x = t.ones(2, 3, 4)
    return {
        "tail": _seen(x.shape[1:]), "last_two": _seen(x.size()[-2:]),
        "reversed": _seen(x.shape[::-1]), "empty": _seen(x.shape[:0]),
        "item": _seen(x.shape[1]), "tail_numel": x.shape[1:].numel(),
        "out_of_range": catch(lambda: x.shape[5]),
    }


@prog
def size_concatenation_and_repetition(t):
    x = t.ones(2, 3)
    return {
        "plus_tuple": _seen(x.shape + (5,)), "tuple_plus": _seen((5,) + x.shape),
        "plus_size": _seen(x.shape + t.ones(4).shape), "times": _seen(x.shape * 2),
        "rtimes": _seen(2 * x.shape), "times_zero": _seen(x.shape * 0),
        "plus_list": catch(lambda: x.shape + [1]),
        "plus_float_tuple": catch(lambda: x.shape + (1.5,)),
        "float_tuple_plus": catch(lambda: (1.5,) + x.shape),
        "times_float": catch(lambda: x.shape * 1.5),
        "view_with_it": tuple(x.view(*x.shape[:1], -1).shape),
    }


@prog
def size_constructor_checks_items(t):
    return {
        "ints": _seen(t.Size([2, 3])), "empty": _seen(t.Size()),
        "generator": _seen(t.Size(n for n in (1, 2))), "negative": _seen(t.Size([-1])),
        "bool": _seen(t.Size([True])), "numpy_int": _seen(t.Size([np.int64(3)])),
        "int_tensor": _seen(t.Size([t.tensor(3)])),
        "one_element_tensor": _seen(t.Size([t.tensor([4])])),
        "float": catch(lambda: t.Size([2.5])), "none": catch(lambda: t.Size([2, None])),
        "float_tensor": catch(lambda: t.Size([t.tensor(3.0)])),
        "not_iterable": catch(lambda: t.Size(3)),
        "two_arguments": catch(lambda: t.Size([1], [2])),
        "beyond_int64": tuple(t.Size([2 ** 70])),  # (torch refuses it only when printing)
        "equal_to_tuple": t.Size([2, 3]) == (2, 3),
        "same_hash": hash(t.Size([2, 3])) == hash((2, 3)),
    }


@prog
def size_survives_pickle_and_copy(t):
    s = t.ones(2, 3).shape
    return {"pickled": _seen(pickle.loads(pickle.dumps(s))), "copied": _seen(copy.copy(s)),
            "deep": _seen(copy.deepcopy(s))}


@pytest.mark.parametrize("program", prog.params())
def test_size_parity(program, torch_mod, core):
    check_parity(program, torch_mod, core)
