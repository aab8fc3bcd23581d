"""Synthetic results for the report tests: small results folders in the layout ``btsim run``
writes (summary.parquet + metadata.json, issue 2 "CLI and results"), one per default
experiment, so the report tests run in seconds without the models.

The synthetic numbers are smooth deterministic functions of the parameters (not rules), with
Monte Carlo columns = exact value + a little noise; what the tests check is the report's own
logic: sections, figures, data files, and that every number in the lead equals its table.
"""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim.results import write

ATTACKS: list[dict[str, Any]] = [
    {"attack": "punch", "arm": "right", "hexes": 0},
    {"attack": "punch", "arm": "both", "hexes": 0},
    {"attack": "kick", "arm": "right", "hexes": 0},
    {"attack": "club", "arm": "right", "hexes": 0},
    {"attack": "hatchet", "arm": "right", "hexes": 0},
    {"attack": "charge", "arm": "right", "hexes": 3},
    {"attack": "charge", "arm": "right", "hexes": 5},
    {"attack": "charge", "arm": "right", "hexes": 7},
    {"attack": "dfa", "arm": "right", "hexes": 0},
]
TRIALS = 1000


def add_metric(frame: pd.DataFrame, name: str, exact: np.ndarray, kind: str,
               rng: np.random.Generator, kinds: dict[str, str]) -> None:
    """Columns m, m_se, m_ci_low, m_ci_high, m_n, m_exact as the engine writes them."""
    exact = np.asarray(exact, dtype=float)
    if kind == "probability":
        se = np.sqrt(exact * (1 - exact) / TRIALS)
        mc = np.clip(exact + rng.normal(0, 1, exact.shape) * se, 0, 1)
    else:
        se = 0.05 * (1 + np.abs(exact)) / np.sqrt(TRIALS) * 10
        mc = exact + rng.normal(0, 1, exact.shape) * se
    cols = {name: mc, name + "_se": se, name + "_ci_low": mc - 1.96 * se,
            name + "_ci_high": mc + 1.96 * se, name + "_n": np.full(len(frame), float(TRIALS)),
            name + "_exact": exact}
    frame[list(cols)] = pd.DataFrame(cols, index=frame.index)  # one block, in place
    kinds[name] = kind


def meta(name: str, model: str, frame: pd.DataFrame, kinds: dict[str, str],
         title: str, section: str | None = None) -> dict[str, Any]:
    """Metadata as ``btsim run`` records it; ``section`` is the experiment's ``report`` key
    (None: a result saved before experiments named their section)."""
    exp: dict[str, Any] = {"name": name, "model": model, "fixed": {"target_tons": 50}}
    if section is not None:
        exp["report"] = section
    return {
        "name": name, "title": title, "question": f"What does {name} show?", "model": model,
        "model_description": f"synthetic {model}", "btsim_version": "0.1.0",
        "git_commit": "0123456789abcdef", "seed": 7, "trials": TRIALS, "exact_only": False,
        "scenarios": int(frame.shape[0]), "chunk_size": 131072, "backend": "loky", "jobs": 2,
        "cores": 2, "wall_time_s": 1.25, "rule_sets": {"rules": ["default"]},
        "metric_kinds": kinds, "experiment": exp,
    }


