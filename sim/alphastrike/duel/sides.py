"""Sides of a duel: parsing ``UNIT``, ``UNIT@SKILL`` or a force ``"UNIT@SKILL,UNIT@SKILL"``
(up to :data:`MAX_UNITS` units), and each unit's frozen :class:`UnitSpec`: the card values the
duel needs plus its stance tables (reference-as-combat 20.6, reference 6.1, 6.3, 6.6).

Stance tables are indexed by the *profile* ``p = heat + 5 * mp_hits`` (heat 0..4, 4 = shut
down; MP hits 0..``mp_full``, where every Move is 0 and more MP hits change nothing but deal
the 20.3 item 5 point):

* ``tmod[p]`` -- the modifier attackers get against the unit (its TMM by stance, -4 when
  immobile or shut down);
* ``amod[p]`` -- the unit's own attacker movement modifier (+0 moved, -1 stood still D20,
  +2 jumped, A18 when immobile);
* ``move[p]`` -- the inches it can move this turn (ground after heat, or jump) for the
  closing policy (20.7).

``tmod_m``/``amod_m``/``move_m``/``mas_m`` hold the same tables for every movement mode of
:data:`MOVED` (index ``mode * n_profiles + p``), for tactics that choose the mode each turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.alphastrike import tables as T
from sim.alphastrike.duel.rules import DuelRules
from sim.alphastrike.duel.specials import note_for
from sim.alphastrike.policies import Policy, parse_policy
from sim.alphastrike.pv import pv_at_skill
from sim.alphastrike.rules import ASRules
from sim.alphastrike.scenario import mp_tables
from sim.dice import TWO_D6_OUTCOMES
from sim.errors import ConfigError, UserError, check_choice, check_int
from sim.units.tables import tmm_from_move
from sim.units.types import ASCard

#: Most units on one side (issue 10: "a small force of up to 4 units").
MAX_UNITS = 4
#: Movement modes of a side (20.6): moved on the ground (default), stood still, jumped.
MOVED = ("ground", "still", "jump")
#: Terrain of a unit (reference 6.1 AS13 target modifiers; 6.4 water): name -> (modifier to
#: attacks against the unit, water depth in inches it stands in).
TERRAIN: dict[str, tuple[int, int]] = {
    "clear": (0, 0),
    "woods": (2, 0),        # woods +2 (AS13; ASCE: also when the attacker is in woods)
    "cover": (2, 0),        # partial cover +2 (AS13)
    "water": (0, 1),        # standing in water 1" deep: cooling per 6.4 (D2, D3)
    "underwater": (1, 2),   # underwater +1 (AS13), water 2" deep
}
#: The crit table rows a modified roll can reach: 0..14 (CR -2 .. IRA +1).
_ROLL_MIN, _ROLL_MAX = 0, 14


@dataclass(frozen=True)
class UnitSpec:
    """One unit of a side with everything the duel's turn functions need (hashable)."""

    name: str
    skill: int
    pv: int | None            # card PV (Skill 4)
    pv_skill: int | None      # PV at ``skill`` (23.1)
    armor: int
    structure: int
    has_heat: bool
    ammo_mode: str            # destroy | case | immune (6.6)
    levels: tuple[int, int, int, int]   # damage level per band: 0 none, 1 = 0*, v + 1 = v
    ov: int
    ovl: bool
    policy: Policy
    moved: str
    terrain: str
    terrain_mod: int
    water_depth: int
    mp_full: int              # MP hits after which every Move is 0
    wh_full: int              # Weapon hits after which every damage value is 0
    fc_cap: int               # Fire Control hits after which no attack can hit (TN >= 13)
    tmod: tuple[int, ...]     # [profile]
    amod: tuple[int, ...]     # [profile]
    move: tuple[int, ...]     # [profile]
    crit_prob: tuple[float, ...]   # P(result code) of one crit roll (CR/IRA applied)
    crit_codes: tuple[int, ...]    # code per equally likely crit outcome (36, or 216: CASEP)
    missile_user: bool        # has IF, LRM or SRM (AMS, Narc react to its attacks)
    ams: bool
    ecm: bool
    narcs: int                # Narc launchers (SNARC/INARC/CNARC #)
    narc_reach: int           # farthest band index a Narc reaches (0 short, 1 medium)
    arm: bool
    bar: bool
    stl: bool
    shld: bool
    fr: bool
    ht: tuple[int, int, int, int]
    notes: tuple[str, ...]
    # -- damage modifiers of 21.3 (defaults: none) -----------------------------------------
    bra: bool = False          # target: BRA halves attacks by AC/IATM/IF/LRM/SRM units
    bra_trigger: bool = False  # attacker: has AC, IATM, IF, LRM or SRM
    rca: bool = False          # target: RCA
    rca_red: tuple[int, int, int, int] = (0, 0, 0, 0)   # attacker: RCA reduction per band
    rfa: bool = False          # target: RFA
    ene: bool = False          # attacker: ENE (RFA halves its points)
    mas: tuple[int, ...] = ()  # target: MAS/LMAS TN modifier per profile (empty: none)
    bhj: int = 0               # armor recovered per End Phase (BHJ2 1, BHJ3 2)
    rhs: bool = False          # RHS: End Phase heat flush (1D6: 1 = lost)
    ecs: bool = False          # ECS: at heat 4, 1D6 >= 2: -2 heat; 1: lost + Engine Hit
    ee: bool = False           # EE engine: Engine Hits add no heat; 2D6 12 after firing
    # -- every movement mode, for tactics (index ``mode * n_profiles + profile``, modes in
    # the order of :data:`MOVED`; each mode with the 20.6 fallbacks of its fixed stance) ----
    tmod_m: tuple[int, ...] = ()
    amod_m: tuple[int, ...] = ()
    move_m: tuple[int, ...] = ()
    mas_m: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return self.armor + self.structure

    @property
    def n_profiles(self) -> int:
        return 5 * (self.mp_full + 1)

    def label(self) -> str:
        return f"{self.name}@{self.skill}"


