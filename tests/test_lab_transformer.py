"""lab's Transformer scenarios (notebook 10, tasks 4 and 5) fail and measure as the notebook
says; their checkers accept right answers and reject the typical wrong ones."""
from __future__ import annotations

import pytest

import inplace_tutorial as ipt
from inplace_tutorial import lab
from inplace_tutorial.exercises import CORRECT, INCORRECT, grade, tracking


@pytest.fixture(autouse=True)
def _private_progress(tmp_path, monkeypatch):
    monkeypatch.setenv(tracking.ENV, str(tmp_path / "progress.json"))


def test_broken_block_raises_and_anomaly_names_line_7():
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        lab.broken_block_step(lab.make_attention(), lab.make_tokens())
    with ipt.autograd.detect_anomaly(), pytest.raises(RuntimeError) as err:
        lab.broken_block_step(lab.make_attention(), lab.make_tokens())
    assert "broken_attention.py, line 3" in str(err.value)   # where LayerNorm saved x
    assert lab.attention_culprit_line() == 7
    assert "x += " in lab.BROKEN_ATTENTION.splitlines()[6]


def _residual_into_branch(block, idx):
    x = block.wte(idx)
    q, k, v = block.heads(block.qkv(block.ln(x)))
    scores = q.matmul(k.transpose(-2, -1)) * block.scale
    scores.masked_fill_(block.future, float("-inf"))
    h = block.proj(block.merge(scores.softmax(-1).matmul(v)))
    x = h.add_(x)                        # in place into the branch output: also fine
    loss = x.pow(2).mean()
    loss.backward()
    return loss


def _mask_after_softmax(block, idx):
    x = block.wte(idx)
    q, k, v = block.heads(block.qkv(block.ln(x)))
    probs = (q.matmul(k.transpose(-2, -1)) * block.scale).softmax(-1)
    probs = probs.masked_fill(block.future, 0.0)   # out of place, but the wrong numbers
    x = x + block.proj(block.merge(probs.matmul(v)))
    loss = x.pow(2).mean()
    loss.backward()
    return loss


def test_10_6_and_10_7():
    assert grade("10.6", 7)[0] == CORRECT
    status, feedback = grade("10.6", 5)
    assert status == INCORRECT and "safe" in feedback
    assert grade("10.7", _residual_into_branch)[0] == CORRECT
    status, feedback = grade("10.7", lab.broken_block_step)
    assert status == INCORRECT and "still fails" in feedback
    assert grade("10.7", _mask_after_softmax)[0] == INCORRECT


def _generate_index_copy(model, prompt, new_tokens):
    ids, n = list(prompt), len(prompt) + new_tokens
    keys = values = None
    with ipt.inference_mode():
        for pos in range(n - 1):
            x = lab.embed(model, ids[pos], pos)
            q, k, v = model.heads(model.qkv(model.ln(x)))
            if keys is None:
                keys = ipt.zeros(1, k.shape[1], n, k.shape[3])
                values = ipt.zeros(1, v.shape[1], n, v.shape[3])
            at = ipt.tensor([pos])
            keys.index_copy_(2, at, k)
            values.index_copy_(2, at, v)
            if pos >= len(prompt) - 1:
                ids.append(lab.next_token(model, x, q, keys[:, :, :pos + 1],
                                          values[:, :, :pos + 1]))
    return ids


def _generate_without_cache(model, prompt, new_tokens):
    """Recomputes every key and value each step: right tokens, far more bytes."""
    ids = list(prompt)
    with ipt.inference_mode():
        for _ in range(new_tokens):
            n = len(ids)
            x = model.wte(ipt.tensor([ids])) + model.wpe(ipt.arange(n))
            q, k, v = model.heads(model.qkv(model.ln(x)))
            ids.append(lab.next_token(model, x[:, -1:], q[:, :, -1:], k, v))
    return ids


def test_10_8_measures_the_factor():
    base, ids = lab.measure_allocated(lab.generate_with_cat)
    assert len(ids) == len(lab.PROMPT) + lab.NEW_TOKENS
    mine, same = lab.measure_allocated(_generate_index_copy)
    assert same == ids and base / mine >= lab.REQUIRED_FACTOR
    assert grade("10.8", _generate_index_copy)[0] == CORRECT
    status, feedback = grade("10.8", lab.generate_with_cat)
    assert status == INCORRECT and "1.0x fewer" in feedback
    assert grade("10.8", _generate_without_cache)[0] == INCORRECT
    assert grade("10.8", lambda m, p, n: list(p) + [0] * n)[0] == INCORRECT
    assert grade("10.8", "cache")[0] == INCORRECT


def test_instructor_debrief_numbers_are_measured():
    # docs/instructor.md's answer to debrief question 6 quotes these bytes: keep them current
    from pathlib import Path

    from inplace_tutorial.exercises import reference, reference_answer

    solutions = reference.load(Path(__file__).parents[1] / "instructor" / "ipt_solutions.py")
    base, _ = lab.measure_allocated(lab.generate_with_cat)
    mine, _ = lab.measure_allocated(reference_answer("10.8", solutions))
    text = (Path(__file__).parents[1] / "docs" / "instructor.md").read_text(encoding="utf-8")
    assert f"{mine:,} B in all against\n   {base:,} B, {base / mine:.1f}× fewer" in text