def physical_frame(rng: np.random.Generator, head: bool = False) -> tuple[pd.DataFrame, dict]:
    rows = []
    tons_list = [20, 40, 60, 80, 100]
    pils = [4] if head else [3, 4, 5, 6]
    moves = [0] if head else [0, 5]
    for a, t, p, h in itertools.product(ATTACKS, tons_list, pils, moves):
        rows.append({**a, "tons": t, "piloting": p, "target_hexes": h, "rules": "default",
                     "impossible": None, "target_number": p + (2 if h else 0)})
    f = pd.DataFrame(rows)
    kinds: dict[str, str] = {}
    p_hit = np.clip((13 - f["target_number"] - (f["attack"] == "kick") * 2) / 11, 0, 1)
    base = np.select([f["attack"] == "punch", f["attack"].isin(["kick", "club", "hatchet"]),
                      f["attack"] == "charge", f["attack"] == "dfa"],
                     [f["tons"] / 10 * np.where(f["arm"] == "both", 2, 1), f["tons"] / 5,
                      f["tons"] / 10 * f["hexes"], f["tons"] * 3 / 10], 0)
    ev = (p_hit * base).to_numpy(float)
    add_metric(f, "p_hit", p_hit.to_numpy(float), "probability", rng, kinds)
    add_metric(f, "expected_damage", ev, "mean", rng, kinds)
    falls = np.select([f["attack"] == "kick", f["attack"] == "charge", f["attack"] == "dfa"],
                      [(1 - p_hit) * 0.3, 0.4 * p_hit, 0.5 + 0.2 * p_hit], 0).astype(float)
    add_metric(f, "p_attacker_falls", falls, "probability", rng, kinds)
    selfd = np.select([f["attack"] == "charge", f["attack"] == "dfa"],
                      [p_hit * 5, p_hit * f["tons"] / 5], 0).astype(float)
    add_metric(f, "expected_self_damage", selfd, "mean", rng, kinds)
    add_metric(f, "expected_fall_damage_attacker", falls * f["tons"].to_numpy(float) / 10,
               "mean", rng, kinds)
    if head:
        hh = np.where(f["attack"] == "kick", 0.0, p_hit / 6)
        kill = np.where(f["attack"].isin(["club", "hatchet"]) & (f["tons"] >= 60), hh, 0.0)
        kill = np.where((f["attack"] == "charge") & (f["hexes"] == 7) & (f["tons"] >= 80),
                        hh * 0.01, kill)
        add_metric(f, "p_head_hit", hh.astype(float), "probability", rng, kinds)
        add_metric(f, "p_head_destroyed", kill.astype(float), "probability", rng, kinds)
        shares = {"HD": 1 / 36, "CT": 8 / 36, "LT": 5 / 36, "RT": 5 / 36, "LA": 5 / 36,
                  "RA": 5 / 36, "LL": 3.5 / 36, "RL": 3.5 / 36, "CTR": 0, "LTR": 0, "RTR": 0}
        for loc, s in shares.items():
            add_metric(f, f"expected_damage_{loc}", ev * s, "mean", rng, kinds)
    return f, kinds


def units_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    units = {"Atlas AS7-D": 100, "Hatchetman HCT-3F": 45, "Locust LCT-1V": 20}
    hatchet = {"Hatchetman HCT-3F"}
    jump = {"Hatchetman HCT-3F"}
    no_hands = {"Locust LCT-1V": "left-hand,left-lower-arm,right-hand,right-lower-arm"}
    rows = []
    for a, t, atk in itertools.product(units, units,
                                       ["punch", "kick", "club", "hatchet", "dfa"]):
        imp = None
        if atk == "club" and a in no_hands:
            imp = "left hand actuator destroyed or missing: a club needs both hands"
        if atk == "hatchet" and a not in hatchet:
            imp = f"attacker {a} has no hatchet"
        if atk == "dfa" and a not in jump:
            imp = f"attacker {a} has no jump MP: a DFA is a jump"
        rows.append({"attack": atk, "arm": "both" if atk == "punch" else "right", "hexes": 0,
                     "attacker": a, "target": t, "tons": units[a], "target_tons": units[t],
                     "piloting": 5, "rules": "default", "impossible": imp,
                     "missing": no_hands.get(a)})
    f = pd.DataFrame(rows)
    kinds: dict[str, str] = {}
    ev = f["tons"].to_numpy(float) / 10 * (1 + (f["attack"] != "punch")) * 0.5
    ev = np.where(f["impossible"].isna(), ev, np.nan)
    add_metric(f, "expected_damage", ev, "mean", rng, kinds)
    add_metric(f, "p_hit", np.where(f["impossible"].isna(), 0.5, np.nan), "probability", rng,
               kinds)
    return f, kinds


