"""The fixed data of card-grid navigation (seed 000), read by the engine, the
formats, the sheets and the tracker alike.

Pure: the standard library only.
"""
from __future__ import annotations

# -- sides and what passing them takes -------------------------------------------------------
SIDE_TYPES = ("open", "door", "wall")
NEEDS = {"open": None, "door": "key", "wall": "bomb"}      # "locked doors ... using a key"; "through a wall ... a Bomb"

# -- moves --------------------------------------------------------------------------------
BASE_MOVES = 3                  # "Players may move up to three rooms during a turn"
BOOTS_MOVES = 5                 # "the Speed Boots (which allow movement up to five rooms)"
UNRESOLVE_XP = 4                # "Rooms may also be unresolved by discarding four XP"

# -- a player's stock at set-up ---------------------------------------------------------------
RESOURCES = ("hp", "keys", "bombs", "xp")
START = {"hp": 10, "keys": 1, "bombs": 1, "xp": 0}      # "one key to start out"; "one of which [a Bomb] is provided"

# -- items ------------------------------------------------------------------------------------
SPEED_BOOTS = "speed-boots"
MAGIC_MIRROR = "magic-mirror"
ITEM_NAMES = {SPEED_BOOTS: "Speed Boots", MAGIC_MIRROR: "Magic Mirror"}
_ITEM_ALIASES = {"boots": SPEED_BOOTS, "speedboots": SPEED_BOOTS, "mirror": MAGIC_MIRROR,
                 "magicmirror": MAGIC_MIRROR}


def item_key(name: str) -> str:
    """'Speed Boots', 'speed_boots', 'boots' -> 'speed-boots'; 'mirror' -> 'magic-mirror'."""
    key = "-".join(str(name).strip().lower().replace("_", " ").split())
    return _ITEM_ALIASES.get(key, key)


# -- rooms ------------------------------------------------------------------------------------
# Room types we draw a symbol for, with their default action symbols (functions).
ROOM_TYPES: dict[str, tuple[str, ...]] = {
    "start": (), "corridor": (),
    "monster": ("fight",), "trap": ("disarm",), "treasure": ("open",), "fountain": ("heal",),
    "blacksmith": ("forge", "repair"), "warp": ("warp", "recharge"), "bounty-hunter": ("bounty",),
    "shrine": ("pray",), "library": ("study",), "merchant": ("trade",), "armory": ("arm",),
    "lair": ("fight",),
}
DEFAULT_KEYS = {"trap": 1}      # "more [keys] can be found by completing Trap Rooms"
