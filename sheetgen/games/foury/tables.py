"""Dungeon Foury's data in one place: read by the engine, the sheets and the simulator alike.

    DIE_TABLE          the die item's table (printed beside our maps, applied by the engine,
                       rolled by the simulated players); a map's `die_table:` replaces it for
                       that map (die_table, die_face read the effects a map writes)
    foe_strength       what a foe adds to its die: statues, the Goblin, the Kraken, the Minotaur
    ROUND_BONUS, CHEST_VALUE   the sheet's round markers: monsters +0..+3, chests x1..x4
    TRACK_BOXES, track_boxes   the resource tracks' boxes (plain and beige hero extras): the caps
    REQUIREMENT_COUNT  the base game's round requirements (3 statues, 3 kills, 2 levers, 1 cornucopia)
    FURY_BOXES, SLAUGHTER_MAX, KILLS_PER_CORNUCOPIA   The Slaughter of Monsters
    SANTA_TURNS, SANTA_GOAL, SANTA_GRID, STAR_STEPS    Santa Crash'n Foury
    SWIM_LIMIT, FLOOD_EVERY, KRAKEN_TURNS, OPPOSITE_ZONE   Discovering the Kraken
    Campaign, ANCIENT ... KRAKEN   what each campaign is and prints (its rules class in
                       rules/ says what it changes in play)

Pure data (the standard library only).  Where the rules text gives no number (the
rulebook's die table, the hero sheets), the numbers are our own, as printed on our sheets.
"""
from __future__ import annotations

from dataclasses import dataclass

# -- resources and items -------------------------------------------------------------------
RESOURCES = ("hearts", "shields", "weapon", "clovers", "shovels", "chests", "cornucopias")
SANTA_COUNTERS = ("green packages", "blue packages", "reindeer", "rudolph", "sleigh", "candy canes")
COLLECT_GAIN = {
    "potion": ("hearts", 1), "yellow potion": ("hearts", 2), "purple potion": ("hearts", 3),
    "shovel": ("shovels", 1), "weapon": ("weapon", 1), "shield": ("shields", 1), "clover": ("clovers", 1),
    "cornucopia": ("cornucopias", 1), "chest": ("chests", 1),
    "green package": ("green packages", 1), "blue package": ("blue packages", 1),
    "reindeer": ("reindeer", 1), "rudolph": ("rudolph", 1), "sleigh": ("sleigh", 1),
    "candy cane": ("candy canes", 1),
}
STAR_STEPS = 4                  # "if you land on a star ... move freely for 4 additional spaces"
EXTRA_STEPS = {"yellow potion": 1, "purple potion": 1, "star": STAR_STEPS}
RESOURCE_ITEMS = frozenset(("potion", "yellow potion", "purple potion", "shovel", "weapon", "shield", "clover",
                            "cornucopia", "chest", "die"))


# -- the die item ------------------------------------------------------------------------------
@dataclass(frozen=True)
class DieFace:
    """One face of the die item's table: what the sheet prints and what the rules do."""
    face: int
    text: str                                   # as printed beside the map
    monster: bool = False                       # a monster appears in the room: fight it
    gain: tuple[tuple[str, int], ...] = ()      # resources gained (a negative number: lost)


# what a die-table face may gain or lose, and how the sheet names one (and several) of it
DIE_RESOURCES = {"hearts": ("life point", "life points"), "shields": ("shield", "shields"),
                 "weapon": ("weapon point", "weapon points"), "clovers": ("four-leaf clover", "four-leaf clovers"),
                 "shovels": ("shovel", "shovels"), "chests": ("chest", "chests"),
                 "cornucopias": ("cornucopia", "cornucopias")}
# the words a map's `die_table:` may use for each resource (singular, plural, the sheet's words)
DIE_RESOURCE_WORDS = {word: key for key, names in DIE_RESOURCES.items()
                      for word in (key, key.removesuffix("s"), *names)}
DIE_MONSTER_TEXT = "a monster appears: fight it"
DIE_EFFECTS = ("monster", "gain N RESOURCE", "lose N RESOURCE", "nothing")   # gains and losses join with ' + '


