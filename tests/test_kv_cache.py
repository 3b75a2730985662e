"""models/kv_cache.py: three caches give the same tokens; cat moves and grows the keys every
token, the preallocated caches write in place; what grad mode changes."""
from __future__ import annotations

import gc

import pytest

import inplace_tutorial as ipt
from inplace_tutorial.models import GPT, kv_cache

PROMPT = [1, 2, 3, 4]


@pytest.fixture(scope="module")
def model():
    ipt.manual_seed(0)
    return GPT(16, block_size=24, n_embd=32, n_head=4, n_layer=2)


def _moves(steps):
    return sum(a.keys_ptr != b.keys_ptr for a, b in zip(steps, steps[1:]))


def test_every_cache_generates_the_tokens_of_no_cache(model):
    runs = {c: kv_cache.generate_measured(model, PROMPT, 12, c)[0]
            for c in (None, *kv_cache.CACHES)}
    assert len(set(map(tuple, runs.values()))) == 1 and len(runs[None]) == 16
    assert runs[None] == model.generate(ipt.tensor([PROMPT]), 12)[0].tolist()


def test_cat_moves_and_grows_the_keys_preallocated_caches_do_not(model):
    per_position = 4 * model.n_embd  # one layer's keys (or values), float32, batch 1
    _, cat_steps, cat_kv = kv_cache.generate_measured(model, PROMPT, 12, "cat")
    assert _moves(cat_steps) == len(cat_steps) - 1
    assert cat_kv.keys[0].shape == (1, 4, 15, 8)  # the last token is generated, not fed
    # from one token to the next, cat allocates one more position for K and V of every layer
    growth = {b.allocated - a.allocated for a, b in zip(cat_steps[1:], cat_steps[2:])}
    attention_growth = {b.allocated - a.allocated for a, b in zip(
        *[kv_cache.generate_measured(model, PROMPT, 12, "preallocated")[1][i:] for i in (1, 2)])}
    assert {g - 2 * model.n_layer * per_position for g in growth} == attention_growth
    for cache in ("preallocated", "index_copy_"):
        _, steps, kv = kv_cache.generate_measured(model, PROMPT, 12, cache)
        assert _moves(steps) == 0 and kv.pos == 15
        assert steps[-1].held == 2 * model.n_layer * model.block_size * per_position
        assert {s.keys_version for s in steps} == {None}  # inference tensors: no counter
        assert kv.keys[0].is_inference()


def test_versions_count_writes_under_no_grad(model):
    for cache in ("preallocated", "index_copy_"):
        _, steps, kv = kv_cache.generate_measured(model, PROMPT, 6, cache, mode="no_grad")
        assert [s.keys_version for s in steps] == [1, 2, 3, 4, 5, 6]
        assert kv.keys[0].grad_fn is None and not kv.keys[0].is_inference()
    _, steps, _ = kv_cache.generate_measured(model, PROMPT, 6, "cat", mode="no_grad")
    assert {s.keys_version for s in steps} == {0}  # every step a fresh tensor


def test_grad_enabled_cache_joins_the_graph_and_holds_every_step(model):
    gc.collect()  # garbage of earlier tests, freed mid-loop, would change the bytes held
    held = {}
    for mode in ("inference_mode", "grad enabled"):
        _, steps, kv = kv_cache.generate_measured(model, PROMPT, 8, "preallocated", mode=mode)
        held[mode] = [s.held for s in steps]
    assert kv.keys[0].grad_fn.name() == "torch::autograd::CopySlices"
    assert len(set(held["inference_mode"])) == 1  # only the cache stays allocated
    assert all(b > a for a, b in zip(held["grad enabled"], held["grad enabled"][1:]))
    _, _, kv = kv_cache.generate_measured(model, PROMPT, 3, "cat", mode="grad enabled")
    assert kv.keys[0].grad_fn.name() == "CatBackward0"


def test_index_copy_cache_holds_the_slice_caches_values(model):
    _, _, a = kv_cache.generate_measured(model, PROMPT, 5, "preallocated", mode="no_grad")
    _, _, b = kv_cache.generate_measured(model, PROMPT, 5, "index_copy_", mode="no_grad")
    for x, y in zip(a.keys + a.values, b.keys + b.values):
        assert (x - y).abs().amax().item() == 0


def test_too_long_and_model_mode_restored(model):
    with pytest.raises(ValueError, match="exceed block_size"):
        kv_cache.generate_measured(model, PROMPT, 21, "cat")
    model.train()
    kv_cache.generate_measured(model, PROMPT, 1, None)
    assert model.training
