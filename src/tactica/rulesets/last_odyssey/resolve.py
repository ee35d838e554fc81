"""The chance processes of Last Odyssey actions: costs, Confusion, the hit die, reactions.

A process computes each event from the state as the earlier events of the same action left it
(so a multi-target attack, a Faithful Lieutenant, a Revenge and a Shell that breaks all see each
other): after each emit, roll and decision it reads that state through the core's
:class:`~tactica.engine.chance.Observe`, which every driver (battle, odds, simulation) keeps for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tactica.dice import Dist
from tactica.engine.chance import Decide, Done, Observe, Roll, Step, emit_all
from tactica.rulesets.last_odyssey.content import Ability, stat_index
from tactica.rulesets.last_odyssey.hitdie import D10, Outcome, absorb, hit_faces, outcome
from tactica.rulesets.last_odyssey.records import (
    AbilityUsed,
    AmmoChanged,
    APSpent,
    AttackResolved,
    CoinCalled,
    Damaged,
    Disarmed,
    Downed,
    EndTurn,
    Equipped,
    Fled,
    Flee,
    Healed,
    HeldAP,
    HeldOn,
    HoldAP,
    Intercepted,
    ItemStolen,
    ItemUsed,
    ManaChanged,
    Move,
    Moved,
    PickUp,
    Retargeted,
    ShellGained,
    StatusesCured,
    StatusGained,
    SwapEquipment,
    TrackMoved,
    TurnEnded,
    UseAbility,
    UseItem,
)
from tactica.rulesets.last_odyssey.state import LodState
from tactica.rulesets.last_odyssey.targeting import mp_cost, reachable, target_setup

__all__ = ["Results", "attack", "effect_events", "resolve"]

#: Per target of an attack: the character that took it (a Faithful protector may stand in)
#: and its outcome.
Results = tuple[tuple[str, Outcome], ...]
K = Callable[[LodState], Step]
COIN: Dist[int] = Dist.uniform((0, 1))


# --------------------------------------------------------------------------------------------
# Reading the state as the action's own events left it (the core's Observe)


def emit(events: Sequence[Any], k: K) -> Step:
    """Emit ``events``, then continue with ``k`` on the state they leave."""
    return emit_all(events, Observe(k))


def roll(label: str, dist: Dist[Any], k: Callable[[LodState, Any], Step],
         dice: tuple[Dist[int], ...] = (),
         read: Callable[[tuple[int, ...]], Any] | None = None, hint: str = "") -> Step:
    """A roll whose continuation reads the state as it now stands (``hint``: what it needs,
    for people at the table)."""
    return Roll(label, dist, lambda v: Observe(lambda w: k(w, v)), dice, read, hint)


def decide(side: str, label: str, options: Sequence[Any],
           k: Callable[[LodState, Any], Step], **context: Any) -> Step:
    """A decision whose continuation reads the state as it now stands."""
    return Decide(side, label, tuple(options), lambda o: Observe(lambda w: k(w, o)), context)


def _done(work: LodState) -> Step:
    return Done(None)


def _first(faces: tuple[int, ...]) -> int:
    return faces[0]


# --------------------------------------------------------------------------------------------
# Effects that need no roll


def effect_events(work: LodState, user_id: str, ability: Ability, target_id: str,
                  element: str = "") -> list[Any]:
    """The events of a non-rolling ability or item on one target (in the order they apply)."""
    u, t = work.fighters[user_id], work.fighters[target_id]
    figures = work.pack.figures
    out: list[Any] = []
    top = len(figures.bonus_track) - 1
    for stat_name, step in ((ability.buff, 1), (ability.debuff, -1)):
        if stat_name is None or (step > 0 and "burned" in t.statuses):
            continue
        i = min(top, max(0, t.track[stat_index(stat_name)] + step))
        if i != t.track[stat_index(stat_name)]:
            out.append(TrackMoved(t.id, stat_name, step, figures.bonus_track[i]))
    if ability.heal and "burned" not in t.statuses:
        amount = min(ability.heal, t.max_hp - t.hp)
        if amount > 0:
            out.append(Healed(t.id, amount, t.hp + amount))
    if ability.restore_mp:
        amount = min(ability.restore_mp, t.max_mp - t.mp)
        if amount > 0:
            out.append(ManaChanged(t.id, amount, t.mp + amount))
    if ability.hurt:
        a = absorb(t.shell, t.hp, ability.hurt)
        out.append(Damaged(t.id, user_id, a.to_shell, a.to_hp, a.shell, a.hp, a.broken))
        if a.downed:
            out.append(HeldOn(t.id, False, user_id) if "too-stupid-to-die" in t.passives
                       else Downed(t.id, False, user_id))
    if ability.user_mp:
        amount = min(ability.user_mp, u.max_mp - u.mp)
        if amount > 0:
            out.append(ManaChanged(u.id, amount, u.mp + amount))
    if ability.shell:
        el = element or ability.element
        single = work.rulings["LOD-10"] == "single"
        have = 0 if single else dict(t.shells).get(el, 0)
        total = min(t.shell_cap, have + ability.shell)
        if total > have or single:
            out.append(ShellGained(t.id, el, total - have, total))
    if ability.gain_ammo:
        out.append(AmmoChanged(u.id, u.ammo + ability.gain_ammo))
    cured = tuple(s for s in ability.cure if s in t.statuses)
    if cured:
        out.append(StatusesCured(t.id, cured))
    return out


# --------------------------------------------------------------------------------------------
# Attacks


def _outcome_events(work: LodState, user_id: str, ability: Ability, target_id: str,
                    o: Outcome, kind: str, threshold: int | str, multiplier: str,
                    knockout: bool) -> list[Any]:
    t = work.fighters[target_id]
    status = ""
    if o.hit and ability.attack == "status" and ability.status not in t.statuses:
        status = ability.status or ""
    out: list[Any] = [AttackResolved(
        user_id, ability.id, target_id, kind, o.die, o.total,
        threshold if isinstance(threshold, int) else -1, o.hit, o.how, o.base, multiplier,
        o.damage, status, "body-armor" if o.blocked else "")]
    if status:
        out.append(StatusGained(target_id, status))
    if o.to_shell or o.to_hp or o.broken:
        out.append(Damaged(target_id, user_id, o.to_shell, o.to_hp, o.shell, o.hp, o.broken))
    ko = knockout and work.fighters[user_id].player
    stays = "too-stupid-to-die" in t.passives
    if o.downed and stays:
        # LOD-7: a knock-out blow that takes it to 0 HP makes its fall a knock-out too.
        out.append(HeldOn(target_id, ko, user_id))
    if o.downed and not stays:
        out.append(Downed(target_id, ko, user_id))
    elif o.broken and "tactical-retreat" in t.passives and work.rows.row_of(t.id) == "front":
        out.append(Moved(target_id, "back", True))
    if o.hit and ability.disarm and t.equipped is not None and not (o.downed):
        out.append(Disarmed(target_id, t.equipped.name))
    return out


def _protector(work: LodState, target_id: str) -> str | None:
    t = work.fighters[target_id]
    for f in work.fighters.values():
        if (f.standing and f.id != target_id and f.side == t.side and "faithful" in f.passives
                and any(work.ability(a).protects == t.name for a in f.abilities)):
            return f.id
    return None


def _strike(work: LodState, user_id: str, ability: Ability, target_id: str, element: str,
            knockout: bool, die: int) -> tuple[str, Outcome, list[Any]]:
    """One target's result and events, with Faithful standing in for a downed Captain."""
    s = target_setup(work, user_id, ability, target_id, element, knockout)
    o = outcome(s, die)
    mult = str(s.multiplier)
    if o.downed and ability.attack != "status":
        guard = _protector(work, target_id)
        if guard is not None:
            if work.rulings["LOD-14"] == "same-damage":
                g = work.fighters[guard]
                a = absorb(g.shell, g.hp, o.damage)
                o = Outcome(die, o.total, True, o.how, o.base, o.damage, a.to_shell, a.to_hp,
                            a.shell, a.hp, a.broken, a.downed)
            else:
                s = target_setup(work, user_id, ability, guard, element, knockout)
                o = outcome(s, die)
                mult = str(s.multiplier)
            events = [Intercepted(guard, target_id),
                      *_outcome_events(work, user_id, ability, guard, o, s.kind, s.threshold,
                                       mult, knockout)]
            return guard, o, events
    return target_id, o, _outcome_events(work, user_id, ability, target_id, o, s.kind,
                                         s.threshold, mult, knockout)


