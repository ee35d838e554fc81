# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled simulation kernel of Nebulia Operations: the reference's battle on plain data.

The reference is the Python rules (``rules.py``, ``geometry.py``, ``odds.py``, the policies of
``tactica.engine.policies`` and the keyed dice of ``tactica.engine.streams``); every function here names
the function it mirrors. The tables (offset geometry of sight lines, cover distances, the exact
samplers of the dice pools, the greedy policy's attack scores) are built by ``kernel.py`` from
the reference's own functions at prepare time. The state is C structs and arrays; the dice are
BLAKE2b words of the same keys as the reference's, drawn natively; a policy's numpy generator
(SeedSequence, PCG64, bounded integers) is drawn natively too (``kernel_draws.pxi``).
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t

# BLAKE2b-keyed exact draws and numpy's bounded integers, and the runtime (re-entry, policy
# generators, owned memory), shared by every game's kernel.
include "tactica/engine/kernel_draws.pxi"
include "tactica/engine/kernel_runtime.pxi"

# ---------------------------------------------------------------------------------------------
# The battle

DEF MAX_OPS = 32
DEF MAX_WEAPONS = 8
DEF MAX_SIDES = 8
DEF MAX_TILES = 4096
DEF MAX_SLOT = 900

#: The kernel's fixed limits, by name: ``Kernel(tables)`` answers a scenario past one of them
#: with KernelLimit naming it (the reference plays). The legal actions of a battle are held in
#: arrays sized when it is prepared (every tile for each operator's move, every weapon against
#: every operator, Pass and End), so no battle writes past them.
LIMITS = {
    "operators": MAX_OPS,
    "weapons": MAX_WEAPONS,        # of one operator
    "sides": MAX_SIDES,
    "tiles": MAX_TILES,
    "outcomes": MAX_POOL_OUTCOMES,  # outcomes of one dice pool
    "slot": MAX_SLOT,              # characters of one dice key's slot
}

cdef struct Weapon:
    int melee, dice, accuracy, damage
    int tohit_pool          # pool index of the to-hit roll

cdef struct Op:
    int side, defense, max_defense, armor, move, pos, out, ready
    int nweap, wbase        # weapons: wbase .. wbase + nweap - 1 of the weapon table
    int dealt, taken, moves
    int hit_count, armor_count   # keyed dice counts of "to hit" and "armor" (KeyedDice.counts)

# What happens next (rules.pending)
DEF FINISHED = 0
DEF AUTOMATIC = 1
DEF CHOOSE_MOVE = 2
DEF CHOOSE_ATTACK = 3

DEF GREEDY = 0
DEF RANDOM = 1

# Ruling options (kernel.py maps the names)
DEF BLOCK_ALL = 0
DEF BLOCK_FOES = 1
DEF SQUEEZE = 0
DEF FREE = 1
DEF CORNERS = 2
DEF FIRST_ALTERNATE = 0
DEF FIRST_RANDOM = 1
DEF FIRST_FIXED = 2

cdef int[8][2] _KING = [[0, -1], [1, 0], [0, 1], [-1, 0], [1, -1], [1, 1], [-1, 1], [-1, -1]]


cdef class Kernel(KernelRuntime):
    """One scenario's tables (see kernel.py) and the battle loop."""
    # map
    cdef int W, H, N
    cdef uint8_t[::1] wall
    cdef uint8_t[::1] near          # per offset: within the cover-cancel distance (NEB-3)
    cdef int64_t[::1] sstart, slen, srx, sry
    cdef uint8_t[::1] smask
    cdef int64_t[::1] pstart, plen, pax, pay, pbx, pby
    cdef uint8_t[::1] pmask
    # content and rulings
    cdef int nops, nsides, first, max_rounds
    cdef Op init_ops[MAX_OPS]
    cdef Weapon weapons[MAX_OPS * MAX_WEAPONS]
    cdef int nweapons
    cdef Pool *pools
    cdef int npools
    cdef int64_t[::1] armor_pool     # [weapon, target, cover, hits] -> pool index
    cdef double[::1] score           # [weapon, target, cover, defense] -> greedy's score
    cdef int maxdice, maxdef
    cdef int64_t[::1] first_outcomes  # [standing mask, k] -> side (Dist.uniform's order)
    cdef int block, diagonal, cover_on_die, melee_sight, alternate, first_rule, enemies_only
    cdef list hit_slots, armor_slots  # bytes per op
    cdef dict wide                    # pool -> its Dist, for a total weight beyond 64 bits
    # battle state
    cdef Op ops[MAX_OPS]
    cdef int occ[4096]
    cdef int round, turn, active
    cdef uint8_t seen[4096]
    cdef int *opt_op
    cdef int *opt_tile
    cdef double *values
    cdef int *top
    cdef _Dice dice                   # the keyed dice of the battle under way
    cdef tuple policies               # its sides' policies

    def __init__(self, dict t):
        cdef int i, nopt
        self.tables = t
        self.W = t["width"]
        self.H = t["height"]
        self.N = self.W * self.H
        if self.N > MAX_TILES:
            raise KernelLimit(f"a map of more than {MAX_TILES} tiles")
        self.wall = t["wall"]
        self.near = t["near"]
        self.sstart, self.slen = t["sstart"], t["slen"]
        self.srx, self.sry, self.smask = t["srx"], t["sry"], t["smask"]
        self.pstart, self.plen = t["pstart"], t["plen"]
        self.pax, self.pay, self.pbx, self.pby = t["pax"], t["pay"], t["pbx"], t["pby"]
        self.pmask = t["pmask"]
        ops = t["ops"]
        self.nops = len(ops)
        self.nsides = t["nsides"]
        within(self.nops, MAX_OPS, "operators")
        within(self.nsides, MAX_SIDES, "sides")
        for o in ops:
            if len(o["weapons"]) > MAX_WEAPONS:
                raise KernelLimit(f"an operator with more than {MAX_WEAPONS} weapons")
        for outcomes, cum, total in t["pools"]:
            if len(outcomes) > MAX_POOL_OUTCOMES:
                raise KernelLimit(f"a dice pool of more than {MAX_POOL_OUTCOMES} outcomes")
        self.first = t["first"]
        self.max_rounds = t["max_rounds"]
        self.nweapons = 0
        for i, o in enumerate(ops):
            self.init_ops[i].side = o["side"]
            self.init_ops[i].defense = o["defense"]
            self.init_ops[i].max_defense = o["max_defense"]
            self.init_ops[i].armor = o["armor"]
            self.init_ops[i].move = o["move"]
            self.init_ops[i].pos = o["pos"]
            self.init_ops[i].out = 0
            self.init_ops[i].ready = 0
            self.init_ops[i].nweap = len(o["weapons"])
            if self.init_ops[i].nweap > MAX_WEAPONS:
                raise KernelLimit(f"an operator with more than {MAX_WEAPONS} weapons")
            self.init_ops[i].wbase = self.nweapons
            self.init_ops[i].dealt = self.init_ops[i].taken = self.init_ops[i].moves = 0
            self.init_ops[i].hit_count = self.init_ops[i].armor_count = 0
            for w in o["weapons"]:
                self.weapons[self.nweapons].melee = w["melee"]
                self.weapons[self.nweapons].dice = w["dice"]
                self.weapons[self.nweapons].accuracy = w["accuracy"]
                self.weapons[self.nweapons].damage = w["damage"]
                self.weapons[self.nweapons].tohit_pool = w["tohit_pool"]
                self.nweapons += 1
        pools = t["pools"]
        self.wide = t["wide"]
        self.npools = len(pools)
        self.pools = <Pool *>self._own(sizeof(Pool) * self.npools, False)
        for i, table in enumerate(pools):
            fill_pool(&self.pools[i], table, "a dice pool")
        self.armor_pool = t["armor_pool"]
        self.score = t["score"]
        self.maxdice = t["maxdice"]
        self.maxdef = t["maxdef"]
        self.first_outcomes = t["first_outcomes"]
        self.block = t["block"]
        self.diagonal = t["diagonal"]
        self.cover_on_die = t["cover_on_die"]
        self.melee_sight = t["melee_sight"]
        self.alternate = t["alternate"]
        self.first_rule = t["first_rule"]
        self.enemies_only = t["enemies_only"]
        self.hit_slots = t["hit_slots"]
        self.armor_slots = t["armor_slots"]
        slots_within(self.hit_slots + self.armor_slots, MAX_SLOT)
        nopt = self.nops * self.N + self.nweapons * self.nops + 2
        self.opt_op = <int *>self._own(sizeof(int) * nopt, False)
        self.opt_tile = <int *>self._own(sizeof(int) * nopt, False)
        self.values = <double *>self._own(sizeof(double) * nopt, False)
        self.top = <int *>self._own(sizeof(int) * nopt, False)

    # -- geometry (geometry.py, sighttable.py) ------------------------------------------------

    cdef inline bint _blocks(self, int tile, int side, int leaving) noexcept nogil:
        """geometry.blocking_tiles (NEB-5): a wall, or an operator that blocks for ``side``;
        ``leaving`` is the mover's tile, which no longer blocks (odds._move_values)."""
        cdef int o
        if self.wall[tile]:
            return True
        o = self.occ[tile]
        if o < 0 or tile == leaving:
            return False
        return self.block == BLOCK_ALL or self.ops[o].side != side

    cdef int _clear_lines(self, int src, int dst, int side, int leaving) noexcept nogil:
        """geometry.sight_through: the clear lines of 4 from ``src`` to ``dst``."""
        cdef int sx = src % self.W, sy = src // self.W
        cdef int dx = dst % self.W - sx, dy = dst // self.W - sy
        cdef int off = (dy + self.H - 1) * (2 * self.W - 1) + dx + self.W - 1
        cdef int k, x, y, x2, y2, blocked = 0
        cdef int64_t a = self.sstart[off], e = a + self.slen[off]
        for k in range(a, e):
            x = sx + self.srx[k]
            y = sy + self.sry[k]
            if 0 <= x < self.W and 0 <= y < self.H and self._blocks(y * self.W + x, side, leaving):
                blocked |= self.smask[k]
        a = self.pstart[off]
        e = a + self.plen[off]
        for k in range(a, e):
            x = sx + self.pax[k]
            y = sy + self.pay[k]
            x2 = sx + self.pbx[k]
            y2 = sy + self.pby[k]
            if (0 <= x < self.W and 0 <= y < self.H and 0 <= x2 < self.W and 0 <= y2 < self.H
                    and self._blocks(y * self.W + x, side, leaving)
                    and self._blocks(y2 * self.W + x2, side, leaving)):
                blocked |= self.pmask[k]
        return 4 - ((blocked & 1) + ((blocked >> 1) & 1) + ((blocked >> 2) & 1)
                    + ((blocked >> 3) & 1))

    cdef inline bint _near(self, int src, int dst) noexcept nogil:
        """geometry.within_three (NEB-3)."""
        cdef int dx = dst % self.W - src % self.W, dy = dst // self.W - src // self.W
        return self.near[(dy + self.H - 1) * (2 * self.W - 1) + dx + self.W - 1]

    cdef inline int _steps(self, int a, int b) noexcept nogil:
        """King steps (Chebyshev distance): TargetSight.steps; geometry.adjacent is 1."""
        cdef int dx = a % self.W - b % self.W, dy = a // self.W - b // self.W
        if dx < 0:
            dx = -dx
        if dy < 0:
            dy = -dy
        return dx if dx > dy else dy

    cdef inline bint _open(self, int x, int y) noexcept nogil:
        return 0 <= x < self.W and 0 <= y < self.H and not self.wall[y * self.W + x]

    cdef int _reachable(self, int o, int n) noexcept nogil:
        """geometry.reachable_tiles (geometry._search under NEB-13), appended as options
        ``n ..`` in sorted (x, y) order; returns the new count."""
        cdef int origin = self.ops[o].pos, r = self.ops[o].move
        cdef int ox = origin % self.W, oy = origin // self.W
        cdef int x0 = max(0, ox - r), x1 = min(self.W - 1, ox + r)
        cdef int y0 = max(0, oy - r), y1 = min(self.H - 1, oy + r)
        cdef int frontier[4096]
        cdef int nxt[4096]
        cdef int nf = 1, nn, i, k, t, x, y, nx, ny, nt, step
        cdef bint side_a, side_b
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                self.seen[y * self.W + x] = 0
        self.seen[origin] = 1
        frontier[0] = origin
        for step in range(r):
            nn = 0
            for i in range(nf):
                t = frontier[i]
                x = t % self.W
                y = t // self.W
                for k in range(8):
                    nx = x + _KING[k][0]
                    ny = y + _KING[k][1]
                    if not self._open(nx, ny):
                        continue
                    nt = ny * self.W + nx
                    if self.seen[nt] or self.occ[nt] >= 0:
                        continue
                    if _KING[k][0] != 0 and _KING[k][1] != 0 and self.diagonal != FREE:
                        side_a = self._open(nx, y) and self.occ[y * self.W + nx] < 0
                        side_b = self._open(x, ny) and self.occ[ny * self.W + x] < 0
                        if self.diagonal == SQUEEZE and not side_a and not side_b:
                            continue
                        if self.diagonal == CORNERS and not (side_a and side_b):
                            continue
                    self.seen[nt] = 1
                    nxt[nn] = nt
                    nn += 1
            for i in range(nn):
                frontier[i] = nxt[i]
            nf = nn
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                if self.seen[y * self.W + x]:
                    self.opt_op[n] = o
                    self.opt_tile[n] = y * self.W + x
                    n += 1
        return n

    # -- turn structure (rules.pending, winner_or_none, _side_to_choose) ------------------------

    cdef int _standing_mask(self) noexcept nogil:
        cdef int mask = 0, i
        for i in range(self.nops):
            if not self.ops[i].out:
                mask |= 1 << self.ops[i].side
        return mask

    cdef int _side_to_choose(self) noexcept nogil:
        """rules._side_to_choose: the side to act, passing over sides with nobody ready."""
        cdef int ready = 0, i, k, s
        for i in range(self.nops):
            if not self.ops[i].out and self.ops[i].ready:
                ready |= 1 << self.ops[i].side
        if ready == 0:
            return -1
        if self.turn >= 0 and (ready >> self.turn) & 1:
            return self.turn
        i = self.turn if self.turn >= 0 else 0
        for k in range(1, self.nsides + 1):
            s = (i + k) % self.nsides
            if (ready >> s) & 1:
                return s
        return -1

    cdef int _pending(self, int *who) noexcept:
        """rules.pending: FINISHED (``who`` the winner or -1), AUTOMATIC, or a choice of
        ``who``'s side."""
        cdef int s
        if last_side_standing(self._standing_mask(), self.nsides, who):
            return FINISHED
        if self.active >= 0:
            who[0] = self.ops[self.active].side
            return CHOOSE_ATTACK
        s = self._side_to_choose() if self.round > 0 else -1
        if s < 0:
            if self.round >= self.max_rounds:
                who[0] = -1
                return FINISHED
            return AUTOMATIC
        who[0] = s
        return CHOOSE_MOVE

    cdef int _round_start(self, _Dice dice, bytes round_slot) except -1:
        """rules.round_start and the RoundStarted event of rules.apply_event (NEB-11)."""
        cdef int nxt = self.round + 1, standing = self._standing_mask(), s, k, count, first
        cdef int order[MAX_SIDES]
        cdef Pool pool
        if self.first_rule == FIRST_RANDOM:
            # Roll("first side", Dist.uniform(standing)): the reference's outcome order
            count = 0
            for s in range(self.nsides):
                if (standing >> s) & 1:
                    count += 1
            pool.n = count
            pool.total = count
            for k in range(count):
                pool.cum[k] = k + 1
                pool.outcome[k] = self.first_outcomes[standing * MAX_SIDES + k]
            first = dice.draw(<const uint8_t *>round_slot, len(round_slot), 0, &pool)
        elif self.first_rule == FIRST_FIXED:
            first = self.first
            if not (standing >> first) & 1:
                for s in range(self.nsides):
                    if (standing >> s) & 1:
                        first = s
                        break
        else:
            count = 0
            for k in range(self.nsides):
                s = (self.first + k) % self.nsides
                if (standing >> s) & 1:
                    order[count] = s
                    count += 1
            first = order[(nxt - 1) % count]
        self.round = nxt
        self.turn = first
        self.active = -1
        for k in range(self.nops):
            self.ops[k].ready = not self.ops[k].out
        return 0

    cdef void _activation_ended(self, int o) noexcept nogil:
        """ActivationEnded in rules.apply_event (NEB-9)."""
        self.active = -1
        if self.alternate:
            self.turn = (self.ops[o].side + 1) % self.nsides
        else:
            self.turn = self.ops[o].side

    # -- legal actions (rules.legal_attacks, rules.can_target, rules.legal_moves) ---------------

    cdef int _attacks(self, int a) noexcept nogil:
        """rules.legal_attacks then EndActivation (opt_op: target, -1 for the end; opt_tile:
        the weapon)."""
        cdef int n = 0, wi, t, w
        cdef Op *me = &self.ops[a]
        for wi in range(me.nweap):
            w = me.wbase + wi
            for t in range(self.nops):
                if self._can_target(a, t, w):
                    self.opt_op[n] = t
                    self.opt_tile[n] = w
                    n += 1
        self.opt_op[n] = -1
        self.opt_tile[n] = -1
        return n + 1

    cdef bint _can_target(self, int a, int t, int w) noexcept nogil:
        """rules.can_target (NEB-7, NEB-12)."""
        cdef Op *me = &self.ops[a]
        cdef Op *it = &self.ops[t]
        if it.out or t == a:
            return False
        if self.enemies_only and it.side == me.side:
            return False
        if self.weapons[w].melee:
            if self._steps(me.pos, it.pos) != 1:
                return False
            if not self.melee_sight:
                return True
        return self._clear_lines(me.pos, it.pos, me.side, -1) >= 2

    cdef int _moves(self, int side) noexcept nogil:
        """The options of rules.pending for a side to activate: legal_moves of each ready
        operator in scenario order."""
        cdef int n = 0, o
        for o in range(self.nops):
            if not self.ops[o].out and self.ops[o].side == side and self.ops[o].ready:
                n = self._reachable(o, n)
        return n

    # -- greedy values (odds.rank_actions, action_value, _move_values, _enemy_values) ----------

    cdef inline double _score(self, int w, int t, int cover, int defense) noexcept nogil:
        """odds._score_key: mean damage + 2 x P(knock-out), from the reference's exact odds."""
        return self.score[((w * self.nops + t) * 2 + cover) * (self.maxdef + 1) + defense]

    cdef double _move_value(self, int o, int tile) noexcept nogil:
        """odds._move_values for one tile: the best attack score from it (0 where none may),
        minus 0.01 per king step to the nearest enemy."""
        cdef Op *me = &self.ops[o]
        cdef int e, wi, w, clear, steps, nearest = 1 << 30, any_enemy = 0
        cdef bint visible, cover, legal
        cdef double best = 0.0, best_e, value
        for e in range(self.nops):
            if self.ops[e].out or self.ops[e].side == me.side:
                continue
            any_enemy = 1
            steps = self._steps(tile, self.ops[e].pos)
            if steps < nearest:
                nearest = steps
            clear = self._clear_lines(tile, self.ops[e].pos, me.side, me.pos)
            visible = clear >= 2
            cover = visible and clear < 4 and not self._near(tile, self.ops[e].pos)
            best_e = 0.0
            for wi in range(me.nweap):
                w = me.wbase + wi
                legal = visible
                if self.weapons[w].melee:
                    legal = steps == 1 and (visible or not self.melee_sight)
                value = self._score(w, e, cover, self.ops[e].defense) if legal else 0.0
                if value > best_e:
                    best_e = value
            if best_e > best:
                best = best_e
        if not any_enemy:
            return 0.0
        return best - 0.01 * <double>nearest

    cdef double _attack_value(self, int a, int k) noexcept nogil:
        """odds.action_value of option ``k`` of the attack phase (0 for EndActivation)."""
        cdef int t = self.opt_op[k], w = self.opt_tile[k], clear
        cdef bint cover
        if t < 0:
            return 0.0
        if self.ops[t].side == self.ops[a].side:
            return -1.0
        clear = self._clear_lines(self.ops[a].pos, self.ops[t].pos, self.ops[a].side, -1)
        cover = 2 <= clear < 4 and not self._near(self.ops[a].pos, self.ops[t].pos)
        return self._score(w, t, cover, self.ops[t].defense)

    # -- policies (tactica.engine.policies.GreedyPolicy, RandomPolicy) ---------------------------------

    cdef int _choose(self, int policy, int kind, int actor, int n, int side) noexcept nogil:
        """The option a side's policy picks among ``n`` (GreedyPolicy.choose on
        rank_actions' values, ties broken by its generator; RandomPolicy.choose)."""
        cdef int k
        if policy == RANDOM:
            return self._integers(side, n)
        for k in range(n):
            if kind == CHOOSE_MOVE:
                self.values[k] = self._move_value(self.opt_op[k], self.opt_tile[k])
            else:
                self.values[k] = self._attack_value(actor, k)
        return self._greedy(side, self.values, n, self.top)

    # -- one attack (rules.resolve, attack_setup, attack_process, _attack_events) ---------------

    cdef int _attack(self, _Dice dice, int a, int t, int w) except -1:
        cdef Op *me = &self.ops[a]
        cdef Op *it = &self.ops[t]
        cdef int clear, hits, saves = 0, damage, left, amount, cover, pool
        cdef bytes slot
        clear = self._clear_lines(me.pos, it.pos, me.side, -1)
        cover = 2 <= clear < 4 and not self._near(me.pos, it.pos)
        if self.weapons[w].dice == 0:
            hits = 0
        else:
            slot = self.hit_slots[a]
            pool = self.weapons[w].tohit_pool
            if self.pools[pool].total == 0:  # more than 64 bits: the reference's sampler
                hits = dice.draw_wide(slot, me.hit_count, self.wide[pool])
            else:
                hits = dice.draw(<const uint8_t *>slot, len(slot), me.hit_count,
                                 &self.pools[pool])
            me.hit_count += 1
        if hits > 0:
            slot = self.armor_slots[a]
            pool = self.armor_pool[((w * self.nops + t) * 2 + cover) * (self.maxdice + 1) + hits]
            if self.pools[pool].total == 0:
                saves = dice.draw_wide(slot, me.armor_count, self.wide[pool])
            else:
                saves = dice.draw(<const uint8_t *>slot, len(slot), me.armor_count,
                                  &self.pools[pool])
            me.armor_count += 1
        damage = (hits - saves) * self.weapons[w].damage
        if damage > 0:
            left = it.defense - damage
            if left < 0:
                left = 0
            amount = it.defense - left
            it.taken += amount
            me.dealt += amount
            it.defense = left
            if left == 0:
                it.out = 1
                it.ready = 0
                self.occ[it.pos] = -1
        self._activation_ended(a)
        return 0

    # -- the battle (sim.play._run, Battle.step) ------------------------------------------------

    cdef inline void _move(self, int k) noexcept:
        """Move option ``k``: its operator to its tile (rules.apply_event), active now."""
        cdef int o = self.opt_op[k]
        self.occ[self.ops[o].pos] = -1
        self.ops[o].pos = self.opt_tile[k]
        self.occ[self.ops[o].pos] = o
        self.ops[o].ready = 0
        self.ops[o].moves += 1
        self.active = o

    cdef int _step(self, int kind, int who) except -1:
        """One step of the battle (Battle.step), of the kind _pending answered."""
        cdef int n, k, o, pol
        if kind == AUTOMATIC:
            self._round_start(self.dice, f"{'round ' + str(self.round + 1)!r}|first side|"
                              .encode() if self.first_rule == FIRST_RANDOM else b"")
        elif kind == CHOOSE_MOVE:
            n = self._moves(who)
            pol = self.policies[who]
            self._move(self._choose(pol, CHOOSE_MOVE, -1, n, who))
        else:
            o = self.active
            n = self._attacks(o)
            pol = self.policies[who]
            k = self._choose(pol, CHOOSE_ATTACK, o, n, who)
            if self.opt_op[k] < 0:
                self._activation_ended(o)
            else:
                self._attack(self.dice, o, self.opt_op[k], self.opt_tile[k])
        return 0

    cdef object _play(self, tuple policies, bytes prefix, object seed, object index,
                      int64_t max_steps):
        """Battle ``index`` of ``seed`` (KernelRuntime.play): (winner side or -1, finished,
        rounds, steps, per operator (survived, dealt, taken, moves, defense))."""
        cdef int i, kind, who = -1, steps = 0
        cdef bint finished
        self.dice = _Dice()
        self.dice.set_prefix(prefix)
        self.policies = policies
        if not self._new_battle(seed, index):
            raise ValueError("seed or index beyond 64 bits")
        for i in range(self.nops):
            self.ops[i] = self.init_ops[i]
        for i in range(self.N):
            self.occ[i] = -1
        for i in range(self.nops):
            self.occ[self.ops[i].pos] = i
        self.round = 0
        self.turn = -1
        self.active = -1
        steps = self._run(max_steps, &who)
        kind = self._pending(&who)
        finished = kind == FINISHED
        units = [(not self.ops[i].out, self.ops[i].dealt, self.ops[i].taken, self.ops[i].moves,
                  self.ops[i].defense) for i in range(self.nops)]
        return (who if finished else -1), finished, self.round, steps, units

    # -- a run from a given state with scripted dice and choices (testing.both) ----------------

    def run_scripted(self, dict start, list choices, list outcomes, int64_t max_steps):
        """Play from ``start`` (a state the reference can be in, see kernel.scripted_start)
        with scripted choices and dice, for at most ``max_steps`` steps, stopping earlier when
        the battle ends or a side must choose and no choice is left. ``choices``: per choice,
        the option (operator, tile) of a move, (target, weapon) of an attack, (-1, -1) to end
        an activation, ``None`` to stop there with the options offered; one the kernel does not
        offer raises ScriptError, and so does a draw the
        ``outcomes`` cannot answer (in order) or an outcome left over. Returns the steps' trace
        (rounds started, each choice with every option offered), the draws and the end
        state."""
        if self.busy:
            return Kernel(self.tables).run_scripted(start, choices, outcomes, max_steps)
        self.busy = True
        try:
            return self._run_scripted(start, choices, outcomes, max_steps)
        finally:
            self.busy = False

    cdef dict _run_scripted(self, dict start, list choices, list outcomes, int64_t max_steps):
        cdef int i, kind, who = -1, n, k, steps = 0, o, chosen = 0
        cdef _ScriptedDice dice = _ScriptedDice(outcomes)
        ops = start["ops"]
        if len(ops) != self.nops:
            raise ValueError(f"a start of {len(ops)} operators for a kernel of {self.nops}")
        for i in range(self.nops):
            pos, defense, out, ready = ops[i]
            if not 0 <= pos < self.N or defense < 0:
                raise ValueError(f"operator {i}: a position or defense out of range")
            self.ops[i] = self.init_ops[i]
            self.ops[i].pos = pos
            self.ops[i].defense = defense
            self.ops[i].out = 1 if out else 0
            self.ops[i].ready = 1 if ready else 0
        for i in range(self.N):
            self.occ[i] = -1
        for i in range(self.nops):
            if not self.ops[i].out:
                self.occ[self.ops[i].pos] = i
        self.round = start["round"]
        self.turn = start["turn"]
        self.active = start["active"]
        if not -1 <= self.turn < self.nsides or not -1 <= self.active < self.nops:
            raise ValueError("a side to act or an active operator out of range")
        trace = []
        while steps < max_steps:
            kind = self._pending(&who)
            if kind == FINISHED:
                break
            if kind == AUTOMATIC:
                self._round_start(dice, f"{'round ' + str(self.round + 1)!r}|first side|"
                                  .encode() if self.first_rule == FIRST_RANDOM else b"")
                trace.append(("round", self.round, self.turn))
            else:
                if chosen >= len(choices):
                    break
                if kind == CHOOSE_MOVE:
                    n = self._moves(who)
                else:
                    n = self._attacks(self.active)
                offered = [(self.opt_op[k], self.opt_tile[k]) for k in range(n)]
                if choices[chosen] is None:  # only what the kernel offers here
                    chosen += 1
                    trace.append(("move" if kind == CHOOSE_MOVE else "attack", who, offered,
                                  None))
                    break
                want = tuple(choices[chosen])
                chosen += 1
                if want not in offered:
                    raise KernelScriptError(f"the scripted choice {want!r} is not one the "
                                            f"kernel offers ({offered!r})")
                k = offered.index(want)
                trace.append(("move" if kind == CHOOSE_MOVE else "attack", who, offered, want))
                if kind == CHOOSE_MOVE:
                    self._move(k)
                elif self.opt_op[k] < 0:
                    self._activation_ended(self.active)
                else:
                    self._attack(dice, self.active, self.opt_op[k], self.opt_tile[k])
            steps += 1
            dice.check()
        if chosen < len(choices):
            raise KernelScriptError(f"scripted choices left over after the run: "
                                    f"{choices[chosen:]!r}")
        dice.check_done()
        kind = self._pending(&who)
        return {
            "trace": trace, "rolls": dice.rolls, "steps": steps,
            "pending": ("finished", "automatic", "move", "attack")[kind], "who": who,
            "round": self.round, "turn": self.turn, "active": self.active,
            "ops": [(self.ops[i].pos, self.ops[i].defense, bool(self.ops[i].out),
                     bool(self.ops[i].ready), self.ops[i].dealt, self.ops[i].taken,
                     self.ops[i].moves) for i in range(self.nops)],
        }
