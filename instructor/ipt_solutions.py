"""Reference solutions of the exercises, for instructors (not part of the participant install).

Keys match the exercises (notebook.number). Each value is the code a learner would write;
``solution(key)`` prints it and tests execute every one and check that it passes its exercise.
Hand this file out when the class is ready: saved next to the notebooks (or named by
``IPT_SOLUTIONS``) it turns ``solution()`` on.
"""

SOLUTIONS: dict[str, str] = {}

# --- notebook 06: autograd hazards ---
SOLUTIONS["06.1"] = """
from inplace_tutorial.exercises import nb06
# relu_ after scalar mul: nothing stale (A); sigmoid/exp saved their output (B, C);
# add saves nothing and scalar mul only its scalar (D); log saved its input x (E).
answer = {"A": False, "B": True, "C": True, "D": False, "E": True}
"""
SOLUTIONS["06.2"] = """
def answer(x):
    s = x.sigmoid()
    s = s * 2          # out of place: SigmoidBackward0's saved s stays at version 0
    return s.sum()
"""
SOLUTIONS["06.3"] = """
from inplace_tutorial.exercises import nb06
env = nb06.safety_scenario()
answer = {name for name, t in env.items() if ipt.autograd.inplace_safe(t)}
# {'b', 'c', 'h'}: w is a leaf that requires grad, x was saved by mm, a was saved by tanh
"""

# ---- notebooks 01-05 ------------------------------------------------------------------
SOLUTIONS["01.1"] = """
answer = lambda t: t.mul_(2)   # mul_ writes into t and returns t itself
"""
SOLUTIONS["01.2"] = """
x = ipt.zeros(250, 400)
with ipt.memory.record() as tr:
    y = x * 3
answer = tr.peak - tr.start_allocated   # 250 * 400 * 4 = 400,000 B
"""
SOLUTIONS["02.1"] = """
answer = ((3,), (4,), 1)   # 3 elements, 4 cells apart, starting at cell 1
"""
SOLUTIONS["02.2"] = """
answer = {
    "x.t()": False,               # a view: same storage, strides swapped
    "x.contiguous()": False,      # already contiguous: returns x itself
    "x.t().contiguous()": True,   # must lay the transposed order out in a new storage
    "x.reshape(12)": False,       # a view is possible, so reshape returns one
    "x.t().reshape(12)": True,    # no strides can describe it: reshape copies
    "x[:, 1]": False,             # slicing is always a view
}
"""
SOLUTIONS["03.1"] = """
answer = lambda n, channels, h, w: n * channels * (h - 2) * (w - 2) * 4
"""
SOLUTIONS["03.2"] = """
answer = lambda t: t.clone()   # run outside inference_mode: the clone is a normal tensor
"""
SOLUTIONS["04.1"] = """
def normalize_(t):
    mean, std = t.mean(), t.std()   # two 0-d tensors: 4 B each
    return t.sub_(mean).div_(std)

answer = normalize_
"""
SOLUTIONS["04.2"] = """
answer = lambda img: img.float().div_(255)   # .float() makes the one new buffer
"""
SOLUTIONS["05.1"] = """
def sgd_update(params, lr):
    with ipt.no_grad():
        for p in params:
            if p.grad is not None:
                p.add_(p.grad, alpha=-lr)

answer = sgd_update
"""
SOLUTIONS["05.2"] = """
model = ipt.models.digits_mlp()
answer = 2 * sum(p.numel() for p in model.parameters()) * 4   # exp_avg + exp_avg_sq, float32
"""

