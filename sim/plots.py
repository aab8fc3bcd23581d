"""One shared figure style and the few chart types the report uses.

Every chart is drawn on a Matplotlib ``Axes`` the caller owns, so the report can lay several
panels out in one figure. The conventions, one place for all of them:

* **Palette**: Okabe-Ito (colour-blind safe), in :data:`PALETTE`; sequential maps use
  ``viridis`` (perceptually uniform, readable in grey scale).
* **Monte Carlo vs exact**: a Monte Carlo estimate is a bar or a solid line with its 95%
  confidence interval (error bar or shaded band); the exact value of the same metric, where the
  model has one, is a black diamond beside the bar or a dashed black line over the curve.
* **Footnote**: every figure carries the sample size and seed (:func:`footnote`).
* **Files**: :func:`save` writes one compressed PNG at 150 dpi per figure, atomically.

Matplotlib is imported on first use, not on import (so the report's section registry and
``sim.experiment.load`` stay light), and the Agg backend is selected then: nothing here needs a
display.
"""

from __future__ import annotations

import functools
import os
import tempfile
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

if TYPE_CHECKING:
    from types import ModuleType

    from matplotlib.axes import Axes
    from matplotlib.axis import Axis
    from matplotlib.figure import Figure

#: Okabe & Ito (2008) colour-blind-safe palette, black first dropped (black marks exact values).
PALETTE: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#999999",  # grey
)
#: colour of exact-value markers and lines
EXACT_COLOR = "#000000"
#: sequential colour map for heatmaps
SEQUENTIAL_CMAP = "viridis"
#: PNG resolution
DPI = 150
#: footnote font size (points)
FOOTNOTE_PT = 8
#: white margin kept around a figure's drawn content (inches)
PAD_INCHES = 0.12

STYLE: dict[str, Any] = {
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica", "sans-serif"],
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    # titles at a fixed height above the frame (no ticks on top): Matplotlib's automatic
    # title placement measures the whole axes at every draw, ~20 ms a panel
    "axes.titley": 1.0,
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 8.5,
    "legend.title_fontsize": 9,
    "legend.frameon": False,
    "figure.titlesize": 13,
    "figure.titleweight": "bold",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "#d9d9d9",
    "grid.linewidth": 0.6,
    "savefig.dpi": DPI,
    "svg.fonttype": "none",  # keep text as text: smaller, selectable SVG
    "svg.hashsalt": "btsim",  # deterministic ids in SVG output
}
# plus "axes.prop_cycle" = PALETTE, added by style() (a cycler needs Matplotlib)


@functools.cache
def pyplot() -> ModuleType:
    """``matplotlib.pyplot``, imported on first use with the Agg backend (no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


@contextmanager
def style() -> Iterator[None]:
    """Context manager applying :data:`STYLE` (and nothing global after it exits)."""
    import matplotlib
    from cycler import cycler

    pyplot()
    rc: Any = {**STYLE, "axes.prop_cycle": cycler(color=list(PALETTE))}
    with matplotlib.rc_context(rc):
        yield


def color(i: int) -> str:
    """The i-th palette colour (cycling)."""
    return PALETTE[i % len(PALETTE)]


def colormap(name: str = SEQUENTIAL_CMAP) -> Any:
    """A Matplotlib colour map by name (call it with a number in [0, 1] for a colour)."""
    import matplotlib

    return matplotlib.colormaps[name]


def integer_ticks(axis: Axis) -> None:
    """Put ticks on whole numbers only on ``axis`` (e.g. ``ax.xaxis`` for turns)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def new_figure(nrows: int = 1, ncols: int = 1, *, width: float = 9.0, height: float = 4.5,
               sharex: bool = False, sharey: bool = False) -> tuple[Figure, np.ndarray]:
    """A figure with a grid of axes (always returned as a 2-D array), laid out once by
    :func:`fixed_layout` when it is saved (margins computed from the style's known label
    sizes: no layout engine measuring every artist at each draw).

    Call inside :func:`style` so the rc settings apply to the new artists.
    """
    fig, axes = pyplot().subplots(nrows, ncols, figsize=(width, height), squeeze=False,
                                  sharex=sharex, sharey=sharey)
    return fig, axes


