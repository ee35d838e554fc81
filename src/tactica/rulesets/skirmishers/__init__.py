"""Skirmishers (infantry combat on a dot lattice with levels).

Only the geometry rulings live here so far (:mod:`.geometry`): how the rulings SKI-4, SKI-8,
SKI-10..SKI-16, SKI-21 and SKI-23 map onto the options of the dot lattice battlefield
(:mod:`tactica.battlefield.dots`). The game itself is not registered yet.
"""
