# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled simulation kernel of Last Odyssey: the reference's battle on plain data.

The reference is the Python rules (``flow.py``, ``resolve.py``, ``targeting.py``,
``hitdie.py``, ``state.py``, the greedy valuation of ``policy.py``, the policies of
``tactica.engine.policies`` and the keyed dice of ``tactica.engine.streams``); every function here names
the function it mirrors. ``kernel.py`` builds the tables at prepare time from the reference's
own content packs (abilities, items, enemies, characters, the element chart, the status
thresholds, the bonus track) and answers "not covered" for what this loop does not play.
Characters are C structs; the dice are BLAKE2b words of the same keys as the reference's and
the sides' policy generators numpy's PCG64, both drawn natively (``kernel_draws.pxi``).
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memcpy as _memcpy

include "tactica/engine/kernel_draws.pxi"
include "tactica/engine/kernel_runtime.pxi"

DEF MAXF = 64        # characters (the game allows 30; masks are 64-bit)
DEF MAXA = 24        # abilities of one character
DEF MAXAB = 64       # abilities and items of a battle (once-a-battle bits fit 64)
DEF MAXI = 16        # items one character carries
DEF MAXW = 4         # weapons of one character
DEF NST = 9          # statistics (content.STATS)
DEF MAXSH = 16       # Shells at once (one per element)
DEF MAXEL = 16       # elements, colorless included
DEF MAXQ = 256       # turns in a phase's queue
DEF MAXOPT = 4096    # legal actions at once (kernel.py checks the bound)
DEF MAXS = 8         # sides
DEF MAXST = 32       # statuses
DEF MAXTRACK = 32    # steps of the bonus track
DEF MAXSLOT = 900    # characters of one dice key's slot

#: The kernel's fixed limits, by name: ``Kernel(tables)`` answers a scenario past one of them
#: with KernelLimit naming it (the reference plays). The buffers a battle fills are sized from
#: bounds checked here: legal actions (``max_options``, kernel._options_bound), the turn
#: queue (each character once, and once more for a held turn: 2 x characters), held turns
#: (one per character and phase) and Shells (one per element).
LIMITS = {
    "characters": MAXF,
    "sides": MAXS,
    "abilities": MAXA,             # of one character
    "battle abilities": MAXAB,     # abilities and items of a battle
    "items": MAXI,                 # carried by one character
    "weapons": MAXW,               # of one character
    "shells": MAXSH,               # of one character at once
    "elements": MAXEL,
    "statuses": MAXST,
    "track": MAXTRACK,             # steps of the bonus track
    "actions": MAXOPT,             # legal actions at once
    "queue": MAXQ,                 # turns in a phase's queue
    "outcomes": MAX_POOL_OUTCOMES,  # totals of the GM's initiative roll
    "slot": MAXSLOT,
}

# content.STATS order
DEF PATK = 0
DEF MATK = 1
DEF PDEF = 2
DEF MDEF = 3
DEF EVA = 4
DEF RES = 5
DEF PACC = 6
DEF MACC = 7
DEF SACC = 8

# Ability.reach
DEF R_NONE = 0
DEF R_SELF = 1
DEF R_MELEE = 2
DEF R_RANGED = 3
DEF R_ALLY = 4
DEF R_ALLY_OTHER = 5
DEF R_CHARGE = 6
# Ability.area
DEF AREA_ONE = 0
DEF AREA_FRONT = 1
DEF AREA_ALL = 2
# Ability.attack / TargetSetup.kind
DEF K_PHYSICAL = 0
DEF K_MAGICAL = 1
DEF K_STATUS = 2
DEF K_NONE = 3
# status thresholds that are not numbers
DEF IMMUNE = -100000
DEF ALWAYS = 100000

# passives (bits)
DEF P_BODY_ARMOR = 1
DEF P_FAITHFUL = 2
DEF P_REVENGE = 4
DEF P_RETREAT = 8
DEF P_QUICK = 16
DEF P_STUPID = 32

# keyed dice labels (per acting character)
DEF L_HIT = 0
DEF L_REVENGE = 1
DEF L_QUICK = 2
DEF L_COIN = 3
DEF L_STOLEN = 4
# then one label per declared reaction's hit die (``hit die (<name>)``), up to NLAB in all
DEF NLAB = 13

# a declared reaction's trigger (content.TRIGGERS)
DEF TR_NONE = 0
DEF TR_MISSED = 1
DEF TR_HIT = 2
DEF TR_ATTACKED = 3

# actions (records.py)
DEF A_ABILITY = 0
DEF A_ITEM = 1
DEF A_MOVE = 2
DEF A_HOLD = 3
DEF A_SWAP = 4
DEF A_PICKUP = 5
DEF A_FLEE = 6
DEF A_END = 7

# phases
DEF PH_SETUP = 0
DEF PH_FIRST = 1
DEF PH_ACTION = 2
DEF PH_EFFECT = 3
DEF PH_PARADIGM = 4
DEF PH_END = 5

# flow.pending
DEF PD_FINISHED = 0
DEF PD_FIRST_STRIKE = 1
DEF PD_INITIATIVE = 2
DEF PD_PASS = 3
DEF PD_CHOOSE = 4
DEF PD_EFFECT = 5
DEF PD_ROUND = 6

DEF GREEDY = 0
DEF RANDOM = 1

DEF DOWN_BONUS = 8.0
DEF MP_WEIGHT = 0.25


cdef struct Ab:
    int is_action, reach, area, attack, element, nel
    int els[MAXEL]
    int64_t mnum, mden, fnum, fden
    int has_full, status, mp, ap, ammo, once, basic, damage, buff, debuff
    int heal, restore_mp, user_mp, hurt, shell, gain_ammo, steal, disarm
    uint32_t cure
    int user_dies, restores
    int trigger, use, label  # a declared reaction: when, the ability it uses, its die's label


cdef struct Fighter:
    int side, player, ap_full, hp, mp, max_hp, max_mp, shell_cap
    int nsh
    int sh_el[MAXSH]
    int sh_amt[MAXSH]
    uint32_t statuses
    int track[NST]
    int nitems
    int items[MAXI]
    int equipped, dropped, ammo
    uint64_t used_once
    int body_armor_spent, downed, knocked_out, held_ko, fled
    int row                  # 0 front, 1 back (removed from the rows when downed or fled)
    int dealt, taken, moves
    int cnt[NLAB]            # keyed dice counts of this character's steps, by label


cdef struct Static:
    int base[NST]
    int nweap
    int wbonus[MAXW][NST]
    int element, initiative, nab, passives, revenge, steal, nguards
    int ab[MAXA]
    int guards[MAXF]


cdef struct Turn:
    int unit, ap, extra


cdef struct Opt:
    int kind, a, target, el, ko
    uint64_t mask            # a multi-target ability's targets (fighters' order)


cdef struct Setup:
    int kind, accuracy, evasion, threshold, attack, defense
    int64_t mnum, mden
    int knockout, damage, shell, hp, body_armor, auto_fail


cdef struct Outcome:
    int hit, gone, damage, to_shell, to_hp, shell, hp, broken, downed, blocked


cdef inline int _floordiv(int a, int b) noexcept nogil:
    cdef int q = a // b
    if (a % b != 0) and ((a < 0) != (b < 0)):
        q -= 1
    return q


cdef inline int64_t _floordiv64(int64_t a, int64_t b) noexcept nogil:
    cdef int64_t q = a // b
    if (a % b != 0) and ((a < 0) != (b < 0)):
        q -= 1
    return q


