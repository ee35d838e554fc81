"""The parts of simulation: one battle (:mod:`~tactica.analysis.sim.play`), running totals
(:mod:`~tactica.analysis.sim.tally`), executors (:mod:`~tactica.analysis.sim.executors`) and the
variants of a comparison (:mod:`~tactica.analysis.sim.variants`). The public entry points are in
:mod:`tactica.analysis.simulate`."""
