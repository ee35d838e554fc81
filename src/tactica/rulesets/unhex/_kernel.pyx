# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled simulation kernel of Unhex: the reference's battle on plain data.

The reference is the Python rules (``rules.py``, ``attack.py``, ``body.py``, ``dice.py``,
``legal.py``, ``state.py``), the policies (``policy.py``, ``values.py`` and
``tactica.engine.policies``) and the keyed dice of ``tactica.engine.streams``; every function here names
the function it mirrors. ``kernel.py`` builds the tables at prepare time from the reference's
own zone map (range, sight and cover of every pair of places, the moves from each area) and
content (items, characters). The state is C structs and arrays; the dice are BLAKE2b words of
the same keys as the reference's and a side's numpy generator is drawn natively
(``kernel_draws.pxi``). The greedy policy's floats are computed in the reference's order.

A battle that outgrows the kernel's arrays on the way (a crowded floor, a long list of
actions) stops and answers why; the reference then plays the whole battle.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

include "tactica/engine/kernel_draws.pxi"
include "tactica/engine/kernel_runtime.pxi"

DEF MAXC = 50          # characters (MAX_CHARACTERS)
DEF MAXA = 100         # areas (MAX_AREAS)
DEF MAXIT = 32         # kinds of item the scenario's characters carry
DEF MAXCARRY = 8       # items one character carries
DEF MAXFLOOR = 64      # items on the floor of one area
DEF MAXPOOL = 16       # items an arrangement picks from
DEF MAXOPT = 8192      # legal actions of one turn
DEF NKIND = 6          # roll labels: attack, counterattack, intercept, defend, initiative, aid
DEF NVAR = 4           # the roll, re-roll tens, re-roll units, re-roll both

DEF K_ATTACK = 0
DEF K_COUNTER = 1
DEF K_INTERCEPT = 2
DEF K_DEFEND = 3
DEF K_INITIATIVE = 4
DEF K_AID = 5

# item kinds (content.Item.kind)
DEF MELEE = 0
DEF RANGED = 1
DEF FIRST_AID = 2
DEF SHIELD = 3
DEF GEAR = 4

# good at (content: good)
DEF G_ATTACK = 1
DEF G_DEFEND = 2
DEF G_INITIATIVE = 4
DEF G_AID = 8

# locations (body.LOCATIONS)
DEF HEAD = 0
DEF RARM = 1
DEF LARM = 2
DEF TORSO = 3
DEF RLEG = 4
DEF LLEG = 5

# actions (records)
DEF A_ATTACK = 0
DEF A_MOVE = 1
DEF A_AID = 2
DEF A_ARRANGE = 3
DEF A_RETREAT = 4
DEF A_DROP = 5
DEF A_END = 6
DEF A_OPERATE = 7
DEF A_DOOR = 8
DEF MAXVIEWS = 16      # combinations of open doors (four doors)
DEF MAXFIX = 64        # fixtures, and objectives

# reactions
DEF R_NONE = 0
DEF R_DEFEND = 1
DEF R_COUNTER = 2
DEF R_SURRENDER = 3

DEF GREEDY = 0
DEF RANDOM = 1

# check results: critical
DEF CRIT_NONE = 0
DEF CRIT_SUCCESS = 1
DEF CRIT_FAILURE = 2

# outcome
DEF O_MISS = 0
DEF O_DEFENDED = 1
DEF O_HIT = 2

DEF NOT_COVERED = -1000
DEF MAXWAYS = 8192     # ways of _fills (each one ordered choice of up to 6 of the 6
                       # locations, so at most 6 + 30 + 120 + 360 + 720 + 720 = 1956), plans
                       # of _aid_plans and _hardenings (7,378 at most)
DEF MAXSIDES = 8
DEF MAXSLOT = 400      # characters of one dice key's slot

#: The kernel's fixed limits, by name: ``Kernel(tables)`` answers a scenario past one of them
#: with KernelLimit naming it (the reference plays). The buffers a battle fills are checked
#: before every write, and a battle that would pass one is left to the reference with the
#: limit named: the legal actions of one turn (``actions``), the items on the floor of one
#: area (``floor``) and the items one arrangement picks from (``pool``). The ways of marking
#: a wound are at most 1,956 (one per ordered choice of the six locations), and the plans
#: of first aid and hardenings at most 7,378: ``ways`` holds both.
LIMITS = {
    "characters": MAXC,
    "areas": MAXA,
    "sides": MAXSIDES,
    "items": MAXIT,                # kinds of item the characters carry
    "carried": MAXCARRY,           # items one character carries
    "floor": MAXFLOOR,             # items on the floor of one area
    "pool": MAXPOOL,               # items an arrangement picks from
    "actions": MAXOPT,             # legal actions of one turn
    "views": MAXVIEWS,             # combinations of open doors
    "fixtures": MAXFIX,            # fixtures, and objectives
    "ways": MAXWAYS,               # ways of marking a wound on the body's boxes
    "slot": MAXSLOT,
}

cdef double[6] _WEIGHTS = [3.0, 1.5, 1.5, 2.0, 1.0, 1.0]        # policy._WEIGHTS
cdef double[6] _BOX_WEIGHTS = [2.0, 1.0, 1.0, 1.0, 0.6, 0.6]    # values.BOX_WEIGHTS
cdef int[6] _AID_ORDER = [0, 3, 1, 2, 4, 5]                       # by -_WEIGHTS, stable
cdef double KNOCKOUT_WEIGHT = 30.0
cdef double DEATH_WEIGHT = 20.0


cdef extern from *:
    uint64_t tactica_pcg64_next64(tactica_pcg64 *g) nogil


cdef struct Body:
    int level, maxl
    int boxes[6]
    int slash[6]
    int x[6]
    int perm[6]
    int filled          # bitmask of filled_before


cdef struct Wound:
    Body body
    int location, damage
    int changed[2]
    int nchanged
    int filled[3]
    int losses[3]
    int nfilled
    int level_lost
    bint knocked_out, died


cdef struct Char:
    int side, pc, good, area
    Body body
    int ver                      # changes with the body (the hit table cache's key)
    int nitems
    int items[MAXCARRY]
    int right, left
    int actions, owed
    bint surrendered, retreated
    int ammo[MAXIT]              # carried ammunition per item (-1: not counted)
    int fired[MAXIT]
    int dealt, taken, moves


cdef struct Result:              # dice.CheckResult
    int tens, units
    bint success
    int crit
    bint extra, set


cdef struct Plan:                # attack.AttackPlan (the bodies are the characters')
    int a, t, weapon, kind
    bint ranged, cover, defend, shield
    int distance


cdef struct Outcome:             # attack.AttackOutcome
    Result attack
    Result defence
    bint defended_rolled
    int result
    int dmg, loc                 # the assignment
    Wound wound


cdef struct Estimate:
    double p_hit, harm, p_ko


cdef struct CachedEstimate:
    int aver, tver                # the two bodies it was made for
    Estimate e


cdef struct HitTable:
    int ver
    double harm[101]
    double ko[101]
    int best[101]


cdef inline int _number(int t, int u) noexcept nogil:
    """dice.number: 00 reads 100."""
    cdef int n = 10 * t + u
    return n if n else 100


cdef inline bint _succeeds(int t, int u, int level) noexcept nogil:
    cdef int n = _number(t, u)
    return n != 100 and n <= level


cdef inline int _critical(int t, int u, int level) noexcept nogil:
    """dice.critical."""
    cdef int n = _number(t, u)
    if n == 100:
        return CRIT_FAILURE
    if t == u:
        return CRIT_SUCCESS if n <= level else CRIT_FAILURE
    return CRIT_SUCCESS if n == level else CRIT_NONE


cdef inline int _set_limit(int t, int u, int level, int maxl) noexcept nogil:
    return maxl if _number(t, u) == level else level


cdef inline int _location_of(int die) noexcept nogil:
    """body.location_of."""
    if die == 9:
        return HEAD
    if die == 8:
        return RARM
    if die == 7:
        return LARM
    if die >= 4:
        return TORSO
    return RLEG if die >= 2 else LLEG


cdef inline bint _full(const Body *b, int loc) noexcept nogil:
    return b.slash[loc] + b.x[loc] + b.perm[loc] >= b.boxes[loc]


cdef inline bint _unconscious(const Body *b) noexcept nogil:
    return b.level <= 0 or _full(b, HEAD) or _full(b, TORSO)


cdef inline bint _dead(const Body *b) noexcept nogil:
    return b.perm[HEAD] >= b.boxes[HEAD] or b.perm[TORSO] >= b.boxes[TORSO]


cdef inline bint _wounded(const Body *b) noexcept nogil:
    cdef int i
    for i in range(6):
        if b.slash[i] + b.x[i] + b.perm[i]:
            return True
    return False


cdef int _factorial(int n) noexcept nogil:
    cdef int f = 1, k
    for k in range(2, n + 1):
        f *= k
    return f


cdef void _nth_permutation(int *items, int n, int idx, int *out) noexcept nogil:
    """The ``idx``-th of itertools.permutations(items) (lexicographic by position)."""
    cdef int left[8]
    cdef int k, j, f, q, m = n
    for k in range(n):
        left[k] = items[k]
    for k in range(n):
        f = _factorial(m - 1)
        q = idx // f
        idx = idx % f
        out[k] = left[q]
        for j in range(q, m - 1):
            left[j] = left[j + 1]
        m -= 1


cdef double _body_score(const Body *b) noexcept nogil:
    """policy.body_score."""
    cdef double score = 0.0 if _unconscious(b) else 30.0
    cdef int i
    for i in range(6):
        score -= _WEIGHTS[i] * (0.5 * b.slash[i] + b.x[i] + 2 * b.perm[i])
    return score - (100.0 if _dead(b) else 0.0)