def steal_from(work: LodState, thief: str, victim: str, k: K) -> Step:
    """``thief`` takes one of ``victim``'s items (LOD-20: the thief's side picks, or a roll)."""
    items = work.fighters[victim].items
    if not items:
        return k(work)
    side = work.fighters[thief].side

    def take(w: LodState, item: str) -> Step:
        return emit([ItemStolen(thief, victim, item)], k)

    if work.rulings["LOD-20"] == "random":
        return roll("stolen item", Dist.uniform(items), take)
    return decide(side, "item to steal", tuple(dict.fromkeys(items)), take,
                  thief=thief, victim=victim)


def attack(work: LodState, user_id: str, ability: Ability, targets: Sequence[str],
           element: str, knockout: bool, k: Callable[[LodState, Results], Step], *,
           reactions: bool = True, label: str = "hit die") -> Step:
    """Roll one hit die for every target, resolve each in turn, then the reactions."""

    def run(w: LodState, die: int) -> Step:
        return _each(w, user_id, ability, tuple(targets), element, knockout, die, 0, (), k,
                     reactions)

    return roll(label, D10, run, (D10,), _first,
                _hit_hint(work, user_id, ability, targets, element, knockout))


def _hit_hint(work: LodState, user_id: str, ability: Ability, targets: Sequence[str],
              element: str, knockout: bool) -> str:
    """``hits Goblin on 1-6, Cop on 1-3`` (the faces of the hit die that hit each target)."""
    parts = []
    for tid in targets[:4]:
        if tid in work.fighters and work.fighters[tid].standing:
            s = target_setup(work, user_id, ability, tid, element, knockout)
            parts.append(f"{tid} on {hit_faces(s)}")
    more = f" (and {len(targets) - 4} more)" if len(targets) > 4 else ""
    return f"hits {', '.join(parts)}{more}" if parts else ""


