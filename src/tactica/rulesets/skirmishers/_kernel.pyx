# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled simulation kernel of Skirmishers: the reference's battle on plain data.

The reference is the Python rules (``flow.py``, ``state.py``, ``fire.py``, ``arcs.py``,
``movement.py``, ``card.py``), the greedy policy (``policy.py``) and the keyed dice of
``tactica.engine.streams``; every function here names the function it mirrors. The tables (the
lattice's feature codes, the line geometry of every offset, the move graph, the pack, the
exact samplers of the 2D6 rolls) are built by ``kernel.py`` from the reference's own functions
at prepare time. The greedy valuation's floats are computed in the reference's order of
operations (numpy's sums of a row: :func:`_np_sum`).

A battle that outgrows the kernel's arrays (more actions to choose from, explosives or melee
attacks waiting than they hold) returns a string, the reason, and the reference plays the
battle from the start.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t, int16_t
from libc.math cimport atan2, fmod, copysign, sqrt, fabs, NAN, isnan

import numpy as np

include "tactica/engine/kernel_draws.pxi"
include "tactica/engine/kernel_runtime.pxi"

DEF MAX_UNITS = 32
DEF MAX_ITEMS = 32
DEF MAX_SIDES = 8
DEF MAX_SPOTS = 16384
DEF MAX_CELLS = 8192
DEF EXACT_BITS = 14
DEF ARC_BITS = 10
DEF MAX_ACTS = 4096
DEF NCELLS = 11
DEF MOVE_CAP = 8
DEF PAD_CODE_STANDING = 16
DEF PAD_CODE_PRONE = 17

DEF GREEDY = 0

# action kinds (records.py), in the order flow.actions_of lists them
DEF K_MOVE = 0
DEF K_PRONE = 1
DEF K_STAND = 2
DEF K_CHANGE = 3
DEF K_TAKE = 4
DEF K_DROP = 5
DEF K_ARC = 6
DEF K_MELEE = 7
DEF K_END = 8
DEF K_THROW = 9
DEF K_MFIRE = 10   # the optional rule movement-fire: fire once while moving (2 AP, +2)
DEF MAX_TOKENS = 64
DEF MAX_MELEE = 64

DEF BAIL = -2          # a return value: the battle is left to the reference

# card marks (card.py): '.', 'X', '/'
DEF OPEN = 0
DEF CROSSED = 1
DEF PARTIAL = 2

# dots_geometry flags
DEF DOT_ON = 1
DEF DOT_TANGENT = 2
DEF SIDE_RIGHT = 1
DEF SIDE_LEFT = 2
DEF SIDE_TOUCH = 4
DEF SIDE_OWN = 8
DEF SIDE_TARGET = 16
DEF MAX_STAIRS = 64
DEF MAX_RINGS = 8
DEF MAX_HEAP = MAX_SPOTS * 8

#: The kernel's fixed limits, by name: ``Kernel(tables)`` answers a scenario past one of them
#: with KernelLimit naming it (the reference plays); the battle loop checks the buffers that
#: grow during a battle (actions, explosives waiting, melee attacks waiting) before each write
#: and leaves the battle to the reference when one is full.
LIMITS = {
    "troopers": MAX_UNITS,
    "sides": MAX_SIDES,
    "items": MAX_ITEMS,            # firearms, melee weapons and explosives of the pack
    "places": MAX_SPOTS,           # padded lattice cells times levels
    "cells": MAX_CELLS,            # padded lattice cells of one level
    "rings": MAX_RINGS,            # blast rings of one explosive
    "stairs": MAX_STAIRS,          # stairs of the map
    "moves": MAX_HEAP - 1,         # steps of the map's move graph
    "actions": MAX_ACTS - 1,       # legal actions of one trooper at once
    "tokens": MAX_TOKENS,          # explosives thrown and waiting
    "melee": MAX_MELEE,            # melee attacks declared and waiting
    "outcomes": MAX_POOL_OUTCOMES,  # outcomes of one roll
}

cdef int[6][2] _DIRS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]]
cdef int[3] _ARC_WIDTH = [30, 60, 150]
cdef int[3] _ARC_BASE = [1, 2, 4]
cdef int[3] _ARC_AP = [2, 4, 6]

cdef double _PI = 3.141592653589793
cdef double _RAD_TO_DEG = 180.0 / 3.141592653589793
cdef double _SQRT3 = sqrt(3.0)
cdef double _SQRT3_2 = sqrt(3.0) / 2


cdef object _bearing_obj(double b):
    """A bearing as the reference keeps it: an int when whole."""
    return int(b) if b == <int>b else b


cdef inline double _py_mod(double a, double b) noexcept nogil:
    """Python's (and numpy's) float ``a % b``."""
    cdef double m = fmod(a, b)
    if m != 0.0:
        if (b < 0) != (m < 0):
            m += b
    else:
        m = copysign(0.0, b)
    return m


cdef double _np_sum(double *a, int n) noexcept nogil:
    """numpy's sum of a contiguous row (pairwise_sum: below 8 values in order from -0.0,
    else eight accumulators)."""
    cdef double res
    cdef double r[8]
    cdef int i, j
    if n < 8:
        res = -0.0
        for i in range(n):
            res += a[i]
        return res
    for j in range(8):
        r[j] = a[j]
    i = 8
    while i < n - (n % 8):
        for j in range(8):
            r[j] += a[i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        res += a[i]
        i += 1
    return res


cdef void _sort_desc(double *a, int n) noexcept nogil:
    cdef int i, j
    cdef double v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] < v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef inline double _dmg_factor(int lethal, int bludgeoning) noexcept nogil:
    """policy._dmg_factor."""
    cdef double v = (<double>lethal + 0.3 * <double>bludgeoning) / 4
    return 1.0 if 1.0 < v else v


cdef struct Item:
    int firearm, melee, explosive, lethal, bludgeoning, shots, short, long, bayonet, fists
    int nrings, ap_per_dot, stairwell_ap
    int rings[8]

cdef struct Unit:
    int side, spot, prone, out, dead, retreated, on_map
    int ap_spent, move_spent, activated, stopped, fought, threw, arc_made
    int card_ap, armor_cells, armor_ap, armor_left, experience_ap
    int protected            # advanced body armor: the HP cells it protects (bit: cell index)
    int card_change[NCELLS]
    int card_mod[NCELLS]
    int nweap
    int weap[MAX_ITEMS]
    int nexpl
    int expl_item[MAX_ITEMS]
    int expl_n[MAX_ITEMS]
    int active, fallback
    uint8_t marks[NCELLS]
    int has_arc, arc_width, arc_shots, arc_weapon, arc_toward   # toward: a cell, -1 none
    double arc_bearing
    uint32_t shot_by
    int dealt, taken, moves