def die_face(face: int, effect: str) -> DieFace:
    """A face of a die table from its effect as a map writes it: 'monster', 'gain 1 shield',
    'lose 2 hearts', 'nothing', or gains and losses joined with ' + '; ValueError naming what
    is allowed."""
    monster = False
    gain: list[tuple[str, int]] = []
    texts: list[str] = []
    if not isinstance(effect, str) or not effect.strip():
        raise ValueError("a die-table effect such as 'monster', 'gain 1 shield' or 'lose 1 heart'")
    for part in effect.split("+"):
        words = part.lower().split()
        if words == ["monster"]:
            if "+" in effect:       # a monster is the whole face: the fight comes first and alone
                raise ValueError(f"'{effect.strip()}': a monster is a face of its own (not joined with +)")
            monster = True
            texts.append(DIE_MONSTER_TEXT)
        elif words == ["nothing"]:
            texts.append("nothing happens")
        elif words and words[0] in ("gain", "lose"):
            counted = len(words) > 2 and words[1].isdigit()        # 'gain shield' is 'gain 1 shield'
            count, name = (words[1], " ".join(words[2:])) if counted else ("1", " ".join(words[1:]))
            key = DIE_RESOURCE_WORDS.get(name)
            if key is None or int(count) < 1:
                raise ValueError(f"'{part.strip()}': {words[0]} takes a count and a resource "
                                 f"({', '.join(DIE_RESOURCES)}), e.g. '{words[0]} 1 shield'")
            n = int(count)
            gain.append((key, n if words[0] == "gain" else -n))
            texts.append(f"{words[0]} {n} {DIE_RESOURCES[key][n != 1]}")
        else:
            raise ValueError(f"unknown die-table effect '{part.strip()}' (monster, gain N RESOURCE, "
                             "lose N RESOURCE or nothing; gains and losses join with +; `sheetgen list die-effects`)")
    return DieFace(face, ", ".join(texts), monster=monster, gain=tuple(gain))


def die_table(effects: dict[int, str]) -> dict[int, DieFace]:
    """A whole die table (faces 1 to 6) from the effects a map writes."""
    return {face: die_face(face, effects[face]) for face in sorted(effects)}


# our own table (the rulebook's is not in the text): 1 a monster appears, 2 lose a heart, 3-6 gain a resource;
# a map's `die_table:` replaces it for that map (Board.die_table)
DIE_TABLE_EFFECTS = {1: "monster", 2: "lose 1 heart", 3: "gain 1 shovel", 4: "gain 1 clover", 5: "gain 1 shield",
                     6: "gain 1 chest"}
DIE_TABLE = die_table(DIE_TABLE_EFFECTS)

# -- combat and the rounds ---------------------------------------------------------------------
ROUND_BONUS = (0, 1, 2, 3)      # monsters' strength in rounds 1-4 ("+1 in Strength with each New Round")
CHEST_VALUE = (1, 2, 3, 4)      # a chest at the market after rounds 1-4 ("x2 in the Second Round")
FIXED_STRENGTH = {"statue": 0, "goblin": 0, "kraken": 6}    # foes whose strength does not grow
BONUS_TIMES = {"minotaur": 2}   # the Minotaur: twice the round's bonus


def foe_strength(foe: str, round_bonus: int) -> int:
    """What a foe adds to its die, given the round's bonus (a generic monster: the bonus)."""
    fixed = FIXED_STRENGTH.get(foe)
    if fixed is not None:
        return fixed
    return BONUS_TIMES.get(foe, 1) * round_bonus


# the round requirements of the base game's zones (a map may give other counts)
REQUIREMENT_COUNT = {"statues": 3, "kills": 3, "levers": 2, "cornucopias": 1}

# -- the character sheet's tracks: boxes everyone may fill, beige hero extras --------------------
TRACK_BOXES = {"hearts": (12, 2), "shields": (8, 2), "weapon": (8, 2), "clovers": (6, 2), "shovels": (6, 2)}
FURY_ROOM = 4                   # Life boxes given up on the Slaughter's sheet for the Fury boxes
FREE_TRAIT_TOTAL = 12           # "freely mark 12 traits"

# -- the campaigns' numbers ------------------------------------------------------------------------
FURY_BOXES = 5                  # the Slaughter's skull boxes at the end of the Life row
SLAUGHTER_MAX = 48              # the most enemies the Slaughter's sheet counts
KILLS_PER_CORNUCOPIA = 3        # the Slaughter: every third kill gives a cornucopia
SANTA_TURNS = 40                # Santa's hourglass boxes when the map gives none
SANTA_GOAL = {"reindeer": 6, "sleigh": 1, "green packages": 10, "blue packages": 10}    # Rudolph is a reindeer
SANTA_GRID = {"reindeer": 8, "rudolph": 1, "green packages": 16, "blue packages": 16}  # the whole grid (and the sleigh)
SWIM_LIMIT = 5                  # the Kraken: at most 5 spaces swum (or backtracked) in a row
FLOOD_EVERY = 5                 # the Kraken: the water spreads every 5 turns
KRAKEN_TURNS = 60               # the Kraken's hourglass boxes on a spare sheet
# the zones face each other across the centre: Temple (top) / Cliff (bottom), Palace (right) / Waterways (left)
OPPOSITE_ZONE = {"A": "C", "C": "A", "B": "D", "D": "B"}


