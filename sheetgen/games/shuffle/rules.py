"""Shuffle Dungeons (seed 002): the engine, `RULES.step(state, action) -> Outcome`.

Pure: no I/O.  The dungeon is a set of tiles on integer cells (x east, y south);
each tile is a room card (open paths N/E/S/W, turned by quarter turns), a monster
card (not a room until slain, then flipped to its room side) or the Boss room
(face down until a built room connects to it).  Dice come from the play log.
The hero whose turn it is is `state.active` (a `BeginTurn` action sets it).

How the rules read here (see docs/formats-cards.md):
- A step from room A to a neighbouring room B needs an open path on A towards B
  and on B back towards A; monsters and the face-down Boss are not rooms.
- Steps per turn <= the hero's speed, split across the turn.
- A monster's area is its own cell plus the offsets on its minimap (default:
  the four neighbouring cells).  Other heroes in that area assist (+1 die each);
  other monsters whose area holds the hero assist the monster (+1 die each).
- Fighting ends the turn; ending a turn in a monster's area without a fight is
  illegal; hand size 3 at the end of the turn; draw once per turn, one card per
  open path; card powers and shrines once per turn.
- Where the text allows two readings, the default is the one above and the other
  a ShuffleReading: 'assist-own-dice' (an assisting monster adds its own dice),
  'draw-no-card-paths' / 'draw-no-room-paths' (open paths with no card / no room
  on them), 'slide-enters-trap' (a roll for a trap a hero was slid into).  A
  reading decides whether a step breaks a rule, never how the state goes on, so
  a log judged under any readings replays through the same states.

Every step is followed as far as it goes (a refused move leaves the hero where
they were; a draw of the wrong count still draws), so a checker goes on from
`Outcome.state` and one mistake gives one violation.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..base import Outcome, ReadingsInUse, Rules, StepReport, broken, handler_of
from ..grid import DIR_NAMES as _NAMES, DIRS, OPPOSITE
from .actions import (Action, BeginTurn, Build, Burn, Draw, Eat, Effect, EndTurn, Equip, Fight, LevelUp, Loot, Move,
                      PlaceMonster, Power, Shift, Shrine, Slide, Swap, Trade, Trap, Twist, Ward)
from .readings import ShuffleReading
from .tables import DEFAULT_DICE, DIE_FACES, HAND_SIZE, KO_BURN, NEIGHBOURS, ORDER, SLOTS


def turn_paths(paths: frozenset, quarter_turns: int) -> frozenset:
    """Paths after turning the card clockwise by quarter_turns."""
    q = quarter_turns % 4
    return frozenset(ORDER[(ORDER.index(p) + q) % 4] for p in paths)


# -- card specs (from the deck definition) -----------------------------------
@dataclass(frozen=True, slots=True)
class RoomSpec:
    id: str
    paths: frozenset
    type: str = "room"                  # room | start | trap | shrine | ward | boss
    challenge: int = 0                  # trap
    reward_loot: int = 0                # trap reward: cards looted
    penalty_damage: int = 0             # trap penalty: damage
    area: tuple = ((0, 0),)             # ward area


@dataclass(frozen=True, slots=True)
class MonsterSpec:
    id: str
    attack: int
    hp: int
    dice: int = DEFAULT_DICE
    black: int = 0
    red: int = 0
    loot: int = 0                       # printed loot (cards looted from the pile when slain)
    area: tuple = NEIGHBOURS
    room_paths: frozenset = frozenset(ORDER)
    power: tuple | None = None          # what its power does when it wins (tables.power_from_text); None: unknown


@dataclass(frozen=True, slots=True)
class ItemSpec:
    id: str
    type: str                           # weapon | armor | spell | snack
    attack: int = 0
    speed: int = 0
    hp: int = 0                         # armor: damage it absorbs before it is destroyed
    heal: int = 0                       # snack
    upgrade_requires: str | None = None  # 'leveled' | 'armor' | 'spell' | 'weapon'
    upgrade_attack: int = 0
    upgrade_speed: int = 0


@dataclass(frozen=True, slots=True)
class HeroSpec:
    id: str
    speed: int
    attack: int
    hp: int
    dice: int = DEFAULT_DICE
    leveled: tuple = ()                 # (speed, attack, hp, dice) on the levelled side


@dataclass(frozen=True)
class Catalog:
    rooms: dict
    monsters: dict
    items: dict
    heroes: dict
    boss: RoomSpec | None = None
    boss_flip: tuple | None = None      # what the Boss's flip power does to every hero; None: unknown

    def kind(self, card: str) -> str | None:
        if card in self.rooms:
            return "room"
        if card in self.monsters:
            return "monster"
        if card in self.items:
            return "item"
        if self.boss is not None and card == self.boss.id:
            return "boss"
        return None


# -- state -------------------------------------------------------------------
@dataclass(slots=True)
class Tile:
    card: str
    kind: str                           # room | monster | slain (a monster flipped to its room side) | boss
    turns: int = 0                      # quarter turns clockwise
    face_up: bool = True
    damage: int = 0                     # monster damage
    loot: tuple = ()                    # monster loot pile


@dataclass(slots=True)
class Hero:
    name: str
    spec: HeroSpec
    at: tuple
    leveled: bool = False
    damage: int = 0
    hand: list = field(default_factory=list)
    equipped: dict = field(default_factory=dict)    # slot -> item id
    armor_damage: int = 0
    # this turn
    steps: int = 0
    drew: bool = False
    fought: bool = False
    powers: set = field(default_factory=set)
    shrine: bool = False
    trap: tuple | None = None           # cell of a trap entered and not yet rolled
    trap_may: tuple | None = None       # cell of a trap reached by a SLIDE: a roll is accepted, not required
    monsters: list = field(default_factory=list)     # drawn monsters still to place
    level_up_due: tuple = ()            # who may still level up after this turn's slaying fight
    auto_loot: tuple = ()               # cards the last action looted for the log (trap reward, slain monster)
    traded: bool = False                # traded this turn ("once per turn")
    power_due: tuple | None = None      # (monster card, its cell, (kind, n), the fighter's cell): a won fight's power
    refused: frozenset = frozenset()    # cards in hand whose play this turn was refused (they stay in the hand)
    lost: bool = False                  # a move of this turn was refused: the log has the hero elsewhere

    def copy(self) -> "Hero":
        return replace(self, hand=list(self.hand), equipped=dict(self.equipped), powers=set(self.powers),
                       monsters=list(self.monsters))


@dataclass(slots=True)
class State:
    catalog: Catalog
    tiles: dict                          # (x, y) -> Tile
    heroes: dict                         # name -> Hero
    pile: list | None = None             # dungeon draw pile, top first (None: not tracked)
    burned: list = field(default_factory=list)
    active: str | None = None
    boss_flipped: list = field(default_factory=list)  # events, for reports
    readings: ReadingsInUse = field(default_factory=ReadingsInUse)   # shared by every copy of a replay
    flip_due: tuple | None = None       # (damage, heroes still to take it): the Boss's flip power this turn
    burn_due: int = 0                   # pile cards a knock-out burns once the monster's power has acted

    def copy(self) -> "State":
        return State(self.catalog, {k: replace(v) for k, v in self.tiles.items()},
                     {k: v.copy() for k, v in self.heroes.items()},
                     None if self.pile is None else list(self.pile), list(self.burned), self.active,
                     list(self.boss_flipped), self.readings, self.flip_due, self.burn_due)

    # -- geometry --
    def paths(self, cell) -> frozenset:
        t = self.tiles.get(cell)
        if t is None or not self.is_room(cell):
            return frozenset()
        if t.kind == "boss":
            base = self.catalog.boss.paths
        elif t.kind == "slain":
            base = self.catalog.monsters[t.card].room_paths
        else:
            base = self.catalog.rooms[t.card].paths
        return turn_paths(base, t.turns)

    def is_room(self, cell) -> bool:
        t = self.tiles.get(cell)
        return t is not None and t.face_up and t.kind != "monster"

    def room_spec(self, cell) -> RoomSpec | None:
        t = self.tiles.get(cell)
        if t is None or t.kind != "room":
            return None
        return self.catalog.rooms[t.card]

    def monster_area(self, cell) -> set:
        t = self.tiles[cell]
        spec = self.catalog.monsters[t.card]
        x, y = cell
        return {(x + dx, y + dy) for dx, dy in spec.area} | {cell}

    def monsters_threatening(self, at) -> list:
        return [c for c, t in self.tiles.items() if t.kind == "monster" and at in self.monster_area(c)]

    def hero_stat(self, h: Hero, stat: str) -> int:
        idx = {"speed": 0, "attack": 1, "hp": 2, "dice": 3}[stat]
        if h.leveled and h.spec.leveled:
            base = h.spec.leveled[idx]
        else:
            base = getattr(h.spec, stat)
        if stat in ("attack", "speed"):
            for slot, item in h.equipped.items():
                spec = self.catalog.items[item]
                base += getattr(spec, stat)
                if self.upgrade_unlocked(h, spec):
                    base += spec.upgrade_attack if stat == "attack" else spec.upgrade_speed
        return base

    def upgrade_unlocked(self, h: Hero, spec: ItemSpec) -> bool:
        req = spec.upgrade_requires
        if req is None:
            return False
        if req == "leveled":
            return h.leveled
        return req in h.equipped            # e.g. a weapon upgraded while a spell is equipped


Report = StepReport   # the violations of one step; refused: the action was not carried out


def _refuse(report: Report, rule: str, message: str) -> None:
    """A violation that stops the action: it is not carried out."""
    report.refuse(rule, message)

# after a fight only its aftermath: the monster's power (loot into its pile, effects), level-up, burns, snacks
_AFTERMATH = ("burn", "end-turn", "eat", "level-up", "loot", "gain")


class ShuffleRules(Rules[State, Action]):
    """The rules of Shuffle Dungeons (seed 002)."""
    game = "shuffle"

    def new_game(self, catalog: Catalog, tiles: dict, heroes: list[Hero], pile: list | None,
                 readings=()) -> State:
        """The state before the first turn; readings: ShuffleReading members or their names."""
        return State(catalog, tiles, {h.name: h for h in heroes}, pile,
                     readings=ReadingsInUse(ShuffleReading.parse(readings)))

    def step(self, state: State, action: Action) -> Outcome[State]:
        """The state after action (followed as far as it goes) and every rule it broke."""
        st = state.copy()
        report = Report()
        if isinstance(action, BeginTurn):
            _begin_turn(st, action.hero, report)
            return Outcome(st, tuple(report))
        who = action.by or st.active
        h = st.heroes.get(who)
        if h is None:
            return Outcome(st, (broken("shuffle.hero", f"no hero named '{who}'"),))
        if who != st.active and action.verb != "eat":
            _refuse(report, "shuffle.off-turn", f"it is {st.active}'s turn; {who} may only use snacks now")
            return Outcome(st, tuple(report), False)
        active = st.heroes[st.active]
        if active.fought and action.verb not in _AFTERMATH and not _is_monster_power(active, action):
            report.append(broken("shuffle.fight-ends-turn", f"fighting ended {active.name}'s turn; "
                                                            f"'{action.verb}' comes too late"))
        if active.trap is not None and action.verb not in ("trap", "eat"):
            report.append(broken("shuffle.trap-roll", f"{active.name} entered a trap: roll (d6 + speed) "
                                                      f"before '{action.verb}'"))
            active.trap = None
        restated, h.auto_loot = _restates_loot(h, action), ()
        lost = h.lost
        if not restated:
            handler_of(_HANDLERS, action, self.game)(st, h, action, report)
        if lost:
            for v in report:
                if v.rule in _WHERE_RULES:
                    v.consequence = True        # where the hero is: the earlier refused move's echo
        if report.refused:
            _remember_refusal(st, h, action)
        return report.outcome(st)

    def legal_actions(self, state: State) -> list[Action]:
        """The actions of the active hero the rules accept now that need no dice and no
        choice of cards from the pile: single steps, draw, playing a drawn monster,
        building from the hand, equipping, eating, powers, shrine, ward, ending the turn."""
        h = state.heroes[state.active]
        paths = [d for d in ORDER if d in state.paths(h.at)]
        candidates: list = [Move((d,)) for d in ORDER] + [Draw()]
        candidates += [PlaceMonster(m, d) for m in dict.fromkeys(h.monsters) for d in paths]
        for card in dict.fromkeys(h.hand):
            kind = state.catalog.kind(card)
            if kind == "room":
                candidates += [Build(card, path=d, turns=q) for d in paths for q in range(4)]
            elif kind == "item":
                candidates.append(Eat(card) if state.catalog.items[card].type == "snack" else Equip(card))
        candidates += [Power(c) for c in dict.fromkeys((h.spec.id, *h.equipped.values(), *h.hand))]
        candidates += [Shrine(), Ward(), EndTurn()]
        return [a for a in candidates if not self.step(state, a).violations]


RULES = ShuffleRules()


def _begin_turn(st: State, hero: str, report: Report) -> None:
    if hero not in st.heroes:
        _refuse(report, "shuffle.hero", f"no hero named '{hero}'")
        return
    h = st.heroes[hero]
    _new_turn(h)
    st.active = hero


def _new_turn(h: Hero) -> None:
    h.steps, h.drew, h.fought, h.powers, h.shrine, h.trap, h.monsters = 0, False, False, set(), False, None, []
    h.trap_may, h.level_up_due, h.traded, h.power_due, h.refused, h.lost = None, (), False, None, frozenset(), False


def _remember_refusal(st: State, h: Hero, a: Action) -> None:
    """What a refused action leaves behind for later reports to be read as its echoes: the
    card it would have played stays in the hand; a refused move leaves the hero elsewhere
    than the log has them."""
    card = getattr(a, "room", None) if isinstance(a, Build) else getattr(a, "item", None) or getattr(a, "snack", None)
    if isinstance(card, str) and card in h.hand:
        h.refused = h.refused | {card}
    if isinstance(a, PlaceMonster) and a.monster in h.monsters:
        h.refused = h.refused | {a.monster}
    if isinstance(a, (Move, Slide)):
        h.lost = True


# what a hero's position decides: after a refused move these only echo it (the log has the hero elsewhere)
_WHERE_RULES = frozenset({"shuffle.move-path", "shuffle.move-speed", "shuffle.fight-area", "shuffle.trap",
                          "shuffle.trap-roll", "shuffle.trade-room", "shuffle.must-fight", "shuffle.shrine",
                          "shuffle.ward", "shuffle.draw-count", "shuffle.build-path", "shuffle.place-monster"})


def _is_monster_power(h: Hero, a: Action) -> bool:
    """A room moved by the power of the monster that just won (a SHIFT via it): the fight's aftermath."""
    return h.power_due is not None and isinstance(a, Shift) and a.via == h.power_due[0]