def footnote(fig: Figure, text: str) -> None:
    """Small grey note under the figure (sample size, seed, rule set).

    The figure grows by the note's height and :func:`fixed_layout` keeps the panels above
    it, so the note lies inside the figure and :func:`png_bytes` draws the figure once. Long
    lines are wrapped to the figure's width (about 15 characters per inch at 8 pt), so a
    long note never widens the saved image beyond its panels.
    """
    width = max(60, int(fig.get_figwidth() * 15))
    lines = [textwrap.fill(line, width=width, break_on_hyphens=False) if line else line
             for line in text.split("\n")]
    note = "\n".join(lines)
    n = note.count("\n") + 1
    pad = 0.06  # inches above and below the note
    note_h = n * FOOTNOTE_PT * 1.25 / 72 + 2 * pad
    w, h = fig.get_size_inches()
    fig.set_size_inches(w, h + note_h)
    _tag(fig, "_btsim_foot_in", getattr(fig, "_btsim_foot_in", 0.0) + note_h)
    fig.text(0.01, (note_h - pad) / (h + note_h), note, ha="left", va="top",
             fontsize=FOOTNOTE_PT, color="#555555", wrap=False, transform=fig.transFigure)


def _tag(artist: Any, name: str, value: Any) -> None:
    """Mark ``artist`` for :func:`fixed_layout` (a footnote's height, an outside legend, a
    heat map's colour bar axes)."""
    setattr(artist, name, value)


#: white space kept between a label and the next panel or the figure edge (inches)
GAP_INCHES = 0.08
#: a colour bar's distance from its heat map and its width (inches)
CBAR_PAD_INCHES, CBAR_WIDTH_INCHES = 0.12, 0.16
#: tick labels measured per axis: the longest few (by characters) bound the widest
N_MEASURED_LABELS = 5


def _extent(fig: Figure, renderer: Any, proto: Any, strings: Sequence[str]) -> tuple[float,
                                                                                      float]:
    """Largest width and height (inches) of ``strings`` drawn like the text ``proto`` (font,
    rotation, line spacing): the few longest strings are measured (font metrics are cached
    by Matplotlib), so an axis of many labels costs a handful of measurements."""
    from matplotlib.text import Text

    if not strings:
        return 0.0, 0.0
    pick = sorted(set(strings), key=lambda t: max(len(x) for x in t.split("\n")) if t else 0,
                  reverse=True)[:N_MEASURED_LABELS]
    most_lines = max(strings, key=lambda t: t.count("\n"))
    if most_lines not in pick:
        pick.append(most_lines)
    w = h = 0.0
    for t in pick:
        if not t:
            continue
        tx = Text(0, 0, t, fontproperties=proto.get_fontproperties(),
                  rotation=proto.get_rotation(), linespacing=proto.get_linespacing())
        tx.set_figure(fig)
        bb = tx.get_window_extent(renderer)
        w, h = max(w, bb.width), max(h, bb.height)
    return w / fig.dpi, h / fig.dpi


def _tick_needs(fig: Figure, renderer: Any, axis: Any,
                length: float) -> tuple[float, float, float, float]:
    """Inches the ticks and tick labels of ``axis`` reach beyond the axes on its first side
    (left or bottom) and its second (right or top), then how far the end labels overhang
    the axes along the axis at its low and high ends (``length``: the axes' provisional
    length along the axis, inches; a label is centred on its tick unless aligned)."""
    tick = axis.get_major_ticks(1)[0]  # created now, reused by the draw
    v0, v1 = axis.get_view_interval()
    lo, hi = min(v0, v1), max(v0, v1)
    locs = [v for v in axis.get_majorticklocs() if lo - 1e-9 * abs(hi - lo) <= v
            <= hi + 1e-9 * abs(hi - lo)]
    labels = [str(t) for t in axis.major.formatter.format_ticks(locs)] if locs else []
    out = [0.0, 0.0, 0.0, 0.0]
    vertical = axis.axis_name == "y"
    if locs:  # positions along the axis, 0 at the low (left or bottom) end, 1 at the high
        tr = axis.get_transform().transform
        t0, t1 = (float(v) for v in tr(np.array([v0, v1], float)))
        frac = (tr(np.asarray(locs, float)) - t0) / (t1 - t0) if t1 != t0 else np.zeros(1)
    for side, (mark, label) in enumerate(((tick.tick1line, tick.label1),
                                          (tick.tick2line, tick.label2))):
        reach = (tick.get_tick_padding() / 72) if mark.get_visible() else 0.0
        if label.get_visible() and labels:
            w, h = _extent(fig, renderer, label, labels)
            reach += tick.get_pad() / 72 + (w if vertical else h)
            along = h if vertical else w
            align = "center" if vertical else label.get_horizontalalignment()
            below, above = {"right": (along, 0.0), "left": (0.0, along)}.get(
                align, (along / 2, along / 2))
            out[2] = max(out[2], float(np.max(below - frac * length)))
            out[3] = max(out[3], float(np.max(above - (1 - frac) * length)))
        out[side] = reach
    return out[0], out[1], out[2], out[3]


