"""Autograd graph pictures, drawn with matplotlib alone (no Graphviz binary).

Nodes are laid out in layers by their longest distance from the root, the way gradients
flow: the output's grad_fn on top, AccumulateGrad leaves at the bottom. Each node lists what
it saved, with the version it saved against the version now; a stale saved tensor (backward
will fail) is red, and so is every edge on the way from the root to it.
"""
from __future__ import annotations

from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch

from ..torch_inspect.saved import saved_lines as torch_saved_lines
from . import style as st

FS = 8.0
LINE_H = 0.17
PAD_X, PAD_Y = 0.12, 0.06
GAP_X, GAP_Y = 0.3, 0.28


def _leaf_name(node, names: dict[int, str]) -> str:
    leaf = getattr(node, "variable", None)
    leaf = leaf() if callable(leaf) else leaf  # a weakref in older cores, the tensor in torch
    if leaf is None:
        return "leaf (gone)"
    return f"{names.get(id(leaf), 'leaf')} {list(leaf.shape)}"


def _saved_lines(node) -> tuple[list[str], bool]:
    if not hasattr(node, "_saved"):  # a real PyTorch node (see torch_inspect.saved)
        return torch_saved_lines(node)
    lines, stale = [], False
    for field, s in getattr(node, "_saved", {}).items():
        if getattr(s, "_released", False):
            lines.append(f"{field}: freed after backward")
        elif s.is_stale:
            stale = True
            lines.append(f"{field}: saved v{s.version}, now v{s.current_version} STALE")
        else:
            lines.append(f"{field}: saved v{s.version}, now v{s.current_version}")
    return lines, stale


def _walk(root_fn) -> tuple[list, dict, list]:
    """Nodes in discovery order, depth = longest path from the root, and the edges."""
    order, edges, seen = [], [], set()
    stack = [root_fn]
    while stack:
        node = stack.pop(0)
        if id(node) in seen:
            continue
        seen.add(id(node))
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                edges.append((node, nxt))
                stack.append(nxt)
    depth = {id(root_fn): 0}
    # Longest path: relax edges until nothing changes (graphs here are small DAGs).
    changed = True
    while changed:
        changed = False
        for a, b in edges:
            d = depth.get(id(a), 0) + 1
            if depth.get(id(b), -1) < d:
                depth[id(b)] = d
                changed = True
    return order, depth, edges


def _reaches(edges, targets: set[int]) -> set[int]:
    """Ids of nodes from which a stale node can be reached (the red path)."""
    hit = set(targets)
    changed = True
    while changed:
        changed = False
        for a, b in edges:
            if id(b) in hit and id(a) not in hit:
                hit.add(id(a))
                changed = True
    return hit


