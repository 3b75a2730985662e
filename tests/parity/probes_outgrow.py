"""out= probes (issues 10 and 11): every family of functions that takes ``out=`` (element-wise,
matrix products, structured kernels, joins, gathers, scans, reductions and the value/index
pairs), each given outs that are an input, part of an input, a transposed or expanded view, or
of another dtype or size. What PyTorch checks (overlaps, dtype rules, the read-write shape
rule) and in which order relative to the resize is what is compared, with out's and the
fixtures' values and versions afterwards. Each line was run on torch 2.13 first.

Only ops whose values are exact are used (the ULP-level differences of sin or softmax belong to
other probes). A line written ``"~ ..."`` leaves a grown out partly uninitialised in PyTorch
(its values are not compared, its shape, dtype and version are)."""
from __future__ import annotations

_CALLS = [
    "t.neg(x, out={})", "t.abs(x, out={})", "t.floor(x, out={})", "t.add(x, v, out={})",
    "t.mul(x, 2, out={})", "t.sub(x, v, alpha=2, out={})", "t.maximum(x, v, out={})",
    "t.eq(x, v, out={})", "t.logical_and(x, b, out={})", "t.bitwise_and(i, 3, out={})",
    "t.clamp(x, 0, 1, out={})", "t.clamp(x, v, out={})", "t.lerp(x, v, 0.5, out={})",
    "t.addcmul(x, x, v, out={})", "t.nan_to_num(x, out={})",
    "t.addmm(x, x, m, out={})", "t.addmv(v[:2], x, v, out={})", "t.addr(x, v[:2], v, out={})",
    "t.dot(v, v, out={})", "t.mv(x, v, out={})", "t.take(x, t.tensor([0, 4]), out={})",
    "t.cat([x, x], out={})", "t.hstack([x, x], out={})", "t.vstack([x, x], out={})",
    "t.stack([x, x], 1, out={})", "t.stack([x, x], 2, out={})",
    "t.gather(x, 1, t.tensor([[0], [1]]), out={})",
    "t.index_select(x, 1, t.tensor([0, 2]), out={})",
    "t.index_copy(x, 1, t.tensor([0]), x[:, 1:2], out={})",
    "t.scatter(x, 1, t.tensor([[0]]), x, out={})",
    "t.scatter_add(x, 1, t.tensor([[0]]), x, out={})",
    "t.cumsum(x, 1, out={})", "t.triu(x, out={})", "t.sum(x, 1, out={})", "t.mean(x, 0, out={})",
    "t.amax(x, 1, out={})", "t.argmax(x, 1, out={})", "t.where(b, x, -x, out={})",
    "t.max(x, out={})", "t.min(x, out={})",
]
_OUTS = ["x", "x[0]", "x[:, :1]", "x.t()", "i", "b", "d", "s", "m", "x.expand(2, 2, 3)",
         "t.zeros(3)[None].expand(2, 3)", "t.empty(0, dtype=t.int32)", "v"]
_PAIRS = ["t.sort(x, 1, out=({}, {}))", "t.topk(x, 2, out=({}, {}))", "t.max(x, 1, out=({}, {}))",
          "t.min(x, 0, out=({}, {}))"]
_PAIR_OUTS = [("x", "i"), ("x", "x"), ("i", "i"), ("x[0]", "i"), ("x", "i[0]"), ("d", "i"),
              ("x", "b"), ("x.expand(2, 2, 3)", "i"), ("x", "i.expand(2, 2, 3)"),
              ("x", "x.long()")]

# outs that PyTorch grows and leaves partly unwritten (it then refuses the call)
_UNINITIALISED = {"t.stack([x, x], 1, out=x)", "t.stack([x, x], 1, out=i)",
                  "t.stack([x, x], 1, out=b)", "t.stack([x, x], 2, out=x)",
                  "t.cat([x, x], out=x)", "t.hstack([x, x], out=x)", "t.vstack([x, x], out=x)"}
# Left out: (1) the matrix products writing into an input (the core refuses an out that
# shares memory with an input on purpose: ops/out_variants.py); (2) kernels that read an input
# while they write the out that overlaps it, whose values then depend on PyTorch's loop order
# (sum/mean/mv/index_select into a view of x); (3) calls PyTorch half-writes, where the core
# refuses before writing: mean into an int or bool out (sum_out writes, then div_ refuses),
# addmv into its own mat (self is copied into out, then the resized mat fails); (4) triu into
# an out whose rows share memory: PyTorch writes the rows on parallel threads, so which row's
# values survive is a race (seen both ways on torch 2.13 in one process).
_LEFT_OUT = {"t.addmm(x, x, m, out=m)", "t.triu(x, out=t.zeros(3)[None].expand(2, 3))",
             "t.addmv(v[:2], x, v, out=x)",
             "t.addmv(v[:2], x, v, out=x[0])",
             "t.addmv(v[:2], x, v, out=x[:, :1])", "t.addmv(v[:2], x, v, out=x.t())",
             "t.addmv(v[:2], x, v, out=x.expand(2, 2, 3))",
             *(f"t.mv(x, v, out={o})" for o in ("x", "x[0]", "x[:, :1]", "x.t()",
                                                 "x.expand(2, 2, 3)", "v")),
             "t.index_select(x, 1, t.tensor([0, 2]), out=x)",
             "t.index_select(x, 1, t.tensor([0, 2]), out=x[:, :1])",
             *(f"t.sum(x, 1, out={o})" for o in ("x[0]", "x[:, :1]", "x.t()",
                                                  "x.expand(2, 2, 3)")),
             *(f"t.mean(x, 0, out={o})" for o in ("x", "x[0]", "x[:, :1]", "x.t()", "i", "b",
                                                   "x.expand(2, 2, 3)"))}


# already probed in probes_args.py / probes_keywords.py
_ELSEWHERE = {"t.dot(v, v, out=s)", "t.cat([x, x], out=m)", "t.cat([x, x], out=i)",
              "t.cumsum(x, 1, out=x)", "t.cumsum(x, 1, out=i)"}


def _mark(code: str) -> str:
    return "~ " + code if code in _UNINITIALISED else code


OUT_CHECKS = [_mark(c.format(o)) for c in _CALLS for o in _OUTS
              if c.format(o) not in _LEFT_OUT | _ELSEWHERE]
OUT_PAIRS = [p.format(a, b) for p in _PAIRS for a, b in _PAIR_OUTS]
OUT_CHECKS += ["t.moveaxis(x, 0, 1, out=x)", "t.movedim(x, 0, destination=1, out=None)",
               "t.movedim(x, 0, [1], out=x)"]  # (no out= form: the parser lists the forms)
OUT_CHECKS += [  # the overloads the core lacked: argsort(stable=, out=), msort, nonzero
    "t.argsort(x, stable=True, out=i)", "t.argsort(x, stable=True, out=x)",
    "t.argsort(i, stable=True, out=i)", "t.argsort(x, 0, True, out=i)",
    "t.argsort(x, stable=True, dim=5, out=i)", "t.argsort(x, stable='a', out=i)",
    "t.argsort(x, stable=True, out=i[0])", "t.msort(x, out=x)", "t.msort(x, out=m)",
    "t.msort(x, out=i)", "t.msort(x, out=x[0])", "t.nonzero(x, out=i)", "t.nonzero(x, out=x)",
    "t.nonzero(i, out=i)", "t.nonzero(x, out=i[0])", "t.nonzero(x, out=t.zeros(0, dtype=t.int64)"
    ").stride()", "t.nonzero(x, out=i.expand(2, 2, 3))"]
