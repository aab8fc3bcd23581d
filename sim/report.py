"""The balance report: figures, derived tables, generated findings, HTML and Markdown.

``build_report(results_dir)`` reads every ``results/<experiment>/`` folder written by
``btsim run`` (``summary.parquet`` + ``metadata.json``), never reruns anything, and writes:

* for each experiment, its figures as PNG (150 dpi) and SVG beside its data;
* ``results/report.html``: one self-contained page (CSS inline, figures embedded as base64
  PNG) that opens offline;
* ``results/report.md``: the same text, with the figures linked by relative path.

Every file is written atomically (temporary file, then rename).

Which number a table shows
--------------------------
For each metric the report shows the **exact** value where the model computed one (column
``<m>_exact``) and the Monte Carlo mean otherwise (:func:`value`). Figures show both: the Monte
Carlo mean with its 95% interval, and the exact value as a black marker or dashed line.

Findings
--------
The lead is generated from the numbers. A section builder returns :class:`Finding` objects,
each naming the table cell it quotes (table key, row, column) and the value; its text embeds
that cell's formatted value verbatim, so ``tests/report`` can check that every number in the
lead equals its table.

Self-risk (physical attacks)
----------------------------
``self_risk = expected_self_damage + expected_fall_damage_attacker``: the damage points an
attacker expects to inflict on itself per attack declared, averaging over hits, misses and
falls (charge and DFA self-damage on a hit; fall damage after a failed piloting roll or a
missed DFA). Both terms are unconditional expectations, so the fall probability is already
inside the second one. Two ways to weigh damage against it:

* *net damage* ``expected_damage - self_risk`` (points; robust, in the units of the damage);
* *damage per self-risk* ``expected_damage / max(self_risk, RISK_FLOOR)`` with
  ``RISK_FLOOR = 0.5`` points. Without the floor the ratio is driven by tiny denominators (a
  kick by a good pilot falls once in hundreds of attacks) and is unbounded for attacks with no
  risk at all (punch, club, hatchet, a kick that cannot miss). With it every attack is ranked;
  cells whose best attack carries no risk say "no risk".
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim import plots
from sim.errors import UserError
from sim.results import atomic_write_text

# -------------------------------------------------------------------------------------------
# data types


@dataclass
class Result:
    """One saved experiment result: its folder, summary frame and metadata."""

    name: str
    folder: Path
    frame: pd.DataFrame
    meta: dict[str, Any]

    @property
    def title(self) -> str:
        return str(self.meta.get("title") or self.name.replace("_", " ").capitalize())

    @property
    def question(self) -> str:
        return str(self.meta.get("question") or "")

    @property
    def description(self) -> str:
        """The experiment's set-up text (one paragraph), from its TOML ``description``."""
        exp = self.meta.get("experiment") or {}
        text = exp.get("description") if isinstance(exp, dict) else ""
        return " ".join(str(text or "").split())

    @property
    def model(self) -> str:
        return str(self.meta.get("model") or "")

    @property
    def kinds(self) -> dict[str, str]:
        return dict(self.meta.get("metric_kinds") or {})


@dataclass
class Table:
    """A compact derived table.

    ``values`` holds numbers (NaN where there is none); ``labels`` optional text shown before
    each number (e.g. the attack name). ``fmt`` turns a number into its display string: the
    same function formats the findings that quote it.
    """

    key: str
    title: str
    values: pd.DataFrame
    fmt: Callable[[float], str]
    labels: pd.DataFrame | None = None
    note: str = ""
    index_name: str = ""

    def cell(self, row: Any, col: Any) -> str:
        """The display string of one cell."""
        v = self.values.loc[row, col]
        num = self.fmt(v) if _finite(v) else "–"
        if self.labels is not None:
            lab = self.labels.loc[row, col]
            if isinstance(lab, str) and lab:
                return f"{lab} {num}" if _finite(v) else lab
        return num

    def format(self, col: Any, v: float) -> str:
        """The display string of number ``v`` in column ``col`` (findings quote it)."""
        return self.fmt(v)

    def display(self) -> pd.DataFrame:
        """All cells as strings."""
        out = pd.DataFrame(index=self.values.index, columns=self.values.columns, dtype=object)
        for r in self.values.index:
            for c in self.values.columns:
                out.loc[r, c] = self.cell(r, c)
        out.index.name = self.index_name or self.values.index.name
        return out


@dataclass
class Finding:
    """One generated key finding, quoting table cells.

    ``quotes`` lists ``(table_key, row, column, value, display)``: each ``display`` string
    appears verbatim in ``text`` and in that table cell.
    """

    experiment: str
    text: str
    quotes: list[tuple[str, Any, Any, float, str]] = field(default_factory=list)
    lead: bool = True


@dataclass
class FigureFile:
    """A saved figure (PNG + SVG) with its caption."""

    key: str
    title: str
    caption: str
    png: Path
    svg: Path


@dataclass
class Section:
    """Everything the report shows for one experiment."""

    result: Result
    figures: list[FigureFile] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def table(self, key: str) -> Table:
        for t in self.tables:
            if t.key == key:
                return t
        raise KeyError(key)


@dataclass
class Report:
    """What :func:`build_report` wrote."""

    html: Path
    markdown: Path
    figures: list[Path]
    sections: list[Section]
    findings: list[Finding]

    @property
    def paths(self) -> list[Path]:
        return [self.html, self.markdown, *self.figures]


# -------------------------------------------------------------------------------------------
# small helpers


def _finite(v: Any) -> bool:
    try:
        return v is not None and math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


def fmt_pct(v: float) -> str:
    """A probability as a percentage: 1 decimal, more for small non-zero values."""
    if not _finite(v):
        return "–"
    p = 100.0 * float(v)
    if p == 0 or p == 100:
        return f"{p:.0f}%"
    if abs(p) < 0.1:
        return f"{p:.3f}%"
    if abs(p) < 1 or 99 < p < 100:
        return f"{p:.2f}%" if p < 99.99 else f"{p:.3f}%"
    return f"{p:.1f}%"


def fmt_num(v: float) -> str:
    """A mean value (damage points, turns): 2 decimals."""
    return "–" if not _finite(v) else f"{float(v):.2f}"


def value(frame: pd.DataFrame, metric: str) -> pd.Series:
    """The number the report shows for ``metric``: exact where available, else the MC mean."""
    if metric not in frame.columns and metric + "_exact" not in frame.columns:
        return pd.Series(np.nan, index=frame.index, dtype=float)
    mc = pd.to_numeric(frame[metric], errors="coerce") if metric in frame.columns else None
    if metric + "_exact" in frame.columns:
        ex = pd.to_numeric(frame[metric + "_exact"], errors="coerce")
        return ex.where(ex.notna(), mc) if mc is not None else ex
    assert mc is not None
    return mc.astype(float)


def mc_ci(frame: pd.DataFrame, metric: str) -> tuple[np.ndarray, np.ndarray | None,
                                                     np.ndarray | None]:
    """Monte Carlo mean and 95% interval (None when the run was exact-only)."""
    if metric not in frame.columns:
        return value(frame, metric).to_numpy(float), None, None
    mean = pd.to_numeric(frame[metric], errors="coerce").to_numpy(float)
    lo = hi = None
    if metric + "_ci_low" in frame.columns:
        lo = pd.to_numeric(frame[metric + "_ci_low"], errors="coerce").to_numpy(float)
        hi = pd.to_numeric(frame[metric + "_ci_high"], errors="coerce").to_numpy(float)
    return mean, lo, hi


def exact_of(frame: pd.DataFrame, metric: str) -> np.ndarray | None:
    col = metric + "_exact"
    if col not in frame.columns:
        return None
    return pd.to_numeric(frame[col], errors="coerce").to_numpy(float)


def _is_mc(result: Result) -> bool:
    return bool(result.meta.get("trials")) and not result.meta.get("exact_only")


#: what the marks of each kind of chart mean, for footnotes
LEGEND_NOTES = {
    "bars": "Bars: Monte Carlo mean with 95% CI; black ◆: exact value.",
    "curves": "Solid lines: Monte Carlo mean, shaded band: 95% CI; dashed black: exact value.",
    "cells": "Cells and bars show the exact value where the model has one, else the Monte "
             "Carlo mean.",
}


def footnote_text(result: Result, extra: str = "", kind: str = "bars") -> str:
    """Sample size, seed, rule set and what the marks mean, for a figure footnote."""
    m = result.meta
    if _is_mc(result):
        head = f"Monte Carlo: {int(m['trials']):,} trials per scenario, seed {m.get('seed')}."
        marks = LEGEND_NOTES.get(kind, "")
    else:
        head = "Exact values (no Monte Carlo sampling)."
        marks = ""
    lines = [" ".join(x for x in (head, marks) if x)]
    if extra:
        lines.append(extra)
    lines.append(f"Rules: {rules_text(result)}.  btsim {m.get('btsim_version', '?')}, "
                 f"experiment '{result.name}'.")
    return "\n".join(lines)


def rules_text(result: Result) -> str:
    """The rule set(s) of a result, e.g. ``default``, from metadata or the frame."""
    rs = result.meta.get("rule_sets") or {}
    names = rs.get("rules") if isinstance(rs, dict) else None
    if not names and "rules" in result.frame.columns:
        names = sorted({str(v) for v in result.frame["rules"].dropna()})
    if not names:
        return "model defaults"
    return ", ".join(str(n) for n in names)


def rule_options_text(result: Result) -> str:
    """Rule options recorded with a result (JSON dicts), as readable text."""
    rs = result.meta.get("rule_sets") or {}
    opts = rs.get("rule_options") if isinstance(rs, dict) else None
    if not opts and "rule_options" in result.frame.columns:
        opts = sorted({str(v) for v in result.frame["rule_options"].dropna()})
    if not opts and "rule_overrides" in result.frame.columns:
        over = sorted({str(v) for v in result.frame["rule_overrides"].dropna() if str(v)})
        return "; ".join(over) if over else "preset defaults (no overrides)"
    if not opts:
        return ""
    out = []
    for o in opts:
        if isinstance(o, str):
            try:
                o = json.loads(o)
            except ValueError:
                out.append(o)
                continue
        if isinstance(o, dict):
            out.append(", ".join(f"{k}={v}" for k, v in o.items()))
        else:
            out.append(str(o))
    return "; ".join(out)


def _col(frame: pd.DataFrame, name: str, default: Any = None) -> pd.Series:
    if name in frame.columns:
        return frame[name]
    return pd.Series([default] * len(frame), index=frame.index)


def _possible(frame: pd.DataFrame) -> pd.Series:
    """True where the scenario is a legal attack (the ``impossible`` fact is empty)."""
    imp = _col(frame, "impossible")
    return imp.isna() | (imp.astype(str).isin(["", "None", "nan", "False"]))


# -------------------------------------------------------------------------------------------
# physical attacks: labels and self-risk

ATTACK_ORDER = ("punch", "punch ×2", "kick", "club", "hatchet", "push", "charge", "DFA")


