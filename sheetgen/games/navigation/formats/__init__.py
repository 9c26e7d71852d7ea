"""Card-grid navigation formats (seed 000): the pydantic models of its files, and the
handler of its definitions (load, lint, compose).

    kind: deck     ruleset: navigation   room cards (sides open/door/wall, action symbols, hazard)
    kind: dungeon  ruleset: navigation   a grid of those cards with empty spaces, and a start room
    kind: sheet    ruleset: navigation   sheet: player | tokens
    kind: playlog  ruleset: navigation   the play-log model (NavigationLog); formats/playlog.py checks it

The models of the play log, for the checker and the tracker:

    sheetgen: 1
    kind: playlog
    ruleset: navigation
    dungeon: nav-crypt          # a built-in name or a path relative to this file
    readings: [pay-side-left]   # optional: the readings this log follows
    players:
      - {name: Ada, items: [Speed Boots]}     # hp 10, keys 1, bombs 1, xp 0 unless given
    turns:
      - player: Ada
        actions: [move east, resolve, key, move south]
"""
from __future__ import annotations

from ...base import Handler
from pathlib import Path
from typing import Any, Literal, Union

from pydantic import Field, field_validator, model_validator

from sheetgen.errors import InputError, Problem, did_you_mean
from sheetgen.definitions.models import Strict, validate_model
from sheetgen.definitions.turnlog import renamed
from ..rules import Dungeon, Room
from ..tables import DEFAULT_KEYS, ROOM_TYPES, START

SideType = Literal["open", "door", "wall"]


class Sides(Strict):
    n: SideType
    e: SideType
    s: SideType
    w: SideType

    @model_validator(mode="before")
    @classmethod
    def _long_names(cls, v):
        """north/east/south/west (any case) mean n/e/s/w; 'Door' means door."""
        if not isinstance(v, dict):
            return v
        short = {"north": "n", "east": "e", "south": "s", "west": "w"}
        out = {}
        for key, value in v.items():
            k = short.get(str(key).strip().lower(), str(key).strip().lower()) if isinstance(key, str) else key
            out[k if k not in out else key] = value.strip().lower() if isinstance(value, str) else value
        return out


class RoomCard(Strict):
    id: str
    name: str | None = None
    type: str
    functions: list[str] | None = Field(default=None, max_length=2)
    hazard: Union[bool, list[str]] = False
    sides: Sides
    xp: int = Field(default=0, ge=0)
    keys: int | None = Field(default=None, ge=0)
    text: str = ""

    @field_validator("type")
    @classmethod
    def _known_type(cls, v: str) -> str:
        key = "-".join(v.strip().lower().replace("_", " ").split())
        if key not in ROOM_TYPES:
            hint = did_you_mean(key, ROOM_TYPES)
            raise ValueError(f"unknown room type '{v}' (one of {', '.join(ROOM_TYPES)})"
                             + (f"; did you mean '{hint}'?" if hint else ""))
        return key

    @property
    def action_symbols(self) -> tuple[str, ...]:
        return tuple(self.functions) if self.functions is not None else ROOM_TYPES[self.type]

    @property
    def hazard_functions(self) -> frozenset:
        if self.hazard is True:
            return frozenset(self.action_symbols)
        if self.hazard is False:
            return frozenset()
        return frozenset(self.hazard)

    @property
    def keys_found(self) -> int:
        return self.keys if self.keys is not None else DEFAULT_KEYS.get(self.type, 0)

    @property
    def title(self) -> str:
        return self.name or self.id.replace("-", " ").title()


class Deck(Strict):
    sheetgen: Literal[1]
    kind: Literal["deck"]
    ruleset: Literal["navigation"]
    title: str = "Navigation room cards"
    paper: Literal["a4", "letter"] = "a4"
    bleed: float = Field(default=0.0, ge=0, le=5)
    cards: list[RoomCard] = Field(min_length=1)


GridCell = Union[str, None]


class DungeonDef(Strict):
    sheetgen: Literal[1]
    kind: Literal["dungeon"]
    ruleset: Literal["navigation"]
    title: str = "Dungeon"
    paper: Literal["a4", "letter"] = "a4"
    deck: str | None = None
    cards: list[RoomCard] = []
    start: str
    grid: list[Union[list[GridCell], str]] = Field(min_length=1)


