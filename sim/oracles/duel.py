"""Scalar oracle of the Alpha Strike duel: plain Python, one duel at a time, written from the
rules reference (``reference-as-combat.md`` 20, 21; ``reference.md`` 6) independently of the
vectorized model (it shares only the unit catalog and Python's ``random``).

Tactics (issue 22): ``tactic_a``/``tactic_b`` (default ``competent``; ``stand-and-fire``,
``brawler``, ``sniper``, ``kite``, ``charge``), initiative (2D6 a side, ties re-rolled, or
rule option ``initiative``), free movement from ``start_distance`` when no range is given:
each turn's payoff tables, value-to-go over the distance (:func:`_value_to_go`), maximin
move, best reply and fire choice computed again from the rules with plain loops
(:func:`_tactic_turn`).

Supported: 1-vs-1, a fixed band or a per-turn script, movement ``ground``/``still``/``jump``
(20.6 with the ground -> jump fallback, A13 compute, A18, A19), policies ``hold``, ``never``,
``max``, ``fixed:K``, ``below:H``, default rule options; specials CASE, CASEII, ENE, OVL, AMS,
SNARC + ECM, TSM (Move), JMPW/JMPS, ARM, CR, IRA, STL, SHLD (the catalog's cards need no
more; other specials are ignored). Other parameters or policies raise
``NotImplementedError``. :func:`scalar` is what the benchmark times.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

RANGE = {"short": 0, "medium": 1, "long": 2}
RANGE_TN = (0, 2, 4, 6)
#: 'Mech crit table by 2D6 total (reference 6.6).
TABLE = {2: "ammo", 3: "engine", 4: "fc", 5: None, 6: "weapon", 7: "mp", 8: "weapon",
         9: None, 10: "fc", 11: "engine", 12: "destroyed"}
_OK_KEYS = {"a", "b", "skill_a", "skill_b", "range", "ranges", "turns", "moved_a", "moved_b",
            "policy_a", "policy_b", "terrain_a", "terrain_b", "tactic_a", "tactic_b",
            "initiative", "start_distance"}
_TERRAIN = {"clear": 0, "woods": 2, "cover": 2}


def _tmm_of(move: int) -> int:
    for t, top in enumerate((4, 8, 12, 18, 34)):
        if move <= top:
            return t
    return 5


class _Unit:
    def __init__(self, name: str, skill: int, moved: str, policy: str, terrain: str) -> None:
        from sim.units.catalog import get_alphastrike

        c = get_alphastrike(name)
        self.c, self.skill, self.moved, self.policy = c, skill, moved, policy
        self.terr = _TERRAIN[terrain]
        self.sp = set(c.specials)
        self.heat = self.eng = self.fc = self.wh = self.mp = self.taken = 0
        self.alive, self.narced, self.ever, self.arm = True, False, False, "ARM" in self.sp
        self.mode = moved
        self.req: int | None = None

    def moves(self) -> tuple[int, int, int, bool]:
        """Ground Move, jump Move, TMM after MP hits; and whether every Move is 0."""
        m, j, t = self.c.move, self.c.jump, self.c.tmm
        for _ in range(self.mp):
            m, j, t = max(0, min(m // 2, m - 2)), max(0, min(j // 2, j - 2)), max(0, min(t // 2, t - 1))
        return m, j, t, m == 0 and j == 0

    def stance(self, mode: str | None = None, heat: int | None = None
               ) -> tuple[int, int, int]:
        """(modifier against me, my own movement modifier, inches I can move) this turn in
        ``mode`` (default: this turn's mode) at ``heat`` (default: my heat) (20.6)."""
        mode = self.mode if mode is None else mode
        heat = self.heat if heat is None else heat
        if heat >= 4:
            return -4, 0, 0
        m, j, t, _ = self.moves()
        g = max(0, m - 2 * heat + (2 if "TSM" in self.sp and heat else 0))
        jw = 0
        for code, sign in (("JMPW", -1), ("JMPS", 1)):
            if code in self.c.specials:
                jw += sign * int(self.c.specials[code].values[0] or 0)
        jump_tmm = max(0, _tmm_of(j) + jw) + 1
        if mode == "jump" and j > 0:
            return jump_tmm, 2, j
        if g > 0:
            if mode == "still":
                return 0, -1, 0
            return max(0, t - (1 if heat >= 2 else 0)), 0, g
        if j > 0 and mode != "still":
            return jump_tmm, 2, j
        return -4, -1, 0

    def level(self, band: int) -> int:
        v, mn = self.c.damage[band], self.c.minimal[band]
        return max(0, (v + 1 if v >= 1 else (1 if mn else 0)) - self.wh)

    def full_wh(self) -> bool:
        return all(self.level(b) == 0 for b in range(4))

    def ov_request(self, band: int) -> int:
        ov = self.c.ov if (band < 2 or (band == 2 and "OVL" in self.sp)) else 0
        if self.req is not None:            # a tactic chose it (-1: hold fire)
            return -1 if self.req < 0 else min(self.req, ov)
        p = self.policy
        if p == "hold":
            return -1
        if p == "never":
            return 0
        if p == "max":
            return ov
        kind, _, k = p.partition(":")
        if kind == "fixed":
            return min(int(k), ov)
        if kind == "below":
            return ov if self.heat < int(k) else 0
        raise NotImplementedError(p)


def _roll(rand: Callable[[], float]) -> int:
    return int(rand() * 6) + 1 + int(rand() * 6) + 1


def _crit(u: _Unit, pend: list[int], rand: Callable[[], float]) -> None:
    """One crit roll on ``u`` (6.6, 20.3 item 5, CASE chain, CR/IRA)."""
    mod = (-2 if "CR" in u.sp else 0) + (1 if "IRA" in u.sp else 0)
    r = _roll(rand) + mod
    res = None if r <= 1 else ("engine" if r > 12 else TABLE[r])
    point = False
    if res == "destroyed":
        u.alive = False
    elif res == "ammo":
        if "CASEII" in u.sp or "ENE" in u.sp:
            pass
        elif "CASE" in u.sp:
            point = True
        else:
            u.alive = False
    elif res == "engine":
        u.eng += 1
        if u.eng >= 2:
            u.alive = False
    elif res == "fc":
        u.fc += 1
    elif res == "weapon":
        if u.full_wh():
            point = True
        else:
            u.wh += 1
    elif res == "mp":
        if u.moves()[3]:
            point = True
        else:
            u.mp += 1
    if point:
        pend[0] += 1
        total = u.c.armor + u.c.structure
        if u.alive and u.taken + pend[0] > u.c.armor and u.taken + pend[0] < total:
            _crit(u, pend, rand)


def _shot(a: _Unit, t: _Unit, band: int, heat: int | None = None, t_heat: int | None = None
          ) -> tuple[int, int, int, bool] | None:
    """(TN, OV used, points of a hit before the 0* roll and reductions, 0*) of a's attack on
    t (6.1, 6.2), with a at ``heat`` and t at ``t_heat`` when given; None when a makes no
    attack (shut down, no damage, holding fire, TN above 12)."""
    heat = a.heat if heat is None else heat
    if not a.alive or heat >= 4:
        return None
    saved, a.heat = a.heat, heat
    req = a.ov_request(band)
    a.heat = saved
    lv = a.level(band)
    if req < 0 or lv == 0:
        return None
    tmod = t.stance(heat=t_heat)[0]
    amod = a.stance(heat=heat)[1]
    stl = (0, 1, 2, 2)[band] if "STL" in t.sp else 0
    tn = (a.skill + RANGE_TN[band] + amod + heat + 2 * a.fc + tmod + t.terr + stl
          + (1 if "SHLD" in a.sp else 0))
    if tn > 12:
        return None
    return tn, req, (lv - 1 if lv >= 2 else 0) + req, lv == 1


def _reduce(a: _Unit, t: _Unit, pts: int) -> int:
    """Narc +1, then the target's AMS and SHLD (21.3)."""
    missile = bool({"IF", "LRM", "SRM"} & a.sp)
    if missile and t.narced and "ECM" not in t.sp:
        pts += 1
    if "AMS" in t.sp and missile and pts >= 2:
        pts -= 1
    if "SHLD" in t.sp and pts >= 1:
        pts -= 1
    return pts


def _p_at_least(tn: int) -> float:
    return sum(1 for x in range(1, 7) for y in range(1, 7) if x + y >= tn) / 36


def _attack(a: _Unit, t: _Unit, band: int, rand: Callable[[], float]
            ) -> tuple[bool, int, int]:
    """(fired, OV used, points dealt) of a's attack on t (6.1, 6.2, 21.3)."""
    shot = _shot(a, t, band)
    if shot is None:
        return False, 0, 0
    tn, ov, pts, minimal = shot
    if "SNARC" in a.sp and band <= 1 and not t.narced and "ECM" not in t.sp:
        if _roll(rand) >= tn:
            t.narced = True
    if _roll(rand) < tn and tn > 2:
        return True, ov, 0
    if minimal:
        pts += 1 if int(rand() * 6) + 1 >= 4 else 0
    return True, ov, _reduce(a, t, pts)


def _next_heat(u: _Unit, fired: bool, ov: int, heat: int) -> int:
    """Heat after the End Phase (6.4): shut down -> 0; firing keeps it (+1 with an Engine
    Hit) and adds OV; no attack -> 0."""
    if heat >= 4 or not fired:
        return 0
    return min(4, heat + ov + (1 if u.eng else 0))


def _expect(a: _Unit, t: _Unit, band: int, req: int | None, heat: int | None = None,
            t_heat: int | None = None) -> tuple[float, int]:
    """(expected points, heat after the End Phase) of a's attack on t with OV request
    ``req`` (None: a's policy) -- exact: P(2D6 >= TN) x the points (0*: 1D6 4+ adds 1)."""
    saved, a.req = a.req, req            # None: the unit's policy decides
    shot = _shot(a, t, band, heat, t_heat)
    a.req = saved
    h = a.heat if heat is None else heat
    if shot is None:
        return 0.0, _next_heat(a, False, 0, h)
    tn, ov, pts, minimal = shot
    e = float(_reduce(a, t, pts))
    if minimal:
        e = 0.5 * (e + _reduce(a, t, pts + 1))
    return _p_at_least(tn) * e, _next_heat(a, True, ov, h)


MODES = ("ground", "still", "jump")
BAND_LO, BAND_HI = (1, 7, 25, 43), (6, 24, 42, 60)


def _band(d: int) -> int:
    return 0 if d <= 6 else 1 if d <= 24 else 2 if d <= 42 else 3


#: competent's constants (issue 22; the model's are in sim.alphastrike.duel.tactics):
#: turns of value-to-go, turns a heat level lasts, the floor of a rate of destruction.
LOOKAHEAD, HEAT_TURNS, RATE_FLOOR = 6, 3, 0.05


def _fire_value(u: _Unit, t: _Unit, band: int, fire: str) -> tuple[float, float, int]:
    """(value, expected points, OV request) of u's best fire (modes already set on u and t):
    the share of t it destroys minus the heat cost of the heat it ends at, a point on a unit
    weighing 1 / its Armor + Structure (issue 22): a heat level costs the turn at that heat
    for each of HEAT_TURNS turns, or the turn it holds fire to cool, whichever is less; a
    shutdown lasts one turn."""
    w_out, w_in = 1.0 / (t.c.armor + t.c.structure), 1.0 / (u.c.armor + u.c.structure)
    own = [_expect(u, t, band, 0, heat=h)[0] for h in range(5)]
    inc = [_expect(t, u, band, 0, t_heat=h)[0] for h in range(5)]
    cost = [0.0]
    for h in range(1, 5):
        one = w_out * (own[0] - own[h]) + w_in * (inc[h] - inc[0])
        cool = w_out * own[0] + w_in * (inc[h] - inc[0])
        cost.append(one if h == 4 else min(HEAT_TURNS * one, cool))
    opts: list[int | None] = ([*range(u.c.ov + 1), -1] if fire == "value"
                              else [u.c.ov] if fire == "max" else [None])
    best: tuple[float, float, int] | None = None
    for k in opts:
        pts, h = _expect(u, t, band, k)
        v = w_out * pts - cost[h]
        if best is None or v > best[0] + 1e-9:
            best = (v, pts, -9 if k is None else k)
    assert best is not None
    return best


def _payoffs(ua: _Unit, ub: _Unit, fires: tuple[str, str]) -> dict[tuple[int, int, int], Any]:
    """Per (mode A, mode B, band): (A's payoff: the log of A's rate of destroying B over B's
    rate of destroying A -- each the share of the enemy its fire destroys plus RATE_FLOOR --
    each side's heat cost c taking c / rate off its log rate; A's points, B's points, A's
    request, B's request)."""
    wa, wb = 1.0 / (ua.c.armor + ua.c.structure), 1.0 / (ub.c.armor + ub.c.structure)
    out = {}
    for ma in range(3):
        for mb in range(3):
            ua.mode, ub.mode = MODES[ma], MODES[mb]
            for b in range(4):
                va, pa, ra = _fire_value(ua, ub, b, fires[0])
                vb, pb, rb = _fire_value(ub, ua, b, fires[1])
                rate_a, rate_b = wb * pa + RATE_FLOOR, wa * pb + RATE_FLOOR
                val = ((math.log(rate_a) - (wb * pa - va) / rate_a)
                       - (math.log(rate_b) - (wa * pb - vb) / rate_b))
                out[ma, mb, b] = (val, pa, pb, ra, rb)
    return out


def _value_to_go(val: Callable[[int, int, int], float], reach_a: list[int],
                 reach_b: list[int], dmax: int, p_first: float) -> list[float]:
    """A's value-to-go by the distance after this turn's moves: LOOKAHEAD turns of the same
    payoffs ``val(A mode, B mode, band)``, each with initiative (A first with ``p_first``),
    the first mover's maximin move and the second mover's best reply, by backward induction.
    Index = inches (0 unused)."""
    def win(d: int, r: int) -> range:
        return range(max(d - r, 1), min(d + r, dmax) + 1)

    fut = [0.0] * (dmax + 1)
    for _ in range(LOOKAHEAD):
        # A moves first: A's worst over B's replies, then A's best move
        ra_ = {(m, d1): min(val(m, o, _band(d2)) + fut[d2] for o in range(3)
                            for d2 in win(d1, reach_b[o]))
               for m in range(3) for d1 in range(1, dmax + 1)}
        # B moves first: A's best reply, then B's best move (the least for A)
        rb_ = {(o, d1): max(val(m, o, _band(d2)) + fut[d2] for m in range(3)
                            for d2 in win(d1, reach_a[m]))
               for o in range(3) for d1 in range(1, dmax + 1)}
        new = [0.0]
        for d in range(1, dmax + 1):
            wa = max(ra_[m, d1] for m in range(3) for d1 in win(d, reach_a[m]))
            wb = min(rb_[o, d1] for o in range(3) for d1 in win(d, reach_b[o]))
            new.append(p_first * wa + (1.0 - p_first) * wb)
        fut = new
    return fut


def _pick(cands: Sequence[tuple[float, tuple[int, ...], Any]]) -> Any:
    """The candidate with the best value (within 1e-9), then the smallest tie-break tuple,
    then the first."""
    top = max(c[0] for c in cands)
    best = None
    for v, ties, what in cands:
        if v >= top - 1e-9 and (best is None or ties < best[0]):
            best = (ties, what)
    assert best is not None
    return best[1]


def _gap(d: int, b: int) -> int:
    return max(BAND_LO[b] - d, d - BAND_HI[b], 0)


def _tactic_move(name: str, me: int, d: int, reach: list[int], opp_reach: list[int],
                 val: Callable[[int, int, int], float], dealt: Callable[[int], float],
                 taken: Callable[[int], float], opp_mode: int | None, moved: int,
                 dmax: int, fut: list[float] | None = None) -> tuple[int, int]:
    """(mode index, new distance) of one unit: ``val(own mode, opp mode, band)`` its payoff,
    ``fut`` its value-to-go by the distance after both moves (None: this turn only)."""
    del me
    if name == "stand-and-fire":
        return moved, d

    def toward(mode: int, target: int) -> tuple[int, int]:
        r = reach[mode]
        return mode, min(max(target, max(d - r, 1)), min(d + r, dmax))

    longest = 2 if reach[2] > reach[0] else 0
    if name in ("brawler", "charge"):
        return toward(longest, 1)
    if name in ("sniper", "kite"):
        net = [dealt(b) - taken(b) for b in range(3)]
        nb = max(b for b in range(3) if net[b] >= max(net) - 1e-9)
        if name == "sniper":
            return toward(0, min(max(d, BAND_LO[nb]), BAND_HI[nb]))
        ok = [b for b in range(3) if dealt(b) > 1e-9]
        if ok:
            key = {b: -taken(b) * 1e6 + dealt(b) for b in ok}
            kb = max(b for b in ok if key[b] == max(key.values()))
        else:
            kb = nb
        return toward(longest, BAND_HI[kb])
    assert name == "competent", name
    g = [max(min(val(m, o, b) for o in range(3)) for m in range(3)) for b in range(4)]
    pref = max(b for b in range(4) if g[b] >= max(g) - 1e-9)
    r_max = max(reach)
    cands = []
    for m in range(3):
        for o in range(-r_max, r_max + 1):
            if abs(o) > reach[m]:
                continue
            d1 = min(max(d + o, 1), dmax)
            f = fut if fut is not None else [0.0] * (dmax + 1)
            if opp_mode is None:
                worst = min(val(m, om, _band(d2)) + f[d2] for om in range(3)
                            for d2 in range(max(d1 - opp_reach[om], 1),
                                            min(d1 + opp_reach[om], dmax) + 1))
            else:
                worst = val(m, opp_mode, _band(d1)) + f[d1]
            cands.append((worst, (_gap(d1, pref), abs(o), m), (m, d1)))
    mode, dist = _pick(cands)
    return int(mode), int(dist)


def _tactic_turn(ua: _Unit, ub: _Unit, tac: tuple[str, str], band: int | None, d: int,
                 dmax: int, a_first: bool, p_first: float = 0.5) -> tuple[int, int]:
    """Set both units' modes and OV requests for this turn; return (distance, band).
    ``p_first``: P(A moves first) each turn (for the value-to-go)."""
    fires = tuple("policy" if t == "stand-and-fire" else "max" if t == "charge" else "value"
                  for t in tac)
    memo_key = (fires, tuple((u.heat, u.eng, u.fc, u.wh, u.mp, u.narced) for u in (ua, ub)))
    pay = _PAY_MEMO.get(memo_key)
    if pay is None:             # the same state gives the same tables: computed once
        pay = _PAY_MEMO[memo_key] = _payoffs(ua, ub, fires)  # type: ignore[arg-type]
    free = band is None
    d0 = d if free else BAND_LO[band]  # type: ignore[index]
    reach = {}
    for key, u in (("a", ua), ("b", ub)):
        reach[key] = [u.stance(mode=m)[2] if free else 0 for m in MODES]
    fut_a: list[float] | None = None
    if free:
        fkey = (memo_key, tuple(reach["a"]), tuple(reach["b"]), dmax, p_first)
        fut_a = _FUT_MEMO.get(fkey)
        if fut_a is None:
            fut_a = _FUT_MEMO[fkey] = _value_to_go(lambda m, o, b: float(pay[m, o, b][0]),
                                                   reach["a"], reach["b"], dmax, p_first)

    def mover(side: str, dd: int, opp_mode: int | None) -> tuple[int, int]:
        if side == "a":
            def val(m: int, o: int, b: int) -> float:
                return float(pay[m, o, b][0])
            dealt = (lambda b: pay[0, 0, b][1])     # noqa: E731
            taken = (lambda b: pay[0, 0, b][2])     # noqa: E731
            u, t_name, opp = ua, tac[0], "b"
            fut = fut_a
        else:
            def val(m: int, o: int, b: int) -> float:
                return -float(pay[o, m, b][0])
            dealt = (lambda b: pay[0, 0, b][2])     # noqa: E731
            taken = (lambda b: pay[0, 0, b][1])     # noqa: E731
            u, t_name, opp = ub, tac[1], "a"
            fut = None if fut_a is None else [-x for x in fut_a]
        mode, nd = _tactic_move(t_name, 0, dd, reach[side], reach[opp], val, dealt, taken,
                                opp_mode, MODES.index(u.moved), dmax if free else 60, fut)
        r = reach[side][mode]
        return mode, min(max(nd, max(dd - r, 1)), min(dd + r, dmax if free else 60))

    first, second = ("a", "b") if a_first else ("b", "a")
    m1, d1 = mover(first, d0, None)
    m2, d2 = mover(second, d1, m1)
    modes = {first: m1, second: m2}
    fb = _band(d2) if free else band
    ua.mode, ub.mode = MODES[modes["a"]], MODES[modes["b"]]
    _, _, _, ra, rb = pay[modes["a"], modes["b"], fb]  # type: ignore[index]
    ua.req = None if fires[0] == "policy" else ra
    ub.req = None if fires[1] == "policy" else rb
    return d2, fb  # type: ignore[return-value]


#: Payoff tables by (fire rules, both units' state); cleared per :func:`scalar` call.
_PAY_MEMO: dict[Any, dict[tuple[int, int, int], Any]] = {}
#: A's value-to-go by (payoff state, reaches, depth, P(A first)); cleared with _PAY_MEMO.
_FUT_MEMO: dict[Any, list[float]] = {}


def _initiative_a_first(rule: str, rand: Callable[[], float]) -> bool:
    """A moves first (lost the initiative, 20.1): 2D6 a side, ties re-rolled."""
    if rule in ("a", "b"):
        return rule == "b"
    while True:
        ra, rb = _roll(rand), _roll(rand)
        if ra != rb:
            return ra < rb


def one_duel(p: Mapping[str, Any], rand: Callable[[], float]) -> int:
    """Play one duel; return the turn it ends (turns + 1 for a timeout) times 4 plus the
    outcome code (0 timeout, 1 A wins, 2 B wins, 3 draw)."""
    turns = int(p.get("turns", 30))
    fixed = any(p.get(f"{k}_{s}") is not None for k in ("moved", "policy") for s in "ab")
    default = "stand-and-fire" if fixed else "competent"   # the model's default rule
    tac = (p.get("tactic_a") or default, p.get("tactic_b") or default)
    tactical = tac != ("stand-and-fire", "stand-and-fire")
    start = int(p.get("start_distance", 40))
    free = False
    if p.get("ranges"):
        script = [RANGE[x.strip()] for x in str(p["ranges"]).split(",")]
    elif p.get("range") not in (None, "free"):
        script = [RANGE[p["range"]]]
    elif tactical:
        free, script = True, []
    else:
        script = [_band(start) if p.get("range") == "free" else 0]
    dist = start
    rule = str(p.get("initiative", "roll"))
    units = []
    for s in ("a", "b"):
        name, _, sk = str(p[s]).rpartition("@")
        if not name:
            name, sk = sk, ""
        units.append(_Unit(name, int(sk) if sk else int(p.get(f"skill_{s}", 4)),
                           p.get(f"moved_{s}", "ground"), p.get(f"policy_{s}", "never"),
                           p.get(f"terrain_{s}", "clear")))
    ua, ub = units
    for t in range(turns):
        band = None if free else script[min(t, len(script) - 1)]
        if tactical:
            dist, band = _tactic_turn(ua, ub, tac, band, dist, start,
                                      _initiative_a_first(rule, rand),
                                      {"a": 0.0, "b": 1.0}.get(rule, 0.5))
        assert band is not None
        res = [_attack(ua, ub, band, rand), _attack(ub, ua, band, rand)]
        for (fired, ov, pts), u in zip(res, (ub, ua), strict=True):
            del fired, ov
            pend = [pts]
            total = u.c.armor + u.c.structure
            after = u.taken + pts
            if pts > 0 and after > u.c.armor:
                if after < total:
                    if u.arm:
                        u.arm = False
                    else:
                        _crit(u, pend, rand)
            u.taken = min(total, u.taken + pend[0])
            if u.taken >= total:
                u.alive = False
        for (fired, ov, _), u in zip(res, (ua, ub), strict=True):
            if u.heat >= 4:
                u.heat = 0
            elif ov > 0:
                u.heat = min(4, u.heat + ov + (1 if u.eng else 0))
            elif fired:
                u.heat = min(4, u.heat + (1 if u.eng else 0))
            else:
                u.heat = 0
            if not u.alive:
                u.heat = 0
            u.ever = u.ever or u.heat == 4
        if not ua.alive or not ub.alive:
            code = (1 if ua.alive else 0) + (2 if ub.alive else 0)
            return 4 * (t + 1) + {1: 1, 2: 2, 0: 3}[code]
    return 4 * (turns + 1)


def scalar(params: Mapping[str, Any], rng: np.random.Generator, n: int) -> dict[str, Any]:
    """Run ``n`` duels one at a time: the histogram of the turn the fight ends (index = turn,
    the last bin = timeout) and the win / draw counts."""
    bad = set(params) - _OK_KEYS
    if bad:
        raise NotImplementedError(f"oracle does not support {sorted(bad)}")
    rand = random.Random(int(rng.integers(2**63))).random
    _PAY_MEMO.clear()
    _FUT_MEMO.clear()
    turns = int(params.get("turns", 30))
    hist = np.zeros(turns + 2, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    for _ in range(n):
        r = one_duel(params, rand)
        hist[r // 4] += 1
        out[r % 4] += 1
    return {"end_turn_hist": hist, "timeout": out[0], "win_a": out[1], "win_b": out[2],
            "draw": out[3]}
