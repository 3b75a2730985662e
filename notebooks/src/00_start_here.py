# %% [markdown]
# # 00 · Start here
#
# This course teaches PyTorch's **in-place operations**: `x.add_(5)`, `relu_()`,
# `t.sub_(mean).div_(std)`, `param.add_(grad, alpha=-lr)`, `addbmm_` and the rest. For each one
# you will see what it does to memory, when it really saves memory, when it saves nothing, and
# which training-time mistakes it can cause.
#
# Everything runs on `inplace_tutorial` (`ipt`), a small tensor and autograd library written in
# NumPy. It uses PyTorch's names and rules (`data_ptr()`, `_version`, `grad_fn`, the same error
# messages), and it **counts every byte** it allocates. So instead of reading that an operation
# "saves 4 MB", you measure it. You don't need PyTorch installed. Where the two differ, an
# **In real PyTorch** note tells you, with PyTorch's own figure; every such statement is run on
# PyTorch 2.13 by the parity tests (`tests/parity/test_course_claims.py`).
#
# **Who it is for:** you have trained a model in PyTorch (or follow the code in a tutorial) and
# want to know when `inplace=True` and the trailing `_` are worth using and when they are a
# trap.
#
# The course started from two Japanese blog articles: one on in-place operations and one on
# `addbmm_`. Several of their claims are wrong or only half right. Each claim gets a cell that
# runs it, under a heading like **"Claim 5 (article): … — what really happens"**.

# %% [markdown]
# ## The map
#
# | notebook | after it you can … |
# |---|---|
# | **00 Start here** | check your setup and plan your route |
# | **01 What in-place means** | tell an in-place op from a new allocation by `data_ptr`, `_version` and bytes counted |
# | **02 Memory layout** | read storage, strides and offset; predict which ops make views and which copy |
# | **03 Inference** | find a model's memory peak on a timeline and say whether `relu_` lowers it |
# | **04 Preprocessing** | normalise batches in place, and know when `clone()` cancels the saving and when dtypes block it |
# | **05 Training phases** | follow forward, backward and update step by step; write an optimizer update with no full-size temporary |
# | **06 Autograd hazards** | predict which in-place op breaks backward, and read the version-counter error |
# | **07 When in-place saves nothing** | spot in-place ops that autograd has to undo with a hidden clone |
# | **08 addbmm_ in depth** | use `addbmm_`/`baddbmm_` with the right shapes, and compare them with `bmm` and `einsum` |
# | **09 Appendix: the in-place catalogue** | look up which in-place ops exist, what to write instead of the missing ones, and what each costs in memory |
# | **10 Workshop lab** | apply all of it to a small model on your own |
# | **11 In-place inside a Transformer** | mask attention scores and add residuals in place safely, and measure which activation bytes in-place can't save |
# | **12 The KV cache** | measure what a generated token allocates with a cache grown by `cat` and with one written in place, and run generation in the right grad mode |
# | **13 Mixed precision** | predict what in-place ops do to `float16`/`bfloat16` tensors, and write loss scaling and fp32 master-weight updates in place |
# | **14 Gradients are updated in place too** | accumulate gradients over micro-batches, choose how to clear them, and say what `clip_grad_norm_` changes in place |
# | **15 Your own PyTorch model** | find the in-place line that broke backward in a real PyTorch model with `detect_inplace()` (needs PyTorch) |

# %% [markdown]
# ## How to use it
#
# **On your own:** go in order from 01 to 05. After that, 06–09 can be read in any order, and 10
# is the capstone. 11 (Transformers) builds on 06 and 07, 12 (the KV cache) on 03 and 06;
# 13 (mixed precision) and 14 (gradients) build on 05 and can be read any time after it.
# Run every cell from top to bottom (*Run → Run All Cells* also works). Change numbers and
# run cells again: every measurement is computed live.
#
# **In class:** the instructor guide (`docs/instructor.md`) has three agendas, with minutes
# computed from these notebooks' cells (the words to read, each cell's run time, the exercises):
#
# - **two hours:** the setup check, 01, the core of 06 and 07, and lab 10's first three tasks;
# - **one day:** 00–07, lab 10's first three tasks and its stretch task, then 14;
# - **a second half day** on models as they are built now: 11, 12 and 13, lab 10's Transformer
#   tasks (4 and 5), and 15 on your own PyTorch model.
#
# 08 (`addbmm_` in depth) and 09 (the catalogue) are for self-study and look-ups.
#
# **Exercises** end each notebook. Each has a cell like
#
# ```python
# answer = None  # your code here
# check("01.1", answer)
# # hint("01.1")
# # solution("01.1")
# ```
#
# Replace `None` with your answer and run the cell: `check` prints `[+]` (correct), `[-]`
# (incorrect, with a reason) or `[ ]` if you haven't tried yet. It computes the right answer on the library, so it also accepts
# solutions that differ from ours, in the forms people write them (`400000`, `4e5` or
# `np.prod(shape) * 4`; a set, list or tuple of names).
#
# **Hints come in steps.** Uncomment `hint("01.1")` and run the cell: you get a first nudge.
# Run it again for the next step (`hint("01.1", 2)` jumps straight to step 2). No hint gives the
# answer away; `solution("01.1")` shows ours.
#
# **Solutions are for instructors to hand out.** They are not part of the participant install:
# until your instructor gives you `ipt_solutions.py` (save it next to the notebooks),
# `solution(...)` says where to get it, and `check` and `hint` work without it. Studying alone
# from a clone of the course? The file is in its `instructor/` folder and `solution` finds it.
#
# **Progress.** Every `check` is noted on your machine only (in your user's config folder, e.g.
# `~/.config/inplace_tutorial/progress.json`). `ipt.exercises.progress()` prints which exercises
# you have passed, so an instructor can ask the whole room to run one cell.
#
# **As a test suite:** `make test` runs the unit tests and then re-runs every notebook with
# nbval, comparing each printed output with the committed one. A lesson whose numbers no longer
# hold fails CI.

# %% [markdown]
# ## Setup check
#
# Run the next two cells. The first loads the library as every notebook does. The second checks
# that it works on your machine. Each line should end in `ok`.

# %%
import importlib.util

import inplace_tutorial as ipt
from inplace_tutorial import viz
from inplace_tutorial.exercises import check, hint, solution  # noqa: F401

viz.setup_notebook()
_ = ipt.manual_seed(0)

# %%
x = ipt.tensor([1.0, 2.0, 3.0])
same_memory = x.add_(5) is x and x.tolist() == [6.0, 7.0, 8.0] and x._version == 1
with ipt.memory.record() as trace:
    y = ipt.zeros(1000, 1000) + 1
counted = trace.peak - trace.start_allocated
print("inplace_tutorial imports:         ok")
print(f"x.add_(5) works in place:        {'ok' if same_memory else 'FAILED'}")
print(f"memory accounting (2 x 4 MB):    {'ok' if counted == 8_000_000 else 'FAILED'}")
print(f"pictures (viz) and widgets load: "
      f"{'ok' if importlib.util.find_spec('ipywidgets') and ipt.widgets else 'FAILED'}")
torch_found = importlib.util.find_spec("torch") is not None
print("optional PyTorch install:        ok (the course never needs it)")

# %% [markdown]
# The last line reads the same whether PyTorch is installed or not, because the course never
# imports it (`torch_found` holds the answer if you are curious). If a line says `FAILED`, run
# `make setup` in the repository folder and restart the kernel.
#
# **Next:** [01 What in-place means](01_what_inplace_means.ipynb).