def _each(w: LodState, user_id: str, ability: Ability, targets: tuple[str, ...], element: str,
          knockout: bool, die: int, i: int, results: Results,
          k: Callable[[LodState, Results], Step], reactions: bool) -> Step:
    if i == len(targets):
        if reactions:
            return _reactions(w, user_id, ability, results, 0, lambda w2: k(w2, results))
        return k(w, results)
    tid = targets[i]
    t = w.fighters[tid]
    if not t.standing:  # downed earlier in this attack (a Faithful Lieutenant, say)
        gone = (*results, (tid, Outcome(die, 0, False, "gone", shell=t.shell, hp=t.hp)))
        return _each(w, user_id, ability, targets, element, knockout, die, i + 1, gone, k,
                     reactions)
    took, o, events = _strike(w, user_id, ability, tid, element, knockout, die)
    done = (*results, (took, o))

    def next_target(w2: LodState) -> Step:
        return _each(w2, user_id, ability, targets, element, knockout, die, i + 1, done, k,
                     reactions)

    if o.hit and ability.steal:
        return emit(events, lambda w2: steal_from(w2, user_id, took, next_target))
    return emit(events, next_target)


def _triggered(trigger: str | None, hit: bool) -> bool:
    return trigger == "attacked-in-melee" or trigger == ("hit-in-melee" if hit
                                                         else "missed-in-melee")


def _declared(w: LodState, tid: str, user_id: str, reacts: tuple[Ability, ...], j: int,
              k: K) -> Step:
    """The target's declared reactions (abilities of type ``reaction``) in pack order: each
    uses its ``reaction`` ability on the attacker, paying its MP under LOD-15 ``costed``."""
    t, u = w.fighters[tid], w.fighters[user_id]
    if j == len(reacts) or not t.standing or not u.standing:
        return k(w)
    react = reacts[j]
    assert react.reaction is not None
    use = w.ability(react.reaction)

    def nxt(w2: LodState) -> Step:
        return _declared(w2, tid, user_id, reacts, j + 1, k)

    cost = mp_cost(t, use) if w.rulings["LOD-15"] == "costed" else 0
    if cost > t.mp:
        return nxt(w)
    used = AbilityUsed(tid, use.id, (user_id,), cost, 0, "", False, True)
    if use.attack is not None:
        return emit([used], lambda w2: attack(w2, tid, use, (user_id,), "", False,
                                              lambda w3, _r: nxt(w3), reactions=False,
                                              label=f"hit die ({react.name})"))
    return emit([used], lambda w2: emit(effect_events(w2, tid, use, user_id), nxt))


def _reactions(w: LodState, user_id: str, ability: Ability, results: Results, i: int,
               k: K) -> Step:
    """Revenge and Quick Fingers of the targets that an attack missed in melee, then the
    reactions a content pack declares (type ``reaction`` with a ``trigger``)."""
    if i == len(results):
        return k(w)
    tid, o = results[i]
    t, u = w.fighters[tid], w.fighters[user_id]

    def after(w2: LodState) -> Step:
        return _reactions(w2, user_id, ability, results, i + 1, k)

    if (o.how == "gone" or not ability.is_melee or t.side == u.side
            or not t.standing or not u.standing):
        return after(w)
    reacts = tuple(a for a in (w.ability(n) for n in t.abilities)
                   if a.type == "reaction" and _triggered(a.trigger, o.hit))

    def rest(w2: LodState) -> Step:
        return _declared(w2, tid, user_id, reacts, 0, after)

    if o.hit:
        return rest(w)
    costed = w.rulings["LOD-15"] == "costed"
    if "revenge" in t.passives:
        name = next((w.ability(a).reaction for a in t.abilities
                     if w.ability(a).passive == "revenge"), None)
        prod = w.ability(name) if name else None
        if prod is not None:
            cost = mp_cost(t, prod) if costed else 0
            if cost <= t.mp:
                used = AbilityUsed(tid, prod.id, (user_id,), cost, 0, "", False, True)
                return emit([used], lambda w2: attack(
                    w2, tid, prod, (user_id,), "", False, lambda w3, _r: rest(w3),
                    reactions=False, label="hit die (Revenge)"))
    if "quick-fingers" in t.passives and u.items:
        if not costed:
            return steal_from(w, tid, user_id, rest)
        steal = next((w.ability(a) for a in t.abilities if w.ability(a).steal), None)
        if steal is not None:
            return attack(w, tid, steal, (user_id,), "", False, lambda w3, _r: rest(w3),
                          reactions=False, label="hit die (Quick Fingers)")
    return rest(w)