# --- notebook 07: when in-place saves nothing ---
SOLUTIONS["07.1"] = """
leaf = ipt.rand(256, 256, requires_grad=True)
y = leaf * 1
with ipt.memory.record() as tr:
    y.log_()
answer = ipt.memory.memory_allocated() - tr.start_allocated   # the clone LogBackward0 keeps
"""
SOLUTIONS["07.2"] = """
from inplace_tutorial.exercises import nb07
answer = {name for name in nb07.CASES
          if nb07.op_cost(name, True)[1] < nb07.op_cost(name, True, inplace=False)[1]}
# {'relu_()', 'sigmoid_()', 'exp_()', 'add_(1)', 'mul_(2)'}
"""
SOLUTIONS["07.3"] = """
from inplace_tutorial.exercises import nb07
answer = nb07.mlp_forward_memory(False)[1] - nb07.mlp_forward_memory(True)[1]   # 0
"""

# --- notebook 08: addbmm_ in depth ---
SOLUTIONS["08.1"] = """
answer = (20, 40)   # (n, p): batch1 (10, 20, 30) @ batch2 (10, 30, 40), summed over the 10 batches
"""
SOLUTIONS["08.2"] = """
answer = "bij,bjk->ik"   # b and j are summed; i, k survive
"""
SOLUTIONS["08.3"] = """
def answer(out, batch1, batch2, beta, alpha):
    out.mul_(beta)
    for i in range(batch1.shape[0]):
        out.addmm_(batch1[i], batch2[i], alpha=alpha)
    return out
"""

# --- notebook 09: the in-place catalogue ---
SOLUTIONS["09.1"] = """
from inplace_tutorial.exercises import nb09
answer = {name for name in nb09.QUIZ if hasattr(ipt.Tensor, name)}
# {'t_', 'clamp_', 'exp_', 'sqrt_', 'addbmm_', 'lerp_'}
"""
SOLUTIONS["09.2"] = """
def answer(a, b):
    return ipt.minimum(a, b, out=a)   # straight into a: no temporary (like a minimum_ would)
"""

# --- notebook 10: workshop lab ---
SOLUTIONS["10.1"] = """
from inplace_tutorial import lab
# with ipt.autograd.detect_anomaly(): lab.broken_train_step(...) names broken_step.py, line 5
answer = 5
"""
SOLUTIONS["10.2"] = """
from inplace_tutorial.nn import functional as F
def answer(model, x, target):
    h = model.fc1(x)
    h.relu_()                        # fine: nothing had saved h, and ReLU saves its output
    g = model.fc2(h).sigmoid()
    g = g * 2 - 1                    # out of place: SigmoidBackward0's saved output stays intact
    logits = model.head(g)
    loss = F.cross_entropy(logits, target)
    loss.backward()
    return loss
"""
SOLUTIONS["10.3"] = """
def answer(model, x):
    with ipt.no_grad():              # nothing saved for backward
        h = model.fc1(x)
        h.relu_()                    # no second buffer
        h = model.fc2(h)             # the old h is freed when the name moves on
        h.tanh_()
        return model.out(h)
"""
SOLUTIONS["10.4"] = """
def answer(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    # dot(g, g) over a flat view: the sum of squares without a g * g temporary
    total = sum(ipt.dot(g.view(-1), g.view(-1)) for g in grads) ** 0.5
    coef = max_norm / (total + 1e-6)        # clip_grad_norm_'s rule
    if coef < 1:
        with ipt.no_grad():
            for g in grads:
                g.mul_(coef)                # in place: p.grad keeps its storage
    return total
"""
SOLUTIONS["10.5"] = """
def answer(model, x, chunk=16):
    with ipt.no_grad():
        out = ipt.empty(x.shape[0], 10)
        for i in range(0, x.shape[0], chunk):
            h = model.fc1(x[i:i + chunk])
            h.relu_()
            h = model.fc2(h)
            h.tanh_()
            out[i:i + chunk] = model.out(h)   # only a (chunk, 256) activation alive at a time
        return out
"""

