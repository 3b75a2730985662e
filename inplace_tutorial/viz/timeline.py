"""Memory timelines: bytes allocated after every recorded alloc/free of an ``ipt.memory.Trace``.

Phases (forward, backward, update, zero_grad) become coloured bands (a phase that allocated
nothing gets a narrow band of its own labelled "0 B"); the peak is marked and
the largest storages alive at the peak are listed. Two traces (in-place vs out-of-place) can
share one axes or sit side by side, each with its peak annotated.
"""
from __future__ import annotations

from collections.abc import Mapping

from matplotlib.figure import Figure

from . import style as st


def _base(trace, relative: bool) -> int:
    return trace.start_allocated if relative else 0


def _runs(trace) -> list[tuple[str | None, list[int]]]:
    """(phase, event indices) for each maximal run of one phase, in order.

    A phase entered (``trace.marks``) that recorded no event is a run with no events: an
    in-place update that allocates nothing still gets its band.
    """
    marks: dict[int, list[str]] = {}
    for i, name in trace.marks:
        marks.setdefault(i, []).append(name)
    runs: list[tuple[str | None, list[int]]] = []
    for i in range(len(trace.events) + 1):
        for name in marks.get(i, []):
            if not runs or runs[-1][0] != name:
                runs.append((name, []))
        if i == len(trace.events):
            break
        p = trace.events[i].phase
        if not runs or runs[-1][0] != p:
            runs.append((p, []))
        runs[-1][1].append(i)
    return runs


def _positions(trace) -> tuple[list[float], list[tuple[str, float, float, bool]]]:
    """x of the start point and of every event; bands (phase, x0, x1, empty).

    Event i sits one unit right of the point before it; a phase without events takes one
    empty unit of its own, where the curve stays flat.
    """
    xs, bands, x = [0.0], [], 0.0
    for phase, idx in _runs(trace):
        if idx:
            first = x + 1
            for _ in idx:
                x += 1
                xs.append(x)
            if phase is not None:
                bands.append((phase, first - 0.5, x + 0.5, False))
        elif phase is not None:
            x += 1
            bands.append((phase, x - 0.5, x + 0.5, True))
    return xs, bands


def _steps(trace, scale: float, base: int) -> tuple[list[float], list[float]]:
    xs, _ = _positions(trace)
    ys = [(trace.start_allocated - base) / scale] + [(e.allocated - base) / scale
                                                      for e in trace.events]
    end = max([xs[-1]] + [b[2] - 0.5 for b in _positions(trace)[1]])
    if end > xs[-1]:  # trailing empty phases: the curve runs flat through them
        xs, ys = xs + [end], ys + [ys[-1]]
    return xs, ys


def _relabel(trace) -> dict[str, str]:
    """Process-wide labels (S37 ...) -> S0, S1 ... in order of first appearance here."""
    names: dict[str, str] = {}
    for e in trace.events:
        names.setdefault(e.label, f"S{len(names)}")
    return names


def peak_report(trace, top: int = 3) -> list[str]:
    """Lines naming the largest storages alive at the peak (per-drawing labels)."""
    if trace.peak_index < 0:
        return ["peak before the first event"]
    names = _relabel(trace)
    alive = trace.alive_at(trace.peak_index)
    lines = [f"{names[e.label]} {e.op}: {st.fmt_bytes(e.nbytes)}" for e in alive[:top]]
    if len(alive) > top:
        lines.append(f"+{len(alive) - top} more")
    return lines