cdef class Kernel(ConsultingRuntime):
    """One scenario's tables (see kernel.py) and the battle loop."""
    # map
    cdef int nA, nM
    cdef int *look_dist          # [src area, dst area]: range (-1: unreachable)
    cdef uint8_t *look_vis
    cdef uint8_t *look_cov
    cdef int *mlook_dist         # [src area, move]: the look at a mover (area, to)
    cdef uint8_t *mlook_vis
    cdef uint8_t *mlook_cov
    cdef int *mstart             # per area: its moves mstart .. mstart + mlen - 1
    cdef int *mlen
    cdef int *dstart             # per area: its doors (doors_from)
    cdef int *dlen
    cdef int *dother             # door option -> the area on the other side
    cdef int *ddoor              # door option -> the door
    # every view of the map (one per combination of open doors), the one in use above
    cdef int nviews, view, view_init
    cdef int *v_look_dist[MAXVIEWS]
    cdef uint8_t *v_look_vis[MAXVIEWS]
    cdef uint8_t *v_look_cov[MAXVIEWS]
    cdef int *v_mlook_dist[MAXVIEWS]
    cdef uint8_t *v_mlook_vis[MAXVIEWS]
    cdef uint8_t *v_mlook_cov[MAXVIEWS]
    cdef int *v_mto[MAXVIEWS]
    cdef int v_nM[MAXVIEWS]
    cdef int *v_mstart[MAXVIEWS]
    cdef int *v_mlen[MAXVIEWS]
    cdef int *v_dstart[MAXVIEWS]
    cdef int *v_dlen[MAXVIEWS]
    cdef int *v_dother[MAXVIEWS]
    cdef int *v_ddoor[MAXVIEWS]
    cdef int *mto                # move -> destination area
    cdef uint8_t is_exit[MAXA]
    cdef int nexits
    cdef int exits[MAXA]
    cdef int nfix, nobj
    cdef int fix_area[MAXFIX]
    cdef int fix_name[MAXFIX]
    cdef int ob_side[MAXFIX]
    cdef int ob_reach[MAXFIX]    # the area to reach (-1: a fixture to use)
    cdef int ob_count[MAXFIX]
    cdef int ob_use[MAXFIX]      # the fixture's name (-1: an area to reach)
    cdef uint8_t used[MAXFIX]    # per fixture name: the sides that used it (state.used)
    # content
    cdef int nitems
    cdef int ikind[MAXIT]
    cdef int ihands[MAXIT]
    cdef bint iammo[MAXIT]
    cdef int nc, nsides, max_rounds
    cdef Char init[MAXC]
    cdef int side_pc[8]
    # rulings (kernel.py maps the names)
    cdef int r3_pcs_win_equal, r6, r7, r14_reactor, r15_reactor_first, r16_wasted
    cdef int r17_any_hit, r19_all, r21_yes, r24_yes, r25_other_areas, r26_per_attack
    cdef int r27_break, r27_now, r20_by_roll
    cdef int version_later, mark_x, excess_lost, torso_lost, refill_once
    # the rulings a battle consulted (ConsultingKernel): bit per ruling number (kernel.py)
    cdef uint64_t rbit[64]       # by ruling number (UNH-n: rbit[n]), 0 for none
    cdef uint64_t setup_consulted    # read by rules.new_state in every battle
    cdef uint64_t consulted      # this battle's
    # keys
    cdef list actor_slots        # bytes per character: "unit 'id'|"
    cdef list label_slots        # bytes per (character, kind, variant): "id: attack|"
    # battle state
    cdef Char c[MAXC]
    cdef int round, turn, norder, holder, ended, winner
    cdef int order[8]
    cdef uint64_t broken
    cdef int fl_n[MAXA]
    cdef int fl[MAXA][MAXFLOOR]
    cdef int *counts             # keyed dice counts [actor, roller, kind, variant]
    cdef int vercount
    cdef HitTable *htables       # [character, by_attacker]
    cdef CachedEstimate *estimates   # [attacker, target, picks, defend]
    cdef double **losses         # defence_losses by (level, max level, edge)
    cdef int policies[8]
    cdef int step_actor          # the acting character of the step under way (-1: a round)
    cdef int pending_drop[MAXC * 2]
    cdef int npending
    cdef bint fired_now[MAXC]    # the declared interceptions of the move that fired
    cdef int aid_ver[MAXC]       # _aid_gain_of's memory: the body and treater's level
    cdef int aid_level[MAXC]
    cdef double aid_value[MAXC]
    cdef object fail_reason
    cdef int opt_cap             # the legal actions the list holds (MAXOPT; less in tests)
    cdef bint opt_full           # a legal action found no room in the list
    cdef public object trace     # a list: every action chosen, with greedy's values (tests)
    cdef Body aid_body           # the patient's body of the first aid under way
    cdef int aid_rule22, aid_rule23
    cdef int (*ways)[6]          # _fills' answers
    cdef int (*plans)[6]         # first_aid_plans' answers
    # options of a decision
    cdef int *opt_kind
    cdef int *opt_u
    cdef int *opt_a
    cdef int *opt_b
    cdef double *values
    cdef int *top
    # the dice of the battle
    cdef uint8_t key[1100]
    cdef int prefix_len

    def __dealloc__(self):
        """The defence losses remembered during battles (_losses); the rest is owned."""
        cdef int i
        if self.losses != NULL:
            for i in range(100 * 100 * 2):
                free(self.losses[i])

    def __init__(self, dict t):
        cdef int i, j, k, n
        self.tables = t
        self.nA = t["nareas"]
        within(self.nA, MAXA, "areas")
        n = self.nA
        within(len(t["views"]), MAXVIEWS, "combinations of open doors")
        for v in t["views"]:
            self._load_view(v)
        self.view_init = t["view"]
        self._use_view(self.view_init)
        self.nexits = 0
        for i in range(n):
            self.is_exit[i] = 0
        for i in t["exits"]:
            self.is_exit[i] = 1
            self.exits[self.nexits] = i
            self.nexits += 1
        fixtures, objectives = t["fixtures"], t["objectives"]
        if len(fixtures) > MAXFIX or len(objectives) > MAXFIX:
            raise KernelLimit(f"more than {MAXFIX} fixtures or objectives")
        self.nfix = len(fixtures)
        for i, (area, name) in enumerate(fixtures):
            self.fix_area[i] = area
            self.fix_name[i] = name
        self.nobj = len(objectives)
        for i, (side, reach, count, use) in enumerate(objectives):
            self.ob_side[i] = side
            self.ob_reach[i] = reach
            self.ob_count[i] = count
            self.ob_use[i] = use
        items = t["items"]
        self.nitems = len(items)
        within(self.nitems, MAXIT, "kinds of item")
        for i, (kind, hands, ammo) in enumerate(items):
            self.ikind[i] = kind
            self.ihands[i] = hands
            self.iammo[i] = ammo
        chars = t["chars"]
        self.nc = len(chars)
        self.nsides = t["nsides"]
        within(self.nc, MAXC, "characters")
        within(self.nsides, MAXSIDES, "sides")
        if any(k < 0 or k >= 64 for k in t["ruling_bits"]):
            raise KernelLimit("a ruling numbered beyond 63")
        for i in range(self.nsides):
            self.side_pc[i] = t["side_pc"][i]
        self.max_rounds = t["max_rounds"]
        for i, ch in enumerate(chars):
            self.init[i].side = ch["side"]
            self.init[i].pc = ch["pc"]
            self.init[i].good = ch["good"]
            self.init[i].area = ch["area"]
            self.init[i].body.level = ch["level"]
            self.init[i].body.maxl = ch["max_level"]
            self.init[i].body.filled = 0
            for j in range(6):
                self.init[i].body.boxes[j] = t["boxes"][j]
                self.init[i].body.slash[j] = ch["marks"][j][0]
                self.init[i].body.x[j] = ch["marks"][j][1]
                self.init[i].body.perm[j] = ch["marks"][j][2]
            if len(ch["items"]) > MAXCARRY:
                raise KernelLimit(f"a character carrying more than {MAXCARRY} items")
            self.init[i].nitems = len(ch["items"])
            for j, it in enumerate(ch["items"]):
                self.init[i].items[j] = it
            self.init[i].right = ch["right"]
            self.init[i].left = ch["left"]
            self.init[i].actions = 0
            self.init[i].owed = 0
            self.init[i].surrendered = False
            self.init[i].retreated = False
            for j in range(MAXIT):
                self.init[i].ammo[j] = -1
                self.init[i].fired[j] = 0
            for it, left in ch["ammo"]:
                self.init[i].ammo[it] = left
            self.init[i].dealt = self.init[i].taken = self.init[i].moves = 0
            self.init[i].ver = 0
        for k in range(64):
            self.rbit[k] = 0
        for k, bit in t["ruling_bits"].items():
            self.rbit[k] = bit
        self.setup_consulted = t["setup_consulted"]
        r = t["rulings"]
        self.r3_pcs_win_equal = r["r3_pcs_win_equal"]
        self.r6 = r["r6"]
        self.r7 = r["r7"]
        self.r14_reactor = r["r14_reactor"]
        self.r15_reactor_first = r["r15_reactor_first"]
        self.r16_wasted = r["r16_wasted"]
        self.r17_any_hit = r["r17_any_hit"]
        self.r19_all = r["r19_all"]
        self.r21_yes = r["r21_yes"]
        self.r24_yes = r["r24_yes"]
        self.r25_other_areas = r["r25_other_areas"]
        self.r26_per_attack = r["r26_per_attack"]
        self.r27_break = r["r27_break"]
        self.r27_now = r["r27_now"]
        self.r20_by_roll = r["r20_by_roll"]
        self.version_later = r["version_later"]
        self.mark_x = r["mark_x"]
        self.excess_lost = r["excess_lost"]
        self.torso_lost = r["torso_lost"]
        self.refill_once = r["refill_once"]
        self.actor_slots = t["actor_slots"]
        self.label_slots = t["label_slots"]
        slots_within(self.actor_slots + self.label_slots, MAXSLOT)
        self.counts = <int *>self._own(self.nc * self.nc * NKIND * NVAR * sizeof(int), True)
        self.htables = <HitTable *>self._own(self.nc * 2 * sizeof(HitTable), True)
        self.estimates = <CachedEstimate *>self._own(
            self.nc * self.nc * 4 * sizeof(CachedEstimate), True)
        self.losses = <double **>self._own(100 * 100 * 2 * sizeof(double *), True)
        self.vercount = 0
        self.opt_cap = MAXOPT
        self.opt_kind = <int *>self._own(sizeof(int) * MAXOPT, False)
        self.opt_u = <int *>self._own(sizeof(int) * MAXOPT, False)
        self.opt_a = <int *>self._own(sizeof(int) * MAXOPT, False)
        self.opt_b = <int *>self._own(sizeof(int) * MAXOPT, False)
        self.values = <double *>self._own(sizeof(double) * MAXOPT, False)
        self.top = <int *>self._own(sizeof(int) * MAXOPT, False)
        self.ways = <int (*)[6]>self._own(sizeof(int) * 6 * MAXWAYS, False)
        self.plans = <int (*)[6]>self._own(sizeof(int) * 6 * MAXWAYS, False)
        self.aid_rule22 = r["r22_any"]
        self.aid_rule23 = r["r23_patient"]

    cdef int _load_view(self, dict t) except -1:
        """One view of the map (kernel.py: the reference's ZoneView with those doors)."""
        cdef int v = self.nviews, n = self.nA, i, j, k, nM
        self.nviews += 1
        self.v_look_dist[v] = <int *>self._own(sizeof(int) * n * n, False)
        self.v_look_vis[v] = <uint8_t *>self._own(n * n, False)
        self.v_look_cov[v] = <uint8_t *>self._own(n * n, False)
        for i in range(n * n):
            self.v_look_dist[v][i] = t["look_dist"][i]
            self.v_look_vis[v][i] = t["look_vis"][i]
            self.v_look_cov[v][i] = t["look_cov"][i]
        moves = t["moves"]           # per area: destinations
        nM = self.v_nM[v] = sum(len(m) for m in moves)
        self.v_mto[v] = <int *>self._own(sizeof(int) * max(1, nM), False)
        self.v_mstart[v] = <int *>self._own(sizeof(int) * n, False)
        self.v_mlen[v] = <int *>self._own(sizeof(int) * n, False)
        k = 0
        for i in range(n):
            self.v_mstart[v][i] = k
            self.v_mlen[v][i] = len(moves[i])
            for j in moves[i]:
                self.v_mto[v][k] = j
                k += 1
        self.v_mlook_dist[v] = <int *>self._own(sizeof(int) * n * max(1, nM), False)
        self.v_mlook_vis[v] = <uint8_t *>self._own(n * max(1, nM), False)
        self.v_mlook_cov[v] = <uint8_t *>self._own(n * max(1, nM), False)
        for i in range(n * nM):
            self.v_mlook_dist[v][i] = t["mlook_dist"][i]
            self.v_mlook_vis[v][i] = t["mlook_vis"][i]
            self.v_mlook_cov[v][i] = t["mlook_cov"][i]
        doors = t["doors"]           # per area: (other area, door) of doors_from
        k = sum(len(d) for d in doors)
        self.v_dstart[v] = <int *>self._own(sizeof(int) * n, False)
        self.v_dlen[v] = <int *>self._own(sizeof(int) * n, False)
        self.v_dother[v] = <int *>self._own(sizeof(int) * max(1, k), False)
        self.v_ddoor[v] = <int *>self._own(sizeof(int) * max(1, k), False)
        k = 0
        for i in range(n):
            self.v_dstart[v][i] = k
            self.v_dlen[v][i] = len(doors[i])
            for other, door in doors[i]:
                self.v_dother[v][k] = other
                self.v_ddoor[v][k] = door
                k += 1
        return 0

    cdef void _use_view(self, int v) noexcept nogil:
        """state.ZoneView.with_door: the view of that combination of open doors."""
        self.view = v
        self.look_dist = self.v_look_dist[v]
        self.look_vis = self.v_look_vis[v]
        self.look_cov = self.v_look_cov[v]
        self.mlook_dist = self.v_mlook_dist[v]
        self.mlook_vis = self.v_mlook_vis[v]
        self.mlook_cov = self.v_mlook_cov[v]
        self.mto = self.v_mto[v]
        self.nM = self.v_nM[v]
        self.mstart = self.v_mstart[v]
        self.mlen = self.v_mlen[v]
        self.dstart = self.v_dstart[v]
        self.dlen = self.v_dlen[v]
        self.dother = self.v_dother[v]
        self.ddoor = self.v_ddoor[v]

    # -- dice (tactica.engine.streams.KeyedDice, dice.check) ----------------------------------------

    cdef int _below(self, const uint8_t *actor, int alen, const uint8_t *label, int llen,
                    int k, uint64_t total) noexcept nogil:
        """One exact uniform draw below ``total`` keyed ``prefix + actor + label + str(k)``
        (KeyedDice.roll of a uniform Dist: uniform_below, Lemire's method)."""
        cdef int n = self.prefix_len
        memcpy(self.key + n, actor, alen)
        n += alen
        memcpy(self.key + n, label, llen)
        n = key_digits(self.key, n + llen, k)
        return <int>keyed_below(self.key, n, total)

    cdef int _roll(self, int roller, int kind, int var, uint64_t total) except -1:
        """A roll of ``roller``'s ``kind`` label (``var``: a re-roll) within the step under
        way: the actor's slot and the count of this (actor, label) so far."""
        cdef bytes actor, label
        cdef int k = 0, idx
        label = self.label_slots[(roller * NKIND + kind) * NVAR + var]
        if self.step_actor >= 0:
            actor = self.actor_slots[self.step_actor]
            idx = ((self.step_actor * self.nc + roller) * NKIND + kind) * NVAR + var
            k = self.counts[idx]
            self.counts[idx] = k + 1
        else:   # an automatic step: its label's repr, 'round N' (one roll per label)
            actor = f"'round {self.round + 1}'|".encode()
        k = self._below(<const uint8_t *>actor, len(actor), <const uint8_t *>label,
                        len(label), k, total)
        if self.trace is not None:
            self.trace.append(("roll", actor + label, k))
        return k

    cdef inline void _read(self, int n) noexcept nogil:
        """The reference reads ruling UNH-``n`` here (Rulings.__getitem__: consulted)."""
        self.consulted |= self.rbit[n]

    cdef inline void _greedy_decides(self) noexcept nogil:
        """policy.decide reads UNH-6 and UNH-7 first, for every decision of greedy."""
        self.consulted |= self.rbit[6] | self.rbit[7]

    cdef int _check(self, int roller, int kind, int level, int maxl, bint good, bint choice,
                    int purpose, Plan *plan, Result *against, Result *out) except -1:
        """dice.check: the roll, a good re-roll, the critical success choice. ``purpose``:
        0 attack, 1 defend, 2 initiative (``against`` holds the number to beat), 3 first aid.
        """
        cdef int p = self._roll(roller, kind, 0, 100), t, u, choice_k, side = self.c[roller].side
        cdef int limit, n
        t = p // 10
        u = p % 10
        if good and _critical(t, u, level) != CRIT_FAILURE:
            # _after_roll: Decide re-roll (REROLLS)
            if self.policies[side] == RANDOM:
                choice_k = self._integers(side, 4)
            else:
                self._greedy_decides()
                choice_k = self._reroll_choice(t, u, level, purpose, plan, against)
            if choice_k == 1:
                t = self._roll(roller, kind, 1, 10)
            elif choice_k == 2:
                u = self._roll(roller, kind, 2, 10)
            elif choice_k == 3:
                p = self._roll(roller, kind, 3, 100)
                t = p // 10
                u = p % 10
        # _finish
        out.tens = t
        out.units = u
        out.crit = _critical(t, u, level)
        out.success = _succeeds(t, u, level)
        out.extra = False
        out.set = False
        if out.crit != CRIT_SUCCESS:
            return 0
        out.success = True
        if not choice:
            out.extra = True
            return 0
        if self.policies[side] == RANDOM:
            choice_k = self._integers(side, 2)
        else:
            self._greedy_decides()         # the set-dice decision follows on this side
            choice_k = self._crit_sets(t, u, level, maxl, purpose, plan, against)
            if choice_k == NOT_COVERED:
                return NOT_COVERED
        if choice_k == 0:
            out.extra = True
            return 0
        limit = _set_limit(t, u, level, maxl)
        if self.policies[side] == RANDOM:
            n = self._integers(side, limit) + 1
        elif purpose == 0:
            n = self._table(plan.t, not (plan.cover or plan.shield)).best[limit]
        elif purpose == 3:
            n = self._aid_number(limit)
        else:
            n = limit
        out.tens = 0 if n == 100 else n // 10
        out.units = 0 if n == 100 else n % 10
        out.set = True
        return 0

    # -- greedy decisions inside a roll (policy.decide, values) --------------------------------

    cdef bint _goal(self, int t, int u, int level, int purpose, Plan *plan,
                    Result *against) noexcept nogil:
        """policy._goal."""
        cdef Result r
        if purpose == 2:
            return _succeeds(t, u, level) and _number(t, u) > against.tens
        if purpose == 1 and against != NULL and against.success:
            r.tens = t
            r.units = u
            r.success = _succeeds(t, u, level)
            return self._defence_wins(plan, against, &r)
        if purpose == 0 and against != NULL and against.success:
            if not _succeeds(t, u, level):
                return False
            r.tens = t
            r.units = u
            r.success = True
            return not self._defence_wins(plan, &r, against)
        return _succeeds(t, u, level)

    cdef int _reroll_choice(self, int t, int u, int level, int purpose, Plan *plan,
                            Result *against) noexcept nogil:
        """values.reroll_choice: 0 keep, 1 tens, 2 units, 3 both."""
        cdef int k, i, j, nt = 0, nu = 0, nb = 0, best
        cdef double tens, units, both, v
        if self._goal(t, u, level, purpose, plan, against):
            return 0
        for k in range(10):
            nt += self._goal(k, u, level, purpose, plan, against)
            nu += self._goal(t, k, level, purpose, plan, against)
        for i in range(10):
            for j in range(10):
                nb += self._goal(i, j, level, purpose, plan, against)
        tens = nt / 10.0
        units = nu / 10.0
        both = nb / 100.0
        best = 1
        v = tens
        if units > v:
            best = 2
            v = units
        if both > v:
            best = 3
            v = both
        return best if v > 0 else 0

    cdef bint _defence_wins(self, Plan *plan, Result *a, Result *d) noexcept nogil:
        """attack.defence_wins."""
        cdef int dn, an
        cdef int tpc = self.c[plan.t].pc, apc = self.c[plan.a].pc
        if not d.success:
            return False
        dn = _number(d.tens, d.units)
        an = _number(a.tens, a.units)
        if not a.success or dn > an:
            return True
        if dn < an:
            return False
        if tpc != apc:
            return tpc
        return self.r14_reactor  # ruling UNH-14

    cdef int _crit_sets(self, int t, int u, int level, int maxl, int purpose, Plan *plan,
                        Result *against) except -1:
        """policy._crit_sets: 1 to set the dice, 0 for the extra action (UNH-7)."""
        cdef HitTable *table
        cdef int best, limit, n
        cdef double extra
        cdef Result r
        cdef Estimate e
        if self.r7 != 0:                  # ruling UNH-7: extra-action (1), set-dice (2)
            return self.r7 == 2
        if purpose == 0:                  # values.crit_takes_set
            table = self._table(plan.t, not (plan.cover or plan.shield))
            best = table.best[_set_limit(t, u, level, maxl)]
            self._estimate(level, maxl, table, NULL, 1, &e)
            extra = e.harm
            return table.harm[best] - table.harm[_number(t, u)] > extra
        if purpose == 1:
            if against == NULL or not against.success:
                return 0
            limit = _set_limit(t, u, level, maxl)
            r.tens = t
            r.units = u
            r.success = True
            if self._defence_wins(plan, against, &r):
                return 0
            r.tens = 0 if limit == 100 else limit // 10
            r.units = 0 if limit == 100 else limit % 10
            return self._defence_wins(plan, against, &r)
        if purpose == 3:
            limit = _set_limit(t, u, level, maxl)
            n = self._aid_number(limit)
            return (self._aid_best(0 if n == 100 else n // 10, 0 if n == 100 else n % 10)
                    - self._aid_best(t, u) > 5.0)
        return 0

    # -- wounds (body.wound) and the values of hits (values.hit_table, _estimate) ------------

    cdef void _wound(self, const Body *before, int location, int damage, Wound *w) noexcept nogil:
        """body.wound under the damage rulings (UNH-4, UNH-11, UNH-12, UNH-13, UNH-18)."""
        cdef Body *b = &w.body
        cdef int todo = damage, where = location, lost = 0, i, free, n, up, step, k
        cdef bint seen
        b[0] = before[0]
        w.location = location
        w.damage = damage
        w.nchanged = 0
        w.nfilled = 0
        if damage > 0 and _full(b, where):
            where = TORSO
        while todo > 0:
            i = where
            free = b.boxes[i] - (b.slash[i] + b.x[i] + b.perm[i])
            if free <= 0:
                if where != TORSO or self.torso_lost:   # ruling UNH-13
                    break
                # _escalate
                up = todo if todo < b.slash[i] else b.slash[i]
                n = todo - up
                k = n if n < b.x[i] + up else b.x[i] + up
                if up or k:
                    b.slash[i] -= up
                    b.x[i] += up - k
                    b.perm[i] += k
                    self._changed(w, where)
                break
            n = free if free < todo else todo
            if self.mark_x:                                # ruling UNH-11
                b.x[i] += n
            else:
                b.slash[i] += n
            self._changed(w, where)
            todo -= n
            if n == free:
                step = 0
                # ruling UNH-4 (first), ruling UNH-18
                if not self.version_later and (not self.refill_once
                                               or not (b.filled >> where) & 1):
                    step = b.boxes[i]
                w.filled[w.nfilled] = where
                w.losses[w.nfilled] = step
                w.nfilled += 1
                lost += step
                b.filled |= 1 << where
            if todo <= 0 or (where != TORSO and self.excess_lost):   # ruling UNH-12
                break
            where = TORSO
        if self.version_later:                             # ruling UNH-4 (later)
            lost = damage
        b.level = before.level - lost
        if b.level < 0:
            b.level = 0
        w.level_lost = before.level - b.level
        w.knocked_out = _unconscious(b) and not _unconscious(before)
        w.died = _dead(b) and not _dead(before)

    cdef inline void _changed(self, Wound *w, int loc) noexcept nogil:
        cdef int i
        for i in range(w.nchanged):
            if w.changed[i] == loc:
                return
        w.changed[w.nchanged] = loc
        w.nchanged += 1

    cdef double _harm(self, Wound *w, const Body *before) noexcept nogil:
        """values.harm."""
        cdef double boxes = 0.0
        cdef int i, loc
        for i in range(w.nchanged):
            loc = w.changed[i]
            boxes += _BOX_WEIGHTS[loc] * ((w.body.slash[loc] + w.body.x[loc] + w.body.perm[loc])
                                         - (before.slash[loc] + before.x[loc]
                                            + before.perm[loc]))
        return (w.level_lost + KNOCKOUT_WEIGHT * w.knocked_out + DEATH_WEIGHT * w.died + boxes)

    cdef bint _more_severe(self, Wound *a, Wound *b) noexcept nogil:
        """values.severity(a) > severity(b)."""
        if a.level_lost != b.level_lost:
            return a.level_lost > b.level_lost
        if a.knocked_out != b.knocked_out:
            return a.knocked_out > b.knocked_out
        if a.died != b.died:
            return a.died > b.died
        return a.damage > b.damage

    cdef int _pick_reading(self, Wound *w0, Wound *w1, bint by_attacker) noexcept nogil:
        """values._choice among the two readings of a hit (UNH-6 worst or max-damage): the
        index picked."""
        if self.r6 == 1:                                   # ruling UNH-6 max-damage
            if by_attacker:
                return 1 if w1.damage > w0.damage else 0
            return 1 if w1.damage < w0.damage else 0
        # ruling UNH-6 worst: max(keyed) / min(keyed, key=(severity, -i)): ties to the second
        if by_attacker:
            return 0 if self._more_severe(w0, w1) else 1
        return 0 if self._more_severe(w1, w0) else 1

    cdef HitTable *_table(self, int ch, bint by_attacker) noexcept nogil:
        """values.hit_table of character ``ch``'s body (remembered while the body is; both
        assigners' tables are made together from the same wounds)."""
        cdef HitTable *h = &self.htables[ch * 2 + by_attacker]
        cdef Body *body = &self.c[ch].body
        cdef Wound wounds[6][10]
        cdef double harms[6][10]
        cdef int loc, n
        if h.ver == self.c[ch].ver:
            return h
        for loc in range(6):
            for n in range(10):
                self._wound(body, loc, n, &wounds[loc][n])
                harms[loc][n] = self._harm(&wounds[loc][n], body)
        self._fill_table(&self.htables[ch * 2], wounds, harms, False)
        self._fill_table(&self.htables[ch * 2 + 1], wounds, harms, True)
        self.htables[ch * 2].ver = self.c[ch].ver
        self.htables[ch * 2 + 1].ver = self.c[ch].ver
        return h

    cdef void _fill_table(self, HitTable *h, Wound (*wounds)[10], double (*harms)[10],
                          bint by_attacker) noexcept nogil:
        """values.hit_table from the wounds of every (location, damage)."""
        cdef int n, t, u, loc0, loc1, pick, prev
        h.harm[0] = 0.0
        h.ko[0] = 0.0
        for n in range(1, 101):
            h.harm[n] = 0.0
            h.ko[n] = 0.0
            t = 0 if n == 100 else n // 10
            u = 0 if n == 100 else n % 10
            loc0 = _location_of(u)   # the tens die for damage
            loc1 = _location_of(t)   # the units die for damage
            if t == u:
                h.harm[n] += harms[loc0][t] / 1
                h.ko[n] += wounds[loc0][t].knocked_out / 1.0
            elif self.r6 == 2:                                 # ruling UNH-6 random
                h.harm[n] += harms[loc0][t] / 2
                h.ko[n] += wounds[loc0][t].knocked_out / 2.0
                h.harm[n] += harms[loc1][u] / 2
                h.ko[n] += wounds[loc1][u].knocked_out / 2.0
            else:
                pick = self._pick_reading(&wounds[loc0][t], &wounds[loc1][u], by_attacker)
                if pick == 0:
                    h.harm[n] += harms[loc0][t] / 1
                    h.ko[n] += wounds[loc0][t].knocked_out / 1.0
                else:
                    h.harm[n] += harms[loc1][u] / 1
                    h.ko[n] += wounds[loc1][u].knocked_out / 1.0
        h.best[1] = 1
        for n in range(2, 101):
            prev = h.best[n - 1]
            h.best[n] = n if h.harm[n] >= h.harm[prev] else prev
        h.best[0] = 1

    cdef double *_losses(self, int level, int maxl, int edge) noexcept nogil:
        """values.defence_losses (remembered)."""
        cdef int idx = (level * 100 + maxl) * 2 + edge, n, t, u, m, wins
        cdef double *out = self.losses[idx]
        if out != NULL:
            return out
        out = <double *>malloc(sizeof(double) * 101)
        out[0] = 1.0
        for n in range(1, 101):
            wins = 0
            for t in range(10):
                for u in range(10):
                    if not _succeeds(t, u, level):
                        continue
                    m = _number(t, u)
                    if _critical(t, u, level) == CRIT_SUCCESS:
                        if _set_limit(t, u, level, maxl) > m:
                            m = _set_limit(t, u, level, maxl)
                    wins += m > n or (m == n and edge == 1)
            out[n] = 1 - wins / 100.0
        self.losses[idx] = out
        return out

    cdef void _estimate(self, int level, int maxl, HitTable *table, double *losses,
                        int crit_rule, Estimate *e) noexcept nogil:
        """values._estimate; ``crit_rule`` 0 policy, 1 extra-action, 2 set-dice."""
        cdef double extra = 0.0, p
        cdef int t, u, n, best
        cdef Estimate inner
        if crit_rule == 0:
            self._estimate(level, maxl, table, NULL, 1, &inner)
            extra = inner.harm
        e.p_hit = 0.0
        e.harm = 0.0
        e.p_ko = 0.0
        for t in range(10):
            for u in range(10):
                if not _succeeds(t, u, level):
                    continue
                n = _number(t, u)
                if _critical(t, u, level) == CRIT_SUCCESS and crit_rule != 1:
                    best = table.best[_set_limit(t, u, level, maxl)]
                    if crit_rule == 2 or table.harm[best] - table.harm[n] > extra:
                        n = best
                p = (losses[n] if losses != NULL else 1.0) / 100
                e.p_hit += p
                e.harm += p * table.harm[n]
                e.p_ko += p * table.ko[n]

    cdef void _quick(self, int a, int t, bint picks, bint defend, int edge,
                     Estimate *e) noexcept nogil:
        """values.quick_estimate of ``a`` attacking ``t`` (the characters' bodies now;
        remembered while both bodies are: ``edge`` follows from the two characters)."""
        cdef CachedEstimate *memo = &self.estimates[((a * self.nc + t) * 2 + picks) * 2
                                                     + defend]
        cdef HitTable *table
        cdef double *losses = NULL
        self._greedy_decides()   # policy._est, _react, _intercept, _attack_value read both
        if memo.aver == self.c[a].ver and memo.tver == self.c[t].ver:
            e[0] = memo.e
            return
        table = self._table(t, not picks)
        if defend:
            losses = self._losses(self.c[t].body.level, self.c[t].body.maxl, edge)
        self._estimate(self.c[a].body.level, self.c[a].body.maxl, table, losses, self.r7, e)
        memo.aver = self.c[a].ver
        memo.tver = self.c[t].ver
        memo.e = e[0]

    cdef inline int _edge(self, int a, int t) noexcept nogil:
        """values._edge / policy._est: 1 if the defender wins equal successes."""
        if self.c[t].pc != self.c[a].pc:
            return self.c[t].pc
        self._read(14)
        return self.r14_reactor     # ruling UNH-14

    cdef double _est(self, int a, int t, bint cover, bint defend) noexcept nogil:
        """policy._est (a shield counts from ``a``'s own area)."""
        cdef Estimate e
        cdef bint picks = cover or self._shielded(t, 1 if self.c[a].area != self.c[t].area else 0)
        self._quick(a, t, picks, defend, self._edge(a, t), &e)
        return e.harm

    cdef void _plan_estimate(self, Plan *p, Estimate *e) noexcept nogil:
        """values.estimate of a plan."""
        self._quick(p.a, p.t, p.cover or p.shield, p.defend, self._edge(p.a, p.t), e)

    # -- characters and items (state.Character, legal) -----------------------------------------

    cdef inline bint _in_fight(self, int i) noexcept nogil:
        return not (self.c[i].surrendered or self.c[i].retreated
                    or _unconscious(&self.c[i].body))

    cdef inline bint _hand_ok(self, int i, int hand) noexcept nogil:
        """Body.hand_usable: 0 right, 1 left."""
        return not _full(&self.c[i].body, RARM if hand == 0 else LARM)

    cdef bint _can_fire(self, int i, int item) noexcept nogil:
        """legal.can_fire (UNH-26)."""
        cdef int carried
        if not (self.ikind[item] == RANGED and self.iammo[item]):
            return True
        carried = self.c[i].ammo[item]
        if carried < 0:
            return True
        self._read(26)
        if self.r26_per_attack:                        # ruling UNH-26
            return self.c[i].fired[item] < carried
        return carried > 0

    cdef int _in_hands(self, int i, int right, int left, int *out) noexcept nogil:
        """Character.in_hands for hands ``right``, ``left`` (-1: empty)."""
        cdef int n = 0
        if right >= 0 and self._hand_ok(i, 0):
            out[n] = right
            n += 1
        if left >= 0 and self._hand_ok(i, 1) and not (n == 1 and out[0] == left):
            out[n] = left
            n += 1
        return n

    cdef int _weapons(self, int i, int right, int left, int *out) noexcept nogil:
        """legal.weapons_in_hand."""
        cdef int held[2]
        cdef int n = self._in_hands(i, right, left, held), k, m = 0
        for k in range(n):
            if (self.ikind[held[k]] == MELEE or self.ikind[held[k]] == RANGED) \
                    and self._can_fire(i, held[k]):
                out[m] = held[k]
                m += 1
        return m

    cdef int _kit(self, int i, int right, int left) noexcept nogil:
        """legal.first_aid_kit (-1: none)."""
        cdef int held[2]
        cdef int n = self._in_hands(i, right, left, held), k
        for k in range(n):
            if self.ikind[held[k]] == FIRST_AID:
                return held[k]
        return -1

    cdef bint _shielded(self, int t, int distance) noexcept nogil:
        """rules.shielded (UNH-25)."""
        self._read(25)
        if self.r25_other_areas and distance == 0:     # ruling UNH-25
            return False
        if self.c[t].right >= 0 and self.ikind[self.c[t].right] == SHIELD and self._hand_ok(t, 0):
            return True
        return (self.c[t].left >= 0 and self.ikind[self.c[t].left] == SHIELD
                and self._hand_ok(t, 1))

    cdef inline bint _attackable(self, int t) noexcept nogil:
        """legal.can_be_attacked (UNH-21)."""
        if self.c[t].surrendered or self.c[t].retreated:
            return False
        if self._in_fight(t):
            return True
        self._read(21)
        return self.r21_yes                             # ruling UNH-21

    cdef inline bint _reaches(self, int item, int dist, bint visible) noexcept nogil:
        """content.Item.reaches."""
        if dist < 0:
            return False
        if self.ikind[item] == MELEE:
            return dist == 0
        if self.ikind[item] != RANGED or not visible:
            return False
        return dist <= 1 if self.ihands[item] == 1 else dist >= 1

    cdef inline bint _reach(self, int src, int item, int dst) noexcept nogil:
        cdef int k = src * self.nA + dst
        return self._reaches(item, self.look_dist[k], self.look_vis[k])

    cdef inline bint _reach_move(self, int src, int item, int m) noexcept nogil:
        cdef int k = src * self.nM + m
        return self._reaches(item, self.mlook_dist[k], self.mlook_vis[k])

    cdef inline bint _can_move(self, int i) noexcept nogil:
        """Character.can_move."""
        cdef int legs = _full(&self.c[i].body, RLEG) + _full(&self.c[i].body, LLEG)
        return legs == 0 or (legs == 1 and self.c[i].right < 0 and self.c[i].left < 0)

    cdef inline bint _breaking(self, int i) noexcept nogil:
        """policy.breaking (UNH-27)."""
        self._read(27)
        return self.r27_break and not self.c[i].pc and (self.broken >> i) & 1  # ruling UNH-27

    cdef bint _helpless(self, int i) noexcept nogil:
        """policy._helpless."""
        cdef int k, a = self.c[i].area
        for k in range(self.c[i].nitems):
            if self.ikind[self.c[i].items[k]] <= RANGED:
                return False
        for k in range(self.fl_n[a]):
            if self.ikind[self.fl[a][k]] <= RANGED:
                return False
        return True

    cdef void _remove(self, int i, int item) noexcept nogil:
        """state._remove."""
        cdef int k, m = 0
        if self.c[i].right == item:
            self.c[i].right = -1
        if self.c[i].left == item:
            self.c[i].left = -1
        for k in range(self.c[i].nitems):
            if self.c[i].items[k] != item:
                self.c[i].items[m] = self.c[i].items[k]
                m += 1
        self.c[i].nitems = m

    cdef int _drop_to_floor(self, int area, int item) except -1:
        if self.fl_n[area] >= MAXFLOOR:
            self.fail_reason = f"more than {MAXFLOOR} items on the floor of one area"
            return NOT_COVERED
        self.fl[area][self.fl_n[area]] = item
        self.fl_n[area] += 1
        return 0

    cdef inline void _new_body(self, int i) noexcept nogil:
        self.vercount += 1
        self.c[i].ver = self.vercount

    # -- greedy values of actions (policy.rank_actions) ----------------------------------------

    cdef double _later(self, int i) noexcept nogil:
        """policy._later."""
        cdef int k, pos = -1, n
        cdef int arms[2]
        cdef double scale, v
        for k in range(self.norder):
            if self.order[k] == self.c[i].side:
                pos = k
                break
        if pos < 0 or pos <= self.turn:
            return 0.0
        scale = 0.5 if self.c[i].actions > 1 else 1.0
        n = self._weapons(i, self.c[i].right, self.c[i].left, arms)
        v = 0.8 * self._best_attack(i, self.c[i].area, arms, n, False)
        return scale * (v if v > 1.0 else 1.0)

    cdef double _best_attack(self, int i, int area, int *arms, int narms,
                             bint defend) noexcept nogil:
        """policy._best_attack_of."""
        cdef double best = 0.0, v
        cdef int t, k, key
        for t in range(self.nc):
            if self.c[t].side == self.c[i].side or not self._in_fight(t):
                continue
            for k in range(narms):
                if self._reach(area, arms[k], self.c[t].area):
                    key = area * self.nA + self.c[t].area
                    v = self._est(i, t, self.look_cov[key], defend)
                    if v > best:
                        best = v
        return best

    cdef double _threat(self, int i, int area) noexcept nogil:
        """policy._threat."""
        cdef double total = 0.0, worst, v
        cdef int e, k, n
        cdef int arms[2]
        for e in range(self.nc):
            if self.c[e].side == self.c[i].side or not self._in_fight(e):
                continue
            worst = 0.0
            n = self._weapons(e, self.c[e].right, self.c[e].left, arms)
            for k in range(n):
                if self._reach(self.c[e].area, arms[k], area):
                    v = self._est(e, i, self.look_cov[self.c[e].area * self.nA + area], False)
                    if v > worst:
                        worst = v
            total += worst
        return total

    cdef int _nearest(self, int i, int area) noexcept nogil:
        """policy._nearest."""
        cdef int e, d, best = -1
        for e in range(self.nc):
            if self.c[e].side == self.c[i].side or not self._in_fight(e):
                continue
            d = self.look_dist[area * self.nA + self.c[e].area]
            if d >= 0 and (best < 0 or d < best):
                best = d
        return best if best >= 0 else 0

    cdef double _position(self, int i, int area) noexcept nogil:
        """policy._position."""
        cdef int arms[2]
        cdef int n = self._weapons(i, self.c[i].right, self.c[i].left, arms)
        return (0.7 * self._best_attack(i, area, arms, n, False) - 0.35 * self._threat(i, area)
                - 0.3 * self._nearest(i, area))

    cdef double _move_risk(self, int i, int m) noexcept nogil:
        """policy._move_risk (``m``: the move from the character's area)."""
        cdef double risk = 0.0
        cdef int e, k, n
        cdef int arms[2]
        for e in range(self.nc):
            if self.c[e].side == self.c[i].side or not self._in_fight(e):
                continue
            if self.c[e].actions <= 0:
                continue
            n = self._weapons(e, self.c[e].right, self.c[e].left, arms)
            for k in range(n):
                if self._reach_move(self.c[e].area, arms[k], m):
                    risk += 0.5 * self._est(e, i, False, False)
                    break
        return risk

    cdef int _reactions(self, int a, int t, int weapon, bint cover, int *kinds,
                        int *weapons) noexcept nogil:
        """legal.reactions_to_attack: the options' kinds (and counterattack weapons)."""
        cdef int n = 0, k, m
        cdef int arms[2]
        if not self._in_fight(t):
            kinds[0] = R_NONE
            return 1
        kinds[n] = R_NONE
        n += 1
        if self.c[t].actions > 0:
            if self.ikind[weapon] != RANGED or cover:
                kinds[n] = R_DEFEND
                n += 1
            if self.c[a].area == self.c[t].area:
                m = self._weapons(t, self.c[t].right, self.c[t].left, arms)
                for k in range(m):
                    if self.ikind[arms[k]] == MELEE:
                        kinds[n] = R_COUNTER
                        weapons[n] = arms[k]
                        n += 1
        kinds[n] = R_SURRENDER
        n += 1
        return n

    cdef void _plan(self, Plan *p, int a, int t, int weapon, int kind, int distance,
                    bint cover, bint defend) noexcept nogil:
        """rules.attack_plan (reads UNH-14, UNH-15, and UNH-25 in shielded)."""
        self.consulted |= self.rbit[14] | self.rbit[15]
        p.a = a
        p.t = t
        p.weapon = weapon
        p.kind = kind
        p.ranged = self.ikind[weapon] == RANGED
        p.cover = cover
        p.distance = distance
        p.defend = defend
        p.shield = self._shielded(t, distance)

    cdef double _attack_value(self, int a, int weapon, int t) noexcept nogil:
        """policy._attack_value."""
        cdef int n, k, counter = -1, key
        cdef int kinds[8]
        cdef int weapons[8]
        cdef bint defend = False
        cdef Plan p
        cdef Estimate e
        cdef double value
        if not self._attackable(t) or not self._in_fight(t):
            return -1.0
        key = self.c[a].area * self.nA + self.c[t].area
        n = self._reactions(a, t, weapon, self.look_cov[key], kinds, weapons)
        for k in range(n):
            if kinds[k] == R_DEFEND:
                defend = True
            if kinds[k] == R_COUNTER and counter < 0:
                counter = weapons[k]
        self._plan(&p, a, t, weapon, K_ATTACK, max(0, self.look_dist[key]), self.look_cov[key],
                   defend)
        self._plan_estimate(&p, &e)
        value = e.harm
        if counter >= 0:
            self._plan(&p, t, a, counter, K_COUNTER, 0, False, False)
            self._plan_estimate(&p, &e)
            value -= 0.5 * e.harm
        return value + 0.5

    cdef double _aid_quick(self, Body *body, int boxes, int places) noexcept nogil:
        """policy._aid_quick."""
        cdef Body b = body[0]
        cdef int k, loc, n, used = 0
        for k in range(6):
            loc = _AID_ORDER[k]
            if boxes <= 0 or used >= places:
                break
            n = boxes if boxes < body.slash[loc] else body.slash[loc]
            if n:
                b.slash[loc] -= n
                used += 1
                boxes -= n
        for loc in range(6):   # aid.treat: every other \ becomes X
            b.x[loc] += b.slash[loc]
            b.slash[loc] = 0
        return _body_score(&b)

    cdef double _aid_gain(self, Body *body, int level) noexcept nogil:
        """policy._aid_gain."""
        cdef double now = _body_score(body), fail, total = 0.0, q1, q2
        cdef double quick[10][10]
        cdef Body b = body[0]
        cdef int t, u, loc
        for loc in range(6):
            b.x[loc] += b.slash[loc]
            b.slash[loc] = 0
        fail = _body_score(&b) - now
        for t in range(10):
            for u in range(t, 10):
                q1 = self._aid_quick(body, t, u + 1)
                q2 = self._aid_quick(body, u, t + 1)
                quick[t][u] = q2 if q2 > q1 else q1
        for t in range(10):
            for u in range(10):
                if _succeeds(t, u, level):
                    total += quick[t if t < u else u][u if t < u else t] - now
                elif _critical(t, u, level) == CRIT_FAILURE:
                    total += fail - 2.0
                else:
                    total += fail
        return total / 100

    cdef double _aid_gain_of(self, int t, int level) noexcept nogil:
        """policy._aid_gain of character ``t``'s body (remembered while the body is)."""
        if self.aid_ver[t] != self.c[t].ver or self.aid_level[t] != level:
            self.aid_value[t] = self._aid_gain(&self.c[t].body, level)
            self.aid_ver[t] = self.c[t].ver
            self.aid_level[t] = level
        return self.aid_value[t]

    cdef double _arrange_value(self, int i, int right, int left) noexcept nogil:
        """policy._arrange_value."""
        cdef int arms_now[2], arms_then[2], n_now, n_then, t
        cdef double now, then, value, g, best
        cdef bint any_needy = False
        n_now = self._weapons(i, self.c[i].right, self.c[i].left, arms_now)
        n_then = self._weapons(i, right, left, arms_then)
        now = self._best_attack(i, self.c[i].area, arms_now, n_now, False)
        then = self._best_attack(i, self.c[i].area, arms_then, n_then, False)
        value = then - now - 0.2
        if n_then > 0 and n_now == 0:
            value += 2.0
        if self._kit(i, right, left) >= 0 and self._kit(i, self.c[i].right, self.c[i].left) < 0:
            best = 0.0
            for t in range(self.nc):
                if (self.c[t].side == self.c[i].side and self.c[t].area == self.c[i].area
                        and self._slashes(t) and not _dead(&self.c[t].body)):
                    g = self._aid_gain_of(t, self.c[i].body.level)
                    if not any_needy or g > best:
                        best = g
                    any_needy = True
            if any_needy:
                value += 0.5 * best
        return value

    cdef inline int _slashes(self, int t) noexcept nogil:
        cdef int k, n = 0
        for k in range(6):
            n += self.c[t].body.slash[k]
        return n

    cdef int _exit_distance(self, int area) noexcept nogil:
        """policy._exit_distance."""
        cdef int k, d, best = -1
        for k in range(self.nexits):
            d = self.look_dist[area * self.nA + self.exits[k]]
            if d >= 0 and (best < 0 or d < best):
                best = d
        return best if best >= 0 else 0

    cdef double _action_value(self, int k) noexcept nogil:
        """policy.rank_actions for option ``k``: _fleeing, then _one."""
        cdef int kind = self.opt_kind[k], i = self.opt_u[k], m
        if kind != A_END and self._breaking(i):            # _fleeing
            if kind == A_RETREAT:
                return 100.0
            if kind == A_MOVE and self.nexits:
                return 10.0 * (self._exit_distance(self.c[i].area)
                               - self._exit_distance(self.mto[self.opt_a[k]]))
            return -5.0
        if kind == A_OPERATE:                              # policy._operate_value
            for m in range(self.nobj):
                if self.ob_use[m] == self.opt_a[k] and self.ob_side[m] == self.c[i].side:
                    if not (self.used[self.opt_a[k]] >> self.c[i].side) & 1:
                        return 100.0
                    break
            return -0.5
        if kind == A_ATTACK:
            return self._attack_value(i, self.opt_a[k], self.opt_b[k])
        if kind == A_MOVE:
            m = self.opt_a[k]
            return (self._position(i, self.mto[m]) - self._position(i, self.c[i].area)
                    - self._move_risk(i, m))
        if kind == A_AID:
            if self.c[self.opt_a[k]].side != self.c[i].side:
                return -1.0
            return self._aid_gain_of(self.opt_a[k], self.c[i].body.level) - 0.2
        if kind == A_ARRANGE:
            return self._arrange_value(i, self.opt_a[k], self.opt_b[k])
        if kind == A_DOOR:
            return -0.3
        if kind == A_RETREAT:
            return -2.0
        if kind == A_DROP:
            return -1.0
        return 0.0

    # -- legal actions (legal.legal_actions) ----------------------------------------------------

    cdef inline void _opt(self, int *n, int kind, int u, int a, int b) noexcept nogil:
        if n[0] >= self.opt_cap:  # the list is full: _legal leaves the battle to the reference
            self.opt_full = True
            return
        self.opt_kind[n[0]] = kind
        self.opt_u[n[0]] = u
        self.opt_a[n[0]] = a
        self.opt_b[n[0]] = b
        n[0] += 1

    cdef int _legal(self, int side) except -1:
        """legal.legal_actions of ``side``'s turn, in the reference's order."""
        cdef int n = 0, i, k, t, m, narms, npool, nones, ntwos, r, l, ri, li, area, item
        cdef int arms[2]
        cdef int pool[MAXPOOL]
        cdef int ones[MAXPOOL]
        cdef int twos[MAXPOOL]
        cdef bint right_ok, left_ok, found
        self.opt_full = False
        for i in range(self.nc):
            if self.c[i].side != side or not self._in_fight(i):
                continue
            if self.c[i].actions <= 0:  # dropping items in hand takes no action
                self._drops(&n, i)
                if self.opt_full:
                    break
                continue
            area = self.c[i].area
            self._read(19)             # legal.arrangements: its key
            # attacks
            narms = self._weapons(i, self.c[i].right, self.c[i].left, arms)
            for k in range(narms):
                for t in range(self.nc):
                    if self.c[t].side == side or not self._attackable(t):
                        continue
                    if self._reach(area, arms[k], self.c[t].area):
                        self._opt(&n, A_ATTACK, i, arms[k], t)
            # moves
            if self._can_move(i):
                for m in range(self.mstart[area], self.mstart[area] + self.mlen[area]):
                    self._opt(&n, A_MOVE, i, m, -1)
            # first aid
            if self._kit(i, self.c[i].right, self.c[i].left) >= 0:
                for t in range(self.nc):
                    if (self.c[t].area == area and not _dead(&self.c[t].body)
                            and not self.c[t].retreated and self._slashes(t)):
                        self._opt(&n, A_AID, i, t, -1)
            # arrangements (legal._arrangements)
            npool = 0
            for k in range(self.c[i].nitems + self.fl_n[area]):
                item = self.c[i].items[k] if k < self.c[i].nitems else \
                    self.fl[area][k - self.c[i].nitems]
                found = False
                for t in range(npool):
                    if pool[t] == item:
                        found = True
                        break
                if not found:
                    if npool >= MAXPOOL:
                        self.fail_reason = (f"more than {MAXPOOL} items to arrange in one "
                                            "area")
                        return NOT_COVERED
                    pool[npool] = item
                    npool += 1
            nones = ntwos = 0
            for k in range(npool):
                if self.ihands[pool[k]] == 1:
                    ones[nones] = pool[k]
                    nones += 1
                elif self.ihands[pool[k]] == 2:
                    twos[ntwos] = pool[k]
                    ntwos += 1
            right_ok = self._hand_ok(i, 0)
            left_ok = self._hand_ok(i, 1)
            for ri in range((nones if right_ok else 0) + 1):
                r = -1 if ri == 0 else ones[ri - 1]
                for li in range((nones if left_ok else 0) + 1):
                    l = -1 if li == 0 else ones[li - 1]
                    if r < 0 or r != l:
                        self._arrangement(&n, i, r, l)
            if right_ok and left_ok:
                for k in range(ntwos):
                    self._arrangement(&n, i, twos[k], twos[k])
            # doors, fixtures of the area
            for k in range(self.dstart[area], self.dstart[area] + self.dlen[area]):
                self._opt(&n, A_DOOR, i, self.dother[k], self.ddoor[k])
            for k in range(self.nfix):
                if self.fix_area[k] == area:
                    self._opt(&n, A_OPERATE, i, self.fix_name[k], -1)
            if self.is_exit[area]:
                self._opt(&n, A_RETREAT, i, -1, -1)
            self._drops(&n, i)
            if self.opt_full:
                break
        self._opt(&n, A_END, -1, -1, -1)
        if self.opt_full:
            self.fail_reason = f"more than {self.opt_cap} legal actions in one turn"
            return NOT_COVERED
        return n

    cdef inline void _drops(self, int *n, int i) noexcept nogil:
        """legal.drops: each item in hand, once."""
        if self.c[i].right >= 0:
            self._opt(n, A_DROP, i, self.c[i].right, -1)
        if self.c[i].left >= 0 and self.c[i].left != self.c[i].right:
            self._opt(n, A_DROP, i, self.c[i].left, -1)

    cdef void _arrangement(self, int *n, int i, int r, int l) noexcept nogil:
        """One configuration of legal._arrangements, if it differs and fits the slots
        (UNH-19)."""
        cdef int carried = self.c[i].nitems, held = 0, k, j, item, used
        cdef bint mine
        if r == self.c[i].right and l == self.c[i].left:
            return
        for k in range(2):
            item = r if k == 0 else l
            if item < 0 or (k == 1 and l == r):
                continue
            held += 1
            mine = False
            for j in range(self.c[i].nitems):
                if self.c[i].items[j] == item:
                    mine = True
            if not mine:
                carried += 1
        if self.r19_all:                                       # ruling UNH-19
            used = carried
        else:
            used = carried - held
        if used <= 5:
            self._opt(n, A_ARRANGE, i, r, l)

    # -- choosing (tactica.engine.policies) -----------------------------------------------------------

    cdef int _choose_action(self, int side, int n) noexcept nogil:
        """GreedyPolicy.choose on rank_actions, or RandomPolicy.choose."""
        cdef int k
        if self.policies[side] == RANDOM:
            return self._integers(side, n)
        for k in range(n):
            self.values[k] = self._action_value(k)
        return self._greedy(side, self.values, n, self.top)

    # -- one attack (attack.attack_roll, _assign, attack_events) -------------------------------

    cdef int _attack_roll(self, Plan *p, Outcome *o) except -1:
        """attack.attack_roll and _assign (UNH-15 decides which roll comes first)."""
        cdef Char *a = &self.c[p.a]
        cdef Char *t = &self.c[p.t]
        cdef Wound w0, w1
        cdef int pick, side, assigner
        cdef bint by_attacker
        o.defended_rolled = False
        if p.defend and self.r15_reactor_first:                # ruling UNH-15
            if self._check(p.t, K_DEFEND, t.body.level, t.body.maxl, t.good & G_DEFEND, True,
                           1, p, NULL, &o.defence) == NOT_COVERED:
                return NOT_COVERED
            o.defended_rolled = True
            if self._check(p.a, p.kind, a.body.level, a.body.maxl, a.good & G_ATTACK, True, 0,
                           p, &o.defence, &o.attack) == NOT_COVERED:
                return NOT_COVERED
        else:
            if self._check(p.a, p.kind, a.body.level, a.body.maxl, a.good & G_ATTACK, True, 0,
                           p, NULL, &o.attack) == NOT_COVERED:
                return NOT_COVERED
            if p.defend:
                if self._check(p.t, K_DEFEND, t.body.level, t.body.maxl, t.good & G_DEFEND,
                               True, 1, p, &o.attack, &o.defence) == NOT_COVERED:
                    return NOT_COVERED
                o.defended_rolled = True
        if not o.attack.success:
            o.result = O_MISS
            return 0
        if o.defended_rolled and self._defence_wins(p, &o.attack, &o.defence):
            o.result = O_DEFENDED
            return 0
        o.result = O_HIT
        # attack.assignments: the tens die for damage (location from the units), or the units
        self._wound(&t.body, _location_of(o.attack.units), o.attack.tens, &w0)
        if o.attack.tens == o.attack.units:
            o.wound = w0
            return 0
        self._wound(&t.body, _location_of(o.attack.tens), o.attack.units, &w1)
        by_attacker = not (p.cover or p.shield)
        assigner = p.a if by_attacker else p.t
        side = self.c[assigner].side
        if self.policies[side] == RANDOM:
            pick = self._integers(side, 2)
        elif self.r6 == 2:
            self._greedy_decides()
            # ruling UNH-6 random: Dist.uniform(options).sample(generator): the readings
            # sorted (by damage first), one raw word's uniform_below(2): its top bit
            pick = <int>(tactica_pcg64_next64(self._generator(side)) >> 63)
            if w0.damage > w1.damage:
                pick = 1 - pick
        else:
            self._greedy_decides()
            pick = self._pick_reading(&w0, &w1, by_attacker)   # values.assignment_choice
        o.wound = w1 if pick else w0
        return 0

    cdef void _crit_events(self, int i, Result *r, int left) noexcept nogil:
        """attack.crit_events applied (ActionGained / ActionLost)."""
        if r.extra:
            self.c[i].actions += 1
        elif r.crit == CRIT_FAILURE:
            if left <= 0:
                self.c[i].owed += 1
            else:
                self.c[i].actions -= 1

    cdef int _apply_outcome(self, Plan *p, Outcome *o, int a_left, int t_left,
                            int area) except -1:
        """attack.attack_events applied (state.apply_event); ``area`` -1: items dropped wait
        for the mover's final place."""
        cdef int k, loc, item
        cdef Char *t = &self.c[p.t]
        if self.ikind[p.weapon] == RANGED and self.iammo[p.weapon]:
            self.c[p.a].fired[p.weapon] += 1
        self._crit_events(p.a, &o.attack, a_left)
        if o.defended_rolled:
            self._crit_events(p.t, &o.defence, t_left)
        if o.result != O_HIT:
            return 0
        # wound_events: Wounded, LevelLowered, LocationFilled (+ ItemDropped), ...
        t.taken += o.wound.damage
        if p.a != p.t:
            self.c[p.a].dealt += o.wound.damage
        t.body = o.wound.body
        self._new_body(p.t)
        for k in range(o.wound.nfilled):
            loc = o.wound.filled[k]
            if loc == RARM or loc == LARM:
                item = t.right if loc == RARM else t.left
                if item >= 0:
                    self._remove(p.t, item)
                    if area >= 0:
                        if self._drop_to_floor(area, item) == NOT_COVERED:
                            return NOT_COVERED
                    else:
                        self.pending_drop[self.npending] = item
                        self.npending += 1
        return 0

    cdef int _react_choice(self, int a, int t, int weapon, int *kinds, int *weapons,
                           int n) noexcept nogil:
        """policy._react."""
        cdef int k, best_i = 0, key = self.c[a].area * self.nA + self.c[t].area
        cdef double v, best = 0.0
        cdef Plan p, q
        cdef Estimate none, e
        if self._breaking(t):
            for k in range(n):
                if kinds[k] == R_SURRENDER:
                    return k
        self._plan(&p, a, t, weapon, K_ATTACK, max(0, self.look_dist[key]), self.look_cov[key],
                   False)
        self._plan_estimate(&p, &none)
        for k in range(n):
            if kinds[k] == R_NONE:
                v = -none.harm + self._later(t)
            elif kinds[k] == R_DEFEND:
                p.defend = True
                self._plan_estimate(&p, &e)
                p.defend = False
                v = -e.harm
            elif kinds[k] == R_COUNTER:
                self._plan(&q, t, a, weapons[k], K_COUNTER, 0, False, False)
                self._plan_estimate(&q, &e)
                v = -none.harm + e.harm
            else:
                v = (-none.harm + 1.0 if self._helpless(t) and none.p_ko > 0.25 else -1e9)
            if k == 0 or v > best:
                best = v
                best_i = k
        return best_i

    cdef int _attack(self, int a, int weapon, int t) except -1:
        """rules._resolve_attack and _attack_with."""
        cdef int n, k, side = self.c[t].side, key, a_left, t_left, dist
        cdef int kinds[8]
        cdef int weapons[8]
        cdef Plan p, q
        cdef Outcome o1, o2
        cdef bint reacting
        key = self.c[a].area * self.nA + self.c[t].area
        dist = max(0, self.look_dist[key])
        n = self._reactions(a, t, weapon, self.look_cov[key], kinds, weapons)
        k = 0
        if n > 1:
            if self.policies[side] == RANDOM:
                k = self._integers(side, n)
            else:
                self._greedy_decides()
                k = self._react_choice(a, t, weapon, kinds, weapons, n)
        if kinds[k] == R_SURRENDER:
            self.c[t].surrendered = True
            self.c[t].body.level = 0
            self._new_body(t)
            self.c[t].actions = 0
            return 0
        reacting = kinds[k] == R_DEFEND or kinds[k] == R_COUNTER
        a_left = self.c[a].actions - 1
        t_left = self.c[t].actions - (1 if reacting else 0)
        self._plan(&p, a, t, weapon, K_ATTACK, dist, self.look_cov[key], kinds[k] == R_DEFEND)
        if self._attack_roll(&p, &o1) == NOT_COVERED:
            return NOT_COVERED
        if kinds[k] == R_COUNTER:
            self._plan(&q, t, a, weapons[k], K_COUNTER, 0, False, False)
            if self._attack_roll(&q, &o2) == NOT_COVERED:
                return NOT_COVERED
        # ActionSpent, then the events of each outcome
        self.c[a].actions -= 1
        if reacting:
            self.c[t].actions -= 1
        if self._apply_outcome(&p, &o1, a_left, t_left, self.c[t].area) == NOT_COVERED:
            return NOT_COVERED
        if kinds[k] == R_COUNTER:
            if self._apply_outcome(&q, &o2, t_left, a_left, self.c[a].area) == NOT_COVERED:
                return NOT_COVERED
        return 0

    # -- a move and its interceptions (rules._resolve_move, _intercept) -------------------------

    cdef int _intercept_choice(self, int c, int mover, int m, int *weapons, int n) noexcept nogil:
        """policy._intercept over options none, weapons[1..n-1]."""
        cdef double best = self._later(c), v
        cdef int best_i = 0, k
        cdef Plan p
        cdef Estimate e
        for k in range(1, n):
            if not self._reach_move(self.c[c].area, weapons[k], m):
                continue
            self._plan(&p, c, mover, weapons[k], K_INTERCEPT,
                       max(0, self.mlook_dist[self.c[c].area * self.nM + m]), False, False)
            self._plan_estimate(&p, &e)
            v = e.harm + 0.5
            if v > best:
                best = v
                best_i = k
        return best_i

    cdef int _stop_choice(self, int side, int start, int to) noexcept nogil:
        """policy._stop: the place with the most exposure to ``side``, the start on a tie."""
        cdef int e0 = self._exposure(side, start), e1 = self._exposure(side, to)
        return 1 if e1 > e0 else 0

    cdef int _exposure(self, int side, int area) noexcept nogil:
        cdef int n = 0, i, k, m
        cdef int arms[2]
        for i in range(self.nc):
            if self.c[i].side != side or not self._in_fight(i):
                continue
            m = self._weapons(i, self.c[i].right, self.c[i].left, arms)
            for k in range(m):
                if self._reach(self.c[i].area, arms[k], area):
                    n += 1
        return n

    cdef int _move(self, int mv, int m) except -1:
        cdef int start = self.c[mv].area, to = self.mto[m], i, k, n, side, choice
        cdef int declared[MAXC]
        cdef int dweapon[MAXC]
        cdef int left_before[MAXC]
        cdef int nd = 0, narms, stop_at = -1, c, dist, key
        cdef int weapons[4]
        cdef int arms[2]
        cdef bint stops, cover
        cdef Plan p
        cdef Outcome o
        # interceptions: candidates in scenario order, each declares (legal.interceptions)
        for c in range(self.nc):
            if not self._in_fight(c) or self.c[c].side == self.c[mv].side \
                    or self.c[c].actions <= 0:
                continue
            narms = self._weapons(c, self.c[c].right, self.c[c].left, arms)
            n = 1
            for k in range(narms):
                if self._reach_move(self.c[c].area, arms[k], m):
                    weapons[n] = arms[k]
                    n += 1
            if n == 1:
                continue
            side = self.c[c].side
            if self.policies[side] == RANDOM:
                choice = self._integers(side, n)
            else:
                self._greedy_decides()
                choice = self._intercept_choice(c, mv, m, weapons, n)
            if choice > 0:
                declared[nd] = c
                dweapon[nd] = weapons[choice]
                nd += 1
        if nd:
            self._first_interception_reads(mv, m, declared, dweapon, nd)
            self._read(24)
        if nd and self.r24_yes and self._in_fight(mv):         # ruling UNH-24
            side = self.c[mv].side
            if self.policies[side] == RANDOM:
                choice = self._integers(side, 2)
            else:
                self._greedy_decides()
                choice = 1 if self._breaking(mv) else 0
            if choice:
                self.c[mv].surrendered = True
                self.c[mv].body.level = 0
                self._new_body(mv)
                self.c[mv].actions = 0
                return 0
        for k in range(nd):
            left_before[k] = self.c[declared[k]].actions
            self.fired_now[k] = False
        self.c[mv].actions -= 1
        for k in range(nd):
            self.c[declared[k]].actions -= 1
        self.npending = 0
        for k in range(nd):
            c = declared[k]
            if _unconscious(&self.c[mv].body):
                self._read(21)         # rules._intercept: out_of_fight, before the look
            if stop_at >= 0:
                key = self.c[c].area * self.nA + stop_at
                if not self._reaches(dweapon[k], self.look_dist[key], self.look_vis[key]):
                    continue
                dist = self.look_dist[key]
                cover = self.look_cov[key]
            else:
                key = self.c[c].area * self.nM + m
                if not self._reaches(dweapon[k], self.mlook_dist[key], self.mlook_vis[key]):
                    continue
                dist = self.mlook_dist[key]
                cover = False
            if _unconscious(&self.c[mv].body) and not self.r21_yes:    # ruling UNH-21
                continue
            if stop_at >= 0:
                self._read(16)
            if stop_at >= 0 and self.r16_wasted:                       # ruling UNH-16
                continue
            self._plan(&p, c, mv, dweapon[k], K_INTERCEPT, dist, cover, False)
            self.fired_now[k] = self.ikind[dweapon[k]] == RANGED and self.iammo[dweapon[k]]
            if self._attack_roll(&p, &o) == NOT_COVERED:
                return NOT_COVERED
            if self._apply_outcome(&p, &o, left_before[k] - 1, 0, -1) == NOT_COVERED:
                return NOT_COVERED
            if o.result == O_HIT and not (o.wound.knocked_out or self._leg_filled(&o.wound)):
                self._read(17)
            stops = o.result == O_HIT and (
                (o.wound.knocked_out or self._leg_filled(&o.wound)) or self.r17_any_hit)  # UNH-17
            if stop_at >= 0 or not stops:
                continue
            side = self.c[c].side
            if self.policies[side] == RANDOM:
                choice = self._integers(side, 2)
            else:
                self._greedy_decides()
                # policy._stop sees the state before the interceptions' events (they are
                # emitted with the end of the move): the shots fired are not counted yet
                self._unfire(declared, dweapon, k + 1, -1)
                choice = self._stop_choice(side, start, to)
                self._unfire(declared, dweapon, k + 1, 1)
            stop_at = to if choice else start
        for k in range(self.npending):
            if self._drop_to_floor(stop_at if stop_at >= 0 else to,
                                   self.pending_drop[k]) == NOT_COVERED:
                return NOT_COVERED
        if stop_at >= 0:
            self.c[mv].area = stop_at
        else:
            self.c[mv].area = to
            self.c[mv].moves += 1
        return 0

    cdef void _first_interception_reads(self, int mv, int m, int *declared, int *dweapon,
                                        int nd) noexcept nogil:
        """The reads of rules._intercept's first call, made as the move's process is built
        (before the mover may surrender, UNH-24): up to the first interception rolled."""
        cdef int k, key
        for k in range(nd):
            if _unconscious(&self.c[mv].body):
                self._read(21)
            key = self.c[declared[k]].area * self.nM + m
            if not self._reaches(dweapon[k], self.mlook_dist[key], self.mlook_vis[key]):
                continue
            if _unconscious(&self.c[mv].body) and not self.r21_yes:
                continue
            self.consulted |= self.rbit[14] | self.rbit[15] | self.rbit[25]   # attack_plan
            return

    cdef void _unfire(self, int *declared, int *weapons, int n, int sign) noexcept nogil:
        """Take back (``sign`` -1) or count again (+1) the shots of the first ``n`` declared
        interceptions that were rolled (an interception skipped fired nothing: see _move)."""
        cdef int k
        for k in range(n):
            if self.fired_now[k]:
                self.c[declared[k]].fired[weapons[k]] += sign

    cdef inline bint _leg_filled(self, Wound *w) noexcept nogil:
        cdef int k
        for k in range(w.nfilled):
            if w.filled[k] == RLEG or w.filled[k] == LLEG:
                return True
        return False

    # -- rounds and initiative (rules.round_process) -------------------------------------------

    cdef int _standing(self, int *sides) noexcept nogil:
        cdef int n = 0, s, i
        for s in range(self.nsides):
            for i in range(self.nc):
                if self.c[i].side == s and self._in_fight(i):
                    sides[n] = s
                    n += 1
                    break
        return n

    cdef int _round(self) except -1:
        """rules.round_process for two teams: actions, the initiative rolls, the order."""
        cdef int ns, holder, k, s, i, best, ntop, first, idx, winner, side
        cdef int sides[8]
        cdef int rollers[8]
        cdef int left[MAXC]
        cdef int tops[MAXC]
        cdef int order[8]
        cdef Result res[8]
        cdef Result beat
        cdef bint any_good = False, found
        ns = self._standing(sides)
        # first_holder
        holder = -1
        for k in range(ns):
            if sides[k] == self.holder:
                holder = self.holder
        if holder < 0:
            for k in range(ns):
                if self.side_pc[sides[k]]:
                    holder = sides[k]
                    break
        if holder < 0:
            holder = sides[0]
        # _pick_rollers: each team's highest level; the team picks among equals
        for k in range(ns):
            best = -1
            for i in range(self.nc):
                if self.c[i].side == sides[k] and self._in_fight(i) and self.c[i].body.level > best:
                    best = self.c[i].body.level
            ntop = 0
            for i in range(self.nc):
                if (self.c[i].side == sides[k] and self._in_fight(i)
                        and self.c[i].body.level == best):
                    tops[ntop] = i
                    ntop += 1
            idx = 0
            if ntop > 1:
                if self.policies[sides[k]] == RANDOM:
                    idx = self._integers(sides[k], ntop)
                else:
                    self._greedy_decides()
                    for i in range(ntop):
                        if self.c[tops[i]].good & G_INITIATIVE:
                            idx = i
                            break
            rollers[k] = tops[idx]
            if self.c[rollers[k]].good & G_INITIATIVE:
                any_good = True
        # _roll_order: the holder picks which team rolls first
        first = sides[0]
        if any_good:
            if self.policies[holder] == RANDOM:
                first = sides[self._integers(holder, ns)]
            else:
                self._greedy_decides()
                found = False
                for i in range(self.nc):
                    if self.c[i].side == holder and self._in_fight(i) \
                            and self.c[i].good & G_INITIATIVE:
                        found = True
                first = holder
                if found:
                    for k in range(ns):
                        if sides[k] != holder:
                            first = sides[k]
                            break
        k = 0
        for i in range(ns):
            if sides[i] == first:
                order[k] = i
                k += 1
        for i in range(ns):
            if sides[i] != first:
                order[k] = i
                k += 1
        # _roll_each
        for k in range(ns):
            idx = order[k]
            i = rollers[idx]
            best = 0
            for s in range(k):
                if res[order[s]].success and _number(res[order[s]].tens,
                                                     res[order[s]].units) > best:
                    best = _number(res[order[s]].tens, res[order[s]].units)
            beat.tens = best
            self._check(i, K_INITIATIVE, self.c[i].body.level, self.c[i].body.maxl,
                        self.c[i].good & G_INITIATIVE, False, 2, NULL, &beat, &res[idx])
        # RoundStarted
        self.broken = 0
        self.round += 1
        self.norder = 0
        self.turn = 0
        for i in range(self.nc):
            left[i] = 0
            if self._in_fight(i):
                left[i] = 1 - self.c[i].owed if self.c[i].owed < 1 else 0
                self.c[i].owed = self.c[i].owed - 1 if self.c[i].owed > 1 else 0
            else:
                self.c[i].owed = 0
            self.c[i].actions = left[i]
        for k in range(ns):
            i = rollers[k]
            # InitiativeRolled: a critical failure breaks the team's wounded NPCs (UNH-27):
            # hit before the roll (taken > 0, state.Character.hurt), or under wounded-now
            # marked at the roll
            if res[k].crit == CRIT_FAILURE and not self.side_pc[sides[k]]:
                for s in range(self.nc):
                    if self.c[s].side == sides[k] and self._in_fight(s) \
                            and (_wounded(&self.c[s].body)
                                 or (self.c[s].taken > 0 and not self.r27_now)):
                        self.broken |= (<uint64_t>1) << s
            self._crit_events(i, &res[k], left[i])
        winner = self._initiative_winner(sides, ns, res, holder)
        self.holder = winner
        self.norder = ns
        self.turn = 0
        if ns > 2:
            self._read(20)
        if ns > 2 and self.r20_by_roll:                    # ruling UNH-20 by-roll
            self._by_roll(sides, ns, res, winner)
            return 0
        # Decide the order of the teams: the permutations with the winner first, then the
        # others (itertools.permutations' order); greedy takes the first
        side = 0
        if self.policies[winner] == RANDOM:
            side = self._integers(winner, _factorial(ns))
        else:
            self._greedy_decides()
        self._nth_order(sides, ns, winner, side)
        return 0

    cdef void _by_roll(self, int *sides, int ns, Result *res, int winner) noexcept nogil:
        """rules._by_roll: the winner, then successes from the highest, then failures; PCs
        first among equals, then the order listed."""
        cdef int k, j, tmp
        cdef int idx[8]
        for k in range(ns):
            idx[k] = k
        for k in range(1, ns):
            j = k
            while j > 0 and self._roll_key_less(sides, res, winner, idx[j], idx[j - 1]):
                tmp = idx[j]
                idx[j] = idx[j - 1]
                idx[j - 1] = tmp
                j -= 1
        for k in range(ns):
            self.order[k] = sides[idx[k]]

    cdef bint _roll_key_less(self, int *sides, Result *res, int winner, int a,
                             int b) noexcept nogil:
        cdef int ka[4]
        cdef int kb[4]
        cdef int k
        ka[0] = 0 if sides[a] == winner else 1
        kb[0] = 0 if sides[b] == winner else 1
        ka[1] = -_number(res[a].tens, res[a].units) if res[a].success else 1
        kb[1] = -_number(res[b].tens, res[b].units) if res[b].success else 1
        ka[2] = 0 if self.side_pc[sides[a]] else 1
        kb[2] = 0 if self.side_pc[sides[b]] else 1
        ka[3] = a
        kb[3] = b
        for k in range(4):
            if ka[k] != kb[k]:
                return ka[k] < kb[k]
        return False

    cdef void _nth_order(self, int *sides, int ns, int winner, int n) noexcept nogil:
        """Option ``n`` of the team-order decision of rules.round_process."""
        cdef int block = _factorial(ns - 1), k, g, first = -1, m = 0
        cdef int rest[8]
        if n < block:
            first = winner
        else:
            n -= block
            g = n // block
            n = n % block
            for k in range(ns):
                if sides[k] != winner:
                    if g == 0:
                        first = sides[k]
                        break
                    g -= 1
        for k in range(ns):
            if sides[k] != first:
                rest[m] = sides[k]
                m += 1
        self.order[0] = first
        _nth_permutation(rest, m, n, &self.order[1])

    cdef int _initiative_winner(self, int *sides, int ns, Result *res,
                                int holder) noexcept nogil:
        """rules.initiative_winner (UNH-3, dice.opposed_winner)."""
        cdef int best = -1, k, ntop = 0, n, nn = 0
        cdef int top[8]
        cdef int npc[8]
        self._read(3)
        for k in range(ns):
            if res[k].success:
                n = _number(res[k].tens, res[k].units)
                if n > best:
                    best = n
        if best < 0:
            return holder
        for k in range(ns):
            if res[k].success and _number(res[k].tens, res[k].units) == best:
                top[ntop] = k
                ntop += 1
        if self.r3_pcs_win_equal:                          # ruling UNH-3
            for k in range(ntop):
                if self.side_pc[sides[top[k]]]:
                    npc[nn] = top[k]
                    nn += 1
            if nn and nn < ntop:
                for k in range(nn):
                    top[k] = npc[k]
                ntop = nn
        if ntop == 1:
            return sides[top[0]]
        for k in range(ntop):
            if sides[top[k]] == holder:
                return holder
        nn = 0
        for k in range(ntop):
            if self.side_pc[sides[top[k]]]:
                npc[nn] = sides[top[k]]
                nn += 1
        if nn and nn < ntop:
            return npc[0]
        return sides[top[0]]

    # -- the battle (sim.play._run, rules.pending) ----------------------------------------------

    def hold(self, str buffer, int most):
        """Let ``buffer`` ("actions": the legal actions of one turn) hold at most ``most``
        entries (1 to its LIMITS size), for the tests that show the list is checked before
        every write: a turn with more leaves its battle to the reference, naming the number."""
        if buffer != "actions" or not 1 <= most <= MAXOPT:
            raise ValueError(f"{buffer}: between 1 and {MAXOPT} legal actions")
        self.opt_cap = most

    cdef object _consulted(self, object played):
        """play_consulted's answer: ``(played, mask)`` with the rulings the battle consulted
        (as the reference records them from its setup to its statistics), or a string."""
        if isinstance(played, str):
            return played
        if self._last_reads() == NOT_COVERED:
            return self.fail_reason
        return played, self.consulted

    cdef int _last_reads(self) except -1:
        """The reads of the reference after the last step: the next step's pending (a
        battle stopped at the step budget: its legal actions, or the end of combat), then
        stats.battle_stats' legal.units (can_be_attacked of every character)."""
        cdef int fin, side, i
        if not self.ended:
            fin = self._finished()
            side = self.order[self.turn] if self.turn < self.norder else -1
            if fin == -2 and side < 0 and self.round >= self.max_rounds:
                fin = -1
            if fin != -2:
                self._read(26)
            elif side >= 0:
                for i in range(self.nc):
                    if self.c[i].side == side and self._in_fight(i) and self.c[i].actions > 0:
                        if self._legal(side) == NOT_COVERED:
                            return NOT_COVERED
                        break
        for i in range(self.nc):
            self._attackable(i)
        return 0

    cdef int _finished(self) noexcept nogil:
        """rules.finished: the winner (>= 0), -1 for no one, -2 while the fight goes on."""
        cdef int sides[8]
        cdef int n, k, i, there
        for k in range(self.nobj):
            if self.ob_use[k] >= 0:
                if (self.used[self.ob_use[k]] >> self.ob_side[k]) & 1:
                    return self.ob_side[k]
                continue
            there = 0
            for i in range(self.nc):
                if (self.c[i].side == self.ob_side[k] and self._in_fight(i)
                        and self.c[i].area == self.ob_reach[k]):
                    there += 1
            if there >= self.ob_count[k]:
                return self.ob_side[k]
        n = self._standing(sides)
        if n == 1:
            return sides[0]
        if n == 0:
            return -1
        return -2

    cdef object _play(self, tuple policies, bytes prefix, object seed, object index,
                      int64_t max_steps):
        """Battle ``index`` of ``seed`` (KernelRuntime.play): (winner side or -1, finished,
        rounds, steps, per character (survived, dealt, taken, moves, level, marks, filled)),
        or a string saying what the kernel does not play."""
        cdef int i, k, n, steps = 0, side, fin, kind
        if len(prefix) > 64:
            raise ValueError("key prefix too long")
        memcpy(self.key, <const uint8_t *>prefix, len(prefix))
        self.prefix_len = len(prefix)
        if not self._new_battle(seed, index):
            raise ValueError("seed or index beyond 64 bits")
        for i in range(self.nsides):
            self.policies[i] = policies[i]
        for i in range(self.nc):
            self.c[i] = self.init[i]
            self._new_body(i)
        for i in range(self.nc * self.nc * NKIND * NVAR):
            self.counts[i] = 0
        for i in range(self.nA):
            self.fl_n[i] = 0
        for i in range(MAXFIX):
            self.used[i] = 0
        self._use_view(self.view_init)
        self.round = 0
        self.norder = 0
        self.turn = 0
        self.holder = -1
        self.broken = 0
        self.ended = 0
        self.winner = -1
        self.fail_reason = None
        self.consulted = self.setup_consulted
        for _ in range(max_steps):
            if self.ended:
                break
            steps += 1
            fin = self._finished()
            side = self.order[self.turn] if self.turn < self.norder else -1
            if fin == -2 and side < 0 and self.round >= self.max_rounds:
                fin = -1
            if fin != -2:                      # end of combat
                self._read(26)                 # rules.end_of_combat, built by pending
                self.ended = 1
                self.winner = fin
                continue
            if side < 0:
                self.step_actor = -1
                if self._round() == NOT_COVERED:
                    return self.fail_reason
                continue
            n = 0
            for i in range(self.nc):
                if self.c[i].side == side and self._in_fight(i) and self.c[i].actions > 0:
                    n = 1
                    break
            if not n:                          # end of the side's turn
                self.turn += 1
                continue
            n = self._legal(side)
            if n == NOT_COVERED:
                return self.fail_reason
            k = self._choose_action(side, n)
            if self.trace is not None:
                self.trace.append((self.opt_kind[k], self.opt_u[k], self.opt_a[k],
                                   self.opt_b[k], [self.values[j] for j in range(n)]
                                   if self.policies[side] == GREEDY else None))
            kind = self.opt_kind[k]
            i = self.opt_u[k]
            self.step_actor = i
            if kind == A_END:
                self.turn += 1
            elif kind == A_ATTACK:
                if self._attack(i, self.opt_a[k], self.opt_b[k]) == NOT_COVERED:
                    return self.fail_reason
            elif kind == A_MOVE:
                if self._move(i, self.opt_a[k]) == NOT_COVERED:
                    return self.fail_reason
            elif kind == A_AID:
                if self._first_aid(i, self.opt_a[k]) == NOT_COVERED:
                    return self.fail_reason
            elif kind == A_ARRANGE:
                if self._arrange(i, self.opt_a[k], self.opt_b[k]) == NOT_COVERED:
                    return self.fail_reason
            elif kind == A_RETREAT:
                self.c[i].actions = 0
                self.c[i].retreated = True
            elif kind == A_DOOR:                       # ActionSpent, DoorChanged
                self.c[i].actions -= 1
                self._use_view(self.view ^ (1 << self.opt_b[k]))
            elif kind == A_OPERATE:                    # ActionSpent, FixtureUsed
                self.c[i].actions -= 1
                self.used[self.opt_a[k]] |= 1 << self.c[i].side
            elif kind == A_DROP:
                self._remove(i, self.opt_a[k])
                if self._drop_to_floor(self.c[i].area, self.opt_a[k]) == NOT_COVERED:
                    return self.fail_reason
        units = []
        for i in range(self.nc):
            units.append((self._in_fight(i) or self.c[i].retreated, self.c[i].dealt,
                          self.c[i].taken, self.c[i].moves, self.c[i].body.level,
                          tuple((self.c[i].body.slash[k], self.c[i].body.x[k],
                                 self.c[i].body.perm[k]) for k in range(6)),
                          _dead(&self.c[i].body)))
        return (self.winner if self.ended else -1), bool(self.ended), self.round, steps, units

    cdef int _arrange(self, int i, int r, int l) except -1:
        """Arrange: ActionSpent, ItemsArranged (picked up from the floor)."""
        cdef int area = self.c[i].area, k, j, item
        cdef bint mine
        self.c[i].actions -= 1
        for k in range(2):
            item = r if k == 0 else l
            if item < 0 or (k == 1 and l == r):
                continue
            mine = False
            for j in range(self.c[i].nitems):
                if self.c[i].items[j] == item:
                    mine = True
            if mine:
                continue
            for j in range(self.fl_n[area]):
                if self.fl[area][j] == item:
                    break
            for j in range(j, self.fl_n[area] - 1):
                self.fl[area][j] = self.fl[area][j + 1]
            self.fl_n[area] -= 1
            if self.c[i].nitems >= MAXCARRY:
                self.fail_reason = f"a character carrying more than {MAXCARRY} items"
                return NOT_COVERED
            self.c[i].items[self.c[i].nitems] = item
            self.c[i].nitems += 1
        self.c[i].right = r
        self.c[i].left = l
        return 0

    # -- first aid (aid.first_aid_process) ------------------------------------------------------

    cdef int _fills(self, int *counts, int total, int most) noexcept nogil:
        """aid._fills into ``self.ways``: every maximal way to take ``total`` from ``counts``
        over at most ``most`` locations, in the reference's order; returns how many."""
        cdef int places[6]
        cdef int take[6]
        cdef int np = 0, loc
        for loc in range(6):
            take[loc] = 0
            if counts[loc] > 0:
                places[np] = loc
                np += 1
        if total <= 0 or np == 0:
            for loc in range(6):
                self.ways[0][loc] = 0
            return 1
        if most > np:
            most = np
        return self._grow(counts, places, np, most, 0, 0, total, take, 0)

    cdef int _grow(self, int *counts, int *places, int np, int most, int start, int used,
                   int left, int *take, int n) noexcept nogil:
        """aid._fills' grow: the ways extending ``take`` (``used`` locations, ``left`` still
        to take) from place ``start`` on, appended from way ``n``; returns the new count.
        At most 7,378 ways (every X mark of a body with full boxes, up to 10 of them:
        aid.hardenings under UNH-22 any-up-to-n), within MAXWAYS."""
        cdef int k, loc, m
        cdef bint full = used == most
        if full:
            for loc in range(6):
                if take[loc] and take[loc] != counts[loc]:
                    full = False
                    break
        if left == 0 or full:
            if n < MAXWAYS:
                for loc in range(6):
                    self.ways[n][loc] = take[loc]
                n += 1
            return n
        if used == most:
            return n
        for k in range(start, np):
            loc = places[k]
            m = left if left < counts[loc] else counts[loc]
            while m > 0:
                take[loc] = m
                n = self._grow(counts, places, np, most, k + 1, used + 1, left - m, take, n)
                m -= 1
            take[loc] = 0
        return n

    cdef int _aid_plans(self, Body *body, int t, int u) noexcept nogil:
        """aid.first_aid_plans into ``self.plans``: the ways of either die for the boxes."""
        cdef int n = 0, k, j, loc, w, boxes, extra, pass_, first = 0
        cdef bint dup
        for pass_ in range(2):
            if pass_ == 1 and t == u:
                break                  # the same reading: the same ways
            boxes = t if pass_ == 0 else u
            extra = u if pass_ == 0 else t
            w = self._fills(body.slash, boxes, extra + 1)
            for k in range(w):
                dup = False
                for j in range(first):    # the ways of one reading are distinct
                    dup = True
                    for loc in range(6):
                        if self.plans[j][loc] != self.ways[k][loc]:
                            dup = False
                            break
                    if dup:
                        break
                if not dup:
                    for loc in range(6):
                        self.plans[n][loc] = self.ways[k][loc]
                    n += 1
            first = n
        return n

    cdef double _treated_score(self, Body *body, int *erase) noexcept nogil:
        """body_score(treat(body, erase))."""
        cdef Body b = body[0]
        cdef int loc
        for loc in range(6):
            b.x[loc] += b.slash[loc] - erase[loc]
            b.slash[loc] = 0
        return _body_score(&b)

    cdef double _aid_best(self, int t, int u) noexcept nogil:
        """policy._aid_best of the patient's body."""
        cdef int n = self._aid_plans(&self.aid_body, t, u), k
        cdef double best = 0.0, v
        for k in range(n):
            v = self._treated_score(&self.aid_body, self.plans[k])
            if k == 0 or v > best:
                best = v
        return best

    cdef int _aid_number(self, int limit) noexcept nogil:
        """policy._aid_number: the number to set a first aid roll to (highest among equals)."""
        cdef int n, best_n = 1
        cdef double best = 0.0, v
        for n in range(1, limit + 1):
            v = self._aid_best(0 if n == 100 else n // 10, 0 if n == 100 else n % 10)
            if n == 1 or v >= best:
                best = v
                best_n = n
        return best_n

    cdef int _first_aid(self, int i, int t) except -1:
        """aid.first_aid_process."""
        cdef int kit = self._kit(i, self.c[i].right, self.c[i].left), left, n, k, loc, side
        cdef int nx, chooser
        cdef int erase[6]
        cdef Result r
        cdef Body failed
        cdef double v, best, sign
        self.aid_body = self.c[t].body
        left = self.c[i].actions - 1
        self.c[i].actions -= 1
        if self._check(i, K_AID, self.c[i].body.level, self.c[i].body.maxl,
                       self.c[i].good & G_AID, True, 3, NULL, NULL, &r) == NOT_COVERED:
            return NOT_COVERED
        self._crit_events(i, &r, left)
        side = self.c[i].side
        if r.success:
            n = self._aid_plans(&self.aid_body, r.tens, r.units)
            k = 0
            if n > 1:
                if self.policies[side] == RANDOM:
                    k = self._integers(side, n)
                else:
                    self._greedy_decides()
                    for loc in range(n):
                        v = self._treated_score(&self.aid_body, self.plans[loc])
                        if loc == 0 or v > best:
                            best = v
                            k = loc
            failed = self.aid_body
            for loc in range(6):
                failed.x[loc] += failed.slash[loc] - self.plans[k][loc]
                failed.slash[loc] = 0
            self.c[t].body = failed
            self._new_body(t)
            return 0
        failed = self.aid_body
        for loc in range(6):
            failed.x[loc] += failed.slash[loc]
            failed.slash[loc] = 0
        if r.crit == CRIT_FAILURE:
            self.consulted |= self.rbit[22] | self.rbit[23]
            nx = 10 if _number(r.tens, r.units) == 100 else r.tens
            n = self._hardenings(&failed, nx)
            k = 0
            if n > 1:
                chooser = t if self.aid_rule23 else i              # ruling UNH-23
                side = self.c[chooser].side
                if self.policies[side] == RANDOM:
                    k = self._integers(side, n)
                else:
                    self._greedy_decides()
                    sign = 1.0 if self.c[t].side == side else -1.0
                    for loc in range(n):
                        v = sign * self._hardened_score(&failed, self.plans[loc])
                        if loc == 0 or v > best:
                            best = v
                            k = loc
            for loc in range(6):
                failed.x[loc] -= self.plans[k][loc]
                failed.perm[loc] += self.plans[k][loc]
        self.c[t].body = failed
        self._new_body(t)
        self._remove(i, kit)                                      # KitUsedUp
        return 0

    cdef double _hardened_score(self, Body *body, int *marks) noexcept nogil:
        cdef Body b = body[0]
        cdef int loc
        for loc in range(6):
            b.x[loc] -= marks[loc]
            b.perm[loc] += marks[loc]
        return _body_score(&b)

    cdef int _hardenings(self, Body *body, int n) noexcept nogil:
        """aid.hardenings into ``self.plans`` (UNH-22)."""
        cdef int total = 0, k, w, j, loc, m = 0, most
        cdef bint dup
        if not self.aid_rule22:                                    # ruling UNH-22
            w = self._fills(body.x, n, 6)
            for k in range(w):
                for loc in range(6):
                    self.plans[k][loc] = self.ways[k][loc]
            return w
        for loc in range(6):
            total += body.x[loc]
        most = n if n < total else total
        for j in range(most + 1):
            w = self._fills(body.x, j, 6)
            for k in range(w):
                dup = False
                for total in range(m):
                    dup = True
                    for loc in range(6):
                        if self.plans[total][loc] != self.ways[k][loc]:
                            dup = False
                            break
                    if dup:
                        break
                if not dup and m < MAXWAYS:
                    for loc in range(6):
                        self.plans[m][loc] = self.ways[k][loc]
                    m += 1
        return m

    # -- a battle from its start with scripted choices and dice (testing.both) -----------------

    cdef object _scripted(self):
        return ScriptedKernel(self.tables)


cdef class ScriptedKernel(Kernel):
    """The kernel with scripted choices (each side plays "random", its generator replaced by
    the script) and scripted rolls (kernel_draws.pxi's _ScriptedDice): Kernel.run_scripted."""
    cdef _ScriptedDice scripted

    cdef int _roll(self, int roller, int kind, int var, uint64_t total) except -1:
        cdef bytes label = self.label_slots[(roller * NKIND + kind) * NVAR + var]
        before = len(self.scripted.rolls)
        self.scripted.take(label, 0, list(range(total)), [1] * total)
        if len(self.scripted.rolls) == before:  # not answered: the error says why
            return 0
        return self.scripted.rolls[before][4]

    def run_script(self, list choices, list outcomes, int64_t max_steps):
        self.scripted = _ScriptedDice(outcomes, True)
        return self._run_script(self.scripted, choices,
                                tuple(RANDOM for _ in range(self.nsides)), max_steps)