SOLUTIONS["10.6"] = """
answer = 7   # x += ... overwrites x, which LayerNorm saved on line 3; line 5 is safe
"""
SOLUTIONS["10.7"] = """
def answer(block, idx):
    x = block.wte(idx)
    q, k, v = block.heads(block.qkv(block.ln(x)))
    scores = q.matmul(k.transpose(-2, -1)) * block.scale
    scores.masked_fill_(block.future, float("-inf"))   # safe: the product saved q and k
    y = block.merge(scores.softmax(-1).matmul(v))
    x = x + block.proj(y)                              # out of place: LayerNorm's x survives
    loss = x.pow(2).mean()
    loss.backward()
    return loss
"""
SOLUTIONS["10.8"] = """
from inplace_tutorial import lab


def answer(model, prompt, new_tokens):
    ids, n = list(prompt), len(prompt) + new_tokens
    keys = values = None
    with ipt.inference_mode():
        for pos in range(n - 1):
            x = lab.embed(model, ids[pos], pos)
            q, k, v = model.heads(model.qkv(model.ln(x)))
            if keys is None:                    # once: room for every position
                keys = ipt.empty(1, k.shape[1], n, k.shape[3])
                values = ipt.empty(1, v.shape[1], n, v.shape[3])
            keys[:, :, pos:pos + 1] = k         # written in place, no new storage
            values[:, :, pos:pos + 1] = v
            if pos >= len(prompt) - 1:
                ids.append(lab.next_token(model, x, q, keys[:, :, :pos + 1],
                                          values[:, :, :pos + 1]))
    return ids
"""

# --- notebook 11: in-place inside a Transformer ---
SOLUTIONS["11.1"] = """
# b: softmax saved its result (probs); c: LayerNorm saved its input (the stream x);
# f: softmax's result again. a writes into the product's result (it saved q and k),
# d into the proj layer's output (it saved its input), e into GELU's output (GELU saved
# its input): nobody saved those.
answer = {"b", "c", "f"}
"""
SOLUTIONS["11.2"] = """
def answer(q, k, v, future):
    scores = q.matmul(k.transpose(-2, -1))        # buffer 1; the product saved q and k
    scores.mul_(q.shape[-1] ** -0.5)               # in place: no second buffer
    scores.masked_fill_(future, float("-inf"))     # in place, before softmax: safe
    return scores.softmax(-1).matmul(v)            # buffer 2: the saved probabilities
"""

# --- notebook 12: the KV cache ---
SOLUTIONS["12.1"] = """
def answer(cache, k, t):
    cache[:, :, t:t + 1] = k           # in place: slice assignment (or cache.index_copy_(2, ...))
    return cache[:, :, :t + 1]         # a view of positions 0 .. t
"""
SOLUTIONS["12.2"] = """
position = 4 * 16 * 4                  # heads * head_dim * 4 bytes (float32)
answer = sum((4 + t) * position for t in range(1, 101))   # each cat allocates the whole cache
"""

# --- notebook 13: mixed precision ---
SOLUTIONS["13.1"] = """
def answer(master, half, grads, lr):
    with ipt.no_grad():
        for m, h, g in zip(master, half, grads):
            m.add_(g, alpha=-lr)   # the update in float32: small steps are not rounded away
            h.copy_(m)             # round into the existing float16 weight, in place
"""
SOLUTIONS["13.2"] = """
import math


def answer(grads, scale):
    finite = True
    for g in grads:
        g.mul_(1 / scale)          # unscale in place
        finite = finite and math.isfinite(g.sum().item())  # one sum: inf/nan if any element is
    return finite
"""

# --- notebook 14: gradients are updated in place too ---
SOLUTIONS["14.1"] = """
def answer(w, x, y, k):
    for xb, yb in zip(x.chunk(k), y.chunk(k)):
        loss = ((xb @ w - yb) ** 2).mean()
        (loss / k).backward()     # each backward() adds into w.grad, in place
"""
SOLUTIONS["14.2"] = """
def answer(params):
    for p in params:
        if p.grad is not None:
            p.grad.zero_()        # keep the buffer: what zero_grad(set_to_none=False) does
"""