cdef class Kernel(ConsultingRuntime):
    """One scenario's tables (see kernel.py) and the battle loop."""
    # map
    cdef int cols, rows, width, height, qmin, pad, cells, levels, nspots
    cdef uint8_t[::1] base_codes
    cdef uint8_t codes[MAX_SPOTS * 4]
    cdef int64_t[::1] regions, stairs_low, stairs_high
    cdef int span, theight, twidth
    cdef int64_t[::1] slot, start, length, near_start, near_length, rel
    cdef uint8_t[::1] flag
    cdef object sight_table      # dots_fast._Table of the map's box, grown when needed
    cdef uint8_t[::1] has_dot
    cdef int64_t[::1] nb_start, nb_len, nb_spot, nb_ap
    cdef uint8_t kblocks[32]
    cdef uint8_t kcover[32]
    cdef uint8_t ksolid[32]
    # content, rulings
    cdef Item items[MAX_ITEMS]
    cdef int nitems, fists, bayonet, club
    cdef Unit init_units[MAX_UNITS]
    cdef int nunits, nsides, first, max_rounds
    cdef Pool *hit_pools
    cdef int tn_low, ntn
    cdef Pool start_pool
    cdef Pool *first_pools
    cdef double p_hit[20]
    cdef int block, minus_one, add_levels, counts, prone_firer, floors_block
    cdef int as_written, before_doubling, fists_up, crossed_lost, lifted, each_round
    cdef int one_combat, removed, prone_minus_one, past_dead, arc_entry
    cdef int16_t *walk       # SKI-10 walkable: distances by source spot, -2 not yet found
    # the rulings the battle consulted (KernelRuntime.cons: a bit per ruling, the game's
    # declaration order): those of the setup, then each one's bit where the reference reads it
    cdef uint64_t cons_setup
    cdef uint64_t c3, c5, c6, c18, c19, c21, c22, c24, c25, c26, c27, c29, c31, c33, c38
    cdef uint64_t c40, c41, c30
    cdef int advanced        # the optional rule advanced-armor
    cdef int mfire, mf_counts  # the optional rule movement-fire; SKI-36 counts
    cdef uint64_t c36
    # the optional rule morale: SKI-17 retreat, SKI-32 out, SKI-42 fights; each side's squad
    # (its morale target number, its leader or -1, the leader's leadership); the shaken sides
    cdef int morale, retreat, count_out, leader_fights, shaken
    cdef int sq_tn[MAX_SIDES]
    cdef int sq_leader[MAX_SIDES]
    cdef int sq_lead[MAX_SIDES]
    cdef list morale_labels
    cdef Pool *morale_pools
    cdef uint64_t c17, c32, c42
    # the exact arc tests asked so far, and the arcs' dots (rules, policy) made so far
    cdef uint64_t exact_keys[1 << EXACT_BITS]
    cdef uint8_t exact_vals[1 << EXACT_BITS]
    cdef int nexact
    cdef int overflow
    cdef int act_cap, tk_cap, ml_cap   # what the buffers hold (their sizes; less in tests)
    cdef uint64_t arc_keys[1 << ARC_BITS]
    cdef uint8_t *arc_maps
    cdef int narcmaps
    cdef object held
    cdef int nstairs
    cdef int st_cell[64]
    cdef int st_low[64]
    cdef int st_high[64]
    cdef list names
    cdef Pool d6_pool
    cdef int d6_dots, one_roll, at_resolution, stays, before_window
    cdef int id_rank[MAX_UNITS]
    # explosive tokens and pending melee attacks (state.Token, state.PendingMelee)
    cdef int ntokens
    cdef int tk_unit[MAX_TOKENS]
    cdef int tk_item[MAX_TOKENS]
    cdef int tk_at[MAX_TOKENS]
    cdef int tk_base[MAX_TOKENS]
    cdef int tk_tn[MAX_TOKENS]
    cdef int tk_origin[MAX_TOKENS]
    cdef int tk_stair[MAX_TOKENS]
    cdef int nmelee
    cdef int ml_unit[MAX_MELEE]
    cdef int ml_target[MAX_MELEE]
    cdef int ml_weapon[MAX_MELEE]
    cdef list unit_keys, unit_ids, init_arcs
    # battle state
    cdef Unit u[MAX_UNITS]
    cdef int occ[MAX_SPOTS]
    cdef int round, side, active
    cdef int order[MAX_SIDES]
    cdef uint8_t rules_maps[MAX_UNITS * MAX_CELLS]    # per unit: the dots its arc holds
    cdef uint8_t policy_maps[MAX_UNITS * MAX_CELLS]
    cdef const uint8_t *rules_map[MAX_UNITS]
    cdef const uint8_t *policy_map[MAX_UNITS]
    cdef bytes actor
    cdef dict counts_of
    cdef _Dice dice
    cdef tuple policies
    # searches
    cdef int best_cost[MAX_SPOTS]
    cdef int best_n[MAX_SPOTS]
    cdef int came_prev[MAX_SPOTS]
    cdef int came_ap[MAX_SPOTS]
    cdef int reach[MAX_SPOTS]       # spots in first-insertion order
    cdef int stamp[MAX_SPOTS]
    cdef int sv_order[MAX_SPOTS]
    cdef int wk_a[MAX_SPOTS]
    cdef int wk_b[MAX_SPOTS]
    cdef double sv_values[MAX_SPOTS]
    cdef double sv_arc[MAX_SPOTS]
    cdef double sv_path[MAX_SPOTS]
    cdef int cur_stamp
    cdef int nreach
    cdef int64_t heap[MAX_SPOTS * 8]
    # actions of the decision under way
    cdef int act_kind[MAX_ACTS]
    cdef int act_a[MAX_ACTS]
    cdef int act_b[MAX_ACTS]
    cdef double act_v[MAX_ACTS]
    cdef int top[MAX_ACTS]

    def __cinit__(self):
        self.cur_stamp = 0
        self.nexact = 0
        self.narcmaps = 0

    def __init__(self, dict t):
        cdef int i, j, k
        self.act_cap, self.tk_cap, self.ml_cap = MAX_ACTS - 1, MAX_TOKENS, MAX_MELEE
        self.tables = t
        self.cols, self.rows = t["cols"], t["rows"]
        self.width, self.height, self.qmin = t["width"], t["height"], t["qmin"]
        self.pad, self.cells, self.levels = t["pad"], t["cells"], t["levels"]
        self.nspots = self.cells * self.levels
        if self.nspots > MAX_SPOTS:
            raise KernelLimit(f"a map of more than {MAX_SPOTS} places (dots and padding times "
                              f"levels: {self.nspots})")
        if self.cells > MAX_CELLS:
            raise KernelLimit(f"a level of more than {MAX_CELLS} places (dots and padding: "
                              f"{self.cells})")
        if len(t["nb_spot"]) + 1 > MAX_HEAP:
            raise KernelLimit(f"a move graph of more than {MAX_HEAP - 1} steps")
        self.base_codes = t["codes"]
        self.regions, self.stairs_low, self.stairs_high = (t["regions"], t["stairs_low"],
                                                           t["stairs_high"])
        self.span, self.theight, self.twidth = t["span"], t["theight"], t["twidth"]
        self.sight_table = t["sight"]
        self._read_sight(self.sight_table.lookup(np.zeros(0, np.int64)))
        self.has_dot = t["has_dot"]
        self.nb_start, self.nb_len = t["nb_start"], t["nb_len"]
        self.nb_spot, self.nb_ap = t["nb_spot"], t["nb_ap"]
        for k in range(32):
            self.kblocks[k] = t["kind_blocks"][k]
            self.kcover[k] = t["kind_cover"][k]
            self.ksolid[k] = t["kind_solid"][k]
        items = t["items"]
        self.nitems = len(items)
        within(self.nitems, MAX_ITEMS, "weapons and explosives in the pack")
        for i, it in enumerate(items):
            self.items[i].firearm = it["firearm"]
            self.items[i].melee = it["melee"]
            self.items[i].explosive = it["explosive"]
            self.items[i].lethal = it["lethal"]
            self.items[i].bludgeoning = it["bludgeoning"]
            self.items[i].shots = it["shots"]
            self.items[i].short = it["short"]
            self.items[i].long = it["long"]
            self.items[i].bayonet = it["bayonet"]
            self.items[i].fists = it["fists"]
            if len(it["rings"]) > MAX_RINGS:
                raise KernelLimit(f"an explosive of more than {MAX_RINGS} blast rings")
            self.items[i].nrings = len(it["rings"])
            for j, v in enumerate(it["rings"]):
                self.items[i].rings[j] = v
            self.items[i].ap_per_dot = it["ap_per_dot"]
            self.items[i].stairwell_ap = it["stairwell_ap"]
        self.fists, self.bayonet, self.club = t["fists"], t["bayonet"], t["club"]
        units = t["units"]
        self.nunits = len(units)
        self.nsides = t["nsides"]
        within(self.nunits, MAX_UNITS, "troopers")
        within(self.nsides, MAX_SIDES, "sides")
        self.unit_keys = []
        self.unit_ids = []
        self.init_arcs = []
        for i, d in enumerate(units):
            self._init_unit(&self.init_units[i], d)
            self.unit_keys.append(d["id_key"].encode())
            self.unit_ids.append(d["id"])
            self.init_arcs.append(d["arc"])
        self.first = t["first"]
        self.max_rounds = t["max_rounds"]
        pools = t["hit_pools"]
        self.ntn = len(pools)
        self.tn_low = t["tn_low"]
        self.hit_pools = <Pool *>self._own(sizeof(Pool) * self.ntn, False)
        for i, p in enumerate(pools):
            _fill_pool(&self.hit_pools[i], p)
        _fill_pool(&self.start_pool, t["start_pool"])
        pools = t["first_pools"]
        self.first_pools = <Pool *>self._own(sizeof(Pool) * len(pools), False)
        for i, p in enumerate(pools):
            _fill_pool(&self.first_pools[i], p)
        for i in range(20):
            self.p_hit[i] = t["p_hit"][i]
        self.held = t["held"]
        self.block, self.minus_one = t["block"], t["minus_one"]
        self.add_levels, self.counts = t["add_levels"], t["counts"]
        self.prone_firer, self.floors_block = t["prone_firer"], t["floors_block"]
        self.as_written, self.before_doubling = t["as_written"], t["before_doubling"]
        self.fists_up, self.crossed_lost = t["fists_up"], t["crossed_lost"]
        self.lifted, self.each_round = t["lifted"], t["each_round"]
        self.one_combat, self.removed = t["one_combat"], t["removed"]
        self.prone_minus_one, self.past_dead = t["prone_minus_one"], t["past_dead"]
        self.arc_entry = t["arc_entry"]
        bits = t["consulted"]
        self.cons_setup = bits["setup"]
        self.c3, self.c5, self.c6 = bits["SKI-3"], bits["SKI-5"], bits["SKI-6"]
        self.c18, self.c19, self.c21 = bits["SKI-18"], bits["SKI-19"], bits["SKI-21"]
        self.c22, self.c24, self.c25 = bits["SKI-22"], bits["SKI-24"], bits["SKI-25"]
        self.c26, self.c27, self.c29 = bits["SKI-26"], bits["SKI-27"], bits["SKI-29"]
        self.c31, self.c33, self.c38 = bits["SKI-31"], bits["SKI-33"], bits["SKI-38"]
        self.c40, self.c41 = bits["SKI-40"], bits["SKI-41"]
        self.c30, self.c36 = bits["SKI-30"], bits["SKI-36"]
        self.mfire, self.mf_counts = t["movement_fire"], t["mf_counts"]
        self.c17, self.c32, self.c42 = bits["SKI-17"], bits["SKI-32"], bits["SKI-42"]
        self.morale, self.retreat = t["morale"], t["retreat"]
        self.count_out, self.leader_fights = t["count_out"], t["leader_fights"]
        self.shaken = 0
        if len(t["squads"]) != self.nsides or len(t["morale_pools"]) != self.ntn:
            raise ValueError("a squad per side and a morale pool per target number")
        for i, (tn, leader, lead) in enumerate(t["squads"]):
            self.sq_tn[i], self.sq_leader[i], self.sq_lead[i] = tn, leader, lead
        self.morale_labels = t["morale_labels"]
        self.morale_pools = <Pool *>self._own(sizeof(Pool) * self.ntn, False)
        for i, p in enumerate(t["morale_pools"]):
            _fill_pool(&self.morale_pools[i], p)
        self.advanced = t["advanced_armor"]
        self.arc_maps = <uint8_t *>self._own(2 * self.cells * (1 << ARC_BITS), False)
        if t["walkable"]:
            self.walk = <int16_t *>self._own(sizeof(int16_t) * self.nspots * self.nspots, False)
            for i in range(self.nspots):
                self.walk[<int64_t>i * self.nspots] = -2
        self.dice = _Dice()
        self.nstairs = len(t["stairs"])
        within(self.nstairs, MAX_STAIRS, "stairs on the map")
        for i, (c, lo, hi) in enumerate(t["stairs"]):
            self.st_cell[i] = c
            self.st_low[i] = lo
            self.st_high[i] = hi
        self.names = t["names"]
        _fill_pool(&self.d6_pool, t["d6_pool"])
        self.d6_dots, self.one_roll = t["d6_dots"], t["one_roll"]
        self.at_resolution, self.stays = t["at_resolution"], t["stays"]
        self.before_window = t["before_window"]
        for i in range(self.nunits):
            self.id_rank[i] = t["id_rank"][i]

    cdef int _init_unit(self, Unit *x, dict d) except -1:
        cdef int i
        x.side = d["side"]
        x.spot = d["spot"]
        x.prone = d["prone"]
        x.out = x.dead = x.retreated = 0
        x.on_map = 1
        x.ap_spent = x.move_spent = x.activated = x.stopped = x.fought = 0
        x.threw = x.arc_made = 0
        x.card_ap = d["card_ap"]
        x.armor_cells = d["armor_cells"]
        x.armor_ap = d["armor_ap"]
        x.experience_ap = d["experience_ap"]
        x.armor_left = d["armor_left"]
        x.protected = d["protected"]
        for i in range(10):
            x.card_change[i] = d["card_change"][i]
            x.card_mod[i] = d["card_mod"][i]
        if len(d["weapons"]) > MAX_ITEMS or len(d["explosives"]) > MAX_ITEMS:
            raise KernelLimit(f"a trooper carrying more than {MAX_ITEMS} weapons or explosives")
        x.nweap = len(d["weapons"])
        for i, w in enumerate(d["weapons"]):
            x.weap[i] = w
        x.nexpl = len(d["explosives"])
        for i, (k, n) in enumerate(d["explosives"]):
            x.expl_item[i] = k
            x.expl_n[i] = n
        x.active = d["active"]
        x.fallback = d["fallback"]
        for i in range(NCELLS):
            x.marks[i] = d["marks"][i]
        x.has_arc = 0
        x.arc_toward = -1
        x.arc_bearing = 0.0
        arc = d["arc"]
        if arc is not None:
            x.has_arc = 1
            x.arc_width = arc[0]
            if arc[1] is not None:
                x.arc_bearing = arc[1]
            else:
                x.arc_toward = self._toward_cell(arc[2])
            x.arc_shots = arc[3]
            x.arc_weapon = arc[4]
        x.shot_by = 0
        x.dealt = x.taken = x.moves = 0
        return 0

    cdef int _toward_cell(self, str text) except -1:
        col, _, row = text.partition("@")[0].partition(",")
        c, r = int(col), int(row)
        return self._cell(c - r // 2, r)

    # -- the lattice ----------------------------------------------------------------------------

    cdef inline int _cell(self, int q, int r) noexcept nogil:
        return (r + self.pad) * self.width + (q - self.qmin + self.pad)

    cdef inline int _q(self, int spot) noexcept nogil:
        return (spot % self.cells) % self.width - self.pad + self.qmin

    cdef inline int _r(self, int spot) noexcept nogil:
        return (spot % self.cells) // self.width - self.pad

    cdef inline int _lvl(self, int spot) noexcept nogil:
        return spot // self.cells

    cdef inline int _steps(self, int a, int b) noexcept nogil:
        """dots_geometry.steps of two spots' dots."""
        cdef int dq = self._q(b) - self._q(a), dr = self._r(b) - self._r(a)
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    cdef inline int _distance(self, int a, int b) noexcept nogil:
        """DotLattice.distance: steps plus the difference in levels."""
        return self._steps(a, b) + abs(self._lvl(a) - self._lvl(b))

    cdef void _grow_sight(self, int64_t offset):
        """dots_fast's sight table of the map's box, grown by ``offset`` (every offset is
        looked up when first needed, as the reference does, instead of all of them when the
        kernel is prepared); the kernel then reads its new arrays."""
        view = self.sight_table.lookup(np.array([offset], np.int64))
        self._read_sight(view)

    cdef void _read_sight(self, object view):
        self.slot, self.start, self.length = view.slot, view.start, view.length
        self.near_start, self.near_length = view.near_start, view.near_length
        self.rel, self.flag = view.rel, view.flag

    cdef inline void _put_pose(self, int spot, int prone) noexcept nogil:
        self.codes[spot * 4 + 3] = PAD_CODE_PRONE if prone else PAD_CODE_STANDING

    cdef void _sight(self, int sa, int pa, int sb, int pb, int *vis, int *cover,
                     int *rng) noexcept nogil:
        """dots_fast.batch for one pair of spots and poses (the spots differ)."""
        cdef int la = sa // self.cells, lb = sb // self.cells
        cdef int ca = sa % self.cells, cb = sb % self.cells
        cdef int dq = self._q(sb) - self._q(sa), dr = self._r(sb) - self._r(sa)
        cdef int steps = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        cdef int high = la if la > lb else lb
        cdef bint cross = la != lb
        cdef int blocked_r = 0, blocked_l = 0, cover_r = 0, cover_l = 0, slot, hl, pass_
        cdef int64_t j, a, e, base
        cdef int code, f, visible, cv, up, low, region_up, region_low, base_steps
        cdef bint is_side, own, tcell, prone_hit, blocks, covers, in_r, in_l, on_line
        cdef bint counted, every, under, same, joined
        if steps > 0:
            slot = self.slot[(dr + self.theight) * self.span + (dq + self.twidth)]
            if slot < 0 or slot >= self.start.shape[0]:
                # an offset this kernel has not looked along yet: the shared sight table
                # grows by it (built lazily, as the reference builds it)
                with gil:
                    self._grow_sight((dr + self.theight) * self.span + (dq + self.twidth))
                slot = self.slot[(dr + self.theight) * self.span + (dq + self.twidth)]
            for pass_ in range(2):
                if pass_ == 0:
                    a = self.start[slot]
                    e = a + self.length[slot]
                    hl = high
                else:
                    if not (cross and lb < la):
                        break
                    a = self.near_start[slot]
                    e = a + self.near_length[slot]
                    hl = lb
                base = (hl * self.cells + ca) * 4
                for j in range(a, e):
                    code = self.codes[base + self.rel[j]]
                    if code == 0:
                        continue
                    f = self.flag[j]
                    is_side = code < PAD_CODE_STANDING
                    own = is_side and (f & SIDE_OWN) != 0 and hl == la
                    tcell = is_side and (f & SIDE_TARGET) != 0 and hl == lb
                    if self.prone_firer:  # ruling SKI-14
                        prone_hit = (pa and pb) or ((pa or pb) and own)
                    else:
                        prone_hit = (pa and pb) or (pa and own) or (pb and tcell)
                    blocks = is_side and (self.kblocks[code] or (self.ksolid[code] and prone_hit))
                    covers = is_side and self.kcover[code] and not blocks and not own
                    if self.counts:  # ruling SKI-12
                        in_r = (f & SIDE_TOUCH) != 0
                        in_l = in_r
                        on_line = not is_side and (f & (DOT_ON | DOT_TANGENT)) != 0
                    else:
                        in_r = (f & SIDE_RIGHT) != 0
                        in_l = (f & SIDE_LEFT) != 0
                        on_line = not is_side and (f & DOT_ON) != 0
                    counted = on_line and not (code == PAD_CODE_PRONE and not pa)
                    if self.block:  # ruling SKI-4
                        blocks = blocks or counted
                    else:
                        covers = covers or counted
                    every = not is_side
                    if blocks and (in_r or every):
                        blocked_r = 1
                    if blocks and (in_l or every):
                        blocked_l = 1
                    if covers and (in_r or every):
                        cover_r += 1
                    if covers and (in_l or every):
                        cover_l += 1
                    if blocked_r and blocked_l:
                        break  # blocked both ways round: not visible, whatever follows
                if blocked_r and blocked_l:
                    break
        visible = (not blocked_r) or (not blocked_l)
        if blocked_r:
            cv = cover_l
        elif blocked_l:
            cv = cover_r
        else:
            cv = cover_r if cover_r < cover_l else cover_l
        if cross:
            up = ca if la > lb else cb
            low = cb if la > lb else ca
            region_up = self.regions[high * self.cells + up]
            region_low = self.regions[high * self.cells + low]
            under = region_up >= 0 and region_up == region_low
            same = steps == 0
            joined = same and self.stairs_low[ca] >= 0 and self.stairs_low[ca] <= (
                la if la < lb else lb) and self.stairs_high[ca] >= high
            if self.floors_block:  # ruling SKI-15
                visible = joined if same else (visible and not under)
            else:
                visible = visible or same
            if same:
                cv = 0
        if not visible:
            cv = 0
        vis[0] = visible
        cover[0] = cv
        base_steps = steps
        if self.minus_one:  # ruling SKI-10
            base_steps = steps - 1 if steps > 1 else 0
        elif self.walk != NULL:  # ruling SKI-10: the steps of a shortest walkable path
            base_steps = self._walk_steps(sa, sb)
            if base_steps < 0:
                rng[0] = -1
                return
        if self.add_levels:  # ruling SKI-11
            base_steps += abs(la - lb)
        rng[0] = base_steps

    cdef int _walk_steps(self, int a, int b) noexcept nogil:
        """dots_move.walk_steps: steps of a shortest walkable path (a level change on stairs
        costs no step), troopers ignored; -1 when there is none. Every distance from ``a`` is
        found once (a breadth-first search by layers, the level changes of a layer first)."""
        cdef int16_t *d = &self.walk[<int64_t>a * self.nspots]
        cdef int *cur = self.wk_a
        cdef int *nxt = self.wk_b
        cdef int ncur = 0, nnext, i, j, x, y, layer = 0
        cdef int64_t k
        if d[0] != -2:
            return d[b]
        for i in range(self.nspots):
            d[i] = -1
        d[a] = 0
        cur[0] = a
        ncur = 1
        while ncur > 0:
            # the level changes of this layer (0 steps)
            i = 0
            while i < ncur:
                x = cur[i]
                for k in range(self.nb_start[x], self.nb_start[x] + self.nb_len[x]):
                    y = self.nb_spot[k]
                    if y % self.cells == x % self.cells and d[y] < 0:
                        d[y] = layer
                        cur[ncur] = y
                        ncur += 1
                i += 1
            nnext = 0
            for i in range(ncur):
                x = cur[i]
                for k in range(self.nb_start[x], self.nb_start[x] + self.nb_len[x]):
                    y = self.nb_spot[k]
                    if y % self.cells != x % self.cells and d[y] < 0:
                        d[y] = layer + 1
                        nxt[nnext] = y
                        nnext += 1
            for i in range(nnext):
                cur[i] = nxt[i]
            ncur = nnext
            layer += 1
        if d[0] == -2:
            d[0] = -1
        return d[b]

    # -- the card and the trooper (card.py, state.py) ---------------------------------------------

    cdef inline int _current_hp(self, Unit *t) noexcept nogil:
        """card.current_hp of its marks."""
        cdef int i
        for i in range(NCELLS - 1, -1, -1):
            if t.marks[i] == CROSSED:
                return 9 - i if 9 - i > 0 else 0
        return 10

    cdef inline int _hp(self, Unit *t) noexcept nogil:
        """Soldier.hp."""
        return 0 if t.dead else self._current_hp(t)

    cdef inline int _max_ap(self, Unit *t) noexcept nogil:
        """SkiState.max_ap (ap_change: armor, SKI-25)."""
        cdef int hp, change, v
        if t.dead:
            return 0
        hp = self._current_hp(t)
        if hp <= 0:
            return 0
        change = t.armor_ap
        if self.lifted and self._armor_destroyed(t):  # ruling SKI-25
            change = 0
        change += t.experience_ap  # the optional rule experience (0 without it)
        v = t.card_ap + t.card_change[10 - hp] + change
        return v if v > 0 else 0

    cdef inline bint _armor_destroyed(self, Unit *t) noexcept nogil:
        """SkiState.armor_destroyed (SKI-25): no cell left, or under advanced armor every
        protected cell crossed out."""
        cdef int i
        if t.armor_cells == 0:
            return False
        if self.advanced:
            for i in range(NCELLS):
                if (t.protected >> i) & 1 and t.marks[i] != CROSSED:
                    return False
            return True
        return t.armor_left == 0

    cdef inline int _available(self, Unit *t) noexcept nogil:
        cdef int v = self._max_ap(t) - t.ap_spent
        return v if v > 0 else 0

    cdef inline int _modifier(self, Unit *t) noexcept nogil:
        cdef int hp = self._hp(t)
        return t.card_mod[10 - hp] if hp > 0 else 0

    cdef inline bint _in_action(self, int i) noexcept nogil:
        return not (self.u[i].out or self.u[i].retreated)

    cdef inline double _p(self, int tn) noexcept nogil:
        """policy._p: P_HIT clipped."""
        if tn < 0:
            tn = 0
        if tn > 19:
            tn = 19
        return self.p_hit[tn]

    cdef int _weapon_of(self, Unit *t) noexcept nogil:
        """policy._Ctx.weapon_of: the active firearm, else the fallback's, else -1."""
        if self.items[t.active].firearm:
            return t.active
        if self.items[t.fallback].firearm:
            return t.fallback
        return -1

    # -- fire (fire.py) ---------------------------------------------------------------------------

    cdef int _ranged_tn(self, int f, int t, int w, int *ok) noexcept nogil:
        """fire.ranged_tn (``ok`` 0: no attack)."""
        cdef int vis, cover, rng, tn
        cdef Unit *uf = &self.u[f]
        cdef Unit *ut = &self.u[t]
        self._sight(uf.spot, uf.prone, ut.spot, ut.prone, &vis, &cover, &rng)
        if not vis or rng < 0 or rng > self.items[w].long:
            ok[0] = 0
            return 0
        tn = 6 + (2 if rng > self.items[w].short else 0) + cover + (-1 if uf.prone else 0)
        if ut.prone:
            tn += -1 if self._distance(uf.spot, ut.spot) <= 1 else 1
        tn += self._modifier(uf)
        ok[0] = 1
        return tn

    cdef int _roll(self, bytes label, Pool *pool) except -1000:
        """KeyedDice.roll: ``prefix + actor|label|k`` with k the count of that slot."""
        cdef bytes slot = self.actor + b"|" + label + b"|"
        cdef int k = self.counts_of.get(slot, 0)
        self.counts_of[slot] = k + 1
        return self.dice.draw(<const uint8_t *>slot, len(slot), k, pool)

    cdef Pool *_hit_pool(self, int tn):
        cdef int i = tn - self.tn_low
        if i < 0:
            i = 0
        if i >= self.ntn:
            i = self.ntn - 1
        return &self.hit_pools[i]

    cdef int _hit(self, int target, int start, int lethal, int bludgeoning, int source) except -1:
        """fire.hit_events and their events in state.apply_event (card.apply_hit)."""
        cdef Unit *t = &self.u[target]
        cdef uint8_t cells[NCELLS]
        cdef int i, j, taken, armor_left, last = -1, dead = 0, before, hp, max_ap, n
        cdef int ap_spent = t.ap_spent
        if self.advanced:
            self.cons |= self.c30  # SkiState.protected reads SKI-30 for every hit
        for i in range(NCELLS):
            cells[i] = t.marks[i]
        taken = lethal if lethal < t.armor_left else t.armor_left
        armor_left = t.armor_left - taken
        lethal -= taken
        i = 10 - (10 if start > 10 else (1 if start < 1 else start))
        while i < NCELLS and cells[i] == CROSSED:
            i += 1
        for n in range(lethal):
            while i < NCELLS and cells[i] == CROSSED:
                i += 1
            if i >= NCELLS:
                dead = 1
                break
            if (t.protected >> i) & 1 and cells[i] == OPEN:  # advanced armor: partly
                cells[i] = PARTIAL
            else:
                cells[i] = CROSSED
            last = i
            i += 1
        if not dead and not (armor_left > 0 and bludgeoning > 0) and bludgeoning > 0:
            self.cons |= self.c24  # card.apply_hit consults SKI-24 when it marks bludgeoning
            j = last + 1 if last >= 0 else 10 - (10 if start > 10 else (1 if start < 1 else start))
            for n in range(bludgeoning):
                if not self.crossed_lost:  # ruling SKI-24
                    while j < NCELLS and cells[j] == CROSSED:
                        j += 1
                if j >= NCELLS:
                    self.cons |= self.c40
                    dead = self.past_dead  # ruling SKI-40
                    break
                if cells[j] == OPEN:
                    cells[j] = PARTIAL
                elif cells[j] == PARTIAL:
                    cells[j] = CROSSED
                j += 1
        before = self._hp(t)
        for i in range(NCELLS):
            t.marks[i] = cells[i]
        t.armor_left = armor_left
        t.dead = t.dead or dead
        hp = self._hp(t)
        max_ap = self._max_ap(t)
        if not t.dead and t.armor_ap != 0 and self._armor_destroyed(t):
            self.cons |= self.c25  # SkiState.ap_change of destroyed armor that changes the AP
        # Hit (a Damaged event): the statistics
        t.taken += before - hp
        if source >= 0 and source != target:
            self.u[source].dealt += before - hp
        if hp == 0:
            self._out_of_action(target)
        else:
            self.cons |= self.c3
            if self.as_written:  # ruling SKI-3
                if max_ap >= ap_spent:
                    self._fell_prone(target)
            elif ap_spent > 0 and ap_spent >= max_ap:
                self._fell_prone(target)
        return 0

    cdef void _fell_prone(self, int i) noexcept nogil:
        """FellProne in state.apply_event."""
        self.u[i].prone = 1
        self.u[i].stopped = 1
        self._put_pose(self.u[i].spot, 1)
        if self.active == i:
            self.active = -1

    cdef void _out_of_action(self, int i) noexcept nogil:
        """OutOfAction in state.apply_event (SKI-31)."""
        cdef Unit *t = &self.u[i]
        cdef int k, j = 0
        for k in range(self.nmelee):
            if self.ml_unit[k] != i and self.ml_target[k] != i:
                self.ml_unit[j] = self.ml_unit[k]
                self.ml_target[j] = self.ml_target[k]
                self.ml_weapon[j] = self.ml_weapon[k]
                j += 1
        self.nmelee = j
        t.out = 1
        t.has_arc = 0
        t.prone = 1
        t.stopped = 1
        self.cons |= self.c31
        if self.removed:  # ruling SKI-31
            self.occ[t.spot] = -1
            self.codes[t.spot * 4 + 3] = 0
            t.on_map = 0
        else:
            self._put_pose(t.spot, 1)
        if self.active == i:
            self.active = -1

    cdef int _shot(self, int f, int target, int tn) except -1:
        """fire.shot of reaction fire ("arc"), then ShotFired and the damage."""
        cdef Unit *uf = &self.u[f]
        cdef int w = uf.arc_weapon, hit, start
        fid, tid = self.unit_ids[f], self.unit_ids[target]
        hit = self._roll(f"2D6 to hit: reaction fire by {fid} at {tid}".encode(),
                         self._hit_pool(tn))
        # ShotFired (state._shot)
        uf.arc_shots -= 1
        if uf.arc_shots <= 0:
            uf.has_arc = 0
        self.u[target].shot_by |= (<uint32_t>1) << f
        if hit:
            start = self._roll(
                f"2D6 start cell for the reaction-fire hit by {fid} on {tid}".encode(),
                &self.start_pool)
            self._hit(target, start, self.items[w].lethal, self.items[w].bludgeoning, f)
        return 0

    cdef int _fire_moving(self, int f, int target) except -1:
        """movement._movement_fire: FireDeclared (2 AP, toward the cap under SKI-36
        counts); a standing target's side decides whether it drops prone
        (policy.choose_decision: beyond 1 dot; RandomPolicy); then fire.shot "movement" at
        the target number + 2."""
        cdef Unit *uf = &self.u[f]
        cdef Unit *ut = &self.u[target]
        cdef int side, drop, ok, tn, w, hit, start
        self.cons |= self.c36  # state.apply_event of FireDeclared
        uf.ap_spent += 2
        if self.mf_counts:  # ruling SKI-36
            uf.move_spent += 2
        self._check_spent(f)
        if not ut.prone:
            side = ut.side
            if self.policies[side] == GREEDY:
                drop = self._distance(uf.spot, ut.spot) > 1
            else:
                drop = self._integers(side, 2) == 1  # (stay standing, drop prone)
            if drop:  # PoseChanged(target, True, 0)
                ut.prone = 1
                self._put_pose(ut.spot, 1)
                self._check_spent(target)
        w = uf.active
        tn = self._ranged_tn(f, target, w, &ok)
        if not ok:
            return 0
        tn += 2
        fid, tid = self.unit_ids[f], self.unit_ids[target]
        hit = self._roll(f"2D6 to hit: {fid} fires on the move at {tid}".encode(),
                         self._hit_pool(tn))
        ut.shot_by |= (<uint32_t>1) << f  # ShotFired (state._shot)
        if hit:
            start = self._roll(f"2D6 start cell for the hit by {fid} on {tid}".encode(),
                               &self.start_pool)
            self._hit(target, start, self.items[w].lethal, self.items[w].bludgeoning, f)
        return 0

    # -- arcs and reaction fire (arcs.py) -------------------------------------------------------

    cdef inline double _arc_bearing(self, double q, double r) noexcept nogil:
        """arcs._bearing (``r * sqrt(3) / 2`` as ``r * _SQRT3_2``)."""
        return _py_mod(atan2(r * _SQRT3_2, q + r / 2) * _RAD_TO_DEG, 360)

    cdef int _in_arc(self, int dq, int dr, int width, double bearing, int toward, int aq,
                     int ar) except -1:
        """arcs._in_arc: the float filter, and the lattice's exact test next to an edge."""
        cdef double axis, off, half = <double>width / 2
        if dq == 0 and dr == 0:
            return 0
        axis = self._arc_bearing(aq, ar) if toward else bearing
        off = fabs(_py_mod(self._arc_bearing(dq, dr) - axis + 180, 360) - 180)
        if off < half - 1e-7:
            return 1
        if off > half + 1e-7:
            return 0
        # the exact test, kept per question (a whole bearing or an axis toward a dot)
        cdef uint64_t key = 0, h
        cdef int found
        if toward:
            key = (1ULL << 60) | ((<uint64_t>(aq & 0xFFF)) << 36) | ((<uint64_t>(ar & 0xFFF)) << 24)
        elif bearing == <int>bearing and 0 <= bearing < 4096:
            key = (2ULL << 60) | ((<uint64_t><int>bearing) << 24)
        if key:
            key |= ((<uint64_t>width) << 48) | ((<uint64_t>(dq & 0xFFF)) << 12) | \
                (<uint64_t>(dr & 0xFFF))
            h = (key * 0x9E3779B97F4A7C15ULL) >> (64 - EXACT_BITS)
            while self.exact_keys[h] != 0:
                if self.exact_keys[h] == key:
                    return self.exact_vals[h]
                h = (h + 1) & ((1 << EXACT_BITS) - 1)
        if toward:
            found = bool(self.held.in_arc(dq, dr, width, None, (aq, ar)))
        else:
            found = bool(self.held.in_arc(dq, dr, width, _bearing_obj(bearing), None))
        if key and self.nexact < (3 << EXACT_BITS) // 4:
            self.exact_keys[h] = key
            self.exact_vals[h] = found
            self.nexact += 1
        return found

    cdef int _set_arc_maps(self, int i) except -1:
        """Unit ``i``'s arc over every dot of the map: arcs.holds_dot (reaction fire) and
        arcs._held (the policy's held_dots: page coordinates, then holds_dot next to an
        edge)."""
        cdef Unit *t = &self.u[i]
        cdef int vq = self._q(t.spot), vr = self._r(t.spot), c, r, q, cell, aq = 0, ar = 0
        cdef int toward = t.arc_toward >= 0
        cdef uint8_t *rules = &self.rules_maps[i * MAX_CELLS]
        cdef uint8_t *pol = &self.policy_maps[i * MAX_CELLS]
        cdef double heading, off, half = <double>t.arc_width / 2, dx, dy
        cdef uint64_t key = 0, h = 0
        self.rules_map[i] = rules
        self.policy_map[i] = pol
        if not t.has_arc:
            return 0
        # made before (the same vertex, width and whole bearing or toward dot)?
        if toward or (t.arc_bearing == <int>t.arc_bearing and 0 <= t.arc_bearing < 4096):
            key = (1ULL << 62) | ((<uint64_t>(t.spot % self.cells)) << 36) | (
                (<uint64_t>t.arc_width) << 26) | ((<uint64_t>toward) << 25) | (
                <uint64_t>(t.arc_toward if toward else <int>t.arc_bearing))
            h = (key * 0x9E3779B97F4A7C15ULL) >> (64 - ARC_BITS)
            while self.arc_keys[h] != 0:
                if self.arc_keys[h] == key:
                    self.rules_map[i] = &self.arc_maps[2 * h * self.cells]
                    self.policy_map[i] = &self.arc_maps[(2 * h + 1) * self.cells]
                    return 0
                h = (h + 1) & ((1 << ARC_BITS) - 1)
        for cell in range(self.cells):
            rules[cell] = 0
            pol[cell] = 0
        if toward:
            aq = t.arc_toward % self.width - self.pad + self.qmin - vq
            ar = t.arc_toward // self.width - self.pad - vr
            if aq == 0 and ar == 0:
                return 0
            heading = self._arc_bearing(aq, ar)
        else:
            heading = t.arc_bearing
        for r in range(self.rows):
            for c in range(self.cols):
                q = c - r // 2
                cell = self._cell(q, r)
                rules[cell] = self._in_arc(q - vq, r - vr, t.arc_width, t.arc_bearing, toward,
                                           aq, ar)
                if q == vq and r == vr:
                    continue
                dx = (q + <double>r / 2) - (vq + <double>vr / 2)
                dy = r * _SQRT3_2 - vr * _SQRT3_2
                off = fabs(_py_mod(atan2(dy, dx) * _RAD_TO_DEG - heading + 180, 360) - 180)
                if off < half - 1e-7:
                    pol[cell] = 1
                elif fabs(off - half) <= 1e-7:
                    pol[cell] = rules[cell]
        if key and self.narcmaps < (3 << ARC_BITS) // 4:
            self.arc_keys[h] = key
            self.narcmaps += 1
            for cell in range(self.cells):
                self.arc_maps[2 * h * self.cells + cell] = rules[cell]
                self.arc_maps[(2 * h + 1) * self.cells + cell] = pol[cell]
        return 0

    cdef int _eligible(self, int target, int held, int *out) noexcept nogil:
        """arcs.eligible_firers in scenario order, less the sides in ``held``."""
        cdef Unit *t = &self.u[target]
        cdef int n = 0, f, ok
        if not self._in_action(target):
            return 0
        for f in range(self.nunits):
            if self.u[f].side == t.side or not self._in_action(f) or not self.u[f].has_arc:
                continue
            if self.u[f].arc_shots <= 0 or (t.shot_by >> f) & 1:
                continue
            if not self.rules_map[f][t.spot % self.cells]:
                continue
            self._ranged_tn(f, target, self.u[f].arc_weapon, &ok)
            if not ok:
                continue
            if (held >> self.u[f].side) & 1:
                continue
            out[n] = f
            n += 1
        return n

    cdef int _reactions(self, int target) except -1:
        """arcs.reactions: the first reacting side fires or holds, again after each shot."""
        cdef int held = 0, n, k, side, f, best, ok, tn, nopt, last
        cdef int firers[MAX_UNITS]
        cdef int opts[MAX_UNITS]
        cdef double best_p, p
        while True:
            n = self._eligible(target, held, firers)
            if n == 0:
                return 0
            side = self.u[firers[0]].side
            nopt = 0
            for k in range(n):
                if self.u[firers[k]].side == side:
                    opts[nopt] = firers[k]
                    nopt += 1
            # the reacting side's policy (policy.choose_decision; RandomPolicy)
            if self.policies[side] == GREEDY:
                best = -1
                best_p = -1.0
                for k in range(nopt):
                    f = opts[k]
                    tn = self._ranged_tn(f, target, self.u[f].arc_weapon, &ok)
                    p = self._p(tn) if ok else 0.0
                    if p > best_p:
                        best = f
                        best_p = p
                if best >= 0:
                    last = self.u[best].arc_shots <= 1
                    if best_p < 1.0 / 12 or (last and best_p < 1.0 / 6):
                        best = -1
            else:
                k = self._integers(side, nopt + 1)
                best = opts[k] if k < nopt else -1
            if best < 0:
                held |= 1 << side
                continue
            tn = self._ranged_tn(best, target, self.u[best].arc_weapon, &ok)
            self._shot(best, target, tn)

    # -- movement (movement.py) -------------------------------------------------------------------

    cdef inline int _budget(self, Unit *t) noexcept nogil:
        """movement.movement_budget."""
        cdef int v
        if t.fought or t.stopped:
            return 0
        v = self._available(t)
        if MOVE_CAP - t.move_spent < v:
            v = MOVE_CAP - t.move_spent
        return v if v > 0 else 0

    cdef int _search(self, int uid) noexcept nogil:
        """movement._search from the trooper's spot (its AP factor and budget): best costs,
        the tree of cheapest paths, and the spots in first-insertion order (``reach``)."""
        cdef Unit *t = &self.u[uid]
        cdef int factor = 2 if t.prone else 1, budget = self._budget(t)
        cdef int origin = t.spot, nheap = 0, counter = 0, i, k, s, nxt, total, nm
        cdef int64_t top, key
        cdef int cost, n_moves
        self.nreach = 0
        self.cur_stamp += 1
        self.stamp[origin] = self.cur_stamp
        self.best_cost[origin] = 0
        self.best_n[origin] = 0
        self.came_prev[origin] = -1
        self.came_ap[origin] = 0
        self.reach[self.nreach] = origin
        self.nreach += 1
        self._push(&nheap, 0, 0, 0, origin)
        while nheap > 0:
            top = self._pop(&nheap)
            # key: cost (6 bits) | moves (6 bits) | counter (20 bits) | spot (16 bits)
            s = <int>(top & 0xFFFF)
            n_moves = <int>((top >> 36) & 0x3F)
            cost = <int>((top >> 42) & 0x3F)
            if self.best_cost[s] != cost or self.best_n[s] != n_moves:
                continue
            for k in range(self.nb_start[s], self.nb_start[s] + self.nb_len[s]):
                nxt = self.nb_spot[k]
                total = cost + factor * <int>self.nb_ap[k]
                if total > budget or self.occ[nxt] >= 0:
                    continue
                if self.stamp[nxt] == self.cur_stamp:
                    if total > self.best_cost[nxt] or (total == self.best_cost[nxt]
                                                       and n_moves + 1 >= self.best_n[nxt]):
                        continue
                else:
                    self.stamp[nxt] = self.cur_stamp
                    self.reach[self.nreach] = nxt
                    self.nreach += 1
                self.best_cost[nxt] = total
                self.best_n[nxt] = n_moves + 1
                self.came_prev[nxt] = s
                self.came_ap[nxt] = factor * <int>self.nb_ap[k]
                counter += 1
                self._push(&nheap, total, n_moves + 1, counter, nxt)
        return self.nreach

    cdef inline void _push(self, int *n, int cost, int moves, int counter, int spot) noexcept nogil:
        cdef int64_t key = ((<int64_t>cost) << 42) | ((<int64_t>moves) << 36) | (
            (<int64_t>counter) << 16) | spot
        cdef int i = n[0], parent
        n[0] += 1
        while i > 0:
            parent = (i - 1) // 2
            if self.heap[parent] <= key:
                break
            self.heap[i] = self.heap[parent]
            i = parent
        self.heap[i] = key

    cdef inline int64_t _pop(self, int *n) noexcept nogil:
        cdef int64_t out = self.heap[0], last
        cdef int i = 0, c
        n[0] -= 1
        last = self.heap[n[0]]
        while True:
            c = 2 * i + 1
            if c >= n[0]:
                break
            if c + 1 < n[0] and self.heap[c + 1] < self.heap[c]:
                c += 1
            if self.heap[c] >= last:
                break
            self.heap[i] = self.heap[c]
            i = c
        if n[0] > 0:
            self.heap[i] = last
        return out

    cdef int _check_spent(self, int i) noexcept nogil:
        if self.active == i and self._available(&self.u[i]) == 0:
            self.active = -1
        return 0

    cdef int _move(self, int uid, int goal) except -1:
        """movement._move: the cheapest path's steps, reaction fire after each."""
        cdef int path[4096]
        cdef int aps[4096]
        cdef int n = 0, s = goal, i, budget, ap, f
        cdef Unit *t = &self.u[uid]
        self._search(uid)
        while self.came_prev[s] >= 0:
            path[n] = s
            aps[n] = self.came_ap[s]
            n += 1
            s = self.came_prev[s]
        for i in range(n - 1, -1, -1):
            if not self._in_action(uid) or t.stopped:
                return 0
            budget = self._available(t)
            if MOVE_CAP - t.move_spent < budget:
                budget = MOVE_CAP - t.move_spent
            ap = aps[i]
            if ap > budget:
                return 0  # MoveHalted
            # Stepped
            self.occ[t.spot] = -1
            self.codes[t.spot * 4 + 3] = 0
            t.spot = path[i]
            self.occ[t.spot] = uid
            self._put_pose(t.spot, t.prone)
            self.cons |= self.c18
            if self.arc_entry:  # ruling SKI-18: the firers whose arcs still hold it keep it
                for f in range(self.nunits):
                    if (t.shot_by >> f) & 1 and not (
                            self.u[f].has_arc and self._in_action(f)
                            and self.rules_map[f][t.spot % self.cells]):
                        t.shot_by &= ~((<uint32_t>1) << f)
            else:
                t.shot_by = 0
            t.ap_spent += ap
            t.move_spent += ap
            t.moves += 1
            self._check_spent(uid)
            self._reactions(uid)
        return 0

    # -- the policy's values (policy.py) ----------------------------------------------------------

    cdef double _arc_values(self, double *p, int m, int mult, int left) noexcept nogil:
        """policy._arc_values for one spot."""
        cdef double ranked[MAX_UNITS]
        cdef double sums[MAX_UNITS + 1]
        cdef double top, best = 0.0, value
        cdef int k, held, spare, shots, kw
        for k in range(m):
            ranked[k] = p[k]
        _sort_desc(ranked, m)
        sums[0] = 0.0
        if m:
            sums[1] = ranked[0]
        for k in range(1, m):
            sums[k + 1] = sums[k] + ranked[k]
        top = ranked[0] if m else 0.0
        for k in range(3):
            shots = _ARC_BASE[k] * mult
            kw = 1 if k == 0 else (2 if k == 1 else m)
            held = kw
            if m < held:
                held = m
            if shots < held:
                held = shots
            spare = shots - held
            if spare > 2:
                spare = 2
            value = sums[held] + 0.15 * spare * top + 0.02 * _ARC_WIDTH[k] / 150
            if left >= _ARC_AP[k]:
                best = best if best >= value else value
        return best

    cdef int _move_values(self, int uid, int first, int nmoves) except -1:
        """policy._move_values (with _spots_value) for the Move actions ``first ..``."""
        cdef Unit *me = &self.u[uid]
        cdef int n = self.nreach, m = 0, i, j, k, e, w, ew, vis, cover, rng, tn, avail
        cdef int enemies[MAX_UNITS]
        cdef int *order = self.sv_order
        cdef double *values = self.sv_values
        cdef double *arc_danger = self.sv_arc
        cdef double *path_danger = self.sv_path
        cdef double danger[MAX_UNITS]
        cdef double p[MAX_UNITS]
        cdef int dist[MAX_UNITS]
        cdef int index_of_pos
        cdef double late, here, factor, dmin
        cdef int mind
        for e in range(self.nunits):
            if self._in_action(e) and self.u[e].side != me.side and self.u[e].on_map:
                enemies[m] = e
                m += 1
        # spots sorted by cost (stable: insertion order)
        for i in range(n):
            order[i] = self.reach[i]
        for i in range(1, n):
            k = order[i]
            j = i - 1
            while j >= 0 and self.best_cost[order[j]] > self.best_cost[k]:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = k
        w = self._weapon_of(me)
        avail = self._available(me)
        late = <double>self.round / <double>(self.max_rounds if self.max_rounds > 1 else 1)
        for i in range(n):
            values[i] = 0.0
            arc_danger[i] = 0.0
            if not m:
                continue
            s = order[i]
            for j in range(m):
                e = enemies[j]
                dist[j] = self._distance(s, self.u[e].spot)
            if w >= 0:
                for j in range(m):
                    e = enemies[j]
                    p[j] = 0.0
                    if s == self.u[e].spot:
                        continue
                    self._sight(s, me.prone, self.u[e].spot, self.u[e].prone, &vis, &cover, &rng)
                    if vis and rng >= 0 and rng <= self.items[w].long:
                        tn = (6 + 2 * (rng > self.items[w].short) + cover - (1 if me.prone else 0)
                              + ((1 if dist[j] > 1 else -1) if self.u[e].prone else 0)
                              + self._modifier(me))
                        p[j] = self._p(tn)
                    p[j] = p[j] * _dmg_factor(self.items[w].lethal, self.items[w].bludgeoning)
                values[i] = 0.0 + self._arc_values(p, m, self.items[w].shots,
                                                   avail - self.best_cost[s])
            for j in range(m):
                e = enemies[j]
                danger[j] = 0.0
                ew = self._weapon_of(&self.u[e])
                if ew < 0:
                    continue
                if s != self.u[e].spot:
                    self._sight(self.u[e].spot, self.u[e].prone, s, me.prone, &vis, &cover, &rng)
                    if vis and rng >= 0 and rng <= self.items[ew].long:
                        tn = (6 + 2 * (rng > self.items[ew].short) + cover
                              - (1 if self.u[e].prone else 0)
                              + ((1 if dist[j] > 1 else -1) if me.prone else 0)
                              + self._modifier(&self.u[e]))
                        danger[j] = self._p(tn)
                danger[j] = danger[j] * _dmg_factor(self.items[ew].lethal,
                                                    self.items[ew].bludgeoning)
            values[i] = values[i] - 0.5 * _np_sum(danger, m)
            for j in range(m):
                e = enemies[j]
                if not self.u[e].has_arc or self.u[e].arc_shots <= 0:
                    continue
                arc_danger[i] = arc_danger[i] + (
                    danger[j] if self.policy_map[e][s % self.cells] else 0.0)
            mind = dist[0]
            for j in range(1, m):
                if dist[j] < mind:
                    mind = dist[j]
            values[i] = values[i] - (0.03 + 0.12 * late) * <double>mind
        # path danger along the tree, then each Move's value
        for i in range(n):
            s = order[i]
            self.best_n[s] = i  # the spot's index in ``order`` (best_n is free now)
        for i in range(n):
            s = order[i]
            if self.came_prev[s] < 0:
                path_danger[i] = 0.0
            else:
                path_danger[i] = path_danger[self.best_n[self.came_prev[s]]] + arc_danger[i]
        here = values[self.best_n[me.spot]]
        for k in range(first, first + nmoves):
            i = self.best_n[self.act_a[k]]
            self.act_v[k] = values[i] - path_danger[i] - here - 0.01
        return 0

    cdef double _bearing_of(self, int dq, int dr) noexcept nogil:
        """policy._bearing_of."""
        return _py_mod(atan2(dr * _SQRT3 / 2, dq + <double>dr / 2) * _RAD_TO_DEG, 360)

    cdef int _arc_values_now(self, int uid, int first, int narcs) except -1:
        """policy._arc_values_now for the EstablishArc actions ``first ..``."""
        cdef Unit *me = &self.u[uid]
        cdef int w = self._weapon_of(me), m = 0, j, k, e, ok, tn, held, take, shootable
        cdef int enemies[MAX_UNITS]
        cdef double ebear[MAX_UNITS]
        cdef double eworth[MAX_UNITS]
        cdef double off[MAX_UNITS]
        cdef double ranked[MAX_UNITS]
        cdef double cen[MAX_UNITS]
        cdef double sums[MAX_UNITS + 1]
        cdef int inside[MAX_UNITS]
        cdef double axis, half, factor, value, centred, cost
        cdef int hq = self._q(me.spot), hr = self._r(me.spot), width, shots, wi, tq, tr, spare
        if w < 0:
            for k in range(first, first + narcs):
                self.act_v[k] = -1.0
            return 0
        factor = _dmg_factor(self.items[w].lethal, self.items[w].bludgeoning)
        for e in range(self.nunits):
            if self._in_action(e) and self.u[e].side != me.side and self.u[e].on_map:
                enemies[m] = e
                m += 1
        for j in range(m):
            e = enemies[j]
            tn = self._ranged_tn(uid, e, w, &ok)
            eworth[j] = self._p(tn) * factor if ok else 0.0
            if self._q(self.u[e].spot) == hq and self._r(self.u[e].spot) == hr:
                ebear[j] = NAN
            else:
                ebear[j] = self._bearing_of(self._q(self.u[e].spot) - hq,
                                            self._r(self.u[e].spot) - hr)
        for k in range(first, first + narcs):
            width = self.act_a[k]
            wi = 0 if width == 30 else (1 if width == 60 else 2)
            shots = _ARC_BASE[wi] * self.items[w].shots
            cost = <double>_ARC_AP[wi]
            half = <double>width / 2
            if self.act_b[k] < 0:  # toward a cell: -(cell + 1)
                tq = (-self.act_b[k] - 1) % self.width - self.pad + self.qmin
                tr = (-self.act_b[k] - 1) // self.width - self.pad
                axis = self._bearing_of(tq - hq, tr - hr)
            else:
                axis = <double>self.act_b[k]
            held = 0
            shootable = 0
            for j in range(m):
                off[j] = fabs(_py_mod(ebear[j] - axis + 180, 360) - 180)
                inside[j] = off[j] < half - 1e-7
                if fabs(off[j] - half) <= 1e-7:
                    inside[j] = self._holds_exact(k, hq, hr, enemies[j])
                ranked[j] = eworth[j] if inside[j] else 0.0
                cen[j] = off[j] / half if inside[j] else 0.0
                held += inside[j]
                shootable += inside[j] and eworth[j] > 0
            _sort_desc(ranked, m)
            sums[0] = 0.0
            if m:
                sums[1] = ranked[0]
            for j in range(1, m):
                sums[j + 1] = sums[j] + ranked[j]
            take = shots if shots < m else m
            centred = _np_sum(cen, m) / <double>(held if held > 1 else 1)
            spare = shots - shootable
            if spare > 2:
                spare = 2
            if spare < 0:
                spare = 0
            value = (sums[take] + 0.15 * spare * ranked[0] + 0.03 * held
                     + 0.02 * 2 * half / 150 - 0.001 * cost - 0.01 * centred)
            self.act_v[k] = value
        return 0

    cdef int _holds_exact(self, int k, int hq, int hr, int e) except -1:
        """arcs.holds_dot next to an edge (arcs._in_arc: its own float filter, then the
        lattice's exact test, kept)."""
        cdef int tq, tr
        cdef int dq = self._q(self.u[e].spot) - hq, dr = self._r(self.u[e].spot) - hr
        if self.act_b[k] < 0:
            tq = (-self.act_b[k] - 1) % self.width - self.pad + self.qmin
            tr = (-self.act_b[k] - 1) // self.width - self.pad
            if tq == hq and tr == hr:
                return 0
            return self._in_arc(dq, dr, self.act_a[k], 0.0, 1, tq - hq, tr - hr)
        return self._in_arc(dq, dr, self.act_a[k], <double>self.act_b[k], 0, 0, 0)

    cdef double _throw_value(self, int uid, int item, int centre, int stair) noexcept nogil:
        """policy._throw_value of a throw at a spot."""
        cdef Unit *me = &self.u[uid]
        cdef int dots = self._distance(me.spot, centre), plain, paid, base, prone, t, ring
        cdef double p, total = 0.0, worth, scatter
        plain = self.items[item].stairwell_ap if stair else self.items[item].ap_per_dot * dots
        paid = plain * (2 if me.prone else 1)
        if paid != plain:
            self.cons |= self.c5
        base = plain if self.before_doubling else paid  # ruling SKI-5
        if me.prone:
            self.cons |= self.c38
        prone = 1 if me.prone and self.prone_minus_one else 0  # ruling SKI-38
        p = self._p(base - prone + self._modifier(me))
        for t in range(self.nunits):
            if not self._in_action(t) or not self.u[t].on_map:
                continue
            ring = self._distance(centre, self.u[t].spot)
            if ring >= self.items[item].nrings:
                continue
            worth = _dmg_factor(self.items[item].rings[ring], 0) * (
                0.5 if self.u[t].prone and ring > 0 else 1.0)
            if self.u[t].side == me.side:
                total += -1.5 * worth
            else:
                total += worth
        scatter = 0.15 * (1 - p) * total
        return p * total + scatter - 0.05

    cdef double _best_throw(self, int uid, int item, int ap) noexcept nogil:
        """policy._best_throw."""
        cdef Unit *me = &self.u[uid]
        cdef int per = self.items[item].ap_per_dot * (2 if me.prone else 1), e, dots
        cdef int vis, cover, rng
        cdef double best = 0.0, v
        if me.prone:
            self.cons |= self.c5  # its explosives.throw_cost doubles the AP a dot
        for e in range(self.nunits):
            if not self._in_action(e) or self.u[e].side == me.side or not self.u[e].on_map:
                continue
            dots = self._distance(me.spot, self.u[e].spot)
            if dots * per > ap or dots < 2:
                continue
            self._sight(me.spot, me.prone, self.u[e].spot, self.u[e].prone, &vis, &cover, &rng)
            if not vis:
                continue
            v = self._throw_value(uid, item, self.u[e].spot, 0)
            best = best if best >= v else v
        return best

    cdef double _melee_value(self, int uid, int target, int weapon) noexcept nogil:
        """policy.rank_actions of a Melee (fire.melee_tn, fire.melee_damage)."""
        cdef Unit *a = &self.u[uid]
        cdef int tn = 4 + (-1 if a.prone else 0) + (-1 if self.u[target].prone else 0) + \
            self._modifier(a)
        cdef int lethal, blud, ap
        if self.items[weapon].fists:
            ap = self._max_ap(a)
            lethal = 0
            self.cons |= self.c19
            blud = (ap + 1) // 2 if self.fists_up else ap // 2  # ruling SKI-19
        else:
            lethal = self.items[weapon].lethal
            blud = self.items[weapon].bludgeoning
        return self._p(tn) * _dmg_factor(lethal, blud) * 1.2

    # -- legal actions (flow.actions_of) ----------------------------------------------------------

    cdef inline bint _carries(self, Unit *t, int w) noexcept nogil:
        cdef int i
        for i in range(t.nweap):
            if t.weap[i] == w:
                return True
        return False

    cdef inline bint _adjacent(self, int a, int b) noexcept nogil:
        cdef int dq, dr, k
        if self._lvl(a) != self._lvl(b):
            return False
        dq = self._q(b) - self._q(a)
        dr = self._r(b) - self._r(a)
        for k in range(6):
            if _DIRS[k][0] == dq and _DIRS[k][1] == dr:
                return True
        return False

    cdef inline int _add(self, int n, int kind, int a, int b) noexcept nogil:
        if n >= self.act_cap:  # more actions than the arrays hold: the reference plays
            self.overflow = 1
            return n
        self.act_kind[n] = kind
        self.act_a[n] = a
        self.act_b[n] = b
        self.act_v[n] = 0.0
        return n + 1

    cdef int _actions(self, int uid, int *first_move, int *nmoves, int *first_arc,
                      int *narcs) noexcept nogil:
        """flow.actions_of: movement, arcs, melee (throws: none, no explosive is active),
        then EndActivation."""
        cdef Unit *t = &self.u[uid]
        cdef int n = 0, budget = self._budget(t), i, k, o, e, w, ap, width, c, dup, j, vis
        cdef int cover, rng
        first_move[0] = 0
        nmoves[0] = 0
        if not (budget <= 0 and (t.fought or t.stopped)):
            self._search(uid)
            for i in range(self.nreach):
                if self.best_cost[self.reach[i]] > 0:
                    n = self._add(n, K_MOVE, self.reach[i], 0)
            nmoves[0] = n
            if not t.prone and budget >= 1:
                n = self._add(n, K_PRONE, 0, 0)
            if t.prone and budget >= 2:
                n = self._add(n, K_STAND, 0, 0)
            if budget >= 3:
                for i in range(t.nweap):
                    if t.weap[i] != t.active:
                        n = self._add(n, K_CHANGE, t.weap[i], 0)
                for i in range(t.nexpl):
                    if t.expl_n[i] > 0 and t.expl_item[i] != t.active:
                        n = self._add(n, K_CHANGE, t.expl_item[i], 0)
            if budget >= 6:
                for o in range(self.nunits):
                    if o == uid or not self.u[o].on_map or not self._adjacent(t.spot,
                                                                             self.u[o].spot):
                        continue
                    if self._in_action(o) and self.u[o].side != t.side:
                        continue
                    for i in range(self.u[o].nweap):
                        if not self._carries(t, self.u[o].weap[i]):
                            n = self._add(n, K_TAKE, o, self.u[o].weap[i])
                    for i in range(self.u[o].nexpl):
                        if self.u[o].expl_n[i] > 0:
                            n = self._add(n, K_TAKE, o, self.u[o].expl_item[i])
            for i in range(t.nweap):
                n = self._add(n, K_DROP, t.weap[i], 0)
            if self.mfire:
                n = self._movement_fire(uid, n, budget)
        # arcs.arc_actions
        first_arc[0] = n
        if (self.items[t.active].firearm and not t.threw and not t.arc_made
                and not t.stopped and not (self.shaken >> t.side) & 1):
            ap = self._available(t)
            for k in range(3):
                width = _ARC_WIDTH[k]
                if _ARC_AP[k] > ap:
                    continue
                i = 0 if width == 60 else 15
                while i < 360:
                    n = self._add(n, K_ARC, width, i)
                    i += 30
            for e in range(self.nunits):
                if not self._in_action(e) or self.u[e].side == t.side:
                    continue
                if self.u[e].spot % self.cells == t.spot % self.cells:
                    continue
                c = self.u[e].spot % self.cells
                for k in range(3):
                    if _ARC_AP[k] > ap:
                        continue
                    dup = 0
                    for j in range(first_arc[0], n):
                        if self.act_a[j] == _ARC_WIDTH[k] and self.act_b[j] == -(c + 1):
                            dup = 1
                    if not dup:
                        n = self._add(n, K_ARC, _ARC_WIDTH[k], -(c + 1))
        narcs[0] = n - first_arc[0]
        # melee.melee_actions
        if not t.stopped and self._available(t) >= 5:
            for e in range(self.nunits):
                if not self._in_action(e) or self.u[e].side == t.side or not self.u[e].on_map:
                    continue
                if not self._adjacent(t.spot, self.u[e].spot):
                    continue
                self._sight(t.spot, t.prone, self.u[e].spot, self.u[e].prone, &vis, &cover,
                            &rng)
                if not vis:
                    continue
                n = self._add(n, K_MELEE, e, self.fists)
                if self.items[t.active].melee and t.active != self.fists:
                    n = self._add(n, K_MELEE, e, t.active)
                if self.items[t.active].firearm:
                    if self.items[t.active].bayonet:
                        n = self._add(n, K_MELEE, e, self.bayonet)
                    n = self._add(n, K_MELEE, e, self.club)
        # explosives.throw_actions
        n = self._throws(uid, n)
        n = self._add(n, K_END, 0, 0)
        return n

    cdef int _ammo(self, Unit *t, int item) noexcept nogil:
        cdef int i
        for i in range(t.nexpl):
            if t.expl_item[i] == item:
                return t.expl_n[i]
        return 0

    cdef int _movement_fire(self, int uid, int n, int budget) noexcept nogil:
        """movement.movement_fire_options: the enemies in action the active firearm can
        reach, when 2 AP are left under the cap (SKI-36)."""
        cdef Unit *t = &self.u[uid]
        cdef int cap, e, ok
        self.cons |= self.c36
        if self.mf_counts:  # ruling SKI-36 counts: the movement budget
            cap = budget
        else:
            cap = self._available(t) if not (t.fought or t.stopped) else 0
        if not self.items[t.active].firearm or cap < 2:
            return n
        for e in range(self.nunits):
            if not self._in_action(e) or self.u[e].side == t.side:
                continue
            self._ranged_tn(uid, e, t.active, &ok)
            if ok:
                n = self._add(n, K_MFIRE, e, 0)
        return n

    cdef int _throws(self, int uid, int n) noexcept nogil:
        """explosives.throw_actions: every dot seen within the dots the AP pay for, in the
        lattice's order, then the stairwell throws."""
        cdef Unit *t = &self.u[uid]
        cdef int item = t.active, ap, per, reach, lvl, row, col, q, s, vis, cover, rng, i
        cdef int mq = self._q(t.spot), mr = self._r(t.spot), ml = self._lvl(t.spot), mcell
        cdef int dq, dr
        if not self.items[item].explosive or self._ammo(t, item) <= 0 or t.stopped:
            return n
        if (self.shaken >> t.side) & 1:  # morale failed this turn
            return n
        if t.prone:
            self.cons |= self.c5  # explosives.throw_cost doubles the AP a dot
        ap = self._available(t)
        per = self.items[item].ap_per_dot * (2 if t.prone else 1)
        reach = ap // per
        for lvl in range(self.levels):
            for row in range(self.rows):
                for col in range(self.cols):
                    q = col - row // 2
                    s = lvl * self.cells + self._cell(q, row)
                    if s == t.spot or not self.has_dot[s]:
                        continue
                    if self._steps(t.spot, s) + abs(lvl - ml) > reach:
                        continue
                    self._sight(t.spot, t.prone, s, 0, &vis, &cover, &rng)
                    if vis:
                        n = self._add(n, K_THROW, s, 0)
        if self.items[item].stairwell_ap * (2 if t.prone else 1) <= ap:
            mcell = t.spot % self.cells
            for i in range(self.nstairs):
                if self.st_cell[i] == mcell:
                    if ml + 1 <= self.st_high[i]:
                        n = self._add(n, K_THROW, (ml + 1) * self.cells + mcell, 1)
                    for lvl in range(self.st_low[i], ml):
                        n = self._add(n, K_THROW, lvl * self.cells + mcell, 1)
                else:
                    dq = self._q(self.st_cell[i]) - mq
                    dr = self._r(self.st_cell[i]) - mr
                    if self._adjacent(ml * self.cells + self.st_cell[i], t.spot) and \
                            self.st_low[i] < ml <= self.st_high[i]:
                        for lvl in range(self.st_low[i], ml):
                            n = self._add(n, K_THROW, lvl * self.cells + self.st_cell[i], 1)
        return n

    cdef int _values(self, int uid, int n, int first_move, int nmoves, int first_arc,
                     int narcs) except -1:
        """policy.rank_actions."""
        cdef Unit *me = &self.u[uid]
        cdef int k, kind, w, tn, ok
        if nmoves:
            self._move_values(uid, first_move, nmoves)
        self._arc_values_now(uid, first_arc, narcs)
        for k in range(n):
            kind = self.act_kind[k]
            if kind == K_MELEE:
                self.act_v[k] = self._melee_value(uid, self.act_a[k], self.act_b[k])
            elif kind == K_CHANGE:
                if self.items[self.act_a[k]].explosive:
                    self.act_v[k] = 0.9 * self._best_throw(
                        uid, self.act_a[k], self._available(me) - 3) - 0.02
                elif self.items[self.act_a[k]].firearm and not self.items[me.active].firearm:
                    self.act_v[k] = 0.2
                else:
                    self.act_v[k] = -0.3
            elif kind == K_PRONE:
                self.act_v[k] = -0.02
            elif kind == K_STAND:
                self.act_v[k] = 0.05
            elif kind == K_TAKE:
                self.act_v[k] = 0.05 if self.items[self.act_b[k]].explosive else -0.05
            elif kind == K_DROP:
                self.act_v[k] = -1.0
            elif kind == K_END:
                self.act_v[k] = 0.0
            elif kind == K_THROW:
                self.act_v[k] = self._throw_value(uid, me.active, self.act_a[k], self.act_b[k])
            elif kind == K_MFIRE:
                w = self._weapon_of(me)
                tn = self._ranged_tn(uid, self.act_a[k], w, &ok) + 2
                self.act_v[k] = (self._p(tn) if ok else 0.0) * _dmg_factor(
                    self.items[w].lethal, self.items[w].bludgeoning) - 0.1
        return 0

    # -- policies ---------------------------------------------------------------------------------

    cdef int _greedy_pick(self, int side, int n) noexcept nogil:
        """GreedyPolicy.choose on the values: the best, ties broken by the generator."""
        return self._greedy(side, self.act_v, n, self.top)

    # -- the turn (flow.py) -----------------------------------------------------------------------

    cdef int _standing(self) noexcept nogil:
        cdef int mask = 0, i
        for i in range(self.nunits):
            if self._in_action(i):
                mask |= 1 << self.u[i].side
        return mask

    cdef int _begin(self, int round_, int side) except -1:
        """flow._begin: TurnBegan, ArcsRemoved, then morale (the optional rule)."""
        cdef int i
        self.round = round_
        self.side = side
        self.active = -1
        self.shaken = 0
        for i in range(self.nunits):
            self.u[i].ap_spent = 0
            self.u[i].move_spent = 0
            self.u[i].activated = 0
            self.u[i].stopped = 0
            self.u[i].fought = 0
            self.u[i].threw = 0
            self.u[i].arc_made = 0
        for i in range(self.nunits):
            if self.u[i].side == side and self.u[i].has_arc:
                self.u[i].has_arc = 0
        if self.morale:
            self._morale(side)
        return 0

    cdef int _morale(self, int side) except -1:
        """flow._morale: once 4 or more of the squad count as dead (SKI-32), 2D6 against its
        morale, plus one a dead beyond 4, less its leader's leadership (SKI-42); failed: the
        squad is shaken (no arcs, no throws this turn) and under SKI-17 retreat leaves."""
        cdef int dead = 0, i, tn, lead = 0, leader = self.sq_leader[side], holds
        self.cons |= self.c32  # SkiState.dead_count
        for i in range(self.nunits):
            if self.u[i].side == side and (self.u[i].dead or (self.count_out and self.u[i].out)):
                dead += 1
        if dead < 4:
            return 0
        if leader >= 0:
            self.cons |= self.c42  # flow.leadership
            if (self._in_action(leader) if self.leader_fights else not self.u[leader].dead):
                lead = self.sq_lead[side]
        tn = self.sq_tn[side] + (dead - 4) - lead
        i = tn - self.tn_low
        if i < 0:
            i = 0
        if i >= self.ntn:
            i = self.ntn - 1
        holds = self._roll(self.morale_labels[side], &self.morale_pools[i])
        if not holds:  # MoraleChecked (failed), then Retreated under SKI-17 retreat
            self.shaken |= 1 << side
            self.cons |= self.c17
            if self.retreat:
                for i in range(self.nunits):
                    if self.u[i].side == side and self._in_action(i):
                        self.u[i].retreated = 1
                        self.u[i].has_arc = 0
        return 0

    cdef int _roll_first(self, int round_) except -1:
        """flow._roll_first (the order: the sides from the first, in scenario order)."""
        cdef int standing = self._standing(), first, k
        if round_ == 1 and self.first >= 0 and (standing >> self.first) & 1:
            first = self.first
        else:
            first = self._roll(b"first side", &self.first_pools[standing])
        for k in range(self.nsides):
            self.order[k] = (first + k) % self.nsides
        return self._begin(round_, first)

    cdef int _next_turn(self) except -1:
        """flow._next_turn; 1 when the round limit is reached."""
        cdef int standing = self._standing(), k, i = 0
        for k in range(self.nsides):
            if self.order[k] == self.side:
                i = k
        for k in range(i + 1, self.nsides):
            if (standing >> self.order[k]) & 1:
                self._begin(self.round, self.order[k])
                return 0
        if self.round >= self.max_rounds:
            return 1
        self.cons |= self.c26
        if self.each_round:  # ruling SKI-26
            self.actor = repr("the next turn").encode()
            self._roll_first(self.round + 1)
            return 0
        for k in range(self.nsides):
            if (standing >> self.order[k]) & 1:
                self._begin(self.round + 1, self.order[k])
                return 0
        return 0

    # -- the battle (sim.play._run, Battle.step) ------------------------------------------------

    def hold(self, str buffer, int most):
        """Let ``buffer`` ("actions", "tokens" or "melee") hold at most ``most`` entries (up
        to its LIMITS size), for the tests that show each is checked before every write: a
        battle that needs more is left to the reference, naming the number."""
        if buffer not in ("actions", "tokens", "melee") or not 0 <= most <= LIMITS[buffer]:
            raise ValueError(f"{buffer}: between 0 and its limit")
        if buffer == "actions":
            self.act_cap = most
        elif buffer == "tokens":
            self.tk_cap = most
        else:
            self.ml_cap = most

    cdef object _consulted(self, object played):
        """play_consulted's answer: ``(out, mask)``."""
        return played, self.cons

    cdef object _play(self, tuple policies, bytes prefix, object seed, object index,
                      int64_t max_steps):
        """Battle ``index`` of ``seed`` (KernelRuntime.play): (winner side or -1, finished,
        rounds, steps, per unit (survived, dealt, taken, moves, hp, max AP, armor, marks,
        weapon, prone, arc shots, dead)), or the reason the reference must play it (a
        string)."""
        cdef int i, k, n, steps = 0, winner = -1, fm, nm, fa, na, kind, uid
        cdef int finished = 0, nw
        cdef int waiting[MAX_UNITS]
        cdef Unit *t
        self.policies = policies
        self.dice.set_prefix(prefix)
        self.counts_of = {}
        if not self._new_battle(seed, index):
            raise ValueError("seed or index beyond 64 bits")
        for i in range(self.nspots * 4):
            self.codes[i] = self.base_codes[i]
        for i in range(self.nspots):
            self.occ[i] = -1
        for i in range(self.nunits):
            self.u[i] = self.init_units[i]
            self.occ[self.u[i].spot] = i
            self._put_pose(self.u[i].spot, self.u[i].prone)
            self._set_arc_maps(i)
        self.round = 0
        self.side = -1
        self.active = -1
        self.ntokens = 0
        self.nmelee = 0
        self.cons = self.cons_setup
        for _ in range(max_steps):
            # flow.pending
            if last_side_standing(self._standing(), self.nsides, &winner):
                finished = 1
                break
            steps += 1
            if self.side < 0:
                self.actor = repr("who starts").encode()
                self._roll_first(1)
                continue
            if self.active >= 0:
                uid = self.active
                t = &self.u[uid]
                self.actor = self.unit_keys[uid]
                self.overflow = 0
                n = self._actions(uid, &fm, &nm, &fa, &na)
                if self.overflow:
                    return f"more than {self.act_cap} actions to choose from"
                if policies[self.side] == GREEDY:
                    self._values(uid, n, fm, nm, fa, na)
                    k = self._greedy_pick(self.side, n)
                else:
                    k = self._integers(self.side, n)
                out = self._resolve(uid, k)
                if out is not None:
                    return out
                continue
            nw = 0
            for i in range(self.nunits):
                if self._in_action(i) and self.u[i].side == self.side and not self.u[i].activated:
                    waiting[nw] = i
                    nw += 1
            if nw:
                # greedy ranks every Activate 0: both policies draw among them
                uid = waiting[self._integers(self.side, nw)]
                self.actor = self.unit_keys[uid]
                self.u[uid].activated = 1
                self.u[uid].shot_by = 0
                self.active = uid
                self._pending_melee(uid)
                self._reactions(uid)
                continue
            if self.ntokens:
                self.actor = repr(f"explosive ({self.ntokens} to go off)").encode()
                self._token()
                continue
            self.actor = repr("the next turn").encode()
            if self._next_turn():
                steps -= 1
                winner = -1
                finished = 1
                break
        else:
            if last_side_standing(self._standing(), self.nsides, &winner):
                finished = 1
            elif self.side >= 0 and self.active < 0 and self.ntokens == 0:
                nw = 0
                for i in range(self.nunits):
                    if (self._in_action(i) and self.u[i].side == self.side
                            and not self.u[i].activated):
                        nw += 1
                if nw == 0 and self._round_over():
                    finished = 1
                    winner = -1
                elif nw == 0 and self._last_side():
                    self.cons |= self.c26  # flow.pending's _next_turn (before the last round)
            elif self.side >= 0 and self.active >= 0:
                # flow.pending's actions_of: explosives.throw_actions reads SKI-5
                t = &self.u[self.active]
                if (self.items[t.active].explosive and self._ammo(t, t.active) > 0
                        and not t.stopped and t.prone):
                    self.cons |= self.c5
        units = []
        for i in range(self.nunits):
            t = &self.u[i]
            units.append((not t.out, t.dealt, t.taken, t.moves, self._hp(t), self._max_ap(t),
                          t.armor_left, [t.marks[k] for k in range(NCELLS)], t.active,
                          t.prone, t.arc_shots if t.has_arc else 0, t.dead))
        return (winner if finished else -1), finished, self.round, steps, units

    cdef void _after_combat(self, int uid) noexcept nogil:
        """state._after_combat (SKI-27)."""
        self.u[uid].fought = 1
        self.cons |= self.c27
        if self.one_combat and self.active == uid:  # ruling SKI-27
            self.active = -1

    cdef int _explosive_tn(self, int uid, int at, int base, int stair) noexcept nogil:
        """fire.explosive_tn: the AP used, cover (not down a stairwell), the thrower's pose
        (SKI-38) and damage."""
        cdef Unit *t = &self.u[uid]
        cdef int cover = 0, vis, cv, rng
        if not stair:
            self._sight(t.spot, t.prone, at, 0, &vis, &cv, &rng)
            cover = cv if vis else 0
        if t.prone:
            self.cons |= self.c38
        return base + cover + (-1 if t.prone and self.prone_minus_one else 0) + \
            self._modifier(t)  # ruling SKI-38

    cdef object _throw(self, int uid, int at, int stair):
        """explosives.throw_events and their events (ExplosiveThrown, WeaponChanged)."""
        cdef Unit *t = &self.u[uid]
        cdef int item = t.active, dots, plain, paid, base, tn, origin, i, back
        if self.ntokens >= self.tk_cap:
            return f"more than {self.tk_cap} explosives waiting"
        dots = 0 if stair else self._distance(t.spot, at)
        plain = self.items[item].stairwell_ap if stair else self.items[item].ap_per_dot * dots
        paid = plain * (2 if t.prone else 1)
        if paid != plain:
            self.cons |= self.c5
        base = plain if self.before_doubling else paid  # ruling SKI-5
        tn = self._explosive_tn(uid, at, base, stair)
        origin = at if stair else self.held.throw_origin(t.spot, at)
        back = -1
        if self._carries(t, t.fallback):
            back = t.fallback
        else:
            for i in range(t.nweap):
                if self.items[t.weap[i]].firearm:
                    back = t.weap[i]
                    break
            if back < 0:
                back = self.fists
        # ExplosiveThrown
        for i in range(t.nexpl):
            if t.expl_item[i] == item:
                t.expl_n[i] -= 1
        t.threw = 1
        self.tk_unit[self.ntokens] = uid
        self.tk_item[self.ntokens] = item
        self.tk_at[self.ntokens] = at
        self.tk_base[self.ntokens] = base
        self.tk_tn[self.ntokens] = tn
        self.tk_origin[self.ntokens] = origin
        self.tk_stair[self.ntokens] = stair
        self.ntokens += 1
        t.ap_spent += paid
        self._after_combat(uid)
        self._check_spent(uid)
        if back != t.active:
            # WeaponChanged (0 AP)
            t.active = back
            if self.items[back].firearm:
                t.fallback = back
            self._check_spent(uid)
        return None

    cdef int _token(self) except -1:
        """explosives.resolve_token of the first token: to hit, scatter, blast."""
        cdef int uid = self.tk_unit[0], item = self.tk_item[0], at = self.tk_at[0]
        cdef int tn = self.tk_tn[0], origin = self.tk_origin[0], hit, roll, distance, landing
        cdef int i, k, n, j, ring, sheltered, lethal, start, moved, on_map
        cdef int victims[MAX_UNITS]
        cdef int vring[MAX_UNITS]
        what = f"the {self.names[item]} thrown by {self.unit_ids[uid]}"
        if self._in_action(uid):
            self.cons |= self.c29
        if self.at_resolution and self._in_action(uid):  # ruling SKI-29
            tn = self._explosive_tn(uid, at, self.tk_base[0], self.tk_stair[0])
        hit = self._roll(f"2D6 to hit: {what} lands on {self.held.text(at)}".encode(),
                         self._hit_pool(tn))
        if hit:
            landing = at
        else:
            roll = self._roll(f"D6 scatter direction of {what}".encode(), &self.d6_pool)
            distance = 1
            self.cons |= self.c6
            if self.d6_dots:  # ruling SKI-6
                distance = self._roll(f"D6 scatter distance (dots) of {what}".encode(),
                                      &self.d6_pool)
            landing, moved, on_map = self.held.scatter(origin, roll, distance)
            if not on_map:
                self.cons |= self.c33
                if not self.stays:  # ruling SKI-33
                    landing = -1
                else:
                    self.cons |= self.c41
                    landing = origin if self.before_window else at  # ruling SKI-41
            elif not moved and distance > 0 and origin != at:
                self.cons |= self.c41
                landing = origin if self.before_window else at  # ruling SKI-41
        # ExplosiveResolved
        for i in range(1, self.ntokens):
            self.tk_unit[i - 1] = self.tk_unit[i]
            self.tk_item[i - 1] = self.tk_item[i]
            self.tk_at[i - 1] = self.tk_at[i]
            self.tk_base[i - 1] = self.tk_base[i]
            self.tk_tn[i - 1] = self.tk_tn[i]
            self.tk_origin[i - 1] = self.tk_origin[i]
            self.tk_stair[i - 1] = self.tk_stair[i]
        self.ntokens -= 1
        if landing < 0:
            return 0
        if self.levels > 1:
            self.cons |= self.c21  # explosives.blast_victims (SKI-12: read from the setup on)
        # explosives.blast_victims: nearest first, then by id
        n = 0
        for k in range(self.nunits):
            if not self.u[k].on_map:
                continue
            ring, sheltered = self.held.blast_hit(landing, self.u[k].spot, bool(self.u[k].prone),
                                                  self.items[item].nrings - 1)
            if ring < 0 or sheltered or not self._in_action(k):
                continue
            if self.items[item].rings[ring] <= 0:
                continue
            j = n
            while j > 0 and (vring[j - 1] > ring or (vring[j - 1] == ring and
                                                     self.id_rank[victims[j - 1]] > self.id_rank[k])):
                victims[j] = victims[j - 1]
                vring[j] = vring[j - 1]
                j -= 1
            victims[j] = k
            vring[j] = ring
            n += 1
        if n == 0:
            return 0
        self.cons |= self.c22
        if self.one_roll:  # ruling SKI-22
            start = self._roll(
                f"2D6 start cell for every hit of the blast (thrown by {self.unit_ids[uid]})"
                .encode(), &self.start_pool)
            for i in range(n):
                self._hit(victims[i], start, self.items[item].rings[vring[i]], 0, uid)
        else:
            for i in range(n):
                start = self._roll(
                    f"2D6 start cell for the blast hit on {self.unit_ids[victims[i]]}".encode(),
                    &self.start_pool)
                self._hit(victims[i], start, self.items[item].rings[vring[i]], 0, uid)
        return 0

    cdef int _can_reach(self, int a, int b) noexcept nogil:
        """melee.can_reach: adjacent on one level, in sight."""
        cdef int vis, cover, rng
        if not self.u[a].on_map or not self.u[b].on_map:
            return 0
        if not self._adjacent(self.u[a].spot, self.u[b].spot):
            return 0
        self._sight(self.u[a].spot, self.u[a].prone, self.u[b].spot, self.u[b].prone, &vis,
                    &cover, &rng)
        return vis

    cdef int _pending_melee(self, int target) except -1:
        """melee.resolve_pending: every attack waiting on ``target``, in the order paid."""
        cdef int k, a, w, tn, lethal, blud, ap, hit, start
        while True:
            k = -1
            for a in range(self.nmelee):
                if self.ml_target[a] == target:
                    k = a
                    break
            if k < 0 or not self._in_action(target):
                return 0
            a = self.ml_unit[k]
            w = self.ml_weapon[k]
            # MeleeResolved / MeleeLapsed take the entry out
            for k in range(k + 1, self.nmelee):
                self.ml_unit[k - 1] = self.ml_unit[k]
                self.ml_target[k - 1] = self.ml_target[k]
                self.ml_weapon[k - 1] = self.ml_weapon[k]
            if not self._in_action(a) or not self._can_reach(a, target):
                self.nmelee -= 1
                continue
            tn = 4 + (-1 if self.u[a].prone else 0) + (-1 if self.u[target].prone else 0) + \
                self._modifier(&self.u[a])
            if self.items[w].fists:
                ap = self._max_ap(&self.u[a])
                lethal = 0
                self.cons |= self.c19
                blud = (ap + 1) // 2 if self.fists_up else ap // 2  # ruling SKI-19
            else:
                lethal = self.items[w].lethal
                blud = self.items[w].bludgeoning
            hit = self._roll(f"2D6 to hit: {self.unit_ids[a]} strikes {self.unit_ids[target]} "
                             "in melee".encode(), self._hit_pool(tn))
            self.nmelee -= 1
            if hit:
                start = self._roll(f"2D6 start cell for the hit by {self.unit_ids[a]} on "
                                   f"{self.unit_ids[target]}".encode(), &self.start_pool)
                self._hit(target, start, lethal, blud, a)

    cdef bint _last_side(self) noexcept nogil:
        """No later side standing in this round's order."""
        cdef int standing = self._standing(), k, i = 0
        for k in range(self.nsides):
            if self.order[k] == self.side:
                i = k
        for k in range(i + 1, self.nsides):
            if (standing >> self.order[k]) & 1:
                return False
        return True

    cdef bint _round_over(self) noexcept nogil:
        """flow._next_turn would answer None: no later side standing, the last round."""
        return self._last_side() and self.round >= self.max_rounds

    cdef object _resolve(self, int uid, int k):
        """flow.resolve of the chosen action (None, or the reason the reference plays)."""
        cdef int kind = self.act_kind[k], a = self.act_a[k], b = self.act_b[k], i, j, wi
        cdef Unit *t = &self.u[uid]
        cdef Unit *o
        if kind == K_MOVE:
            self._move(uid, a)
        elif kind == K_PRONE:
            t.prone = 1
            self._put_pose(t.spot, 1)
            t.ap_spent += 1
            t.move_spent += 1
            self._check_spent(uid)
        elif kind == K_STAND:
            t.prone = 0
            self._put_pose(t.spot, 0)
            t.ap_spent += 2
            t.move_spent += 2
            self._check_spent(uid)
            self._reactions(uid)
        elif kind == K_CHANGE:
            t.active = a
            if self.items[a].firearm:
                t.fallback = a
            t.ap_spent += 3
            t.move_spent += 3
            self._check_spent(uid)
        elif kind == K_TAKE:
            o = &self.u[a]
            if self.items[b].explosive:
                # state._take: the taker's explosives merged and sorted, the source's emptied
                count = 0
                for i in range(o.nexpl):
                    if o.expl_item[i] == b:
                        count = o.expl_n[i]
                        o.expl_n[i] = 0
                found = 0
                for i in range(t.nexpl):
                    if t.expl_item[i] == b:
                        t.expl_n[i] += count
                        found = 1
                if not found:
                    return "an explosive of a kind the trooper did not carry (taken)"
            else:
                j = 0
                for i in range(o.nweap):
                    if o.weap[i] != b:
                        o.weap[j] = o.weap[i]
                        j += 1
                o.nweap = j
                if o.active == b:
                    o.active = self.fists
                if t.nweap >= MAX_ITEMS:
                    return f"a trooper carrying more than {MAX_ITEMS} weapons"
                t.weap[t.nweap] = b
                t.nweap += 1
            t.ap_spent += 6
            t.move_spent += 6
            self._check_spent(uid)
        elif kind == K_DROP:
            j = 0
            for i in range(t.nweap):
                if t.weap[i] != a:
                    t.weap[j] = t.weap[i]
                    j += 1
            t.nweap = j
            if t.active == a:
                t.active = self.fists
            if t.fallback == a:
                t.fallback = self.fists
                for i in range(t.nweap):
                    if self.items[t.weap[i]].firearm:
                        t.fallback = t.weap[i]
                        break
        elif kind == K_ARC:
            wi = 0 if a == 30 else (1 if a == 60 else 2)
            t.has_arc = 1
            t.arc_width = a
            if b < 0:
                t.arc_toward = -b - 1
                t.arc_bearing = 0.0
            else:
                t.arc_toward = -1
                t.arc_bearing = b
            t.arc_shots = _ARC_BASE[wi] * self.items[t.active].shots
            t.arc_weapon = t.active
            t.arc_made = 1
            self._set_arc_maps(uid)
            t.ap_spent += _ARC_AP[wi]
            self._after_combat(uid)
            self._check_spent(uid)
        elif kind == K_MELEE:
            # MeleeDeclared: paid now, rolled when the target activates
            if self.nmelee >= self.ml_cap:
                return f"more than {self.ml_cap} melee attacks waiting"
            self.ml_unit[self.nmelee] = uid
            self.ml_target[self.nmelee] = a
            self.ml_weapon[self.nmelee] = b
            self.nmelee += 1
            t.ap_spent += 5
            self._after_combat(uid)
            self._check_spent(uid)
        elif kind == K_THROW:
            return self._throw(uid, a, b)
        elif kind == K_MFIRE:
            self._fire_moving(uid, a)
        else:
            self.active = -1
        return None

    # -- a battle from its start with scripted choices and dice (testing.both) -----------------

    cdef object _scripted(self):
        return ScriptedKernel(self.tables)

cdef int _fill_pool(Pool *pool, object p) except -1:
    return fill_pool(pool, p, "a roll")


cdef class ScriptedKernel(Kernel):
    """The kernel with scripted choices (each side plays "random", its generator replaced by
    the script) and scripted dice (kernel_draws.pxi's _ScriptedDice): Kernel.run_scripted."""

    def run_script(self, list choices, list outcomes, int64_t max_steps):
        cdef _ScriptedDice dice = _ScriptedDice(outcomes, True)
        self.dice = dice
        return self._run_script(dice, choices, tuple(1 for _ in range(self.nsides)),
                                max_steps)