def _label_need(fig: Figure, renderer: Any, axis: Any) -> float:
    """Inches the axis label adds beyond the tick labels (its pad included)."""
    lab = axis.label
    if not lab.get_visible() or not lab.get_text():
        return 0.0
    bb = lab.get_window_extent(renderer)
    return (bb.width if axis.axis_name == "y" else bb.height) / fig.dpi + axis.labelpad / 72


def _axes_needs(fig: Figure, renderer: Any, ax: Axes,
                size: tuple[float, float]) -> list[float]:
    """Margins (inches: left, right, bottom, top) an axes of about ``size`` (inches) needs
    around its frame for its ticks, tick labels (the end ones overhanging), axis labels,
    title, an outside legend (:func:`grouped_bars`,
    :func:`stacked_bars`) and a colour bar (:func:`heatmap`)."""
    left, right, y_lo, y_hi = _tick_needs(fig, renderer, ax.yaxis, size[1])
    bottom, top, x_lo, x_hi = _tick_needs(fig, renderer, ax.xaxis, size[0])
    left, right = max(left, x_lo), max(right, x_hi)
    bottom, top = max(bottom, y_lo), max(top, y_hi)
    if ax.yaxis.get_label_position() == "left":
        left += _label_need(fig, renderer, ax.yaxis)
    else:
        right += _label_need(fig, renderer, ax.yaxis)
    if ax.xaxis.get_label_position() == "bottom":
        bottom += _label_need(fig, renderer, ax.xaxis)
    else:
        top += _label_need(fig, renderer, ax.xaxis)
    a: Any = ax  # the left and right titles and the title offset have no public getter
    for title in (a.title, a._left_title, a._right_title):
        if title.get_visible() and title.get_text():
            pad = float(a.titleOffsetTrans.get_matrix()[1, 2]) / fig.dpi
            top = max(top, pad + title.get_window_extent(renderer).height / fig.dpi)
    leg = ax.get_legend()
    if leg is not None and getattr(leg, "_btsim_outside_right", False):
        right += 0.12 + leg.get_window_extent(renderer).width / fig.dpi
    cax = getattr(ax, "_btsim_cbar", None)
    if cax is not None:
        c_left, c_right, _, _ = _tick_needs(fig, renderer, cax.yaxis, size[1])
        c_right += _label_need(fig, renderer, cax.yaxis)
        right = max(right, CBAR_PAD_INCHES + max(c_left - CBAR_PAD_INCHES, 0)
                    + CBAR_WIDTH_INCHES + c_right)
    return [left, right, bottom, top]


#: most intervals between the major ticks of a numeric axis (Matplotlib's default: up to 9)
MAX_TICK_BINS = 6


def _fewer_ticks(ax: Axes, size: tuple[float, float]) -> None:
    """Replace Matplotlib's automatic tick locator (up to 10 ticks, each a tick mark, grid
    line and label to create and draw) by one with at most :data:`MAX_TICK_BINS` intervals,
    as many as fit along an axis of ``size`` (inches: width, height) by Matplotlib's own rule
    (a y label every two font heights, an x label every three). Axes that chose their ticks
    (fixed, integer, log) keep them."""
    from matplotlib.ticker import AutoLocator, MaxNLocator

    for axis, length, per in ((ax.xaxis, size[0], 3.0), (ax.yaxis, size[1], 2.0)):
        if type(axis.get_major_locator()) is not AutoLocator:
            continue
        font = float(axis.get_major_ticks(1)[0].label1.get_fontsize())
        bins = int(np.clip(np.floor(length * 72 / (font * per)), 1, MAX_TICK_BINS))
        axis.set_major_locator(MaxNLocator(nbins=bins, steps=[1, 2, 2.5, 5, 10]))


