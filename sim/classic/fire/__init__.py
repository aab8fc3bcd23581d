"""Classic weapon fire and the heat scale (issue 11; rules reference part 2, sections 10-13).

Modules: :mod:`rules` (options C...), :mod:`cluster` (table 11.1), :mod:`to_hit` (12.1),
:mod:`heat` (13.1-13.4), :mod:`unit` (a firing 'Mech from a ClassicMech), :mod:`policies`,
:mod:`scenario`, :mod:`kernel` (Monte Carlo), :mod:`markov` (exact chain),
:mod:`profile` (damage versus range), :mod:`model` (models ``fire`` and ``profile``),
:mod:`api` (``sim.fire``, ``sim.profile``).
"""