@dataclass(frozen=True)
class Side:
    """A side: 1..4 units, its movement, terrain, overheat policy and targeting policy."""

    units: tuple[UnitSpec, ...]
    targeting: str

    @property
    def label(self) -> str:
        return ",".join(u.label() for u in self.units)

    @property
    def pv(self) -> int | None:
        """Force PV at skill (23.3), None when a card has no PV."""
        if any(u.pv_skill is None for u in self.units):
            return None
        return sum(u.pv_skill for u in self.units)  # type: ignore[misc]


def parse_side(text: Any, default_skill: int, field: str = "side") -> list[tuple[Any, int]]:
    """``"UNIT"``, ``"UNIT@SKILL"`` or ``"U@S,U@S"`` (or a list of names / (card, skill)
    pairs) -> ``[(unit, skill), ...]``; skills 0-7, 1 to 4 units."""
    skill_d = check_int(f"{field} skill", default_skill, 0, 7)
    if isinstance(text, ASCard):
        return [(text, skill_d)]
    if isinstance(text, str):
        parts: Sequence[Any] = [p.strip() for p in text.split(",")]
    elif isinstance(text, list | tuple):
        parts = list(text)
    else:
        raise ConfigError(field, text, "a unit name, 'UNIT@SKILL' or 'UNIT@SKILL,UNIT@SKILL'")
    out: list[tuple[Any, int]] = []
    for p in parts:
        if isinstance(p, tuple) and len(p) == 2:
            out.append((p[0], check_int(f"{field} skill", p[1], 0, 7)))
            continue
        if isinstance(p, ASCard):
            out.append((p, skill_d))
            continue
        if not isinstance(p, str) or not p.strip():
            raise ConfigError(field, text, "1 to 4 units, e.g. 'Atlas AS7-D@3,Locust LCT-1V'; "
                              "got an empty unit")
        name, sep, sk = p.rpartition("@")
        if sep:
            out.append((name.strip(), check_int(f"{field} skill", sk.strip(), 0, 7)))
        else:
            out.append((p.strip(), skill_d))
    if not out or len(out) > MAX_UNITS:
        raise ConfigError(field, text, f"1 to {MAX_UNITS} units")
    return out


def _card(unit: Any) -> ASCard:
    if isinstance(unit, ASCard):
        return unit
    if isinstance(unit, str):
        from sim.units.catalog import get_alphastrike

        return get_alphastrike(unit)
    raise ConfigError("unit", unit, "a unit name, a card file path or an ASCard")


def _crit_table(cr: bool, ira: bool, casep: bool = False
                ) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """The crit roll as equally likely outcomes -> result code, and the probability of each
    code (6.6, 21.2, E10). CR: -2 on the roll (modified <= 1: no crit; A7 literal); IRA: +1
    (above 12: Engine Hit). Outcomes are the 36 ordered 2D6 rolls; with CASEP the 216 rolls of
    2D6 and the attacker's 1D6 (an Ammo Hit destroys on 1-2, else nothing)."""
    mod = (-2 if cr else 0) + (1 if ira else 0)
    by_total = []
    for r in range(13):
        m = r + mod
        if r < 2 or m <= 1:
            by_total.append(T.CRIT_NONE)
        elif m > 12:
            by_total.append(T.CRIT_ENGINE)
        else:
            by_total.append(int(T.CRIT_MECH[m]))
    codes = [by_total[int(t)] for t in TWO_D6_OUTCOMES]
    if casep:
        codes = [(T.CRIT_DESTROYED if d <= 2 else T.CRIT_NONE) if c == T.CRIT_AMMO else c
                 for c in codes for d in range(1, 7)]
    prob = np.bincount(np.array(codes), minlength=len(T.CRIT_NAMES)) / len(codes)
    return tuple(codes), tuple(float(p) for p in prob)


