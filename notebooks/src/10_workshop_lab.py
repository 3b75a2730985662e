# %% [markdown]
# # 10 · Workshop lab: debug it, then slim it down
#
# A hands-on session for a class (or for you alone). Everything you need was covered in
# notebooks 06–09; here you *use* it. Every task checks itself: run the check cell and you get
# `[+] … correct`, `[-] … incorrect` with a reason, or `[ ] … not attempted`.
#
# **Learning goals**
# - Read a version-counter error, and find the guilty line with `detect_anomaly()` and `explain()`.
# - Fix a training step so that its gradients match a reference, bit for bit.
# - Cut a model's inference peak memory by a *measured* percentage without changing its output.
# - Clip gradients in place, without a hidden temporary.
# - (After notebook 11) fix an attention block that breaks backward, and cut a generation loop's
#   allocations with a preallocated cache by a measured factor.
#
# **Timing plan (60–90 min)**
#
# | time | what | who |
# |---|---|---|
# | 0–10 min | recap: version counter, what ops save (notebook 06 §2), transient vs persistent (07 §3) | instructor |
# | 10–35 min | **Task 1** — the broken training script (10.1, 10.2) | pairs |
# | 35–40 min | debrief: why `relu_` on line 3 is fine and line 5 is not | class |
# | 40–65 min | **Task 2** — cut the inference peak (10.3) | pairs |
# | 65–75 min | **Task 3** — clip the gradients in place (10.4); fast pairs: the stretch task 10.5 | individually |
# | 75–90 min | show-and-tell: whose `predict` has the lowest peak, and why | class |
#
# **Transformer tasks (30–40 min more, after notebook 11)**
#
# | time | what | who |
# |---|---|---|
# | 0–15 min | **Task 4** — the attention block that fails (10.6, 10.7) | pairs |
# | 15–30 min | **Task 5** — a generation loop with a preallocated cache (10.8) | pairs |
# | 30–40 min | debrief: which in-place write in the block was safe, and what the cache saved | class |
#
# Each task has stepped hints: `hint("10.2")` prints a nudge, each further call the next step.
# The reference solutions are not in the participant install: `solution("10.k")` works once the
# instructor hands out `ipt_solutions.py` (save it next to the notebooks). Instructors: ask the
# room to run `ipt.exercises.progress()` to see who has passed what.

# %%
import inplace_tutorial as ipt
from inplace_tutorial import lab, viz
from inplace_tutorial.exercises import check, hint, solution
from inplace_tutorial.nn import functional as F

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %% [markdown]
# ## Task 1 · The training script that fails
#
# A colleague's training step (`lab.broken_train_step`, file `broken_step.py`). Read it (the setup
# cell above imports `ipt` and `F` too, so you can paste it into a cell and edit it):

# %%
lab.show_broken()

# %% [markdown]
# Run it once on the lab's model and batch, and read the error:

# %%
model, (x, target) = lab.make_model(), lab.make_batch()
try:
    lab.broken_train_step(model, x, target)
except RuntimeError as e:
    print("RuntimeError:", e)

# %% [markdown]
# The error says *what* (the cell above names the tensor's shape, the op that made it, and its
# versions) but not *where*. Two versions ahead means two in-place ops hit it. Now run it under anomaly mode:

# %%
model = lab.make_model()
with ipt.autograd.detect_anomaly():
    try:
        lab.broken_train_step(model, x, target)
    except RuntimeError as e:
        print(str(e).split("Good luck!")[-1].strip())

# %% [markdown]
# And `explain()` tells you *before* the in-place op whether it is safe — here for the two tensors
# the script modifies in place (we rebuild the first lines by hand):

# %%
model = lab.make_model()
h = model.fc1(x)
print("h before relu_:  ", ipt.autograd.explain(h))
h.relu_()
g = model.fc2(h).sigmoid()
print("g before mul_(2):", ipt.autograd.explain(g))

# %% [markdown]
# **10.1** Which line of `broken_step.py` is the culprit? Answer the line number.

# %%
answer = None  # your code here: an int
check("10.1", answer)
# hint("10.1")
# solution("10.1")