def _restates_loot(h: Hero, a: Action) -> bool:
    """A `loot` right after a trap reward or a slaying fight that names the cards the
    reward already took (or their number) writes that reward down again: not a second loot."""
    if not isinstance(a, Loot) or not h.auto_loot or a.monster is not None:
        return False
    cards = a.cards
    return tuple(cards) == h.auto_loot if cards is not None else a.count == len(h.auto_loot)


# -- helpers -----------------------------------------------------------------
def _cell_name(cell) -> str:
    return f"[{cell[0]}, {cell[1]}]"


def _damage_hero(st: State, h: Hero, amount: int, on_armor: int, report: Report, what: str) -> None:
    """Put amount of damage on h, on_armor of it on the equipped armour; knock out at HP."""
    if on_armor:
        armor = h.equipped.get("armor")
        if armor is None:
            report.append(broken("shuffle.armor", f"{h.name} has no armour to take damage ({what})"))
            on_armor = 0
        else:
            left = st.catalog.items[armor].hp - h.armor_damage
            if on_armor > min(left, amount):
                report.append(broken("shuffle.armor", f"{h.name}'s armour can take at most {min(left, amount)} "
                                                      f"of this damage, not {on_armor} ({what})"))
                on_armor = min(left, amount)
            h.armor_damage += on_armor
            if h.armor_damage >= st.catalog.items[armor].hp:
                del h.equipped["armor"]
                st.burned.append(armor)
                h.armor_damage = 0
    h.damage += amount - on_armor
    if h.damage >= st.hero_stat(h, "hp"):
        _knock_out(st, h)


