"""out_dtype= probes (issue 11, i11): torch.mm/bmm/addmm/baddbmm bind a ScalarType after their
tensors (or out_dtype=) to their ``.dtype`` overloads, which have no CPU kernel in torch 2.13:
the dispatcher's NotImplementedError for every dtype pair (compared up to its listing of where
each backend's kernel is registered), ``.dtype_out`` with out=, the out= autograd refusal
first when out requires grad; wrong out_dtype types get the parser's list of forms; the Tensor
methods and matmul have no out_dtype at all. Each line was run on torch 2.13 first."""
from __future__ import annotations

OUT_DTYPE = [
    "t.mm(x, x.t(), out_dtype=t.float64)", "t.mm(x, x.t(), out_dtype=t.int64)",
    "t.mm(x, x.t(), out_dtype=t.float16)", "t.mm(x, x.t(), out_dtype=t.bfloat16)",
    "t.mm(x.half(), x.t().half(), out_dtype=t.float32)", "t.mm(i, i.t(), out_dtype=t.int32)",
    "t.mm(x, x.t(), t.float64)", "t.mm(x, x.t(), out_dtype=float)", "t.mm(x, x.t(), bool)",
    "t.mm(x, x, out_dtype=t.float32)", "t.mm(x, d, out_dtype=t.float32)",
    "t.mm(w, w.t(), out_dtype=t.float32)", "t.mm(input=x, mat2=x.t(), out_dtype=t.float32)",
    "t.mm(x, x.t(), out_dtype=None)", "t.mm(x, x.t(), out_dtype=3)",
    "t.mm(x, x.t(), out_dtype='a')", "t.mm(x, 3, out_dtype=t.float32)",
    "t.mm(x, x.t(), t.float32, t.float32)",
    "t.mm(x, x.t(), out_dtype=t.float32, out=m[:2, :2])",
    "t.mm(x, x.t(), out_dtype=t.float32, out=None)",
    "t.mm(x, x.t(), out_dtype=t.float32, out=3)",
    "t.mm(x, x.t(), out_dtype=t.float32, out=t.empty(2, 2, requires_grad=True))",
    "t.mm(w, w.t(), out_dtype=t.float32, out=t.empty(2, 2))",
    "t.bmm(x[None], x[None].mT, out_dtype=t.float32)", "t.bmm(img[0], img[0], t.float64)",
    "t.bmm(img[0], img[0], out_dtype=t.float32, out=t.empty(2, 4, 4))",
    "t.bmm(img[0], img[0], out_dtype=t.float32, out=t.empty(2, 4, 4, requires_grad=True))",
    "t.addmm(m, m, m, out_dtype=t.float32)", "t.addmm(m, m, m, t.float64, beta=2, alpha=3)",
    "t.addmm(m, m, m, t.float32, 2)", "t.addmm(m, m, m, out_dtype=t.float32, out=t.empty(3, 3))",
    "t.addmm(m, m, m, out_dtype=t.float32, out=t.empty(3, 3, requires_grad=True))",
    "t.addmm(m, m, m, out_dtype=None)",
    "t.baddbmm(img[0], img[0], img[0], out_dtype=t.float32)",
    "t.baddbmm(img[0], img[0], img[0], t.float16, alpha=2)",
    "t.baddbmm(img[0], img[0], img[0], out_dtype=t.float32, out=t.empty(2, 4, 4))",
    "x.mm(x.t(), out_dtype=t.float32)", "x.mm(x.t(), t.float32)",
    "m.addmm(m, m, out_dtype=t.float32)", "m.addmm_(m, m, out_dtype=t.float32)",
    "img[0].bmm(img[0], out_dtype=t.float32)",
    "img[0].baddbmm(img[0], img[0], out_dtype=t.float32)",
    "t.matmul(x, x.t(), out_dtype=t.float32)", "t.mm(x, x.t()).dtype",
    "t.addmm(m, m, m, beta=2).sum()",
]

