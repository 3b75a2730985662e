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
