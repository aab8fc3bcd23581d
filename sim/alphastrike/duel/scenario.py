"""Validated duel scenarios: parameters in, a frozen (hashable) :class:`DuelScenario` out.

Tactics (issue 22, :mod:`sim.alphastrike.duel.tactics`): ``tactic_a`` / ``tactic_b`` (a name
or a callable; default ``competent`` for one unit a side, ``stand-and-fire`` for forces, under
``closing`` and when ``moved_*`` or ``policy_*`` is given). ``moved_*`` and ``policy_*``
belong to ``stand-and-fire`` (another tactic chooses the mode and the fire itself).

Range (20.5, 20.7): a fixed band (``range``), a per-turn script (``ranges``: ``"long,medium,
short"``, the last entry repeats), or a closing policy (``closing``: ``close`` = both units
close at full Move, floor 1", from ``start_distance`` inches; the band is that of the distance
after movement). None of them: the tactics move from ``start_distance`` (free movement); with
``stand-and-fire`` on both sides the old default, a fixed Short band. Stance defaults follow
20.6: moved on the ground, front-on, clear terrain, no overheat (``never``), turn limit 30.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim import options
from sim.alphastrike import tables as T
from sim.alphastrike.duel.rules import TARGETING, DuelRules, build_rules
from sim.alphastrike.duel.sides import MOVED, TERRAIN, Side, UnitSpec, build_unit, parse_side
from sim.alphastrike.duel.tactics import STAND_AND_FIRE, ASTactic
from sim.alphastrike.duel.tactics import resolve as resolve_tactic
from sim.alphastrike.rules import ASRules
from sim.errors import ConfigError, check_choice, check_int

#: Parameters of a duel scenario (besides rule option names of DuelRules / ASRules).
PARAMS: dict[str, Any] = {
    "a": None, "b": None,              # sides: "UNIT", "UNIT@SKILL", "U@S,U@S" (<= 4 units)
    "skill_a": 4, "skill_b": 4,        # default skill of units written without @SKILL
    "range": None,                     # fixed band, or "free" (None: free movement, or
                                       # short when both sides play stand-and-fire)
    "ranges": None,                    # per-turn script "long,medium,short" (last repeats)
    "closing": None,                   # closing policy (20.7): "close"
    "start_distance": 40,              # inches, for closing (E15 starts at 40")
    "moved_a": None, "moved_b": None,  # stand-and-fire's stance (default ground)
    "policy_a": None, "policy_b": None,  # stand-and-fire's overheat policy (default never)
    "tactic_a": None, "tactic_b": None,  # None: competent (1 vs 1), stand-and-fire otherwise
    "terrain_a": "clear", "terrain_b": "clear",
    "targeting_a": None, "targeting_b": None,   # None -> rule option ``targeting``
    "turns": 30,
    "rules": "default",                # preset of the alphastrike options (btsim rules)
    "edit_a": None, "edit_b": None,    # a design edit of the side's unit (issue 20): the
                                       # unit plays its converted card (sim.units.edited)
}
#: Closing policies implemented (20.7): ``close`` (both close at full Move) and ``hold-band``
#: (the faster unit keeps its preferred band; rule option ``hold_band`` says which band it
#: prefers). Joel47's prior-art policies are not implemented.
CLOSING = ("close", "hold-band")
#: Distance bands (20.5): upper bound in inches of Short, Medium, Long, Extreme.
BAND_EDGES = (6, 24, 42, 60)


@dataclass(frozen=True)
class DuelScenario:
    """One validated duel (hashable: the exact chain caches on it)."""

    a: Side
    b: Side
    bands: tuple[int, ...]        # band index per turn (empty under closing)
    closing: str | None
    start_distance: int
    turns: int
    dr: DuelRules
    asr: ASRules
    range_label: str
    overrides: tuple[tuple[str, Any], ...]
    preset: str = "default"
    #: band (0 short, 1 medium, 2 long) each unit keeps under ``hold-band`` (A, B)
    prefer: tuple[int, int] = (0, 0)
    #: the sides' tactics (A, B)
    tactics: tuple[ASTactic, ASTactic] = (STAND_AND_FIRE, STAND_AND_FIRE)
    #: the tactics choose the distance (no band, script or closing given)
    free: bool = False

    @property
    def tactical(self) -> bool:
        """Initiative and tactic decisions are played (a side is not ``stand-and-fire``)."""
        return any(t is not STAND_AND_FIRE for t in self.tactics)

    @property
    def one_vs_one(self) -> bool:
        return len(self.a.units) == 1 and len(self.b.units) == 1

    def notes(self) -> list[str]:
        """Every special not simulated, and the duel conventions a reader must know."""
        seen: list[str] = []
        for u in self.a.units + self.b.units:
            for n in u.notes:
                if n not in seen:
                    seen.append(n)
        if self.tactical:
            seen.append("initiative is rolled every turn (20.1; rule option initiative="
                        f"{self.dr.initiative}): the loser moves first, the winner reacts; "
                        "tactics " + f"A: {self.tactics[0].name}, B: {self.tactics[1].name}"
                        + (f" (free movement from {self.start_distance}\", 1\"-60\")"
                           if self.free else f" (range imposed: {self.range_label})"))
            if not self.one_vs_one:
                seen.append("force fight with tactics: each unit picks its target by its "
                            "side's targeting policy, then plays its side's tactic as in a "
                            "1-vs-1 against that target (mode and OV from that pairing's "
                            "decision table)")
            if self.closing:
                seen.append(f"closing {self.closing} with tactics: the policy moves the units "
                            "in their fixed stances; the tactics choose the fire")
            if any(t.name in ("brawler", "charge") for t in self.tactics):
                seen.append("brawler/charge close to contact (1\"); Alpha Strike physical "
                            "attacks are not simulated in the duel: at contact the units "
                            "make their standard attacks at Short")
        else:
            seen.append("initiative is not rolled: with simultaneous fire, a fixed or "
                        "scripted band or the 'close' policy, and one target per attacker, "
                        "it changes nothing (20.1, 20.9)")
        if self.closing == "hold-band":
            bands = ("short", "medium", "long")
            seen.append("hold-band: the faster unit moves last every turn (as if it always won "
                        "initiative) and keeps its preferred band (A: "
                        f"{bands[self.prefer[0]]}, B: {bands[self.prefer[1]]}; rule option "
                        f"hold_band={self.dr.hold_band}); equal Moves close as 'close' (20.7)")
        seen.append("a stalemate (neither side can damage the other) is reported as a timeout "
                    "at the turn limit (20.2)")
        seen.append("no physical attacks: they need contact, which a duel at range never has "
                    "(22.2); special weapon attacks (AC/LRM/SRM/IF) are never better than the "
                    "standard attack with standard ammunition (22.2) and are not used")
        if any(u.terrain == "woods" for u in self.a.units + self.b.units):
            seen.append("woods: +2 to attacks against the unit in woods only (AS13); the ASCE "
                        "reading (attacker in woods too) is not simulated")
        return seen


def range_params(range: str | None = None, ranges: Any = None,
                 closing: str | None = None) -> dict[str, Any]:
    """The range parameters of a duel from the three mutually exclusive ways to give them
    (default: a fixed Short band); ConfigError when more than one is given."""
    given = [k for k, v in (("range", range), ("ranges", ranges), ("closing", closing))
             if v is not None]
    if len(given) > 1:
        raise ConfigError("range", ",".join(given), "only one of range, ranges, closing")
    if ranges is not None:
        return {"ranges": ranges}
    if closing is not None:
        return {"closing": closing}
    return {} if range is None else {"range": range}


#: Inches of each band (20.5): Short 0-6 (floor 1), Medium 7-24, Long 25-42.
_BAND_LO = np.array([1, 7, 25], dtype=np.int16)
_BAND_HI = np.array([6, 24, 42], dtype=np.int16)


def move_distance(dist: np.ndarray, move_a: np.ndarray, move_b: np.ndarray,
                  scn: DuelScenario) -> np.ndarray:
    """Distance after this turn's movement (20.7), vectorized over trials or chain states.

    ``move_a``/``move_b``: each unit's current Move (ground after heat and MP hits, or jump).
    ``close``: both close at full Move, floor 1" (example E15). ``hold-band``: with equal
    Moves both close; otherwise the slower unit closes at full Move and the faster one, moving
    last, ends as near its preferred band (:attr:`DuelScenario.prefer`) as its Move allows,
    moving no more than it must (it stays put when already inside the band).
    """
    ma, mb = move_a.astype(np.int16), move_b.astype(np.int16)
    closed = np.maximum(dist - ma - mb, 1)
    if scn.closing == "close":
        return closed.astype(np.int16)
    a_fast = ma > mb
    slow = np.where(a_fast, mb, ma)
    fast = np.where(a_fast, ma, mb)
    band = np.where(a_fast, scn.prefer[0], scn.prefer[1])
    d1 = np.maximum(dist - slow, 1)
    want = np.clip(d1, _BAND_LO[band], _BAND_HI[band])
    held = np.clip(want, np.maximum(d1 - fast, 1), d1 + fast)
    return np.where(ma == mb, closed, held).astype(np.int16)


def _expected_points(u: UnitSpec, t: UnitSpec, band: int, dr: DuelRules) -> float:
    """Expected points of ``u``'s standard attack on a fresh ``t`` at ``band`` (card damage
    times P(hit) at the starting stances; 0* counts 1/2)."""
    from sim.alphastrike.duel.turn import attack_tn, initial_state
    from sim.dice import p_2d6_at_least

    level = u.levels[band]
    points = 0.5 if level == 1 else float(max(level - 1, 0))
    tn = attack_tn(u, initial_state(u, 1), t, initial_state(t, 1), band, dr)
    return points * float(p_2d6_at_least(tn)[0])


def preferred_band(u: UnitSpec, t: UnitSpec, dr: DuelRules) -> int:
    """The band ``u`` keeps under ``hold-band`` against ``t`` (20.7; rule option
    ``hold_band``): ``net`` -- the largest expected damage dealt minus expected damage taken
    (the 20.7 text); ``own`` -- the largest own card damage (example E15). Ties go to the
    longer band."""
    def score(band: int) -> float:
        if dr.hold_band == "own":
            level = u.levels[band]
            return 0.5 if level == 1 else float(max(level - 1, 0))
        return _expected_points(u, t, band, dr) - _expected_points(t, u, band, dr)

    return max((2, 1, 0), key=score)


def band_of_distance(d: int) -> int:
    """Band index of a distance in inches (20.5); 4 = beyond Extreme (no attack)."""
    for i, edge in enumerate(BAND_EDGES):
        if d <= edge:
            return i
    return 4


def _bands(p: Mapping[str, Any], turns: int) -> tuple[tuple[int, ...], str | None, str]:
    given = [k for k in ("ranges", "closing") if p.get(k) is not None]
    if len(given) > 1:
        raise ConfigError("range", ",".join(given), "only one of range, ranges, closing")
    if p.get("closing") is not None:
        return (), check_choice("closing", p["closing"], CLOSING), f"closing:{p['closing']}"
    if p.get("ranges") is not None:
        r = p["ranges"]
        items = [x.strip() for x in r.split(",")] if isinstance(r, str) else list(r)
        if not items:
            raise ConfigError("ranges", r, "a comma-separated list of short, medium, long")
        idx = [T.RANGE_INDEX[check_choice("ranges", x, ("short", "medium", "long"))]
               for x in items]
        idx = (idx + [idx[-1]] * turns)[:turns]
        return tuple(idx), None, ",".join(items)
    if p.get("range") is None or p["range"] == "free":
        return (), None, "free"
    band = check_choice("range", p["range"], ("short", "medium", "long", "free"))
    return (T.RANGE_INDEX[band],) * turns, None, band


def _tactics(p: Mapping[str, Any], force: bool, closing: bool = False
             ) -> tuple[ASTactic, ASTactic]:
    """Both sides' tactics. A side without ``tactic_*`` plays ``competent``, or
    ``stand-and-fire`` in a force fight, under a closing policy, or when a fixed stance or
    overheat policy (``moved_*``, ``policy_*``) is given for either side (the old fixed duel).
    Under a closing policy a tactic chooses the fire (the policy moves the units, each in its
    fixed stance); in a force fight each unit plays it against its target (the kernel)."""
    fixed_given = any(p[f"{k}_{s}"] is not None for k in ("moved", "policy") for s in "ab")
    out = []
    for s in ("a", "b"):
        raw = p[f"tactic_{s}"]
        if raw is None:
            raw = "stand-and-fire" if force or closing or fixed_given else "competent"
        t = resolve_tactic(raw, f"tactic_{s}")
        if t is not STAND_AND_FIRE:
            for k, what in (("moved", "movement mode"), ("policy", "overheat policy")):
                if p[f"{k}_{s}"] is not None and not (closing and k == "moved"):
                    raise ConfigError(f"{k}_{s}", p[f"{k}_{s}"], f"only with tactic_{s}="
                                      f"stand-and-fire (tactic {t.name} chooses the {what})")
        out.append(t)
    return out[0], out[1]


def build_scenario(params: Mapping[str, Any]) -> DuelScenario:
    """Validate duel ``params`` (keys of :data:`PARAMS` and rule option names)."""
    allowed = tuple(PARAMS) + options.model_names("duel")
    unknown = [k for k in params if k not in allowed]
    if unknown:
        raise ConfigError("duel parameter", unknown[0],
                          "one of " + ", ".join(repr(k) for k in allowed))
    p = dict(PARAMS)
    p.update(params)
    over = {k: v for k, v in params.items() if k not in PARAMS}
    dr, asr = build_rules(p["rules"], over)
    turns = check_int("turns", p["turns"], 1, 200)
    bands, closing, label = _bands(p, turns)
    start = check_int("start_distance", p["start_distance"], 1, BAND_EDGES[-1])
    side_pairs = []
    for s in ("a", "b"):
        if p[s] is None or (isinstance(p[s], str) and not p[s].strip()):
            raise ConfigError(f"side {s.upper()}", p[s], "1 to 4 units, e.g. 'Atlas AS7-D@3'")
        pairs = parse_side(p[s], p[f"skill_{s}"], f"side {s.upper()}")
        if p[f"edit_{s}"] not in (None, "", []):
            if len(pairs) != 1:
                raise ConfigError(f"edit_{s}", p[f"edit_{s}"], f"an edit of a side of one "
                                  f"unit (side {s.upper()} has {len(pairs)})")
            from sim.units.edited import edit_side

            pairs = [(edit_side(pairs[0][0], p[f"edit_{s}"], f"edit_{s}"), pairs[0][1])]
        side_pairs.append(pairs)
    force = len(side_pairs[0]) > 1 or len(side_pairs[1]) > 1
    tacs = _tactics(p, force, closing is not None)
    tactical = any(t is not STAND_AND_FIRE for t in tacs)
    free = not bands and closing is None and tactical and not force
    if not bands and closing is None and not free:
        if p.get("range") == "free":        # nobody moves: the band of the start distance
            bands = (band_of_distance(start),) * turns
        else:                               # the old default: Short
            bands, label = (T.RANGE_INDEX["short"],) * turns, "short"
    used = tuple(sorted(set(bands))) if bands else (0, 1, 2)
    sides = []
    for s, pairs in zip(("a", "b"), side_pairs, strict=True):
        moved = check_choice(f"moved_{s}", p[f"moved_{s}"] or "ground", MOVED)
        terrain = check_choice(f"terrain_{s}", p[f"terrain_{s}"], tuple(TERRAIN))
        units: list[UnitSpec] = [
            build_unit(u, sk, policy=p[f"policy_{s}"] or "never", moved=moved,
                       terrain=terrain, asr=asr, dr=dr, bands=used, tactical=tactical)
            for u, sk in pairs]
        tg = p[f"targeting_{s}"] or dr.targeting
        tg = check_choice(f"targeting_{s}", tg, TARGETING)
        sides.append(Side(tuple(units), tg))
    if closing and not (len(sides[0].units) == 1 and len(sides[1].units) == 1):
        raise ConfigError("closing", closing, "a fixed band or a script for force fights "
                          "(closing is simulated for one unit per side)")
    prefer = (0, 0)
    if closing == "hold-band":
        ua, ub = sides[0].units[0], sides[1].units[0]
        prefer = (preferred_band(ua, ub, dr), preferred_band(ub, ua, dr))
    return DuelScenario(a=sides[0], b=sides[1], bands=bands, closing=closing, prefer=prefer,
                        tactics=tacs, free=free,
                        start_distance=start, turns=turns, dr=dr, asr=asr, range_label=label,
                        overrides=tuple(sorted(
                            (k, str(getattr(dr if hasattr(dr, k) else asr, k))) for k in over)),
                        preset=p["rules"])