# --------------------------------------------------------------------------------------------
# Actions


def _confused(work: LodState, action: UseAbility, ability: Ability,
              go: Callable[[LodState, tuple[str, ...]], Step]) -> Step:
    """A Confused user's single-target ability reaches its target only on a won coin call;
    otherwise the other side picks the target (LOD-12)."""
    u = work.fighters[action.unit]
    aimed = action.targets
    if ("confused" not in u.statuses or ability.is_multi or len(aimed) != 1
            or aimed[0] == u.id):
        return go(work, aimed)
    pickers = [s for s in work.sides if s != u.side and work.standing(s)]

    def called(w: LodState, won: int) -> Step:
        def after(w2: LodState) -> Step:
            if won or not pickers:
                return go(w2, aimed)
            options = [t.id for t in reachable(w2, u, ability, any_side=True)
                       if t.id != u.id or w2.rulings["LOD-12"] == "anyone"]
            if w2.rulings["LOD-12"] == "anyone" and u.id not in options:
                options.append(u.id)
            if not options:
                return go(w2, aimed)

            def picked(w3: LodState, target: str) -> Step:
                return emit([Retargeted(u.id, pickers[0], target)],
                            lambda w4: go(w4, (target,)))

            return decide(pickers[0], "confused target", options, picked,
                          user=u.id, ability=ability.id, aimed=aimed[0])

        return emit([CoinCalled(u.id, bool(won))], after)

    return roll("coin call", COIN, called)


def _use_ability(work: LodState, action: UseAbility) -> Step:
    u = work.fighters[action.unit]
    ability = work.ability(action.ability)
    cost = mp_cost(u, ability)
    events: list[Any] = []
    if ability.ap:
        events.append(APSpent(u.id, ability.ap, work.ap - ability.ap))
    events.append(AbilityUsed(u.id, ability.id, action.targets, cost, ability.ammo,
                              action.element, action.knockout))

    def go(w: LodState, targets: tuple[str, ...]) -> Step:
        if ability.attack is not None:
            def after(w2: LodState, _results: Results) -> Step:
                if ability.user_dies and w2.fighters[u.id].standing:
                    return emit([Downed(u.id, False, u.id)], _done)
                return Done(None)

            return attack(w, u.id, ability, targets, action.element, action.knockout, after)
        out: list[Any] = []
        for tid in targets:
            if w.fighters[tid].standing:
                out.extend(effect_events(w, u.id, ability, tid, action.element))
        return emit(out, _done)

    return emit(events, lambda w: _confused(w, action, ability, go))


def resolve(state: LodState, action: Any) -> Step:
    """The chance process of ``action``; it emits the events and ends in ``Done(None)``."""
    work = state
    ap = work.ap
    if isinstance(action, UseAbility):
        return _use_ability(work, action)
    if isinstance(action, EndTurn):
        return emit([TurnEnded(action.unit)], _done)
    if isinstance(action, Move):
        return emit([APSpent(action.unit, 1, ap - 1), Moved(action.unit, action.row)],
                    _done)
    if isinstance(action, HoldAP):
        return emit([APSpent(action.unit, 1, ap - 1), HeldAP(action.unit, action.after)],
                    _done)
    if isinstance(action, SwapEquipment):
        return emit([APSpent(action.unit, 1, ap - 1),
                           Equipped(action.unit, action.weapon)], _done)
    if isinstance(action, PickUp):
        dropped = work.fighters[action.unit].dropped
        assert dropped is not None
        return emit([APSpent(action.unit, 1, ap - 1), Equipped(action.unit, dropped.name)],
                    _done)
    if isinstance(action, Flee):
        return emit([Fled(action.unit)], _done)
    if isinstance(action, UseItem):
        item = work.pack.items[action.item]
        head: list[Any] = [APSpent(action.unit, 1, ap - 1),
                           ItemUsed(action.unit, action.item, action.target)]
        return emit(head, lambda w: emit(
            effect_events(w, action.unit, item, action.target), _done))
    raise TypeError(f"not a Last Odyssey action: {action!r}")
