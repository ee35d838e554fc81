"""The parts of simulation: one battle (:mod:`~tactica.sim.play`), running totals
(:mod:`~tactica.sim.tally`), executors (:mod:`~tactica.sim.executors`) and the variants of a
comparison (:mod:`~tactica.sim.variants`). The public entry points are in
:mod:`tactica.simulate`."""
