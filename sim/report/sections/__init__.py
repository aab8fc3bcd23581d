"""One module per report section. Each registers its builder with
``@sim.report.registry.section("name")``; :func:`sim.report.registry.discover` imports every
module here, so a new section is one new file (and an experiment with ``report = "name"``)."""
