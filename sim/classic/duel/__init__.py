"""The ``classic-duel`` model: two Classic 'Mechs fight turn by turn until one is destroyed
(reference-classic-combat.md 14-15, reference.md 1-4).

- :mod:`.scenario`: parameters, validation, the compiled sides (fire tables per range and
  movement, damage layout, actuator masks).
- :mod:`.physical`: punch and kick (reference.md 1.3, 2, 3.3-3.4) and the ``best`` choice.
- :mod:`.kernel`: the vectorized turn loop.
- :mod:`.model`: the Model (metrics), :mod:`.api`: ``classic_duel(...)``.
"""
