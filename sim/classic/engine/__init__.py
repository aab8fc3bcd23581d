"""The compiled Classic engagement engine (issue 21): one module per phase over an explicit
state with units on an axis, compiled with numba (imported lazily by :mod:`.sampler`).

- :mod:`.compile` (NumPy): the validated ``DuelScenario`` as flat arrays, every rule number
  read from its declaration;
- :mod:`.layout`: index constants of those arrays, of the per-unit state and the roll kinds;
- :mod:`.dice`: counter-based dice, one sub-stream per roll kind, keyed per duel;
- :mod:`.damage`: location roll, damage, transfer, criticals, explosions, CASE;
- :mod:`.move`, :mod:`.fire`, :mod:`.psr`, :mod:`.physical`, :mod:`.heat`, :mod:`.end`: the
  phases; :mod:`.turn`: the turn loop and the block of duels;
- :mod:`.sampler`: the ``classic-duel`` model's sampler.
"""