def _knock_out(st: State, h: Hero) -> None:
    st.burned.extend(h.equipped.values())
    h.equipped = {}
    h.armor_damage = 0
    h.damage = 0
    due = st.heroes[st.active].power_due if st.active in st.heroes else None
    if due is not None and due[2] is not None and due[2][0] in ("loot", "burn"):
        st.burn_due += KO_BURN      # "3. Monster activates power  4. If Hero knocked out: ... Burn top 5"
    else:
        _burn_pile(st, KO_BURN)


def _burn_pile(st: State, n: int) -> None:
    if st.pile is not None and n:
        st.burned.extend(st.pile[:n])
        del st.pile[:n]


def _enter(st: State, h: Hero, cell) -> None:
    h.at = cell
    spec = st.room_spec(cell)
    if spec is not None and spec.type == "trap":
        h.trap = cell


def _can_step(st: State, a, d) -> tuple[bool, str]:
    dx, dy = DIRS[d]
    b = (a[0] + dx, a[1] + dy)
    t = st.tiles.get(b)
    if t is None:
        return False, f"there is no room {_NAMES[d]} of {_cell_name(a)}"
    if t.kind == "monster":
        return False, f"the monster '{t.card}' {_NAMES[d]} of {_cell_name(a)} is not a room until slain"
    if not t.face_up:
        return False, f"the Boss room {_NAMES[d]} of {_cell_name(a)} is still face down"
    if d not in st.paths(a):
        return False, f"the room at {_cell_name(a)} has no open path {_NAMES[d]}"
    if OPPOSITE[d] not in st.paths(b):
        return False, f"the room at {_cell_name(b)} has no open path back {_NAMES[OPPOSITE[d]]}"
    return True, ""


def _cell_of(st: State, ref, report: Report, verb: str):
    """A room reference (a card id on the table or [x, y]) -> cell, or None."""
    if isinstance(ref, tuple):
        if ref not in st.tiles:
            _refuse(report, "shuffle.no-room", f"{verb}: nothing at {_cell_name(ref)}")
            return None
        return ref
    found = [c for c, t in st.tiles.items() if t.card == ref]
    if len(found) != 1:
        _refuse(report, "shuffle.no-room", f"{verb}: " + (f"'{ref}' is not on the table" if not found else
                                                               f"'{ref}' is on the table {len(found)} times; give [x, y]"))
        return None
    return found[0]


def _room_only(st: State, cell, report: Report, verb: str) -> bool:
    t = st.tiles[cell]
    if t.kind == "monster":
        _refuse(report, "shuffle.monster-not-room", f"{verb}: '{t.card}' is a monster, not a room, until slain")
        return False
    return True


# -- handlers ----------------------------------------------------------------
def _move(st: State, h: Hero, a: Move, report: Report) -> None:
    for d in a.dirs:
        if h.trap is not None:
            report.append(broken("shuffle.trap-roll", f"{h.name} entered a trap: roll (d6 + speed) before moving on"))
            h.trap = None
        ok, why = _can_step(st, h.at, d)
        if not ok:
            _refuse(report, "shuffle.move-path", f"{h.name} cannot move {_NAMES[d]}: {why}")
            return
        speed = st.hero_stat(h, "speed")
        if h.steps >= speed:
            report.append(broken("shuffle.move-speed", f"{h.name} moves {h.steps + 1} rooms this turn; speed is {speed}"))
        h.steps += 1
        dx, dy = DIRS[d]
        _enter(st, h, (h.at[0] + dx, h.at[1] + dy))
        if h.trap is not None and a.roll is not None:
            _trap(st, h, Trap(a.roll, a.result, a.armor), report)


