"""Arc's actions on a turn: which are legal, and the chance process of each.

A turn is spent in AP: attacks (aimed or not), reloads (which clear a jam), swaps, healing
items, moves and watches on a grid, holding the turn (before spending anything) and ending it.
AP left when a turn ends pays for reactions until the round ends.
"""

from __future__ import annotations

from typing import Any

from tactica.dice import die
from tactica.engine.chance import Done, Roll, Step, and_then, emit_all
from tactica.rulesets.arc.armor import raise_step, remove_steps
from tactica.rulesets.arc.attack import (
    aim_modifier,
    attack_plan,
    attack_process,
    check_die,
    useful_aims,
)
from tactica.rulesets.arc.checks import (
    DEFAULT_INCREMENT,
    Check,
    CheckResult,
    fixed,
    read_check,
)
from tactica.rulesets.arc.content import DamageDice, Item
from tactica.rulesets.arc.movement import (
    move_options,
    move_process,
    reaches,
    reposition_options,
    reposition_process,
    sees,
)
from tactica.rulesets.arc.records import (
    APSpent,
    Attack,
    Checked,
    EndTurn,
    Healed,
    Held,
    Hold,
    ItemBegun,
    ItemFinished,
    ItemUsed,
    Jammed,
    Loaded,
    Move,
    Reload,
    Reposition,
    Swap,
    Swapped,
    UseItem,
    Watch,
    WatchSet,
    Woke,
    WoundsTreated,
)
from tactica.rulesets.arc.state import ArcState, Fighter, tile_text
from tactica.rulesets.arc.steps import after_action, emit, end_turn

__all__ = ["attack_targets", "finish_carried", "item_targets", "legal_actions", "needs",
           "resolve"]


def attack_targets(state: ArcState, f: Fighter) -> list[Fighter]:
    """The enemies in action that ``f``'s weapon in hand reaches and ``f`` sees."""
    if not f.profile.weapons:
        return []
    w = f.weapon
    return [t for t in state.fighters.values()
            if t.side != f.side and t.in_action and reaches(state, f, t, w)
            and sees(state, f.id, t.id)]


def needs(item: Item, t: Fighter) -> bool:
    """Whether ``item`` can do ``t`` any good (health to regain, wound dice to remove)."""
    if t.dead:
        return False
    heals = item.heal is not None and (t.health < t.profile.max_health or not t.conscious)
    treats = item.remove_steps is not None and bool(t.wounds)
    return heals or treats


def item_targets(state: ArcState, f: Fighter) -> list[Fighter]:
    """Who ``f`` can treat: itself and its allies (on a grid, the adjacent ones)."""
    out = []
    for t in state.fighters.values():
        if t.side != f.side or t.dead:
            continue
        if t.id != f.id and state.grid is not None and f.at is not None and t.at is not None \
                and max(abs(f.at[0] - t.at[0]), abs(f.at[1] - t.at[1])) > 1:
            continue
        out.append(t)
    return out


def legal_actions(state: ArcState, unit: str) -> tuple[Any, ...]:
    """Every action ``unit`` may take now, on its turn."""
    f = state.fighters[unit]
    rulings = state.rulings
    out: list[Any] = []
    if f.profile.weapons:
        w = f.weapon
        if f.can_fire(w):
            aims = useful_aims(w, rulings)
            for t in attack_targets(state, f):
                for aim in aims:
                    if aim + w.attack_ap(rulings) > f.ap:
                        break
                    out.append(Attack(unit, t.id, w.name, aim))
                    if attack_plan(state, out[-1]).check.target >= 20:
                        out.append(Attack(unit, t.id, w.name, aim, True))
        if w.reload <= f.ap and (w.name in f.jammed or (
                w.has_magazine and (f.rounds_of(w.name) or 0) < (w.full or 0))):
            out.append(Reload(unit, w.name))
        for other in f.profile.weapons:
            if other.name != w.name and other.swap <= f.ap:
                out.append(Swap(unit, other.name))
    for name, count in f.items:
        item = state.items[name]
        if count <= 0:
            continue
        for t in item_targets(state, f):
            if not needs(item, t):
                continue
            cost = item.ap(t.id == unit, rulings)
            if cost <= f.ap:
                out.append(UseItem(unit, name, t.id))
                continue
            short = cost - f.ap
            if f.debt + short <= f.profile.speed.rank:
                out.append(UseItem(unit, name, t.id, "speed"))
            if short <= f.profile.speed.rank:
                out.append(UseItem(unit, name, t.id, "carry"))
    out.extend(reposition_options(state, f))
    if state.grid is not None:
        for mode, squares in move_options(state, f).items():
            out.extend(Move(unit, tile_text(tile), mode) for tile in sorted(squares))
        out.extend(_watches(state, f))
    if state.fresh:
        seen = set()
        for later in state.queue[1:]:
            if later != unit and later not in seen and state.fighters[later].in_action:
                seen.add(later)
                out.append(Hold(unit, later))
    out.append(EndTurn(unit))
    return tuple(out)


