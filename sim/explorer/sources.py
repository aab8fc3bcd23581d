"""The explorer's data layer: a declared list of sources, one function per kind of result.

A source (:class:`Source`) turns the saved results (:class:`Inputs`) into one block of
columnar JSON (:mod:`sim.explorer.columnar`) or None when its results are absent. A block may
hold:

* ``tables``: name -> columnar table (what its views plot);
* ``units``: per-unit columns the catalog table joins on ``unit``: ``{"table": ..., "specs":
  [column spec, ...]}``; a spec names the column (``key``), its header (``label``), ``type``
  (``num`` or ``text``), ``digits``, ``lo``/``hi`` (the columns of its 95% interval) or
  ``exact: true``, ``hidden`` (hidden until the reader shows it) and ``doc`` (the header's
  tooltip);
* ``assumptions``: what its views state under them (experiment, question, set-up, rules,
  trials, seed), from the results' metadata;
* anything else its view reads (a fitted curve).

Adding a kind of result (a rating summary, a new round-robin) is one function and one line
in :data:`SOURCES`: its per-unit columns appear in the catalog table, its tables in the page's
data. The page itself (:mod:`sim.explorer.page`) knows the blocks by name.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.explorer.columnar import estimates, frame_table, table
from sim.report.types import Result

Block = dict[str, Any]

#: per-unit columns a rating summary (``btsim rate``) has; a results file with all of them is
#: read by :func:`rating_source`
RATING_COLUMNS = ("unit", "price", "fair_price", "fair_price_ci_low", "fair_price_ci_high",
                  "ratio", "verdict", "robustness", "n")

#: Classic ranges (hexes) the catalog reads a 'Mech's sustained damage at: one short,
#: medium and long range of most weapons (a medium laser's long range is 9, an LRM's 21)
CATALOG_RANGES = (3, 9, 15)

#: Master Unit List eras by introduction year (first year of each era; masterunitlist.info)
ERAS: tuple[tuple[int, str], ...] = (
    (-10_000, "Age of War"), (2571, "Star League"), (2781, "Early Succession War"),
    (2901, "Late Succession War - LosTech"), (3020, "Late Succession War - Renaissance"),
    (3050, "Clan Invasion"), (3062, "Civil War"), (3068, "Jihad"),
    (3086, "Early Republic"), (3101, "Late Republic"), (3131, "Dark Age"), (3151, "ilClan"),
)


def era_of(year: float | None) -> str | None:
    """The Master Unit List era of an introduction year (None when unknown)."""
    if year is None or not math.isfinite(float(year)):
        return None
    name = None
    for start, label in ERAS:
        if year >= start:
            name = label
    return name


@dataclass
class Inputs:
    """The saved results a page is built from: every experiment result under ``root``
    (:func:`sim.report.build.load_results`) and the folder itself (for files that are not
    a run's summary, such as a rating summary)."""

    root: Path
    results: list[Result]

    def by_section(self, name: str) -> list[Result]:
        """The results that name report section ``name``."""
        from sim.report import registry

        return [r for r in self.results if registry.for_result(r).name == name]

    def first(self, name: str) -> Result | None:
        found = self.by_section(name)
        return found[0] if found else None


@dataclass(frozen=True)
class Source:
    """One kind of result: its block name, a one-line description and its builder."""

    name: str
    doc: str
    build: Callable[[Inputs], Block | None]


def assumptions(res: Result) -> dict[str, Any]:
    """What a view built from ``res`` states under it: experiment, question, set-up and the
    run's lines (model, rules, trials, seed, version: the report's "Run" box)."""
    from sim.report.rendering import meta_lines

    return {"experiment": res.name, "title": res.title, "question": res.question,
            "setup": res.description, "run": [list(kv) for kv in meta_lines(res)],
            "notes": [str(n) for n in (res.meta.get("notes") or [])][:20]}


# -- the catalog -------------------------------------------------------------------------------
def _shared_units_dir() -> Path | None:
    """``shared/data/units`` beside the checkout (where the repository's unit data lives),
    if present; the catalog table then shows the Master Unit List's role and era."""
    here = Path(__file__).resolve()
    for up in here.parents[2:4]:
        for cand in (up / "shared" / "data" / "units", up.parent / "shared" / "data" / "units"):
            if (cand / "mul_mechs.csv").is_file():
                return cand
    return None


@cache
def mul_facts(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """Name -> Master Unit List facts (tons, BV, PV, role, rules level, introduction year)
    from ``mul_mechs.csv`` (default: :func:`_shared_units_dir`); empty when absent."""
    path = path or ((_shared_units_dir() or Path("/nonexistent")) / "mul_mechs.csv")
    if not path.is_file():
        return {}
    out: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            def num(k: str, row: dict[str, str] = row) -> float | None:
                try:
                    return float(row.get(k) or "")
                except ValueError:
                    return None
            out[row["name"]] = {"tons": num("tons"), "bv": num("bv"), "pv": num("pv"),
                                "role": row.get("role") or None,
                                "rules": row.get("rules") or None, "intro": num("intro")}
    return out


def heat_balance(name: str) -> float | None:
    """Heat dissipated per turn minus the heat of firing every forward weapon once while
    walking (13.2-13.3, the fire model's own scenario): >= 0 is heat-neutral; None when the
    'Mech has no Classic record."""
    from sim.errors import UserError
    from sim.models import get_model

    try:
        scn = get_model("fire").scenario({"unit": name, "range": 1, "moved": "walk",
                                          "policy": "all"})
    except (UserError, ValueError, KeyError):
        return None
    fire = sum(g.heat_of(g.rate) for g in scn.guns)
    return float(scn.dissipation - fire - int(scn.move_heat[0]))


def catalog_source(inp: Inputs) -> Block:
    """Every unit of the built-in catalog and of the results: game, tonnage, tech base, role,
    era, BV, PV, the Alpha Strike card's damage, heat balance and which results hold it."""
    from sim.units import catalog as C

    mul = mul_facts()
    units: dict[str, dict[str, Any]] = {}
    for e in C.entries():
        m, c = e.classic, e.card
        f = mul.get(e.name, {})
        units[e.name] = {
            "unit": e.name,
            "game": "+".join(g for g, ok in (("Classic", m), ("AS", c)) if ok is not None),
            "tons": m.tons if m else f.get("tons"),
            "tech": m.tech_base if m else None,
            "role": f.get("role"), "era": era_of(f.get("intro")), "intro": f.get("intro"),
            "rules": f.get("rules"),
            "bv": (m.bv if m and m.bv is not None else f.get("bv")),
            "pv": (c.pv if c and c.pv is not None else f.get("pv")),
            "as_size": c.size if c else None,
            "as_dmg_s": c.damage[0] if c else None, "as_dmg_m": c.damage[1] if c else None,
            "as_dmg_l": c.damage[2] if c else None,
            "heat": heat_balance(e.name) if m else None,
            "unknown_equipment": len(getattr(m, "unknown_equipment", ()) or ()) if m else None,
        }
    # units that only the results know (imported or synthetic): a name, the game from the run
    for r in inp.results:
        for col in ("unit", "a", "b", "unit_a", "unit_b"):
            if col in r.frame.columns:
                for u in pd.unique(r.frame[col].astype(str)):
                    if "," in str(u):  # a force (several units), not a unit
                        continue
                    name = u.rpartition("@")[0] if "@" in u else u
                    units.setdefault(name, {"unit": name, "game": "AS" if r.model in (
                        "duel", "heat") else "Classic"})
    found: dict[str, list[str]] = {u: [] for u in units}
    for r in inp.results:
        names: set[str] = set()
        for col in ("unit", "a", "b", "unit_a", "unit_b", "attacker"):
            if col in r.frame.columns:
                names |= {str(u).rpartition("@")[0] if "@" in str(u) else str(u)
                          for u in pd.unique(r.frame[col].astype(str)) if "," not in str(u)}
        for u in names & set(units):
            found[u].append(r.name)
    rows = list(units.values())
    cols: dict[str, list[Any]] = {k: [row.get(k) for row in rows] for k in (
        "unit", "game", "tons", "tech", "role", "era", "intro", "rules", "bv", "pv", "as_size",
        "as_dmg_s", "as_dmg_m", "as_dmg_l", "heat", "unknown_equipment")}
    n_res = max(1, len(inp.results))
    cols["results"] = [len(found[r["unit"]]) for r in rows]
    cols["in"] = [", ".join(found[r["unit"]]) for r in rows]
    specs = [
        {"key": "unit", "label": "unit", "type": "text"},
        {"key": "game", "label": "game", "type": "text",
         "doc": "Classic: a record sheet in the catalog; AS: an Alpha Strike card"},
        {"key": "tons", "label": "tons", "type": "num", "digits": 0, "exact": True},
        {"key": "tech", "label": "tech base", "type": "text"},
        {"key": "role", "label": "role", "type": "text", "doc": "Master Unit List role"},
        {"key": "era", "label": "era", "type": "text",
         "doc": "Master Unit List era of the introduction year"},
        {"key": "intro", "label": "intro", "type": "num", "digits": 0, "exact": True,
         "hidden": True},
        {"key": "rules", "label": "rules level", "type": "text", "hidden": True},
        {"key": "bv", "label": "BV", "type": "num", "digits": 0, "exact": True,
         "doc": "official Battle Value (catalog / Master Unit List)"},
        {"key": "pv", "label": "PV", "type": "num", "digits": 0, "exact": True,
         "doc": "official Alpha Strike Point Value at skill 4"},
        {"key": "as_size", "label": "AS size", "type": "num", "digits": 0, "exact": True,
         "hidden": True},
        {"key": "as_dmg_s", "label": "AS dmg S", "type": "num", "digits": 0, "exact": True,
         "doc": "card damage at short range"},
        {"key": "as_dmg_m", "label": "AS dmg M", "type": "num", "digits": 0, "exact": True},
        {"key": "as_dmg_l", "label": "AS dmg L", "type": "num", "digits": 0, "exact": True},
        {"key": "heat", "label": "heat balance", "type": "num", "digits": 0, "exact": True,
         "doc": "heat dissipated per turn minus the heat of firing every forward weapon "
                "while walking: 0 or more is heat-neutral"},
        {"key": "unknown_equipment", "label": "unknown items", "type": "num", "digits": 0,
         "exact": True, "hidden": True,
         "doc": "record-sheet entries btsim does not simulate"},
        {"key": "results", "label": "completeness", "type": "num", "digits": 0,
         "exact": True, "of": n_res,
         "doc": f"how many of the {n_res} experiment results hold the unit (column 'in')"},
        {"key": "in", "label": "in results", "type": "text", "hidden": True},
    ]
    return {"title": "Catalog", "units": {"table": table(cols), "specs": specs},
            "mul": bool(mul)}


# -- computed prices: BV 2 and the converted Alpha Strike card ------------------------------------
def _design(mech: Any) -> Any:
    """The design a computed price reads: the unit's ``.mtf`` file when its record names
    one (every fact), else the catalog record (``units show --json`` does the same,
    :func:`sim.cli.units_prices.computed_prices`)."""
    from sim.units.design.reader import design_of, read_design_file

    source = Path(mech.source) if getattr(mech, "source", None) else None
    if source is not None and source.suffix.lower() == ".mtf" and source.is_file():
        return read_design_file(source)
    return design_of(mech)


def prices_source(inp: Inputs) -> Block | None:
    """Computed prices of every Classic 'Mech of the built-in catalog (issue 20): Battle
    Value 2 (:func:`sim.units.battle_value`, reference-bv.md 21-22) and the converted Alpha
    Strike card's PV (:func:`sim.units.alpha_strike_card`, reference-as-conversion.md 2.9),
    each with the derivation steps those functions return; a unit outside a reference's
    scope gets the reason instead. Both are exact computations from the record."""
    from sim.errors import UserError
    from sim.units import catalog as C
    from sim.units.as_conversion import alpha_strike_card
    from sim.units.bv2 import battle_value

    cols: dict[str, list[Any]] = {"unit": [], "bv_computed": [], "pv_computed": []}
    steps: dict[str, dict[str, Any]] = {}
    for e in C.entries():
        m = e.classic
        if m is None:
            continue
        out: dict[str, Any] = {}
        bv = pv = None
        try:
            design = _design(m)
        except (UserError, ValueError, KeyError, OSError) as exc:
            out["bv_refused"] = out["as_refused"] = f"record not readable: {exc}"
        else:
            try:
                b = battle_value(design)
                bv = b.bv
                out["bv"] = b.lines()
                out["assumed"] = [str(a) for a in b.assumed]
            except (UserError, ValueError, KeyError) as exc:
                out["bv_refused"] = str(exc)
            try:
                c = alpha_strike_card(design)
                pv = c.fields["pv"]
                out["as"] = c.lines()
            except (UserError, ValueError, KeyError) as exc:
                out["as_refused"] = str(exc)
        cols["unit"].append(e.name)
        cols["bv_computed"].append(bv)
        cols["pv_computed"].append(pv)
        steps[e.name] = out
    if not cols["unit"]:
        return None
    specs = [
        {"key": "bv_computed", "after": "bv", "label": "BV computed", "type": "num",
         "digits": 0, "exact": True,
         "doc": "Battle Value 2 computed from the record (reference-bv.md 21-22, btsim units "
                "bv); the unit view shows every step"},
        {"key": "pv_computed", "after": "pv", "label": "PV computed", "type": "num",
         "digits": 0, "exact": True,
         "doc": "PV of the Alpha Strike card converted from the record "
                "(reference-as-conversion.md 2.9, btsim units card); the unit view shows "
                "the derivation"},
    ]
    return {"title": "Computed prices", "units": {"table": table(cols), "specs": specs},
            "steps": steps,
            "assumptions": [{"experiment": "units", "title": "Computed BV and PV",
                             "question": "What do the record's facts price the unit at?",
                             "setup": "Battle Value 2 at Gunnery 4 / Piloting 5 and the "
                                      "converted card's PV at skill 4, computed from the "
                                      "record with the default options (btsim rules "
                                      "--game battle-value / as-conversion); exact.",
                             "run": [], "notes": []}]}


# -- Classic fire: damage versus range, heat curves ------------------------------------------------
def fire_profiles_source(inp: Inputs) -> Block | None:
    """Damage versus range of Classic 'Mechs (``fire-profiles``): max, hit-weighted and
    sustained per policy with intervals; the catalog gets sustained damage at
    :data:`CATALOG_RANGES` under the hottest policy."""
    res = inp.first("fire-profiles")
    if res is None:
        return None
    from sim.classic.fire import balance as FB

    f = res.frame
    policy = f["policy"].astype(str) if "policy" in f.columns else pd.Series("all", f.index)
    cols: dict[str, list[Any]] = {"unit": f["unit"].astype(str).tolist(),
                                  "policy": policy.tolist(),
                                  "range": pd.to_numeric(f["range"]).tolist()}
    for m in ("max_damage", "hit_weighted", "sustained"):
        cols.update(estimates(f, m))
    prof = pd.DataFrame(cols)
    hottest = FB.ordered_policies(policy)[-1]
    sub = prof[prof["policy"] == hottest]
    ucols: dict[str, list[Any]] = {"unit": []}
    specs = []
    for r in CATALOG_RANGES:
        for k in ("", "_lo", "_hi", "_x"):
            ucols[f"dmg{r}{k}"] = []
        specs.append({"key": f"dmg{r}", "label": f"dmg @{r}", "type": "num", "digits": 1,
                      "after": "as_dmg_l",
                      "lo": f"dmg{r}_lo", "hi": f"dmg{r}_hi", "x": f"dmg{r}_x",
                      "doc": f"Classic sustained damage per turn at {r} hexes, policy "
                             f"'{hottest}', Gunnery 4, heat carried ({res.name})"})
    for u, g in sub.groupby("unit", sort=False):
        ucols["unit"].append(u)
        longest = g["range"].max()
        for r in CATALOG_RANGES:
            row = g[g["range"] == r]
            if row.empty:  # out of range: no weapon reaches, 0 damage exactly
                v, lo, hi, x = (0.0, None, None, 1) if r > longest else (None,) * 4
            else:
                v, lo, hi = (row["sustained"].iloc[0], row["sustained_lo"].iloc[0],
                             row["sustained_hi"].iloc[0])
                x = int(row["sustained_x"].iloc[0]) if "sustained_x" in row else 0
            ucols[f"dmg{r}_x"].append(x)
            ucols[f"dmg{r}"].append(v)
            ucols[f"dmg{r}_lo"].append(lo)
            ucols[f"dmg{r}_hi"].append(hi)
    return {"title": res.title, "tables": {"profiles": frame_table(prof)},
            "policies": FB.ordered_policies(policy), "units": {"table": table(ucols),
                                                               "specs": specs},
            "assumptions": [assumptions(res)]}


def _curves(res: Result, keys: Iterable[str], metrics: Iterable[str]) -> dict[str, Any]:
    f = res.frame
    cols: dict[str, list[Any]] = {}
    for k in keys:
        if k in f.columns:
            cols[k] = f[k].astype(str).tolist() if f[k].dtype == object or k != "turn" \
                else pd.to_numeric(f[k]).tolist()
    for m in metrics:
        if m in f.columns or m + "_exact" in f.columns:
            cols.update(estimates(f, m))
    return frame_table(pd.DataFrame(cols))


def heat_source(inp: Inputs) -> Block | None:
    """Heat and shutdown curves per turn and firing policy: Classic weapon fire
    (``weapon-fire``) and Alpha Strike overheat (``heat-curves``)."""
    out: Block = {"title": "Heat and shutdown", "tables": {}, "assumptions": []}
    wf = inp.first("weapon-fire")
    if wf is not None:
        out["tables"]["classic"] = _curves(wf, ("unit", "policy", "turn"), (
            "mean_heat", "p_shutdown_by", "expected_damage", "p_ammo_explosion_by"))
        out["assumptions"].append(assumptions(wf))
    hc = inp.first("heat-curves")
    if hc is not None:
        f = hc.frame
        f = f.assign(incoming=f["incoming"].astype(str).map(
            lambda s: "none" if s in ("", "[]") else s),
            water=f["water"].astype(str)) if "incoming" in f.columns else f
        sub = Result(hc.name, hc.folder, f, hc.meta)
        out["tables"]["alphastrike"] = _curves(sub, ("unit", "policy", "water", "incoming",
                                                     "range", "turn"), (
            "mean_heat", "p_shutdown_by", "expected_damage", "p_destroyed_by"))
        out["assumptions"].append(assumptions(hc))
    return out if out["tables"] else None


# -- duels --------------------------------------------------------------------------------------
def _duel_table(res: Result) -> tuple[dict[str, Any], pd.DataFrame]:
    """One row per duel of a round-robin: sides, scenario, P(A wins) with its interval,
    P(B wins), P(draw), P(timeout), score and expected turns."""
    from sim.report import fits

    d = fits.duels(res)
    f = res.frame
    keys = [c for c in ("a", "b", "range") if c in d.columns]
    if "turn" in f.columns:
        # the row DA.duels reads: the first turn's (a run's scalar metrics repeat on
        # every per-turn row)
        f = f.sort_values("turn", kind="stable").groupby([f[k].astype(str) for k in (
            ["a", "b"] if "a" in f.columns else ["unit_a", "unit_b"]) + ["range"]],
            sort=False).head(1)
        f = f.assign(a=f["a"] if "a" in f.columns else f["unit_a"],
                     b=f["b"] if "b" in f.columns else f["unit_b"])
    f = f.assign(**{k: f[k].astype(str) for k in keys})
    ci = f[keys].copy()
    for m in ("p_win_a", "p_win_b"):
        e = estimates(f, m)
        ci[f"{m}_lo"] = e[f"{m}_lo"]
        ci[f"{m}_hi"] = e[f"{m}_hi"]
        ci[f"{m}_x"] = e.get(f"{m}_x", [0] * len(f))
    d = d.merge(ci, on=keys, how="left")
    cols = {"a": d["unit_a"], "b": d["unit_b"], "range": d["range"].astype(str),
            "p_win_a": d["p_win_a"], "p_win_a_lo": d["p_win_a_lo"],
            "p_win_a_hi": d["p_win_a_hi"], "p_win_b": d["p_win_b"],
            "p_win_b_lo": d["p_win_b_lo"], "p_win_b_hi": d["p_win_b_hi"],
            "p_win_a_x": d["p_win_a_x"].astype(int), "p_win_b_x": d["p_win_b_x"].astype(int),
            "p_draw": d["p_draw"], "p_timeout": d["p_timeout"], "score_a": d["score_a"],
            "turns": d["expected_turns"], "trials": d["trials"]}
    return frame_table(pd.DataFrame(cols)), d


def _fit(res: Result, cost: str) -> tuple[Any, Any, pd.DataFrame]:
    """Ratings, fairness curve and outliers of a round-robin: the very numbers its report
    section shows (:mod:`sim.report.fits`, computed once per build, with the section's
    bootstrap size)."""
    from sim.report import fits
    from sim.report.sections import classic_round_robin, duel_round_robin

    N_BOOT = (classic_round_robin if cost == "bv" else duel_round_robin).N_BOOT
    return (fits.ratings(res, cost, N_BOOT), fits.fairness(res, cost, N_BOOT),
            fits.outliers(res, cost, N_BOOT))


def _fairness_block(inp: Inputs, res: Result, cost: str, game: str) -> Block:
    """Strengths, the fairness curve of ``cost`` with its band, and each unit's fair cost
    with its interval and verdict (:mod:`sim.alphastrike.duel.analysis`)."""
    rat, fit, out = _fit(res, cost)
    up = cost.upper()
    lc = np.log(out[cost].to_numpy(float))
    known = np.isfinite(lc)
    centre = float(lc[known].mean()) if known.any() else 0.0
    # the strength line theta = beta (ln cost - centre) with the bootstrap band of beta
    xs = np.linspace(lc[known].min(), lc[known].max(), 40) if known.any() else np.array([])
    bands = np.outer(fit.boot, xs - centre) if len(fit.boot) else np.outer([fit.beta],
                                                                          xs - centre)
    line = {"price": np.exp(xs).tolist(), "theta": (fit.beta * (xs - centre)).tolist(),
            "lo": np.percentile(bands, 2.5, axis=0).tolist(),
            "hi": np.percentile(bands, 97.5, axis=0).tolist()}
    c = fit.curve[fit.curve["x"] >= 0]
    gap = {"ratio": c["ratio"].tolist(), "p": c["p"].tolist(), "lo": c["lo"].tolist(),
           "hi": c["hi"].tolist()}
    ratio = out[cost] / out[f"fair_{cost}"]
    units = {
        "unit": out["unit"], f"{game}_theta": out["theta"],
        f"{game}_theta_lo": _theta_ci(rat, out, "ci_low"),
        f"{game}_theta_hi": _theta_ci(rat, out, "ci_high"),
        f"{game}_fair": out[f"fair_{cost}"], f"{game}_fair_lo": out[f"fair_{cost}_low"],
        f"{game}_fair_hi": out[f"fair_{cost}_high"], f"{game}_ratio": ratio,
        f"{game}_ratio_lo": out[cost] / out[f"fair_{cost}_high"],
        f"{game}_ratio_hi": out[cost] / out[f"fair_{cost}_low"],
        f"{game}_verdict": out["verdict"], f"{game}_z": out["z"],
    }
    g = "AS" if game == "as" else "Classic"
    after = "pv" if cost == "pv" else "bv"
    specs = [
        {"key": f"{game}_theta", "after": after, "label": f"{g} strength", "type": "num", "digits": 2,
         "lo": f"{game}_theta_lo", "hi": f"{game}_theta_hi",
         "doc": f"Bradley-Terry strength in the {g} round-robin ({res.name}), 95% Monte "
                "Carlo interval"},
        {"key": f"{game}_fair", "after": after, "label": f"fair {up}", "type": "num", "digits": 0,
         "lo": f"{game}_fair_lo", "hi": f"{game}_fair_hi",
         "doc": f"the {up} at which the {up} fairness curve predicts the unit's strength"},
        {"key": f"{game}_ratio", "after": after, "label": f"{up} / fair", "type": "num", "digits": 2,
         "lo": f"{game}_ratio_lo", "hi": f"{game}_ratio_hi",
         "doc": f"official {up} over fair {up}: below 1 under-costed, above 1 over-costed"},
        {"key": f"{game}_verdict", "after": after, "label": f"{g} verdict", "type": "text",
         "doc": "under-costed / over-costed when the residual's 95% interval excludes 0"},
        {"key": f"{game}_z", "after": after, "label": f"{g} z", "type": "num", "digits": 1, "hidden": True,
         "exact": True,
         "doc": "residual over the catalog's robust spread around the curve (robustness)"},
    ]
    return {
        "cost": cost, "game": g, "experiment": res.name, "beta": fit.beta,
        "beta_lo": fit.beta_low, "beta_hi": fit.beta_high, "centre": centre,
        "points": frame_table(pd.DataFrame({
            "unit": out["unit"], "price": out[cost], "theta": out["theta"],
            "theta_lo": units[f"{game}_theta_lo"], "theta_hi": units[f"{game}_theta_hi"],
            "predicted": out["predicted"], "residual": out["residual"],
            "residual_lo": out["ci_low"], "residual_hi": out["ci_high"],
            "fair": out[f"fair_{cost}"], "fair_lo": out[f"fair_{cost}_low"],
            "fair_hi": out[f"fair_{cost}_high"], "verdict": out["verdict"]})),
        "line": line, "gap": gap,
        "units": {"table": frame_table(pd.DataFrame(units)), "specs": specs},
        "assumptions": [assumptions(res)],
    }


def _theta_ci(rat: Any, out: pd.DataFrame, col: str) -> list[float]:
    t = rat.table
    t = t[t["range"] == "all"] if (t["range"] == "all").any() else t
    return t.set_index("unit").loc[out["unit"], col].astype(float).tolist()


def _scenarios(res: Result) -> list[str]:
    """The round-robin's scenarios (ranges) in reading order: short to long, or by the
    number of hexes (a Classic brawl at 1 hex first)."""
    from sim.alphastrike.duel import analysis as DA

    found = [str(r) for r in pd.unique(res.frame["range"].astype(str))]
    if all(r.isdigit() for r in found):
        return sorted(found, key=int)
    return DA.ordered_ranges(found)


def as_duels_source(inp: Inputs) -> Block | None:
    """The Alpha Strike round-robin (``duel-round-robin``): every duel with P(win) and its
    interval; the PV fairness fit (strengths, fair PV, verdicts)."""
    res = inp.first("duel-round-robin")
    if res is None:
        return None
    duels, _ = _duel_table(res)
    return {"title": res.title, "game": "AS", "tables": {"duels": duels},
            "scenarios": _scenarios(res),
            "scenario": "range", "fairness": _fairness_block(inp, res, "pv", "as"),
            "assumptions": [assumptions(res)]}


def classic_duels_source(inp: Inputs) -> Block | None:
    """The Classic round-robin (``classic-round-robin``): every duel with P(win) and its
    interval, the per-turn destruction curves (and their causes where the run recorded
    them), and the BV fairness fit."""
    res = inp.first("classic-round-robin")
    if res is None:
        return None
    duels, _ = _duel_table(res)
    f = res.frame
    causes = sorted({c for c in f.columns if c.startswith(("p_a_destroyed_by_",
                                                            "p_b_destroyed_by_"))
                     and not c.endswith(("_se", "_ci_low", "_ci_high", "_n", "_exact"))})
    metrics = ["p_a_destroyed_by", "p_b_destroyed_by", "expected_damage_a",
               "expected_damage_b"]
    sides = f.assign(a=f["unit_a"].astype(str), b=f["unit_b"].astype(str),
                     range=f["range"].astype(str))
    turns = _curves(Result(res.name, res.folder, sides, res.meta), ("a", "b", "range", "turn"),
                    metrics)
    tables = {"duels": duels, "turns": turns}
    if causes:
        # a cause is a whole-duel metric (the same on every per-turn row): one row a duel
        one = sides.sort_values("turn", kind="stable").groupby(
            ["a", "b", "range"], sort=False).head(1) if "turn" in sides.columns else sides
        tables["causes"] = _curves(Result(res.name, res.folder, one, res.meta),
                                   ("a", "b", "range"), causes)
    return {"title": res.title, "game": "Classic", "tables": tables,
            "causes": causes, "scenario": "range", "scenarios": _scenarios(res),
            "fairness": _fairness_block(inp, res, "bv", "classic"),
            "assumptions": [assumptions(res)]}


# -- tactic matrices and force fights -----------------------------------------------------------
#: the outcome metrics of a tactic-matrix cell or a force fight, as the explorer shows them
OUTCOMES = ("p_win_a", "p_win_b", "p_draw", "p_timeout", "expected_turns")


def _first_turn(f: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """One row per scenario (a duel's whole-fight metrics repeat on its per-turn rows)."""
    if "turn" not in f.columns:
        return f
    return f.sort_values("turn", kind="stable").groupby(
        [f[k].astype(str) for k in keys], sort=False).head(1)


def _outcome_cols(f: pd.DataFrame) -> dict[str, list[Any]]:
    """P(A wins), P(B wins), P(draw), P(timeout), E[turns] of every row with their 95%
    intervals (:func:`estimates`) and A's score (P(A wins) + 1/2 the rest)."""
    cols: dict[str, list[Any]] = {}
    for m in OUTCOMES:
        if m in f.columns or m + "_exact" in f.columns:
            cols.update(estimates(f, m))
    if "p_win_a" in cols and "p_win_b" in cols:
        pa = np.asarray(cols["p_win_a"], float)
        pb = np.asarray(cols["p_win_b"], float)
        cols["score_a"] = (pa + 0.5 * (1 - pa - pb)).tolist()
    return cols


def _side_cols(f: pd.DataFrame) -> tuple[str, str]:
    return ("a", "b") if "a" in f.columns else ("unit_a", "unit_b")


def _unit_label(side: str) -> str:
    """A one-unit side's unit name (``"Atlas AS7-D@4"`` -> ``"Atlas AS7-D"``); a force's
    label unchanged."""
    name, at, skill = side.rpartition("@")
    return name if at and "," not in side and skill.strip().isdigit() else side


def _matrix_files(root: Path) -> list[Path]:
    """JSON files under ``root`` (one folder deep) written by ``btsim duel A B --tactics
    matrix --json`` (keys ``a``, ``b``, ``rows``, ``cols``, ``cells``)."""
    if not root.is_dir():
        return []
    found = sorted(root.glob("*.json")) + sorted(root.glob("*/*.json"))
    return [p for p in found if p.name != "metadata.json" and not p.parent.name.startswith(".")]


def _matrix_records() -> dict[str, list[Any]]:
    """Empty columns of the tactics block's cells (:func:`_add_matrix` fills them)."""
    rec: dict[str, list[Any]] = {k: [] for k in ("a", "b", "range", "tactic_a", "tactic_b",
                                                 "src")}
    for m in OUTCOMES[:2] + ("expected_turns", "score_a"):
        for k in ("", "_lo", "_hi"):
            rec[m + k] = []
    rec["p_win_a_x"] = []
    return rec


def _add_matrix(rec: dict[str, list[Any]], doc: dict[str, Any], a: str, b: str, rng: str,
                src: str) -> None:
    """Append one cell row per (A's tactic, B's tactic) of a matrix in the layout of
    :meth:`sim.tactics.TacticMatrix.to_dict` (``rows``, ``cols``, ``cells``)."""
    for ta, line in zip(doc.get("rows") or [], doc.get("cells") or [], strict=False):
        for tb, c in zip(doc.get("cols") or [], line, strict=False):
            rec["a"].append(_unit_label(a))
            rec["b"].append(_unit_label(b))
            rec["range"].append(rng)
            rec["tactic_a"].append(str(ta))
            rec["tactic_b"].append(str(tb))
            rec["src"].append(src)
            exact = bool(c.get("exact"))
            rec["p_win_a_x"].append(int(exact))
            for m in ("p_win_a", "p_win_b", "expected_turns", "score_a"):
                e = c.get(m) or {}
                rec[m].append(e.get("value"))
                rec[m + "_lo"].append(None if exact else e.get("lo"))
                rec[m + "_hi"].append(None if exact else e.get("hi"))


def tactics_source(inp: Inputs) -> Block | None:
    """Tactic matrices (issue 22, :mod:`sim.tactics`) where the results hold them: a duel
    result whose grid sweeps both ``tactic_a`` and ``tactic_b`` (every pairing's cells), a
    round-robin's ``tactic_matrices`` (Alpha Strike or Classic: its most and least
    surprising pairings, :mod:`sim.tactic_report`) and files of ``btsim duel A B --tactics
    matrix --json`` saved in the results folder. One row per (pairing, scenario, A's
    tactic, B's tactic) with P(win) and its interval."""
    import json

    rows: list[pd.DataFrame] = []
    where: list[str] = []
    files: list[dict[str, Any]] = []
    for r in inp.results:
        f = r.frame
        if not {"tactic_a", "tactic_b"} <= set(f.columns) or "p_win_a" not in f.columns:
            continue
        if f["tactic_a"].nunique() < 2 and f["tactic_b"].nunique() < 2:
            continue
        sa, sb = _side_cols(f)
        keys = [sa, sb, *(["range"] if "range" in f.columns else []), "tactic_a", "tactic_b"]
        one = _first_turn(f, keys)
        cols: dict[str, Any] = {
            "a": [_unit_label(x) for x in one[sa].astype(str)],
            "b": [_unit_label(x) for x in one[sb].astype(str)],
            "range": one["range"].astype(str).tolist() if "range" in one else [""] * len(one),
            "tactic_a": one["tactic_a"].astype(str).tolist(),
            "tactic_b": one["tactic_b"].astype(str).tolist(), **_outcome_cols(one),
            "src": [r.name] * len(one)}
        rows.append(pd.DataFrame(cols))
        where.append(f"experiment {r.name} (a grid over tactic_a and tactic_b)")
    for r in inp.results:   # a round-robin's most and least surprising pairings
        entries = r.meta.get("tactic_matrices") or []
        rec = _matrix_records()
        for e in entries if isinstance(entries, list) else []:
            if isinstance(e, dict) and isinstance(e.get("matrix"), dict):
                _add_matrix(rec, e["matrix"], str(e.get("a")), str(e.get("b")),
                            str(e.get("range")), r.name)
        if rec["a"]:
            rows.append(pd.DataFrame(rec))
            where.append(f"experiment {r.name} (its tactic_matrices: the most and least "
                         "surprising pairings, sim.tactic_report)")
    for p in _matrix_files(inp.root):
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(doc, dict) or not {"a", "b", "rows", "cols", "cells"} <= set(doc):
            continue
        rec = _matrix_records()
        rng = str((doc.get("params") or {}).get("range", "free"))
        _add_matrix(rec, doc, str(doc["a"]), str(doc["b"]), rng,
                    p.relative_to(inp.root).as_posix())
        if rec["a"]:
            rows.append(pd.DataFrame(rec))
            rel = p.relative_to(inp.root).as_posix()
            where.append(f"file {rel} (btsim duel --tactics matrix --json)")
            files.append({"experiment": rel, "title": f"Tactic matrix: {doc['a']} against "
                          f"{doc['b']}", "question": "Which tactic should each side play?",
                          "setup": "every tactic of A against every tactic of B "
                                   "(btsim duel A B --tactics matrix --json), saved in the "
                                   "results folder",
                          "run": [[str(k), str(v)] for k, v in
                                  (doc.get("params") or {}).items()][:12],
                          "notes": []})
    if not rows:
        return None
    t = pd.concat(rows, ignore_index=True)
    return {"title": "Tactic matrices", "tables": {"cells": frame_table(t)},
            "where": where,
            "assumptions": [assumptions(r) for r in inp.results
                            if any(w.startswith(f"experiment {r.name} ") for w in where)]
            + files}


def forces_source(inp: Inputs) -> Block | None:
    """Force fights: every scenario of a duel result whose side is a force
    (``"UNIT@SKILL,UNIT@SKILL"``, :mod:`sim.alphastrike.duel.sides`), with P(win) and
    E[turns] and their 95% intervals."""
    parts: list[pd.DataFrame] = []
    used: list[Result] = []
    for r in inp.results:
        f = r.frame
        sa, sb = _side_cols(f)
        if sa not in f.columns or sb not in f.columns or "p_win_a" not in f.columns:
            continue
        is_force = f[sa].astype(str).str.contains(",") | f[sb].astype(str).str.contains(",")
        if not is_force.any():
            continue
        keys = [sa, sb, *(["range"] if "range" in f.columns else [])]
        one = _first_turn(f[is_force], keys)
        parts.append(pd.DataFrame({
            "a": one[sa].astype(str).tolist(), "b": one[sb].astype(str).tolist(),
            "range": one["range"].astype(str).tolist() if "range" in one else [""] * len(one),
            **_outcome_cols(one),
            "trials": (pd.to_numeric(one[tcol], errors="coerce").tolist() if (tcol := next(
                (c for c in ("trials", "p_win_a_n") if c in one.columns), None))
                else [None] * len(one)),
            "src": [r.name] * len(one)}))
        used.append(r)
    if not parts:
        return None
    return {"title": "Force fights",
            "tables": {"fights": frame_table(pd.concat(parts, ignore_index=True))},
            "assumptions": [assumptions(r) for r in used]}


# -- a rating summary (btsim rate) ------------------------------------------------------------------
def _rating_files(root: Path) -> list[Path]:
    """Files under ``root/<name>/`` whose columns include every one of
    :data:`RATING_COLUMNS` (parquet schema or CSV header only; nothing else is read)."""
    found: list[Path] = []
    if not root.is_dir():
        return found
    for sub in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        for p in sorted(sub.glob("*.parquet")) + sorted(sub.glob("*.csv")):
            try:
                if p.suffix == ".parquet":
                    import pyarrow.parquet as pq

                    names = set(pq.read_schema(p).names)
                else:
                    with p.open(encoding="utf-8", newline="") as fh:
                        names = set(next(csv.reader(fh), []))
            except (OSError, ValueError, StopIteration):
                continue
            if set(RATING_COLUMNS) <= names:
                found.append(p)
                break
    return found


def rating_source(inp: Inputs) -> Block | None:
    """A rating summary (``btsim rate``: ``unit, price, fair_price, fair_price_ci_low,
    fair_price_ci_high, ratio, verdict, robustness, n``), the first found under the results
    folder: its per-unit columns and the points of the fairness view."""
    files = _rating_files(inp.root)
    if not files:
        return None
    p = files[0]
    f = pd.read_parquet(p) if p.suffix == ".parquet" else pd.read_csv(p)
    f.attrs = {}
    f = f.assign(unit=f["unit"].astype(str), verdict=f["verdict"].astype(str))
    name = p.parent.name
    specs = [
        {"key": "r_fair", "after": "pv", "label": "fair price", "type": "num", "digits": 0, "lo": "r_fair_lo",
         "hi": "r_fair_hi", "doc": f"fair price from the rating summary {name}/{p.name}"},
        {"key": "r_ratio", "after": "pv", "label": "price / fair", "type": "num", "digits": 2,
         "exact": True, "doc": "price over fair price (rating summary)"},
        {"key": "r_verdict", "after": "pv", "label": "verdict", "type": "text"},
        {"key": "r_robust", "after": "pv", "label": "robustness", "type": "text"},
        {"key": "r_n", "after": "pv", "label": "rated in", "type": "num", "digits": 0, "exact": True,
         "hidden": True},
    ]
    units = {"unit": f["unit"], "r_fair": f["fair_price"], "r_fair_lo": f["fair_price_ci_low"],
             "r_fair_hi": f["fair_price_ci_high"], "r_ratio": f["ratio"],
             "r_verdict": f["verdict"], "r_robust": f["robustness"].astype(str),
             "r_n": f["n"]}
    meta: dict[str, Any] = {}
    mp = p.parent / "metadata.json"
    if mp.is_file():
        import json

        meta = json.loads(mp.read_text(encoding="utf-8"))
    return {"title": f"Rating {name}", "file": f"{name}/{p.name}",
            "points": frame_table(f[[c for c in f.columns if c in (*RATING_COLUMNS,)]]),
            "units": {"table": frame_table(pd.DataFrame(units)), "specs": specs},
            "assumptions": [{"experiment": name, "title": str(meta.get("title") or name),
                             "question": str(meta.get("question") or ""), "setup": "",
                             "run": [[k, str(v)] for k, v in meta.items()
                                     if isinstance(v, str | int | float)][:12],
                             "notes": []}]}


#: every source of the page, in the order their per-unit columns join the catalog
SOURCES: tuple[Source, ...] = (
    Source("catalog", "units, facts and where each appears", catalog_source),
    Source("prices", "computed BV 2 and converted Alpha Strike PV", prices_source),
    Source("fire_profiles", "Classic damage versus range", fire_profiles_source),
    Source("heat", "heat and shutdown curves", heat_source),
    Source("as_duels", "Alpha Strike round-robin and PV fairness", as_duels_source),
    Source("classic_duels", "Classic round-robin and BV fairness", classic_duels_source),
    Source("tactics", "tactic matrices where the results hold them", tactics_source),
    Source("forces", "force fights (a side of several units)", forces_source),
    Source("rating", "rating summary (btsim rate)", rating_source),
)


def build_data(inp: Inputs, sources: Iterable[Source] = SOURCES) -> dict[str, Any]:
    """Every source's block (absent ones omitted), as the page embeds them."""
    blocks: dict[str, Any] = {}
    for s in sources:
        b = s.build(inp)
        if b is not None:
            blocks[s.name] = b
    return {"sources": blocks, "order": [s.name for s in sources if s.name in blocks]}