def _trap(st: State, h: Hero, a: Trap, report: Report) -> None:
    spec = st.room_spec(h.at)
    if spec is None or spec.type != "trap":
        _refuse(report, "shuffle.trap", f"{h.name} is not in a trap room")
        return
    if h.trap is None and h.trap_may != h.at:
        _refuse(report, "shuffle.trap", f"the trap at {_cell_name(h.at)} was already rolled for")
        return
    if h.trap is None and not st.readings.uses(ShuffleReading.SLIDE_ENTERS_TRAP):
        report.append(broken("shuffle.trap", f"{h.name} was slid into the trap at {_cell_name(h.at)}, not moved: "
                                             f"no roll is due (the reading 'slide-enters-trap' accepts one)"))
    h.trap = h.trap_may = None
    roll = a.roll
    if roll not in DIE_FACES:
        _refuse(report, "shuffle.dice", f"a trap roll is one d6 (1-6), got {roll!r}")
        return
    total = roll + st.hero_stat(h, "speed")
    result = "reward" if total >= spec.challenge else "penalty"
    claimed = a.result
    if claimed is not None and claimed != result:
        report.append(broken("shuffle.trap", f"d6 {roll} + speed {st.hero_stat(h, 'speed')} = {total} against "
                                             f"challenge {spec.challenge}: {result}, not {claimed}"))
    if result == "penalty" and spec.penalty_damage:
        _damage_hero(st, h, spec.penalty_damage, a.armor, report, "trap penalty")
    if result == "reward":
        taken = _draw_into(st, h, a.loot, spec.reward_loot, report, "trap reward")
        if a.loot is None:
            h.auto_loot = tuple(taken)


def _draw_into(st: State, h: Hero, cards, count: int, report: Report, what: str) -> list:
    """Take cards from the top of the pile into the hand (monsters wait to be placed)."""
    if cards is None:
        if st.pile is None:
            return []
        cards = tuple(st.pile[:count])
    cards = list(cards)
    if st.pile is not None:
        top = st.pile[:len(cards)]
        if top != cards:
            report.append(broken("shuffle.pile", f"{what}: the top of the dungeon pile is "
                                                 f"{', '.join(top) or 'empty'}, not {', '.join(cards)}"))
        del st.pile[:len(cards)]
    for c in cards:
        if st.catalog.kind(c) == "monster":
            h.monsters.append(c)
        else:
            h.hand.append(c)
    return cards


def _draw(st: State, h: Hero, a: Draw, report: Report) -> None:
    if h.drew:
        report.append(broken("shuffle.draw-once", f"{h.name} already drew this turn"))
    h.drew = True
    room_paths = st.paths(h.at)
    paths = len(room_paths)
    beyond = [st.tiles.get((h.at[0] + DIRS[d][0], h.at[1] + DIRS[d][1])) for d in room_paths]
    unbuilt = sum(1 for t in beyond if t is None)
    # "Monsters are not rooms until slain": a path that leads to a monster is still open to BUILD on
    no_room = sum(1 for t in beyond if t is None or t.kind == "monster")
    cards = a.cards
    count = a.count if a.count is not None else len(cards) if cards is not None else paths
    if count != paths and not (count == unbuilt and st.readings.uses(ShuffleReading.DRAW_NO_CARD_PATHS)
                               or count == no_room and st.readings.uses(ShuffleReading.DRAW_NO_ROOM_PATHS)):
        also = ""
        if unbuilt != paths:
            also = f" ({unbuilt} with no card on them yet" + (
                f", {no_room} with no room" if no_room != unbuilt else "") + ")"
        report.append(broken("shuffle.draw-count", f"draw 1 card per open path: the room at {_cell_name(h.at)} "
                                                   f"has {paths}{also}, not {count}"))
    if cards is None and st.pile is None:
        return
    _draw_into(st, h, cards if cards is not None else None, count, report, "draw")


def _place_monster(st: State, h: Hero, a: PlaceMonster, report: Report) -> None:
    monster = a.monster
    if monster not in h.monsters:
        _refuse(report, "shuffle.place-monster", f"'{monster}' is not a monster {h.name} just drew")
        return
    d = a.path
    if d not in st.paths(h.at):
        _refuse(report, "shuffle.place-monster", f"a drawn monster is played from an open path of the current "
                                                      f"room; {_cell_name(h.at)} has no open path {_NAMES.get(d, d)}")
        return
    dx, dy = DIRS[d]
    cell = (h.at[0] + dx, h.at[1] + dy)
    if cell in st.tiles:
        _refuse(report, "shuffle.place-monster", f"{_cell_name(cell)} is not empty")
        return
    h.monsters.remove(monster)
    st.tiles[cell] = Tile(monster, "monster")


def _build(st: State, h: Hero, a: Build, report: Report) -> None:
    room = a.room
    if room not in h.hand:
        _refuse(report, "shuffle.hand", f"'{room}' is not in {h.name}'s hand")
        return
    if st.catalog.kind(room) != "room":
        _refuse(report, "shuffle.build", f"'{room}' is not a room card")
        return
    cell = a.at
    if cell is None:
        d = a.path
        if d not in st.paths(h.at):
            _refuse(report, "shuffle.build-path", f"build only on an open path: the room at {_cell_name(h.at)} "
                                                       f"has no open path {_NAMES.get(d, d)}")
            return
        cell = (h.at[0] + DIRS[d][0], h.at[1] + DIRS[d][1])
    if cell in st.tiles:
        _refuse(report, "shuffle.build", f"{_cell_name(cell)} is not empty")
        return
    feeding = [d for d, (dx, dy) in DIRS.items()
               if OPPOSITE[d] in st.paths((cell[0] + dx, cell[1] + dy))]
    if not feeding:
        _refuse(report, "shuffle.build-path", f"build only on an open path: no room has an open path into "
                                                   f"{_cell_name(cell)}")
        return
    h.hand.remove(room)
    st.tiles[cell] = Tile(room, "room", a.turns)
    _flip_boss(st, [cell])