def heat_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    units = {"Loki (Hellbringer) Prime": 3, "Catapult CPLT-C1": 1, "Atlas AS7-K": 2}
    turns = np.arange(1, 11)
    frames = []
    for (u, ov), pol, inc, water in itertools.product(
            units.items(), ["never", "below:2", "max"], ["", "tn=8,dmg=2,ht=1"], [False, True]):
        f = pd.DataFrame({"unit": u, "ov": ov, "range": "medium", "policy": pol,
                          "incoming": inc, "water": water, "turn": turns, "rules": "default"})
        rate = {"never": 0.0, "below:2": 0.05, "max": 0.15}[pol] * ov / 3
        rate = rate * (0.6 if water else 1.0) + (0.05 if inc else 0.0)
        sd_by = 1 - (1 - rate) ** turns
        heat = np.stack([np.full(10, 1 - rate * 4), np.full(10, rate), np.full(10, rate),
                         np.full(10, rate), np.full(10, rate)], axis=1)
        kinds: dict[str, str] = {}
        for i in range(5):
            add_metric(f, f"p_heat_{i}", heat[:, i], "probability", rng, kinds)
        add_metric(f, "p_shutdown_by", sd_by, "probability", rng, kinds)
        add_metric(f, "p_shutdown", np.full(10, rate), "probability", rng, kinds)
        dmg = (3 + (ov if pol == "max" else 0)) * 0.6 * (1 - rate)
        add_metric(f, "expected_damage", np.full(10, dmg), "mean", rng, kinds)
        add_metric(f, "expected_cumulative_damage", dmg * turns, "mean", rng, kinds)
        add_metric(f, "p_destroyed_by", 1 - (1 - (0.03 if inc else 0.0)) ** turns,
                   "probability", rng, kinds)
        add_metric(f, "expected_first_shutdown_turn", np.full(10, 3.0 if rate else np.nan),
                   "mean", rng, kinds)
        frames.append(f)
    return pd.concat(frames, ignore_index=True), kinds


def ammo_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    turns = np.arange(1, 11)
    frames = []
    kinds: dict[str, str] = {}
    for prot, haz in (("none", 0.12), ("CASE", 0.09), ("CASEII", 0.08), ("ENE", 0.08)):
        f = pd.DataFrame({"unit": "Atlas AS7-D", "protection": prot, "policy": "never",
                          "incoming": "tn=6,dmg=1;tn=6,dmg=1", "turn": turns,
                          "rules": "default"})
        pd_by = 1 - (1 - haz) ** turns
        add_metric(f, "p_destroyed_by", pd_by, "probability", rng, kinds)
        add_metric(f, "expected_turns_survived", np.full(10, float(np.sum(1 - pd_by))), "mean",
                   rng, kinds)
        frames.append(f)
    return pd.concat(frames, ignore_index=True), kinds


# ---- firerep: synthetic frames of the Classic fire experiments (06 weapon-fire, 07 fire-profiles)
def weapon_fire_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    """Experiment 06's shape: unit x policy x turn, read after each heat phase. The hot unit
    overheats under 'all' (shutdowns, an uncontained ammunition explosion), the cool one never
    builds heat."""
    units = {"Catapult CPLT-C1": 1.0, "Wolverine WVR-6R": 0.0, "Atlas AS7-D": 0.5}
    turns = np.arange(1, 11)
    frames = []
    kinds: dict[str, str] = {}
    for (u, hot), pol in itertools.product(units.items(),
                                           ["all", "neutral", "below:14", "max-expected"]):
        f = pd.DataFrame({"unit": u, "policy": pol, "range": 6, "moved": "walk", "gunnery": 4,
                          "turn": turns, "rules": "default"})
        level = {"all": 1.0, "max-expected": 0.5, "below:14": 0.6, "neutral": 0.0}[pol] * hot
        sd_rate = 0.2 * level if pol == "all" else 0.02 * level
        add_metric(f, "mean_heat", np.minimum(turns * 3 * level, 25.0), "mean", rng, kinds)
        add_metric(f, "p_shutdown_by", 1 - (1 - sd_rate) ** turns, "probability", rng, kinds)
        add_metric(f, "p_shutdown", np.full(10, sd_rate), "probability", rng, kinds)
        boom = 0.08 * level if pol == "all" else 0.0
        add_metric(f, "p_ammo_explosion_by", 1 - (1 - boom) ** turns, "probability", rng,
                   kinds)
        out = boom if u.startswith("Catapult") else 0.0
        add_metric(f, "p_out_by", 1 - (1 - out) ** turns, "probability", rng, kinds)
        dmg = 12.0 * (1 + 0.4 * level) * (1 - sd_rate * 2.5)
        add_metric(f, "expected_damage", np.full(10, dmg), "mean", rng, kinds)
        add_metric(f, "expected_cumulative_damage", dmg * turns, "mean", rng, kinds)
        heat = np.minimum(turns * 3 * level, 25.0).round().astype(int)
        hist = [np.eye(31)[h] for h in heat]  # all the mass at the mean heat
        f["heat_hist"] = hist
        f["heat_hist_exact"] = hist
        kinds["heat_hist"] = "hist"
        frames.append(f)
    return pd.concat(frames, ignore_index=True), kinds


