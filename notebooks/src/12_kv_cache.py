# %% [markdown]
# # 12 · The KV cache
#
# A language model generates one token at a time, and each new token attends to the keys and
# values of every token before it. Recomputing those each step repeats all earlier work, so
# generation keeps them: the **KV cache**. How it is kept is a memory question this course can
# answer. Grow it with `cat` each step, and every token allocates and copies the whole cache
# again; allocate it once and write each new position **in place**, and a token allocates only
# its own activations. Both run under `inference_mode`, for reasons notebook 03 began.
#
# **Learning goals**
# - Say what a KV cache holds and how many bytes one position costs.
# - Measure the bytes each generated token allocates when the cache grows with `cat`, and when
#   it is preallocated and written with slice assignment or `index_copy_`.
# - Use `data_ptr()` and `_version` to show that a preallocated cache never moves and counts
#   its writes.
# - Explain what goes wrong when the same cache is written with grad enabled, and why
#   `inference_mode` is the right mode for generation.
#
# **Under the hood:** [`models/kv_cache.py`](../inplace_tutorial/models/kv_cache.py) (the three
# caches and the measured generation loop), [`models/gpt.py`](../inplace_tutorial/models/gpt.py)
# (the tiny GPT; attention calls `cache.update`), [`ops/joining.py`](../inplace_tutorial/ops/joining.py)
# (`cat`), [`ops/index_ops.py`](../inplace_tutorial/ops/index_ops.py) (`index_copy_`); the
# [reading map](../inplace_tutorial/README.md) walks through the core.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import viz
from inplace_tutorial.exercises import check, hint, nb12, solution  # noqa: F401
from inplace_tutorial.models import GPT, kv_cache

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## 1. What the cache holds
#
# The model is the course's tiny GPT (`ipt.models.GPT`): 2 blocks, 4 attention heads, 64
# numbers per token, at most 64 positions. Its weights are random: what we measure here (bytes,
# storages, versions) does not depend on them.
#
# In each block, attention projects every token to a query, a key and a value. A new token's
# query is compared with the keys of all tokens so far, and their values are mixed by the
# result. So for every position, every block keeps one key and one value: `n_embd` numbers each.

# %%
model = GPT(vocab_size=32, block_size=64, n_embd=64, n_head=4, n_layer=2)
per_position = 2 * model.n_layer * model.n_embd * 4   # K and V, every block, float32
print(f"one position: 2 (K, V) x {model.n_layer} blocks x {model.n_embd} numbers x 4 B = "
      f"{per_position:,} B")
print(f"a full cache of {model.block_size} positions: {per_position * model.block_size:,} B")

# %% [markdown]
# Three caches live in `ipt.models.kv_cache`, and the model's attention only calls
# `cache.update(k, v, layer)`, which stores the new positions and returns all keys and values
# so far:
#
# | cache | `update` stores the new position by | storage |
# |---|---|---|
# | `"cat"` | `K = cat([K, k], dim=2)` | a new, longer one every token |
# | `"preallocated"` | `K[:, :, t] = k` (slice assignment) | `block_size` positions, allocated once |
# | `"index_copy_"` | `K.index_copy_(2, tensor([t]), k)` | the same |
#
# Predict first: do all three generate the same tokens as running the whole sequence again each
# step (no cache)?

# %%
prompt = [1, 2, 3, 4]
tokens = {name: kv_cache.generate_measured(model, prompt, 16, name)[0]
          for name in (None, "cat", "preallocated", "index_copy_")}
print("16 generated tokens:", tokens[None][len(prompt):])
print("same tokens with every cache:", all(t == tokens[None] for t in tokens.values()))

# %% [markdown]
# Same tokens: a cache changes how much is computed and allocated, never what comes out.
# `generate_measured` feeds the prompt once, then one token per step, greedily (always the most
# likely next token), under `inference_mode` unless told otherwise.

# %% [markdown]
# ## 2. Growing the cache with `cat`
#
# One step by hand, on a cache of 10 positions (1 sequence, 4 heads, 16 numbers per head):

# %%
with ipt.inference_mode():
    K = ipt.zeros(1, 4, 10, 16)
    k = ipt.randn(1, 4, 1, 16)                  # the new token's key
    ptr = K.data_ptr()
    with ipt.memory.record() as step:
        K = ipt.cat([K, k], dim=2)
print("K now holds", K.shape[2], "positions | moved to new memory:", K.data_ptr() != ptr)
print("allocated by one cat:", [e.nbytes for e in step.events if e.kind == "alloc"], "B;",
      "freed:", [e.nbytes for e in step.events if e.kind == "free"], "B")

# %% [markdown]
# `cat` cannot grow a tensor: it allocates a new one for all 11 positions (2,816 B), copies the
# old 10 and the new one in, and the old storage is freed when `K` is rebound. Each token copies
# the whole cache, and the copy grows with every token. *In real PyTorch:* the same new storage
# (parity test `test_12_cat_allocates_a_new_storage`).