# %% [markdown]
# **10.2** Write a fixed `train_step(model, x, target)`: the same computation, returning the loss
# after `loss.backward()`. The checker runs it on a fresh model and compares the loss and all six
# gradients with a reference. (Keep the in-place ReLU if you can justify it!)

# %%
answer = None  # your code here: a function train_step(model, x, target)
check("10.2", answer)
# hint("10.2")
# solution("10.2")

# %% [markdown]
# ## Task 2 · Cut the inference peak
#
# `lab.baseline_predict(model, x)` runs an encoder (64 → 256 → 256 → 10, batch 256) the way the
# script was written: autograd on, every intermediate in its own variable:

# %%
lab.show_baseline()

# %% [markdown]
# Its peak, measured:

# %%
base_peak, base_out = lab.measure_peak(lab.baseline_predict)
print(f"baseline peak: {base_peak:,} B ({viz.fmt_bytes(base_peak)}) above the weights and input")
print(f"to pass 10.3: at most {int(base_peak * (1 - lab.REQUIRED_CUT)):,} B "
      f"(a cut of {lab.REQUIRED_CUT:.0%}), with identical outputs")

# %% [markdown]
# Where does it go? The timeline of the baseline, and what is alive at its peak:

# %%
model, xin = lab.make_encoder(), lab.make_inputs()
with ipt.memory.record() as tr:
    out = lab.baseline_predict(model, xin)
for line in viz.peak_report(tr, top=5):
    print(line)
fig = viz.memory_timeline(tr, title="baseline_predict: every buffer stays alive")
fig

# %% [markdown]
# Tools you know: `ipt.no_grad()` / `ipt.inference_mode()` (nothing saved for backward),
# `relu_()` / `tanh_()` (no second buffer), and reusing one variable name so the previous buffer
# is freed. Which of them matters here? Try `no_grad` alone first — the measurement may surprise you.

# %%
with ipt.no_grad():
    peak_ng, _ = lab.measure_peak(lab.baseline_predict)
print(f"baseline under no_grad only: {peak_ng:,} B  (cut {1 - peak_ng / base_peak:.0%})")

# %% [markdown]
# **10.3** Write `predict(model, x)` that returns the same output with a peak at least
# `REQUIRED_CUT` lower, and no autograd graph attached to it (an output that carries a graph keeps
# every saved activation alive for as long as the caller holds it). Measure yourself with
# `lab.measure_peak(predict)`; the checker runs your function on a model and batch it has not
# shown you.

# %%
answer = None  # your code here: a function predict(model, x)
check("10.3", answer)
# hint("10.3")
# solution("10.3")

# %% [markdown]
# ## Task 3 · Clip the gradients, in place
#
# Before `optimizer.step()`, training code often clips the gradients by their total norm
# (PyTorch's `torch.nn.utils.clip_grad_norm_`): with `total` the L2 norm of all gradients taken
# together, every gradient is multiplied by `max_norm / (total + 1e-6)` when that is below 1.
# The obvious version gets the values right:

# %%
import inspect

print(inspect.getsource(lab.clip_grads_naive_))

# %% [markdown]
# Measured on the lab's parameters (a 512×512 weight and a 512 bias, with gradients):

# %%
params = lab.make_params_with_grads()
with ipt.memory.record() as tr:
    lab.clip_grads_naive_(params, max_norm=1.0)
print(f"naive clipping: peak extra {tr.peak - tr.start_allocated:,} B; "
      f"the weight's gradient is {params[0].grad.untyped_storage().nbytes():,} B")
ok, msg = lab.check_clip(lab.clip_grads_naive_)
print("the 10.4 checker on it:", "pass" if ok else "fail", "—", msg)

# %% [markdown]
# **10.4** Write `clip_grads_(params, max_norm)`: the same rule, returning the total norm, with
# every `p.grad` scaled **in place** and no temporary as large as a gradient.

# %%
answer = None  # your code here: a function clip_grads_(params, max_norm)
check("10.4", answer)
# hint("10.4")
# solution("10.4")

# %% [markdown]
# ## Stretch task (for fast pairs)
#
# **10.5** Cut `baseline_predict`'s peak by **more than 90%**, same outputs, no graph.

# %%
answer = None  # your code here: a function predict(model, x)
check("10.5", answer)
# hint("10.5")
# solution("10.5")