def _draw(ax, trace, label: str | None, colour: str, bands: bool, top: int,
          text_slot: int, scale: float, base: int, titled: bool = False) -> None:
    """``titled``: the axes' title already names the run, so the text box does not."""
    xs, ys = _steps(trace, scale, base)
    if bands:
        for k, (phase, x0, x1, empty) in enumerate(_positions(trace)[1]):
            ax.axvspan(x0, x1, color=st.PHASE_COLOURS.get(phase, "#EEEEEE"), lw=0, zorder=0)
            # Staggered, so labels of two narrow neighbouring bands never overlap.
            ax.text((x0 + x1) / 2, 1.0 + 0.07 * (k % 2), f"{phase}: 0 B" if empty else phase,
                    transform=ax.get_xaxis_transform(),
                    ha="center", va="bottom", fontsize=st.SMALL, color=st.CELL_EDGE)
    ax.step(xs, ys, where="post", color=colour, lw=1.8, label=label, zorder=3)
    px = xs[trace.peak_index + 1]
    ax.plot([px], [(trace.peak - base) / scale], "o", color=colour, ms=6, zorder=4)
    what = "peak +" if base else "peak "
    named = f"{label}: " if label and not titled else ""
    head = f"{named}{what}{st.fmt_bytes(trace.peak - base)} at event {trace.peak_index + 1}"
    body = "\n".join(["alive at the peak:", *peak_report(trace, top)])
    # Text boxes sit in the upper-left corner, one under the other, never on the curve's
    # peak marker: the axes' y limit leaves headroom above the highest value.
    ax.text(0.01, 0.97 - 0.3 * text_slot, head + "\n" + body, transform=ax.transAxes,
            va="top", ha="left", fontsize=st.SMALL, family=st.MONO, color=colour, zorder=5,
            bbox=dict(boxstyle="round,pad=0.3", fc="white", ec=colour, alpha=0.9))


def _format_axes(ax, traces, unit: str, scale: float, relative: bool) -> None:
    ax.set_xlabel("event (each alloc or free)")
    ax.set_ylabel(f"allocated since start ({unit})" if relative else f"allocated ({unit})")
    hi = max(t.peak - _base(t, relative) for t in traces) / scale
    top = hi * (1.9 if len(traces) > 1 else 1.6) + 1 / scale
    # Headroom above the peak for the text boxes in the upper-left corner; a little room below
    # 0 so a run that allocates nothing is a visible line, not hidden by the x-axis.
    ax.set_ylim(-0.04 * top, top)
    ax.set_xlim(0, max(_steps(t, 1.0, 0)[0][-1] for t in traces) + 0.5)


def memory_timeline(traces, *, title: str | None = None, layout: str = "overlay",
                    top: int = 3, relative: bool = True) -> Figure:
    """Plot one trace, or {label: trace} for two or more runs.

    ``layout="overlay"`` draws the runs on one axes (phase bands from the first);
    ``"side"`` gives each run its own axes with its own bands, sharing the y scale; the
    figure stays under ~960 px wide, so JupyterLab shows its text at full size.
    ``relative=True`` plots bytes above what was allocated when recording started (the
    data, the model, the core's workspace), so what the recorded code did stands out.
    """
    runs = dict(traces) if isinstance(traces, Mapping) else {None: traces}
    if layout not in ("overlay", "side"):
        raise ValueError(f"layout must be 'overlay' or 'side', got {layout!r}")
    unit, scale = st.byte_unit(max(t.peak - _base(t, relative) for t in runs.values()))
    with st.style():
        if layout == "side" and len(runs) > 1:
            # At most ~9.6 in (960 px) wide: wider, JupyterLab would shrink the text below 9 px.
            fig = st.new_figure(min(4.6, 9.6 / len(runs)) * len(runs), 3.6)
            axes = fig.subplots(1, len(runs), sharey=True)
            for i, (ax, (label, trace)) in enumerate(zip(axes, runs.items(), strict=True)):
                _draw(ax, trace, label, st.colour(i), True, top, 0, scale,
                      _base(trace, relative), titled=True)
                _format_axes(ax, list(runs.values()), unit, scale, relative)
                ax.set_title(label or "", pad=22)
                if i:
                    ax.set_ylabel("")
        else:
            fig = st.new_figure(7.5, 3.8 + 0.3 * max(0, len(runs) - 1))
            ax = fig.add_subplot()
            # Runs differ in event count, so only the first run's phases can be shaded.
            for i, (label, trace) in enumerate(runs.items()):
                _draw(ax, trace, label, st.colour(i), i == 0, top, i, scale,
                      _base(trace, relative))
            _format_axes(ax, list(runs.values()), unit, scale, relative)
            if len(runs) > 1:
                ax.legend(loc="upper right", frameon=False,
                          title=f"phases shaded for: {next(iter(runs))}", title_fontsize=st.SMALL)
        if title:
            fig.suptitle(title, fontsize=10, weight="bold", x=0.01, ha="left")
        fig.tight_layout()
    return fig
