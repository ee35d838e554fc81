"""The analysis: simulation, comparisons, sweeps, matchups and reports, with their tables and
plots."""