def _flip_boss(st: State, moved) -> None:
    """A face-down Boss flips once a room is connected to it.  'Connecting' is read
    generously (a path of the room towards the Boss, or of the Boss towards the
    room, and after a SHIFT/SLIDE/SWAP/TWIST too): a Boss flipped early only lets
    a hero in through matching paths, one left face down would refuse a legal move.
    Only the rooms just built or moved (`moved`) can connect."""
    for cell, t in st.tiles.items():
        if t.kind != "boss" or t.face_up:
            continue
        own = turn_paths(st.catalog.boss.paths, t.turns) if st.catalog.boss is not None else frozenset()
        for d, (dx, dy) in DIRS.items():
            n = (cell[0] + dx, cell[1] + dy)
            if n in moved and st.is_room(n) and (OPPOSITE[d] in st.paths(n) or d in own):
                t.face_up = True
                st.boss_flipped.append(cell)
                flip = st.catalog.boss_flip
                if flip is not None and flip[0] == "damage":
                    # "flip Boss face-up and activate flip power": every hero takes it, this turn
                    st.flip_due = (flip[1], frozenset(st.heroes))
                break


def _equip(st: State, h: Hero, a: Equip, report: Report) -> None:
    item = a.item
    if item not in h.hand:
        _refuse(report, "shuffle.hand", f"'{item}' is not in {h.name}'s hand")
        return
    spec = st.catalog.items.get(item)
    if spec is None or spec.type not in SLOTS:
        _refuse(report, "shuffle.equip", f"'{item}' cannot be equipped (weapons, armour and spells can)")
        return
    h.hand.remove(item)
    old = h.equipped.get(spec.type)
    if old is not None:
        st.burned.append(old)            # replaced equipment is burned
        if spec.type == "armor":
            h.armor_damage = 0
    h.equipped[spec.type] = item


def _eat(st: State, h: Hero, a: Eat, report: Report) -> None:
    snack = a.snack
    if snack not in h.hand:
        _refuse(report, "shuffle.hand", f"'{snack}' is not in {h.name}'s hand")
        return
    spec = st.catalog.items.get(snack)
    if spec is None or spec.type != "snack":
        _refuse(report, "shuffle.snack", f"'{snack}' is not a snack")
        return
    target = st.heroes.get(a.target or h.name)
    if target is None:
        _refuse(report, "shuffle.hero", f"no hero named '{a.target}'")
        return
    h.hand.remove(snack)
    st.burned.append(snack)              # eat, then burn
    target.damage = max(0, target.damage - spec.heal)


def _burn(st: State, h: Hero, a: Burn, report: Report) -> None:
    if a.top:
        _burn_top(st, h, a, report)
        return
    for card in a.cards:
        if card in h.hand:
            h.hand.remove(card)
            st.burned.append(card)
        elif card in h.equipped.values():
            slot = next(s for s, c in h.equipped.items() if c == card)
            del h.equipped[slot]
            st.burned.append(card)
        else:
            report.append(broken("shuffle.hand", f"'{card}' is not in {h.name}'s hand"))


def _trade(st: State, h: Hero, a: Trade, report: Report) -> None:
    other = st.heroes.get(a.partner)
    if other is None or other is h:
        _refuse(report, "shuffle.trade", f"trade with whom? no other hero '{a.partner}'")
        return
    if other.at != h.at:
        _refuse(report, "shuffle.trade-room", f"trades are only between heroes in the same room: {h.name} is at "
                                                   f"{_cell_name(h.at)}, {other.name} at {_cell_name(other.at)}")
        return
    if not a.agreed:
        _refuse(report, "shuffle.trade-agree", f"a trade needs both players to agree ({other.name} did not)")
        return
    if h.traded:
        # "In any order, once per turn: ... Trade cards with other hero" (only Move "can be split")
        report.append(broken("shuffle.trade-once", f"{h.name} already traded this turn: trading is once per turn "
                                                   f"(give and take every card in that one trade)"))
    give, take = list(a.give), list(a.take)
    for card in give:
        if card not in h.hand:
            _refuse(report, "shuffle.hand", f"'{card}' is not in {h.name}'s hand")
            return
    for card in take:
        if card not in other.hand:
            _refuse(report, "shuffle.hand", f"'{card}' is not in {other.name}'s hand")
            return
    for card in give:
        h.hand.remove(card)
        other.hand.append(card)
    for card in take:
        other.hand.remove(card)
        h.hand.append(card)
    h.traded = True


def _power(st: State, h: Hero, a: Power, report: Report) -> None:
    card = a.card
    in_play = {h.spec.id, *h.equipped.values(), *h.hand}
    if card not in in_play:
        _refuse(report, "shuffle.power", f"{h.name} has no card '{card}' whose power to use")
        return
    if card in h.powers:
        report.append(broken("shuffle.power-once", f"the power of '{card}' was already used this turn"))
    h.powers.add(card)


def _shrine(st: State, h: Hero, a: Shrine, report: Report) -> None:
    spec = st.room_spec(h.at)
    if spec is None or spec.type != "shrine":
        _refuse(report, "shuffle.shrine", f"{h.name} is not in a Shrine")
        return
    if h.shrine:
        report.append(broken("shuffle.shrine-once", "a Shrine's power is used once per turn"))
    h.shrine = True


def _ward(st: State, h: Hero, a: Ward, report: Report) -> None:
    for cell, t in st.tiles.items():
        spec = st.room_spec(cell)
        if spec is not None and spec.type == "ward":
            if h.at in {(cell[0] + dx, cell[1] + dy) for dx, dy in spec.area} | {cell}:
                return
    report.append(broken("shuffle.ward", f"{h.name} is not in a Ward's area"))


def _via(st: State, h: Hero, a: Action, report: Report) -> None:
    via = a.via
    refused = report.refused                # (a power that cannot be used does not stop the move itself)
    if via is not None and st.catalog.kind(via) == "monster":
        _monster_power(st, h, via, "shift", report, a)       # a monster's power moving a room
        return
    if via == "shrine":
        _shrine(st, h, a, report)
    elif via is not None:
        _power(st, h, Power(via), report)
    report.refused = refused


def _empty_check(st: State, cells, a: Action, report: Report, verb: str) -> None:
    if a.empty:
        for c in cells:
            inside = [x.name for x in st.heroes.values() if x.at == c]
            if inside:
                report.append(broken("shuffle.empty-room", f"{verb}: the room at {_cell_name(c)} is not an EMPTY "
                                                           f"ROOM ({', '.join(inside)} inside)"))


def _move_tile(st: State, src, dst) -> None:
    st.tiles[dst] = st.tiles.pop(src)
    for other in st.heroes.values():    # heroes inside move with their room
        if other.at == src:
            other.at = dst


