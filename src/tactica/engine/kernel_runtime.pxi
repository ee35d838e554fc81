# The runtime every game's compiled kernel shares (included by each game's _kernel.pyx after
# kernel_draws.pxi): what is the same in every kernel, written once, so that a game's kernel
# holds only its rules.
#
# * KernelRuntime, the base class of every game's ``Kernel``: the scenario's tables (built by
#   the game's kernel.py), ``play`` with its re-entry guard (the battle's state lives in the
#   kernel object: a call made while another is under way, from a thread sharing a prepared
#   kernel, plays on a fresh copy of the tables), the sides' policy generators of the battle
#   under way (play.policy_generator's ``default_rng([seed, index, 1, side])``, made natively
#   on first use: kernel_draws.pxi), the memory its tables own (freed with the kernel) and the
#   bit mask of the rulings a battle consulted.
# * ConsultingRuntime: a KernelRuntime whose ``play_consulted`` also answers that mask.
#
# A game's Kernel implements ``_play`` (one battle: its rules and its battle loop) and, where
# it keeps more than the tables, ``_copy``; a consulting one implements ``_consulted``.

from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
cimport cython

DEF RUNTIME_SIDES = 8   # the sides that have a policy generator (every kernel's side limit)
DEF BATTLE_OVER = 0     # what a kernel's _pending answers when the battle is over


cdef int fill_pool(Pool *pool, object table, str what) except -1:
    """A roll's exact sampler from its table ``(outcomes, cumulative weights, total)``;
    KernelLimit naming ``what`` when it has more outcomes than a Pool holds."""
    outcomes, cum, total = table
    if len(outcomes) > MAX_POOL_OUTCOMES:
        raise KernelLimit(f"{what} of more than {MAX_POOL_OUTCOMES} outcomes")
    pool.n = len(outcomes)
    pool.total = total
    for j in range(len(outcomes)):
        pool.outcome[j] = outcomes[j]
        pool.cum[j] = cum[j]
    return 0


cdef int within(object count, object most, str what) except -1:
    """KernelLimit "more than ``most`` ``what``" when ``count`` passes the kernel's limit."""
    if count > most:
        raise KernelLimit(f"more than {most} {what}")
    return 0


cdef int slots_within(object slots, int most) except -1:
    """KernelLimit when one of the dice keys' ``slots`` (bytes) is longer than ``most``."""
    for slot in slots:
        if len(slot) > most:
            raise KernelLimit(f"a dice key of more than {most} characters")
    return 0


cdef inline bint last_side_standing(int standing, int nsides, int *winner) noexcept nogil:
    """The end of a battle by the sides still standing (the bit mask ``standing``): True
    when at most one side is left, ``winner`` then that side (-1 for none)."""
    cdef int s, count = 0, last = -1
    for s in range(nsides):
        if (standing >> s) & 1:
            count += 1
            last = s
    if count > 1:
        return False
    winner[0] = last
    return True


