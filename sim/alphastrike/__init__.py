"""Alpha Strike heat model: attacks, overheat, heat scale, shutdown and cooling, critical hits
and the CASE/CASEII/ENE/HT/MEL/OVL specials, over many turns (rules reference section 6).

Modules: :mod:`rules` (options), :mod:`tables` (data), :mod:`attack`, :mod:`heat`,
:mod:`crits` (pure rule functions), :mod:`turn` (one turn composed), :mod:`kernel` (Monte
Carlo), :mod:`markov` (exact chain), :mod:`policies`, :mod:`generic`, :mod:`scenario`,
:mod:`model` (``MODEL``, registered as ``heat``), :mod:`api` (``sim.heat``).
"""