# %% [markdown]
# ## 3. Preallocated and written in place
#
# The other way: allocate storage for all `block_size` positions once, and write position `t`
# into its slot. Both spellings write in place into the same storage:

# %%
with ipt.no_grad():                             # no_grad, not inference_mode: see section 5
    K = ipt.zeros(1, 4, 10, 16)
    ptr, version = K.data_ptr(), K._version
    with ipt.memory.record() as step:
        K[:, :, 3:4] = k                                        # slice assignment
        K.index_copy_(2, ipt.tensor([4]), k)                    # index_copy_
print("same memory:", K.data_ptr() == ptr, "| version steps:", K._version - version)
print("allocated:", [e.nbytes for e in step.events if e.kind == "alloc"], "B",
      "(the 8-byte index tensor of index_copy_)")

# %% [markdown]
# One version step per write; nothing allocated but `index_copy_`'s index. *In real PyTorch:*
# same memory, same version steps (parity test `test_12_cache_writes_in_place`).

# %% [markdown]
# ## 4. Measured over a whole generation
#
# Now 56 tokens after the 4-token prompt, with each cache, under `inference_mode`. For every
# forward pass we record the bytes it allocated (all of them, freed or not) and the bytes still
# held when it returns.

# %%
runs = {name: kv_cache.generate_measured(model, prompt, 56, name)[1]
        for name in ("cat", "preallocated", "index_copy_")}
positions = [s.position for s in runs["cat"]][1:]      # from the first single-token step
for name, steps in runs.items():
    moves = sum(a.keys_ptr != b.keys_ptr for a, b in zip(steps, steps[1:]))
    print(f"{name:<13} allocated in total {sum(s.allocated for s in steps):>9,} B | "
          f"last token {steps[-1].allocated:>6,} B | held at the end {steps[-1].held:>6,} B | "
          f"keys moved {moves} of {len(steps) - 1} steps")
fig = viz.line_chart({name: [s.allocated for s in steps[1:]] for name, steps in runs.items()},
                     x=positions, bytes_axis=True, xlabel="position of the token fed in",
                     ylabel="allocated by this step", title="bytes allocated per generated token")
fig

# %%
totals = {}
for name, steps in runs.items():
    running, total = [], 0
    for s in steps[1:]:
        total += s.allocated
        running.append(total)
    totals[name] = running
fig = viz.line_chart(totals, x=positions, bytes_axis=True, xlabel="position of the token fed in",
                     ylabel="allocated since the prompt", title="bytes allocated in total")
fig

# %% [markdown]
# - **`cat`**: each step allocates the whole cache again (its line climbs `per_position`,
#   1,024 B, per token faster than the others), so the total grows with the *square* of the
#   length. The keys move to
#   new memory at every step.
# - **Preallocated** (slice assignment or `index_copy_`, the lines lie on top of each other):
#   each step allocates only its own activations. They grow a little with the length too (a
#   new query's attention scores have one entry per position), but nothing is copied. The keys
#   never move.
# - **Held at the end**: `cat` holds exactly the positions used so far; the preallocated caches
#   hold all `block_size` positions from the first token on. The price of writing in place is
#   reserving the space up front. Serving systems that cannot know the length in advance cut
#   the cache into fixed-size blocks allocated as needed, for that reason (vLLM's
#   PagedAttention: Kwon et al., "Efficient Memory Management for Large Language Model Serving
#   with PagedAttention", SOSP 2023).

# %% [markdown]
# ## 5. `_version` and `inference_mode`: notebook 03 again
#
# Predict: after 6 tokens, what is the version of layer 0's keys?

# %%
for mode in ("no_grad", "inference_mode"):
    _, steps, cache = kv_cache.generate_measured(model, prompt, 6, "preallocated", mode=mode)
    print(f"{mode:<15} keys version after each token: {[s.keys_version for s in steps]} | "
          f"inference tensor: {cache.keys[0].is_inference()}")
try:
    cache.keys[0]._version
except RuntimeError as e:
    print("  ._version ->", e)

# %% [markdown]
# Under `no_grad` the counter counts the writes: one per token. Under `inference_mode` the
# cache is an **inference tensor** (it was allocated inside the mode), and inference tensors
# keep no version counter at all: no autograd graph can ever read them, so there is nothing to
# check, and each write saves that bookkeeping. That is notebook 03's lesson, and so is the
# rule that comes with it: the cache may only be written inside `inference_mode`.

# %%
try:
    with ipt.no_grad():                       # a second generation, outside inference_mode
        model(ipt.tensor([[5]]), cache=cache)
except RuntimeError as e:
    print(str(e).split(".")[0] + ".")