def _shift(st: State, h: Hero, a: Shift, report: Report) -> None:
    _via(st, h, a, report)
    cell = _cell_of(st, a.room, report, "shift")
    if cell is None or not _room_only(st, cell, report, "shift"):
        return
    _empty_check(st, [cell], a, report, "shift")
    d = a.dir
    dst = (cell[0] + DIRS[d][0], cell[1] + DIRS[d][1])
    if dst in st.tiles:
        _refuse(report, "shuffle.shift", f"SHIFT moves a room one space into an empty space; "
                                              f"{_cell_name(dst)} is taken")
        return
    _check_to(a, dst, report, "shift")
    _move_tile(st, cell, dst)
    _flip_boss(st, [dst])


def _bounds(st: State):
    xs = [c[0] for c in st.tiles]
    ys = [c[1] for c in st.tiles]
    return min(xs), max(xs), min(ys), max(ys)


def _slide(st: State, h: Hero, a: Slide, report: Report) -> None:
    _via(st, h, a, report)
    d = a.dir
    dx, dy = DIRS[d]
    if a.hero is not None:
        mover = st.heroes.get(a.hero)
        if mover is None:
            _refuse(report, "shuffle.hero", f"no hero named '{a.hero}'")
            return
        cell = mover.at
        while _can_step(st, cell, d)[0]:
            cell = (cell[0] + dx, cell[1] + dy)
        if cell == mover.at:
            _refuse(report, "shuffle.slide", f"{mover.name} cannot SLIDE {_NAMES[d]}: no open straight path")
            return
        _check_to(a, cell, report, "slide")
        mover.at = cell             # slid, not moving: a trap here may be rolled for, need not be
        spec = st.room_spec(cell)
        mover.trap_may = cell if spec is not None and spec.type == "trap" else None
        return
    cell = _cell_of(st, a.room, report, "slide")
    if cell is None or not _room_only(st, cell, report, "slide"):
        return
    _empty_check(st, [cell], a, report, "slide")
    x0, x1, y0, y1 = _bounds(st)
    end = cell
    while True:
        nxt = (end[0] + dx, end[1] + dy)
        if nxt in st.tiles or not (x0 <= nxt[0] <= x1 and y0 <= nxt[1] <= y1):
            break
        end = nxt
    if end == cell:
        _refuse(report, "shuffle.slide", f"the room at {_cell_name(cell)} cannot SLIDE {_NAMES[d]}: blocked")
        return
    _check_to(a, end, report, "slide")
    _move_tile(st, cell, end)
    _flip_boss(st, [end])


def _check_to(a: Action, cell, report: Report, verb: str) -> None:
    to = a.to
    if to is not None and tuple(to) != cell:
        report.append(broken(f"shuffle.{verb}", f"{verb.upper()} ends at {_cell_name(cell)}, not {_cell_name(to)}"))


def _swap(st: State, h: Hero, a: Swap, report: Report) -> None:
    _via(st, h, a, report)
    refs = a.rooms
    if len(refs) != 2:
        _refuse(report, "shuffle.swap", "SWAP trades the places of two rooms")
        return
    cells = [_cell_of(st, r, report, "swap") for r in refs]
    if None in cells or not all(_room_only(st, c, report, "swap") for c in cells) or cells[0] == cells[1]:
        return
    c1, c2 = cells
    _empty_check(st, cells, a, report, "swap")
    t1, t2 = st.tiles[c1], st.tiles[c2]
    in1 = [x for x in st.heroes.values() if x.at == c1]
    in2 = [x for x in st.heroes.values() if x.at == c2]
    st.tiles[c1], st.tiles[c2] = t2, t1
    for x in in1:
        x.at = c2
    for x in in2:
        x.at = c1
    _flip_boss(st, [c1, c2])


def _twist(st: State, h: Hero, a: Twist, report: Report) -> None:
    _via(st, h, a, report)
    cell = _cell_of(st, a.room, report, "twist")
    if cell is None or not _room_only(st, cell, report, "twist"):
        return
    _empty_check(st, [cell], a, report, "twist")
    t = st.tiles[cell]
    new = a.turns % 4
    if new == t.turns % 4:
        _refuse(report, "shuffle.twist", "TWIST turns a room to a new direction; it already faces that way")
        return
    t.turns = new
    _flip_boss(st, [cell])


