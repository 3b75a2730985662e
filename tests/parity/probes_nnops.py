"""nn probes of the options beyond the defaults (issue 11, nnops): pooling's dilation,
ceil_mode, count_include_pad and divisor_override, embedding's max_norm (a write into the
weight), batch norm on empty input, conv2d's dilation and groups. Each line was run on torch
2.13 first: the expected behaviour is whatever torch does, error or value."""
from __future__ import annotations

OPTIONS = [
    # max_pool2d: dilation and ceil_mode
    "F.max_pool2d(img, 3, 1, 1, dilation=2).shape", "F.max_pool2d(img, 2, 2, 1, ceil_mode=True)",
    "F.max_pool2d(img, 3, 2, 1, 2, True, True)[1]", "F.max_pool2d(img, 2, dilation=0)",
    "F.max_pool2d(img, 3, 1, 2, dilation=2)", "F.max_pool2d(img, 2, ceil_mode=1)",
    "F.max_pool2d(img, 2, dilation=(1, 2, 3))", "F.max_pool2d(img, 2, dilation=[])",
    "F.max_pool2d(img, 2, dilation='a')", "F.max_pool2d(img[:, :, :1], 2, 1, 1, 2)",
    "nn.MaxPool2d(2, dilation=2, ceil_mode=True)(img).shape",
    "nn.MaxPool2d(3, 2, 1, 2, True, True)(img)[1]",
    "F.max_pool2d(w.reshape(1, 2, 3), 2, 1, 0, 1, True).grad_fn._saved_ceil_mode",
    "F.max_pool2d(img.long(), 3, 2, 1, dilation=2, ceil_mode=True)",
    "F.max_pool2d(-img, 3, 2, 1, dilation=2, ceil_mode=True, return_indices=True)",
    # avg_pool2d: ceil_mode, count_include_pad, divisor_override
    "F.avg_pool2d(img, 3, 2, 1, ceil_mode=True, count_include_pad=False)",
    "F.avg_pool2d(img, 3, 2, 1, ceil_mode=True)", "F.avg_pool2d(img, 2, divisor_override=0)",
    "F.avg_pool2d(img, 2, divisor_override=1.5)", "F.avg_pool2d(img, 2, divisor_override=-3)",
    "F.avg_pool2d(img, 2, ceil_mode=1)", "F.avg_pool2d(img, 2, 2, 0, 1)",
    "F.avg_pool2d(img.long(), 3, 2, 1, True, False)",
    "F.avg_pool2d(img, 2, count_include_pad=None)",
    "nn.AvgPool2d(3, 2, 1, True, False, 2)(img)", "nn.AvgPool2d(2, divisor_override=0)(img)",
    "F.avg_pool2d(w.reshape(1, 2, 3), 2, 1, 1, True, False, 5).grad_fn._saved_divisor_override",
    # embedding max_norm: rows rescaled in place, one version step
    "F.embedding(t.tensor([0, 2]), m, max_norm=2.0)",
    "F.embedding(t.tensor([1]), m, max_norm=1.0, norm_type=1)",
    "F.embedding(t.tensor([2, 2, -1]), m, max_norm=1.0, norm_type=float('inf'))",
    "nn.Embedding(3, 3, max_norm=1.0)(t.tensor([0])).shape",
    "F.embedding(t.tensor([0]), m, max_norm=None)",
    "F.embedding(t.tensor([0]), m.t(), max_norm=1.0)",
    "F.embedding(t.tensor([0]), w, max_norm=1.0)", "F.embedding(t.tensor([0]), y, max_norm=1.0)",
    "F.embedding(t.tensor([-4]), m, max_norm=1.0)", "F.embedding(t.tensor([-1]), m, max_norm=1.0)",
    "F.embedding(t.tensor([0]), m, max_norm=1.0, norm_type='a')",
    "F.embedding(t.tensor([0]), d, max_norm=1.0)",
    "F.embedding(t.tensor([0]), m, 1, 1.0)",
    # conv2d: dilation and groups
    "F.conv2d(img, img[:3, :, :3, :3], padding=2, dilation=2)",
    "F.conv2d(img, img[:, :1, :3, :3], groups=2).shape",
    "F.conv2d(img, img[:, :1, :3, :3], groups=3)", "F.conv2d(img, img[:3, :1, :3, :3], groups=2)",
    "F.conv2d(img, img[:, :1, :3, :3], groups=4)", "F.conv2d(img, img[:3, :, :3, :3], dilation=0)",
    "F.conv2d(img, img[:3, :, :3, :3], dilation=-1)",
    "F.conv2d(img, img[:3, :, :3, :3], dilation=3)",
    "F.conv2d(img, img[:, :1, :3, :3], None, 1, 1, [2], 2).grad_fn",
    "F.conv2d(img[0], img[:, :1, :2, :2], padding='same', dilation=2, groups=2).shape",
    "nn.Conv2d(2, 4, 3, dilation=2, groups=2, padding=2)(img).shape",
    "nn.Conv2d(2, 4, 3, dilation=(1, 2), groups=2)", "nn.Conv2d(2, 4, 3, groups=2).weight.shape",
    # batch norm on empty input
    "F.batch_norm(img[:0], None, None, training=True).shape", "nn.BatchNorm1d(3)(x[:0])",
    "F.batch_norm(x[:0], t.zeros(5), None)", "nn.BatchNorm1d(3)(w[:0]).grad_fn.name()",
]

# PyTorch writes part of a tensor, then raises; the core checks first and writes nothing
HALF_WRITTEN = ["F.embedding(t.tensor([0, 5]), m, max_norm=1.0)",
                "F.embedding(i.abs(), m, max_norm=3.0)"]