# -- the campaigns -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Campaign:
    """What a campaign is and what its map and character sheet show (what it changes in
    play is its rules class in rules/, which holds one of these as `campaign`)."""
    name: str                           # the map's `campaign:`
    title: str                          # printed on the sheets
    centre: str                         # the centre room's label on the map
    centre_icon: str
    exits: bool = True                  # rounds enter and leave through the arrows (else: one round from a start)
    arrows: bool = True                 # the map may print arrows (the Slaughter's have all collapsed)
    rounds: int = 4                     # rounds to play (1: one expedition)
    needs_centre: bool = True           # the map needs a centre room (O)
    start_hint: str = ""                # where a campaign without exits starts
    start_beside_centre: bool = False   # Santa: the start is next to the centre room
    full_scale: bool = False            # every track's full scale, no hero extras (the caps)
    fury_boxes: int = 0                 # Fury boxes instead of lost resources
    max_enemies: int | None = None      # the enemies counted on the sheet (its kill grid)
    turns: int | None = None            # hourglass boxes on a spare sheet
    timed: bool = False                 # the hourglass is a limit: the map gives `turns:`
    flood_every: int | None = None      # the water spreads every N turns (Kr on the hourglass)
    cave_ins: bool = True               # collapse events collapse walls and rooms
    all_requirements: bool = False      # the four zones' requirements all count, in the one round
    exit_opposite: bool = False         # exit opposite the zone of the last requirement
    requirements: bool = True           # the round requirements block
    oracle: bool = True                 # the Oracle's question and answers
    collection: bool = False            # Santa's collection grid
    insert_coin: bool = True
    potions: bool = False               # yellow and purple potions are in play
    elements: tuple[tuple[str, str], ...] = ()       # more elements in the sheet's summary: (icon, effect)
    turn_sequence: tuple[tuple[int, str], ...] = ()  # lines of the sheet's turn sequence it rewrites
    hourglass_note: str = ""
    motivation: bool = False            # phrases to read aloud at the foot of the sheet


ANCIENT = Campaign("ancient", "The Ancient Story", "The Oracle", "oracle")
SLAUGHTER = Campaign(
    "slaughter", "The Slaughter of Monsters", "Start", "start", exits=False, arrows=False, rounds=1,
    needs_centre=False, start_hint="at the centre", fury_boxes=FURY_BOXES, max_enemies=SLAUGHTER_MAX,
    requirements=False, oracle=False, insert_coin=False, potions=True, motivation=True,
    turn_sequence=((4, "Repeat until you fall. Forced to lose a resource? Black out Fury boxes instead, "
                       "from the right."),))
SANTA = Campaign(
    "santa", "Santa Crash'n Foury", "Santa", "santa", exits=False, rounds=1, start_hint="next to Santa's room (O)",
    start_beside_centre=True, turns=SANTA_TURNS, timed=True, requirements=False, oracle=False, collection=True,
    elements=(("star", "4 free steps, 1 turn"), ("candy cane", "distract Yeti or Grinch")),
    turn_sequence=((4, "Cross an hourglass box, then repeat until time runs out."),),
    hourglass_note="Star: 4 free steps for 1 turn. Time out outside the XMas Safe Zone: 10 turns of Santa's wrath.")
STRENGTH = Campaign("strength", "In and Out with Your Strength", "The Oracle", "oracle", full_scale=True,
                    potions=True)
KRAKEN = Campaign(
    "kraken", "Discovering the Kraken", "The Kraken", "kraken", rounds=1, turns=KRAKEN_TURNS, timed=True,
    flood_every=FLOOD_EVERY, cave_ins=False, all_requirements=True, exit_opposite=True, oracle=False, potions=True,
    elements=(("kraken", "strength 6, immortal"), ("flooded", "water: swim 5 max")),
    turn_sequence=((0, "Cross an hourglass box; move to an adjacent, connected space."),
                   (4, "Repeat. Market once, at an exit. Exit opposite the last requirement.")),
    hourglass_note="Kr: every 5 turns each flooded space linked to the Kraken floods one neighbour. "
                   "Swim or backtrack at most 5 spaces.")


def track_boxes(campaign: Campaign, hero_extras: bool = True) -> dict[str, tuple[int, int]]:
    """The character sheet's resource tracks: key -> (boxes everyone may fill, beige hero extras)."""
    out = {}
    for key, (base, extra) in TRACK_BOXES.items():
        if campaign.full_scale:
            out[key] = (base + extra, 0)       # no extras: everyone may use the full scale
        elif not hero_extras:
            out[key] = (base, 0)
        else:
            out[key] = (base, extra)
    if campaign.fury_boxes:
        base, extra = out["hearts"]
        out["hearts"] = (base - FURY_ROOM, extra)    # room for the Fury boxes
    return out
