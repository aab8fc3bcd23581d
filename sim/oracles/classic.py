"""Scalar oracle for Classic physical attacks: the rules of reference sections 1-4, written
again in plain Python, one trial at a time, with its own transcription of the tables.

It shares nothing with the vectorized kernel except the validated scenario values
(:class:`sim.classic.scenario.Scenario`, including the unit facts the scenario read from unit
files: ``unit_impossible``): eligibility (:func:`impossible`), to-hit numbers, damage, tables,
PSR modifiers and falls are re-derived here. Tests compare it with the kernel and the exact
engine; ``btsim bench`` times it beside the kernel (``scalar_trials``, linked to the model by
:mod:`sim.oracles`, never imported by the product).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

import numpy as np

# --- tables, transcribed from reference 3.2-3.4 and 4.4 (independent of sim.classic.tables) ---
STD = {  # roll -> location, per column
    "front": {2: "CT", 3: "RA", 4: "RA", 5: "RL", 6: "RT", 7: "CT", 8: "LT", 9: "LL",
              10: "LA", 11: "LA", 12: "HD"},
    "rear": {2: "CTR", 3: "RA", 4: "RA", 5: "RL", 6: "RTR", 7: "CTR", 8: "LTR", 9: "LL",
             10: "LA", 11: "LA", 12: "HD"},
    "left": {2: "LT", 3: "LL", 4: "LA", 5: "LA", 6: "LL", 7: "LT", 8: "CT", 9: "RT",
             10: "RA", 11: "RL", 12: "HD"},
    "right": {2: "RT", 3: "RL", 4: "RA", 5: "RA", 6: "RL", 7: "RT", 8: "CT", 9: "LT",
              10: "LA", 11: "LL", 12: "HD"},
}
PUNCH = {
    "left": ["LT", "LT", "CT", "LA", "LA", "HD"],
    "front": ["LA", "LT", "CT", "RT", "RA", "HD"],
    "rear": ["LA", "LTR", "CTR", "RTR", "RA", "HD"],
    "right": ["RT", "RT", "CT", "RA", "RA", "HD"],
}
KICK = {"left": ["LL"] * 6, "right": ["RL"] * 6,
        "front": ["RL"] * 3 + ["LL"] * 3, "rear": ["RL"] * 3 + ["LL"] * 3}
FACING = {1: "front", 2: "right", 3: "right", 4: "rear", 5: "left", 6: "left"}


def _ceil10(x: int) -> int:
    return -(-x // 10)


def _tmm(h: int, jumped: bool, table: str) -> int:
    if h <= 2:
        m = 0
    elif h <= 4:
        m = 1
    elif h <= 6:
        m = 2
    elif h <= 9:
        m = 3
    elif table == "old" or h <= 17:
        m = 4
    elif h <= 24:
        m = 5
    else:
        m = 6
    return m + int(jumped)


def impossible(sc: Any) -> str | None:
    """Why no attack can be made (reference 1.2.1 prone attacker, 1.3 restrictions and the
    prone-target table, 2.2 levels), written again from the reference; None when the attack
    (or, for a punch, at least one arm) may be made. Unit facts come from the scenario."""
    a = sc.attack
    if sc.unit_impossible:
        return sc.unit_impossible
    if sc.attacker_prone:
        return "attacker prone"
    lv = sc.target_level
    if sc.target_prone:
        allowed = {0: ["kick", "dfa"], 1: ["punch", "club", "hatchet", "dfa"], -1: ["dfa"]}[lv]
        if a not in allowed:
            return "prone target out of reach"
    else:
        if a == "punch" and lv == -1:
            return "standing target one level lower"
        if a == "kick" and lv == 1:
            return "standing target one level higher"
        if a == "push" and lv != 0:
            return "push needs the same level"

    def gone(side: str, act: str) -> bool:  # destroyed or missing
        return (side, act) in sc.damaged or (side, act) in sc.missing

    if a == "kick":
        if gone("left", "hip") or gone("right", "hip"):
            return "a kick needs both hips"
        if f"{sc.arm}-leg" in sc.fired:
            return "kicking leg fired"
    elif a == "club":
        for side in ("left", "right"):
            if gone(side, "shoulder") or gone(side, "hand") or f"{side}-arm" in sc.fired:
                return "a club needs both shoulders and hands, arms not fired"
    elif a == "hatchet":
        if sc.hatchet_damaged:
            return "hatchet destroyed"
        if gone(sc.arm, "shoulder") or gone(sc.arm, "hand") or f"{sc.arm}-arm" in sc.fired:
            return "the hatchet arm needs shoulder and hand, not fired"
    elif a == "push":
        for side in ("left", "right"):
            if (side, "shoulder") in sc.missing or f"{side}-arm" in sc.fired:
                return "a push needs both arms, not fired"
    elif a == "charge":
        if sc.moved not in ("walk", "run"):
            return "a charge walks or runs"
        if sc.fired:
            return "a charger fires nothing"
    elif a == "dfa":
        if sc.moved != "jump":
            return "a DFA jumps"
        if sc.fired:
            return "a DFA attacker fires nothing"
    if not strikes(sc):
        return "no arm can punch, or the target number is 13 or more"
    return None


def strikes(sc: Any) -> list[dict]:
    """The attacker's to-hit rolls: label, tn, damage, groups, table, column (no eligibility
    other than per-arm and TN 13+ checks; callers check ``impossible`` separately)."""
    r = sc.rules
    a = sc.attack

    def bad(side: str, act: str) -> bool:
        return (side, act) in sc.damaged or (side, act) in sc.missing

    common = sc.piloting  # physical attacks use Piloting (reference 1.1)
    if a == "dfa":
        common += 3 + sc.piloting - sc.target_piloting
    elif a == "charge":
        common += sc.piloting - sc.target_piloting + {"walk": 1, "run": 2}.get(sc.moved, 0)
    else:
        common += {"stand": 0, "walk": 1, "run": 2, "jump": 3}[sc.moved]
        common += {"punch": 0, "kick": -2, "club": -1, "hatchet": -1, "push": -1}[a]
    common += _tmm(sc.target_hexes, sc.target_jumped, r.tmm_table)
    if a != "dfa" or r.dfa_terrain:
        common += {"clear": 0, "light-woods": 1, "heavy-woods": 2}[sc.terrain]
        if sc.target_partial_cover:
            common += r.partial_cover_push_mod if a == "push" else 1
    if sc.target_prone:
        common -= 2
    if sc.target_immobile:
        common -= 4
    out = []
    col = sc.side
    if a == "punch":
        table = "punch"
        if sc.target_level == 1:
            table = "std" if sc.target_prone else "kick"
        arms = ["left", "right"] if sc.arm == "both" else [sc.arm]
        for arm in arms:
            if bad(arm, "shoulder") or f"{arm}-arm" in sc.fired:
                continue
            mod = 0
            if bad(arm, "upper-arm"):
                mod += 2
            if (arm, "lower-arm") in sc.missing and (arm, "hand") in sc.missing:
                mod += r.hand_and_lower_arm_missing_mod
            else:
                mod += 2 if bad(arm, "lower-arm") else 0
                mod += 1 if bad(arm, "hand") else 0
            n = int(bad(arm, "upper-arm")) + int(bad(arm, "lower-arm"))
            half: float = _ceil10(sc.tons) * (2 if sc.tsm else 1)
            for _ in range(n):
                half = half / 2
            dmg = max(r.punch_min_damage, math.floor(half))
            out.append(dict(label=arm, tn=common + mod, damage=dmg, groups=[dmg], table=table,
                            col=col))
    elif a == "kick":
        leg = sc.arm
        mod = 2 * bad(leg, "upper-leg") + 2 * bad(leg, "lower-leg") + bad(leg, "foot")
        base = sc.tons // 5 if r.per_5_tons_rounding == "floor" else -(-sc.tons // 5)
        dmg = base * (2 if sc.tsm else 1)
        for _ in range(int(bad(leg, "upper-leg")) + int(bad(leg, "lower-leg"))):
            dmg //= 2
        table = "std" if sc.target_prone else ("punch" if sc.target_level == -1 else "kick")
        out.append(dict(label="kick", tn=common + mod, damage=dmg, groups=[dmg], table=table,
                        col=col))
    elif a in ("club", "hatchet"):
        arms = ["left", "right"] if a == "club" else [sc.arm]
        mod = sum(2 for x in arms for y in ("upper-arm", "lower-arm") if bad(x, y))
        table = "std"
        if r.club_table != "standard":
            mod += r.club_aimed_mod
            table = r.club_table
        base = sc.tons // 5 if r.per_5_tons_rounding == "floor" else -(-sc.tons // 5)
        dmg = base * (2 if sc.tsm else 1)
        out.append(dict(label=a, tn=common + mod, damage=dmg, groups=[dmg], table=table,
                        col=col))
    elif a == "push":
        mod = 2 * sum((x, "shoulder") in sc.damaged for x in ("left", "right"))
        out.append(dict(label="push", tn=common + mod, damage=0, groups=[], table="std",
                        col=col))
    elif a == "charge":
        dmg = -(-(sc.tons * sc.hexes) // 10)
        table = "punch" if sc.target_partial_cover else ("kick" if sc.target_level == 1
                                                        else "std")
        out.append(dict(label="charge", tn=common, damage=dmg, groups=_groups(dmg),
                        table=table, col=col))
    elif a == "dfa":
        if r.dfa_rounding == "ceil-product":
            dmg = -(-(3 * sc.tons) // 10)
        elif r.dfa_rounding == "ceil-then-times-3":
            dmg = 3 * _ceil10(sc.tons)
        else:
            dmg = 3 * (sc.tons // 10)
        table, c = ("std", "rear") if sc.target_prone else ("punch", col)
        out.append(dict(label="dfa", tn=common, damage=dmg, groups=_groups(dmg), table=table,
                        col=c))
    return [s for s in out if s["tn"] <= 12]


def _groups(total: int) -> list[int]:
    g = []
    while total > 0:
        g.append(min(5, total))
        total -= 5
    return g


def _loc(rnd: random.Random, table: str, col: str) -> tuple[str, bool]:
    if table == "std":
        roll = rnd.randint(1, 6) + rnd.randint(1, 6)
        return STD[col][roll], roll == 2
    face = rnd.randint(1, 6)
    return (PUNCH if table == "punch" else KICK)[col][face - 1], False


def _pre(bad: set, gyro: int) -> int:
    m = 3 * gyro
    for s in ("left", "right"):
        if (s, "hip") in bad:
            m += 2
        else:
            m += sum((s, x) in bad for x in ("upper-leg", "lower-leg", "foot"))
    return m


def _psr(rnd: random.Random, piloting: int, pre: int, triggers: list[int | str], mode: str,
         gyro_hits: int = 0, helpless: bool = False) -> tuple[bool, int]:
    """Roll a unit's PSRs; returns (fell, TN of the failed roll). A destroyed gyro (2 hits)
    cannot keep the 'Mech standing (reference 4.2), nor can a ``helpless`` one (shut down or
    unconscious pilot, reference 4.1, D22): its first roll is an automatic fall."""
    situ = sum(t for t in triggers if isinstance(t, int))
    for t in triggers:
        if not isinstance(t, int) or gyro_hits >= 2 or helpless:  # "auto": a certain fall
            return True, 13
        tn = piloting + pre + (situ if mode == "cumulative" else t)
        if rnd.randint(1, 6) + rnd.randint(1, 6) < min(tn, 13):
            return True, min(tn, 13)
    return False, 0


def _fall(rnd: random.Random, tons: int, levels: int, column: str | None
          ) -> tuple[dict[str, int], int]:
    """Fall damage by location and the number of groups that struck the head."""
    dmg = _ceil10(tons) * (levels + 1)
    col = column or FACING[rnd.randint(1, 6)]
    out: dict[str, int] = {}
    heads = 0
    for g in _groups(dmg):
        loc, _ = _loc(rnd, "std", col)
        out[loc] = out.get(loc, 0) + g
        heads += loc == "HD"
    return out, heads


def one_trial(sc: Any, rnd: random.Random, sts: list[dict] | None = None) -> dict[str, Any]:
    """Resolve one attack. Returns per-trial outcomes (damage by location, falls, ...)."""
    r = sc.rules
    a = sc.attack
    sts = strikes(sc) if sts is None else sts
    res: dict[str, Any] = {"hits": 0, "damage": 0, "loc": {}, "head_hit": False,
                           "head_damage": 0, "tac": False, "self": 0, "t_fell": False,
                           "a_fell": False, "t_fall": {}, "a_fall": {}, "t_disp": False,
                           "a_disp": False, "t_pilot": 0, "a_pilot": 0}
    any_hit = False
    for st in sts:
        if rnd.randint(1, 6) + rnd.randint(1, 6) < st["tn"]:
            continue
        any_hit = True
        res["hits"] += 1
        res["damage"] += st["damage"]
        for g in st["groups"]:
            loc, tac = _loc(rnd, st["table"], st["col"])
            res["loc"][loc] = res["loc"].get(loc, 0) + g
            if loc == "HD":
                res["head_hit"] = True
                res["head_damage"] += g
                res["t_pilot"] += 1
            res["tac"] |= tac and r.tac
    counter = False
    if a == "push" and sc.mutual_push and sts:
        counter = rnd.randint(1, 6) + rnd.randint(1, 6) >= sc.target_piloting - 1
    t_tr: list[int | str] = []
    a_tr: list[int | str] = []
    psr_ok = not sc.displacement_prohibited or r.charge_psr_without_displacement
    if a == "kick" and sts:
        (t_tr if any_hit else a_tr).append(0)
    if a == "push" and any_hit:
        t_tr.append(0)
    if a == "charge" and any_hit:
        res["self"] = _ceil10(sc.target_tons)
        for _g in _groups(res["self"]):
            if _loc(rnd, "std", "front")[0] == "HD":
                res["a_pilot"] += 1
        if psr_ok:
            t_tr.append(2)
            a_tr.append(2)
    missed_dfa = False
    if a == "dfa" and sts:
        if any_hit:
            res["self"] = -(-sc.tons // 5)
            t_tr.append(2)
            a_tr.append(4)
        else:
            a_tr.append("auto")
            missed_dfa = True
    if counter:
        a_tr.append(0)
    if res["damage"] >= 20:
        t_tr.append(1)
    if res["self"] >= 20:
        a_tr.append(1)
    if sc.target_prone:
        t_tr = []  # a prone target is already down: no PSR, no fall
    mode = r.psr_modifiers
    tpre = _pre(set(sc.target_damaged), sc.target_gyro_hits)
    apre = _pre(set(sc.damaged) | set(sc.missing), sc.gyro_hits)
    for who, tr, pil, pre, tons, gy in (
            ("t", t_tr, sc.target_piloting, tpre, sc.target_tons, sc.target_gyro_hits),
            ("a", a_tr, sc.piloting, apre, sc.tons, sc.gyro_hits)):
        if not tr:
            continue
        helpless = (who == "t" and r.immobile_psr == "auto-fail"
                    and sc.target_immobile_cause in ("shutdown", "unconscious"))
        fell, failed_tn = _psr(rnd, pil, pre, tr, mode, gy, helpless)
        if not fell:
            continue
        res[f"{who}_fell"] = True
        md = who == "a" and missed_dfa
        levels = 2 if md else 0
        fall, heads = _fall(rnd, tons, levels, "rear" if md else None)
        res[f"{who}_fall"] = fall
        res[f"{who}_pilot"] += heads  # every fall group striking the head hits the pilot
        if who == "t" and sc.target_immobile:
            ptn = 13
        elif r.fall_pilot_damage == "tw":
            ptn = pil + pre + levels
        elif md:
            ptn = pil + pre + 1
        else:
            ptn = failed_tn + (levels - 1 if levels >= 2 else 0)
        if rnd.randint(1, 6) + rnd.randint(1, 6) < min(ptn, 13):
            res[f"{who}_pilot"] += 1
    if not r.pilot_damage:
        res["t_pilot"] = res["a_pilot"] = 0
    if any_hit and not sc.displacement_prohibited:
        res["t_disp"] = a in ("charge", "dfa") or (a == "push" and not counter)
    if missed_dfa:
        res["t_disp"] = True
    res["a_disp"] = counter and not any_hit and not sc.displacement_prohibited
    if a == "charge" and sts and not any_hit:
        res["a_disp"] = True  # a missed charger ends in the left/right front hex (4.6)
    res["any_hit"] = any_hit
    return res


LOCS = ("HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL", "CTR", "LTR", "RTR")


def run(sc: Any, n: int, seed: int = 0) -> dict[str, float]:
    """Run ``n`` oracle trials; return the mean of every metric (same names as the model;
    conditional metrics NaN when nothing hit). Scenarios the oracle finds impossible
    (:func:`impossible`) make no attack."""
    rnd = random.Random(seed)
    sts = [] if impossible(sc) else strikes(sc)
    keys = ["p_hit", "expected_hits", "expected_damage", "p_head_hit", "p_head_destroyed",
            "p_tac", "expected_self_damage", "p_target_falls", "p_attacker_falls",
            "expected_fall_damage_target", "expected_fall_damage_attacker",
            "p_target_displaced", "p_attacker_displaced", "expected_pilot_damage_target",
            "expected_pilot_damage_attacker"]
    tot = dict.fromkeys(keys, 0.0)
    for x in LOCS:
        tot[f"expected_damage_{x}"] = 0.0
        tot[f"expected_fall_damage_target_{x}"] = 0.0
        tot[f"expected_fall_damage_attacker_{x}"] = 0.0
    hits = 0
    dmg_hit = 0.0
    self_hit = 0.0
    for _ in range(n):
        o = one_trial(sc, rnd, sts)
        hits += o["any_hit"]
        dmg_hit += o["damage"]
        self_hit += o["self"]
        tot["p_hit"] += o["any_hit"]
        tot["expected_hits"] += o["hits"]
        tot["expected_damage"] += o["damage"]
        tot["p_head_hit"] += o["head_hit"]
        tot["p_head_destroyed"] += o["head_damage"] >= 12
        tot["p_tac"] += o["tac"]
        tot["expected_self_damage"] += o["self"]
        tot["p_target_falls"] += o["t_fell"]
        tot["p_attacker_falls"] += o["a_fell"]
        tot["expected_fall_damage_target"] += sum(o["t_fall"].values())
        tot["expected_fall_damage_attacker"] += sum(o["a_fall"].values())
        tot["p_target_displaced"] += o["t_disp"]
        tot["p_attacker_displaced"] += o["a_disp"]
        tot["expected_pilot_damage_target"] += o["t_pilot"]
        tot["expected_pilot_damage_attacker"] += o["a_pilot"]
        for x, v in o["loc"].items():
            tot[f"expected_damage_{x}"] += v
        for x, v in o["t_fall"].items():
            tot[f"expected_fall_damage_target_{x}"] += v
        for x, v in o["a_fall"].items():
            tot[f"expected_fall_damage_attacker_{x}"] += v
    out = {k: v / n for k, v in tot.items()}
    out["damage"] = dmg_hit / hits if hits else math.nan
    out["self_damage"] = self_hit / hits if hits else math.nan
    return out


def scalar_trials(params: Mapping[str, Any], rng: np.random.Generator, n: int) -> dict[str, float]:
    """Scalar baseline of the ``attack`` model: ``n`` trials of the scenario ``params``
    (means by metric)."""
    from sim.classic.scenario import build

    return run(build(params), n, seed=int(rng.integers(2**62)))