def _fight(st: State, h: Hero, a: Fight, report: Report) -> None:
    cell = a.at
    if cell is None:
        ref = a.monster
        found = [c for c, t in st.tiles.items() if t.kind == "monster" and t.card == ref]
        cell = found[0] if len(found) == 1 else None
        if cell is None:
            _refuse(report, "shuffle.fight", f"no monster '{ref}' on the table" if not found else
                                    f"'{ref}' is on the table {len(found)} times; give at: [x, y]")
            return
    t = st.tiles.get(cell)
    if t is None or t.kind != "monster":
        _refuse(report, "shuffle.fight", f"there is no monster at {_cell_name(cell)}")
        return
    if h.fought:
        report.append(broken("shuffle.fight-ends-turn", f"{h.name} already fought this turn"))
    h.fought = True
    area = st.monster_area(cell)
    if h.at not in area:
        _refuse(report, "shuffle.fight-area", f"{h.name} at {_cell_name(h.at)} is not in the area of "
                                                   f"'{t.card}'")
        return
    mspec = st.catalog.monsters[t.card]
    assistants = [x for x in st.heroes.values() if x is not h and x.at in area]
    helpers = [c for c in st.monsters_threatening(h.at) if c != cell]
    if a.assist is not None:
        named = set(a.assist)
        actual = {x.name for x in assistants}
        if named != actual:
            report.append(broken("shuffle.assist", f"the heroes in the area of '{t.card}' assist: "
                                                   f"{', '.join(sorted(actual)) or 'none'}, not "
                                                   f"{', '.join(sorted(named)) or 'none'}"))
    hero_dice, monster_dice = a.hero_dice, a.monster_dice
    want_h = st.hero_stat(h, "dice") + len(assistants)
    want_m = mspec.dice + len(helpers)
    if len(hero_dice) != want_h:
        names = ", ".join(x.name for x in assistants)
        report.append(broken("shuffle.dice", f"the hero rolls {want_h} dice ({st.hero_stat(h, 'dice')}"
                                             f" + 1 per assisting hero{': ' + names if names else ''}), "
                                             f"not {len(hero_dice)}"))
    own_dice = mspec.dice + sum(st.catalog.monsters[st.tiles[c].card].dice for c in helpers)
    if len(monster_dice) != want_m and not (len(monster_dice) == own_dice
                                            and st.readings.uses(ShuffleReading.ASSIST_OWN_DICE)):
        report.append(broken("shuffle.dice", f"the monster rolls {want_m} dice ({mspec.dice} + 1 per assisting "
                                             f"monster), not {len(monster_dice)}"))
    if any(v not in DIE_FACES for v in (*hero_dice, *monster_dice)):
        report.append(broken("shuffle.dice", "dice are d6: each roll is 1-6"))
    hero_attack = sum(hero_dice) + st.hero_stat(h, "attack") + a.hero_bonus
    monster_attack = sum(monster_dice) + mspec.attack + a.monster_bonus
    for side, total in (("hero", hero_attack), ("monster", monster_attack)):
        claimed = getattr(a, f"{side}_attack")
        if claimed is not None and claimed != total:
            report.append(broken("shuffle.fight-attack", f"{side} attack is {total} (dice + base + "
                                                         f"{'weapon + powers' if side == 'hero' else 'powers'}), "
                                                         f"not {claimed}"))
    winner = "hero" if hero_attack >= monster_attack else "monster"
    claimed = a.winner
    if claimed is not None and claimed != winner:
        report.append(broken("shuffle.fight-result", f"hero attack {hero_attack} against monster attack "
                                                     f"{monster_attack}: the {winner} wins (the hero wins ties)"))
    if winner == "hero":
        dmg = max(1, hero_attack - monster_attack) + a.extra_damage
        if a.damage is not None and a.damage != dmg:
            report.append(broken("shuffle.fight-damage", f"the monster takes {dmg} damage (difference, minimum 1, "
                                                         f"plus card effects), not {a.damage}"))
        t.damage += dmg
        if t.damage >= mspec.hp:
            h.hand.extend(t.loot)                       # gain the loot pile
            taken = _draw_into(st, h, a.loot, mspec.loot, report, "loot")
            if a.loot is None:
                h.auto_loot = tuple(taken)
            del st.tiles[cell]
            st.tiles[cell] = Tile(t.card, "slain")      # flipped to its room side: a room now
            h.level_up_due = tuple(x.name for x in [h] + assistants)
            if a.level_up is not None:
                _level_up(st, h, LevelUp(a.level_up), report)
        elif a.level_up is not None:
            report.append(broken("shuffle.level-up", f"'{t.card}' was not slain: nobody levels up"))
        return
    if a.level_up is not None:
        report.append(broken("shuffle.level-up", "the monster won: nobody levels up"))
    if mspec.power is None or mspec.power[0] != "none":
        # "Else, if Monster wins: ... 3. Monster activates power (if any)" (None: a power the checker cannot read)
        h.power_due = (t.card, cell, mspec.power, h.at)
    participants = [h] + assistants
    red = dict(a.red) or {h.name: mspec.red}
    if sum(red.values()) != mspec.red:
        report.append(broken("shuffle.red-wounds", f"'{t.card}' deals {mspec.red} red wounds; "
                                                   f"{sum(red.values())} were distributed"))
    names = {x.name for x in participants}
    for name in red:
        if name not in names:
            report.append(broken("shuffle.red-wounds", f"red wounds go to the hero and assistants, not {name}"))
    armor = dict(a.armor)
    for x in participants:
        amount = mspec.black + (red.get(x.name, 0) if x.name in names else 0)
        _damage_hero(st, x, amount, armor.get(x.name, 0), report, f"wounds from '{t.card}'")


def _level_up(st: State, h: Hero, a: LevelUp, report: Report) -> None:
    """One hero who took part in a fight that slew the monster flips to the levelled side
    (in the fight, level-up: NAME, or as its own action right after it)."""
    up = a.hero or h.name
    if not h.level_up_due:
        _refuse(report, "shuffle.level-up", "a hero levels up only after slaying a monster, once")
        return
    x = st.heroes.get(up)
    if x is None or up not in h.level_up_due:
        report.append(broken("shuffle.level-up", "only a hero who took part in the fight can level up"))
    elif x.leveled:
        report.append(broken("shuffle.level-up", f"{up} is already on the levelled side"))
    else:
        x.leveled = True
        h.level_up_due = ()


_POWER_WORDS = {"loot": "LOOT {n} card(s) into its loot pile: {{loot: {n}, monster: {card}}}",
                "burn": "burn the top {n} card(s) of the dungeon: {{burn: {{top: {n}, monster: {card}}}}}",
                "shift": "SHIFT the hero's room one space: {{shift: {{room: {room}, dir: DIR, via: {card}}}}}",
                "damage": "{n} damage to the hero: {{effect: {{damage: {n}}}}}"}


def _power_words(due) -> str:
    card, _, (kind, n), room = due
    return _POWER_WORDS[kind].format(n=n, card=card, room=f"[{room[0]}, {room[1]}]")


def _power_possible(st: State, due) -> bool:
    """Whether the due power can act at all (an empty pile burns nothing; a room walled in
    on every side cannot SHIFT)."""
    kind = due[2][0]
    if kind == "burn":
        return st.pile is None or bool(st.pile)
    if kind == "shift":
        room = due[3]
        return room in st.tiles and any((room[0] + dx, room[1] + dy) not in st.tiles for dx, dy in DIRS.values())
    return True


def _monster_power(st: State, h: Hero, card: str, kind: str, report: Report, a: Action, n: int = 1) -> None:
    """An action written as a monster's power (LOOT into its pile, BURN the pile's top, SHIFT via
    it): the power of that monster must be the one due now, as its card says."""
    due = h.power_due
    spec = st.catalog.monsters.get(card)
    known = spec.power if spec is not None else None
    if due is None or due[0] != card:
        if known is not None and known[0] == kind:
            report.append(broken("shuffle.monster-power", f"the power of '{card}' acts only when it has just won "
                                                          f"a fight against {h.name} this turn"))
        elif known is not None:
            report.append(broken("shuffle.monster-power", f"'{card}' has no such power (its card: "
                                                          f"{known[0] if known[0] != 'none' else 'no power'})"))
        return
    if due[2] is not None:
        want_kind, want_n = due[2]
        if want_kind != kind:
            report.append(broken("shuffle.monster-power", f"the power of '{card}' is to {_power_words(due)}"))
        elif kind == "shift":
            room = _cell_of(st, a.room, Report(), "shift") if a.room is not None else None
            if room != due[3]:
                report.append(broken("shuffle.monster-power", f"the power of '{card}' shifts the hero's room "
                                                              f"{_cell_name(due[3])}, not "
                                                              f"{_cell_name(room) if room else a.room}"))
        elif n != want_n:
            report.append(broken("shuffle.monster-power", f"the power of '{card}' is to {_power_words(due)}, "
                                                          f"not {n}"))
    h.power_due = None