# %% [markdown]
# ## Task 4 · The attention block that fails
#
# A causal self-attention block over token embeddings (`lab.broken_block_step`, file
# `broken_attention.py`). It writes in place twice. Read it:

# %%
lab.show_broken_attention()

# %%
block, idx = lab.make_attention(), lab.make_tokens()
try:
    lab.broken_block_step(block, idx)
except RuntimeError as e:
    print("RuntimeError:", str(e).split(". Hint")[0])

# %% [markdown]
# **10.6** Which line of `broken_attention.py` modified a tensor that backward needs? (Use the
# tools of Task 1.)

# %%
answer = None  # your code here: an int
check("10.6", answer)
# hint("10.6")
# solution("10.6")

# %% [markdown]
# **10.7** Write a fixed `block_step(block, idx)`: the same computation, returning the loss
# after `loss.backward()`. Keep the in-place write that is safe. The helpers are
# `block.heads` (split into q, k, v), `block.merge` (heads back to (B, T, C)), `block.scale`
# and `block.future` (True where key j > query i).

# %%
answer = None  # your code here: a function block_step(block, idx)
check("10.7", answer)
# hint("10.7")
# solution("10.7")

# %% [markdown]
# ## Task 5 · The generation loop's cache
#
# Generating text one token at a time, each step needs the keys and values of every earlier
# position. `lab.generate_with_cat` keeps them in tensors that grow with `cat`: each step
# allocates new tensors one position longer and copies everything so far into them.

# %%
print(inspect.getsource(lab.generate_with_cat))

# %% [markdown]
# Measured: all the bytes it allocates while generating `lab.NEW_TOKENS` tokens (the
# `ipt.memory` trace of the whole loop):

# %%
base_bytes, base_ids = lab.measure_allocated(lab.generate_with_cat)
print(f"generate_with_cat: {base_bytes:,} B allocated for {lab.NEW_TOKENS} tokens "
      f"({base_bytes // lab.NEW_TOKENS:,} B a token on average)")
print(f"to pass 10.8: at most {int(base_bytes / lab.REQUIRED_FACTOR):,} B "
      f"({lab.REQUIRED_FACTOR:.0f}x fewer), the same tokens")

# %% [markdown]
# **10.8** Write `generate(model, prompt, new_tokens)` that returns the same tokens and
# allocates at least `REQUIRED_FACTOR` times fewer bytes: allocate the keys and values once,
# for all `len(prompt) + new_tokens` positions, and write each step's `k` and `v` into them in
# place. `lab.embed` and `lab.next_token` are the loop's two helpers; measure yourself with
# `lab.measure_allocated(generate)`.

# %%
answer = None  # your code here: a function generate(model, prompt, new_tokens)
check("10.8", answer)
# hint("10.8")
# solution("10.8")

# %% [markdown]
# ## Debrief questions for the class
# 1. Line 3 (`h.relu_()`) was never the problem. Which node would have to save `h` for it to be?
# 2. In Task 2, why did `no_grad()` alone change nothing? (Hint: who holds `h1`, `a1`, `h2`?)
# 3. In training, would `relu_` in Task 2's encoder lower the memory kept for backward? (Notebook 07 §3.)
# 4. Where else would you run `explain()` before adding an in-place op to real code?
# 5. In Task 4, why is `masked_fill_` on line 5 safe while `x += ...` on line 7 is not?
# 6. In Task 5, which bytes did the preallocated cache save, and which does every step still
#    allocate? Why does the loop run under `inference_mode()`?
#
# ## Summary
# - A version-counter error names the tensor; `detect_anomaly()` names the line; `explain()` warns
#   before you write.
# - The fix is local: make the *one* offending op out of place; in-place ops on tensors nobody
#   saved (like `relu_` after a linear layer) can stay.
# - Inference memory comes down by freeing buffers early (names, `no_grad`) and writing in place —
#   measured, not assumed.
# - Gradients can be clipped in place: a dot product gives each sum of squares without a
#   temporary, and `mul_` scales each `p.grad` in its own storage.
# - In a Transformer block, write into what nobody saved (the scores before softmax, a branch's
#   output), never into the residual stream that LayerNorm saved.
# - A generation loop's cache, allocated once and written in place, turns a copy of the whole
#   past per token into one write per token.