def _special_value(card: ASCard, code: str, default: int) -> int:
    s = card.specials.get(code)
    if s is None:
        return 0
    v = s.values[0] if s.values else None
    return v if isinstance(v, int) else default


def _stance(card: ASCard, moved: str, asr: ASRules, dr: DuelRules, jmp: int
            ) -> tuple[list[int], list[int], list[int], int]:
    """tmod, amod, move per profile (20.6 default stance and its alternatives)."""
    move, jump, tmm = mp_tables(card, asr)
    mp_full = next((k for k in range(len(move)) if move[k] == 0 and jump[k] == 0),
                   len(move) - 1)
    tsm = card.has("TSM")
    tmod, amod, mv = [0] * (5 * (mp_full + 1)), [0] * (5 * (mp_full + 1)), [0] * (5 * (mp_full + 1))
    for k in range(mp_full + 1):
        if dr.jump_tmm == "compute":
            jt = max(0, tmm_from_move(jump[k]) + jmp) + 1
        else:
            jt = tmm[k] + 1
        for h in range(5):
            p = h + 5 * k
            if h >= T.SHUTDOWN_HEAT:
                tmod[p], amod[p], mv[p] = T.IMMOBILE_MOD, 0, 0
                continue
            ground = max(0, move[k] - T.HEAT_MOVE_LOSS * h + (2 if tsm and h >= 1 else 0))
            g_tmm = max(0, tmm[k] - (1 if h >= asr.heat_tmm_threshold else 0))
            if moved == "jump" and jump[k] > 0:
                tmod[p], amod[p], mv[p] = jt, asr.jumped_mod, jump[k]
            elif ground > 0:
                if moved == "still":
                    tmod[p], amod[p], mv[p] = 0, asr.stood_still_mod, 0
                else:
                    tmod[p], amod[p], mv[p] = g_tmm, 0, ground
            elif jump[k] > 0 and moved != "still":       # 20.6: ground Move 0, jumps
                tmod[p], amod[p], mv[p] = jt, asr.jumped_mod, jump[k]
            elif move[k] > 0 and dr.heat_immobile == "still":   # A19 alternative
                tmod[p], amod[p], mv[p] = 0, asr.stood_still_mod, 0
            else:                                         # immobile (A18, A19)
                tmod[p], amod[p], mv[p] = T.IMMOBILE_MOD, dr.immobile_own_mod, 0
    return tmod, amod, mv, mp_full