def fixed_layout(fig: Figure, renderer: Any) -> None:
    """Place the panels of a :func:`new_figure` grid once, before its one draw: each
    column's left and right margins and each row's top and bottom are the largest any of
    its axes needs (:func:`_axes_needs`, text measured with the style's fonts), the gaps
    between panels the largest neighbouring needs plus :data:`GAP_INCHES`, with room for
    the suptitle, a figure legend (on the right) and the footnote. Outer margins may be
    generous: :func:`png_bytes` crops the blank border."""
    grid: list[Any] = [ax for ax in fig.axes
                       if ax.get_subplotspec() is not None and ax.get_visible()]
    if not grid:
        return
    gs = grid[0].get_subplotspec().get_gridspec()
    nr, nc = gs.get_geometry()
    W, H = (float(v) for v in fig.get_size_inches())
    col_l, col_r = [0.0] * nc, [0.0] * nc
    row_b, row_t = [0.0] * nr, [0.0] * nr
    guess = (0.8 * W / nc, 0.8 * H / nr)  # an axes' size, for the end labels' overhang
    for ax in fig.axes:
        _fewer_ticks(ax, guess)
    for ax in grid:
        spec = ax.get_subplotspec()
        left, right, bottom, top = _axes_needs(fig, renderer, ax, guess)
        c0, c1 = spec.colspan.start, spec.colspan.stop - 1
        r0, r1 = spec.rowspan.start, spec.rowspan.stop - 1
        col_l[c0], col_r[c1] = max(col_l[c0], left), max(col_r[c1], right)
        row_t[r0], row_b[r1] = max(row_t[r0], top), max(row_b[r1], bottom)
    g, e = GAP_INCHES, PAD_INCHES  # e: the white border png_bytes keeps at the edges
    L = col_l[0] + e
    R = col_r[-1] + e
    for leg in fig.legends:
        R += leg.get_window_extent(renderer).width / fig.dpi + 2 * g
    T = row_t[0] + e
    sup = getattr(fig, "_suptitle", None)
    if sup is not None and sup.get_visible() and sup.get_text():
        T += sup.get_window_extent(renderer).height / fig.dpi + g
    B = row_b[-1] + g + float(getattr(fig, "_btsim_foot_in", 0.0))
    gap_w = max([col_r[c] + col_l[c + 1] for c in range(nc - 1)], default=0.0) + 2 * g
    gap_h = max([row_b[r] + row_t[r + 1] for r in range(nr - 1)], default=0.0) + 2 * g
    axw = max((W - L - R - (nc - 1) * gap_w) / nc, 0.3)
    axh = max((H - T - B - (nr - 1) * gap_h) / nr, 0.3)
    fig.subplots_adjust(left=L / W, right=min(1.0, (L + nc * axw + (nc - 1) * gap_w) / W),
                        bottom=B / H, top=min(1.0, (B + nr * axh + (nr - 1) * gap_h) / H),
                        wspace=gap_w / axw, hspace=gap_h / axh)
    if sup is not None:  # its top a gap below the figure's top, above the panels' titles
        sup.set_y(1 - e / H)
        sup.set_va("top")
    for ax in grid:
        cax = getattr(ax, "_btsim_cbar", None)
        if cax is not None:
            p = ax.get_position()
            cax.set_position((p.x1 + CBAR_PAD_INCHES / W, p.y0 + 0.05 * p.height,
                              CBAR_WIDTH_INCHES / W, 0.9 * p.height))


def _err(values: np.ndarray, lo: np.ndarray | None, hi: np.ndarray | None) -> np.ndarray | None:
    if lo is None or hi is None:
        return None
    low = np.clip(values - np.asarray(lo, float), 0, None)
    high = np.clip(np.asarray(hi, float) - values, 0, None)
    low = np.nan_to_num(low)
    high = np.nan_to_num(high)
    return np.vstack([low, high])


