"""Scalar oracle of the Alpha Strike duel: plain Python, one duel at a time, written from the
rules reference (``reference-as-combat.md`` 20, 21; ``reference.md`` 6) independently of the
vectorized model (it shares only the unit catalog and Python's ``random``).

Supported: 1-vs-1, a fixed band or a per-turn script, movement ``ground``/``still``/``jump``
(20.6 with the ground -> jump fallback, A13 compute, A18, A19), policies ``hold``, ``never``,
``max``, ``fixed:K``, ``below:H``, default rule options; specials CASE, CASEII, ENE, OVL, AMS,
SNARC + ECM, TSM (Move), JMPW/JMPS, ARM, CR, IRA, STL, SHLD (the catalog's cards need no
more; other specials are ignored). Other parameters or policies raise
``NotImplementedError``. :func:`scalar` is what the benchmark times.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

RANGE = {"short": 0, "medium": 1, "long": 2}
RANGE_TN = (0, 2, 4)
#: 'Mech crit table by 2D6 total (reference 6.6).
TABLE = {2: "ammo", 3: "engine", 4: "fc", 5: None, 6: "weapon", 7: "mp", 8: "weapon",
         9: None, 10: "fc", 11: "engine", 12: "destroyed"}
_OK_KEYS = {"a", "b", "skill_a", "skill_b", "range", "ranges", "turns", "moved_a", "moved_b",
            "policy_a", "policy_b", "terrain_a", "terrain_b"}
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

    def moves(self) -> tuple[int, int, int, bool]:
        """Ground Move, jump Move, TMM after MP hits; and whether every Move is 0."""
        m, j, t = self.c.move, self.c.jump, self.c.tmm
        for _ in range(self.mp):
            m, j, t = max(0, min(m // 2, m - 2)), max(0, min(j // 2, j - 2)), max(0, min(t // 2, t - 1))
        return m, j, t, m == 0 and j == 0

    def stance(self) -> tuple[int, int]:
        """(modifier against me, my own movement modifier) this turn (20.6)."""
        if self.heat >= 4:
            return -4, 0
        m, j, t, _ = self.moves()
        g = max(0, m - 2 * self.heat + (2 if "TSM" in self.sp and self.heat else 0))
        jw = 0
        for code, sign in (("JMPW", -1), ("JMPS", 1)):
            if code in self.c.specials:
                jw += sign * int(self.c.specials[code].values[0] or 0)
        jump_tmm = max(0, _tmm_of(j) + jw) + 1
        if self.moved == "jump" and j > 0:
            return jump_tmm, 2
        if g > 0:
            if self.moved == "still":
                return 0, -1
            return max(0, t - (1 if self.heat >= 2 else 0)), 0
        if j > 0 and self.moved != "still":
            return jump_tmm, 2
        return -4, -1

    def level(self, band: int) -> int:
        v, mn = self.c.damage[band], self.c.minimal[band]
        return max(0, (v + 1 if v >= 1 else (1 if mn else 0)) - self.wh)

    def full_wh(self) -> bool:
        return all(self.level(b) == 0 for b in range(4))

    def ov_request(self, band: int) -> int:
        ov = self.c.ov if (band < 2 or (band == 2 and "OVL" in self.sp)) else 0
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


def _attack(a: _Unit, t: _Unit, band: int, rand: Callable[[], float]
            ) -> tuple[bool, int, int]:
    """(fired, OV used, points dealt) of a's attack on t (6.1, 6.2, 21.3)."""
    if not a.alive or a.heat >= 4:
        return False, 0, 0
    req = a.ov_request(band)
    lv = a.level(band)
    if req < 0 or lv == 0:
        return False, 0, 0
    tmod, _ = t.stance()
    _, amod = a.stance()
    stl = (0, 1, 2)[band] if "STL" in t.sp else 0
    tn = (a.skill + RANGE_TN[band] + amod + a.heat + 2 * a.fc + tmod + t.terr + stl
          + (1 if "SHLD" in a.sp else 0))
    if tn > 12:
        return False, 0, 0
    missile = bool({"IF", "LRM", "SRM"} & a.sp)
    if "SNARC" in a.sp and band <= 1 and not t.narced and "ECM" not in t.sp:
        if _roll(rand) >= tn:
            t.narced = True
    if _roll(rand) < tn and tn > 2:
        return True, req, 0
    pts = lv - 1 if lv >= 2 else (1 if int(rand() * 6) + 1 >= 4 else 0)
    pts += req
    if missile and t.narced and "ECM" not in t.sp:
        pts += 1
    if "AMS" in t.sp and missile and pts >= 2:
        pts -= 1
    if "SHLD" in t.sp and pts >= 1:
        pts -= 1
    return True, req, pts


def one_duel(p: Mapping[str, Any], rand: Callable[[], float]) -> int:
    """Play one duel; return the turn it ends (turns + 1 for a timeout) times 4 plus the
    outcome code (0 timeout, 1 A wins, 2 B wins, 3 draw)."""
    turns = int(p.get("turns", 30))
    if p.get("ranges"):
        script = [RANGE[x.strip()] for x in str(p["ranges"]).split(",")]
    else:
        script = [RANGE[p.get("range", "short")]]
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
        band = script[min(t, len(script) - 1)]
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
    turns = int(params.get("turns", 30))
    hist = np.zeros(turns + 2, dtype=np.int64)
    out = np.zeros(4, dtype=np.int64)
    for _ in range(n):
        r = one_duel(params, rand)
        hist[r // 4] += 1
        out[r % 4] += 1
    return {"end_turn_hist": hist, "timeout": out[0], "win_a": out[1], "win_b": out[2],
            "draw": out[3]}