def graph_diagram(root, *, names: dict | None = None, title: str | None = None,
                  root_name: str = "output") -> Figure:
    """Draw the backward graph that ends in ``root`` (a tensor).

    ``names`` maps display names to leaf tensors ({"w": w}) so AccumulateGrad boxes say
    which parameter they fill.
    """
    by_id = {id(t): n for n, t in (names or {}).items()}
    fn = root.grad_fn
    if fn is None:
        return _message_figure(f"{root_name} has no grad_fn: nothing was recorded for backward",
                               title)
    order, depth, edges = _walk(fn)
    boxes = {}
    stale_ids = set()
    for node in order:
        if hasattr(node, "variable"):  # AccumulateGrad: the sink that fills leaf.grad
            lines, kind = ["AccumulateGrad", _leaf_name(node, by_id)], "leaf"
        else:
            saved, stale = _saved_lines(node)
            lines, kind = [node.name(), *saved], "stale" if stale else "node"
            if stale:
                stale_ids.add(id(node))
        w = st.text_width(max(map(len, lines)), FS) + 2 * PAD_X
        h = len(lines) * LINE_H + 2 * PAD_Y
        boxes[id(node)] = {"lines": lines, "kind": kind, "w": w, "h": h}
    red = _reaches(edges, stale_ids) if stale_ids else set()

    top_line = [f"{root_name} {list(root.shape)}  grad_fn={fn.name()}"]
    layers: list[list] = [[] for _ in range(max(depth.values()) + 1)]
    for node in order:
        layers[depth[id(node)]].append(node)
    _order_by_parents(layers, edges)

    widths = [sum(boxes[id(n)]["w"] for n in layer) + GAP_X * (len(layer) - 1)
              for layer in layers]
    fig_w = max(max(widths), st.text_width(len(top_line[0]), FS) + 0.5,
                st.text_width(len(title or ""), 10) + 0.4,
                st.text_width(max(map(len, _LEGEND)), st.SMALL) + 0.3) + 0.5
    y = (0.45 if title else 0.15) + 0.5  # below the title and the root tensor box
    for layer, lw in zip(layers, widths, strict=True):
        x = (fig_w - lw) / 2
        for n in layer:
            b = boxes[id(n)]
            b["x"], b["y"] = x, y
            x += b["w"] + GAP_X
        y += max(boxes[id(n)]["h"] for n in layer) + GAP_Y
    legend = bool(stale_ids)
    fig_h = y - GAP_Y + (0.6 if legend else 0.15)

    with st.style():
        fig = st.new_figure(fig_w, fig_h)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, fig_w)
        ax.set_ylim(fig_h, 0)
        ax.axis("off")
        if title:
            ax.text(0.15, 0.22, title, fontsize=10, weight="bold", va="center")
        root_y = (0.45 if title else 0.15) + 0.12
        ax.text(fig_w / 2, root_y, top_line[0], ha="center", va="center", fontsize=FS,
                family=st.MONO, bbox=dict(boxstyle="round,pad=0.3", fc="#EAECEE",
                                          ec=st.BAD if red else st.CELL_EDGE))
        first = boxes[id(fn)]
        _arrow(ax, (fig_w / 2, root_y + 0.15), (first["x"] + first["w"] / 2, first["y"]),
               bool(red))
        for a, b in edges:
            ba, bb = boxes[id(a)], boxes[id(b)]
            on_path = id(a) in red and id(b) in red
            _arrow(ax, (ba["x"] + ba["w"] / 2, ba["y"] + ba["h"]),
                   (bb["x"] + bb["w"] / 2, bb["y"]), on_path)
        for node in order:
            _draw_box(ax, boxes[id(node)], id(node) in red)
        if legend:
            ax.text(0.15, fig_h - 0.3, "\n".join(_LEGEND), fontsize=st.SMALL, color=st.BAD,
                    va="center", linespacing=1.4)
    return fig


def _order_by_parents(layers: list[list], edges) -> None:
    """One barycentre sweep: put each node under the mean position of its parents."""
    pos = {id(n): i for i, n in enumerate(layers[0])}
    for layer in layers[1:]:
        def key(n, layer=layer):
            ps = [pos[id(a)] for a, b in edges if b is n and id(a) in pos]
            return sum(ps) / len(ps) if ps else 0.0
        layer.sort(key=key)
        pos.update({id(n): i for i, n in enumerate(layer)})


_LEGEND = ("red box: a saved tensor was modified in place after it was saved (STALE),",
           "so backward will raise; red arrows lead from the output to that node")
_FILL = {"node": "#EBF5FB", "leaf": "#E9F7EF", "stale": "#FDEDEC"}


def _draw_box(ax, b: dict, on_path: bool) -> None:
    edge = st.BAD if on_path or b["kind"] == "stale" else st.CELL_EDGE
    ax.add_patch(FancyBboxPatch((b["x"], b["y"]), b["w"], b["h"],
                                boxstyle="round,pad=0,rounding_size=0.06", fc=_FILL[b["kind"]],
                                ec=edge, lw=2.0 if b["kind"] == "stale" else 1.0))
    for i, line in enumerate(b["lines"]):
        colour = st.BAD if "STALE" in line else ("black" if i == 0 else st.CELL_EDGE)
        ax.text(b["x"] + PAD_X, b["y"] + PAD_Y + (i + 0.5) * LINE_H, line, va="center",
                fontsize=FS, family=st.MONO, color=colour, weight="bold" if i == 0 else "normal")


def _arrow(ax, start, end, on_path: bool) -> None:
    ax.annotate("", xy=end, xytext=start,
                arrowprops=dict(arrowstyle="-|>", color=st.BAD if on_path else st.MUTED,
                                lw=2.0 if on_path else 1.0, shrinkA=0, shrinkB=1,
                                mutation_scale=10))


def _message_figure(text: str, title: str | None) -> Figure:
    with st.style():
        fig = st.new_figure(max(3.0, st.text_width(len(text), FS) + 0.5), 0.9 if title else 0.5)
        ax = fig.add_axes((0, 0, 1, 1))
        ax.axis("off")
        if title:
            ax.text(0.03, 0.75, title, fontsize=10, weight="bold", va="center",
                    transform=ax.transAxes)
        ax.text(0.03, 0.3 if title else 0.5, text, fontsize=FS, family=st.MONO,
                va="center", color=st.MUTED, transform=ax.transAxes)
    return fig