def _watches(state: ArcState, f: Fighter) -> list[Any]:
    if not f.profile.weapons or not f.weapon.is_gun or not f.can_fire():
        return []
    w = f.weapon
    rulings = state.rulings
    out: list[Any] = []
    for aim in useful_aims(w, rulings):
        if aim + w.attack_ap(rulings) <= f.ap:
            out.append(Watch(f.id, "overwatch", aim + w.attack_ap(rulings), aim))
    if w.rof >= 2:
        out.extend(Watch(f.id, "suppress", ap) for ap in range(1, min(int(w.rof), f.ap) + 1))
    return out


# --------------------------------------------------------------------------------------------
# Processes


def resolve(state: ArcState, action: Any) -> Step:
    """The chance process of a legal action."""
    if isinstance(action, Attack):
        return and_then(attack_process(state, action), lambda _v: after_action(action.unit))
    if isinstance(action, Move):
        return and_then(move_process(state, action), lambda _v: after_action(action.unit))
    if isinstance(action, Reposition):
        return and_then(reposition_process(state, action),
                        lambda _v: after_action(action.unit))
    if isinstance(action, Reload):
        return _reload(state, action)
    if isinstance(action, Swap):
        f = state.fighters[action.unit]
        cost = f.profile.weapon(action.weapon).swap
        return emit([APSpent(f.id, cost, f.ap - cost, 0, f"swap to {action.weapon}"),
                     Swapped(f.id, action.weapon)], lambda _w: after_action(f.id))
    if isinstance(action, UseItem):
        return _use_item(state, action)
    if isinstance(action, Watch):
        if action.kind == "suppress" and state.rulings["ARC-32"] == "declared":
            return _suppress(state, action)
        f = state.fighters[action.unit]
        return emit([APSpent(f.id, action.ap, f.ap - action.ap, 0, action.kind),
                     WatchSet(f.id, action.kind, action.ap, action.aim)],
                    lambda w: end_turn(w, f.id))
    if isinstance(action, Hold):
        return emit_all([Held(action.unit, action.after)], Done(None))
    if isinstance(action, EndTurn):
        return end_turn(state, action.unit)
    raise TypeError(f"not an Arc action: {action!r}")


def _suppress(state: ArcState, action: Watch) -> Step:
    """Suppressing fire as the actions chapter has it (ARC-32 ``declared``): one unaimed
    attack roll when it is declared (a jam is threatened then); a failure ends the action,
    a success is kept for every attack the watch triggers."""
    f = state.fighters[action.unit]
    w = f.weapon
    rulings = state.rulings
    check = Check(w.skill.replace("_", " ").title(),
                  f.profile.skill(w.skill) + aim_modifier(w, 0, rulings), w.increment,
                  check_die(state, f.id, w.skill))
    spent = APSpent(f.id, action.ap, f.ap - action.ap, 0, action.kind)
    label = f"suppress ({w.skill.replace('_', ' ')})"

    def done(result: CheckResult, jammed: bool) -> Step:
        out: list[Any] = [spent, Checked(f.id, label, check.target, result.success,
                                         result.degree)]
        if jammed:
            out.append(Jammed(f.id, w.name))
        if result.success:
            out.append(WatchSet(f.id, action.kind, action.ap, 0, result.roll, result.degree,
                                result.how))
        return emit(out, lambda s: end_turn(s, f.id))

    def read(face: int) -> Step:
        result = read_check(face, check.target, check.increment, rulings)
        if w.failure is not None and face >= w.failure[0]:
            second = w.failure[1]
            return Roll(f"{f.id}'s {w.name}: jam threat (jams on {second}+)", die(20),
                        lambda v: done(result, v >= second), (die(20),), lambda x: x[0])
        return done(result, False)

    if w.hardware_degree is not None:
        return done(fixed(w.hardware_degree), False)
    return Roll(f"{f.id} suppresses ({check.label()})", check.die, read, (check.die,),
                lambda faces: faces[0],
                hint=f"{check.target} or under succeeds; the degree serves every attack the "
                     "suppression triggers")


def _reload(state: ArcState, action: Reload) -> Step:
    f = state.fighters[action.unit]
    w = f.profile.weapon(action.weapon)
    spent = APSpent(f.id, w.reload, f.ap - w.reload, 0, f"reload {w.name}")

    def loaded(rounds: int) -> Step:
        return emit([spent, Loaded(f.id, w.name, rounds)], lambda _w: after_action(f.id))

    if w.capacity_die is not None and state.rulings["ARC-23"] == "rolled":
        d = DamageDice(1, w.capacity_die)
        return Roll(f"{f.id}'s {w.name} magazine ({d})", d.dist(), loaded, d.faces, d.read)
    return loaded(w.full or 0)