def grouped_bars(ax: Axes, categories: Sequence[str], series: Mapping[str, Mapping[str, Any]],
                 *, ylabel: str = "", title: str = "", legend_title: str | None = None,
                 exact_label: str = "exact value", value_fmt: str | None = None,
                 legend: bool = True, mark_missing: str | None = None) -> None:
    """Grouped bars with 95% CI error bars and exact-value markers.

    ``series`` maps a legend label to a dict with ``values`` (one per category, NaN for a
    missing bar), optional ``lo``/``hi`` (CI bounds), optional ``exact`` (exact values; drawn
    as black diamonds on the bar's centre) and optional ``color``. ``value_fmt`` (e.g.
    ``"{:.1f}"``) prints each value above its bar, clear of the error bar and marker; leave
    None when bars are dense. ``mark_missing`` (e.g. ``"n/a"``) is written at the foot of a
    missing bar, so "impossible" never reads as zero. ``legend=True`` puts the legend outside
    the axes on the right; for multi-panel figures pass False and call :func:`figure_legend`.
    """
    n_cat = len(categories)
    n_ser = max(1, len(series))
    width = 0.8 / n_ser
    x = np.arange(n_cat, dtype=float)
    for i, (label, s) in enumerate(series.items()):
        vals = np.asarray(s["values"], dtype=float)
        pos = x - 0.4 + width * (i + 0.5)
        err = _err(vals, s.get("lo"), s.get("hi"))
        ax.bar(pos, np.nan_to_num(vals), width=width * 0.92, color=s.get("color", color(i)),
               label=label, yerr=err, capsize=2 if n_ser * n_cat < 60 else 0,
               error_kw={"elinewidth": 0.9, "ecolor": "#333333"})
        top = np.nan_to_num(vals)
        if s.get("hi") is not None:
            top = np.fmax(top, np.nan_to_num(np.asarray(s["hi"], dtype=float)))
        ex = s.get("exact")
        if ex is not None:
            ex = np.asarray(ex, dtype=float)
            ok = np.isfinite(ex)
            if ok.any():
                ax.plot(pos[ok], ex[ok], linestyle="none", marker="D", markersize=3.2,
                        color=EXACT_COLOR, zorder=5, label="_exact")
                top = np.fmax(top, np.nan_to_num(ex))
        if value_fmt:
            for p, v, t in zip(pos, vals, top, strict=True):
                if np.isfinite(v):
                    ax.annotate(value_fmt.format(v), (p, t), xytext=(0, 4),
                                textcoords="offset points", ha="center", va="bottom",
                                fontsize=8)
        if mark_missing:
            for p, v in zip(pos, vals, strict=True):
                if not np.isfinite(v):
                    ax.annotate(mark_missing, (p, 0), xytext=(0, 2), textcoords="offset points",
                                ha="center", va="bottom", fontsize=6.5, color="#777777",
                                rotation=90)
    ax.set_xticks(x)
    ax.set_xticklabels(categories)
    ax.grid(axis="x", visible=False)
    if value_fmt:
        ax.margins(y=0.12)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if legend:
        handles, labels = legend_entries(ax, exact_label)
        leg = ax.legend(handles, labels, title=legend_title, loc="center left",
                        bbox_to_anchor=(1.01, 0.5))
        _tag(leg, "_btsim_outside_right", True)  # fixed_layout makes room for it


def legend_entries(ax: Axes, exact_label: str = "exact value") -> tuple[list[Any], list[str]]:
    """The axes' legend handles, plus one entry for exact markers/lines if any are drawn."""
    from matplotlib.lines import Line2D

    handles, labels = ax.get_legend_handles_labels()
    keep = [(h, lab) for h, lab in zip(handles, labels, strict=True)
            if not lab.startswith("_")]
    hs, ls = [h for h, _ in keep], [lab for _, lab in keep]
    markers = any(ln.get_label() == "_exact" for ln in ax.get_lines())
    dashed = any(ln.get_label() == "_exact_line" for ln in ax.get_lines())
    if markers:
        hs.append(Line2D([], [], linestyle="none", marker="D", markersize=4, color=EXACT_COLOR))
        ls.append(exact_label)
    if dashed:
        hs.append(Line2D([], [], color=EXACT_COLOR, linestyle=(0, (3, 2)), linewidth=0.9))
        ls.append(exact_label)
    return hs, ls


def figure_legend(fig: Figure, ax: Axes, title: str | None = None,
                  exact_label: str = "exact value") -> None:
    """One legend for a multi-panel figure, outside on the right, built from ``ax``."""
    handles, labels = legend_entries(ax, exact_label)
    fig.legend(handles, labels, title=title, loc="outside right center")  # fixed_layout: room