def fire_profiles_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    """Experiment 07's shape: unit x policy x range 1..longest; max >= hit-weighted >=
    sustained, the hot unit losing most to heat and gaining from 'neutral'."""
    units = {"Catapult CPLT-C1": (50.0, 0.45, 21), "Hunchback HBK-4G": (30.0, 1.0, 9),
             "Locust LCT-1V": (5.0, 1.0, 9), "Loki (Hellbringer) Prime": (63.0, 0.5, 23)}
    frames = []
    kinds: dict[str, str] = {}
    for (u, (mx, keep, longest)), pol in itertools.product(units.items(), ["all", "neutral"]):
        r = np.arange(1, longest + 1)
        f = pd.DataFrame({"unit": u, "policy": pol, "gunnery": 4, "turns": 10, "range": r,
                          "longest_range": longest, "rules": "default"})
        m = np.where(r <= longest // 2, mx, mx * 0.6)
        hw = m * (0.8 - 0.02 * r)
        sus = hw * (keep if pol == "all" else min(1.0, keep + 0.2))
        add_metric(f, "max_damage", m, "mean", rng, kinds)
        add_metric(f, "hit_weighted", hw, "mean", rng, kinds)
        add_metric(f, "sustained", sus, "mean", rng, kinds)
        frames.append(f)
    return pd.concat(frames, ignore_index=True), kinds
# ---- end firerep


#: synthetic Alpha Strike cards for the duel sections: PV and a strength (logit scale)
DUEL_CARDS = {"Atlas AS7-D": (52, 1.6), "Loki (Hellbringer) Prime": (45, 1.3),
              "Griffin GRF-2N": (38, 0.2), "Hunchback HBK-4G": (28, -0.9),
              "Catapult CPLT-C3": (38, -1.8), "Locust LCT-1V": (18, -2.4)}
DUEL_TURNS = np.arange(1, 4)


def _duel_rows(a: str, b: str, score: float, tie: float, **params: Any) -> pd.DataFrame:
    """One synthetic duel over DUEL_TURNS: win/draw/timeout split so that A's score (wins
    plus half the ties) is ``score``; per-turn destruction curves rising to the wins."""
    pa, pb = score - tie / 2, 1 - score - tie / 2
    f = pd.DataFrame({"a": a, "b": b, "turn": DUEL_TURNS, "turns": 30, "rules": "default",
                      "policy_b": "never", **params})
    f["_pa"], f["_pb"], f["_t"] = pa, pb, tie
    return f


def _duel_metrics(f: pd.DataFrame, rng: np.random.Generator, per_turn: bool
                  ) -> tuple[pd.DataFrame, dict]:
    kinds: dict[str, str] = {}
    pa, pb, tie = f.pop("_pa").to_numpy(), f.pop("_pb").to_numpy(), f.pop("_t").to_numpy()
    add_metric(f, "p_win_a", pa, "probability", rng, kinds)
    add_metric(f, "p_win_b", pb, "probability", rng, kinds)
    add_metric(f, "p_draw", tie * 0.6, "probability", rng, kinds)
    add_metric(f, "p_timeout", tie * 0.4, "probability", rng, kinds)
    add_metric(f, "expected_turns", 4 + 3 * tie, "mean", rng, kinds)
    if per_turn:
        frac = f["turn"].to_numpy(float) / DUEL_TURNS.max()
        add_metric(f, "p_b_destroyed_by", pa * frac, "probability", rng, kinds)
        add_metric(f, "p_a_destroyed_by", pb * frac, "probability", rng, kinds)
        add_metric(f, "expected_damage_a", 2 + 3 * pa, "mean", rng, kinds)
        add_metric(f, "p_shutdown_a", np.where(f["policy_a"] == "max", 0.3 * frac, 0.0),
                   "probability", rng, kinds)
    return f, kinds


def duel_round_robin_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    frames = []
    for (a, (pva, sa)), (b, (pvb, sb)), r in itertools.product(
            DUEL_CARDS.items(), DUEL_CARDS.items(), ["short", "medium", "long"]):
        shift = {"short": 1.2, "medium": 1.0, "long": 0.7}[r]
        score = float(1 / (1 + np.exp(-shift * (sa - sb))))
        tie = 0.04 if r != "long" else 0.2
        tie = min(tie, 2 * score, 2 * (1 - score))
        f = _duel_rows(f"{a}@4", f"{b}@4", score, tie, range=r, policy_a="never")
        f["pv_a"], f["pv_b"] = pva, pvb
        frames.append(f)
    return _duel_metrics(pd.concat(frames, ignore_index=True), rng, per_turn=False)


def duel_overheat_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    frames = []
    gains = {"never": 0.0, "fixed:1": 0.04, "below:2": 0.06, "max": -0.1}
    for (a, ov_gain), pol, r in itertools.product(
            {"Loki (Hellbringer) Prime": 1.0, "Atlas AS7-K": 0.5}.items(), gains,
            ["short", "medium", "long"]):
        score = 0.5 + gains[pol] * ov_gain * (0.3 if r == "long" else 1.0)
        f = _duel_rows(f"{a}@4", f"{a}@4", score, 0.04, range=r, policy_a=pol)
        f["pv_a"] = f["pv_b"] = 45
        frames.append(f)
    return _duel_metrics(pd.concat(frames, ignore_index=True), rng, per_turn=True)


def duel_skill_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    from sim.alphastrike.pv import pv_at_skill

    frames = []
    for a, s, r in itertools.product(["Locust LCT-1V", "Atlas AS7-D"], [2, 3, 4, 5, 6],
                                     ["short", "medium", "long"]):
        pv = DUEL_CARDS[a][0]
        score = float(1 / (1 + np.exp(-0.7 * (4 - s))))
        f = _duel_rows(f"{a}@{s}", f"{a}@4", score, 0.04, range=r, policy_a="never")
        f["pv_a"], f["pv_b"] = pv_at_skill(pv, s), pv
        frames.append(f)
    return _duel_metrics(pd.concat(frames, ignore_index=True), rng, per_turn=True)


def classic_rr_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    """A Classic round-robin (model classic-duel): 4 'Mechs, two ranges, 5 turns, with the
    facts bv_a / bv_b (Battle Value) and a strength that does not quite follow BV (the
    Wolverine stronger than its BV says) so the BV fairness curve has an outlier."""
    units = {"Locust LCT-1V": (20, 432), "Hunchback HBK-4G": (50, 1041),
             "Wolverine WVR-6R": (80, 1101), "Atlas AS7-D": (100, 1897)}
    turns = np.arange(1, 6)
    frames = []
    kinds: dict[str, str] = {}
    for (a, (ta, bva)), (b, (tb, bvb)), r in itertools.product(units.items(), units.items(),
                                                                [3, 1]):
        f = pd.DataFrame({"range": str(r), "unit_a": a, "unit_b": b, "turns": 5,
                          "turn": turns, "bv_a": bva, "bv_b": bvb})
        pa = ta / (ta + tb)
        draw, timeout = 0.02, 0.04
        add_metric(f, "p_win_a", np.full(5, pa * (1 - draw - timeout)), "probability", rng,
                   kinds)
        add_metric(f, "p_win_b", np.full(5, (1 - pa) * (1 - draw - timeout)), "probability",
                   rng, kinds)
        add_metric(f, "p_draw", np.full(5, draw), "probability", rng, kinds)
        add_metric(f, "p_timeout", np.full(5, timeout), "probability", rng, kinds)
        add_metric(f, "expected_turns", np.full(5, 2.0 + (ta + tb) / 50), "mean", rng, kinds)
        add_metric(f, "p_b_destroyed_by", pa * (1 - 0.5 ** turns), "probability", rng, kinds)
        frames.append(f)
    return pd.concat(frames, ignore_index=True), kinds


def change_costs_frame(rng: np.random.Generator) -> tuple[pd.DataFrame, dict]:
    """What a change costs (model classic-duel): two catalog 'Mechs, each unchanged and with
    one more heat sink or ton of armor (side A) against itself unchanged, 3 turns; armor
    buys a clear edge, a heat sink none."""
    turns = np.arange(1, 4)
    frames = []
    kinds: dict[str, str] = {}
    for unit, (label, gain) in itertools.product(
            ["Locust LCT-1V", "Hunchback HBK-4G"],
            [("", 0.0), ("+1 heat sink", 0.0), ("+1 t armor", 0.2)]):
        f = pd.DataFrame({"range": "6", "unit_a": f"{unit} [{label}]" if label else unit,
                          "unit_b": unit, "turns": 3, "turn": turns})
        pa, pb = 0.45 + gain / 2, 0.45 - gain / 2
        add_metric(f, "p_win_a", np.full(3, pa), "probability", rng, kinds)
        add_metric(f, "p_win_b", np.full(3, pb), "probability", rng, kinds)
        add_metric(f, "p_draw", np.full(3, 0.05), "probability", rng, kinds)
        add_metric(f, "p_timeout", np.full(3, 0.05), "probability", rng, kinds)
        add_metric(f, "expected_turns", np.full(3, 2.5), "mean", rng, kinds)
        frames.append(f)
    return pd.concat(frames, ignore_index=True), kinds


EXPERIMENTS = {
    "physical_damage": ("attack", "Expected damage of every physical attack",
                        lambda r: physical_frame(r)),
    "head_risk": ("attack", "Head and kill risk per attack",
                  lambda r: physical_frame(r, head=True)),
    "real_units_melee": ("attack", "Real units in melee", units_frame),
    "overheat_curves": ("heat", "Overheat risk curves", heat_frame),
    "ammo_protection": ("heat", "Ammo protection", ammo_frame),
    # firerep: the Classic fire experiments
    "weapon_fire": ("fire", "Overheat risk curves of Classic weapon fire", weapon_fire_frame),
    "fire_profiles": ("profile", "Damage versus range of the Classic catalog",
                      fire_profiles_frame),
    "duel_round_robin": ("duel", "Alpha Strike round-robin", duel_round_robin_frame),
    "duel_overheat": ("duel", "What OV buys in a duel", duel_overheat_frame),
    "duel_skill": ("duel", "What skill buys in a duel", duel_skill_frame),
    "classic_round_robin": ("classic-duel", "Classic round-robin", classic_rr_frame),
    "change_costs": ("classic-duel", "What a change costs", change_costs_frame),
    "rating_alphastrike": ("rating", "Fair prices: synthetic rating", None),  # rating
}

#: the report section each synthetic experiment names (its ``report`` key). A new section
#: adds its synthetic experiment above and its line here: tests/report renders every
#: registered section from these results.
SECTIONS = {
    "physical_damage": "physical-damage",
    "head_risk": "head-risk",
    "real_units_melee": "real-units",
    "overheat_curves": "heat-curves",
    "ammo_protection": "ammo-protection",
    "weapon_fire": "weapon-fire",  # firerep
    "fire_profiles": "fire-profiles",  # firerep
    "duel_round_robin": "duel-round-robin",
    "duel_overheat": "duel-overheat",
    "duel_skill": "duel-skill",
    "classic_round_robin": "classic-round-robin",
    "change_costs": "change-costs",
    "rating_alphastrike": "rating",
}


def rating_results(folder: Path, title: str, section: str | None) -> None:
    """A synthetic rating (:func:`sim.rating.synthetic.rating`: one unit planted
    under-priced, one over-priced, one not fully simulated) in the layout ``btsim rate``
    writes; ``section`` None: no ``report`` key recorded."""
    from sim.rating.experiment import write as write_rating
    from sim.rating.synthetic import rating

    res = rating(seed=5, k=10, misprice={4: 1.2, 7: -1.2})
    write_rating(folder, res)
    frame, meta = read_back(folder)
    meta["title"] = title
    meta["experiment"] = {"name": folder.name, **({"report": section} if section else {})}
    if section is None:
        meta.pop("report", None)
    write(folder, frame, meta)


def read_back(folder: Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    from sim.results import read

    return read(folder)


def make_results(root: Path, names: list[str] | None = None, *,
                 sections: dict[str, str | None] | None = None, legacy: bool = False) -> Path:
    """Write synthetic results folders for ``names`` (default: the whole suite) under root.

    Each records its section from ``sections`` (default :data:`SECTIONS`); with ``legacy``
    none is recorded, as in results saved before experiments named their section.
    """
    rng = np.random.default_rng(11)
    chosen = {**SECTIONS, **(sections or {})}
    for name in names or list(EXPERIMENTS):
        model, title, fn = EXPERIMENTS[name]
        section = None if legacy else chosen.get(name)
        if fn is None:  # a rating: the rating's own frame and metadata (sim.rating)
            rating_results(root / name, title, section)
            continue
        with warnings.catch_warnings():  # column-by-column building fragments the frame
            warnings.simplefilter("ignore", pd.errors.PerformanceWarning)
            frame, kinds = fn(rng)
        frame = frame.copy()
        frame.attrs["metric_kinds"] = kinds
        section = None if legacy else chosen.get(name)
        write(root / name, frame, meta(name, model, frame, kinds, title, section))
    return root
