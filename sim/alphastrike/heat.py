"""End Phase heat update (rules reference 6.4), a pure function over arrays.

Reference 6.4 pseudocode, for each unit with a heat scale, after damage and crits::

    if shut down at the start of the End Phase:  heat = 0 (restart)      [+ HT if D? apply]
    elif used OV:            heat += OV + engine;  water (>= D2 OV depth): -1  (D3: steps
                             -> any OV; seed -> only when OV == 1)
    elif made a weapon attack: heat += engine;      water (>= D2 cooling depth): -1
    else:                    heat = 0              (no weapon attack, physical-only included)
    heat += min(cap, HT received)                  (D15: after cooling by default)
    heat = clamp(heat, 0, 4); heat 4 = shut down for the next turn (ref 6.3)
"""

from __future__ import annotations

import numpy as np

from sim.alphastrike import tables as T
from sim.alphastrike.rules import ASRules


def end_phase_heat(heat: np.ndarray, fired: np.ndarray, ov: np.ndarray, engine: np.ndarray,
                   ht_received: np.ndarray, water_depth: int, rules: ASRules) -> np.ndarray:
    """New heat levels (uint8, 0..4; 4 = shut down next turn) after one End Phase.

    ``heat``: levels at the start of the End Phase (4 = the unit was shut down this turn).
    ``fired``: made a weapon attack (a shut-down unit never has). ``ov``: OV used (0 if
    none). ``engine``: has an Engine Hit (adds +1 when it fired). ``ht_received``: total HT
    heat from successful attacks. ``water_depth``: inches of water the unit stands in (0 =
    none). Written with masks and arithmetic only (no branches per unit).
    """
    h = heat.view(np.int8)                                 # 0..4: same bits, no copy
    shut = h >= T.SHUTDOWN_HEAT
    ht = ht_received.view(np.int8)
    cap = np.int8(rules.ht_cap)
    ht = ht - (ht > cap) * (ht - cap)                      # min(HT, cap): ref 6.6 HT
    if rules.ht_order == "before_cooling":                 # D15
        h = h + ht
        h = h - (h > T.SHUTDOWN_HEAT) * (h - np.int8(T.SHUTDOWN_HEAT))
    ov8 = ov.view(np.int8)
    used_ov = ov8 > 0
    fired = fired & ~shut
    in_ov_water = water_depth > 0 and water_depth >= rules.water_ov_depth        # D2
    in_cool_water = water_depth > 0 and water_depth >= rules.water_cool_depth    # D2
    # steps 1-3: firing keeps the heat and adds OV and the engine's +1; no weapon attack -> 0
    new = fired * (h + (engine > 0)) + ov8
    if in_ov_water:                                        # D3: steps (any OV) / seed (OV 1)
        new = new - (used_ov if rules.water_ov == "steps" else (ov8 == 1))
    if in_cool_water:                                      # step 4c: fired without OV in water
        new = new - (fired & ~used_ov)
    # step 4a: a shut-down unit restarts at 0 (it never fired, so `new` is 0 already)
    if rules.ht_order == "after_cooling":
        new = new + ~shut * ht
    if rules.ht_while_shutdown == "apply":
        new = new + shut * ht
    new = new - (new < 0) * new                            # clamp to 0..4
    new = new - (new > T.SHUTDOWN_HEAT) * (new - np.int8(T.SHUTDOWN_HEAT))
    return new.view(np.uint8)