# %% [markdown]
# Keep a cache that was made under `inference_mode` in `inference_mode`. *In real PyTorch:* the
# same error for slice assignment and `index_copy_`, and the same `_version` error, with
# notebook 03's surprise: PyTorch raises *after* its kernel wrote, so the cache holds the new
# key although the call failed; the core refuses before writing (parity test
# `test_12_inference_cache_rules`).

# %% [markdown]
# ## 6. The same cache with grad enabled
#
# Forget the `with` block, and generation runs with grad enabled: the weights require grad, so
# every key does, and writing it into the cache makes the cache part of the graph.

# %%
held = {}
for mode in ("inference_mode", "grad enabled"):
    for name in ("preallocated", "cat"):
        _, steps, cache = kv_cache.generate_measured(model, prompt, 24, name, mode=mode)
        held[mode, name] = steps[-1].held
        print(f"{mode:<14} {name:<12} held after 24 tokens: {steps[-1].held:>7,} B | "
              f"keys' grad_fn: {type(cache.keys[0].grad_fn).__name__ if cache.keys[0].grad_fn else None}")

# %% [markdown]
# With grad enabled the cache's `grad_fn` is a `CopySlices` node (or `CatBackward0`), which
# links to the graph of every step that wrote into it, and that graph keeps every step's saved
# activations alive. The bytes held grow with every token, as if the whole generation were one
# long forward pass waiting for a backward that never comes. *In real PyTorch:* the same two
# nodes (parity tests `test_12_cache_written_with_grad`, `test_12_cat_allocates_a_new_storage`).
#
# And if a backward does come, the in-place cache breaks it. The smallest case by hand: one
# key written, read by attention, then the next key written into the same cache.

# %%
wk = ipt.randn(8, 8, requires_grad=True)      # the key projection
x = ipt.randn(3, 8)                           # three tokens
cache = ipt.zeros(3, 8)                       # keys of 3 positions, grad enabled
cache[0] = x[0] @ wk                          # token 0 writes its key
score = cache[:1] @ (x[0] @ wk)               # attention reads the cache (saves the view)
cache[1] = x[1] @ wk                          # token 1 writes into the same cache
print("cache.grad_fn:", cache.grad_fn.name(), "| version:", cache._version)
try:
    score.sum().backward()
except RuntimeError as e:
    print(str(e).split(" Hint:")[0])

# %% [markdown]
# The matrix product saved the view `cache[:1]` at version 1; the second write made it
# version 2, so backward refuses (notebook 06's error). *In real PyTorch:* the same `CopySlices`
# node and the same message, word for word (parity test `test_12_cache_written_with_grad`).
# Generation needs no gradients: run it under `inference_mode` and none of this exists.
#
# **In real PyTorch code** the libraries make the same choice. In Hugging Face Transformers
# (`src/transformers/cache_utils.py`), the default `DynamicCache` grows keys and values with
# `torch.cat(..., dim=-2)` every token; `StaticCache`, the one meant for `torch.compile` and
# `torch.export`, preallocates `max_cache_len` positions and writes each new one with
# `index_copy_` (commented there as "compile-friendly"; slice assignment is its fallback on
# devices without `index_copy_`): storage that never moves and never changes shape.

# %% [markdown]
# ## Exercises
#
# **12.1** Write `append_(cache, k, t)`: `cache` is a preallocated cache of shape
# `(1, heads, positions, head_dim)` and `k` the new key, of shape `(1, heads, 1, head_dim)`.
# Write `k` at position `t` in place and return the keys of positions `0 .. t` (a view, not a
# copy).

# %%
answer = None  # your code here: a function
check("12.1", answer)
# hint("12.1")
# solution("12.1")

# %% [markdown]
# **12.2** A cache grown with `cat` starts with the prompt's 4 positions and gets one more
# position per token. How many bytes do all the `cat` calls of **one** layer's keys allocate
# while 100 tokens are fed in one at a time, with 4 heads of 16 numbers (`float32`)? The answer
# is a number.

# %%
answer = None  # your code here: a number of bytes
check("12.2", answer)
# hint("12.2")
# solution("12.2")

# %% [markdown]
# ## Summary
# - A KV cache keeps one key and one value per position and layer; the new token's attention
#   reads all of them.
# - Growing it with `cat` allocates and copies the whole cache every token: bytes per token grow
#   with the length, the total with its square, and the storage moves each time.
# - A preallocated cache written in place (slice assignment or `index_copy_`) never moves
#   (`data_ptr` stable), counts one `_version` step per write, and a token allocates only its
#   activations; the price is reserving every position up front.
# - Under `inference_mode` the cache is an inference tensor: no version counter, and no writes
#   outside the mode.
# - With grad enabled the cache joins the graph: every step's activations stay alive, and a
#   backward through an earlier read fails with the version error.