def attack_label(row: pd.Series) -> str:
    """A short readable name of one attack scenario: ``punch``, ``punch ×2``, ``charge 5 hex``."""
    a = str(row.get("attack", ""))
    if a == "punch":
        return "punch ×2" if str(row.get("arm", "")) == "both" else "punch"
    if a == "charge":
        h = row.get("hexes")
        return f"charge ({int(h)} hexes)" if _finite(h) else "charge"
    if a == "dfa":
        return "DFA"
    return a


def tick_label(label: str) -> str:
    """An attack label for a crowded axis: ``charge (5 hexes)`` -> ``charge\\n(5 hexes)``."""
    return label.replace(" (", "\n(")


def cell_label(label: str) -> str:
    """An attack label for a heatmap cell: ``charge (5 hexes)`` -> ``charge 5 hex``."""
    return re.sub(r" \((\d+) hexes\)", r" \1 hex", label)


def _attack_sort_key(label: str) -> tuple[int, int]:
    base = label.split(" ")[0] if not label.startswith("punch") else label
    base = "DFA" if label == "DFA" else base
    try:
        i = ATTACK_ORDER.index(base)
    except ValueError:
        i = len(ATTACK_ORDER)
    m = re.search(r"(\d+)", label)
    return i, int(m.group(1)) if m else 0


def ordered_attacks(labels: Iterable[str]) -> list[str]:
    return sorted(set(labels), key=_attack_sort_key)


def self_risk(frame: pd.DataFrame) -> pd.Series:
    """Expected damage points the attacker takes from its own attack (see module docstring)."""
    sd = value(frame, "expected_self_damage").fillna(0.0)
    fd = value(frame, "expected_fall_damage_attacker").fillna(0.0)
    return sd + fd


#: the smallest self-risk (damage points) a damage-per-risk ratio divides by
RISK_FLOOR = 0.5
#: appended to an attack label in a cell where that attack carries no self-risk
NO_RISK = " (no risk)"
NET_DEFINITION = ("Net damage = expected damage dealt − self-risk (expected self-damage + "
                  "expected fall damage of the attacker), in damage points per attack "
                  "declared.")
RATIO_DEFINITION = (f"Damage per self-risk = expected damage / max(self-risk, {RISK_FLOOR:g}): "
                    f"self-risk is floored at {RISK_FLOOR:g} points, so attacks that carry "
                    f"little or no risk are compared as if they risked {RISK_FLOOR:g} points "
                    "instead of dividing by (nearly) zero.")


def risk_ratio(damage: Any, risk: Any) -> Any:
    """Expected damage per point of self-risk, self-risk floored at :data:`RISK_FLOOR`.

    A raw ``damage / risk`` ratio is driven by tiny denominators (a kick by a good pilot falls
    once in hundreds of attacks) and is unbounded for riskless attacks; the floor keeps every
    attack in the ranking on one finite scale.
    """
    return damage / np.maximum(risk, RISK_FLOOR)


def _risk_label(label: Any) -> str:
    """``"kick (no risk)"`` -> ``"kick (no self-risk)"`` for running text."""
    s = str(label)
    return s.replace(NO_RISK, "") + " (no self-risk)" if s.endswith(NO_RISK) else s


def grid_text(values: Sequence[Any], what: str, unit: str = "") -> str:
    """``[20, 25, ..., 100]`` -> ``"attacker tonnage 20 to 100 t in steps of 5 t"``."""
    vals = sorted({float(v) for v in values if _finite(v)})
    u = f" {unit}" if unit else ""
    if not vals:
        return what
    if len(vals) == 1:
        return f"{what} {vals[0]:g}{u}"
    steps = {round(b - a, 9) for a, b in zip(vals, vals[1:], strict=False)}
    if len(steps) == 1:
        return f"{what} {vals[0]:g} to {vals[-1]:g}{u} in steps of {steps.pop():g}{u}"
    return f"{what} " + ", ".join(f"{v:g}" for v in vals) + u


def _with_labels(frame: pd.DataFrame) -> pd.DataFrame:
    f = frame.copy()
    f["attack_label"] = f.apply(attack_label, axis=1)
    return f


def _pick(values: Sequence[Any], want: Sequence[Any]) -> list[Any]:
    """The wanted values that are present, else an even spread of what is there."""
    vals = sorted(set(values))
    got = [v for v in want if v in vals]
    if got:
        return got
    if len(vals) <= len(want):
        return vals
    idx = np.linspace(0, len(vals) - 1, len(want)).round().astype(int)
    return [vals[i] for i in sorted(set(idx))]