def heatmap(ax: Axes, values: np.ndarray, row_labels: Sequence[Any], col_labels: Sequence[Any],
            *, text: np.ndarray | None = None, fmt: str = "{:.1f}", cmap: str = SEQUENTIAL_CMAP,
            vmin: float | None = None, vmax: float | None = None, cbar_label: str = "",
            xlabel: str = "", ylabel: str = "", title: str = "", fontsize: float = 8.0,
            colorbar: bool = True, log: bool = False) -> None:
    """A matrix as coloured cells with a value printed in each cell.

    ``text`` (same shape, strings) replaces the printed values, e.g. ``"kick\\n8.3"``.
    Text colour switches between black and white by cell luminance, so it stays readable.
    NaN cells are left blank (grey). ``log=True`` uses a logarithmic colour scale (for ratios
    spanning orders of magnitude; needs positive values).
    """
    import matplotlib
    import matplotlib.colors

    vals = np.asarray(values, dtype=float)
    masked = np.ma.masked_invalid(vals)
    cm = matplotlib.colormaps[cmap].with_extremes(bad="#eeeeee")
    finite = vals[np.isfinite(vals)]
    if log and finite.size and finite.min() > 0 and finite.max() > finite.min():
        norm = matplotlib.colors.LogNorm(vmin=vmin or finite.min(), vmax=vmax or finite.max())
        im = ax.imshow(masked, cmap=cm, norm=norm, aspect="auto", interpolation="nearest")
    else:
        im = ax.imshow(masked, cmap=cm, vmin=vmin, vmax=vmax, aspect="auto",
                       interpolation="nearest")
    ax.set_xticks(np.arange(len(col_labels)))
    ax.set_xticklabels([str(c) for c in col_labels])
    ax.set_yticks(np.arange(len(row_labels)))
    ax.set_yticklabels([str(r) for r in row_labels])
    ax.grid(False)
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    cnorm = im.norm
    for (r, c), v in np.ndenumerate(vals):
        label = str(text[r, c]) if text is not None else (fmt.format(v) if np.isfinite(v)
                                                          else "")
        if not label:
            continue
        if np.isfinite(v):
            rgba = cm(cnorm(v))
            lum = 0.2126 * rgba[0] + 0.7152 * rgba[1] + 0.0722 * rgba[2]
            tc = "black" if lum > 0.45 else "white"
        else:
            tc = "black"
        ax.text(c, r, label, ha="center", va="center", fontsize=fontsize, color=tc)
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if colorbar:
        # its own axes, placed beside the heat map by fixed_layout
        fig: Any = ax.get_figure()
        cax = fig.add_axes((0.0, 0.0, 0.01, 0.01))
        _tag(ax, "_btsim_cbar", cax)
        cb = fig.colorbar(im, cax=cax)
        if cbar_label:
            cb.set_label(cbar_label)
        cb.outline.set_visible(False)


def curve(ax: Axes, x: ArrayLike, y: ArrayLike, *, lo: ArrayLike | None = None,
          hi: ArrayLike | None = None, exact: ArrayLike | None = None,
          label: str | None = None, color_: str | None = None, marker: str = "o",
          step: bool = False) -> None:
    """One Monte Carlo curve with a shaded 95% CI band, and its exact twin as a dashed line.

    ``step=True`` draws a post-step (a value that holds over a whole turn).
    """
    xs = np.asarray(x, dtype=float)
    ys = np.asarray(y, dtype=float)
    c = color_ or PALETTE[0]
    ds = "steps-post" if step else "default"
    ax.plot(xs, ys, color=c, label=label, marker=marker, markersize=3, linewidth=1.6,
            drawstyle=ds)
    if lo is not None and hi is not None:
        ax.fill_between(xs, np.asarray(lo, float), np.asarray(hi, float), color=c, alpha=0.22,
                        linewidth=0, step="post" if step else None)
    if exact is not None:
        ex = np.asarray(exact, dtype=float)
        if np.isfinite(ex).any():
            ax.plot(xs, ex, color=EXACT_COLOR, linestyle=(0, (3, 2)), linewidth=0.9,
                    drawstyle=ds, zorder=4, label="_exact_line")


