# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled simulation kernel of Arc: the reference's battle on plain data.

The reference is the Python rules (``flow.py``, ``actions.py``, ``attack.py``, ``armor.py``,
``movement.py``, ``steps.py``, ``state.py``), the policy of ``policy.py``, the policies of
``tactica.engine.policies`` and the keyed dice of ``tactica.engine.streams``; every method here names the
function it mirrors. ``kernel.py`` builds the tables (every distribution a roll draws from, the
sight geometry of the grid, the content) from the reference's own functions. The greedy
policy's attack values come from the reference's exact odds (``policy._hits``,
``policy._summary``), computed once per distinct attack and kept in a table. The dice are
BLAKE2b words of the same keys as the reference's (the roll labels are written here byte for
byte), drawn natively, as are the policies' numpy generators (``kernel_draws.pxi``).

A battle that reaches something the kernel does not play raises :class:`Uncovered`; the
reference then plays that battle from the start.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from tactica.rulesets.arc.armor import wound_dist as _wound_dist
# Something in this battle the kernel does not play (the reference plays it): the one class
# every kernel's refusal is (engine/kernels.py), so a caller catches it by one name.
from tactica.engine.kernels import Uncovered

include "tactica/engine/kernel_draws.pxi"
include "tactica/engine/kernel_runtime.pxi"


_TRACE = []
cdef bint _TRACE_ON = False


def trace(bint on):
    """Keep the key of every roll (for debugging an equivalence failure): the list."""
    global _TRACE_ON
    _TRACE_ON = on
    del _TRACE[:]
    return _TRACE


DEF MAXF = 32        # fighters
DEF MAXW = 4         # weapons per fighter
DEF MAXA = 4         # armor dice per fighter
DEF MAXI = 4         # kinds of items per fighter
DEF MAXS = 8         # sides
DEF MAXAIMS = 24
DEF MAXHITS = 16
DEF MAXL = 48        # movement layers
DEF MAXT = 1024      # grid tiles
DEF KEYCAP = 1 << 14
DEF ARENA = 1 << 21
DEF VALCAP = 1 << 15

#: The kernel's fixed limits, by name: ``Kernel(tables)`` answers a scenario past one of them
#: with KernelLimit naming it (kernel.py checks them first, with the same numbers), and a
#: battle that reaches one on the way raises Uncovered (the reference plays it): a move of
#: more squares than the layers, more distinct rolls than the keyed counts hold.
LIMITS = {
    "characters": MAXF,
    "weapons": MAXW,               # of one character
    "armor": MAXA,                 # armor dice of one character
    "items": MAXI,                 # kinds of item one character carries
    "sides": MAXS,
    "aims": MAXAIMS,               # aims of one weapon
    "hits": MAXHITS,               # hits of one attack (rate of fire)
    "layers": MAXL,                # squares of one move
    "squares": MAXT,               # squares of the map
    "rolls": KEYCAP // 2,          # distinct keyed rolls of one battle
}

# what comes next (flow.pending)
DEF P_FINISHED = 0
DEF P_INIT_CHECK = 1
DEF P_INIT_ORDER = 2
DEF P_CARRIED = 3
DEF P_NO_AP = 4
DEF P_CHOOSE = 5
DEF P_BLEED = 6
DEF P_END_ROUND = 7
DEF P_NEW_ROUND = 8
DEF P_UNCONSCIOUS = 9
DEF NONE = 1 << 30

DEF PH_SETUP = 0
DEF PH_ROUND = 1
DEF PH_ENDED = 2

# actions (records.py)
DEF A_ATTACK = 0
DEF A_RELOAD = 1
DEF A_SWAP = 2
DEF A_USE = 3
DEF A_REPOS = 4
DEF A_MOVE = 5
DEF A_WATCH = 6
DEF A_HOLD = 7
DEF A_END = 8

DEF GREEDY = 0
DEF RANDOM = 1

# skills: small_guns, big_guns, melee, evade, medicine
DEF SK_EVADE = 3
DEF SK_MEDICINE = 4

cdef int[8][2] _STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]
cdef int[4] _PER_AP = [2, 3, 2, 2]           # walk, slow, run, sprint (movement._PER_STEP)
cdef int64_t[4] _STEP_MM = [1524, 1524, 3048, 6096]
cdef int[4] _MOVE_COST = [2, 3, 1, 0]        # policy._move_cost
cdef int[5] _WDIE = [4, 6, 8, 10, 12]


cdef inline int _wound_die(int damage) noexcept:
    """armor.wound_die as an index of _WDIE (ARC-7 by-damage)."""
    if damage <= 4:
        return 0
    if damage <= 6:
        return 1
    if damage <= 8:
        return 2
    if damage <= 11:
        return 3
    return 4


cdef struct Weapon:
    int dmg_n, dmg_sides, dmg_bonus, dmg_max, dmg_table
    int dtype, skill, unaimed, accuracy, naims, attack_ap
    int aims[MAXAIMS]
    int rofcap, maxhits, rof_int
    int inc, fail0, fail1, swap, reload, full, capdie, has_mag, melee, hw
    int ruled_ap         # its attack's AP read from ARC-14 (a whole rof)
    int64_t range_d2, range_mm
    int summed[MAXHITS + 1]
    int name_off, name_len, skill_off, skill_len, dice_off, dice_len


cdef struct Item:
    int cost, cost_self, check, heal_n, heal_sides, heal_table, rm_kind, rm_value, rm_table
    int plus, raise_fail
    int name_off, name_len, heal_off, heal_len, rm_off, rm_len


cdef struct Fighter:
    int side, health, maxh, con, speed, init_target, involves
    int sk[5]
    int nw, wbase, hand
    int rounds[MAXW]
    int jammed
    int narmor
    int armor[MAXA]
    int nitems
    int item[MAXI]
    int count[MAXI]
    int wounds[5]
    int ap, debt, conscious, dead, falling
    int watch, watch_ap, watch_aim, preset, preset_degree
    int carry, carry_item, carry_target, carry_owed
    int pos
    int dealt, taken, moves
    int checked, init_roll, init_success, init_degree


cdef inline uint64_t _fnv(const uint8_t *p, int n) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL
    cdef int i
    for i in range(n):
        h ^= p[i]
        h *= 1099511628211ULL
    return h