cdef class KernelRuntime:
    """One scenario's tables and the plumbing of its battles (see the top of this file)."""
    cdef dict tables
    cdef bint busy
    # the rulings the battle under way consulted (each game's kernel.py maps the bits)
    cdef uint64_t cons
    # the sides' policy generators of the battle under way
    cdef tactica_pcg64 gens[RUNTIME_SIDES]
    cdef bint made[RUNTIME_SIDES]
    cdef uint32_t entropy[16]
    cdef int nentropy
    # a scripted run (tactica.testing.both): every choice among two or more options is the
    # script's next (index, count), not the side's generator (_scripted_choice)
    cdef bint script_run
    cdef list choice_script
    cdef int choices_taken
    cdef object script_error
    # the memory the kernel owns (_own), freed with it
    cdef void **owned
    cdef int nowned, owned_room

    def __dealloc__(self):
        cdef int i
        for i in range(self.nowned):
            free(self.owned[i])
        free(self.owned)

    cdef void *_own(self, size_t size, bint zeroed) except NULL:
        """``size`` bytes (``zeroed`` or not) that live as long as the kernel."""
        cdef void **grown
        cdef void *block
        if self.nowned == self.owned_room:
            grown = <void **>realloc(self.owned, sizeof(void *) * (2 * self.owned_room + 16))
            if grown == NULL:
                raise MemoryError()
            self.owned = grown
            self.owned_room = 2 * self.owned_room + 16
        block = calloc(max(1, size), 1) if zeroed else malloc(max(1, size))
        if block == NULL:
            raise MemoryError()
        self.owned[self.nowned] = block
        self.nowned += 1
        return block

    # -- the policies' generators (tactica.analysis.sim.play.policy_generator) -----------------

    @cython.final
    cdef bint _new_battle(self, object seed, object index) except -1:
        """Battle ``index`` of ``seed`` begins: no policy generator made yet; False when the
        seed or the index does not fit the generators' entropy."""
        cdef int i
        self.nentropy = entropy_words([seed, index, 1], self.entropy, 12)
        if self.nentropy < 0:
            return False
        for i in range(RUNTIME_SIDES):
            self.made[i] = False
        return True

    @cython.final
    cdef inline tactica_pcg64 *_generator(self, int side) noexcept nogil:
        """The side's policy generator, made on first use."""
        if not self.made[side]:
            self.entropy[self.nentropy] = side
            pcg64_from_words(&self.gens[side], self.entropy, self.nentropy + 1)
            self.made[side] = True
        return &self.gens[side]

    @cython.final
    cdef inline int _integers(self, int side, int n) noexcept nogil:
        """``generator.integers(n)`` of the side's policy generator (in a scripted run, the
        script's next choice)."""
        if n <= 1:
            return 0
        if self.script_run:
            with gil:
                return self._scripted_choice(n)
        return pcg64_integer(self._generator(side), n)

    cdef void _start_script(self, list choices):
        """A scripted run begins: ``choices``, the (index, count) of every choice in order
        (those of a single option, which draw nothing, are left out here)."""
        self.script_run = True
        self.choice_script = [c for c in choices if c[1] > 1]
        self.choices_taken = 0
        self.script_error = None

    cdef object _script_left(self):
        """After a scripted run: what went wrong with its choices (a string), or None."""
        if self.script_error is not None:
            return self.script_error
        if self.choices_taken < len(self.choice_script):
            return ("scripted choices left over after the run: "
                    f"{self.choice_script[self.choices_taken:]!r}")
        return None

    @cython.final
    cdef int _scripted_choice(self, int n) noexcept:
        """The script's next choice among ``n`` options; a choice the kernel does not offer
        (another count, an index out of range) or none left is noted in ``script_error``,
        the first only, and answered 0 (the run is refused at its end)."""
        if self.script_error is not None:
            return 0
        if self.choices_taken >= len(self.choice_script):
            self.script_error = f"no scripted choice left (the kernel offers {n} options)"
            return 0
        index, count = self.choice_script[self.choices_taken]
        self.choices_taken += 1
        if count != n or not 0 <= index < n:
            self.script_error = (f"scripted choice {self.choices_taken} is option {index} of "
                                 f"{count}, the kernel offers {n} options")
            return 0
        return index

    @cython.final
    cdef inline int _greedy(self, int side, const double *values, int n,
                            int *top) noexcept nogil:
        """GreedyPolicy.choose on the ``n`` options' ``values`` (rank_actions): the best,
        ties broken by the side's generator (``top``: room for ``n``)."""
        cdef int ntop = greedy_ties(values, n, top)
        if ntop > 1:
            return top[self._integers(side, ntop)]
        return top[0]

    # -- the rulings consulted (tactica.engine.consulted: where the reference reads them) -----

    @cython.final
    cdef inline void _c(self, int n) noexcept nogil:
        """The reference reads the ruling of bit ``n - 1`` here."""
        self.cons |= (<uint64_t>1) << (n - 1)

    # -- the battle (sim.play._run) -------------------------------------------------------------

    cdef int64_t _run(self, int64_t max_steps, int *who) except -1:
        """The battle loop (sim.play._run, Battle.step): what happens next (``_pending``),
        then that step (``_step``), until the battle is over or ``max_steps`` steps are
        played; the steps played."""
        cdef int64_t steps = 0, _
        cdef int kind
        for _ in range(max_steps):
            kind = self._pending(who)
            if kind == BATTLE_OVER:
                break
            steps += 1
            self._step(kind, who[0])
        return steps

    cdef int _pending(self, int *who) noexcept:
        """What happens next (the game's rules.pending): BATTLE_OVER, ``who`` the winner or
        -1, or the game's kind of step, ``who`` the side (or unit) it concerns."""
        return BATTLE_OVER

    cdef int _step(self, int kind, int who) except -1:
        """One step of the battle, of the ``kind`` ``_pending`` answered."""
        return 0

    def play(self, tuple policies, bytes prefix, object seed, object index, int64_t max_steps):
        """Battle ``index`` of ``seed`` with dice keyed ``prefix``, at most ``max_steps``
        steps: the game's answer (see its kernel.py and its ``_play``). A call made while
        another is under way plays on a copy of the tables."""
        return self._guarded(False, policies, prefix, seed, index, max_steps)

    cdef object _guarded(self, bint consulted, tuple policies, bytes prefix, object seed,
                         object index, int64_t max_steps):
        """``_play`` (and ``_consulted``) on this kernel, or on a copy while it is busy."""
        if self.busy:
            other = self._copy()
            if consulted:
                return other.play_consulted(policies, prefix, seed, index, max_steps)
            return other.play(policies, prefix, seed, index, max_steps)
        self.busy = True
        try:
            played = self._play(policies, prefix, seed, index, max_steps)
            return self._consulted(played) if consulted else played
        finally:
            self.busy = False

    cdef object _copy(self):
        """A fresh kernel of the same tables."""
        return type(self)(self.tables)

    cdef object _play(self, tuple policies, bytes prefix, object seed, object index,
                      int64_t max_steps):
        raise NotImplementedError

    # -- a battle from its start with scripted choices and dice (tactica.testing.both) ------

    def run_scripted(self, list choices, list outcomes, int64_t max_steps):
        """The battle from its start for at most ``max_steps`` steps, every choice scripted:
        ``choices`` the (index, count) of each choice among its options, in order (those of a
        single option left out: they draw nothing), ``outcomes`` the index of each roll's
        outcome in its pool, in order. A count that is not the kernel's, a script that runs out
        or is left over, an outcome out of range raise ScriptError. Returns (the answer of
        :meth:`play`, the draws). Played on a scripted copy (the game's ``_scripted``)."""
        return self._scripted().run_script(choices, outcomes, max_steps)

    cdef object _scripted(self):
        """A kernel of the same tables whose draws are scripted (the game's ScriptedKernel)."""
        raise NotImplementedError("this kernel plays no scripted battle")

    cdef object _run_script(self, _ScriptedDice dice, list choices, tuple policies,
                            int64_t max_steps):
        """``_play`` from the start, every choice the script's and every draw ``dice``'s; a
        script that does not fit the battle raises ScriptError. Returns (the answer of
        ``_play``, the draws)."""
        self._start_script(choices)
        out = self._play(policies, b"", 0, 0, max_steps)
        if self.script_error is not None:
            raise KernelScriptError(self.script_error)
        dice.check()
        left = self._script_left()
        if left is not None:
            raise KernelScriptError(left)
        dice.check_done()
        return out, dice.rolls

    cdef object _consulted(self, object played):
        raise NotImplementedError


cdef class ConsultingRuntime(KernelRuntime):
    """A KernelRuntime that also says which rulings a battle consulted."""

    def play_consulted(self, tuple policies, bytes prefix, object seed, object index,
                       int64_t max_steps):
        """:meth:`play`'s answer and the bit mask of the rulings the battle consulted (as
        the reference records them), or the game's answer when the kernel cannot say."""
        return self._guarded(True, policies, prefix, seed, index, max_steps)