def _after_power(st: State) -> None:
    """The knock-out's burn of the pile, held back while the monster's power acted first."""
    _burn_pile(st, st.burn_due)
    st.burn_due = 0


def _burn_top(st: State, h: Hero, a: Burn, report: Report) -> None:
    """Burn the top card(s) of the dungeon pile: a monster's power (the one due, or the one named)."""
    due = h.power_due
    card = a.monster or (due[0] if due is not None else None)
    if card is None:
        report.append(broken("shuffle.monster-power", "burning the top of the dungeon pile is a monster's power: "
                                                      "no monster has just won a fight this turn"))
    else:
        _monster_power(st, h, card, "burn", report, a, a.top)
    _burn_pile(st, a.top)
    if h.power_due is None:
        _after_power(st)


def _loot(st: State, h: Hero, a: Loot, report: Report) -> None:
    if a.monster is not None:
        cell = monster_cell(st, a.monster)
        if cell is None:
            _refuse(report, "shuffle.no-monster", f"no monster '{a.monster}' on the table")
            return
        _monster_power(st, h, a.monster, "loot", report, a, len(a.cards) if a.cards is not None else a.count)
        sink = Hero("loot", h.spec, h.at)          # monsters loot into their loot pile
        _draw_into(st, sink, a.cards, a.count, report, "monster loot")
        st.tiles[cell].loot = tuple(st.tiles[cell].loot) + tuple(sink.hand) + tuple(sink.monsters)
        if h.power_due is None:
            _after_power(st)
        return
    _draw_into(st, h, a.cards, a.count, report, "loot")


def _gain(st: State, h: Hero, a: Effect, report: Report) -> None:
    """Bookkeeping the log asserts (card effects): damage, heal; on the acting hero or on targets.
    A damage effect is also how a log writes a monster's damage power and the Boss's flip power."""
    hit = frozenset(a.targets or (h.name,))
    if a.damage and st.flip_due is not None and st.flip_due[0] == a.damage:
        left = st.flip_due[1] - hit
        st.flip_due = (a.damage, left) if left else None
    due = h.power_due
    if a.damage and due is not None and due[2] is not None and due[2][0] == "damage" and h.name in hit:
        if a.damage != due[2][1]:
            report.append(broken("shuffle.monster-power", f"the power of '{due[0]}' deals {due[2][1]} damage, "
                                                          f"not {a.damage}"))
        h.power_due = None
    targets = []
    for name in a.targets or (h.name,):
        if name not in st.heroes:
            report.append(broken("shuffle.hero", f"effect: no hero named '{name}'"))
        else:
            targets.append(st.heroes[name])
    for x in targets:
        if a.damage:
            _damage_hero(st, x, a.damage, a.armor, report, "card effect")
        if a.heal:
            x.damage = max(0, x.damage - a.heal)


def _end_turn(st: State, h: Hero, a: EndTurn, report: Report) -> None:
    h = st.heroes[st.active]
    free = [d for d in st.paths(h.at) if (h.at[0] + DIRS[d][0], h.at[1] + DIRS[d][1]) not in st.tiles]
    if h.monsters and free:
        v = broken("shuffle.place-monster", f"drawn monster(s) {', '.join(h.monsters)} must be played "
                                            f"face up from an open path")
        v.consequence = all(m in h.refused for m in h.monsters)     # its placing was refused: reported there
        report.append(v)
    due = h.power_due
    if due is not None and due[2] is not None and _power_possible(st, due):
        report.append(broken("shuffle.monster-power", f"'{due[0]}' won the fight: its power is activated "
                                                      f"({_power_words(due)}), and the log does not write it"))
    _after_power(st)
    if st.flip_due is not None:
        n, left = st.flip_due
        report.append(broken("shuffle.boss-flip", f"the Boss room flipped face up this turn: its flip power is "
                                                  f"activated (every hero takes {n} damage): write "
                                                  f"{{effect: {{damage: {n}, target: [{', '.join(sorted(left))}]}}}}"))
        st.flip_due = None
    if not h.fought:
        threats = st.monsters_threatening(h.at)
        if threats:
            names = ", ".join(f"'{st.tiles[c].card}'" for c in threats)
            report.append(broken("shuffle.must-fight", f"{h.name} ends the turn in the area of {names} "
                                                       f"and must fight"))
    if len(h.hand) > HAND_SIZE:
        v = broken("shuffle.hand-size", f"{h.name} ends the turn with {len(h.hand)} cards; the hand size is "
                                        f"{HAND_SIZE} (burn the extras)")
        # cards whose play was refused stayed in the hand: that refusal was the mistake
        v.consequence = len([c for c in h.hand if c not in h.refused]) <= HAND_SIZE
        report.append(v)
        st.burned.extend(h.hand[HAND_SIZE:])
        del h.hand[HAND_SIZE:]
    _new_turn(h)


_HANDLERS = {
    Move: _move, Trap: _trap, Draw: _draw, PlaceMonster: _place_monster, Build: _build,
    Equip: _equip, Eat: _eat, Burn: _burn, Trade: _trade, Power: _power, Shrine: _shrine,
    Ward: _ward, Shift: _shift, Slide: _slide, Swap: _swap, Twist: _twist, Fight: _fight,
    LevelUp: _level_up, Loot: _loot, Effect: _gain, EndTurn: _end_turn,
}


# -- queries (for trackers and tools) -----------------------------------------
def monster_cell(state: State, ref) -> tuple | None:
    """The cell of the monster named ref (a card id or a cell), if exactly one."""
    if isinstance(ref, tuple):
        t = state.tiles.get(ref)
        return ref if t is not None and t.kind == "monster" else None
    found = [c for c, t in state.tiles.items() if t.kind == "monster" and t.card == ref]
    return found[0] if len(found) == 1 else None


def fight_dice(state: State, hero: str, cell) -> tuple[int, int]:
    """How many dice the hero side and the monster side roll in this fight."""
    h = state.heroes[hero]
    area = state.monster_area(cell)
    assistants = [x for x in state.heroes.values() if x is not h and x.at in area]
    helpers = [c for c in state.monsters_threatening(h.at) if c != cell]
    return state.hero_stat(h, "dice") + len(assistants), state.catalog.monsters[state.tiles[cell].card].dice + len(helpers)


def legal_steps(state: State, hero: str) -> list[str]:
    """The directions the hero can step in now (within speed)."""
    h = state.heroes[hero]
    if h.steps >= state.hero_stat(h, "speed"):
        return []
    return [_NAMES[d] for d in ORDER if _can_step(state, h.at, d)[0]]