cdef class Kernel(KernelRuntime):
    """One scenario's tables (see kernel.py) and the battle loop."""
    # content
    cdef int nf, nsides, nab, nel, max_rounds, first_strike
    cdef Ab abs[MAXAB]
    cdef Static st[MAXF]
    cdef Fighter init_f[MAXF]
    cdef int init_round
    cdef int64_t chart_num[MAXEL * MAXEL]
    cdef int64_t chart_den[MAXEL * MAXEL]
    cdef int status_el[32]
    cdef int thr[32 * MAXEL]
    cdef double worth[32]
    cdef int track_vals[32]
    cdef int track_first[32]
    cdef int ntrack
    cdef int item_rank[MAXAB]
    cdef uint32_t B_BURNED, B_CONFUSED, B_PETRIFIED, B_BLINDED, B_FROST, B_FATIGUED
    cdef uint32_t B_PARALYZED, B_SILENCED, B_POISONED
    cdef int attack_threshold, first_strike_ap, held_turn_ap, poison_divisor
    cdef int call_lo, call_hi, likely, boost_num, boost_den
    cdef Pool init_pool
    cdef Pool d10
    cdef Pool coin
    # rulings
    cdef int die_only, rounding, call_policy, single_shell, one_hits, confused_anyone
    cdef int same_damage, costed, anyone, shell_first, idle, user_full, any_hit, listed_first
    cdef int random_steal
    # the rulings a battle consulted (tactica.engine.consulted): bit i is the game's declared
    # ruling i; each mask below holds the rulings the reference reads at one point
    cdef uint64_t consulted
    cdef uint64_t c_setup, c_hit, c_reach, c_idle, c_calls, c_shells, c_faithful, c_steal
    cdef uint64_t c_react, c_poison, c_first, c_confused
    cdef list slots            # per character: the five keyed slots (bytes)
    cdef bytes init_slot
    # battle state
    cdef Fighter f[MAXF]
    cdef int round, phase
    cdef Turn queue[MAXQ]
    cdef int qn, ap
    cdef int held_holder[MAXQ]
    cdef int held_after[MAXQ]
    cdef int nheld
    cdef uint64_t held_by
    cdef int order[MAXF]
    cdef int actor
    cdef Opt opts[MAXOPT]
    cdef Opt scratch[MAXOPT]
    cdef double values[MAXOPT]
    cdef int top[MAXOPT]
    cdef int policies[MAXS]
    cdef _Dice dice
    cdef object trace

    def __init__(self, dict t):
        cdef int i, j, k
        cdef Static *s
        cdef Fighter *g0
        self.tables = t
        self.trace = None
        self.nf = len(t["fighters"])
        self.nsides = t["nsides"]
        self.nab = len(t["abilities"])
        self.nel = t["nel"]
        if 2 * MAXF > MAXQ:  # the turn queue: every character, and each one's held turn
            raise KernelLimit("a turn queue shorter than twice the characters")
        within(self.nf, MAXF, "characters")
        within(self.nsides, MAXS, "sides")
        within(self.nab, MAXAB, "abilities and items in one battle")
        if self.nel > MAXEL or self.nel > MAXSH:
            raise KernelLimit(f"more than {MAXEL} elements")
        within(t["max_options"], MAXOPT, "legal actions at once")
        within(len(t["status_el"]), MAXST, "statuses")
        self.max_rounds = t["max_rounds"]
        self.first_strike = t["first_strike"]
        for i, a in enumerate(t["abilities"]):
            self.abs[i].is_action = a["is_action"]
            self.abs[i].reach = a["reach"]
            self.abs[i].area = a["area"]
            self.abs[i].attack = a["attack"]
            self.abs[i].element = a["element"]
            self.abs[i].nel = len(a["elements"])
            if self.abs[i].nel > MAXEL:
                raise KernelLimit(f"an ability of more than {MAXEL} elements")
            for j, e in enumerate(a["elements"]):
                self.abs[i].els[j] = e
            self.abs[i].mnum, self.abs[i].mden = a["mult"]
            self.abs[i].has_full = a["full"] is not None
            self.abs[i].fnum, self.abs[i].fden = a["full"] or (0, 1)
            self.abs[i].status = a["status"]
            self.abs[i].mp = a["mp"]
            self.abs[i].ap = a["ap"]
            self.abs[i].ammo = a["ammo"]
            self.abs[i].once = a["once"]
            self.abs[i].basic = a["basic"]
            self.abs[i].damage = a["damage"]
            self.abs[i].buff = a["buff"]
            self.abs[i].debuff = a["debuff"]
            self.abs[i].heal = a["heal"]
            self.abs[i].restore_mp = a["restore_mp"]
            self.abs[i].user_mp = a["user_mp"]
            self.abs[i].hurt = a["hurt"]
            self.abs[i].shell = a["shell"]
            self.abs[i].gain_ammo = a["gain_ammo"]
            self.abs[i].steal = a["steal"]
            self.abs[i].disarm = a["disarm"]
            self.abs[i].cure = a["cure"]
            self.abs[i].user_dies = a["user_dies"]
            self.abs[i].restores = a["restores"]
            self.abs[i].trigger = a["trigger"]
            self.abs[i].use = a["use"]
            self.abs[i].label = a["label"]
            if self.abs[i].label >= NLAB or self.abs[i].use >= len(t["abilities"]):
                raise ValueError("a declared reaction out of the kernel's tables")
            self.item_rank[i] = a["rank"]
        for i, fd in enumerate(t["fighters"]):
            s = &self.st[i]
            for k in range(NST):
                s.base[k] = fd["base"][k]
            s.nweap = len(fd["weapons"])
            if s.nweap > MAXW:
                raise KernelLimit(f"a character with more than {MAXW} weapons")
            if len(fd["abilities"]) > MAXA:
                raise KernelLimit(f"a character with more than {MAXA} abilities")
            if len(fd["items"]) > MAXI:
                raise KernelLimit(f"a character carrying more than {MAXI} items")
            if len(fd["guards"]) > MAXF:
                raise KernelLimit(f"a character guarding more than {MAXF} others")
            for j, w in enumerate(fd["weapons"]):
                for k in range(NST):
                    s.wbonus[j][k] = w[k]
            s.element = fd["element"]
            s.initiative = fd["initiative"]
            s.nab = len(fd["abilities"])
            for j, a in enumerate(fd["abilities"]):
                s.ab[j] = a
            s.passives = fd["passives"]
            s.revenge = fd["revenge"]
            s.steal = fd["steal"]
            s.nguards = len(fd["guards"])
            for j, g in enumerate(fd["guards"]):
                s.guards[j] = g
            g0 = &self.init_f[i]
            g0.side = fd["side"]
            g0.player = fd["player"]
            g0.ap_full = fd["ap_full"]
            g0.hp = fd["hp"]
            g0.mp = fd["mp"]
            g0.max_hp = fd["max_hp"]
            g0.max_mp = fd["max_mp"]
            g0.shell_cap = fd["shell_cap"]
            g0.nsh = len(fd["shells"])
            if g0.nsh > MAXSH:
                raise KernelLimit(f"a character with more than {MAXSH} Shells")
            if len({e for e, _ in fd["shells"]}) != g0.nsh:
                # a Shell gained keeps one per element: at most one per element, so at most
                # the pack's elements (MAXEL, checked above), fit the Shells' arrays
                raise KernelLimit("a character with two Shells of one element")
            for j, (e, amount) in enumerate(fd["shells"]):
                g0.sh_el[j] = e
                g0.sh_amt[j] = amount
            g0.statuses = fd["statuses"]
            for k in range(NST):
                g0.track[k] = fd["track"][k]
            g0.nitems = len(fd["items"])
            for j, it in enumerate(fd["items"]):
                g0.items[j] = it
            g0.equipped = fd["equipped"]
            g0.dropped = -1
            g0.ammo = fd["ammo"]
            g0.used_once = fd["used_once"]
            g0.body_armor_spent = fd["body_armor_spent"]
            g0.downed = g0.knocked_out = g0.held_ko = g0.fled = 0
            g0.row = fd["row"]
            g0.dealt = g0.taken = g0.moves = 0
            for k in range(NLAB):
                g0.cnt[k] = 0
        for i in range(self.nel):
            for j in range(self.nel):
                self.chart_num[i * MAXEL + j], self.chart_den[i * MAXEL + j] = \
                    t["chart"][i * self.nel + j]
        for i, e in enumerate(t["status_el"]):
            self.status_el[i] = e
            self.worth[i] = t["worth"][i]
            for j in range(self.nel):
                self.thr[i * MAXEL + j] = t["thr"][i][j]
        self.ntrack = len(t["track"])
        if self.ntrack > MAXTRACK:
            raise KernelLimit(f"a bonus track of more than {MAXTRACK} steps")
        for i, v in enumerate(t["track"]):
            self.track_vals[i] = v
            self.track_first[i] = t["track"].index(v)
        bits = t["status_bits"]
        self.B_BURNED = bits["burned"]
        self.B_CONFUSED = bits["confused"]
        self.B_PETRIFIED = bits["petrified"]
        self.B_BLINDED = bits["blinded"]
        self.B_FROST = bits["frostbitten"]
        self.B_FATIGUED = bits["fatigued"]
        self.B_PARALYZED = bits["paralyzed"]
        self.B_SILENCED = bits["silenced"]
        self.B_POISONED = bits["poisoned"]
        fig = t["figures"]
        self.attack_threshold = fig["attack_threshold"]
        self.first_strike_ap = fig["first_strike_ap"]
        self.held_turn_ap = fig["held_turn_ap"]
        self.poison_divisor = fig["poison_divisor"]
        self.call_lo, self.call_hi = fig["call"]
        self.likely = fig["likely"]
        self.boost_num, self.boost_den = fig["boost"]
        outcomes, cum, total = fig["init_pool"]
        if len(outcomes) > MAX_POOL_OUTCOMES:
            raise KernelLimit(f"a GM initiative roll of more than {MAX_POOL_OUTCOMES} totals "
                              f"({len(outcomes)})")
        self.init_pool.n = len(outcomes)
        self.init_pool.total = total
        for j in range(len(outcomes)):
            self.init_pool.outcome[j] = outcomes[j]
            self.init_pool.cum[j] = cum[j]
        self.d10.n = 10
        self.d10.total = 10
        for j in range(10):
            self.d10.outcome[j] = j + 1
            self.d10.cum[j] = j + 1
        self.coin.n = 2
        self.coin.total = 2
        for j in range(2):
            self.coin.outcome[j] = j
            self.coin.cum[j] = j + 1
        r = t["rulings"]
        self.die_only = r["die_only"]
        self.rounding = r["rounding"]
        self.call_policy = r["call_policy"]
        self.single_shell = r["single_shell"]
        self.one_hits = r["one_hits"]
        self.confused_anyone = r["confused_anyone"]
        self.same_damage = r["same_damage"]
        self.costed = r["costed"]
        self.anyone = r["anyone"]
        self.shell_first = r["shell_first"]
        self.idle = r["idle"]
        self.user_full = r["user_full"]
        self.any_hit = r["any_hit"]
        self.listed_first = r["listed_first"]
        self.random_steal = r["random_steal"]
        c = t["consult"]
        self.c_setup = c["setup"]
        self.c_hit = c["hit"]
        self.c_reach = c["reach"]
        self.c_idle = c["idle"]
        self.c_calls = c["calls"]
        self.c_shells = c["shells"]
        self.c_faithful = c["faithful"]
        self.c_steal = c["steal"]
        self.c_react = c["react"]
        self.c_poison = c["poison"]
        self.c_first = c["first"]
        self.c_confused = c["confused"]
        self.consulted = 0
        self.slots = t["slots"]
        self.init_slot = t["init_slot"]
        for own in self.slots:
            if not 5 <= len(own) <= NLAB:
                raise KernelLimit(f"a character with more than {NLAB - 5} reactions")
            slots_within(own, MAXSLOT)
        if len(self.init_slot) > MAXSLOT or len(self.slots) != self.nf:
            raise KernelLimit(f"a dice key of more than {MAXSLOT} characters")

    def set_trace(self, trace):
        """Record every action chosen (for tests): a list, or None."""
        self.trace = trace

    # -- derived statistics (state.stat, element_of, Fighter.shell) ---------------------------

    cdef inline int _stat(self, int u, int i) noexcept:
        """state.stat: base, weapon, the bonus track, Petrified and Blinded."""
        cdef Fighter *g = &self.f[u]
        cdef int base = self.st[u].base[i], buff, value
        if g.equipped >= 0:
            base += self.st[u].wbonus[g.equipped][i]
        buff = self.track_vals[g.track[i]]
        if i == EVA and (g.statuses & self.B_PETRIFIED):
            return _floordiv(base, 2) + buff
        value = base + buff
        if (i == PACC or i == MACC or i == SACC) and (g.statuses & self.B_BLINDED):
            value = _floordiv(value, 2)
        return value

    cdef inline int _shell(self, int u) noexcept:
        cdef Fighter *g = &self.f[u]
        return g.sh_amt[g.nsh - 1] if g.nsh > 0 else 0

    cdef inline int _shell_total(self, int u) noexcept:
        cdef int k, s = 0
        for k in range(self.f[u].nsh):
            s += self.f[u].sh_amt[k]
        return s

    cdef inline int _element_of(self, int u) noexcept:
        cdef Fighter *g = &self.f[u]
        return g.sh_el[g.nsh - 1] if g.nsh > 0 else self.st[u].element

    cdef inline bint _standing(self, int u) noexcept:
        return not self.f[u].downed and not self.f[u].fled

    cdef inline int _mp_cost(self, int u, int a) noexcept:
        """targeting.mp_cost: Fatigued doubles it."""
        return self.abs[a].mp * (2 if (self.f[u].statuses & self.B_FATIGUED) else 1)

    # -- the hit die (hitdie.py) --------------------------------------------------------------

    cdef int _round_half(self, int64_t num, int64_t den) noexcept:
        """hitdie.round_half of num / den (den > 0) under LOD-2."""
        cdef int64_t low = _floordiv64(num, den), rest = num - low * den
        if 2 * rest != den:
            return <int>(low + (1 if 2 * rest > den else 0))
        if self.rounding == 1:  # ruling LOD-2 half-up
            return <int>(low + 1)
        if self.rounding == 2:  # ruling LOD-2 half-even
            return <int>(low if low % 2 == 0 else low + 1)
        return <int>low

    cdef void _absorb(self, int shell, int hp, int damage, Outcome *o) noexcept:
        """hitdie.absorb: the Shell first, with the shellbreak rule."""
        cdef int rest, to_hp
        o.to_shell = o.to_hp = 0
        o.shell = shell
        o.hp = hp
        o.broken = o.downed = 0
        if damage <= 0:
            return
        if shell > 0:
            if damage < shell:
                o.to_shell = damage
                o.shell = shell - damage
                return
            rest = damage - shell
            o.to_shell = shell
            o.shell = 0
            o.broken = 1
            if rest > hp:
                o.to_hp = hp
                o.hp = 0
                o.downed = hp > 0
            return
        to_hp = damage if damage < hp else hp
        o.to_hp = to_hp
        o.hp = hp - to_hp
        o.downed = hp > 0 and to_hp == hp

    cdef void _setup(self, int u, int a, int t, int el, int ko, Setup *s) noexcept:
        """targeting.target_setup: the numbers of one target as they count now."""
        cdef Ab *ab = &self.abs[a]
        cdef int defender = self._element_of(t), whose, e, physical, full, doubled
        cdef int64_t mn, md
        s.shell = self._shell(t)
        s.hp = self.f[t].hp
        s.knockout = ko
        s.damage = ab.damage
        s.body_armor = 0
        s.auto_fail = 0
        s.attack = s.defense = 0
        s.mnum = s.mden = 1
        if ab.attack == K_STATUS:
            s.kind = K_STATUS
            s.accuracy = self._stat(u, SACC)
            s.evasion = self._stat(t, RES)
            s.threshold = self.thr[ab.status * MAXEL + defender]
            return
        self.consulted |= self.c_hit  # rulings LOD-1, 2, 11, 22, 23 (target_setup reads them)
        physical = ab.attack == K_PHYSICAL
        whose = u if self.user_full else t  # ruling LOD-22
        full = ab.has_full and self.f[whose].hp >= self.f[whose].max_hp
        doubled = (physical and s.shell == 0) or (not physical and s.shell > 0)
        e = el if el >= 0 else ab.element
        if full and ab.fnum != 0:
            mn, md = ab.fnum, ab.fden
        else:
            mn, md = ab.mnum, ab.mden
        mn *= self.chart_num[e * MAXEL + defender]
        md *= self.chart_den[e * MAXEL + defender]
        if doubled:
            mn *= 2
        s.mnum, s.mden = mn, md
        s.kind = K_PHYSICAL if physical else K_MAGICAL
        s.accuracy = self._stat(u, PACC if physical else MACC)
        s.evasion = self._stat(t, EVA)
        s.threshold = self.attack_threshold
        s.attack = self._stat(u, PATK if physical else MATK)
        s.defense = self._stat(t, PDEF if physical else MDEF)
        s.body_armor = (physical and (self.st[t].passives & P_BODY_ARMOR) != 0
                        and not self.f[t].body_armor_spent)
        s.auto_fail = (self.f[u].statuses & (self.B_PARALYZED if physical
                                              else self.B_SILENCED)) != 0

    cdef void _outcome(self, Setup *s, int die, Outcome *o) noexcept:
        """hitdie.outcome (with hitdie._hit and damage_of)."""
        cdef int total = die - s.accuracy + s.evasion, hit, d, base, final
        o.gone = 0
        o.damage = 0
        o.blocked = 0
        if s.kind == K_STATUS:
            if s.threshold == IMMUNE:
                hit = 0
            elif s.threshold == ALWAYS:
                hit = 1
            else:
                hit = total <= s.threshold
        else:
            if s.auto_fail and not (self.one_hits and die == 1):  # ruling LOD-11
                hit = 0
            elif total <= s.threshold:
                hit = 1
            else:
                hit = die == 1
        o.hit = hit
        if not hit or s.kind == K_STATUS or not s.damage:
            # a hit that deals no damage uses Body Armor up only under any-hit
            o.blocked = (hit and s.kind == K_PHYSICAL and s.body_armor
                         and self.any_hit)  # ruling LOD-23 any-hit
            o.to_shell = o.to_hp = 0
            o.shell = s.shell
            o.hp = s.hp
            o.broken = o.downed = 0
            return
        d = 1 if s.knockout else die
        base = s.attack - s.defense + d
        if base < 1:
            base = 1
        if self.die_only:  # ruling LOD-1 die-only
            final = s.attack - s.defense + self._round_half(d * s.mnum, s.mden)
            if final < 1:
                final = 1
        else:
            final = self._round_half(base * s.mnum, s.mden)
        o.damage = final
        if s.body_armor and s.kind == K_PHYSICAL:
            o.blocked = 1
            o.to_shell = o.to_hp = 0
            o.shell = s.shell
            o.hp = s.hp
            o.broken = o.downed = 0
            return
        self._absorb(s.shell, s.hp, final, o)

    def outcome(self, tuple setup, int die):
        """hitdie.outcome of one setup and face, under this kernel's rulings (for the tests):
        ``setup`` is (kind, accuracy, evasion, threshold, attack, defense, multiplier's
        numerator, denominator, knockout, damage, shell, hp, body armor, auto-fail), the kind
        0 physical, 1 magical, 2 status; returns (hit, damage, to_shell, to_hp, shell, hp,
        broken, downed, blocked)."""
        cdef Setup s
        cdef Outcome o
        (s.kind, s.accuracy, s.evasion, s.threshold, s.attack, s.defense, s.mnum, s.mden,
         s.knockout, s.damage, s.shell, s.hp, s.body_armor, s.auto_fail) = setup
        if s.mden <= 0:
            raise ValueError("the multiplier's denominator must be positive")
        self._outcome(&s, die, &o)
        return (bool(o.hit), o.damage, o.to_shell, o.to_hp, o.shell, o.hp, bool(o.broken),
                bool(o.downed), bool(o.blocked))

    # -- rows (melee.py) -----------------------------------------------------------------------

    cdef bint _side_has(self, int side, int row) noexcept:
        cdef int i
        for i in range(self.nf):
            if self.f[i].side == side and self._standing(i) and self.f[i].row == row:
                return True
        return False

    # -- the turn queue (state._drop_head, _pop, _settle, _start_phase) ----------------------

    cdef void _drop_head(self) noexcept:
        cdef Turn head = self.queue[0]
        cdef int i, k, n = 0
        cdef Turn extra[MAXQ]
        if not head.extra:
            for k in range(self.nheld):
                if self.held_after[k] == head.unit and self._standing(self.held_holder[k]):
                    extra[n].unit = self.held_holder[k]
                    extra[n].ap = self.held_turn_ap
                    extra[n].extra = 1
                    n += 1
        # queue = extra + queue[1:]
        for i in range(1, self.qn):
            extra[n] = self.queue[i]
            n += 1
        for i in range(n):
            self.queue[i] = extra[i]
        self.qn = n

    cdef void _settle(self) noexcept:
        while self.qn > 0 and not self._standing(self.queue[0].unit):
            self._drop_head()
        self.ap = self.queue[0].ap if self.qn > 0 else 0

    cdef void _pop(self) noexcept:
        self._drop_head()
        self._settle()

    cdef inline int _active(self) noexcept:
        return self.queue[0].unit if self.qn > 0 else -1

    cdef void _start_phase(self, int r, int phase) noexcept:
        """PhaseStarted in state.apply_event."""
        cdef int i, k, j, n = 0, tmp
        cdef int sel[MAXF]
        self.round = r
        self.phase = phase
        if phase == PH_ACTION:
            for i in range(self.nf):
                k = self.order[i]
                if self._standing(k):
                    self.queue[n].unit = k
                    self.queue[n].ap = self.f[k].ap_full
                    self.queue[n].extra = 0
                    n += 1
        elif phase == PH_FIRST:
            # state.first_strike_order (LOD-24)
            self.consulted |= self.c_first
            for i in range(self.nf):
                if self.f[i].side == self.first_strike and self._standing(i):
                    sel[n] = i
                    n += 1
            if not self.listed_first:  # ruling LOD-24 initiative
                for i in range(1, n):  # stable insertion sort by -initiative
                    tmp = sel[i]
                    j = i - 1
                    while j >= 0 and self.st[sel[j]].initiative < self.st[tmp].initiative:
                        sel[j + 1] = sel[j]
                        j -= 1
                    sel[j + 1] = tmp
            for i in range(n):
                self.queue[i].unit = sel[i]
                self.queue[i].ap = self.first_strike_ap
                self.queue[i].extra = 0
        self.qn = n
        self.nheld = 0
        self.held_by = 0
        self._settle()

    # -- events (state.apply_event) -----------------------------------------------------------

    cdef void _ap_spent(self, int u, int left) noexcept:
        if self._active() == u:
            self.ap = left
            if left <= 0:
                self._pop()

    cdef void _downed(self, int u, int ko) noexcept:
        cdef Fighter *g = &self.f[u]
        g.downed = 1
        g.knocked_out = ko
        g.hp = 0
        if self._active() == u:
            self._pop()

    cdef void _damaged(self, int u, int source, Outcome *o) noexcept:
        """Damaged: the top Shell and HP; the battle's damage figures (stats.battle_stats)."""
        cdef Fighter *g = &self.f[u]
        cdef int amount = o.to_shell + o.to_hp
        if g.nsh > 0 and (o.to_shell > 0 or o.broken):
            if o.shell > 0:
                g.sh_amt[g.nsh - 1] = o.shell
            else:
                g.nsh -= 1
        g.hp = o.hp
        g.taken += amount
        if source >= 0 and source != u:
            self.f[source].dealt += amount

    cdef void _remove_item(self, int u, int item) noexcept:
        cdef Fighter *g = &self.f[u]
        cdef int i, j
        for i in range(g.nitems):
            if g.items[i] == item:
                for j in range(i, g.nitems - 1):
                    g.items[j] = g.items[j + 1]
                g.nitems -= 1
                return

    cdef void _gain_shell(self, int u, int el, int total) noexcept:
        """ShellGained (LOD-10)."""
        cdef Fighter *g = &self.f[u]
        cdef int i, n = 0
        if self.single_shell:  # ruling LOD-10 single
            g.sh_el[0] = el
            g.sh_amt[0] = total
            g.nsh = 1
            return
        for i in range(g.nsh):  # ruling LOD-10 newest
            if g.sh_el[i] != el:
                g.sh_el[n] = g.sh_el[i]
                g.sh_amt[n] = g.sh_amt[i]
                n += 1
        g.sh_el[n] = el
        g.sh_amt[n] = total
        g.nsh = n + 1

    # -- effects that need no roll (resolve.effect_events) -------------------------------------

    cdef void _effects(self, int u, int a, int t, int el) noexcept:
        """The events of a non-rolling ability or item on one target, each computed from the
        state before any of them (``u0``, ``t0``), applied in order."""
        cdef Ab *ab = &self.abs[a]
        cdef Fighter t0 = self.f[t]
        cdef Fighter u0 = self.f[u]
        cdef int stat_i, step, k, i, amount, have, total, e
        cdef Outcome o
        for k in range(2):
            stat_i = ab.buff if k == 0 else ab.debuff
            step = 1 if k == 0 else -1
            if stat_i < 0 or (step > 0 and (t0.statuses & self.B_BURNED)):
                continue
            i = t0.track[stat_i] + step
            if i > self.ntrack - 1:
                i = self.ntrack - 1
            if i < 0:
                i = 0
            if i != t0.track[stat_i]:  # TrackMoved: the first place of its value
                self.f[t].track[stat_i] = self.track_first[i]
        if ab.heal and not (t0.statuses & self.B_BURNED):
            amount = min(ab.heal, t0.max_hp - t0.hp)
            if amount > 0:
                self.f[t].hp = t0.hp + amount
        if ab.restore_mp:
            amount = min(ab.restore_mp, t0.max_mp - t0.mp)
            if amount > 0:
                self.f[t].mp = t0.mp + amount
        if ab.hurt:
            self._absorb(t0.sh_amt[t0.nsh - 1] if t0.nsh > 0 else 0, t0.hp, ab.hurt, &o)
            self._damaged(t, u, &o)
            if o.downed:
                if self.st[t].passives & P_STUPID:
                    self.f[t].held_ko = 0
                else:
                    self._downed(t, 0)
        if ab.user_mp:
            amount = min(ab.user_mp, u0.max_mp - u0.mp)
            if amount > 0:
                self.f[u].mp = u0.mp + amount
        if ab.shell:
            self.consulted |= self.c_shells  # ruling LOD-10 (effect_events reads it)
            e = el if el >= 0 else ab.element
            have = 0
            if not self.single_shell:  # ruling LOD-10
                for i in range(t0.nsh):
                    if t0.sh_el[i] == e:
                        have = t0.sh_amt[i]
            total = min(t0.shell_cap, have + ab.shell)
            if total > have or self.single_shell:  # ruling LOD-10 single
                self._gain_shell(t, e, total)
        if ab.gain_ammo:
            self.f[u].ammo = u0.ammo + ab.gain_ammo
        if ab.cure & t0.statuses:
            self.f[t].statuses &= ~ab.cure

    # -- attacks (resolve.attack, _each, _strike, _outcome_events, _reactions) ----------------

    cdef int _draw(self, int label, Pool *pool) except -1:
        """One keyed roll of the step's actor (KeyedDice.roll)."""
        cdef bytes slot = self.slots[self.actor][label]
        cdef int k = self.f[self.actor].cnt[label]
        self.f[self.actor].cnt[label] = k + 1
        return self.dice.draw(<const uint8_t *>slot, len(slot), k, pool)

    cdef int _protector(self, int t) noexcept:
        """resolve._protector: a standing Faithful character of the same side."""
        cdef int k, g
        for k in range(self.st[t].nguards):
            g = self.st[t].guards[k]
            if self._standing(g):
                return g
        return -1

    cdef void _outcome_events(self, int u, int a, int t, Outcome *o, int ko) noexcept:
        cdef Ab *ab = &self.abs[a]
        cdef Fighter t0 = self.f[t]
        cdef int kko, stays
        if o.blocked:
            self.f[t].body_armor_spent = 1
        if o.hit and ab.attack == K_STATUS and not (t0.statuses & (1u << ab.status)):
            self.f[t].statuses |= 1u << ab.status
        if o.to_shell or o.to_hp or o.broken:
            self._damaged(t, u, o)
        kko = ko and self.f[u].player
        stays = (self.st[t].passives & P_STUPID) != 0
        if o.downed and stays:
            self.f[t].held_ko = kko
        if o.downed and not stays:
            self._downed(t, kko)
        elif o.broken and (self.st[t].passives & P_RETREAT) and t0.row == 0:
            self.f[t].row = 1
            self.f[t].moves += 1
        if o.hit and ab.disarm and t0.equipped >= 0 and not o.downed:
            self.f[t].dropped = t0.equipped
            self.f[t].equipped = -1

    cdef int _strike(self, int u, int a, int t, int el, int ko, int die, Outcome *o) except -1:
        """resolve._strike: one target's result, Faithful standing in (LOD-14)."""
        cdef Setup s
        cdef int g
        cdef Outcome o2
        self._setup(u, a, t, el, ko, &s)
        self._outcome(&s, die, o)
        if o.downed and self.abs[a].attack != K_STATUS:
            g = self._protector(t)
            if g >= 0:
                self.consulted |= self.c_faithful  # ruling LOD-14
                if self.same_damage:  # ruling LOD-14 same-damage
                    o2 = o[0]
                    self._absorb(self._shell(g), self.f[g].hp, o.damage, &o2)
                    o2.hit = 1
                    o2.blocked = 0
                    o2.gone = 0
                    o2.damage = o.damage
                    o[0] = o2
                else:
                    self._setup(u, a, g, el, ko, &s)
                    self._outcome(&s, die, o)
                self._outcome_events(u, a, g, o, ko)
                return g
        self._outcome_events(u, a, t, o, ko)
        return t

    cdef int _steal_from(self, int thief, int victim) except -1:
        """resolve.steal_from (LOD-20)."""
        cdef Fighter *v = &self.f[victim]
        cdef int i, j, n = 0, item, dup, k
        cdef int distinct[MAXI]
        cdef int count[MAXI]
        cdef int tmp, tc
        cdef Pool pool
        if v.nitems == 0:
            return 0
        self.consulted |= self.c_steal  # ruling LOD-20
        for i in range(v.nitems):
            dup = -1
            for j in range(n):
                if distinct[j] == v.items[i]:
                    dup = j
            if dup >= 0:
                count[dup] += 1
            else:
                distinct[n] = v.items[i]
                count[n] = 1
                n += 1
        if self.random_steal:  # ruling LOD-20 random: Dist.uniform(items), sorted outcomes
            for i in range(1, n):
                tmp = distinct[i]
                tc = count[i]
                j = i - 1
                while j >= 0 and self.item_rank[distinct[j]] > self.item_rank[tmp]:
                    distinct[j + 1] = distinct[j]
                    count[j + 1] = count[j]
                    j -= 1
                distinct[j + 1] = tmp
                count[j + 1] = tc
            pool.n = n
            pool.total = 0
            for i in range(n):
                pool.total += count[i]
                pool.cum[i] = pool.total
                pool.outcome[i] = i
            item = distinct[self._draw(L_STOLEN, &pool)]
        else:
            k = self._decide(self.f[thief].side, n)
            item = distinct[0] if k < 0 else distinct[k]
        self._remove_item(victim, item)
        return 0

    cdef int _attack(self, int u, int a, int *targets, int n, int el, int ko, bint reactions,
                     int label) except -1:
        """resolve.attack: one hit die for every target, each in turn, then the reactions."""
        cdef int die = self._draw(label, &self.d10), i, tid
        cdef int took[MAXF]
        cdef Outcome outs[MAXF]
        for i in range(n):
            tid = targets[i]
            if not self._standing(tid):
                outs[i].gone = 1
                outs[i].hit = 0
                took[i] = tid
                continue
            took[i] = self._strike(u, a, tid, el, ko, die, &outs[i])
            if outs[i].hit and self.abs[a].steal:
                self._steal_from(u, took[i])
        if reactions:
            self._reactions(u, a, took, outs, n)
        return 0

    cdef int _reactions(self, int u, int a, int *took, Outcome *outs, int n) except -1:
        """resolve._reactions: Revenge and Quick Fingers of targets a melee attack missed
        (LOD-15), then the reactions a content pack declares (_declared)."""
        cdef int i, t
        for i in range(n):
            t = took[i]
            if (outs[i].gone or self.abs[a].reach != R_MELEE or self.f[t].side == self.f[u].side
                    or not self._standing(t) or not self._standing(u)):
                continue
            if not outs[i].hit:
                self._missed(t, u)
            self._declared(t, u, outs[i].hit)
        return 0

    cdef int _missed(self, int t, int u) except -1:
        """resolve._reactions of a target a melee attack missed: Revenge, else Quick Fingers."""
        cdef int prod, cost, steal
        cdef int one[1]
        one[0] = u
        self.consulted |= self.c_react  # ruling LOD-15
        if self.st[t].passives & P_REVENGE:
            prod = self.st[t].revenge
            if prod >= 0:
                cost = self._mp_cost(t, prod) if self.costed else 0  # ruling LOD-15
                if cost <= self.f[t].mp:
                    self.f[t].mp -= cost
                    if self.abs[prod].once:
                        self.f[t].used_once |= (<uint64_t>1) << prod
                    self._attack(t, prod, one, 1, -1, 0, False, L_REVENGE)
                    return 0
        if (self.st[t].passives & P_QUICK) and self.f[u].nitems > 0:
            if not self.costed:  # ruling LOD-15 free
                self._steal_from(t, u)
                return 0
            steal = self.st[t].steal
            if steal >= 0:
                self._attack(t, steal, one, 1, -1, 0, False, L_QUICK)
        return 0

    cdef int _declared(self, int t, int u, int hit) except -1:
        """resolve._declared: the target's declared reactions (its abilities of type
        ``reaction`` whose trigger holds, in its order) each use their ability on the
        attacker, paying its MP under LOD-15 ``costed``, while both stand."""
        cdef int j, r, use, cost, trig
        cdef int one[1]
        one[0] = u
        for j in range(self.st[t].nab):
            r = self.st[t].ab[j]
            trig = self.abs[r].trigger
            if trig == TR_NONE or not (trig == TR_ATTACKED
                                       or trig == (TR_HIT if hit else TR_MISSED)):
                continue
            if not self._standing(t) or not self._standing(u):
                return 0
            self.consulted |= self.c_react  # ruling LOD-15
            use = self.abs[r].use
            cost = self._mp_cost(t, use) if self.costed else 0  # ruling LOD-15
            if cost > self.f[t].mp:
                continue
            self.f[t].mp -= cost  # AbilityUsed
            if self.abs[use].once:
                self.f[t].used_once |= (<uint64_t>1) << use
            if self.abs[use].attack != K_NONE:
                self._attack(t, use, one, 1, -1, 0, False, self.abs[r].label)
            else:
                self._effects(t, use, u, -1)
        return 0

    # -- who may do what to whom (targeting.py) -----------------------------------------------

    cdef bint _unusable(self, int u, int a, int ap) noexcept:
        """targeting.unusable_reason is not None."""
        cdef Ab *ab = &self.abs[a]
        cdef Fighter *g = &self.f[u]
        if not ab.is_action or ab.ap > ap:
            return True
        if self._mp_cost(u, a) > g.mp or ab.ammo > g.ammo:
            return True
        if ab.once and (g.used_once >> a) & 1:
            return True
        if (g.statuses & self.B_FROST) and (ab.basic or ab.restores):
            return True
        if ab.reach == R_MELEE and g.row != 0:
            return True
        return False

    cdef int _reachable(self, int u, int a, bint any_side, int *out) noexcept:
        """targeting.reachable: single targets in fighters' order (LOD-16)."""
        cdef int reach = self.abs[a].reach, n = 0, t, side = self.f[u].side
        cdef bint anyone = any_side or self.anyone  # ruling LOD-16
        cdef bint empty[MAXS]
        if not any_side:
            self.consulted |= self.c_reach
        if reach == R_SELF:
            out[0] = u
            return 1
        if reach == R_MELEE:
            if self.f[u].row != 0:
                return 0
            for t in range(self.nf):
                if (self._standing(t) and t != u and self.f[t].row == 0
                        and (any_side or self.f[t].side != side)):
                    out[n] = t
                    n += 1
            return n
        if reach == R_RANGED:
            for t in range(self.nf):
                if self._standing(t) and t != u and (anyone or self.f[t].side != side):
                    out[n] = t
                    n += 1
            return n
        if reach == R_ALLY or reach == R_ALLY_OTHER:
            for t in range(self.nf):
                if (self._standing(t) and (reach == R_ALLY or t != u)
                        and (anyone or self.f[t].side == side)):
                    out[n] = t
                    n += 1
            return n
        if reach == R_CHARGE:
            for t in range(self.nsides):
                empty[t] = not self._side_has(t, 0)
            for t in range(self.nf):
                if (self._standing(t) and self.f[t].side != side and empty[self.f[t].side]
                        and self.f[t].row == 1):
                    out[n] = t
                    n += 1
            return n
        return 0

    cdef uint64_t _area(self, int u, int a) noexcept:
        """targeting.area_targets as a mask in fighters' order."""
        cdef uint64_t mask = 0
        cdef int t
        if self.abs[a].area == AREA_FRONT and self.f[u].row != 0:
            return 0
        for t in range(self.nf):
            if self._standing(t) and self.f[t].side != self.f[u].side:
                if self.abs[a].area != AREA_FRONT or self.f[t].row == 0:
                    mask |= (<uint64_t>1) << t
        return mask

    cdef int _ability_actions(self, int u, int ap, Opt *out, int n) noexcept:
        """targeting.ability_actions (one per target and element, knock-out variants)."""
        cdef int k, a, j, e, m, ng, ko
        cdef uint64_t mask
        cdef int targets[MAXF]
        cdef Ab *ab
        for k in range(self.st[u].nab):
            a = self.st[u].ab[k]
            ab = &self.abs[a]
            if self._unusable(u, a, ap):
                continue
            mask = 0
            if ab.area != AREA_ONE:
                mask = self._area(u, a)
                if mask == 0:
                    continue
                ng = 1
            else:
                ng = self._reachable(u, a, False, targets)
            ko = self.f[u].player and (ab.attack == K_PHYSICAL or ab.attack == K_MAGICAL) \
                and ab.damage
            for j in range(ng):
                for e in range(ab.nel if ab.nel > 0 else 1):
                    for m in range(2 if ko else 1):
                        out[n].kind = A_ABILITY
                        out[n].a = a
                        out[n].target = -1 if mask else targets[j]
                        out[n].mask = mask
                        out[n].el = ab.els[e] if ab.nel > 0 else -1
                        out[n].ko = m
                        n += 1
        return n

    cdef int _legal(self, int u) noexcept:
        """targeting.legal_actions into self.opts."""
        cdef Fighter *g = &self.f[u]
        cdef int ap = self.ap, n, i, j, t, dup, k
        cdef uint64_t later = 0
        n = self._ability_actions(u, ap, self.opts, 0)
        if ap >= 1 and not (g.statuses & self.B_FROST):
            for i in range(g.nitems):
                dup = 0
                for j in range(i):
                    if g.items[j] == g.items[i]:
                        dup = 1
                if dup:
                    continue
                for t in range(self.nf):
                    if self._standing(t) and self.f[t].side == g.side:
                        self.opts[n].kind = A_ITEM
                        self.opts[n].a = g.items[i]
                        self.opts[n].target = t
                        n += 1
        if ap >= 1 and not (g.statuses & self.B_PETRIFIED):
            self.opts[n].kind = A_MOVE
            self.opts[n].target = 1 - g.row
            n += 1
        if ap >= 1 and not ((self.held_by >> u) & 1) and self.qn > 0 and not self.queue[0].extra:
            for k in range(1, self.qn):
                t = self.queue[k].unit
                if not self.queue[k].extra and t != u and not ((later >> t) & 1):
                    later |= (<uint64_t>1) << t
                    self.opts[n].kind = A_HOLD
                    self.opts[n].target = t
                    n += 1
        if ap >= 1:
            for k in range(self.st[u].nweap):
                if k != g.equipped and k != g.dropped:
                    self.opts[n].kind = A_SWAP
                    self.opts[n].a = k
                    n += 1
            if g.dropped >= 0:
                self.opts[n].kind = A_PICKUP
                n += 1
        if g.row == 1:
            self.opts[n].kind = A_FLEE
            n += 1
        self.opts[n].kind = A_END
        n += 1
        return n

    # -- greedy values (policy.py) --------------------------------------------------------------

    cdef void _summary(self, Setup *s, double *p_hit, double *removed, double *p_down) noexcept:
        """policy._summary: each face of the fair hit die, weighted 1/10."""
        cdef int face
        cdef Outcome o
        cdef double h = 0.0, r = 0.0, d = 0.0
        for face in range(1, 11):
            self._outcome(s, face, &o)
            h += o.hit
            r += o.to_shell + o.to_hp
            d += o.downed
        p_hit[0] = h / 10
        removed[0] = r / 10
        p_down[0] = d / 10

    cdef double _target_value(self, int u, int a, int t, int el, int ko) noexcept:
        """policy._target_value_now."""
        cdef Ab *ab = &self.abs[a]
        cdef Setup s
        cdef double p_hit, removed, p_down, value
        if ab.attack == K_STATUS:
            if self.f[t].statuses & (1u << ab.status):
                return 0.0
            self._setup(u, a, t, el, ko, &s)
            self._summary(&s, &p_hit, &removed, &p_down)
            return p_hit * self.worth[ab.status]
        self._setup(u, a, t, el, ko, &s)
        self._summary(&s, &p_hit, &removed, &p_down)
        value = removed + DOWN_BONUS * p_down * (0.5 if (self.st[t].passives & P_STUPID)
                                                 else 1.0)
        if ab.steal and self.f[t].nitems > 0:
            value += 1.5 * p_hit
        if ab.disarm and self.f[t].equipped >= 0:
            value += 2.0 * p_hit
        if s.body_armor:
            value += 2.0 * p_hit
        return value

    cdef double _effect_value(self, int u, int a, int t, int el) noexcept:
        """policy._effect_value."""
        cdef Ab *ab = &self.abs[a]
        cdef Fighter *tf = &self.f[t]
        cdef Fighter *uf = &self.f[u]
        cdef double value = 0.0
        cdef int k, stat_i, step, i, amount, have, e, total, cured
        for k in range(2):
            stat_i = ab.buff if k == 0 else ab.debuff
            step = 1 if k == 0 else -1
            if stat_i < 0 or (step > 0 and (tf.statuses & self.B_BURNED)):
                continue
            i = tf.track[stat_i] + step
            if 0 <= i < self.ntrack:
                value += 2.0 * step * (1.0 if tf.side == uf.side else -1.0)
        if ab.heal and not (tf.statuses & self.B_BURNED):
            amount = min(ab.heal, tf.max_hp - tf.hp)
            value += amount * (1.5 if 2 * tf.hp < tf.max_hp else 1.0)
        if ab.restore_mp:
            value += 0.2 * min(ab.restore_mp, tf.max_mp - tf.mp)
        if ab.hurt:
            value -= ab.hurt * (1.0 if tf.side == uf.side else -1.0)
        if ab.user_mp:
            value += 0.2 * min(ab.user_mp, uf.max_mp - uf.mp)
        if ab.shell:
            e = el if el >= 0 else ab.element
            have = 0
            for i in range(tf.nsh):
                if tf.sh_el[i] == e:
                    have = tf.sh_amt[i]
            total = min(tf.shell_cap, have + ab.shell) - have
            value += 0.7 * (total if total > 0 else 0)
        if ab.gain_ammo:
            value += 3.0 if uf.ammo == 0 else 0.2
        cured = 0
        for i in range(32):
            if (ab.cure >> i) & 1 and (tf.statuses >> i) & 1:
                cured += 1
        value += 3.0 * cured
        if tf.side != uf.side and (ab.heal or ab.shell or ab.cure):
            value = -value
        return value

    cdef double _ability_value(self, int u, Opt *o) noexcept:
        """policy._ability_value."""
        cdef Ab *ab = &self.abs[o.a]
        cdef double total = 0.0, v
        cdef int t, last
        cdef uint64_t mask = o.mask
        if mask:
            t = 0
            last = 63
            while last >= 0 and not (mask >> last) & 1:
                last -= 1
        else:
            t = o.target
            last = o.target
        while t <= last:  # the targets in fighters' order
            if not mask or (mask >> t) & 1:
                if ab.attack != K_NONE:
                    v = self._target_value(u, o.a, t, o.el, o.ko)
                    total += v if self.f[t].side != self.f[u].side else -v
                else:
                    total += self._effect_value(u, o.a, t, o.el)
            t += 1
        if ab.user_dies:
            total -= (self.f[u].hp + self._shell_total(u)) + DOWN_BONUS
        if ((self.f[u].statuses & self.B_CONFUSED) and ab.area == AREA_ONE
                and o.target != u):
            total *= 0.5
        total -= MP_WEIGHT * self._mp_cost(u, o.a) + 0.5 * ab.ammo
        if ab.once:
            total -= 0.5
        return total / (ab.ap if ab.ap > 1 else 1)

    cdef double _best_attack(self, int u) noexcept:
        """policy._best_attack: the best ability action at full AP (0.0 without one)."""
        cdef int n = self._ability_actions(u, self.f[u].ap_full, self.scratch, 0), k
        cdef double best = 0.0, v
        for k in range(n):
            v = self._ability_value(u, &self.scratch[k])
            if k == 0 or v > best:
                best = v
        return best

    cdef double _value(self, int u, Opt *o, double *now, bint *have_now) noexcept:
        """policy._value."""
        cdef int saved_row, saved_eq, saved_dr
        cdef double after, gain
        if o.kind == A_ABILITY:
            return self._ability_value(u, o)
        if o.kind == A_ITEM:
            return self._effect_value(u, o.a, o.target, -1) - 1.0
        if o.kind == A_MOVE or o.kind == A_SWAP or o.kind == A_PICKUP:
            if not have_now[0]:
                now[0] = self._best_attack(u)
                have_now[0] = True
            saved_row = self.f[u].row
            saved_eq = self.f[u].equipped
            saved_dr = self.f[u].dropped
            if o.kind == A_MOVE:
                self.f[u].row = o.target
            elif o.kind == A_SWAP:
                self.f[u].equipped = o.a
            else:
                self.f[u].equipped = saved_dr
                self.f[u].dropped = -1
            after = self._best_attack(u)
            self.f[u].row = saved_row
            self.f[u].equipped = saved_eq
            self.f[u].dropped = saved_dr
            gain = after - now[0]
            return 0.9 * gain - 0.3 + (2.0 if o.kind == A_PICKUP else 0.0)
        if o.kind == A_HOLD:
            return -0.4
        if o.kind == A_FLEE:
            return -50.0
        return 0.0

    # -- policies (tactica.engine.policies.GreedyPolicy, RandomPolicy) --------------------------------

    cdef int _decide(self, int side, int n) noexcept:
        """A decision inside an action: the random policy's pick, or -1 for the greedy
        policy (whose choose_decision the caller mirrors)."""
        if self.policies[side] == RANDOM:
            return self._integers(side, n)
        return -1

    cdef int _choose_action(self, int u, int n) noexcept:
        """GreedyPolicy.choose on rank_actions' values (ties by its generator), or
        RandomPolicy.choose."""
        cdef int side = self.f[u].side, k
        cdef double now = 0.0
        cdef bint have_now = False
        if self.policies[side] == RANDOM:
            return self._integers(side, n)
        for k in range(n):
            self.values[k] = self._value(u, &self.opts[k], &now, &have_now)
        return self._greedy(side, self.values, n, self.top)

    # -- actions (resolve.resolve, _use_ability, _confused) ------------------------------------

    cdef int _use_ability(self, int u, Opt *o) except -1:
        cdef Ab *ab = &self.abs[o.a]
        cdef int cost = self._mp_cost(u, o.a), picker = -1, s, won, n, k, t, best_k
        cdef int targets[MAXF]
        cdef int options[MAXF + 1]
        cdef int nt = 0
        cdef bint has_self
        cdef double v, best
        cdef Opt trial
        if ab.ap:
            self._ap_spent(u, self.ap - ab.ap)
        self.f[u].mp -= cost
        self.f[u].ammo -= ab.ammo
        if ab.once:
            self.f[u].used_once |= (<uint64_t>1) << o.a
        for t in range(self.nf):
            if (o.mask and (o.mask >> t) & 1) or (not o.mask and t == o.target):
                targets[nt] = t
                nt += 1
        # _confused (LOD-12)
        if ((self.f[u].statuses & self.B_CONFUSED) and ab.area == AREA_ONE and nt == 1
                and targets[0] != u):
            for s in range(self.nsides):
                if s != self.f[u].side:
                    for t in range(self.nf):
                        if self.f[t].side == s and self._standing(t):
                            picker = s
                            break
                    if picker >= 0:
                        break
            won = self._draw(L_COIN, &self.coin)
            if not won and picker >= 0:
                self.consulted |= self.c_confused  # ruling LOD-12
                n = 0
                k = self._reachable(u, o.a, True, options)
                has_self = False
                for t in range(k):
                    if options[t] != u or self.confused_anyone:  # ruling LOD-12
                        options[n] = options[t]
                        n += 1
                        if options[t] == u:
                            has_self = True
                if self.confused_anyone and not has_self:  # ruling LOD-12 anyone
                    options[n] = u
                    n += 1
                if n > 0:
                    k = self._decide(picker, n)
                    if k < 0:  # greedy: where it hurts the user's side most (np.argmin)
                        best_k = 0
                        for k in range(n):
                            trial.kind = A_ABILITY
                            trial.a = o.a
                            trial.target = options[k]
                            trial.mask = 0
                            trial.el = -1
                            trial.ko = 0
                            v = self._ability_value(u, &trial)
                            if k == 0 or v < best:
                                best = v
                                best_k = k
                        k = best_k
                    targets[0] = options[k]
        if ab.attack != K_NONE:
            self._attack(u, o.a, targets, nt, o.el, o.ko, True, L_HIT)
            if ab.user_dies and self._standing(u):
                self._downed(u, 0)
        else:
            if self._standing(targets[0]):
                self._effects(u, o.a, targets[0], o.el)
        return 0

    cdef int _act(self, int u, Opt *o) except -1:
        """resolve.resolve of the chosen action."""
        cdef int k
        if o.kind == A_ABILITY:
            return self._use_ability(u, o)
        if o.kind == A_END:
            if self._active() == u:
                self._pop()
            return 0
        if o.kind == A_FLEE:
            self.f[u].fled = 1
            if self._active() == u:
                self._pop()
            return 0
        self._ap_spent(u, self.ap - 1)
        if o.kind == A_MOVE:
            self.f[u].row = o.target
            self.f[u].moves += 1
        elif o.kind == A_HOLD:
            self.held_holder[self.nheld] = u
            self.held_after[self.nheld] = o.target
            self.nheld += 1
            self.held_by |= (<uint64_t>1) << u
        elif o.kind == A_SWAP:
            if self.f[u].dropped == o.a:
                self.f[u].dropped = -1
            self.f[u].equipped = o.a
        elif o.kind == A_PICKUP:
            k = self.f[u].dropped
            self.f[u].dropped = -1
            self.f[u].equipped = k
        elif o.kind == A_ITEM:
            self._remove_item(u, o.a)
            self._effects(u, o.a, o.target, -1)
        return 0

    # -- the round (flow.py) ---------------------------------------------------------------------

    cdef int _finished(self, int *winner) noexcept:
        """flow.finished: 1 when at most one side has anyone standing."""
        cdef int t, standing = 0
        for t in range(self.nf):
            if self._standing(t):
                standing |= 1 << self.f[t].side
        return last_side_standing(standing, self.nsides, winner)

    cdef bint _can_act(self, int u) noexcept:
        """targeting.can_act (LOD-21)."""
        if not self._standing(u):
            return False
        if self.f[u].hp == 0 and (self.st[u].passives & P_STUPID):
            self.consulted |= self.c_idle  # ruling LOD-21
            return not self.idle  # ruling LOD-21 idle
        return True

    cdef int _initiative(self) except -1:
        """flow.initiative: calls (LOD-8), the GM's roll, the order; round 1."""
        cdef int i, j, tmp, value = 0, k, nplayers = 0
        cdef int calls[MAXF]
        cdef int64_t key_v[MAXF]
        cdef int key_g[MAXF]
        for i in range(self.nf):
            calls[i] = -1
            if self.f[i].player and self._standing(i):
                nplayers += 1
        if nplayers > 0:
            self.consulted |= self.c_calls  # ruling LOD-8
            for i in range(self.nf):
                if self.f[i].player and self._standing(i):
                    if self.call_policy:  # ruling LOD-8 policy
                        k = self._decide(self.f[i].side, self.call_hi - self.call_lo + 1)
                        calls[i] = self.likely if k < 0 else self.call_lo + k
                    else:  # ruling LOD-8 call-one
                        calls[i] = self.call_lo
            value = self._draw_initiative()
        for i in range(self.nf):
            key_v[i] = self.st[i].initiative * (
                self.boost_num if (calls[i] >= 0 and calls[i] == value) else self.boost_den)
            if self.f[i].player:
                key_g[i] = 0 if (calls[i] if calls[i] >= 0 else value) < value else 2
            else:
                key_g[i] = 1
            self.order[i] = i
        for i in range(1, self.nf):  # stable: (-value, group, listed)
            tmp = self.order[i]
            j = i - 1
            while j >= 0 and (key_v[self.order[j]] < key_v[tmp] or (
                    key_v[self.order[j]] == key_v[tmp] and key_g[self.order[j]] > key_g[tmp])):
                self.order[j + 1] = self.order[j]
                j -= 1
            self.order[j + 1] = tmp
        self._start_phase(1, PH_PARADIGM)
        self._start_phase(1, PH_ACTION)
        return 0

    cdef int _draw_initiative(self) except -1:
        """The GM's roll, keyed by the automatic step's label."""
        cdef bytes slot = self.init_slot
        return self.dice.draw(<const uint8_t *>slot, len(slot), 0, &self.init_pool)

    cdef int _effect_phase(self) except -1:
        """flow.effect_phase: poison, Too Stupid to Die falls, advancing; the end."""
        cdef int r = self.round, i, u, amount, s, other, k, yes
        cdef Outcome o
        cdef int falls[MAXF]
        cdef int nfalls = 0
        self._start_phase(r, PH_EFFECT)
        for i in range(self.nf):
            u = self.order[i]
            if not self._standing(u) or not (self.f[u].statuses & self.B_POISONED) \
                    or self.f[u].hp == 0:
                continue
            self.consulted |= self.c_poison  # ruling LOD-17
            amount = self.f[u].max_hp // self.poison_divisor
            if amount < 1:
                amount = 1
            if self.shell_first:  # ruling LOD-17 shell-first
                self._absorb(self._shell(u), self.f[u].hp, amount, &o)
            else:  # ruling LOD-17 hp
                self._absorb(0, self.f[u].hp, amount, &o)
                o.to_shell = 0
                o.shell = self._shell(u)
                o.broken = 0
            self._damaged(u, -1, &o)
            if o.downed:
                if self.st[u].passives & P_STUPID:
                    self.f[u].held_ko = 0
                else:
                    self._downed(u, 0)
        for u in range(self.nf):
            if self._standing(u) and self.f[u].hp == 0 and (self.st[u].passives & P_STUPID):
                falls[nfalls] = u
                nfalls += 1
        for i in range(nfalls):
            self._downed(falls[i], self.f[falls[i]].held_ko)
        # advancing: a side with nobody in front and somebody behind
        while True:
            k = -1
            for s in range(self.nsides):
                if self._side_has(s, 0) or not self._side_has(s, 1):
                    continue
                other = -1
                for i in range(self.nsides):
                    if i != s and self._side_has_standing(i):
                        other = i
                        break
                if other < 0:
                    continue
                k = s
                break
            if k < 0:
                break
            yes = self._decide(other, 2)
            if yes == 1:  # the option False
                break
            for u in range(self.nf):  # melee.advance: the whole side in front
                if self.f[u].side == k and self._standing(u):
                    self.f[u].row = 0
        self._start_phase(r, PH_PARADIGM)
        self.phase = PH_END
        self.qn = 0
        return 0

    cdef bint _side_has_standing(self, int s) noexcept:
        cdef int t
        for t in range(self.nf):
            if self.f[t].side == s and self._standing(t):
                return True
        return False

    # -- the battle (sim.play._run, Battle.step, flow.pending) --------------------------------

    cdef object _copy(self):
        """A fresh kernel of the same tables that records into the same trace."""
        other = Kernel(self.tables)
        other.set_trace(self.trace)
        return other

    cdef int _pending(self, int *who) noexcept:
        """flow.pending: what happens next."""
        if self._finished(who):
            return PD_FINISHED
        if self.phase == PH_SETUP:
            if self.first_strike >= 0 and self._side_has_standing(self.first_strike):
                return PD_FIRST_STRIKE
            return PD_INITIATIVE
        if self.qn > 0 and not self._can_act(self.queue[0].unit):
            return PD_PASS
        if self.qn > 0:
            who[0] = self.f[self.queue[0].unit].side
            return PD_CHOOSE
        if self.phase == PH_FIRST:
            return PD_INITIATIVE
        if self.phase == PH_ACTION:
            return PD_EFFECT
        if self.round >= self.max_rounds:
            who[0] = -1
            return PD_FINISHED
        return PD_ROUND

    cdef int _step(self, int kind, int who) except -1:
        """One step of the battle (Battle.step), of the kind _pending answered."""
        cdef int n, k, u
        self.actor = -1
        if kind == PD_FIRST_STRIKE:
            self._start_phase(0, PH_FIRST)
        elif kind == PD_INITIATIVE:
            self._initiative()
        elif kind == PD_PASS:
            u = self.queue[0].unit
            if self._active() == u:
                self._pop()
        elif kind == PD_CHOOSE:
            u = self.queue[0].unit
            self.actor = u
            n = self._legal(u)
            k = self._choose_action(u, n)
            if self.trace is not None:
                o = self.opts[k]
                self.trace.append((u, o.kind, o.a, o.target, o.mask, o.el, o.ko))
            self._act(u, &self.opts[k])
        elif kind == PD_EFFECT:
            self._effect_phase()
        else:
            self._start_phase(self.round + 1, PH_ACTION)
        return 0

    cdef object _play(self, tuple policies, bytes prefix, object seed, object index,
                      int64_t max_steps):
        """Battle ``index`` of ``seed`` (KernelRuntime.play): (winner side or -1, finished,
        rounds, steps, per character (survived, dealt, taken, moves, hp, shell, mp, statuses,
        knocked out, fled), the rulings it consulted as a bit mask)."""
        cdef int i, who = -1, kind, steps = 0
        self.dice = _Dice()
        self.dice.set_prefix(prefix)
        if not self._new_battle(seed, index):
            raise ValueError("seed or index beyond 64 bits")
        for i in range(MAXS):
            self.policies[i] = policies[i] if i < len(policies) else GREEDY
        for i in range(self.nf):
            self.f[i] = self.init_f[i]
            self.order[i] = i
        self.round = 0
        self.phase = PH_SETUP
        self.qn = 0
        self.ap = 0
        self.nheld = 0
        self.held_by = 0
        self.consulted = self.c_setup  # setup.new_state reads LOD-18 for every character
        steps = self._run(max_steps, &who)
        kind = self._pending(&who)
        finished = kind == PD_FINISHED
        # The reference works out the next step once more (Battle.is_over) even when the step
        # budget stops the battle first: a turn's legal actions (LOD-16) and the initiative's
        # calls (LOD-8) are read as that step is worked out, before it is played.
        if kind == PD_CHOOSE:
            self._legal(self.queue[0].unit)
        elif kind == PD_INITIATIVE:
            for i in range(self.nf):
                if self.f[i].player and self._standing(i):
                    self.consulted |= self.c_calls  # ruling LOD-8
                    break
        units = [(self._standing(i) or self.f[i].fled or self.f[i].knocked_out,
                  self.f[i].dealt, self.f[i].taken, self.f[i].moves, self.f[i].hp,
                  self._shell_total(i), self.f[i].mp, self.f[i].statuses,
                  bool(self.f[i].knocked_out), bool(self.f[i].fled))
                 for i in range(self.nf)]
        return (who if finished else -1), finished, self.round, steps, units, self.consulted

    # -- a battle from its start with scripted choices and dice (testing.both) -----------------

    cdef object _scripted(self):
        return ScriptedKernel(self.tables)


cdef class ScriptedKernel(Kernel):
    """The kernel with scripted choices (each side plays "random", its generator replaced by
    the script) and scripted dice (kernel_draws.pxi's _ScriptedDice): Kernel.run_scripted."""
    cdef _ScriptedDice scripted

    cdef int _draw(self, int label, Pool *pool) except -1:
        cdef bytes slot = self.slots[self.actor][label]
        cdef int k = self.f[self.actor].cnt[label]
        self.f[self.actor].cnt[label] = k + 1
        return self.scripted.draw(<const uint8_t *>slot, len(slot), k, pool)

    cdef int _draw_initiative(self) except -1:
        cdef bytes slot = self.init_slot
        return self.scripted.draw(<const uint8_t *>slot, len(slot), 0, &self.init_pool)

    def run_script(self, list choices, list outcomes, int64_t max_steps):
        self.scripted = _ScriptedDice(outcomes, True)
        return self._run_script(self.scripted, choices,
                                tuple(RANDOM for _ in range(self.nsides)), max_steps)