def build_unit(unit: Any, skill: int, *, policy: Any = "never", moved: str = "ground",
               terrain: str = "clear", asr: ASRules | None = None,
               dr: DuelRules | None = None, bands: Sequence[int] = (0, 1, 2),
               tactical: bool = False) -> UnitSpec:
    """A :class:`UnitSpec` for ``unit`` (name, card file or ASCard) at ``skill``
    (``tactical``: a tactic chooses the movement mode, so the Fire Control cap covers every
    mode)."""
    asr = asr or ASRules()
    dr = dr or DuelRules()
    card = _card(unit)
    skill = check_int("skill", skill, 0, 7)
    moved = check_choice("moved", moved, MOVED)
    if moved == "jump" and card.jump <= 0:
        raise ConfigError("moved", moved, f"'ground' or 'still' for {card.name} (no jump Move)")
    terrain = check_choice("terrain", terrain, tuple(TERRAIN))
    if card.armor < 0 or card.structure < 1:
        raise UserError(f"{card.name}: a duel needs Structure >= 1")
    notes = []
    for code in sorted(card.specials):
        n = note_for(code, card.specials[code].raw)
        if n is not None:
            notes.append(f"{card.name}: {n}")
    if card.type not in ("BM", "IM"):
        notes.append(f"{card.name}: unit type {card.type}: crits use the 'Mech table, the only "
                     "one in the rules reference (6.6)")
    levels: list[int] = []
    for b in range(4):
        v, mn = int(card.damage[b]), bool(card.minimal[b])
        levels.append(v + 1 if v >= 1 else (1 if mn else 0))
    if dr.weapon_hit_scale == "mekbay":
        wh_full = max(levels)
    else:   # minus1: a value v lasts v hits; a 0* lasts one
        wh_full = max(max(card.damage), 1 if any(card.minimal) else 0)
    jmp = -_special_value(card, "JMPW", 0) + _special_value(card, "JMPS", 0)
    tmod, amod, mv, mp_full = _stance(card, moved, asr, dr, jmp)
    modes = [_stance(card, m, asr, dr, jmp) for m in MOVED]
    tmod_m = tuple(x for st in modes for x in st[0])
    amod_m = tuple(x for st in modes for x in st[1])
    move_m = tuple(x for st in modes for x in st[2])
    # Fire Control hits beyond the point where every attack TN is >= 13 change nothing.
    low = min(amod_m) if tactical else min(amod)
    worst = skill + min(T.RANGE_MOD[T.RANGES[b]] for b in bands) + low + T.IMMOBILE_MOD
    fc_cap = max(0, -(-(13 - worst) // T.FIRE_CONTROL_MOD))
    if card.has("CASEII") or card.has("ENE") or card.has("CASEP"):  # CASEP: in the table
        ammo = "immune"
    elif card.has("CASE"):
        ammo = "case"
    else:
        ammo = "destroy"
    codes, prob = _crit_table(card.has("CR"), card.has("IRA"), card.has("CASEP"))
    narcs, reach = 0, 0
    for code, r in (("SNARC", 1), ("INARC", 1), ("CNARC", 0)):
        if card.has(code):
            narcs += _special_value(card, code, dr.snarc_default)
            reach = max(reach, r)
    ht = card.specials.get("HT")
    htv = tuple(int(v) if isinstance(v, int) else 0 for v in (ht.values if ht else ()))
    htv = (htv + (0, 0, 0, 0))[:4]
    def band_values(code: str) -> list[float]:
        sp = card.specials.get(code)
        vals = list(sp.values) if sp else []
        return [float(v) if isinstance(v, int) else 0.0 for v in (vals + [0, 0, 0, 0])[:4]]

    missile = [a + b for a, b in zip(band_values("LRM"), band_values("SRM"), strict=True)]
    if not (card.has("LRM") or card.has("SRM")) and card.has("IF") and \
            dr.rca_if_only == "half_if":
        ifv = card.specials["IF"].values
        v0 = ifv[0] if ifv else 0
        missile = [0.5 if v0 == "0*" else float(v0 if isinstance(v0, int) else 0)] * 4
    rca_red = tuple(int(-(-x // 2)) if x > 0 else 0 for x in missile)
    mas_v = 3 if card.has("MAS") else (2 if card.has("LMAS") else 0)
    mas: tuple[int, ...] = ()
    mas_m: tuple[int, ...] = ()
    if mas_v:
        def mas_of(tm: Sequence[int], am: Sequence[int], mode: str) -> tuple[int, ...]:
            return tuple(mas_v if (t == T.IMMOBILE_MOD or (t == 0 and a == asr.stood_still_mod
                                                            and mode == "still")) else 0
                         for t, a in zip(tm, am, strict=True))

        mas = mas_of(tmod, amod, moved)
        mas_m = tuple(x for m, st in zip(MOVED, modes, strict=True)
                      for x in mas_of(st[0], st[1], m))
    bhj_sp = card.specials.get("BHJ")
    bhj = 0
    if bhj_sp is not None and bhj_sp.values and bhj_sp.values[0] in (2, 3):
        bhj = 1 if bhj_sp.values[0] == 2 else 2
    return UnitSpec(
        name=card.name, skill=skill, pv=card.pv,
        pv_skill=None if card.pv is None else pv_at_skill(card.pv, skill, dr.pv_step_reading),
        armor=int(card.armor), structure=int(card.structure), has_heat=card.has_heat_scale,
        ammo_mode=ammo, levels=tuple(levels), ov=int(card.ov) if card.has_heat_scale else 0,  # type: ignore[arg-type]
        ovl=card.has("OVL"), policy=parse_policy(policy), moved=moved, terrain=terrain,
        terrain_mod=TERRAIN[terrain][0], water_depth=TERRAIN[terrain][1], mp_full=mp_full,
        wh_full=wh_full, fc_cap=min(fc_cap, 15), tmod=tuple(tmod), amod=tuple(amod),
        move=tuple(mv), crit_prob=prob, crit_codes=codes,
        missile_user=any(card.has(c) for c in ("IF", "LRM", "SRM")),
        ams=card.has("AMS") or card.has("RAMS"), ecm=card.has("ECM"), narcs=narcs,
        narc_reach=reach, arm=card.has("ARM"), bar=card.has("BAR"), stl=card.has("STL"),
        shld=card.has("SHLD"), fr=card.has("FR"), ht=htv, notes=tuple(notes),  # type: ignore[arg-type]
        bra=card.has("BRA"),
        bra_trigger=any(card.has(c) for c in ("AC", "IATM", "IF", "LRM", "SRM")),
        rca=card.has("RCA"), rca_red=rca_red, rfa=card.has("RFA"), ene=card.has("ENE"),  # type: ignore[arg-type]
        mas=mas, bhj=bhj, rhs=card.has("RHS"), ecs=card.has("ECS"), ee=card.has("EE"),
        tmod_m=tmod_m, amod_m=amod_m, move_m=move_m, mas_m=mas_m)
