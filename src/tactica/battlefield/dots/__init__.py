"""The dot lattice battlefield: geometry, sight, firing arcs, blasts, moves, map files."""
