"""The Alpha Strike ``duel`` model: side against side to destruction (reference-as-combat 20-23).

Modules: :mod:`.rules` (``DuelRules``: the A-options of section 25 and duel choices),
:mod:`.specials` (which special abilities are simulated, which are noted and why),
:mod:`.sides` (parsing ``UNIT@SKILL`` sides and forces; ``UnitSpec`` with the 20.6 stance
tables), :mod:`.scenario` (``DuelScenario``: range band / script / closing, turn limit),
:mod:`.turn` (the turn's rule steps shared by both engines), :mod:`.targeting` (force target
policies), :mod:`.kernel` (vectorized Monte Carlo), :mod:`.markov` (exact chain for 1-vs-1),
:mod:`.model` (``MODEL``, registered as ``duel``), :mod:`.api` (``duel(...)``).
"""