# issue 11 leftovers of this session: clamp's out= order, var/std with no degrees of freedom,
# bincount with weights that require grad, searchsorted/bucketize out=, threshold out= and
# its Scalars' overflow check (the warnings are compared in the parity files)
LEFTOVERS = [
    "t.clamp(i, 0, 1.5, out=i)", "t.clamp(i, 0, 1.5, out=x)", "t.clamp(x, 0, 1e39, out=x)",
    "t.clamp(i.char(), 0, 300, out=v)", "t.clamp_min(i, 0.5, out=m)", "t.clamp_max(b, 1, out=b)",
    "t.clip(x, max=1e39, out=m)", "t.clamp(x, out=d)", "t.clamp(i, 0, 2, out=i[0])",
    "x.var(correction=6)", "x.std(1, correction=3)", "x.var(1, correction=5)",
    "t.var_mean(x, correction=7)", "t.std_mean(x, 0)", "v.var(correction=3.5)",
    "x[:, :0].var(1)", "s.var()", "t.var(x, 0, out=v)",
    "t.bincount(i.abs().flatten(), w.flatten())", "t.bincount(i.abs().flatten(), y.flatten())",
    "t.bincount(i.abs().flatten(), y.flatten()).sum().backward()",
    "t.bincount(i.abs().flatten(), w.flatten().half()).grad_fn.name()",
    "t.bincount(i.abs().flatten(), w.flatten(), minlength=-1)",
    "t.searchsorted(v.sort()[0], x, out=i)", "t.searchsorted(v.sort()[0], x, out=m)",
    "t.searchsorted(v.sort()[0], x, out_int32=True, out=i)", "t.searchsorted(m, x)",
    "t.searchsorted(v, x, sorter=i[0])", "t.searchsorted(v, x, sorter=v)",
    "t.searchsorted(m, 2.5)", "t.searchsorted(s, s)", "t.bucketize(x, v.sort()[0], out=i)",
    "t.bucketize(x, v.sort()[0], out=v)", "t.searchsorted(v.sort()[0], x[:, :0], out=i)",
    "t.threshold(x, 0.5, 9.0, out=m)", "t.threshold(x, 0.5, 9.0, out=x)",
    "t.threshold(x, 0.5, 9.0, out=i)", "t.threshold(i, 1.5, 9.5, out=x)",
    "t.threshold(i.char(), 300, 0, out=i.char())", "t.threshold(x, 0.5, 1e39, out=m[:2])",
    "t.threshold(w, 0.5, 9.0, out=x)", "t.threshold(x, 0.5, 9.0, out=w)",
    "t.threshold(b, 0, 1, out=x)", "t.threshold(x, 'a', 1, out=x)",
    "t.threshold(input=x, threshold=0.5, value=1.0, out=m)", "t.threshold(x.half(), 1e5, 7)",
    "t.threshold(x.half(), 1, 70000)", "t.threshold_(i.char(), 1, 300)",
    "t.threshold_(x, 0.5, 1e39)", "F.threshold(y, 1, 1e39, inplace=True)",
    "t.threshold(i, float('nan'), 3)", "t.threshold(i.byte(), -1, 3)",
    # element-wise out= forms: torch's parser refuses a bad operand before any kernel sees it
    "t.add(x, 'a', out=m)", "t.mul(x, None, out=x)", "t.add(x, [1.0, 2.0, 3.0], out=x)",
    "t.sub(x, np.ones(3), out=x)", "t.atan2(x, 'a', out=x)", "t.clamp(x, 'a', out=x)",
    "t.clamp_min(x, None, out=x)", "t.pow(x, 'a', out=x)", "t.maximum(x, [1.0], out=x)",
    # a 0-dim tensor next to a Number binds clamp's Number form (torch's parser takes it as one)
    "x.clamp(s, 2.0)", "x.clamp(0, s)", "w.clamp(s, 2.0).grad_fn._saved_min", "x.clamp_(s, 2)",
    "i.clamp(t.tensor(0), 2.5)", "i.char().clamp(t.tensor(0), 300)", "x.clip(s, 1)",
    "x.clip_(1, s)", "x.clamp(v, 2.0)", "x.clamp(w.sum(), 2.0)", "x.clamp(s, None)",
    "t.clamp(x, s, 2.0)", "x.clamp(t.tensor(True), 2.0)",
]