def stacked_bars(ax: Axes, categories: Sequence[str], components: Mapping[str, ArrayLike],
                 *, ylabel: str = "", title: str = "", legend_title: str | None = None,
                 colors: Sequence[str] | None = None, horizontal: bool = False,
                 totals_fmt: str | None = None, legend: bool = True) -> None:
    """Stacked bars: each category's total split into components (e.g. hit locations).

    ``totals_fmt`` prints each bar's total at its end.
    """
    n = len(categories)
    base = np.zeros(n)
    pos = np.arange(n)
    for i, (label, vals) in enumerate(components.items()):
        v = np.nan_to_num(np.asarray(vals, dtype=float))
        c = colors[i] if colors is not None else color(i)
        if horizontal:
            ax.barh(pos, v, left=base, color=c, label=label, height=0.75, edgecolor="white",
                    linewidth=0.4)
        else:
            ax.bar(pos, v, bottom=base, color=c, label=label, width=0.75, edgecolor="white",
                   linewidth=0.4)
        base = base + v
    if totals_fmt:
        for p, t in zip(pos, base, strict=True):
            if horizontal:
                ax.annotate(totals_fmt.format(t), (t, p), xytext=(3, 0),
                            textcoords="offset points", va="center", fontsize=7.5)
            else:
                ax.annotate(totals_fmt.format(t), (p, t), xytext=(0, 2),
                            textcoords="offset points", ha="center", va="bottom", fontsize=7.5)
    if horizontal:
        ax.set_yticks(pos)
        ax.set_yticklabels(categories)
        ax.invert_yaxis()
        ax.grid(axis="y", visible=False)
        if ylabel:
            ax.set_xlabel(ylabel)
    else:
        ax.set_xticks(pos)
        ax.set_xticklabels(categories)
        ax.grid(axis="x", visible=False)
        if ylabel:
            ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if legend:
        leg = ax.legend(title=legend_title, loc="center left", bbox_to_anchor=(1.0, 0.5))
        _tag(leg, "_btsim_outside_right", True)  # fixed_layout makes room for it


def publish_mode(path: str | os.PathLike[str]) -> None:
    """Give a file made by ``tempfile.mkstemp`` (mode 0600) the usual mode (0666 minus umask)."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(path, 0o666 & ~mask)


def png_bytes(fig: Figure) -> bytes:
    """``fig`` as a compressed PNG at :data:`DPI`, drawn once: the Agg canvas renders the
    figure (:func:`fixed_layout` has placed every panel, legend and the footnote), the
    blank border is cropped from the pixels to :data:`PAD_INCHES` (what a tight bounding
    box gives, without a second layout-and-draw pass), then the pixels are quantized to an
    adaptive 256-colour palette and the file optimized (a third of the RGBA file's size;
    the figures' flat colours and anti-aliased edges fit in 256 colours)."""
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    fig.set_dpi(DPI)
    canvas = FigureCanvasAgg(fig)
    fixed_layout(fig, canvas.get_renderer())
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    # ink: any pixel that is not the white background, one 32-bit compare a pixel on the
    # RGBA words (alpha forced opaque): a tenth of the cost of testing three channels
    words = rgba.view(np.uint32)[:, :, 0]
    ink = (words | np.uint32(0xFF000000)) != np.uint32(0xFFFFFFFF)
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    pad = int(round(PAD_INCHES * DPI))
    height, width = rgba.shape[:2]
    box = (0, 0, width, height)
    if rows.size:
        box = (max(int(cols[0]) - pad, 0), max(int(rows[0]) - pad, 0),
               min(int(cols[-1]) + 1 + pad, width), min(int(rows[-1]) + 1 + pad, height))
    # crop and drop alpha in Pillow (C), without a NumPy copy of the pixels
    rgb = Image.frombuffer("RGBA", (width, height), rgba, "raw", "RGBA", 0, 1).crop(
        box).convert("RGB")
    pal = rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, format="PNG", compress_level=6, dpi=(DPI, DPI))
    return out.getvalue()


def save(fig: Figure, stem: Path) -> Path:
    """Save ``fig`` as ``stem.png`` (:func:`png_bytes`: 150 dpi, compressed) atomically and
    close it; returns the path. Each figure is drawn once, in one format: the report embeds
    this file and the Markdown links it."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    png = stem.with_suffix(".png")
    try:
        data = png_bytes(fig)
    finally:
        pyplot().close(fig)
    fd, tmp = tempfile.mkstemp(prefix=f".{png.stem}.", suffix=".png", dir=png.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        publish_mode(tmp)
        os.replace(tmp, png)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return png