class SheetDef(Strict):
    sheetgen: Literal[1]
    kind: Literal["sheet"]
    ruleset: Literal["navigation"]
    sheet: Literal["player", "tokens"]
    title: str | None = None
    paper: Literal["a4", "letter"] = "a4"
    players: int = Field(default=2, ge=1, le=4)       # player sheet: boxes per page
    hp: int = Field(default=10, ge=1, le=30)
    tokens: int | None = Field(default=None, ge=1, le=500)   # token sheet: how many (default: a full page)


class PlayerSetup(Strict):
    name: str
    hp: int = Field(default=START["hp"], ge=0)
    keys: int = Field(default=START["keys"], ge=0)
    bombs: int = Field(default=START["bombs"], ge=0)
    xp: int = Field(default=START["xp"], ge=0)
    items: list[str] = []
    start: str | None = None


class Turn(Strict):
    player: str
    actions: list[Any] = []
    note: str | None = None

    _hero_is_player = model_validator(mode="before")(renamed("hero", "player"))   # the shuffle log's word


class NavigationLog(Strict):
    sheetgen: Literal[1]
    kind: Literal["playlog"]
    ruleset: Literal["navigation"]
    title: str | None = None
    dungeon: str | dict                 # a dungeon file / built-in name, or the dungeon inline
    readings: list[str] | None = None   # the readings the log follows (NavigationReading names)
    players: list[PlayerSetup] = Field(min_length=1)
    turns: list[Turn] = []

    @field_validator("players", mode="before")
    @classmethod
    def _names_alone(cls, v):
        if isinstance(v, list):                 # players: [Ada, Bo] is fine too
            return [{"name": p} if isinstance(p, str) else p for p in v]
        return v


MODEL = Union[Deck, DungeonDef, SheetDef]

EMPTY = {None, "", ".", "-", "~", "_"}


class LoadedDeck:
    def __init__(self, deck: Deck, source):
        self.deck = deck
        self.source = source
        self.cards = {c.id: c for c in deck.cards}


class LoadedDungeon:
    """A dungeon with its cards resolved: pos[(col,row)] -> RoomCard."""

    def __init__(self, defn: DungeonDef, source, cards: dict[str, RoomCard], pos: dict[str, tuple[int, int]]):
        self.defn = defn
        self.source = source
        self.cards = cards
        self.pos = pos
        self.cols = 1 + max(c for c, _ in pos.values())
        self.rows = 1 + max(r for _, r in pos.values())

    @property
    def start(self) -> str:
        return self.defn.start


class LoadedSheet:
    def __init__(self, defn: SheetDef, source):
        self.defn = defn
        self.source = source


def _check_unique_ids(cards: list[RoomCard], source, key: str, problems: list[Problem]) -> None:
    seen: dict[str, int] = {}
    for i, card in enumerate(cards):
        if card.id in seen:
            problems.append(source.problem((key, i, "id"), f"card id '{card.id}' is used twice "
                                                           f"(first as card {seen[card.id] + 1})"))
        seen.setdefault(card.id, i)


def load(data, source):
    kind = data.get("kind")
    if kind == "deck":
        deck = validate_model(Deck, data, source.filename)
        problems: list[Problem] = []
        _check_unique_ids(deck.cards, source, "cards", problems)
        _check_functions(deck.cards, source, "cards", problems)
        if problems:
            raise InputError(problems)
        return LoadedDeck(deck, source)
    if kind == "dungeon":
        return _load_dungeon(data, source)
    return LoadedSheet(validate_model(SheetDef, data, source.filename), source)


def _check_functions(cards: list[RoomCard], source, key: str, problems: list[Problem]) -> None:
    for i, card in enumerate(cards):
        if isinstance(card.hazard, list):
            for h in card.hazard:
                if h not in card.action_symbols:
                    problems.append(source.problem((key, i, "hazard"), f"hazard '{h}' is not one of the card's "
                                                                       f"functions ({', '.join(card.action_symbols)})"))