def _medicine(state: ArcState, f: Fighter) -> Check:
    return Check("Medicine", f.profile.skill("medicine"), DEFAULT_INCREMENT,
                 check_die(state, f.id, "medicine"))


def _use_item(state: ArcState, action: UseItem) -> Step:
    """An item used now (its AP, or the AP missing paid with speed), or begun and carried
    into the next turn."""
    f, t = state.fighters[action.unit], state.fighters[action.target]
    item = state.items[action.item]
    cost = item.ap(t.id == f.id, state.rulings)
    used = ItemUsed(f.id, item.id, t.id, f.item_count(item.id) - 1)
    if action.pay == "carry":
        owed = cost - f.ap
        return emit([APSpent(f.id, f.ap, 0, 0, f"{item.name}, begun"), used,
                     ItemBegun(f.id, item.id, t.id, owed)], lambda _w: after_action(f.id))
    borrowed = max(0, cost - f.ap) if action.pay == "speed" else 0
    what = item.name + (f" ({borrowed} AP from speed)" if borrowed else "")
    return _item_effects(state, f.id, t.id, item.id,
                         [APSpent(f.id, cost, f.ap - cost + borrowed, borrowed, what), used])


def finish_carried(state: ArcState, unit: str) -> Step:
    """The start of the turn of a character that carried an item over: it pays the AP it
    owes and the item takes effect (a dead patient: the effect is lost); if this turn's AP
    do not cover the debt either, it pays them all and carries the rest on."""
    f = state.fighters[unit]
    assert f.carry is not None
    item_id, target, owed = f.carry
    item = state.items[item_id]
    if owed > f.ap:
        return emit([APSpent(unit, f.ap, 0, 0, f"{item.name}, carried on"),
                     ItemBegun(unit, item_id, target, owed - f.ap)],
                    lambda _w: after_action(unit))
    paid = APSpent(unit, owed, f.ap - owed, 0, f"{item.name}, finished")
    if state.fighters[target].dead:
        return emit([paid, ItemFinished(unit, item_id, target, f"{target} is dead")],
                    lambda _w: after_action(unit))
    return _item_effects(state, unit, target, item_id,
                         [paid, ItemFinished(unit, item_id, target)])


def _item_effects(state: ArcState, unit: str, target: str, item_id: str,
                  head: list[Any]) -> Step:
    """What an item does after ``head`` (its cost): the Medicine check, health, wound
    steps."""
    f, t = state.fighters[unit], state.fighters[target]
    item = state.items[item_id]
    smallest = state.rulings["ARC-26"] == "smallest"

    def effects(degree: int, events: list[Any]) -> Step:
        plus = degree if item.plus_degree else 0
        more = f"{plus:+d}" if plus else ""

        def healed(amount: int) -> Step:
            out = list(events)
            health = t.health
            if amount > 0:
                health = min(t.profile.max_health, t.health + amount)
                out.append(Healed(t.id, health - t.health, health))
                if health > 0 and (not t.conscious or t.falling) and not t.dead:
                    out.append(Woke(t.id))
            return steps(out)

        def steps(out: list[Any]) -> Step:
            n = item.remove_steps
            if n is None or not t.wounds:
                return emit(out, lambda _w: after_action(f.id))
            if isinstance(n, int):
                return treated(out, n)
            return Roll(f"{item.name}: wound steps removed ({n}{more})", n.dist(),
                        lambda v: treated(out, v), n.faces, n.read)

        def treated(out: list[Any], n: int) -> Step:
            wounds = remove_steps(t.wounds, max(0, n + plus), smallest_first=smallest)
            return emit([*out, WoundsTreated(t.id, wounds)], lambda _w: after_action(f.id))

        if item.heal is not None:
            d = item.heal
            return Roll(f"{item.name}: health regained ({d}{more})", d.dist(),
                        lambda v: healed(v + plus), d.faces, d.read)
        return steps(list(events))

    if item.check is None:
        return effects(0, head)
    check = _medicine(state, f)

    def checked(face: int) -> Step:
        result: CheckResult = read_check(face, check.target, check.increment, state.rulings)
        out = [*head, Checked(f.id, "medicine", check.target, result.success, result.degree)]
        if result.success:
            return effects(result.degree, out)
        failure = state.rulings["ARC-31"]
        if failure == "signed" and item.plus_degree:
            return effects(result.degree, out)
        if item.raise_on_failure or failure == "harm":
            steps = 1 if failure == "flat" else max(1, -result.degree)
            if t.wounds:
                wounds = t.wounds
                for _ in range(steps):
                    wounds = raise_step(wounds)
                out.append(WoundsTreated(t.id, wounds))
        return emit(out, lambda _w: after_action(f.id))

    return Roll(f"{f.id}'s {check.label()} ({item.name} on {t.id})", check.die, checked,
                (check.die,), lambda faces: faces[0])