def _middle(values: Iterable[Any], prefer: Any) -> Any:
    vals = sorted(set(values))
    if prefer in vals:
        return prefer
    return vals[len(vals) // 2]


# -------------------------------------------------------------------------------------------
# section builders (one per experiment name), plus generic fallbacks per model

Builder = Callable[[Result], Section]
BUILDERS: dict[str, Builder] = {}
#: section order in the report (other experiments follow, by name)
ORDER = ("physical_damage", "head_risk", "real_units_melee", "overheat_curves",
         "ammo_protection")


def builder(name: str) -> Callable[[Builder], Builder]:
    def deco(fn: Builder) -> Builder:
        BUILDERS[name] = fn
        return fn

    return deco


def _save(section: Section, fig: Any, key: str, title: str, caption: str) -> None:
    png, svg = plots.save(fig, section.result.folder / key)
    section.figures.append(FigureFile(key, title, caption, png, svg))


def _bar_series(sub: pd.DataFrame, cat_col: str, cats: Sequence[str], metric: str,
                scale: float = 1.0) -> dict[str, Any]:
    s = sub.set_index(cat_col)
    s = s[~s.index.duplicated()]
    mean, lo, hi = mc_ci(s, metric)
    ex = exact_of(s, metric)
    idx = {c: i for i, c in enumerate(s.index)}

    def take(a: np.ndarray | None) -> np.ndarray | None:
        if a is None:
            return None
        return np.array([a[idx[c]] * scale if c in idx else np.nan for c in cats])

    return {"values": take(mean), "lo": take(lo), "hi": take(hi), "exact": take(ex)}


@builder("physical_damage")
def _physical_damage(res: Result) -> Section:
    sec = Section(res)
    f = _with_labels(res.frame)
    f = f[_possible(f)].copy()
    if f.empty:
        sec.notes.append("Every scenario of this experiment was impossible; nothing to plot.")
        return sec
    f["ev"] = value(f, "expected_damage")
    f["risk"] = self_risk(f)
    f["net"] = f["ev"] - f["risk"]
    f["ratio"] = risk_ratio(f["ev"], f["risk"])
    attacks = ordered_attacks(f["attack_label"])
    tons_all = sorted(f["tons"].unique())
    pil_all = sorted(f["piloting"].unique())
    moves = sorted(_col(f, "target_hexes", 0).fillna(0).unique())
    still, moved = moves[0], moves[-1]
    pil = _middle(pil_all, 4)
    tons_pick = _pick(tons_all, [20, 40, 60, 80, 100])
    tons_text = grid_text(tons_all, "attacker tonnage", "t")
    tt = sorted(_col(f, "target_tons", 50).dropna().unique())
    target_txt = f"Target: {', '.join(f'{int(x)} t' for x in tt)}, front arc, clear terrain."
    foot = footnote_text(res, f"Attacker piloting {pil}. {target_txt}")
    foot_cells = footnote_text(res, target_txt, kind="cells")

    def move_name(h: Any) -> str:
        return "target stood still" if int(h) == 0 else f"target moved {int(h)} hexes"

    # Figure 1: expected damage per attack, grouped by tonnage, for each target movement.
    with plots.style():
        fig, axes = plots.new_figure(len(moves), 1, width=10, height=3.6 * len(moves),
                                     sharey=True)
        for i, h in enumerate(moves):
            ax = axes[i, 0]
            series = {}
            for j, t in enumerate(tons_pick):
                sub = f[(f["tons"] == t) & (f["piloting"] == pil)
                        & (_col(f, "target_hexes", 0) == h)]
                s = _bar_series(sub, "attack_label", attacks, "expected_damage")
                s["color"] = plots.color(j)
                series[f"{t} t"] = s
            plots.grouped_bars(ax, [tick_label(a) for a in attacks], series,
                               ylabel="expected damage (points)",
                               title=move_name(h).capitalize(), legend=False)
        plots.figure_legend(fig, axes[0, 0], "attacker")
        fig.suptitle("Expected damage per attack declared, by attacker tonnage")
        plots.footnote(fig, foot)
        _save(sec, fig, "fig_damage_by_attack", "Expected damage per attack",
              f"Expected damage (points per attack declared, misses count as 0) of every "
              f"physical attack at piloting {pil}, by attacker tonnage; top: target stood "
              f"still, bottom: target moved {int(moved)} hexes.")

    # Figure 2: self-risk beside the reward.
    sub_still = f[_col(f, "target_hexes", 0) == still]
    with plots.style():
        fig, axes = plots.new_figure(2, 1, width=10, height=7.2)
        series_fall, series_risk = {}, {}
        for j, t in enumerate(tons_pick):
            sub = sub_still[(sub_still["tons"] == t) & (sub_still["piloting"] == pil)]
            s = _bar_series(sub, "attack_label", attacks, "p_attacker_falls", scale=100.0)
            s["color"] = plots.color(j)
            series_fall[f"{t} t"] = s
            sr = sub.set_index("attack_label")["risk"]
            sr = sr[~sr.index.duplicated()]
            series_risk[f"{t} t"] = {"values": np.array([sr.get(a, np.nan) for a in attacks]),
                                     "color": plots.color(j)}
        ticks = [tick_label(a) for a in attacks]
        plots.grouped_bars(axes[0, 0], ticks, series_fall, ylabel="attacker falls (%)",
                           title="Chance the attacker falls", legend=False)
        plots.grouped_bars(axes[1, 0], ticks, series_risk,
                           ylabel="self-risk (damage points)",
                           title="Self-risk: expected self-damage + expected fall damage"
                           + (" (exact values)" if exact_of(f, "expected_self_damage")
                              is not None else ""),
                           legend=False)
        plots.figure_legend(fig, axes[0, 0], "attacker")
        fig.suptitle(f"The price of each attack ({move_name(still)})")
        plots.footnote(fig, foot + "\nSelf-risk = expected self-damage (charge, DFA) + "
                       "expected fall damage, per attack declared.")
        _save(sec, fig, "fig_self_risk", "Self-risk of each attack",
              "Chance the attacker falls and its self-risk (expected damage points it "
              "inflicts on itself per attack declared: charge/DFA self-damage plus fall "
              "damage) by attack and tonnage.")

    # Tables and Figures 3-4: best attack per tonnage x piloting.
    def best_table(h: Any, crit: str) -> tuple[pd.DataFrame, pd.DataFrame]:
        vals = pd.DataFrame(index=[f"{t} t" for t in tons_all],
                            columns=[f"piloting {p}" for p in pil_all], dtype=float)
        labs = pd.DataFrame(index=vals.index, columns=vals.columns, dtype=object)
        sub = f[_col(f, "target_hexes", 0) == h]
        for (t, p), g in sub.groupby(["tons", "piloting"]):
            g = g.sort_values([crit, "ev"], ascending=False)
            r = g.iloc[0]
            vals.loc[f"{t} t", f"piloting {p}"] = float(r[crit])
            lab = str(r["attack_label"])
            labs.loc[f"{t} t", f"piloting {p}"] = lab + (NO_RISK if r["risk"] <= 0 else "")
        return vals, labs

    for h in moves:
        v, lab = best_table(h, "ev")
        lab = lab.map(lambda s: s.replace(NO_RISK, "") if isinstance(s, str) else s)
        sec.tables.append(Table(f"best_damage_{int(h)}",
                                f"Best attack by expected damage ({move_name(h)})", v, fmt_num,
                                lab, note="Cell: attack with the highest expected damage "
                                "(points per attack declared).", index_name="attacker"))
    v, lab = best_table(still, "net")
    sec.tables.append(Table("best_net", f"Best attack by net damage: expected damage − "
                            f"self-risk ({move_name(still)})", v, fmt_num, lab,
                            note=NET_DEFINITION + " 'no risk': the attack cannot hurt or fell "
                            "the attacker in that cell.", index_name="attacker"))
    v, lab = best_table(still, "ratio")
    sec.tables.append(Table("best_ratio", f"Best attack by damage per point of self-risk, "
                            f"self-risk floored at {RISK_FLOOR:g} points ({move_name(still)})",
                            v, fmt_num, lab, note=RATIO_DEFINITION + " 'no risk': the attack "
                            "carries no self-risk in that cell (its ratio is its expected "
                            f"damage / {RISK_FLOOR:g}).", index_name="attacker"))
    # compact reward/risk table at piloting pil, target still
    rr = sub_still[sub_still["piloting"] == pil]
    for key, colname, ttl in (
            ("damage_by_attack", "ev", f"Expected damage by attack and tonnage (piloting {pil}, "
             f"{move_name(still)})"),
            ("risk_by_attack", "risk", f"Self-risk by attack and tonnage (piloting {pil}, "
             f"{move_name(still)}; damage points)")):
        tv = pd.DataFrame(index=attacks, columns=[f"{t} t" for t in tons_pick], dtype=float)
        for a in attacks:
            for t in tons_pick:
                g = rr[(rr["attack_label"] == a) & (rr["tons"] == t)]
                if len(g):
                    tv.loc[a, f"{t} t"] = float(g[colname].iloc[0])
        sec.tables.append(Table(key, ttl, tv, fmt_num, index_name="attack"))

    def heat_fig(key: str, panels: Sequence[tuple[str, str, str]], title: str, fig_title: str,
                 caption: str, extra_foot: str = "") -> None:
        with plots.style():
            fig, axes = plots.new_figure(1, len(panels), width=5.4 * len(panels),
                                         height=0.42 * len(tons_all) + 2.4)
            for k, (tkey, ttl, cb) in enumerate(panels):
                t = sec.table(tkey)
                text = np.array([[(f"{cell_label(t.labels.loc[r, c])}\n"
                                   f"{t.fmt(t.values.loc[r, c])}"
                                   if _finite(t.values.loc[r, c]) else "")
                                  for c in t.values.columns] for r in t.values.index],
                                dtype=object)
                plots.heatmap(axes[0, k], t.values.to_numpy(float), list(t.values.index),
                              [c.replace("piloting ", "") for c in t.values.columns],
                              text=text, cbar_label=cb, xlabel="attacker piloting skill",
                              ylabel="attacker tonnage" if k == 0 else "", title=ttl,
                              fontsize=6.5)
            fig.suptitle(fig_title)
            plots.footnote(fig, foot_cells + ("\n" + extra_foot if extra_foot else ""))
            _save(sec, fig, key, title, caption)

    heat_fig("fig_best_attack",
             [(f"best_damage_{int(h)}", move_name(h).capitalize(), "expected damage (points)")
              for h in moves],
             "Best attack per tonnage and piloting", "Most damaging physical attack per "
             "tonnage and piloting skill",
             f"The attack with the highest expected damage in each cell (colour = that "
             f"damage), against a target that stood still and one that moved {int(moved)} "
             f"hexes; {tons_text}.")
    heat_fig("fig_best_risk",
             [("best_net", "By net damage (damage − self-risk)", "net damage (points)"),
              ("best_ratio", f"By damage per self-risk (floor {RISK_FLOOR:g})",
               "damage / max(self-risk, floor)")],
             "Best attack for its risk", f"Best physical attack for its risk "
             f"({move_name(still)})",
             f"The best attack in each cell when self-risk counts. Left: by net damage = "
             f"expected damage − self-risk (points). Right: by expected damage per point of "
             f"self-risk, with self-risk floored at {RISK_FLOOR:g} points so that attacks "
             f"which almost never hurt the attacker (e.g. a kick by a good pilot) do not get "
             f"huge ratios from tiny denominators; 'no risk' marks an attack that carries "
             f"none. {tons_text[0].upper() + tons_text[1:]}.",
             extra_foot=NET_DEFINITION + " " + RATIO_DEFINITION)
    sec.notes.append(f"Grid: {tons_text}; piloting {', '.join(str(p) for p in pil_all)}. "
                     + NET_DEFINITION + " " + RATIO_DEFINITION)

    # Findings
    t0 = sec.table(f"best_damage_{int(still)}")
    vals = t0.values
    r, c = np.unravel_index(np.nanargmax(vals.to_numpy(float)), vals.shape)
    row, col = vals.index[r], vals.columns[c]
    d = t0.fmt(vals.loc[row, col])
    sec.findings.append(Finding(
        res.name, f"The most damaging physical attack is a {t0.labels.loc[row, col]} by a "
        f"{row} attacker with {col}: {d} points expected per attack against a target that "
        f"stood still.", [(t0.key, row, col, float(vals.loc[row, col]), d)]))
    light = vals.index[0]
    pc = f"piloting {pil}"
    if pc in vals.columns and _finite(vals.loc[light, pc]):
        d = t0.fmt(vals.loc[light, pc])
        sec.findings.append(Finding(
            res.name, f"For the lightest attacker ({light}, {pc}) the best attack is a "
            f"{t0.labels.loc[light, pc]} at {d} expected points.",
            [(t0.key, light, pc, float(vals.loc[light, pc]), d)], lead=False))
    tn, tb = sec.table("best_net"), sec.table("best_ratio")
    heavy = tn.values.index[-1]
    if pc in tn.values.columns and _finite(tn.values.loc[heavy, pc]) \
            and _finite(tb.values.loc[heavy, pc]):
        dn, dr = tn.fmt(tn.values.loc[heavy, pc]), tb.fmt(tb.values.loc[heavy, pc])
        dd = t0.fmt(t0.values.loc[heavy, pc])
        a_d = str(t0.labels.loc[heavy, pc])
        a_n, a_r = str(tn.labels.loc[heavy, pc]), str(tb.labels.loc[heavy, pc])
        net_txt = (f"net of its self-risk the {a_d} stays best ({dn} points)"
                   if a_n.replace(NO_RISK, "") == a_d else
                   f"net of its self-risk a {_risk_label(a_n)} is better ({dn} points)")
        rat_txt = (f"per point of self-risk (risk floored at half a point) it is best too "
                   f"({dr})" if a_r.replace(NO_RISK, "") == a_d else
                   f"per point of self-risk (risk floored at half a point) a "
                   f"{_risk_label(a_r)} gives the most ({dr})")
        sec.findings.append(Finding(
            res.name, f"Weighing damage against self-risk, for a {heavy} attacker with {pc}: "
            f"a {a_d} deals the most ({dd} points); {net_txt}; {rat_txt}.",
            [(t0.key, heavy, pc, float(t0.values.loc[heavy, pc]), dd),
             (tn.key, heavy, pc, float(tn.values.loc[heavy, pc]), dn),
             (tb.key, heavy, pc, float(tb.values.loc[heavy, pc]), dr)]))
    counts = tb.labels.stack().map(lambda s: str(s).replace(NO_RISK, "")).value_counts()
    if len(counts):
        top = counts.index[0]
        sec.findings.append(Finding(
            res.name, f"By damage per point of self-risk the {top} is the best attack in "
            f"{int(counts.iloc[0])} of {int(counts.sum())} tonnage × piloting cells "
            f"(target stood still).", [], lead=False))
    return sec


LOCATION_GROUPS: dict[str, tuple[str, ...]] = {
    "head": ("HD",),
    "centre torso": ("CT",),
    "side torsos": ("LT", "RT"),
    "arms": ("LA", "RA"),
    "legs": ("LL", "RL"),
    "rear torsos": ("CTR", "LTR", "RTR"),
}
LOCATION_COLORS = ("#D55E00", "#0072B2", "#56B4E9", "#009E73", "#E69F00", "#CC79A7")


@builder("head_risk")
def _head_risk(res: Result) -> Section:
    sec = Section(res)
    f = _with_labels(res.frame)
    f["possible"] = _possible(f)
    attacks = ordered_attacks(f["attack_label"])
    tons_all = sorted(f["tons"].unique())
    foot = footnote_text(res, kind="cells")
    # tables: P(head hit), P(head destroyed) per attack x tonnage
    tabs = {}
    for metric, key, ttl in (("p_head_hit", "head_hit", "Chance one attack hits the head"),
                             ("p_head_destroyed", "head_destroyed",
                              "Chance one attack destroys a fresh head (9 armor + 3 structure)")):
        v = pd.DataFrame(index=attacks, columns=[f"{t} t" for t in tons_all], dtype=float)
        for (a, t), g in f[f["possible"]].groupby(["attack_label", "tons"]):
            v.loc[a, f"{t} t"] = float(value(g, metric).iloc[0])
        tabs[key] = Table(key, ttl, v, fmt_pct, index_name="attack")
    # summary table per attack
    summ = pd.DataFrame(index=attacks, columns=["max head hit", "max head kill",
                                                "lightest head-killer"], dtype=float)
    labs = pd.DataFrame(index=attacks, columns=summ.columns, dtype=object)
    hh, hd = tabs["head_hit"].values, tabs["head_destroyed"].values
    for a in attacks:
        summ.loc[a, "max head hit"] = hh.loc[a].max()
        summ.loc[a, "max head kill"] = hd.loc[a].max()
        kill = [int(c.split()[0]) for c in hd.columns if _finite(hd.loc[a, c]) and hd.loc[a, c] > 0]
        labs.loc[a, "lightest head-killer"] = f"{min(kill)} t" if kill else "never"
    summ["lightest head-killer"] = np.nan

    def fmt_summary(v: float) -> str:
        return fmt_pct(v)

    summary = Table("head_summary", "Head risk per attack over all tonnages", summ,
                    fmt_summary, labs, index_name="attack",
                    note="'never': no tonnage in this experiment can destroy a fresh head "
                    "with that attack (exact probability 0).")
    sec.tables += [summary, tabs["head_hit"], tabs["head_destroyed"]]

    with plots.style():
        fig, axes = plots.new_figure(2, 1, width=min(3.0 + 0.75 * len(tons_all), 15),
                                     height=1.0 + 0.42 * len(attacks) * 2 + 1.5)
        for k, key in enumerate(("head_hit", "head_destroyed")):
            t = tabs[key]
            vals = t.values.to_numpy(float) * 100
            text = np.array([[fmt_pct(x / 100).replace("%", "") if np.isfinite(x) else "n/a"
                              for x in row] for row in vals], dtype=object)
            plots.heatmap(axes[k, 0], vals, list(t.values.index),
                          [c.replace(" t", "") for c in t.values.columns], text=text,
                          cbar_label="probability (%)", xlabel="attacker tonnage (t)",
                          title=t.title, fontsize=7, vmin=0)
        fig.suptitle("Head hits and one-attack head kills")
        plots.footnote(fig, foot + "\nCells in %; 'n/a': attack impossible.")
        _save(sec, fig, "fig_head_risk", "Head hit and head kill chance",
              "Chance that one attack strikes the head (top) and destroys a fresh head "
              f"outright (bottom), per attack and attacker tonnage "
              f"({grid_text(tons_all, 'attacker tonnage', 't')}).")

    # stacked location bars: where the expected damage lands, at a middle tonnage
    loc_cols = [c for c in ("HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL", "CTR", "LTR", "RTR")
                if f"expected_damage_{c}" in f.columns or f"expected_damage_{c}_exact" in f.columns]
    if loc_cols:
        t_mid = _middle(tons_all, 60)
        sub = f[(f["tons"] == t_mid) & f["possible"]].drop_duplicates("attack_label")
        sub = sub.set_index("attack_label").reindex([a for a in attacks
                                                      if a in set(sub["attack_label"])])
        comps = {}
        for gname, locs in LOCATION_GROUPS.items():
            cols = [loc for loc in locs if loc in loc_cols]
            if cols:
                comps[gname] = sum(value(sub, f"expected_damage_{c}").fillna(0).to_numpy()
                                   for c in cols)
        with plots.style():
            fig, axes = plots.new_figure(1, 1, width=9, height=0.45 * len(sub) + 1.8)
            plots.stacked_bars(axes[0, 0], list(sub.index), comps, horizontal=True,
                               ylabel="expected damage (points per attack declared)",
                               title=f"Where the damage lands ({t_mid} t attacker)",
                               legend_title="location", colors=LOCATION_COLORS,
                               totals_fmt="{:.2f}")
            plots.footnote(fig, foot)
            _save(sec, fig, "fig_locations", "Expected damage by hit location",
                  f"Expected damage per attack split by the location it lands on, for a "
                  f"{t_mid} t attacker (rear torso only from rear attacks).")

    never = [a for a in attacks if labs.loc[a, "lightest head-killer"] == "never"]
    if never:
        sec.findings.append(Finding(
            res.name, "Attacks that can never destroy a fresh head in one blow at any tonnage: "
            + ", ".join(never) + ".", []))
    if np.isfinite(hd.to_numpy(float)).any() and np.nanmax(hd.to_numpy(float)) > 0:
        r, c = np.unravel_index(np.nanargmax(hd.to_numpy(float)), hd.shape)
        a, t = hd.index[r], hd.columns[c]
        d = fmt_pct(hd.loc[a, t])
        sec.findings.append(Finding(
            res.name, f"The highest one-attack head-kill chance is {d}, for a {a} by a {t} "
            f"attacker.", [("head_destroyed", a, t, float(hd.loc[a, t]), d)]))
    if np.isfinite(hh.to_numpy(float)).any():
        r, c = np.unravel_index(np.nanargmax(hh.to_numpy(float)), hh.shape)
        a, t = hh.index[r], hh.columns[c]
        d = fmt_pct(hh.loc[a, t])
        sec.findings.append(Finding(
            res.name, f"A {a} by a {t} attacker strikes the head most often: {d} of attacks.",
            [("head_hit", a, t, float(hh.loc[a, t]), d)], lead=False))
    return sec


def _short_unit(name: str) -> str:
    """'Atlas AS7-D' -> 'Atlas AS7-D'; 'Loki (Hellbringer) Prime' -> 'Loki Prime'."""
    return re.sub(r"\s*\([^)]*\)", "", str(name)).strip()


def missing_text(missing: Any) -> str:
    """The ``missing`` actuator list of a unit as words:
    ``"left-hand,left-lower-arm,right-hand,right-lower-arm"`` -> ``"no hands or lower arms"``."""
    parts = [p.strip() for p in str(missing or "").split(",")
             if p.strip() and p.strip() not in ("None", "nan")]
    if not parts:
        return ""
    sides: dict[str, set[str]] = {}
    for p in parts:
        side, _, name = p.partition("-")
        if side not in ("left", "right") or not name:
            side, name = "", p
        sides.setdefault(name.replace("-", " "), set()).add(side)
    words = []
    for name, ss in sorted(sides.items()):
        if ss >= {"left", "right"}:
            words.append(name + "s")
        else:
            words += [f"{s} {name}".strip() for s in sorted(ss)]
    return "no " + " or ".join(words)


def reason_text(reason: Any, unit: str, missing: Any = "") -> str:
    """A model's 'impossible' reason, shortened for a sentence about ``unit``:
    ``"attacker Locust LCT-1V has no jump MP: a DFA is a jump"`` -> ``"no jump MP: a DFA is a
    jump"``; a missing-actuator reason names what the unit lacks (its ``missing`` fact)."""
    r = str(reason).replace(f"attacker {unit} ", "").strip()
    r = re.sub(r"^has no ", "no ", r)
    lacks = missing_text(missing)
    if "destroyed or missing" in r and lacks:
        tail = r.split(":", 1)[1].strip() if ":" in r else ""
        r = lacks + (f": {tail}" if tail else "")
    return r


def _and(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _two_lines(name: str) -> str:
    """A unit name for a crowded axis, model code on its own line:
    ``"Grand Titan T-IT-N10M"`` -> ``"Grand Titan\nT-IT-N10M"``."""
    head, _, tail = str(name).rpartition(" ")
    return f"{head}\n{tail}" if head else tail


@builder("real_units_melee")
def _real_units(res: Result) -> Section:
    sec = Section(res)
    f = _with_labels(res.frame)
    f["possible"] = _possible(f)
    f["ev"] = value(f, "expected_damage")
    f["risk"] = self_risk(f)
    f["net"] = f["ev"] - f["risk"]
    att_col = "attacker" if "attacker" in f.columns else "tons"
    tgt_col = "target" if "target" in f.columns else "target_tons"
    attackers = [str(a) for a in dict.fromkeys(f[att_col])]
    targets = [str(t) for t in dict.fromkeys(f[tgt_col])]
    f[att_col] = f[att_col].astype(str)
    f[tgt_col] = f[tgt_col].astype(str)
    attacks = ordered_attacks(f["attack_label"])
    n_t = len(targets)
    foot = footnote_text(res, "Net = expected damage dealt − attacker's self-risk "
                         "(self-damage + fall damage).", kind="cells")
    foot_bars = footnote_text(res)
    ok = f[f["possible"]]

    # per match-up: the best legal attack by net damage
    vn = pd.DataFrame(index=attackers, columns=targets, dtype=float)
    ln = pd.DataFrame(index=attackers, columns=targets, dtype=object)
    for (a, t), g in ok.groupby([att_col, tgt_col], sort=False):
        g = g.sort_values(["net", "ev"], ascending=False)
        vn.loc[a, t] = float(g["net"].iloc[0])
        ln.loc[a, t] = g["attack_label"].iloc[0]

    # per unit: the best legal attack, averaged over the targets
    per = ok.groupby([att_col, "attack_label"], sort=False)[["ev", "net"]].mean()
    cols = ["most damaging attack", "best net of self-risk"]
    bu = pd.DataFrame(index=attackers, columns=cols, dtype=float)
    bl = pd.DataFrame(index=attackers, columns=cols, dtype=object)
    for a in attackers:
        if a not in per.index.get_level_values(0):
            bl.loc[a, cols[0]] = bl.loc[a, cols[1]] = "no legal attack"
            continue
        g = per.loc[a]
        for col, crit, other in ((cols[0], "ev", "net"), (cols[1], "net", "ev")):
            k = g.sort_values([crit, other], ascending=False).index[0]
            bu.loc[a, col] = float(g.loc[k, crit])
            bl.loc[a, col] = k
    sec.tables.append(Table("best_per_unit", f"Best legal attack of each unit, averaged over "
                            f"the {n_t} targets", bu, fmt_num, bl, index_name="attacker",
                            note="Most damaging: highest expected damage dealt (points per "
                            "attack declared, misses count as 0). Best net: highest expected "
                            "damage − self-risk (the attacker's expected self-damage plus "
                            "expected fall damage). Both averaged over the targets."))
    sec.tables.append(Table("best_net", "Best legal attack by net damage (damage dealt − "
                            "self-risk): attacker (row) against target (column)", vn, fmt_num,
                            ln, index_name="attacker",
                            note="Self-risk = the attacker's expected self-damage plus "
                            "expected fall damage; a charge's self-damage grows with the "
                            "target's tonnage, so the best attack can change with the target."))

    # legal attacks: attacker x attack, averaged over targets; why the others are impossible
    leg = pd.DataFrame(index=attackers, columns=attacks, dtype=float)
    leg_l = pd.DataFrame(index=attackers, columns=attacks, dtype=object)
    why: dict[tuple[str, str], list[str]] = {}
    for (a, lab), g in f.groupby([att_col, "attack_label"], sort=False):
        good = g[g["possible"]]
        if len(good):
            leg.loc[a, lab] = float(good["ev"].mean())
            continue
        leg_l.loc[a, lab] = "impossible"
        r = g["impossible"].dropna().astype(str)
        miss = g["missing"].iloc[0] if "missing" in g.columns else ""
        text = reason_text(r.iloc[0], a, miss) if len(r) else "not allowed"
        why.setdefault((lab, text), []).append(a)
    sec.tables.append(Table("legal_attacks", f"Expected damage of each legal attack, averaged "
                            f"over the {n_t} targets", leg, fmt_num, leg_l,
                            index_name="attacker", note="'impossible': the unit cannot make "
                            "that attack (see the next table for why)."))
    if why:
        keys = sorted(why, key=lambda k: (_attack_sort_key(k[0]), k[1]))
        iv = pd.DataFrame(index=[f"{lab}: {r}" for lab, r in keys],
                          columns=["impossible for", "can make it"], dtype=float)
        il = pd.DataFrame(index=iv.index, columns=iv.columns, dtype=object)
        for (lab, r), idx in zip(keys, iv.index, strict=True):
            il.loc[idx, "impossible for"] = ", ".join(_short_unit(u) for u in why[(lab, r)])
            can = [_short_unit(u) for u in attackers if _finite(leg.loc[u, lab])]
            il.loc[idx, "can make it"] = ", ".join(can) or "none"
        sec.tables.append(Table("impossible", "Attacks a unit cannot make, and why", iv,
                                fmt_num, il, index_name="attack: reason (from the rules "
                                "model)"))

    with plots.style():
        fig, axes = plots.new_figure(1, 1, width=2.8 + 1.5 * len(targets),
                                     height=1.8 + 0.62 * len(attackers))
        text = np.array([[(f"{cell_label(ln.loc[r, c])}\n{fmt_num(vn.loc[r, c])}"
                           if _finite(vn.loc[r, c]) else "none") for c in vn.columns]
                         for r in vn.index], dtype=object)
        plots.heatmap(axes[0, 0], vn.to_numpy(float), [_short_unit(a) for a in vn.index],
                      [_two_lines(_short_unit(t)) for t in vn.columns], text=text,
                      cbar_label="net damage (points)", xlabel="target", ylabel="attacker",
                      title="Best legal physical attack by net damage", fontsize=7.5)
        plots.footnote(fig, foot)
        _save(sec, fig, "fig_best_matchups", "Best attack per match-up",
              "For every attacker (row) and target (column): the legal physical attack with "
              "the highest net damage (expected damage dealt minus the attacker's self-risk) "
              "and that net damage; 'none' = no legal attack.")

    def tons_of(name: str) -> float:
        g = f[f[tgt_col] == name]
        return float(g["target_tons"].iloc[0]) if "target_tons" in g.columns else 0.0

    pick = sorted(targets, key=tons_of)
    pick = [pick[0], pick[-1]] if len(pick) > 1 else pick
    with plots.style():
        fig, axes = plots.new_figure(len(pick), 1, width=11, height=3.8 * len(pick),
                                     sharey=True)
        for i, tname in enumerate(pick):
            sub = f[(f[tgt_col] == tname)]
            series = {}
            for j, lab in enumerate(attacks):
                s = sub[sub["attack_label"] == lab]
                ser = _bar_series(s, att_col, attackers, "expected_damage")
                okm = s.set_index(att_col)["possible"]
                mask = np.array([bool(okm.get(a, False)) for a in attackers])
                for k in ("values", "lo", "hi", "exact"):
                    if ser.get(k) is not None:
                        ser[k] = np.where(mask, ser[k], np.nan)
                ser["color"] = plots.color(j)
                series[lab] = ser
            plots.grouped_bars(axes[i, 0], [_short_unit(a) for a in attackers], series,
                               ylabel="expected damage (points)",
                               title=f"Against {_short_unit(tname)}", legend=False,
                               mark_missing="impossible")
        plots.figure_legend(fig, axes[0, 0], "attack")
        fig.suptitle("Expected damage of each attack (missing bar = impossible)")
        plots.footnote(fig, foot_bars)
        _save(sec, fig, "fig_unit_attacks", "Legal attacks against a light and a heavy target",
              "Expected damage per attack declared, for each unit's legal attacks against the "
              "lightest and the heaviest target; 'impossible' marks an attack the unit cannot "
              "make.")

    # findings: each unit's best attack, by damage and net of self-risk
    tab = sec.table("best_per_unit")
    for col, what in ((cols[0], "most damaging legal attack"),
                      (cols[1], "best legal attack net of self-risk (self-damage and "
                                "falls)")):
        v = bu[col]
        if not v.notna().any():
            continue
        groups: dict[str, list[str]] = {}
        for a in attackers:
            if _finite(v[a]):
                groups.setdefault(str(bl.loc[a, col]), []).append(a)
        hi, lo = v.idxmax(), v.idxmin()
        dh, dl = tab.fmt(v[hi]), tab.fmt(v[lo])
        if len(groups) == 1:
            who = f"of every unit is a {next(iter(groups))}"
        else:
            who = "is " + _and([f"a {lab} for the " + _and([_short_unit(u) for u in us])
                                for lab, us in groups.items()])
        text = (f"Averaged over the {n_t} targets, the {what} {who}: from {dh} points "
                f"({_short_unit(hi)}) down to {dl} ({_short_unit(lo)}).")
        quotes = [("best_per_unit", hi, col, float(v[hi]), dh),
                  ("best_per_unit", lo, col, float(v[lo]), dl)]
        if col == cols[1]:
            # match-ups where the target changes that choice
            odd = [(a, t) for a in attackers for t in targets
                   if isinstance(ln.loc[a, t], str) and ln.loc[a, t] != bl.loc[a, col]]
            if odd:
                a, t = max(odd, key=lambda at: vn.loc[at[0], at[1]])
                d = fmt_num(vn.loc[a, t])
                text += (f" The target can change the choice: against the {_short_unit(t)} "
                         f"the {_short_unit(a)} does best with a {ln.loc[a, t]} ({d} net).")
                quotes.append(("best_net", a, t, float(vn.loc[a, t]), d))
        sec.findings.append(Finding(res.name, text, quotes))

    # findings: which attacks are impossible for whom, and which pairs cannot fight
    if why:
        parts = []
        for lab, r in sorted(why, key=lambda k: (_attack_sort_key(k[0]), k[1])):
            us = why[(lab, r)]
            parts.append(f"{lab} for the {_and([_short_unit(u) for u in us])} ({r})")
        sec.findings.append(Finding(res.name, "Impossible attacks: " + "; ".join(parts) + ".",
                                    []))
    none = [(a, t) for a in attackers for t in targets if not _finite(vn.loc[a, t])]
    everyone = [lab for lab in attacks if leg[lab].notna().all()]
    if none:
        text = ("These pairs cannot fight at all (no legal physical attack): "
                + "; ".join(f"{_short_unit(a)} against {_short_unit(t)}" for a, t in none)
                + ".")
    else:
        text = (f"Every unit has at least one legal physical attack against each of the "
                f"{n_t} targets" + (f"; {_and(everyone)} are open to all {len(attackers)} "
                                    f"units." if everyone else "."))
    sec.findings.append(Finding(res.name, text, [], lead=bool(none)))
    return sec


# -- Alpha Strike ---------------------------------------------------------------------------

def _condition(row: pd.Series) -> str:
    inc = row.get("incoming")
    has_inc = isinstance(inc, str) and inc not in ("", "[]", "none", "None") or (
        isinstance(inc, list | tuple | np.ndarray) and len(inc) > 0)
    water = bool(row.get("water")) if _finite(row.get("water")) or isinstance(
        row.get("water"), bool | np.bool_) else False
    a = "HT attacker" if has_inc else "no attacker"
    return f"{a}, {'in water' if water else 'dry'}"


def incoming_text(value: Any) -> str:
    """``"tn=6,dmg=1;tn=6,dmg=1"`` -> ``"2 × (tn=6,dmg=1)"``; empty -> ``"none"``."""
    if isinstance(value, list | tuple | np.ndarray):
        items = [str(v) for v in value]
    else:
        items = [x for x in str(value or "").split(";") if x.strip()]
    if not items:
        return "none"
    counts = dict.fromkeys(items, 0)
    for x in items:
        counts[x] += 1
    return " + ".join(f"{n} × ({x})" if n > 1 else f"({x})" for x, n in counts.items())


CONDITION_ORDER = ("no attacker, dry", "no attacker, in water", "HT attacker, dry",
                   "HT attacker, in water")


def _policy_order(pols: Iterable[str]) -> list[str]:
    pref = ["hold", "never", "below:1", "below:2", "below:3", "fixed:1", "fixed:2", "max"]
    ps = list(dict.fromkeys(pols))
    return sorted(ps, key=lambda p: (pref.index(p) if p in pref else len(pref), p))


def _unit_panels(units: Sequence[str]) -> tuple[int, int]:
    n = len(units)
    cols = 2 if n > 1 else 1
    return math.ceil(n / cols), cols


@builder("overheat_curves")
def _overheat(res: Result) -> Section:
    sec = Section(res)
    f = res.frame.copy()
    f["condition"] = f.apply(_condition, axis=1)
    units = list(dict.fromkeys(f["unit"])) if "unit" in f.columns else ["unit"]
    if "unit" not in f.columns:
        f["unit"] = "unit"
    if "policy" not in f.columns:
        f["policy"] = "default"
    policies = _policy_order(f["policy"].astype(str))
    conds = [c for c in CONDITION_ORDER if c in set(f["condition"])]
    base_cond = conds[0] if conds else "no attacker, dry"
    # curves show the stochastic case: without incoming fire the heat cycle is deterministic
    curve_cond = "HT attacker, dry" if "HT attacker, dry" in conds else base_cond
    last = int(f["turn"].max())
    foot = footnote_text(res, kind="curves")
    foot_cells = footnote_text(res, kind="cells")
    foot_bars = footnote_text(res)
    nr, nc = _unit_panels(units)

    def unit_title(u: str) -> str:
        """Two lines (unit, then OV and range) so titles never run into the next panel."""
        g = f[f["unit"] == u]
        bits = []
        if "ov" in g.columns and _finite(g["ov"].iloc[0]):
            bits.append(f"OV {int(g['ov'].iloc[0])}")
        if "range" in g.columns:
            bits.append(f"{g['range'].iloc[0]} range")
        return _short_unit(u) + ("\n" + ", ".join(bits) if bits else "")

    def curves_fig(metric: str, key: str, title: str, ylabel: str, caption: str,
                   scale: float = 1.0, complement: bool = False) -> None:
        with plots.style():
            fig, axes = plots.new_figure(nr, nc, width=10, height=3.2 * nr + 0.8, sharex=True,
                                         sharey=True)
            for k, u in enumerate(units):
                ax = axes[k // nc, k % nc]
                for j, p in enumerate(policies):
                    g = f[(f["unit"] == u) & (f["policy"] == p) & (f["condition"] == curve_cond)]
                    g = g.sort_values("turn")
                    if g.empty:
                        continue
                    mean, lo, hi = mc_ci(g, metric)
                    ex = exact_of(g, metric)
                    if complement:
                        mean = 1 - mean
                        lo, hi = (None, None) if lo is None else (1 - hi, 1 - lo)
                        ex = None if ex is None else 1 - ex
                    plots.curve(ax, g["turn"], mean * scale,
                                lo=None if lo is None else lo * scale,
                                hi=None if hi is None else hi * scale,
                                exact=None if ex is None else ex * scale, label=p,
                                color_=plots.color(j))
                ax.set_title(unit_title(u))
                ax.xaxis.set_major_locator(plots.MaxNLocator(integer=True))
                if k // nc == nr - 1:
                    ax.set_xlabel("turn")
                if k % nc == 0:
                    ax.set_ylabel(ylabel)
            for k in range(len(units), nr * nc):
                axes[k // nc, k % nc].set_visible(False)
            plots.figure_legend(fig, axes[0, 0], "overheat policy", "exact (Markov chain)")
            fig.suptitle(title + f" ({curve_cond})")
            plots.footnote(fig, foot)
            _save(sec, fig, key, title, caption)

    if "p_shutdown_by" in f.columns or "p_shutdown_by_exact" in f.columns:
        curves_fig("p_shutdown_by", "fig_shutdown_by", "Chance of having shut down by turn t",
                   "shut down at least once (%)",
                   f"Chance each unit has shut down at least once by the end of turn t, per "
                   f"overheat policy ({curve_cond}; without incoming fire the heat cycle is "
                   f"deterministic, see the policy table).", scale=100.0)
    if "expected_cumulative_damage" in f.columns or \
            "expected_cumulative_damage_exact" in f.columns:
        curves_fig("expected_cumulative_damage", "fig_cumulative_damage",
                   "Cumulative expected damage dealt", "damage dealt (points)",
                   "Expected damage dealt up to turn t (weapon attacks that hit, overheat "
                   "included), per policy: what the heat buys.")

    # heat distribution over time: stacked bars per unit, most aggressive policy
    heat_cols = [f"p_heat_{i}" for i in range(5)]
    if all(c in f.columns or c + "_exact" in f.columns for c in heat_cols):
        hot = policies[-1]
        with plots.style():
            fig, axes = plots.new_figure(nr, nc, width=10, height=3.0 * nr + 0.8, sharex=True,
                                         sharey=True)
            cmap = plots.matplotlib.colormaps["viridis"]
            colors = [cmap(x) for x in (0.95, 0.7, 0.45, 0.22, 0.0)] + ["#999999"]
            for k, u in enumerate(units):
                ax = axes[k // nc, k % nc]
                g = f[(f["unit"] == u) & (f["policy"] == hot) & (f["condition"] == curve_cond)]
                g = g.sort_values("turn")
                comps = {("S (4, shut down)" if i == 4 else f"heat {i}"):
                         value(g, f"p_heat_{i}").to_numpy() * 100 for i in range(5)}
                comps["destroyed"] = value(g, "p_destroyed_by").fillna(0).to_numpy() * 100
                plots.stacked_bars(ax, [str(int(t)) for t in g["turn"]], comps,
                                   ylabel="units (%)" if k % nc == 0 else "",
                                   title=unit_title(u), colors=colors, legend=False)
                ax.set_ylim(0, 100)
                if k // nc == nr - 1:
                    ax.set_xlabel("turn")
            for k in range(len(units), nr * nc):
                axes[k // nc, k % nc].set_visible(False)
            handles, labels = axes[0, 0].get_legend_handles_labels()
            fig.legend(handles, labels, title="heat after End Phase",
                       loc="outside right center")
            fig.suptitle(f"Heat level after each End Phase, policy '{hot}' ({curve_cond})")
            plots.footnote(fig, foot_cells)
            _save(sec, fig, "fig_heat_levels", "Heat-level distribution over time",
                  f"Distribution of the heat level read after each turn's End Phase under "
                  f"policy '{hot}' ({curve_cond}); S = shut down for the next turn.")

    end = f[f["turn"] == last]
    # conditions: shutdown risk at the last turn, one panel per policy
    if len(conds) > 1:
        pr, pc_ = _unit_panels(policies)
        with plots.style():
            fig, axes = plots.new_figure(pr, pc_, width=11, height=3.3 * pr + 0.8,
                                         sharey=True)
            for k, pol in enumerate(policies):
                ax = axes[k // pc_, k % pc_]
                series = {}
                for j, cnd in enumerate(conds):
                    sub = end[(end["policy"] == pol) & (end["condition"] == cnd)]
                    sub = sub.assign(u=sub["unit"].astype(str))
                    s_ = _bar_series(sub, "u", units, "p_shutdown_by", scale=100.0)
                    s_["color"] = plots.color(j)
                    series[cnd] = s_
                plots.grouped_bars(ax, [_two_lines(_short_unit(u)) for u in units],
                                   series, ylabel=f"shut down by turn {last} (%)"
                                   if k % pc_ == 0 else "", title=f"policy '{pol}'",
                                   legend=False)
                ax.set_ylim(0, 105)
            for k in range(len(policies), pr * pc_):
                axes[k // pc_, k % pc_].set_visible(False)
            plots.figure_legend(fig, axes[0, 0], "condition")
            fig.suptitle(f"Chance of having shut down by turn {last}: water and an incoming "
                         "HT attacker")
            plots.footnote(fig, foot_bars)
            _save(sec, fig, "fig_conditions", "Shutdown risk: water and HT",
                  f"Chance of having shut down by turn {last} for every policy, with and "
                  "without an incoming attacker with HT, in and out of water.")

    # tables
    cols = [f"damage by turn {last}", f"shut down by turn {last}", "first shutdown turn"]
    idx = [f"{_short_unit(u)} / {p}" for u in units for p in policies]
    tv = pd.DataFrame(index=idx, columns=cols, dtype=float)
    for u in units:
        for p in policies:
            g = end[(end["unit"] == u) & (end["policy"] == p) & (end["condition"] == base_cond)]
            if g.empty:
                continue
            key = f"{_short_unit(u)} / {p}"
            tv.loc[key, cols[0]] = float(value(g, "expected_cumulative_damage").iloc[0])
            tv.loc[key, cols[1]] = float(value(g, "p_shutdown_by").iloc[0])
            tv.loc[key, cols[2]] = float(value(g, "expected_first_shutdown_turn").iloc[0])
    sec.tables.append(_ColumnTable(
        "policies", f"Policies compared ({base_cond})", tv,
        {cols[0]: fmt_num, cols[1]: fmt_pct, cols[2]: fmt_num}, index_name="unit / policy",
        note=f"Damage = expected damage dealt over {last} turns. First shutdown turn = "
        f"expected turn of the first shutdown, counting {last + 1} for a run that never shuts "
        "down."))
    if len(conds) > 1:
        for metric, key, ttl, fmt in (
                ("p_shutdown_by", "conditions", f"Chance of having shut down by turn {last}",
                 fmt_pct),
                ("expected_cumulative_damage", "conditions_damage",
                 f"Expected damage dealt by turn {last}", fmt_num)):
            cv = pd.DataFrame(index=idx, columns=list(conds), dtype=float)
            for u in units:
                for p in policies:
                    for cnd in conds:
                        g = end[(end["unit"] == u) & (end["policy"] == p)
                                & (end["condition"] == cnd)]
                        if len(g):
                            cv.loc[f"{_short_unit(u)} / {p}", cnd] = float(
                                value(g, metric).iloc[0])
            sec.tables.append(Table(key, ttl + " by condition", cv, fmt,
                                    index_name="unit / policy"))

    # findings: per unit, the policy that deals the most damage, against never and max
    for i, u in enumerate(units):
        rows = [f"{_short_unit(u)} / {p}" for p in policies]
        dmg = tv.loc[rows, cols[0]]
        if not dmg.notna().any():
            continue
        kb = dmg.idxmax()
        best_pol = kb.split(" / ", 1)[1]
        quotes = [("policies", kb, cols[0], float(tv.loc[kb, cols[0]]),
                   fmt_num(tv.loc[kb, cols[0]])),
                  ("policies", kb, cols[1], float(tv.loc[kb, cols[1]]),
                   fmt_pct(tv.loc[kb, cols[1]]))]
        text = (f"{_short_unit(u)}: over {last} turns policy '{best_pol}' deals the most "
                f"expected damage, {quotes[0][4]}, with a {quotes[1][4]} chance of having shut "
                f"down")
        km = f"{_short_unit(u)} / {policies[-1]}"
        if km != kb and _finite(tv.loc[km, cols[0]]):
            dm, pm = fmt_num(tv.loc[km, cols[0]]), fmt_pct(tv.loc[km, cols[1]])
            quotes += [("policies", km, cols[0], float(tv.loc[km, cols[0]]), dm),
                       ("policies", km, cols[1], float(tv.loc[km, cols[1]]), pm)]
            text += f"; '{policies[-1]}' deals {dm} and shuts down with probability {pm}"
        sec.findings.append(Finding(res.name, text + ".", quotes, lead=i == 0))
    wet = "no attacker, in water"
    if wet in conds and base_cond in conds:
        cd = sec.table("conditions_damage")
        u0 = _short_unit(units[0])
        rows = [r for r in cd.values.index if r.startswith(u0 + " / ")]
        kd, kw = cd.values.loc[rows, base_cond].idxmax(), cd.values.loc[rows, wet].idxmax()
        dd, dw = cd.values.loc[kd, base_cond], cd.values.loc[kw, wet]
        if _finite(dd) and _finite(dw):
            sd, sw = fmt_num(dd), fmt_num(dw)
            pd_, pw = kd.split(" / ", 1)[1], kw.split(" / ", 1)[1]
            text = (f"Water changes the best policy: out of water the {u0} deals the most with "
                    f"'{pd_}' ({sd} by turn {last}), in water with '{pw}' ({sw})."
                    if pd_ != pw else
                    f"In water the {u0}'s most damaging policy stays '{pd_}': {sd} by turn "
                    f"{last} out of water, {sw} in water.")
            sec.findings.append(Finding(
                res.name, text,
                [("conditions_damage", kd, base_cond, float(dd), sd),
                 ("conditions_damage", kw, wet, float(dw), sw)]))
    if len(conds) > 1:
        ct = sec.table("conditions").values
        for other, what in (("no attacker, in water", "standing in water"),
                            ("HT attacker, dry", "an incoming HT attacker")):
            if other not in ct.columns or base_cond not in ct.columns:
                continue
            diff = (ct[other] - ct[base_cond]).abs()
            if not diff.notna().any() or diff.max() == 0:
                continue
            k = diff.idxmax()
            a_, b_ = ct.loc[k, base_cond], ct.loc[k, other]
            sa, sb = fmt_pct(a_), fmt_pct(b_)
            unit_k, pol_k = k.split(" / ", 1)
            sec.findings.append(Finding(
                res.name, f"{what[0].upper() + what[1:]} matters most for the {unit_k} with "
                f"policy "
                f"'{pol_k}': it has shut down by turn {last} with probability {sb}, against "
                f"{sa} with no attacker, out of water.",
                [("conditions", k, base_cond, float(a_), sa),
                 ("conditions", k, other, float(b_), sb)], lead=other.startswith("HT")))
    return sec


class _ColumnTable(Table):
    """A table with one number format per column."""

    def __init__(self, key: str, title: str, values: pd.DataFrame,
                 col_fmt: dict[str, Callable[[float], str]], index_name: str = "",
                 note: str = "") -> None:
        super().__init__(key, title, values, fmt_num, None, note, index_name)
        self.col_fmt = col_fmt

    def cell(self, row: Any, col: Any) -> str:
        v = self.values.loc[row, col]
        return self.col_fmt.get(col, self.fmt)(v) if _finite(v) else "–"

    def format(self, col: Any, v: float) -> str:
        return self.col_fmt.get(col, self.fmt)(v)


def _protection(f: pd.DataFrame) -> pd.Series:
    """The ammo protection of each row: the heat model's ``protection`` parameter, with
    ``card`` (the card's own specials) shown as "as on card"."""
    return _col(f, "protection", "card").fillna("card").astype(str).replace(
        {"card": "as on card", "": "as on card"})


PROTECTION_ORDER = ("none", "CASE", "CASEII", "ENE")


def ammo_hit_odds() -> tuple[str, str] | None:
    """How often a critical-hit roll is an Ammo Hit, from the Alpha Strike crit table (rules
    reference 6.6): ``("1 in 36", "a 2")``; None if the table cannot be read."""
    try:
        from fractions import Fraction

        from sim.alphastrike import tables as AT
    except ImportError:  # pragma: no cover - the model package is part of btsim
        return None
    p = Fraction(float(AT.CRIT_PROB[AT.CRIT_AMMO])).limit_denominator(36)
    rolls = [str(i) for i in range(2, 13) if int(AT.CRIT_MECH[i]) == AT.CRIT_AMMO]
    if p == 0 or not rolls:
        return None
    return f"{p.numerator} in {p.denominator}", "a " + " or ".join(rolls)


@builder("ammo_protection")
def _ammo(res: Result) -> Section:
    sec = Section(res)
    f = res.frame.copy()
    pc = "_protection"
    f[pc] = _protection(f)
    prots = sorted(dict.fromkeys(f[pc]),
                   key=lambda p: PROTECTION_ORDER.index(p) if p in PROTECTION_ORDER else 9)
    others = [c for c in ("unit",) if c in f.columns]
    unit = _short_unit(f[others[0]].iloc[0]) if others else "the unit"
    last = int(f["turn"].max())
    inc = incoming_text(f["incoming"].iloc[0]) if "incoming" in f.columns else "none"
    base = "none" if "none" in prots else None
    gained = [p for p in prots if p != base] if base else []

    def se_of(g: pd.DataFrame, metric: str) -> np.ndarray | None:
        c = metric + "_se"
        return pd.to_numeric(g[c], errors="coerce").to_numpy(float) if c in g.columns else None

    with plots.style():
        ncol = 3 if base and gained else 2
        fig, axes = plots.new_figure(1, ncol, width=5.0 * ncol, height=4.4)
        ax = axes[0, 0]
        for j, p in enumerate(prots):
            g = f[f[pc] == p].sort_values("turn")
            mean, lo, hi = mc_ci(g, "p_destroyed_by")
            ex = exact_of(g, "p_destroyed_by")
            turns = np.concatenate([[0], g["turn"].to_numpy(float)])
            surv = np.concatenate([[100.0], (1 - mean) * 100])
            lo_s = None if hi is None else np.concatenate([[100.0], (1 - hi) * 100])
            hi_s = None if lo is None else np.concatenate([[100.0], (1 - lo) * 100])
            ex_s = None if ex is None else np.concatenate([[100.0], (1 - ex) * 100])
            plots.curve(ax, turns, surv, lo=lo_s, hi=hi_s, exact=ex_s, label=p,
                        color_=plots.color(j), step=True)
        ax.set_xlabel("turn")
        ax.set_ylabel("still operational (%)")
        ax.set_title(f"Survival curve of {unit}")
        ax.set_ylim(0, 102)
        handles, labels = plots.legend_entries(ax, "exact (Markov chain)")
        ax.legend(handles, labels, title="ammo protection", loc="lower left")
        if base and gained:
            # the curves differ by a few points: show the difference itself
            ax = axes[0, 1]
            g0 = f[f[pc] == base].sort_values("turn")
            m0 = mc_ci(g0, "p_destroyed_by")[0]
            e0 = exact_of(g0, "p_destroyed_by")
            s0 = se_of(g0, "p_destroyed_by")
            for j, p in enumerate(prots):
                if p == base:
                    continue
                g = f[f[pc] == p].sort_values("turn")
                m = mc_ci(g, "p_destroyed_by")[0]
                d = (m0 - m) * 100  # survival gain = P(destroyed | none) - P(destroyed | p)
                s1 = se_of(g, "p_destroyed_by")
                band = None if s0 is None or s1 is None else 196 * np.sqrt(s0 ** 2 + s1 ** 2)
                ex = exact_of(g, "p_destroyed_by")
                plots.curve(ax, g["turn"], d, lo=None if band is None else d - band,
                            hi=None if band is None else d + band,
                            exact=None if ex is None or e0 is None else (e0 - ex) * 100,
                            label=p, color_=plots.color(j))
            ax.axhline(0, color="#777777", linewidth=0.8)
            ax.set_xlabel("turn")
            ax.set_ylabel("percentage points")
            ax.set_title(f"Survival gain over '{base}'")
            ax.xaxis.set_major_locator(plots.MaxNLocator(integer=True))
            h2, l2 = plots.legend_entries(ax, "exact (Markov chain)")
            ax.legend(h2, l2, loc="upper left")
        ax = axes[0, ncol - 1]
        end = f[f["turn"] == last]
        if base and gained:
            e = end.set_index(pc)
            e = e[~e.index.duplicated()]
            mean, _, _ = mc_ci(e, "expected_turns_survived")
            ex = exact_of(e, "expected_turns_survived")
            se = se_of(e, "expected_turns_survived")
            pos = {p: i for i, p in enumerate(e.index)}
            i0 = pos[base]
            vals = np.array([mean[pos[p]] - mean[i0] for p in gained])
            band = None if se is None else np.array(
                [1.96 * math.hypot(se[pos[p]], se[i0]) for p in gained])
            s = {"values": vals, "lo": None if band is None else vals - band,
                 "hi": None if band is None else vals + band,
                 "exact": None if ex is None else np.array([ex[pos[p]] - ex[i0]
                                                            for p in gained]),
                 "color": plots.color(0)}
            plots.grouped_bars(ax, gained, {"Monte Carlo (95% CI)": s},
                               ylabel="turns", title=f"Expected turns survived: gain over "
                               f"'{base}'", value_fmt="+{:.2f}", legend=False)
        else:
            s = _bar_series(end, pc, prots, "expected_turns_survived")
            s["color"] = plots.color(0)
            plots.grouped_bars(ax, prots, {"Monte Carlo (95% CI)": s}, ylabel="turns",
                               title=f"Expected turns survived (of {last})",
                               value_fmt="{:.2f}", legend=False)
        h3, l3 = plots.legend_entries(ax)
        ax.legend(h3, l3, loc="lower right", framealpha=0.9, frameon=True)
        ax.set_xlabel("ammo protection")
        fig.suptitle(f"Ammo protection under the same incoming fire ({unit})")
        plots.footnote(fig, footnote_text(
            res, f"Right: {LEGEND_NOTES['bars']} Incoming fire each turn: {inc}. Differences: "
            f"band / error bar = 95% CI of the difference of two independent estimates.",
            kind="curves"))
        _save(sec, fig, "fig_survival", "Survival by ammo protection",
              f"Left: survival curve (chance the unit is not yet destroyed after turn t) of "
              f"{unit} with {_and(prots)} under identical incoming fire"
              + (f". Middle: how many percentage points more units are still operational "
                 f"than with '{base}'. Right: expected turns survived (of {last}) gained over "
                 f"'{base}'." if base and gained else "; right: expected turns survived."))

    cols = [f"survives {last} turns", "expected turns survived"]
    if base:
        cols.append(f"turns gained over '{base}'")
    tv = pd.DataFrame(index=prots, columns=cols, dtype=float)
    for p in prots:
        g = f[(f[pc] == p) & (f["turn"] == last)]
        if len(g):
            tv.loc[p, cols[0]] = 1 - float(value(g, "p_destroyed_by").iloc[0])
            tv.loc[p, cols[1]] = float(value(g, "expected_turns_survived").iloc[0])
    if base:
        tv[cols[2]] = tv[cols[1]] - tv.loc[base, cols[1]]
    tab = _ColumnTable("survival", f"Survival of {unit} by ammo protection", tv,
                       {cols[0]: fmt_pct, cols[1]: fmt_num, **({cols[2]: fmt_num}
                                                              if base else {})},
                       index_name="protection",
                       note=f"Expected turns survived counts turns up to {last} (a unit "
                       f"still operational after turn {last} counts {last}).")
    sec.tables.append(tab)
    if base and gained:
        best = tv.loc[gained, cols[1]].idxmax()
        a, b, gain = tv.loc[base, cols[1]], tv.loc[best, cols[1]], tv.loc[best, cols[2]]
        if _finite(a) and _finite(b):
            sa, sb, sg = fmt_num(a), fmt_num(b), fmt_num(gain)
            odds = ammo_hit_odds()
            why = (f"An Ammo Hit is only {odds[0]} critical-hit rolls ({odds[1]} on 2D6), "
                   f"and only attacks that damage structure roll for one, so ammo protection "
                   f"changes little: " if odds else "Ammo protection: ")
            sec.findings.append(Finding(
                res.name, f"{why}{unit} survives {sa} turns on average unprotected and {sb} "
                f"with {best}, {sg} turns more, under the same incoming fire.",
                [("survival", base, cols[1], float(a), sa),
                 ("survival", best, cols[1], float(b), sb),
                 ("survival", best, cols[2], float(gain), sg)]))
        if "CASE" in tv.index:
            c = tv.loc["CASE", cols[0]]
            n0 = tv.loc[base, cols[0]]
            if _finite(c) and _finite(n0):
                sc, sn = fmt_pct(c), fmt_pct(n0)
                sec.findings.append(Finding(
                    res.name, f"The chance to survive all {last} turns is {sn} without "
                    f"protection and {sc} with CASE.",
                    [("survival", "CASE", cols[0], float(c), sc),
                     ("survival", base, cols[0], float(n0), sn)], lead=False))
    return sec


def _generic(res: Result) -> Section:
    """A fallback for experiments without a dedicated builder: a table of the main metrics."""
    sec = Section(res)
    f = res.frame
    kinds = res.kinds
    metrics = [m for m in kinds if kinds[m] != "hist"][:6] or [
        c[:-6] for c in f.columns if c.endswith("_exact")][:6]
    params = [c for c in f.columns if not any(c == m or c.startswith(m + "_") for m in metrics)
              and c not in ("trials",) and f[c].nunique(dropna=False) > 1][:4]
    sub = f.head(30)
    idx = [" / ".join(str(sub[p].iloc[i]) for p in params) or str(i) for i in range(len(sub))]
    vals = pd.DataFrame({m: value(sub, m).to_numpy() for m in metrics}, index=idx)
    cf = {m: (fmt_pct if kinds.get(m) == "probability" else fmt_num) for m in metrics}
    sec.tables.append(_ColumnTable("summary", "Summary (first 30 rows)", vals, cf,
                                   index_name=" / ".join(params)))
    if metrics and len(sub) <= 40:
        m = metrics[0]
        with plots.style():
            fig, axes = plots.new_figure(1, 1, width=10, height=4.5)
            s = _bar_series(sub.assign(lbl=idx), "lbl", idx, m)
            plots.grouped_bars(axes[0, 0], idx, {m: s}, ylabel=m, title=m)
            for lab in axes[0, 0].get_xticklabels():
                lab.set_rotation(45)
                lab.set_ha("right")
            plots.footnote(fig, footnote_text(res))
            _save(sec, fig, "fig_summary", m, f"{m} per scenario.")
    return sec


# -------------------------------------------------------------------------------------------
# loading, rendering, writing


def load_results(results_dir: str | Path) -> list[Result]:
    """Every experiment result under ``results_dir``, in report order."""
    from sim.results import read

    root = Path(results_dir)
    if not root.is_dir():
        raise UserError(f"The 'results_dir' parameter must be an existing folder of results; "
                        f"got {str(root)!r} (not found). Run `btsim run experiments/*.toml` "
                        f"first.")
    out = []
    for sub in sorted(root.iterdir()):
        if sub.name.startswith(".") or not sub.is_dir():
            continue
        if not (sub / "summary.parquet").is_file() or not (sub / "metadata.json").is_file():
            continue
        frame, meta = read(sub)
        out.append(Result(str(meta.get("name") or sub.name), sub, frame, meta))
    if not out:
        raise UserError(f"The 'results_dir' parameter must hold experiment results "
                        f"(<name>/summary.parquet and metadata.json); got {str(root)!r} with "
                        "none. Run `btsim run experiments/*.toml` first.")

    def key(r: Result) -> tuple[int, str]:
        src = str((r.meta.get("experiment") or {}).get("source") or "")
        return (ORDER.index(r.name) if r.name in ORDER else len(ORDER), Path(src).name or r.name)

    return sorted(out, key=key)


def build_section(result: Result) -> Section:
    """Figures, tables and findings of one result (dedicated builder or the generic one)."""
    fn = BUILDERS.get(result.name, _generic)
    return fn(result)


def _check_findings(sections: Sequence[Section]) -> None:
    """Internal consistency: every quoted display string is in its text and its table cell."""
    for s in sections:
        for fd in s.findings:
            for key, row, col, _v, disp in fd.quotes:
                cell = s.table(key).cell(row, col)
                if disp not in fd.text or disp not in cell:
                    raise AssertionError(f"finding quotes {disp!r} not in {cell!r}: {fd.text}")


def _meta_lines(res: Result) -> list[tuple[str, str]]:
    m = res.meta
    exp = m.get("experiment") or {}
    scen = m.get("scenarios")
    rows = [
        ("Model", f"{res.model}" + (f": {m.get('model_description')}"
                                    if m.get("model_description") else "")),
        ("Rule set", rules_text(res)),
    ]
    opts = rule_options_text(res)
    if opts:
        rows.append(("Rule options", opts))
    if _is_mc(res):
        rows.append(("Trials", f"{int(m['trials']):,} per scenario"
                     + (f", {int(scen)} scenario rows" if scen else "")))
    else:
        rows.append(("Trials", "exact values only"))
    rows += [
        ("Seed", str(m.get("seed"))),
        ("Wall time", f"{float(m.get('wall_time_s') or 0):.1f} s on {m.get('jobs', '?')} "
                      f"job(s), {m.get('cores', '?')} cores, backend {m.get('backend', '?')}"),
        ("Fixed parameters", ", ".join(f"{k}={v}" for k, v in (exp.get("fixed") or {}).items())
         or "none"),
        ("Data", f"{res.name}/summary.parquet, {res.name}/summary.csv, "
                 f"{res.name}/metadata.json"),
        ("Version", f"btsim {m.get('btsim_version', '?')}, commit "
                    f"{str(m.get('git_commit') or 'unknown')[:12]}"),
    ]
    return rows


CSS = """
body{font-family:-apple-system,'Segoe UI',Roboto,'DejaVu Sans',Arial,sans-serif;margin:0;
 color:#1a1a1a;background:#fff;line-height:1.5}
main{max-width:1100px;margin:0 auto;padding:24px 32px 64px}
h1{font-size:1.9em;margin:.2em 0 .1em}h2{font-size:1.4em;margin-top:2.2em;
 border-bottom:2px solid #0072B2;padding-bottom:.2em}h3{font-size:1.05em;margin:1.4em 0 .4em}
.sub{color:#555;margin-top:0}.lead{background:#f3f8fc;border-left:4px solid #0072B2;
 padding:12px 20px;margin:20px 0}.lead li{margin:.35em 0}
.q{font-style:italic;color:#333}figure{margin:18px 0 26px}
figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{font-size:.9em;color:#444;margin-top:4px}
table{border-collapse:collapse;font-size:.85em;margin:6px 0 4px;display:block;
 overflow-x:auto;max-width:100%}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:right;white-space:nowrap}
th{background:#f5f5f5}td:first-child,th:first-child{text-align:left}
.note{font-size:.85em;color:#555;margin:2px 0 14px}
dl.meta{display:grid;grid-template-columns:max-content auto;gap:2px 14px;font-size:.88em;
 background:#fafafa;padding:10px 14px;border:1px solid #eee}
dl.meta dt{font-weight:600;color:#444}dl.meta dd{margin:0}
nav ol{columns:2;font-size:.95em}
"""


def _html_table(t: Table) -> str:
    d = t.display()
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in d.columns)
    rows = []
    for r in d.index:
        cells = "".join(f"<td>{html.escape(str(d.loc[r, c]))}</td>" for c in d.columns)
        rows.append(f"<tr><td>{html.escape(str(r))}</td>{cells}</tr>")
    cap = html.escape(d.index.name or "")
    out = (f"<h3>{html.escape(t.title)}</h3><table><thead><tr><th>{cap}</th>{head}</tr>"
           f"</thead><tbody>{''.join(rows)}</tbody></table>")
    if t.note:
        out += f'<p class="note">{html.escape(t.note)}</p>'
    return out


def _md_table(t: Table) -> str:
    d = t.display()

    def esc(x: Any) -> str:
        return str(x).replace("|", "\\|").replace("\n", " ")

    lines = [f"**{t.title}**", "",
             "| " + " | ".join([esc(d.index.name or "")] + [esc(c) for c in d.columns]) + " |",
             "|" + "---|" * (len(d.columns) + 1)]
    for r in d.index:
        lines.append("| " + " | ".join([esc(r)] + [esc(d.loc[r, c]) for c in d.columns]) + " |")
    if t.note:
        lines += ["", f"*{t.note}*"]
    return "\n".join(lines)


def _anchor(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def render_html(sections: Sequence[Section], lead: Sequence[Finding], title: str) -> str:
    """The self-contained HTML report."""
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width,initial-scale=1'>"
             f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body><main>",
             f"<h1>{html.escape(title)}</h1>",
             "<p class='sub'>Monte Carlo and exact results of the btsim experiment suite. "
             "Every number below is computed; tables show exact values where the model has "
             "them, Monte Carlo means otherwise.</p>",
             "<section class='lead'><h3>Key findings</h3><ul>"]
    parts += [f"<li>{html.escape(fd.text)}</li>" for fd in lead]
    parts.append("</ul></section><nav><ol>")
    parts += [f"<li><a href='#{_anchor(s.result.name)}'>{html.escape(s.result.title)}</a></li>"
              for s in sections]
    parts.append("</ol></nav>")
    for s in sections:
        r = s.result
        parts.append(f"<section id='{_anchor(r.name)}' data-experiment='{html.escape(r.name)}'>"
                     f"<h2>{html.escape(r.title)}</h2>")
        if r.question:
            parts.append(f"<p class='q'>Question: {html.escape(r.question)}</p>")
        if r.description:
            parts.append(f"<p>Set-up: {html.escape(r.description)}</p>")
        if s.findings:
            parts.append("<ul>" + "".join(f"<li>{html.escape(fd.text)}</li>"
                                          for fd in s.findings) + "</ul>")
        for fig in s.figures:
            b64 = base64.b64encode(fig.png.read_bytes()).decode("ascii")
            parts.append(f"<figure data-figure='{html.escape(fig.key)}'><img alt="
                         f"'{html.escape(fig.title)}' src='data:image/png;base64,{b64}'>"
                         f"<figcaption><b>{html.escape(fig.title)}.</b> "
                         f"{html.escape(fig.caption)} (files: {html.escape(r.name)}/"
                         f"{fig.png.name}, {fig.svg.name})</figcaption></figure>")
        for t in s.tables:
            parts.append(_html_table(t))
        for n in s.notes:
            parts.append(f"<p class='note'>{html.escape(n)}</p>")
        parts.append("<h3>Run</h3><dl class='meta'>" + "".join(
            f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in _meta_lines(r))
            + "</dl></section>")
    parts.append("</main></body></html>\n")
    return "\n".join(parts)


def render_markdown(sections: Sequence[Section], lead: Sequence[Finding], title: str) -> str:
    """The Markdown report; figures are linked relative to the results folder."""
    out = [f"# {title}", "",
           "Monte Carlo and exact results of the btsim experiment suite. Tables show exact "
           "values where the model has them, Monte Carlo means otherwise.", "",
           "## Key findings", ""]
    out += [f"- {fd.text}" for fd in lead]
    for s in sections:
        r = s.result
        out += ["", f"## {r.title}", ""]
        if r.question:
            out += [f"*Question: {r.question}*", ""]
        if r.description:
            out += [f"Set-up: {r.description}", ""]
        out += [f"- {fd.text}" for fd in s.findings]
        if s.findings:
            out.append("")
        for fig in s.figures:
            out += [f"![{fig.title}]({r.name}/{fig.png.name})", "",
                    f"*{fig.title}.* {fig.caption} ([SVG]({r.name}/{fig.svg.name}))", ""]
        for t in s.tables:
            out += [_md_table(t), ""]
        for n in s.notes:
            out += [f"*{n}*", ""]
        out += ["| Run | |", "|---|---|"]
        out += [f"| {k} | {v.replace('|', '/')} |" for k, v in _meta_lines(r)]
    return "\n".join(out) + "\n"


def build_report(results_dir: str | Path = "results",
                 title: str = "btsim balance report") -> Report:
    """Rebuild every figure and the HTML/Markdown report from saved results (no rerun)."""
    root = Path(results_dir)
    results = load_results(root)
    sections = [build_section(r) for r in results]
    _check_findings(sections)
    findings = [fd for s in sections for fd in s.findings]
    lead = [fd for fd in findings if fd.lead]
    html_path = root / "report.html"
    md_path = root / "report.md"
    html_text = render_html(sections, lead, title)  # render both before writing either
    md_text = render_markdown(sections, lead, title)
    for path, text in ((html_path, html_text), (md_path, md_text)):
        atomic_write_text(path, text)
        plots.publish_mode(path)
    figs = [p for s in sections for fig in s.figures for p in (fig.png, fig.svg)]
    return Report(html_path, md_path, figs, sections, findings)