def load_reference(name, source, want_kind: str, key: str | None = None):
    """A deck/dungeon named by a path relative to source's folder, or a built-in name,
    or written inline (a mapping under key)."""
    from sheetgen.definitions.registry import inline_source, load_file, resolve
    if isinstance(name, dict):
        inline = inline_source(source, key or want_kind, want_kind, "navigation")
        return load(inline.data, inline)
    rel = Path(source.folder) / name
    if rel.exists():
        loaded = load_file(rel)
    else:
        path, builtin = resolve(name)
        loaded = load_file(path, builtin=builtin)
    if loaded.kind != want_kind or loaded.ruleset != "navigation":
        raise InputError(Problem(f"'{name}' is a {loaded.kind} ({loaded.ruleset}), not a navigation {want_kind}",
                                 loaded.source.filename))
    return loaded.definition


def _load_dungeon(data, source) -> LoadedDungeon:
    defn = validate_model(DungeonDef, data, source.filename)
    problems: list[Problem] = []
    cards: dict[str, RoomCard] = {}
    if defn.deck:
        try:
            cards.update(load_reference(defn.deck, source, "deck").cards)
        except InputError as exc:
            problems.append(source.problem(("deck",), f"cannot use deck '{defn.deck}': "
                                                      + "; ".join(p.format() for p in exc.problems)))
    _check_unique_ids(defn.cards, source, "cards", problems)
    _check_functions(defn.cards, source, "cards", problems)
    cards.update({c.id: c for c in defn.cards})
    pos: dict[str, tuple[int, int]] = {}
    first: dict[str, tuple] = {}
    for r, row in enumerate(defn.grid):
        cells = row.split() if isinstance(row, str) else row
        for c, cell in enumerate(cells):
            loc = ("grid", r) if isinstance(row, str) else ("grid", r, c)
            if cell in EMPTY:
                continue
            cell = str(cell)
            if cell in pos:
                line = source.problem(first[cell], "").line
                problems.append(source.problem(loc, f"card '{cell}' is placed twice (first at row {pos[cell][1] + 1}, "
                                                    f"column {pos[cell][0] + 1}"
                                                    + (f", line {line}" if line else "") + ")"))
                continue
            if cell not in cards and not problems_only_deck(problems):
                problems.append(source.problem(loc, f"no card '{cell}' in the deck",
                                               suggestion=did_you_mean(cell, cards)))
                continue
            pos[cell] = (c, r)
            first[cell] = loc
    if not pos and not problems:
        problems.append(source.problem(("grid",), "the dungeon grid places no cards"))
    if defn.start not in pos and not problems_only_deck(problems):
        problems.append(source.problem(("start",), f"start room '{defn.start}' is not placed in the grid",
                                       suggestion=did_you_mean(defn.start, pos)))
    if problems:
        raise InputError(problems)
    return LoadedDungeon(defn, source, cards, pos)


def problems_only_deck(problems: list[Problem]) -> bool:
    """When the deck itself failed, unknown-card errors would only repeat it."""
    return any(p.path == "deck" for p in problems)


def lint(defn) -> list:
    """Playability: every room reachable at some price, warp rooms in pairs."""
    from sheetgen.definitions.registry import Finding
    out = []
    if isinstance(defn, LoadedDungeon):
        warps = [cid for cid in defn.pos if defn.cards[cid].type == "warp"]
        if len(warps) == 1:
            out.append(Finding(defn.source.problem(("grid",), f"warp room '{warps[0]}' has no other warp room to go to"),
                               "warning"))
    return out


def to_engine_dungeon(d: LoadedDungeon):
    """The rules engine's Dungeon for a loaded dungeon."""
    rooms = {}
    for cid in d.pos:
        card = d.cards[cid]
        rooms[cid] = Room(id=cid, type=card.type, functions=card.action_symbols, hazard=card.hazard_functions,
                          sides=(("N", card.sides.n), ("E", card.sides.e), ("S", card.sides.s), ("W", card.sides.w)),
                          xp=card.xp, keys=card.keys_found, name=card.title)
    return Dungeon(rooms, dict(d.pos), d.start)


def compose(defn, options):
    from .. import sheets as drawing
    if isinstance(defn, LoadedDeck):
        return drawing.deck_document(defn.deck.title, list(defn.deck.cards), options,
                                     paper=options.paper or defn.deck.paper, bleed=defn.deck.bleed)
    if isinstance(defn, LoadedDungeon):
        return drawing.dungeon_document(defn, options)
    return drawing.sheet_document(defn.defn, options)


# what the core calls for this kind (sheetgen.games.base.Handler)
HANDLER = Handler(load=load, lint=lint, compose=compose, models=lambda: MODEL)