cdef class Kernel(KernelRuntime):
    """One scenario's tables (see kernel.py) and the battle loop."""
    # content
    cdef int nf, nsides, max_rounds, grid, W, H, N, min_clear, nweapons, nitems_t
    cdef Fighter init_f[MAXF]
    cdef Weapon weapons[MAXF * MAXW]
    cdef Item items[MAXF * MAXI]
    cdef int covers[MAXF * MAXW * MAXF]       # [weapon, target] -> armor dice mask protecting
    cdef int64_t init_range[MAXF * MAXF]      # mm, -1 not given
    cdef int has_ranges
    cdef bytes names
    cdef const uint8_t *nm
    cdef int actor_unit[MAXF][2]
    cdef int actor_init[MAXF][2]
    cdef int actor_wound[MAXF][2]
    cdef int actor_finish[MAXF * MAXI][2]
    cdef int actor_no_ap[MAXF][2]
    cdef int actor_out[MAXF][2]
    cdef int id_[MAXF][2]
    # distributions
    cdef int ntables
    cdef int64_t[::1] tstart, tlen
    cdef uint64_t[::1] ttotal, tcum
    cdef int64_t[::1] tout
    cdef int64_t[::1] vtotal
    cdef int64_t[::1] vwounds       # 5 per outcome of a summed table
    cdef int d20, d10
    # map
    cdef uint8_t wall[MAXT]
    cdef uint8_t rough[MAXT]
    cdef int64_t[::1] sstart, slen, srx, sry, pstart, plen, pax, pay, pbx, pby
    cdef uint8_t[::1] smask, pmask
    # the greedy policy's attack values (policy.attack_value), by attack
    cdef object estimate
    cdef dict wide              # table -> its Dist, for a total weight beyond 64 bits
    cdef int roll_cap           # distinct keyed rolls a battle holds (KEYCAP // 2; less in tests)
    cdef dict wide_index        # table -> {outcome: index}
    cdef uint64_t *vkeys
    cdef double *vexp
    cdef double *vout
    cdef int vcount
    # battle
    cdef Fighter f[MAXF]
    cdef int occ[MAXT]
    cdef int64_t rng_[MAXF * MAXF]
    cdef int round, phase, fresh, d10set, bled, nqueue, norder
    cdef int order[MAXF]
    cdef int queue[MAXF]
    # keyed dice
    cdef uint8_t key[4096]
    cdef int kplen, kn
    cdef uint64_t *hkeys
    cdef int *hoff
    cdef int *hlen
    cdef int *hcount
    cdef int *hused
    cdef int nused
    cdef uint8_t *arena
    cdef int arena_n
    cdef int actor_off, actor_len
    # policies
    cdef int pol[MAXS]
    # options
    cdef int nopt
    cdef int *ok
    cdef int *oa
    cdef int *ob
    cdef int *oc
    cdef int *od
    cdef double *val
    cdef int *top
    # movement layers
    cdef int nlayers
    cdef int *lt
    cdef int *lnt
    cdef int *lx
    cdef int *lfrom
    cdef int P, ntouched, nleast
    cdef int *least
    cdef int *leasted
    cdef int *best
    cdef int *touched
    cdef int *pad
    cdef uint8_t *openp
    cdef uint8_t *roughp
    cdef int dstep[8]
    cdef int dx_[8]
    cdef int dy_[8]
    cdef int walk[MAXT]
    # ruling options (kernel.py maps the names): 0 is the default
    cdef int r1, r2, r3, r4, r5, r6, r7, r8, r13, r16, r19, r20, r22, r23, r26, r31, r32
    cdef int r12, r24, r18
    # the side with surprise (ARC-18), or -1
    cdef int surprise
    # the rulings this battle consulted (KernelRuntime.cons): bit n - 1 for ARC-n (_c)

    def __cinit__(self):
        self.hkeys = <uint64_t *>self._own(KEYCAP * sizeof(uint64_t), True)
        self.hoff = <int *>self._own(KEYCAP * sizeof(int), True)
        self.hlen = <int *>self._own(KEYCAP * sizeof(int), True)
        self.hcount = <int *>self._own(KEYCAP * sizeof(int), True)
        self.hused = <int *>self._own(KEYCAP * sizeof(int), True)
        self.arena = <uint8_t *>self._own(ARENA, False)
        self.vkeys = <uint64_t *>self._own(VALCAP * sizeof(uint64_t), True)
        self.vexp = <double *>self._own(VALCAP * sizeof(double), True)
        self.vout = <double *>self._own(VALCAP * sizeof(double), True)
        cdef int cap = 8192
        self.ok = <int *>self._own(sizeof(int) * cap, False)
        self.oa = <int *>self._own(sizeof(int) * cap, False)
        self.ob = <int *>self._own(sizeof(int) * cap, False)
        self.oc = <int *>self._own(sizeof(int) * cap, False)
        self.od = <int *>self._own(sizeof(int) * cap, False)
        self.val = <double *>self._own(sizeof(double) * cap, False)
        self.top = <int *>self._own(sizeof(int) * cap, False)
        self.lnt = <int *>self._own(sizeof(int) * MAXL, False)

    def __init__(self, dict t):
        cdef int i, j, k
        self.roll_cap = KEYCAP // 2
        self.tables = t
        self.names = t["names"]
        self.nm = <const uint8_t *>self.names
        self.nf = len(t["fighters"])
        self.nsides = t["nsides"]
        self.max_rounds = t["max_rounds"]
        self.grid = t["grid"]
        self.W = t["width"]
        self.H = t["height"]
        self.N = self.W * self.H
        self.min_clear = t["min_clear"]
        self.estimate = t["estimate"]
        self.has_ranges = t["has_ranges"]
        r = t["rulings"]
        self.r1, self.r2, self.r3, self.r4, self.r5 = r[0], r[1], r[2], r[3], r[4]
        self.r6, self.r7, self.r8, self.r13, self.r16 = r[5], r[6], r[7], r[8], r[9]
        self.r19, self.r20, self.r22, self.r23, self.r26 = r[10], r[11], r[12], r[13], r[14]
        self.r31, self.r32, self.r12, self.r24 = r[15], r[16], r[17], r[18]
        self.r18 = r[19]
        self.surprise = t["surprise"]
        within(self.nf, MAXF, "characters")
        within(self.nsides, MAXS, "sides")
        if self.N > MAXT:
            raise KernelLimit(f"a map of more than {MAXT} squares")
        for fd in t["fighters"]:
            if len(fd["weapons"]) > MAXW:
                raise KernelLimit(f"a character with more than {MAXW} weapons")
            if len(fd["armor"]) > MAXA:
                raise KernelLimit(f"a character with more than {MAXA} armor dice")
            if len(fd["items"]) > MAXI or len(fd["actor_finish"]) > MAXI:
                raise KernelLimit(f"a character carrying more than {MAXI} kinds of item")
            for wd in fd["weapons"]:
                if len(wd["aims"]) > MAXAIMS:
                    raise KernelLimit(f"a weapon of more than {MAXAIMS} aims")
                if len(wd["summed"]) > MAXHITS + 1:
                    raise KernelLimit(f"a weapon of more than {MAXHITS} hits")
        within(len(t["items"]), MAXF * MAXI, "items in one battle")
        for i in range(self.nf * self.nf):
            self.init_range[i] = t["ranges"][i]
        for i in range(self.N):
            self.wall[i] = t["wall"][i]
            self.rough[i] = t["rough"][i]
        # the grid padded with a closed border, for the movement layers
        self.P = (self.W + 2) * (self.H + 2)
        self.lt = <int *>self._own(sizeof(int) * MAXL * self.P, False)
        self.lx = <int *>self._own(sizeof(int) * MAXL * self.P, False)
        self.lfrom = <int *>self._own(sizeof(int) * MAXL * self.P, False)
        self.least = <int *>self._own(sizeof(int) * self.P, False)
        self.leasted = <int *>self._own(sizeof(int) * self.P, False)
        self.best = <int *>self._own(sizeof(int) * 4 * self.P, False)
        self.touched = <int *>self._own(sizeof(int) * MAXL * self.P, False)
        self.pad = <int *>self._own(sizeof(int) * max(1, self.N), False)
        self.openp = <uint8_t *>self._own(self.P, True)
        self.roughp = <uint8_t *>self._own(self.P, True)
        for i in range(MAXL * self.P):
            self.lx[i] = -1
        for i in range(self.P):
            self.least[i] = NONE
        for i in range(4 * self.P):
            self.best[i] = -1
        self.ntouched = self.nleast = 0
        for i in range(self.N):
            self.pad[i] = (i // self.W + 1) * (self.W + 2) + i % self.W + 1 if self.W else 0
            self.roughp[self.pad[i]] = self.rough[i]
        for k in range(8):
            self.dx_[k] = _STEPS[k][0]
            self.dy_[k] = _STEPS[k][1] * (self.W + 2)
            self.dstep[k] = self.dx_[k] + self.dy_[k]
        if self.grid:
            self.sstart, self.slen = t["sstart"], t["slen"]
            self.srx, self.sry, self.smask = t["srx"], t["sry"], t["smask"]
            self.pstart, self.plen = t["pstart"], t["plen"]
            self.pax, self.pay, self.pbx, self.pby = t["pax"], t["pay"], t["pbx"], t["pby"]
            self.pmask = t["pmask"]
        self.tstart, self.tlen, self.ttotal = t["tstart"], t["tlen"], t["ttotal"]
        self.tcum, self.tout = t["tcum"], t["tout"]
        self.wide = t["wide"]
        self.wide_index = {table: {o: i for i, o in enumerate(d.outcomes)}
                           for table, d in self.wide.items()}
        self.vtotal, self.vwounds = t["vtotal"], t["vwounds"]
        self.d20 = t["d20"]
        self.d10 = t["d10"]
        self.nweapons = 0
        self.nitems_t = 0
        for i, fd in enumerate(t["fighters"]):
            F = &self.init_f[i]
            F.side = fd["side"]
            F.health = F.maxh = fd["health"]
            F.con = fd["con"]
            F.speed = fd["speed"]
            F.init_target = fd["initiative"]
            F.involves = fd["involves"]
            for k in range(5):
                F.sk[k] = fd["skills"][k]
            F.nw = len(fd["weapons"])
            F.wbase = self.nweapons
            F.hand = 0 if F.nw else -1
            F.jammed = 0
            for j, wd in enumerate(fd["weapons"]):
                w = &self.weapons[self.nweapons]
                self.nweapons += 1
                w.dmg_n = wd["dmg_n"]; w.dmg_sides = wd["dmg_sides"]; w.dmg_bonus = wd["dmg_bonus"]
                w.dmg_max = wd["dmg_max"]; w.dmg_table = wd["dmg_table"]; w.dtype = wd["dtype"]
                w.skill = wd["skill"]; w.unaimed = wd["unaimed"]; w.accuracy = wd["accuracy"]
                w.attack_ap = wd["attack_ap"]; w.rofcap = wd["rofcap"]; w.maxhits = wd["maxhits"]
                w.rof_int = wd["rof_int"]; w.inc = wd["inc"]; w.fail0 = wd["fail0"]
                w.fail1 = wd["fail1"]; w.swap = wd["swap"]; w.reload = wd["reload"]
                w.full = wd["full"]; w.capdie = wd["capdie"]; w.has_mag = wd["has_mag"]
                w.melee = wd["melee"]; w.hw = wd["hw"]; w.ruled_ap = wd["ruled_ap"]
                w.range_d2 = wd["range_d2"]; w.range_mm = wd["range_mm"]
                w.naims = len(wd["aims"])
                for k in range(w.naims):
                    w.aims[k] = wd["aims"][k]
                for k in range(MAXHITS + 1):
                    w.summed[k] = wd["summed"][k] if k < len(wd["summed"]) else -1
                w.name_off, w.name_len = wd["name"]
                w.skill_off, w.skill_len = wd["skill_text"]
                w.dice_off, w.dice_len = wd["dice_text"]
                F.rounds[j] = wd["full"] if wd["has_mag"] else -1
            F.narmor = len(fd["armor"])
            for k in range(F.narmor):
                F.armor[k] = fd["armor"][k]
            F.nitems = len(fd["items"])
            for k, (item, count) in enumerate(fd["items"]):
                F.item[k] = item
                F.count[k] = count
            for k in range(5):
                F.wounds[k] = 0
            F.ap = F.debt = 0
            F.conscious = 1
            F.dead = 0
            F.falling = 0
            F.watch = F.watch_ap = F.watch_aim = F.preset = F.preset_degree = 0
            F.carry = 0
            F.carry_item = F.carry_target = F.carry_owed = 0
            F.pos = fd["pos"]
            F.dealt = F.taken = F.moves = 0
            F.checked = F.init_roll = F.init_success = F.init_degree = 0
            self.actor_unit[i][0], self.actor_unit[i][1] = fd["actor_unit"]
            self.actor_init[i][0], self.actor_init[i][1] = fd["actor_init"]
            self.actor_wound[i][0], self.actor_wound[i][1] = fd["actor_wound"]
            self.actor_no_ap[i][0], self.actor_no_ap[i][1] = fd["actor_no_ap"]
            self.actor_out[i][0], self.actor_out[i][1] = fd["actor_out"]
            self.id_[i][0], self.id_[i][1] = fd["id"]
            for k, span in enumerate(fd["actor_finish"]):
                self.actor_finish[i * MAXI + k][0], self.actor_finish[i * MAXI + k][1] = span
        for i, idata in enumerate(t["items"]):
            it = &self.items[i]
            it.cost = idata["cost"]; it.cost_self = idata["cost_self"]; it.check = idata["check"]
            it.heal_n = idata["heal_n"]; it.heal_sides = idata["heal_sides"]
            it.heal_table = idata["heal_table"]; it.rm_kind = idata["rm_kind"]
            it.rm_value = idata["rm_value"]; it.rm_table = idata["rm_table"]
            it.plus = idata["plus"]; it.raise_fail = idata["raise_fail"]
            it.name_off, it.name_len = idata["name"]
            it.heal_off, it.heal_len = idata["heal_text"]
            it.rm_off, it.rm_len = idata["rm_text"]
        for i in range(self.nweapons * self.nf):
            self.covers[i] = t["covers"][i]

    # -- keyed dice (tactica.engine.streams.KeyedDice.roll) ------------------------------------------

    cdef inline void _put(self, int off, int n) noexcept:
        cdef int i
        for i in range(n):
            self.key[self.kn + i] = self.nm[off + i]
        self.kn += n

    cdef inline void _lit(self, const char *s) noexcept:
        cdef int i = 0
        while s[i] != 0:
            self.key[self.kn] = <uint8_t>s[i]
            self.kn += 1
            i += 1

    cdef void _int(self, int64_t v, bint plus) noexcept:
        if v < 0:
            self.key[self.kn] = 45
            self.kn += 1
            v = -v
        elif plus:
            self.key[self.kn] = 43
            self.kn += 1
        self.kn = key_digits(self.key, self.kn, v)

    cdef inline void _id(self, int u) noexcept:
        self._put(self.id_[u][0], self.id_[u][1])

    cdef inline void _label(self) noexcept:
        """The start of a roll's key: the prefix, the step's actor and ``|``."""
        self.kn = self.kplen
        self._put(self.actor_off, self.actor_len)
        self._lit(b"|")

    cdef int _draw(self, int table) except -2:
        """One roll of ``table`` keyed by the key under way (KeyedDice.roll: the slot's count,
        then Dist.sample through uniform_below and Sampler.index); the outcome's index."""
        cdef int i, n
        cdef uint64_t hi, total
        cdef int64_t a
        self._lit(b"|")
        self.key_count()
        a = self.tstart[table]
        n = <int>self.tlen[table]
        if n == 1:
            return 0
        total = self.ttotal[table]
        if total == 0:  # a total weight of more than 64 bits: the reference's sampler
            dist = self.wide[table]
            return self.wide_index[table][dist.sample(KeyedRng(bytes(self.key[:self.kn])))]
        if total <= 1:
            return 0
        hi = keyed_below(self.key, self.kn, total)
        for i in range(n):
            if self.tcum[a + i] > hi:
                return i
        return n - 1

    cdef inline int _value(self, int table, int index) noexcept:
        return <int>self.tout[self.tstart[table] + index]

    cdef int _jams(self, int u, Weapon *w) except -1:
        """The jam roll after a check's face reached the weapon's threat (attack.py's ``jam``,
        actions.py's suppressing fire), keyed as the reference keys it; 1 when it jams."""
        self._label()
        self._id(u)
        self._lit(b"'s ")
        self._put(w.name_off, w.name_len)
        self._lit(b": jam threat (jams on ")
        self._int(w.fail1, False)
        self._lit(b"+)")
        return self._roll(self.d20) >= w.fail1

    cdef int _roll(self, int table) except -999999:
        """The outcome (an integer) of one roll of ``table``."""
        return self._value(table, self._draw(table))

    # -- the rulings consulted (tactica.engine.consulted: where the reference reads them) -------

    cdef inline void _c20(self, int u, int skill) noexcept:
        """attack.check_die reads ARC-20 for a character with its d10 and a check that
        involves AGI."""
        if (self.d10set >> u) & 1 and (self.f[u].involves >> skill) & 1:
            self.cons |= (<uint64_t>1) << 19

    cdef inline void _c14(self, Weapon *w) noexcept:
        """Weapon.attack_ap reads ARC-14 for a whole rof."""
        if w.ruled_ap:
            self.cons |= (<uint64_t>1) << 13

    cdef inline void _c_plan(self, int u, int t, Weapon *w) noexcept:
        """attack.attack_plan's reads (the aim modifier's ARC-13 is read by _aim_mod): the
        attacker's and the target's check dice (ARC-20), the attack's AP (ARC-14)."""
        self._c20(u, w.skill)
        self._c20(t, SK_EVADE)
        self._c14(w)

    cdef inline void _c_drop(self, int t, int cov) noexcept:
        """attack.consult_drop: ARC-4 when two armor dice or more protect."""
        cdef int k, live = 0
        for k in range(self.f[t].narmor):
            if (cov >> k) & 1 and self.f[t].armor[k] > 0:
                live += 1
        if live >= 2:
            self.cons |= (<uint64_t>1) << 3

    # -- checks (checks.read_check and friends, default rulings) ----------------------------------

    cdef inline int _degree(self, int roll, int inc) noexcept:
        if self.r2:   # ruling ARC-2 (floor-plus-one)
            return roll // inc + 1
        return roll // inc

    cdef void _read(self, int roll, int target, int inc, int *success, int *degree) noexcept:
        """checks.read_check in combat (ARC-9)."""
        cdef int size = self._degree(roll, inc)
        self._c(2)
        if roll == 1:
            success[0] = 1
            degree[0] = size
        elif roll == 20:
            success[0] = 0
            degree[0] = -size
        elif roll <= target:
            success[0] = 1
            degree[0] = size
        else:
            success[0] = 0
            degree[0] = -size

    cdef inline int _check_die(self, int u, int skill) noexcept:
        """attack.check_die (ARC-20)."""
        if not (self.d10set >> u) & 1 or not (self.f[u].involves >> skill) & 1:
            return 20
        self._c(20)
        if self.r20 or self._active() == u:  # ruling ARC-20 (until-turn-ends or own-turn)
            return 10
        return 20

    cdef inline int _aim_mod(self, Weapon *w, int aim) noexcept:
        """attack.aim_modifier (ARC-13)."""
        cdef int m
        self._c(13)
        if self.r13:   # ruling ARC-13 (remove-first)
            if aim == 0:
                return w.unaimed
            m = aim - 1 if aim - 1 > 0 else 0
            if w.unaimed > m:
                m = w.unaimed
            return m if m < w.accuracy else w.accuracy
        m = w.unaimed + aim
        return m if m < w.accuracy else w.accuracy

    # -- state helpers (state.py) -----------------------------------------------------------------

    cdef inline bint _in_action(self, int u) noexcept:
        return self.f[u].conscious and not self.f[u].dead

    cdef inline bint _aware(self, int u) noexcept:
        """ArcState.is_aware: not of a surprised side in round 1 (ARC-18)."""
        return self.surprise < 0 or self.round > 1 or self.f[u].side == self.surprise

    cdef inline int _active(self) noexcept:
        if self.nqueue > 0 and self.phase == PH_ROUND:
            return self.queue[0]
        return -1

    cdef inline bint _can_fire(self, int u, int wl) noexcept:
        if (self.f[u].jammed >> wl) & 1:
            return False
        return self.f[u].rounds[wl] != 0

    cdef void _settle(self) noexcept:
        """state._settle (ARC-12: the unconscious are dropped from the head under round, kept
        for their wound dice under turn)."""
        cdef int i
        self._c(12)
        while self.nqueue > 0:
            i = self.queue[0]
            if self.f[i].dead or (not self.f[i].conscious and not self.r12):   # ruling ARC-12
                self._drop_head()
                continue
            break
        self.fresh = 1
        if self.nqueue > 0:
            i = self.queue[0]
            self.f[i].watch = 0
            self.f[i].preset = 0

    cdef inline void _drop_head(self) noexcept:
        cdef int i
        for i in range(1, self.nqueue):
            self.queue[i - 1] = self.queue[i]
        self.nqueue -= 1

    cdef void _pop(self, int u) noexcept:
        if self.nqueue > 0 and self.queue[0] == u:
            self._drop_head()
            self._settle()

    cdef void _spent(self, int u, int cost, int left, int borrowed) noexcept:
        """APSpent."""
        self.f[u].ap = left
        self.f[u].debt += borrowed
        if self._active() == u:
            self.fresh = 0

    cdef void _turn_ended(self, int u) noexcept:
        """TurnEnded."""
        self.d10set &= ~(1 << u)
        self._pop(u)

    cdef void _died(self, int u) noexcept:
        """Died."""
        cdef int i, n = 0
        cdef Fighter *F = &self.f[u]
        F.dead = 1
        F.conscious = 0
        F.falling = 0
        F.watch = 0
        F.preset = 0
        F.carry = 0
        if self.grid and F.pos >= 0 and self.occ[F.pos] == u:
            self.occ[F.pos] = -1
        if self._active() == u:
            self._pop(u)
        else:
            for i in range(self.nqueue):
                if self.queue[i] != u:
                    self.queue[n] = self.queue[i]
                    n += 1
            self.nqueue = n

    cdef void _fell(self, int u) noexcept:
        cdef Fighter *F = &self.f[u]
        F.conscious = 0
        F.falling = 0
        F.watch = 0
        F.preset = 0
        F.carry = 0
        if self._active() == u:
            self._pop(u)

    cdef void _sweep(self, int u) noexcept:
        """steps.sweep_events: at or under -CON dies, at or under 0 falls."""
        if self.f[u].dead:
            return
        if self.f[u].health <= -self.f[u].con:
            self._died(u)
        elif self.f[u].health <= 0 and self.f[u].conscious:
            self._fell(u)

    cdef int _nwounds(self, int u) noexcept:
        cdef int k, n = 0
        for k in range(5):
            n += self.f[u].wounds[k]
        return n

    cdef void _raise_step(self, int u) noexcept:
        """armor.raise_step: the smallest die below d12 rises a step; none: a new d4."""
        cdef int k
        cdef Fighter *F = &self.f[u]
        for k in range(4):
            if F.wounds[k] > 0:
                F.wounds[k] -= 1
                F.wounds[k + 1] += 1
                return
        F.wounds[0] += 1

    cdef void _remove_steps(self, int u, int steps) noexcept:
        """armor.remove_steps (ARC-26: the smallest or the largest die first)."""
        cdef int s, k
        cdef Fighter *F = &self.f[u]
        for s in range(steps):
            if self.r26:   # ruling ARC-26 (largest)
                k = 4
                while k >= 0 and F.wounds[k] == 0:
                    k -= 1
                if k < 0:
                    break
            else:
                k = 0
                while k < 5 and F.wounds[k] == 0:
                    k += 1
                if k == 5:
                    break
            F.wounds[k] -= 1
            if k > 0:
                F.wounds[k - 1] += 1

    # -- geometry (movement.reaches, movement.sees, grid sight) -----------------------------------

    cdef inline bint _blocks(self, int tile) noexcept:
        return self.wall[tile] or self.occ[tile] >= 0

    cdef int _clear_lines(self, int src, int dst) noexcept:
        cdef int sx = src % self.W, sy = src // self.W
        cdef int dx = dst % self.W - sx, dy = dst // self.W - sy
        cdef int off = (dy + self.H - 1) * (2 * self.W - 1) + dx + self.W - 1
        cdef int x, y, x2, y2, blocked = 0
        cdef int64_t k, a = self.sstart[off], e = a + self.slen[off]
        for k in range(a, e):
            x = sx + self.srx[k]
            y = sy + self.sry[k]
            if 0 <= x < self.W and 0 <= y < self.H and self._blocks(y * self.W + x):
                blocked |= self.smask[k]
        a = self.pstart[off]
        e = a + self.plen[off]
        for k in range(a, e):
            x = sx + self.pax[k]
            y = sy + self.pay[k]
            x2 = sx + self.pbx[k]
            y2 = sy + self.pby[k]
            if (0 <= x < self.W and 0 <= y < self.H and 0 <= x2 < self.W and 0 <= y2 < self.H
                    and self._blocks(y * self.W + x) and self._blocks(y2 * self.W + x2)):
                blocked |= self.pmask[k]
        return 4 - ((blocked & 1) + ((blocked >> 1) & 1) + ((blocked >> 2) & 1)
                    + ((blocked >> 3) & 1))

    cdef bint _sees(self, int a, int b) noexcept:
        """movement.sees (ARC-29: min_clear lines)."""
        if not self.grid or self.f[a].dead or self.f[b].dead:
            return True
        self._c(29)
        return self._clear_lines(self.f[a].pos, self.f[b].pos) >= self.min_clear

    cdef bint _reaches(self, int a, int b, int wi) noexcept:
        """movement.reaches."""
        cdef Weapon *w = &self.weapons[wi]
        cdef int pa, pb, dx, dy
        cdef int64_t given
        if self.grid:
            pa = self.f[a].pos
            pb = self.f[b].pos
            dx = pa % self.W - pb % self.W
            dy = pa // self.W - pb // self.W
            if w.melee:
                if dx < 0:
                    dx = -dx
                if dy < 0:
                    dy = -dy
                return (dx if dx > dy else dy) == 1
            return w.range_d2 < 0 or dx * dx + dy * dy <= w.range_d2
        given = self.rng_[a * self.nf + b]
        if given < 0:
            return True
        if w.melee:
            return given <= 2000
        return w.range_mm < 0 or given <= w.range_mm

    # -- movement (movement._layers, _options, path_to) -------------------------------------------

    cdef int _layers(self, int start, int most) except -1:
        """movement._layers: per number of squares, the least extra AP on each square and the
        square it came from, in the reference's insertion order. Squares are numbered on the
        grid padded with a closed border (``_pad``); the entries of the last call are cleared
        first."""
        cdef int L, i, k, p, q, cost, extra, n, b, t, nprev
        cdef int *cur
        cdef int *prev
        cdef int *lx = self.lx
        cdef int *lf = self.lfrom
        cdef int *here
        cdef int *there
        cdef int *least = self.least
        cdef int *touched = self.touched
        cdef uint8_t *op = self.openp
        cdef uint8_t *rough = self.roughp
        cdef int P = self.P, nt
        cdef int ds[8]
        cdef int dxs[8]
        cdef int dys[8]
        for k in range(8):
            ds[k] = self.dstep[k]
            dxs[k] = self.dx_[k]
            dys[k] = self.dy_[k]
        if most + 1 > MAXL:
            raise Uncovered("a move of more squares than the kernel's layers")
        for i in range(self.ntouched):
            self.lx[self.touched[i]] = -1
        self.ntouched = 0
        for i in range(self.nleast):
            self.least[self.leasted[i]] = NONE
        self.nleast = 0
        for t in range(self.N):   # movement._open: open squares, neither walls nor occupied
            op[self.pad[t]] = not self.wall[t] and self.occ[t] < 0
        b = self.pad[start]
        self.least[b] = 0
        self.leasted[0] = b
        self.nleast = 1
        self.lt[0] = b
        self.lnt[0] = 1
        self.lx[b] = 0
        self.lfrom[b] = b
        self.touched[0] = b
        self.ntouched = 1
        self.nlayers = 1
        nt = self.ntouched
        for L in range(1, most + 1):
            n = 0
            cur = self.lt + L * P
            prev = self.lt + (L - 1) * P
            nprev = self.lnt[L - 1]
            there = lx + (L - 1) * P
            here = lx + L * P
            for i in range(nprev):
                p = prev[i]
                extra = there[p]
                for k in range(8):
                    q = p + ds[k]
                    if not op[q]:
                        continue
                    cost = extra
                    if k >= 4:
                        if not op[p + dxs[k]] and not op[p + dys[k]]:
                            continue
                        cost += 1
                    if rough[q]:
                        cost += 1
                    if cost >= least[q]:
                        continue
                    if here[q] < 0:
                        cur[n] = q
                        n += 1
                        here[q] = cost
                        lf[L * P + q] = p
                        touched[nt] = L * P + q
                        nt += 1
                    elif cost < here[q]:
                        here[q] = cost
                        lf[L * P + q] = p
            for i in range(n):
                q = cur[i]
                if least[q] == NONE:
                    self.leasted[self.nleast] = q
                    self.nleast += 1
                    least[q] = here[q]
                elif here[q] < least[q]:
                    least[q] = here[q]
            self.lnt[L] = n
            if n == 0:
                break
            self.nlayers = L + 1
        self.ntouched = nt
        return 0

    cdef inline int _max_squares(self, int mode, int ap) noexcept:
        if mode == 0:
            return ap // 2
        if mode == 1:
            return ap // 3
        return (2 if mode == 2 else 4) * (ap // 2)

    cdef inline int _mode_cost(self, int mode, int n) noexcept:
        if mode == 0:
            return 2 * n
        if mode == 1:
            return 3 * n
        return 2 * ((n + (2 if mode == 2 else 4) - 1) // (2 if mode == 2 else 4))

    cdef int _move_options(self, int u, int n) except -1:
        """movement._options as Move actions in legal_actions' order (mode, then the square
        sorted by (x, y))."""
        cdef int ap = self.f[u].ap, at = self.pad[self.f[u].pos], most = 0, m, L, i, p, cost
        cdef int x, y, extra, P = self.P
        cdef int top[4]
        cdef int bases[4]
        cdef int *best = self.best
        for m in range(4):
            if self._max_squares(m, ap) > most:
                most = self._max_squares(m, ap)
        if most == 0:
            return n
        self._layers(self.f[u].pos, most)
        for m in range(4):
            top[m] = self._max_squares(m, ap)
            if self.nlayers - 1 < top[m]:
                top[m] = self.nlayers - 1
        for L in range(1, self.nlayers):
            for m in range(4):
                bases[m] = self._mode_cost(m, L) if L <= top[m] else ap + 1
            if bases[0] > ap and bases[1] > ap and bases[2] > ap and bases[3] > ap:
                break
            for i in range(self.lnt[L]):
                p = self.lt[L * P + i]
                extra = self.lx[L * P + p]
                for m in range(4):
                    cost = bases[m] + extra
                    if bases[m] <= ap and cost <= ap and (
                            best[m * P + p] < 0 or cost < best[m * P + p]):
                        best[m * P + p] = cost
        for m in range(4):
            best[m * P + at] = -1
            for x in range(self.W):
                p = m * P + self.pad[x]
                for y in range(self.H):
                    if best[p] >= 0:
                        best[p] = -1
                        self.ok[n] = A_MOVE
                        self.oa[n] = y * self.W + x
                        self.ob[n] = m
                        n += 1
                    p += self.W + 2
        return n

    cdef int _path(self, int u, int to, int mode, int *path, int *cost) except -1:
        """movement.path_to (on the layers of the last _move_options of ``u``): the squares
        and the cost; returns the number of squares."""
        cdef int ap = self.f[u].ap, L, best = -1, bn = 0, c, k, p, P = self.P
        cdef int top_n = self._max_squares(mode, ap)
        cdef int q = self.pad[to]
        if self.nlayers - 1 < top_n:
            top_n = self.nlayers - 1
        for L in range(1, top_n + 1):
            if self.lx[L * P + q] >= 0:
                c = self._mode_cost(mode, L) + self.lx[L * P + q]
                if best < 0 or c < best:
                    best = c
                    bn = L
        p = q
        for k in range(bn, 0, -1):
            path[k - 1] = (p // (self.W + 2) - 1) * self.W + p % (self.W + 2) - 1
            p = self.lfrom[k * P + p]
        cost[0] = best
        return bn

    cdef void _walk_map(self, int side) noexcept:
        """policy._walk_map: squares to the nearest standing foe around walls."""
        cdef int frontier[MAXT]
        cdef int nxt[MAXT]
        cdef int nf = 0, nn, i, g, x, y, dx, dy, tx, ty, t
        for i in range(self.N):
            self.walk[i] = -1
        for g in range(self.nf):
            if self._in_action(g) and self.f[g].side != side and self.f[g].pos >= 0:
                if self.walk[self.f[g].pos] < 0:
                    self.walk[self.f[g].pos] = 0
                    frontier[nf] = self.f[g].pos
                    nf += 1
        while nf > 0:
            nn = 0
            for i in range(nf):
                x = frontier[i] % self.W
                y = frontier[i] // self.W
                for dx in range(-1, 2):
                    for dy in range(-1, 2):
                        tx = x + dx
                        ty = y + dy
                        if 0 <= tx < self.W and 0 <= ty < self.H:
                            t = ty * self.W + tx
                            if self.walk[t] < 0 and not self.wall[t]:
                                self.walk[t] = self.walk[frontier[i]] + 1
                                nxt[nn] = t
                                nn += 1
            for i in range(nn):
                frontier[i] = nxt[i]
            nf = nn

    cdef inline int _walk_at(self, int tile) noexcept:
        return 1000 if self.walk[tile] < 0 else self.walk[tile]

    # -- legal actions (actions.legal_actions) ----------------------------------------------------

    cdef bint _needs(self, int item, int t) noexcept:
        cdef Item *it = &self.items[item]
        cdef Fighter *T = &self.f[t]
        if T.dead:
            return False
        if it.heal_n > 0 and (T.health < T.maxh or not T.conscious):
            return True
        return it.rm_kind != 0 and self._nwounds(t) > 0

    cdef int _legal(self, int u) except -1:
        cdef Fighter *F = &self.f[u]
        cdef Weapon *w
        cdef int n = 0, t, k, aim, wi, j, cost, short, m, ap, per, seen = 0, later
        cdef int64_t now
        if F.nw:
            wi = F.wbase + F.hand
            w = &self.weapons[wi]
            if self._can_fire(u, F.hand):
                self._c(13)   # attack.useful_aims
                for t in range(self.nf):
                    if (self.f[t].side == F.side or not self._in_action(t)
                            or not self._reaches(u, t, wi) or not self._sees(u, t)):
                        continue
                    self._c14(w)
                    for k in range(w.naims):
                        aim = w.aims[k]
                        if aim + w.attack_ap > F.ap:
                            break
                        self.ok[n] = A_ATTACK; self.oa[n] = t; self.ob[n] = aim; self.oc[n] = 0
                        n += 1
                        self._c_plan(u, t, w)   # attack_plan (take 1?)
                        if F.sk[w.skill] + self._aim_mod(w, aim) >= 20:
                            self.ok[n] = A_ATTACK; self.oa[n] = t; self.ob[n] = aim
                            self.oc[n] = 1
                            n += 1
            if w.reload <= F.ap and ((F.jammed >> F.hand) & 1 or (
                    w.has_mag and F.rounds[F.hand] < w.full)):
                self.ok[n] = A_RELOAD
                n += 1
            for j in range(F.nw):
                if j != F.hand and self.weapons[F.wbase + j].swap <= F.ap:
                    self.ok[n] = A_SWAP; self.oa[n] = j
                    n += 1
        for k in range(F.nitems):
            if F.count[k] <= 0:
                continue
            for t in range(self.nf):
                if self.f[t].side != F.side or self.f[t].dead:
                    continue
                if t != u and self.grid and self._cheb(F.pos, self.f[t].pos) > 1:
                    continue
                if not self._needs(F.item[k], t):
                    continue
                # ruling ARC-25 (total; read on oneself)
                if t == u:
                    self._c(25)
                cost = self.items[F.item[k]].cost_self if t == u else self.items[F.item[k]].cost
                if cost <= F.ap:
                    self.ok[n] = A_USE; self.oa[n] = k; self.ob[n] = t; self.oc[n] = 0
                    n += 1
                    continue
                short = cost - F.ap
                if F.debt + short <= F.speed:
                    self.ok[n] = A_USE; self.oa[n] = k; self.ob[n] = t; self.oc[n] = 1
                    n += 1
                if short <= F.speed:
                    self.ok[n] = A_USE; self.oa[n] = k; self.ob[n] = t; self.oc[n] = 2
                    n += 1
        if not self.grid and self.has_ranges:
            # movement.reposition_options (ARC-33 one-pair)
            for t in range(self.nf):
                if t == u or self.f[t].dead:
                    continue
                now = self.rng_[u * self.nf + t]
                if now < 0:
                    continue
                for m in range(4):
                    per = _PER_AP[m]
                    for ap in range(per, F.ap + 1, per):
                        if now > 0:
                            self.ok[n] = A_REPOS; self.oa[n] = t; self.ob[n] = m
                            self.oc[n] = ap; self.od[n] = 0
                            n += 1
                            if (ap // per) * _STEP_MM[m] >= now:
                                break
                    for ap in range(per, F.ap + 1, per):
                        self.ok[n] = A_REPOS; self.oa[n] = t; self.ob[n] = m
                        self.oc[n] = ap; self.od[n] = 1
                        n += 1
        if self.grid and not (self.pol[F.side] == GREEDY and n > 0 and self.ok[0] == A_ATTACK):
            # (the greedy policy values every move -1.5 while an attack is legal, below the
            # end of the turn's -0.5: it never picks one then, so they need not be listed)
            n = self._move_options(u, n)
            # actions._watches
            if F.nw and not self.weapons[F.wbase + F.hand].melee and self._can_fire(u, F.hand):
                w = &self.weapons[F.wbase + F.hand]
                self._c(13)   # attack.useful_aims
                self._c14(w)
                for k in range(w.naims):
                    aim = w.aims[k]
                    if aim + w.attack_ap <= F.ap:
                        self.ok[n] = A_WATCH; self.oa[n] = 1; self.ob[n] = aim + w.attack_ap
                        self.oc[n] = aim
                        n += 1
                if w.rof_int >= 2:
                    m = w.rof_int if w.rof_int < F.ap else F.ap
                    for ap in range(1, m + 1):
                        self.ok[n] = A_WATCH; self.oa[n] = 2; self.ob[n] = ap; self.oc[n] = 0
                        n += 1
        if self.fresh:
            for k in range(1, self.nqueue):
                later = self.queue[k]
                if later != u and not (seen >> later) & 1 and self._in_action(later):
                    seen |= 1 << later
                    self.ok[n] = A_HOLD; self.oa[n] = later
                    n += 1
        self.ok[n] = A_END
        n += 1
        return n

    cdef inline int _cheb(self, int a, int b) noexcept:
        cdef int dx = a % self.W - b % self.W, dy = a // self.W - b // self.W
        if dx < 0:
            dx = -dx
        if dy < 0:
            dy = -dy
        return dx if dx > dy else dy

    # -- the greedy policy (policy.rank_actions, choose_decision) ---------------------------------

    cdef int _estimate(self, int u, int t, int wi, int aim, int take_one, double *e,
                       double *o) except -1:
        """policy.attack_value's (expected damage, chance out of action), from a table filled
        by the reference's own exact odds (kernel.py)."""
        cdef Fighter *F = &self.f[u]
        cdef Fighter *T = &self.f[t]
        cdef Weapon *w = &self.weapons[wi]
        cdef int target = F.sk[w.skill] + self._aim_mod(w, aim)
        cdef int sides = self._check_die(u, w.skill), esides = 0, cap = -1, k, armor = 0
        cdef int left = F.rounds[wi - F.wbase]
        cdef uint64_t key
        cdef int h
        if T.ap > 0 and self._aware(t):   # can_evade (aware) and AP to pay
            esides = self._check_die(t, SK_EVADE)
        if left >= 0 and left < w.maxhits and not self.r22:   # ruling ARC-22 (rof; one: none)
            cap = left
        for k in range(T.narmor):
            armor |= (0 if T.armor[k] == 0 else (T.armor[k] // 2 - 1)) << (3 * k)
        if take_one and target >= 20:
            key = 1
            target = 0
            sides = 0
            esides = 0
            cap = -1
        else:
            key = 0
        key |= (<uint64_t>wi) << 1
        key |= (<uint64_t>t) << 8
        key |= (<uint64_t>(target + 64)) << 14
        key |= (<uint64_t>(sides == 10)) << 22
        key |= (<uint64_t>(0 if esides == 0 else (1 if esides == 10 else 2))) << 23
        key |= (<uint64_t>(cap + 1)) << 25
        key |= (<uint64_t>armor) << 32
        if not -4096 <= T.health < 4096:
            raise Uncovered("a health beyond the kernel's attack table")
        key |= (<uint64_t>(T.health + 4096)) << 44
        key += 1
        h = <int>((key * 0x9E3779B97F4A7C15ULL) >> 49)
        while True:
            if self.vkeys[h] == key:
                e[0] = self.vexp[h]
                o[0] = self.vout[h]
                return 0
            if self.vkeys[h] == 0:
                break
            h = (h + 1) & (VALCAP - 1)
        sizes = tuple(T.armor[k] for k in range(T.narmor)
                      if T.armor[k] > 0 and (self.covers[wi * self.nf + t] >> k) & 1)
        found = self.estimate(wi, t, target, sides, esides, cap, sizes, T.health,
                              bool((key - 1) & 1))
        if self.vcount >= VALCAP // 2:
            for k in range(VALCAP):
                self.vkeys[k] = 0
            self.vcount = 0
            h = <int>((key * 0x9E3779B97F4A7C15ULL) >> 49)
            while self.vkeys[h] != 0:
                h = (h + 1) & (VALCAP - 1)
        self.vkeys[h] = key
        self.vexp[h] = found[0]
        self.vout[h] = found[1]
        self.vcount += 1
        e[0] = found[0]
        o[0] = found[1]
        return 0

    cdef void _c_value(self, int u, int t, int wi, int aim, int take_one) noexcept:
        """The rulings policy._value reads for an attack (its table does not): attack_plan's,
        can_evade's ARC-19, then attack_value's (or _take_one_value's) and _per_ap's."""
        cdef Fighter *F = &self.f[u]
        cdef Fighter *T = &self.f[t]
        cdef Weapon *w = &self.weapons[wi]
        self._c_plan(u, t, w)
        if self._in_action(t) and self._aware(t) and T.ap <= 0:
            self._c(19)
        if take_one and F.sk[w.skill] + self._aim_mod(w, aim) >= 20:
            self._c(3)
            if not self.r3:   # one-hit: the damage of one hit
                self._c_drop(t, self.covers[wi * self.nf + t])
                self._c(5)
                self._c(16)
        else:
            if F.rounds[wi - F.wbase] >= 0:
                self._c(22)
            self._c(2)
            self._c(3)
            self._c(6)
            self._c(5)
            self._c(16)
            self._c_drop(t, self.covers[wi * self.nf + t])
        if F.rounds[wi - F.wbase] >= 0:
            self._c(22)   # _per_ap

    cdef double _attack_value(self, int u, int k) except? -1e300:
        """policy._value of an Attack: _per_ap(expected + 15 x out) + 1."""
        cdef Fighter *F = &self.f[u]
        cdef int wi = F.wbase + F.hand, cost, times, left, aim = self.ob[k]
        cdef Weapon *w = &self.weapons[wi]
        cdef double e, o, value
        self._c_value(u, self.oa[k], wi, aim, self.oc[k])
        self._estimate(u, self.oa[k], wi, aim, self.oc[k], &e, &o)
        value = e + 15.0 * o
        cost = aim + w.attack_ap
        times = (F.ap // cost if F.ap // cost > 1 else 1) if F.ap else 1
        left = F.rounds[F.hand]
        if left >= 0:   # ruling ARC-22 (rof: attacks of rof rounds; one: a round each)
            if not self.r22:
                left = (left + w.maxhits - 1) // w.maxhits
            if left < 1:
                left = 1
            if left < times:
                times = left
        return (<double>times * value) / <double>(F.ap if F.ap > cost else cost) + 1.0

    cdef double _option_value(self, int u, int k, bint can_attack) except? -1e300:
        cdef Fighter *F = &self.f[u]
        cdef Fighter *T
        cdef Item *it
        cdef int kind = self.ok[k], j
        cdef double value, bleeding
        cdef int64_t now, after, limit
        if kind == A_ATTACK:
            return self._attack_value(u, k)
        if kind == A_RELOAD:
            if not self._can_fire(u, F.hand):
                return 4.0
            return -1.0 if can_attack else 0.2
        if kind == A_SWAP:
            return 3.0 if not self._can_fire(u, F.hand) and self._can_fire(u, self.oa[k]) \
                else -1.0
        if kind == A_USE:
            T = &self.f[self.ob[k]]
            it = &self.items[F.item[self.oa[k]]]
            value = 0.0
            if it.heal_n > 0:
                if not T.conscious:
                    value += 12.0
                elif T.health * 2 <= T.maxh:
                    value += 2.0 + (<double>(it.heal_n * (it.heal_sides + 1)) / 2.0) / 4.0
            if it.rm_kind != 0 and self._nwounds(self.ob[k]) > 0:
                bleeding = 0.0
                for j in range(4, -1, -1):
                    for _ in range(T.wounds[j]):
                        bleeding += <double>(_WDIE[j] + 1) / 2.0
                value += 0.4 * bleeding
            if self.oc[k] == 1:
                value -= 0.5
            elif self.oc[k] == 2:
                value -= 1.0
            else:
                value -= 0.0
            return value - 0.5 if value > 0 else -1.0
        if kind == A_MOVE:
            if can_attack or F.pos < 0:
                return -1.5
            return (0.1 * <double>(self._walk_at(F.pos) - self._walk_at(self.oa[k]))
                    - 0.001 * <double>_MOVE_COST[self.ob[k]])
        if kind == A_REPOS:
            # policy._reposition_value
            T = &self.f[self.oa[k]]
            if can_attack or self.od[k] or T.side == F.side or not self._in_action(self.oa[k]) \
                    or not F.nw:
                return -1.5
            now = self.rng_[u * self.nf + self.oa[k]]
            if now < 0:
                return -1.5
            if self.weapons[F.wbase + F.hand].melee:
                limit = 2000
            else:
                limit = self.weapons[F.wbase + F.hand].range_mm
            after = now - (self.oc[k] // _PER_AP[self.ob[k]]) * _STEP_MM[self.ob[k]]
            if after < 0:
                after = 0
            if limit < 0 or not self._can_fire(u, F.hand):
                return -1.5
            if after <= limit:
                return 1.0 - 0.05 * <double>self.oc[k]
            return 0.05 * (<double>(now - after) / 1000.0) / <double>self.oc[k]
        if kind == A_WATCH:
            if can_attack:
                return -1.0
            return 0.05 if self.oa[k] == 1 else 0.01 * <double>self.ob[k]
        if kind == A_HOLD:
            return -2.0
        if kind == A_END:
            return -0.5
        return -1.0

    cdef int _choose(self, int u, int n) except -1:
        """GreedyPolicy.choose on rank_actions' values (ties by the side's generator), or
        RandomPolicy.choose."""
        cdef int side = self.f[u].side, k
        cdef bint can_attack = False
        if self.pol[side] == RANDOM:
            return self._integers(side, n)
        for k in range(n):
            if self.ok[k] == A_ATTACK:
                can_attack = True
                break
        if self.grid and not can_attack:
            self._walk_map(side)
        for k in range(n):
            if can_attack and self.ok[k] == A_MOVE:
                self.val[k] = -1.5
            else:
                self.val[k] = self._option_value(u, k, can_attack)
        return self._greedy(side, self.val, n, self.top)

    cdef int _evades(self, int t) except -1:
        """The target's side decides to evade (policy.choose_decision; RandomPolicy)."""
        cdef Fighter *T = &self.f[t]
        if self.pol[T.side] == RANDOM:
            return self._integers(T.side, 2) == 0
        if T.ap > 0:
            return T.sk[SK_EVADE] >= 4
        return T.sk[SK_EVADE] >= 10 and T.debt == 0

    # -- one attack (attack.attack_process, armor.Hits) -------------------------------------------

    cdef int _attack(self, int u, int t, int aim, int take_one, int reaction,
                     int preset) except -1:
        """attack.attack_process: ``reaction`` 0 for an action, else a watch that fires (no AP
        spent); ``preset`` 1: the suppression's degree, no roll and no Evade."""
        cdef Fighter *A = &self.f[u]
        cdef Fighter *T = &self.f[t]
        cdef int wl = A.hand, wi = A.wbase + A.hand
        cdef Weapon *w = &self.weapons[wi]
        cdef int target = A.sk[w.skill] + self._aim_mod(w, aim)
        cdef int sides = self._check_die(u, w.skill)
        cdef int esides = self._check_die(t, SK_EVADE)
        cdef int evading = 0, borrowed = 0, face = 0, success, degree, ev_success = 0
        cdef int ev_degree = 0, jammed = 0, hits, evaded, left, fired, t_ap, ev_face = 0
        cdef int cost = aim + w.attack_ap
        self._c_plan(u, t, w)
        if not preset and (T.conscious and not T.dead) and self._aware(t) and T.ap <= 0:
            self._c(19)   # can_evade
        if not preset and (T.conscious and not T.dead) and self._aware(t) and (
                T.ap > 0 or (not self.r19 and T.debt < T.speed)):
            # can_evade (ruling ARC-19: next-round, or none); the Decide of the target's side
            evading = self._evades(t)
        t_ap = T.ap
        if evading:
            borrowed = 0 if T.ap > 0 else 1
        # the check
        if preset:
            success = 1
            degree = A.preset_degree
        elif w.hw >= 0:
            success = 1
            degree = w.hw
        elif take_one and target >= 20:
            success = 1
            degree = 0
        else:
            self._label()
            self._id(u)
            self._lit(b" attacks ")
            self._id(t)
            self._lit(b" (")
            self._check_text(w.skill_off, w.skill_len, target, w.inc, sides)
            self._lit(b")")
            face = self._roll(self.d20 if sides == 20 else self.d10)
            self._read(face, target, w.inc, &success, &degree)
        if evading:
            self._label()
            self._id(t)
            self._lit(b" evades (")
            self._check_text(-1, 0, T.sk[SK_EVADE], 5, esides)
            self._lit(b")")
            ev_face = self._roll(self.d20 if esides == 20 else self.d10)
            self._read(ev_face, T.sk[SK_EVADE], 5, &ev_success, &ev_degree)
        if w.fail0 > 0 and face >= w.fail0:
            jammed = self._jams(u, w)
        # land: the events in order
        evaded = 0
        if evading and ev_success:
            if success:
                self._c(6)   # checks.evade_wins
            if not success or self.r6 == 1:   # ruling ARC-6 (any-success)
                evaded = 1
            elif self.r6 == 2:   # ruling ARC-6 (contested): checks.winner(attack, evade) <= 0
                if w.inc == 5 and face != ev_face and not (w.hw >= 0 and not preset):
                    evaded = face <= ev_face
                else:
                    evaded = degree <= ev_degree
            else:   # ruling ARC-6 (meets)
                evaded = ev_degree >= degree
        if evaded or not success:
            hits = 0
        elif degree <= 0:
            self._c(3)
            hits = 0 if self.r3 else 1   # ruling ARC-3 (no-hit or one-hit)
        else:
            hits = degree if degree < w.rofcap else w.rofcap
        if not reaction:
            self._spent(u, cost, A.ap - cost, 0)
        if evading:
            self._spent(t, 1, t_ap - 1 if t_ap > 1 else 0, borrowed)
            if evaded:   # APRefunded
                T.ap = t_ap if borrowed == 0 else 0
                T.debt -= borrowed
        left = A.rounds[wl]
        if left >= 0:
            self._c(22)
            if self.r22:   # ruling ARC-22 (one)
                fired = 1
            else:   # ruling ARC-22 (rof)
                fired = w.maxhits if w.maxhits < left else left
                if fired < hits:
                    hits = fired
            A.rounds[wl] = left - fired
            A.jammed &= ~(1 << wl)
        if jammed:
            A.jammed |= 1 << wl
        if hits == 0:
            return 0
        self._c_drop(t, self.covers[wi * self.nf + t])
        self._c(5)   # attack.damage_rules
        self._c(16)
        return self._hits(u, t, wi, hits)

    cdef void _check_text(self, int off, int n, int target, int inc, int sides) noexcept:
        """Check.label: ``Small Guns 16º4 on a d20``."""
        if off < 0:
            self._lit(b"Evade")
        else:
            self._put(off, n)
        self._lit(b" ")
        self._int(target, False)
        self._lit(b"\xc2\xba")
        self._int(inc, False)
        self._lit(b" on a d")
        self._int(sides, False)

    cdef void _hits_label(self, int u, int t, int wi) noexcept:
        cdef Weapon *w = &self.weapons[wi]
        self._label()
        self._id(u)
        self._lit(b"'s ")
        self._put(w.name_off, w.name_len)
        self._lit(b" on ")
        self._id(t)
        self._lit(b": ")

    cdef int _hits(self, int u, int t, int wi, int hits) except -1:
        """armor.Hits.advance and _hit (ARC-4 highest, ARC-5 no, ARC-16 seed), then the
        damage (attack._finisher: ArmorWorn, Wounded, a death from one attack, ARC-8)."""
        cdef Fighter *T = &self.f[t]
        cdef Weapon *w = &self.weapons[wi]
        cdef int cov = self.covers[wi * self.nf + t]
        cdef int left = hits, hit_no = 1, dt, k, damage, health = 0, idx, best, table
        cdef int added[5]
        cdef int64_t a
        for k in range(5):
            added[k] = 0
        while left > 0:
            dt = 0
            for k in range(T.narmor):
                if (cov >> k) & 1 and T.armor[k] > 0:
                    dt += T.armor[k]
            if dt == 0:
                # Hits._unarmored: the hits left rolled together
                table = w.summed[left]
                if table < 0:
                    raise Uncovered("more hits than the kernel's tables")
                self._hits_label(u, t, wi)
                if left == 1:
                    self._lit(b"hit ")
                    self._int(hit_no, False)
                else:
                    self._lit(b"hits ")
                    self._int(hit_no, False)
                    self._lit(b"-")
                    self._int(hit_no + left - 1, False)
                self._lit(b" damage (")
                self._int(left * w.dmg_n, False)
                self._lit(b"d")
                self._int(w.dmg_sides, False)
                if w.dmg_bonus:
                    self._int(left * w.dmg_bonus, True)
                self._lit(b" together)")
                idx = self._draw(table)
                a = self.tstart[table] + idx
                health += <int>self.vtotal[a]
                for k in range(5):
                    added[k] += <int>self.vwounds[a * 5 + k]
                break
            if w.dmg_max <= dt:
                break   # every hit left is absorbed
            self._hits_label(u, t, wi)
            self._lit(b"hit ")
            self._int(hit_no, False)
            self._lit(b" damage (")
            self._put(w.dice_off, w.dice_len)
            self._lit(b", DT ")
            self._int(dt, False)
            self._lit(b")")
            damage = self._roll(w.dmg_table)
            if self.r16 and damage >= 2 * dt:
                # ruling ARC-16 (massive): every die against the type gone, the rest to health
                for k in range(T.narmor):
                    if (cov >> k) & 1:
                        T.armor[k] = 0
                health += damage - dt
                added[_wound_die(damage - dt)] += 1
            elif damage > dt:
                # ruling ARC-16 (seed): a die drops a step (ARC-4: the highest or the lowest)
                best = -1
                for k in range(T.narmor):
                    if (cov >> k) & 1 and T.armor[k] > 0:
                        if best < 0 or (T.armor[k] < T.armor[best] if self.r4
                                        else T.armor[k] > T.armor[best]):
                            best = k
                T.armor[best] = 0 if T.armor[best] == 4 else T.armor[best] - 2
                if self.r5:   # ruling ARC-5 (penetrates): the whole damage reaches health
                    health += damage
                    added[_wound_die(damage)] += 1
            left -= 1
            hit_no += 1
        if health > 0:
            self._c(7)   # attack._finisher
            self._c(8)
            if not T.dead and not (health >= T.maxh if self.r8 else health > T.maxh):
                self._c(24)   # steps.fall_events
            T.health -= health
            for k in range(5):
                if self.r7:   # ruling ARC-7 (step): each hit raises the open die a step
                    for _ in range(added[k]):
                        self._raise_step(t)
                else:   # ruling ARC-7 (by-damage)
                    T.wounds[k] += added[k]
            T.taken += health
            if u != t:
                self.f[u].dealt += health
            # steps.fall_events (the fighter as it stood before the hits)
            if (health >= T.maxh if self.r8 else health > T.maxh):   # ruling ARC-8
                if not T.dead:
                    self._died(t)
            elif self.r24 and not T.dead:   # ruling ARC-24 (at-once)
                if T.health <= -T.con:
                    self._died(t)
                elif T.health <= 0 and T.conscious and not T.falling:
                    if self._active() == t:
                        T.falling = 1
                    else:
                        self._fell(t)
        return 0

    # -- actions (actions.resolve) ----------------------------------------------------------------

    cdef int _after_action(self, int u) except -1:
        """steps.after_action."""
        if self._active() != u or self.f[u].ap > 0:
            return 0
        return self._end_turn(u)

    cdef int _end_turn(self, int u) except -1:
        """steps.end_turn: the wound dice first under ARC-12 turn, then TurnEnded, then the
        sweep under ARC-24 at-once."""
        self._c(12)
        self._c(24)
        if self.r12 and self._nwounds(u) > 0 and not self.f[u].dead:   # ruling ARC-12 (turn)
            self._bleed(u)
        self._turn_ended(u)
        if self.r24:   # ruling ARC-24 (at-once)
            self._sweep(u)
        return 0

    cdef int _unconscious_turn(self, int u) except -1:
        """flow._unconscious_turn (ARC-12 turn): the wound dice, a death at -CON under ARC-24
        at-once, the end of the turn."""
        if self._nwounds(u) > 0 and not self.f[u].dead:
            self._bleed(u)
        if self.f[u].health <= -self.f[u].con:
            self._c(24)
        if self.f[u].health <= -self.f[u].con and self.r24:   # ruling ARC-24 (at-once)
            self._sweep(u)
        self._turn_ended(u)
        return 0

    cdef int _reload(self, int u) except -1:
        cdef Fighter *F = &self.f[u]
        cdef Weapon *w = &self.weapons[F.wbase + F.hand]
        cdef int rounds
        if w.capdie > 0:
            self._c(23)
        if w.capdie > 0 and not self.r23:   # ruling ARC-23 (rolled)
            self._label()
            self._id(u)
            self._lit(b"'s ")
            self._put(w.name_off, w.name_len)
            self._lit(b" magazine (1d")
            self._int(w.capdie, False)
            self._lit(b")")
            rounds = self._roll(self._die_table(w.capdie))
        else:
            rounds = w.full
        self._spent(u, w.reload, F.ap - w.reload, 0)
        F.rounds[F.hand] = rounds if w.has_mag else -1
        F.jammed &= ~(1 << F.hand)
        return self._after_action(u)

    cdef int _die_table(self, int sides) except -1:
        cdef int64_t t = self.tables["dies"].get(sides, -1)
        if t < 0:
            raise Uncovered(f"a d{sides}")
        return <int>t

    cdef int _use_item(self, int u, int slot, int t, int pay) except -1:
        """actions._use_item."""
        cdef Fighter *F = &self.f[u]
        cdef int item = F.item[slot]
        cdef Item *it = &self.items[item]
        cdef int cost = it.cost_self if t == u else it.cost, borrowed, owed
        if t == u:
            self._c(25)   # Item.ap on oneself
        F.count[slot] -= 1
        if pay == 2:
            owed = cost - F.ap
            self._spent(u, F.ap, 0, 0)
            F.carry = 1
            F.carry_item = slot
            F.carry_target = t
            F.carry_owed = owed
            return self._after_action(u)
        borrowed = (cost - F.ap if cost - F.ap > 0 else 0) if pay == 1 else 0
        self._spent(u, cost, F.ap - cost + borrowed, borrowed)
        return self._item_effects(u, t, item)

    cdef int _finish_carried(self, int u) except -1:
        """actions.finish_carried."""
        cdef Fighter *F = &self.f[u]
        cdef int owed = F.carry_owed, t = F.carry_target, item = F.item[F.carry_item]
        if owed > F.ap:
            F.carry_owed = owed - F.ap
            self._spent(u, F.ap, 0, 0)
            return self._after_action(u)
        self._spent(u, owed, F.ap - owed, 0)
        F.carry = 0
        if self.f[t].dead:
            return self._after_action(u)
        return self._item_effects(u, t, item)

    cdef int _item_effects(self, int u, int t, int item) except -1:
        """actions._item_effects (ARC-31 signed, ARC-26 smallest)."""
        cdef Fighter *T = &self.f[t]
        cdef Item *it = &self.items[item]
        cdef int degree = 0, success = 1, target, face, plus, amount, health, n, steps, k
        cdef int had_wounds = self._nwounds(t) > 0
        cdef int t_health = T.health
        self._c(26)
        if it.check:
            self._c20(u, SK_MEDICINE)   # actions._medicine
            target = self.f[u].sk[SK_MEDICINE]
            self._label()
            self._id(u)
            self._lit(b"'s ")
            self._check_text_medicine(target, self._check_die(u, SK_MEDICINE))
            self._lit(b" (")
            self._put(it.name_off, it.name_len)
            self._lit(b" on ")
            self._id(t)
            self._lit(b")")
            face = self._roll(self.d20 if self._check_die(u, SK_MEDICINE) == 20 else self.d10)
            self._read(face, target, 5, &success, &degree)
            if not success:
                self._c(31)
            if not success and (self.r31 or not it.plus):   # ruling ARC-31
                if it.raise_fail or self.r31 == 1:   # ruling ARC-31 (harm: every item)
                    steps = 1 if self.r31 == 2 else (-degree if -degree > 1 else 1)
                    if had_wounds:
                        for k in range(steps):
                            self._raise_step(t)
                return self._after_action(u)
        plus = degree if it.plus else 0
        if it.heal_n > 0:
            self._label()
            self._put(it.name_off, it.name_len)
            self._lit(b": health regained (")
            self._put(it.heal_off, it.heal_len)
            if plus:
                self._int(plus, True)
            self._lit(b")")
            amount = self._roll(it.heal_table) + plus
            if amount > 0:
                health = t_health + amount
                if health > T.maxh:
                    health = T.maxh
                T.health = health
                if health > 0 and (not T.conscious or T.falling) and not T.dead:
                    T.conscious = 1   # Woke
                    T.falling = 0
        if it.rm_kind != 0 and had_wounds:
            if it.rm_kind == 1:
                n = it.rm_value
            else:
                self._label()
                self._put(it.name_off, it.name_len)
                self._lit(b": wound steps removed (")
                self._put(it.rm_off, it.rm_len)
                if plus:
                    self._int(plus, True)
                self._lit(b")")
                n = self._roll(it.rm_table)
            n += plus
            self._remove_steps(t, n if n > 0 else 0)
        return self._after_action(u)

    cdef void _check_text_medicine(self, int target, int sides) noexcept:
        self._lit(b"Medicine ")
        self._int(target, False)
        self._lit(b"\xc2\xba5 on a d")
        self._int(sides, False)

    cdef int _suppress(self, int u, int ap) except -1:
        """actions._suppress (ARC-32 declared)."""
        cdef Fighter *F = &self.f[u]
        cdef Weapon *w = &self.weapons[F.wbase + F.hand]
        cdef int target = F.sk[w.skill] + self._aim_mod(w, 0), sides, face, success, degree
        cdef int jammed = 0
        self._c20(u, w.skill)
        if w.hw >= 0:
            success = 1
            degree = w.hw
        else:
            sides = self._check_die(u, w.skill)
            self._label()
            self._id(u)
            self._lit(b" suppresses (")
            self._check_text(w.skill_off, w.skill_len, target, w.inc, sides)
            self._lit(b")")
            face = self._roll(self.d20 if sides == 20 else self.d10)
            self._read(face, target, w.inc, &success, &degree)
            if w.fail0 > 0 and face >= w.fail0:
                jammed = self._jams(u, w)
        self._spent(u, ap, F.ap - ap, 0)
        if jammed:
            F.jammed |= 1 << F.hand
        if success:
            F.watch = 2
            F.watch_ap = ap
            F.watch_aim = 0
            F.preset = 1
            F.preset_degree = degree
        return self._end_turn(u)

    cdef int _move(self, int u, int to, int mode) except -1:
        """movement.move_process: pay, then each square and the watchers who fire on it."""
        cdef int path[MAXL]
        cdef int cost, n, i, k, g, wi, done
        cdef Fighter *G
        n = self._path(u, to, mode, path, &cost)
        self._spent(u, cost, self.f[u].ap - cost, 0)
        for i in range(n):
            # Stepped
            if self.occ[self.f[u].pos] == u:
                self.occ[self.f[u].pos] = -1
            self.f[u].pos = path[i]
            self.occ[path[i]] = u
            self.f[u].moves += 1
            done = 0
            while True:
                if not self._in_action(u):
                    return 0
                g = -1
                for k in range(self.norder):
                    wi = self.order[k]
                    G = &self.f[wi]
                    if (G.watch == 0 or not self._in_action(wi) or G.side == self.f[u].side
                            or not G.nw or not self._can_fire(wi, G.hand)):
                        continue
                    if self.grid:
                        self._c(29)   # movement._watchers: sees, for every watcher
                    if (done >> wi) & 1:
                        continue
                    if self._sees(wi, u) and self._reaches(wi, u, G.wbase + G.hand):
                        g = wi
                        break
                if g < 0:
                    break
                G = &self.f[g]
                done |= 1 << g
                if G.watch == 1:
                    k = G.watch_aim
                    G.watch = 0   # WatchUsed(0)
                    G.preset = 0
                    self._attack(g, u, k, 0, 1, 0)
                else:
                    k = G.preset
                    if G.watch_ap - 1 <= 0:
                        G.watch = 0
                        G.preset = 0
                    else:
                        G.watch_ap -= 1
                    self._attack(g, u, 0, 0, 2, k)
        return 0

    cdef int _act(self, int u, int k) except -1:
        """actions.resolve of option ``k``."""
        cdef int rest[MAXF]
        cdef int kind = self.ok[k], n = 0, i, j
        cdef Fighter *F = &self.f[u]
        cdef Weapon *w
        cdef int64_t now, moved
        if kind == A_ATTACK:
            self._attack(u, self.oa[k], self.ob[k], self.oc[k], 0, 0)
            return self._after_action(u)
        if kind == A_MOVE:
            self._move(u, self.oa[k], self.ob[k])
            return self._after_action(u)
        if kind == A_REPOS:
            now = self.rng_[u * self.nf + self.oa[k]]
            moved = (self.oc[k] // _PER_AP[self.ob[k]]) * _STEP_MM[self.ob[k]]
            if self.od[k]:
                now = now + moved
            else:
                now = now - moved if now > moved else 0
            self._spent(u, self.oc[k], F.ap - self.oc[k], 0)
            self.rng_[u * self.nf + self.oa[k]] = now
            self.rng_[self.oa[k] * self.nf + u] = now
            F.moves += 1
            return self._after_action(u)
        if kind == A_RELOAD:
            return self._reload(u)
        if kind == A_SWAP:
            w = &self.weapons[F.wbase + self.oa[k]]
            self._spent(u, w.swap, F.ap - w.swap, 0)
            F.hand = self.oa[k]
            return self._after_action(u)
        if kind == A_USE:
            return self._use_item(u, self.oa[k], self.ob[k], self.oc[k])
        if kind == A_WATCH:
            if self.oa[k] == 2:
                self._c(32)
            if self.oa[k] == 2 and not self.r32:   # ruling ARC-32 (declared)
                return self._suppress(u, self.ob[k])
            self._spent(u, self.ob[k], F.ap - self.ob[k], 0)
            F.watch = self.oa[k]
            F.watch_ap = self.ob[k]
            F.watch_aim = self.oc[k]
            F.preset = 0
            return self._end_turn(u)
        if kind == A_HOLD:
            # Held
            for i in range(self.nqueue):
                if self.queue[i] != u:
                    rest[n] = self.queue[i]
                    n += 1
            j = 0
            while rest[j] != self.oa[k]:
                j += 1
            self.nqueue = 0
            for i in range(n):
                self.queue[self.nqueue] = rest[i]
                self.nqueue += 1
                if i == j:
                    self.queue[self.nqueue] = u
                    self.nqueue += 1
            self._settle()
            return 0
        return self._end_turn(u)

    # -- the round (flow.py) ----------------------------------------------------------------------

    cdef int _finished(self, int *winner) noexcept:
        cdef int standing = 0, i
        for i in range(self.nf):
            if self._in_action(i):
                standing |= 1 << self.f[i].side
        return last_side_standing(standing, self.nsides, winner)

    cdef int _pending(self, int *who) noexcept:
        """flow.pending."""
        cdef int i, u
        if self._finished(who):
            return P_FINISHED
        if self.phase == PH_SETUP:
            for i in range(self.nf):
                if self._in_action(i) and not self.f[i].checked:
                    who[0] = i
                    return P_INIT_CHECK
            return P_INIT_ORDER
        if self.phase == PH_ROUND and self.nqueue > 0:
            u = self.queue[0]
            who[0] = u
            if not self.f[u].conscious:
                return P_UNCONSCIOUS
            if self.f[u].carry and self.f[u].ap > 0:
                return P_CARRIED
            if self.f[u].ap <= 0:
                return P_NO_AP
            return P_CHOOSE
        if self.phase == PH_ROUND:
            self._c(12)   # flow._to_bleed
            for i in range(self.nf if not self.r12 else 0):   # ruling ARC-12 (round)
                if not self.f[i].dead and self._nwounds(i) > 0 and not (self.bled >> i) & 1:
                    who[0] = i
                    return P_BLEED
            return P_END_ROUND
        if self.round >= self.max_rounds:
            who[0] = -1
            return P_FINISHED
        return P_NEW_ROUND

    cdef int _initiative_check(self, int u) except -1:
        """flow.initiative_check: the d20 and the first load of die-capacity guns (ARC-23)."""
        cdef Fighter *F = &self.f[u]
        cdef int face, success, degree, j
        cdef Weapon *w
        self._c(23)
        self._label()
        self._lit(b"initiative of ")
        self._id(u)
        self._lit(b" (d20 under ")
        self._int(F.init_target, False)
        self._lit(b")")
        face = self._roll(self.d20)
        self._read(face, F.init_target, 5, &success, &degree)
        F.checked = 1
        F.init_roll = face
        F.init_success = success
        F.init_degree = degree
        for j in range(F.nw):
            w = &self.weapons[F.wbase + j]
            if w.capdie > 0 and not self.r23:   # ruling ARC-23 (rolled; maximum: no load)
                self._label()
                self._id(u)
                self._lit(b"'s ")
                self._put(w.name_off, w.name_len)
                self._lit(b" magazine (1d")
                self._int(w.capdie, False)
                self._lit(b")")
                F.rounds[j] = self._roll(self._die_table(w.capdie))
                F.jammed &= ~(1 << j)
        return 0

    cdef bint _before(self, int a, int b) noexcept:
        """flow.initiative_order's key (ARC-1 seed, ARC-17 listed): a sorts before b."""
        cdef Fighter *A = &self.f[a]
        cdef Fighter *B = &self.f[b]
        cdef int ka0, ka1, ka2, kb0, kb1, kb2
        cdef int seed = not self.r1   # ruling ARC-1 (seed, or roll: the degrees count 0)
        if A.init_success:
            ka0, ka1, ka2 = 0, A.init_degree * seed, -A.init_roll
        else:
            ka0, ka1, ka2 = 1, -A.init_degree * seed, A.init_roll
        if B.init_success:
            kb0, kb1, kb2 = 0, B.init_degree * seed, -B.init_roll
        else:
            kb0, kb1, kb2 = 1, -B.init_degree * seed, B.init_roll
        if ka0 != kb0:
            return ka0 < kb0
        if ka1 != kb1:
            return ka1 < kb1
        if ka2 != kb2:
            return ka2 < kb2
        return a < b

    cdef int _initiative(self) except -1:
        """flow.initiative: the order, the d10s, then round 1."""
        cdef int n = 0, i, j, x
        self._c(1)
        for i in range(self.nf):
            if self.f[i].checked:
                self.order[n] = i
                n += 1
        for i in range(1, n):
            x = self.order[i]
            j = i - 1
            while j >= 0 and self._before(x, self.order[j]):
                self.order[j + 1] = self.order[j]
                j -= 1
            self.order[j + 1] = x
        self.norder = n
        self.d10set = 0
        for i in range(n):
            if self.f[self.order[i]].init_success:
                self.d10set |= 1 << self.order[i]
        self._round_began(1)
        return 0

    cdef void _round_began(self, int r) noexcept:
        """RoundBegan: everyone in action takes a turn, but the surprised sides in round 1
        under ARC-18 skip (ArcState.takes_turn_in)."""
        cdef int i, u, left
        self.round = r
        self.phase = PH_ROUND
        self.bled = 0
        for i in range(self.nf):
            if not self.f[i].dead:
                left = self.f[i].speed - self.f[i].debt
                self.f[i].ap = left if left > 0 else 0
                self.f[i].debt = 0
        self.nqueue = 0
        for i in range(self.norder):
            u = self.order[i]
            if self._in_action(u):
                if r == 1 and self.surprise >= 0:
                    self._c(18)   # takes_turn_in
                    if self.r18 == 0 and self.f[u].side != self.surprise:
                        continue
                self.queue[self.nqueue] = u
                self.nqueue += 1
        self._settle()

    cdef int _bleed(self, int u) except -1:
        """steps.bleed: the wound dice rolled and their total lost (at the end of the round,
        or of the turn: ARC-12)."""
        cdef Fighter *F = &self.f[u]
        cdef int total
        if self._nwounds(u) > 200:   # (the key stays within its buffer)
            raise Uncovered("more than 200 wound dice on one character")
        self._label()
        self._id(u)
        self._lit(b"'s wound dice (")
        self._wounds_text(u)
        self._lit(b")")
        total = self._wound_roll(u)
        F.health -= total
        F.taken += total
        self.bled |= 1 << u
        return 0

    cdef void _wounds_text(self, int u) noexcept:
        cdef int j, c, first = 1
        for j in range(4, -1, -1):
            for c in range(self.f[u].wounds[j]):
                if not first:
                    self._lit(b"+")
                first = 0
                self._lit(b"d")
                self._int(_WDIE[j], False)

    cdef int _wide_wound_roll(self, int u) except -999999:
        """One roll of armor.wound_dist whose total weight needs more than 64 bits (or whose
        sums pass the table): the reference's own distribution and exact sampler (Python's
        integers) on the roll's key."""
        cdef int j
        self._lit(b"|")
        self.key_count()
        dice = []
        for j in range(5):
            dice.extend([_WDIE[j]] * self.f[u].wounds[j])
        return int(_wound_dist(dice).sample(KeyedRng(bytes(self.key[:self.kn]))))

    cdef int _wound_roll(self, int u) except -999999:
        """One roll of armor.wound_dist (the dice summed exactly: dense, ascending)."""
        cdef uint64_t weights[1024]
        cdef uint64_t nxt[1024]
        cdef uint64_t total = 1, cum, hi
        cdef int lo_out = 0, span = 1, j, c, s, i, f, k, slot_n
        cdef Fighter *F = &self.f[u]
        for j in range(4, -1, -1):   # a sum too wide for the table or for 64 bits
            for c in range(F.wounds[j]):
                s = _WDIE[j]
                if span + s > 1024 or total > (<uint64_t>0xFFFFFFFFFFFFFFFF) // <uint64_t>s:
                    return self._wide_wound_roll(u)
                total *= s
                span += s - 1
        total = 1
        span = 1
        weights[0] = 1
        for j in range(4, -1, -1):
            for c in range(F.wounds[j]):
                s = _WDIE[j]
                total *= s
                for i in range(span + s - 1):
                    nxt[i] = 0
                for i in range(span):
                    for f in range(s):
                        nxt[i + f] += weights[i]
                span += s - 1
                lo_out += 1
                for i in range(span):
                    weights[i] = nxt[i]
        # the keyed draw (as _draw, on this table)
        self._lit(b"|")
        self.key_count()
        hi = keyed_below(self.key, self.kn, total)
        cum = 0
        for i in range(span):
            cum += weights[i]
            if cum > hi:
                return lo_out + i
        return lo_out + span - 1

    cdef int key_count(self) except -1:
        """The slot's count appended to the key (the first half of _draw)."""
        cdef int slot_n = self.kn - self.kplen, h, i, n, k
        cdef uint64_t hv = _fnv(self.key + self.kplen, slot_n)
        h = <int>(hv & (KEYCAP - 1))
        while True:
            if self.hlen[h] == 0:
                if self.nused >= self.roll_cap or self.arena_n + slot_n > ARENA:
                    raise Uncovered(f"more than {self.roll_cap} distinct rolls in one battle")
                self.hkeys[h] = hv
                self.hoff[h] = self.arena_n
                self.hlen[h] = slot_n
                for i in range(slot_n):
                    self.arena[self.arena_n + i] = self.key[self.kplen + i]
                self.arena_n += slot_n
                self.hcount[h] = 0
                self.hused[self.nused] = h
                self.nused += 1
                break
            if self.hkeys[h] == hv and self.hlen[h] == slot_n:
                n = 1
                for i in range(slot_n):
                    if self.arena[self.hoff[h] + i] != self.key[self.kplen + i]:
                        n = 0
                        break
                if n:
                    break
            h = (h + 1) & (KEYCAP - 1)
        k = self.hcount[h]
        self.hcount[h] = k + 1
        self._int(k, False)
        if _TRACE_ON:
            _TRACE.append(bytes(self.key[:self.kn]))
        return 0

    cdef void _end_of_round(self) noexcept:
        """flow.end_of_round: the sweep (steps.sweep_events), then RoundEnded."""
        cdef int i
        for i in range(self.nf):
            self._sweep(i)
        self.phase = PH_ENDED
        self.nqueue = 0

    # -- the battle (sim.play._run, Battle.step) --------------------------------------------------

    def hold(self, str buffer, int most):
        """Let ``buffer`` ("rolls": the distinct keyed rolls of a battle) hold at most ``most``
        entries (up to its LIMITS size), for the tests that show it is checked before it is
        written: a battle that needs more is left to the reference, naming the number."""
        if buffer != "rolls" or not 0 <= most <= LIMITS[buffer]:
            raise ValueError(f"{buffer}: between 0 and its limit")
        self.roll_cap = most

    cdef inline void _actor(self, int *span) noexcept nogil:
        """The step's actor, as the next rolls' keys name it (``_label``): where its text
        starts and how long it is."""
        self.actor_off, self.actor_len = span[0], span[1]

    cdef int _step(self, int kind, int who) except -1:
        """One step of the battle (Battle.step), of the kind _pending answered."""
        cdef int n, k, u
        if kind == P_INIT_CHECK:
            self._actor(self.actor_init[who])
            self._initiative_check(who)
        elif kind == P_INIT_ORDER:
            self._initiative()
        elif kind == P_CARRIED:
            u = who
            k = u * MAXI + self.f[u].carry_item
            self._actor(self.actor_finish[k])
            self._finish_carried(u)
        elif kind == P_NO_AP:
            self._actor(self.actor_no_ap[who])
            self._end_turn(who)
        elif kind == P_UNCONSCIOUS:
            self._actor(self.actor_out[who])
            self._unconscious_turn(who)
        elif kind == P_CHOOSE:
            u = who
            self._actor(self.actor_unit[u])
            n = self._legal(u)
            k = self._choose(u, n)
            self._act(u, k)
        elif kind == P_BLEED:
            self._actor(self.actor_wound[who])
            self._bleed(who)
        elif kind == P_END_ROUND:
            self._end_of_round()
        elif kind == P_NEW_ROUND:
            self._round_began(self.round + 1)
        else:
            raise Uncovered("an unconscious character's turn")
        return 0

    cdef object _play(self, tuple policies, bytes prefix, object seed, object index,
                      int64_t max_steps):
        """Battle ``index`` of ``seed`` (KernelRuntime.play): (winner side or -1, finished,
        rounds, steps, per fighter (dead, conscious, health, armor, wounds, ap, hand, dealt,
        taken, moves), the rulings consulted: bit n - 1 for ARC-n), or raises Uncovered."""
        cdef int i, kind, who = -1, steps = 0
        cdef bint finished
        if len(prefix) > 64:
            raise Uncovered("a seed or index too long for the kernel's keys")
        for i in range(len(prefix)):
            self.key[i] = prefix[i]
        self.kplen = len(prefix)
        for i in range(self.nused):
            self.hlen[self.hused[i]] = 0
        self.nused = 0
        self.arena_n = 0
        if not self._new_battle(seed, index):
            raise Uncovered("a seed or battle index beyond 64 bits")
        for i in range(self.nsides):
            self.pol[i] = policies[i]
        for i in range(self.nf):
            self.f[i] = self.init_f[i]
        for i in range(self.nf * self.nf):
            self.rng_[i] = self.init_range[i]
        for i in range(self.N):
            self.occ[i] = -1
        if self.grid:
            for i in range(self.nf):
                self.occ[self.f[i].pos] = i
        self.round = 0
        self.phase = PH_SETUP
        self.fresh = 1
        self.d10set = 0
        self.bled = 0
        self.nqueue = 0
        self.norder = 0
        self.cons = 0
        steps = self._run(max_steps, &who)
        kind = self._pending(&who)
        finished = kind == P_FINISHED
        units = [(self.f[i].dead, self.f[i].conscious, self.f[i].health,
                  tuple(self.f[i].armor[k] for k in range(self.f[i].narmor)),
                  tuple(_WDIE[j] for j in range(4, -1, -1) for _ in range(self.f[i].wounds[j])),
                  self.f[i].ap, self.f[i].hand, self.f[i].dealt, self.f[i].taken,
                  self.f[i].moves) for i in range(self.nf)]
        return (who if finished else -1), finished, self.round, steps, units, self.cons

    # -- a battle from its start with scripted choices and dice (testing.both) -----------------

    cdef object _scripted(self):
        return ScriptedKernel(self.tables)


cdef class ScriptedKernel(Kernel):
    """The kernel with scripted choices (each side plays "random", its generator replaced by
    the script) and scripted draws (kernel_draws.pxi's _ScriptedDice): Kernel.run_scripted."""
    cdef _ScriptedDice scripted

    cdef int _draw(self, int table) except -2:
        cdef int i, n
        cdef int64_t a
        cdef uint64_t previous = 0
        self._lit(b"|")
        self.key_count()
        a = self.tstart[table]
        n = <int>self.tlen[table]
        if n > 1 and self.ttotal[table] == 0:
            if self.script_error is None:
                self.script_error = "a roll of more than 64 bits of weight: not scripted"
            return 0
        outcomes, weights = [], []
        for i in range(n):
            outcomes.append(<int>self.tout[a + i])
            weights.append(self.tcum[a + i] - previous)
            previous = self.tcum[a + i]
        before = len(self.scripted.rolls)
        self.scripted.take(bytes(self.key[:self.kn]), 0, outcomes, weights)
        if len(self.scripted.rolls) == before:  # not answered: the error says why
            return 0
        return self.scripted.rolls[before][4]  # its place (no negative index here)

    cdef int _wound_roll(self, int u) except -999999:
        if self.script_error is None:
            self.script_error = "a wound roll (its table is built as it is rolled): not scripted"
        return 0

    def run_script(self, list choices, list outcomes, int64_t max_steps):
        self.scripted = _ScriptedDice(outcomes, True)
        return self._run_script(self.scripted, choices,
                                tuple(RANDOM for _ in range(self.nsides)), max_steps)
