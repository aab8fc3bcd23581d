"""Classic BattleTech physical attacks (punch, kick, club, hatchet, push, charge, DFA).

Rules: ``../shared/rules/reference.md`` sections 1-4 and 8 and the seed page
``seed-classic-physical-attacks.txt``. Layout:

* :mod:`sim.classic.attacks` -- every attack declared once (to-hit, eligibility, damage,
  tables, PSRs, self-damage, displacement, labels): rule code looks the declarations up;
* :mod:`sim.classic.tables` -- every rules table as data (one table in one place);
* :mod:`sim.classic.rules` -- :class:`ClassicRules`, one field per discrepancy option (D-numbers);
* :mod:`sim.classic.scenario` -- parameter validation and the unit (``.mtf``/catalog) mapping;
* :mod:`sim.classic.to_hit`, :mod:`~sim.classic.eligibility`, :mod:`~sim.classic.damage`,
  :mod:`~sim.classic.location`, :mod:`~sim.classic.psr` -- small pure rule functions;
* :mod:`sim.classic.plan` -- the resolved attack (strikes, groups, PSR target numbers);
* :mod:`sim.classic.exact` / :mod:`sim.classic.kernel` -- exact twin and vectorized sampler;
* :mod:`sim.classic.model` -- ``MODEL`` (name ``attack``); :mod:`sim.classic.api` -- ``attack()``.
"""
