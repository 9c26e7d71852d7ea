"""The card games played on the page (tests/test_play_cards*.py): a planner that clears a
navigation dungeon with the engine's legal actions, and a scripted four-hero Shuffle game that
ends with a hero in the Boss room."""
from __future__ import annotations

from collections import deque

SHUFFLE_SETUP = """\
sheetgen: 1
kind: playlog
ruleset: shuffle
deck: shuffle-core
setup:
  start: {room: gate-hall, at: [0, 0]}
  rooms: [{room: long-corridor, at: [1, 0]}]
  boss: {at: [1, -1]}
  pile: [goblin, bread, short-sword, tee, mushroom-stew, bread, spark, blink, leather-coat, cave-rat, war-axe]
  heroes:
    - {name: Ada, hero: knight}
    - {name: Bo, hero: rogue}
    - {name: Cy, hero: mage}
    - {name: Di, hero: knight}
turns: []
"""

# (hero acting, what) -- what: ("step", STEP) a button whose form records STEP; ("choose", STEP) an
# option of a list of steps; ("tap", TARGET id);
# ("form", FORM id inside the page, {field: value}, submit button id)
SHUFFLE_SCRIPT = [
    ("Ada", ("step", "draw")),                                          # 4 open paths: 4 cards
    ("Ada", ("step", {"place-monster": {"monster": "goblin", "path": "south"}})),
    ("Ada", ("step", {"equip": "short-sword"})),
    # Bo, Cy and Di stand in the goblin's area: 1 + 3 dice
    ("Ada", ("form", "fight-goblin", {"hero_dice": "6 5 4 3", "monster_dice": "2"}, "fight-go-goblin")),
    ("Ada", ("step", {"level-up": "Ada"})),
    ("Ada", ("step", {"turn": "Bo"})),
    ("Bo", ("form", "trade", {"with": "Ada", "give": [], "take": ["bread"]}, "trade-go")),
    ("Bo", ("step", {"eat": "bread"})),
    ("Bo", ("tap", "go-east")),                                         # split moves: east, then west
    ("Bo", ("tap", "go-west")),
    ("Bo", ("step", {"turn": "Cy"})),
    ("Cy", ("form", "rooms", {"verb": "twist", "room": "1,0", "rotation": "90", "via": "mage"}, "rooms-go")),
    ("Cy", ("step", {"effect": {"damage": 1, "target": ["Ada", "Bo", "Cy", "Di"]}})),   # the Boss flipped
    ("Cy", ("step", {"turn": "Di"})),
    ("Di", ("step", "draw")),
    ("Di", ("step", {"equip": "leather-coat"})),
    ("Di", ("step", {"eat": "bread"})),
    ("Di", ("step", {"turn": "Ada"})),
    ("Ada", ("choose", {"build": {"room": "tee", "path": "north"}})),   # the build list
    ("Ada", ("tap", "go-north")),
    ("Ada", ("tap", "go-east")),                                        # into the Boss room: over
]


def nav_plan(ts):
    """The next thing the player whose turn it is does to clear the dungeon: ('tap', room) to move,
    ('step', STEP) a button's step.  Greedy: resolve what is here, else walk (paying with a key, a
    bomb or 1 HP where needed) towards the nearest room with an unresolved action symbol."""
    from sheetgen.games.navigation.actions import Move, Pay, Resolve, Warp, Wrap
    from sheetgen.games.navigation.rules import RULES
    st = ts.state
    p = st.players[ts.player]
    legal = RULES.legal_actions(st)
    for a in legal:
        if isinstance(a, Resolve):
            return ("step", {"resolve": {"function": a.function}})
    goals = {r for r, room in st.dungeon.rooms.items() if set(room.functions) - set(st.tokens.get(r, ()))}
    dist = _distances(st.dungeon, goals)
    here = dist.get(p.room, 99)
    best = None
    for a in legal:
        if isinstance(a, (Move, Wrap, Warp)):
            to = RULES.step(st, a).state.players[ts.player].room
            if dist.get(to, 99) < here and (best is None or dist[to] < best[1]):
                best = (to, dist[to])
    if best is not None:
        return ("tap", best[0])
    if p.moves < p.move_limit and here < 99:
        for tool in ("key", "bomb", "hp"):      # a door or a wall on the way: pay, then move
            if Pay(tool) in legal:
                after = RULES.step(st, Pay(tool)).state
                for a in RULES.legal_actions(after):
                    if isinstance(a, (Move, Wrap)):
                        to = RULES.step(after, a).state.players[ts.player].room
                        if dist.get(to, 99) < here:
                            return ("step", {"sacrifice": "hp"} if tool == "hp" else tool)
    names = [q["name"] for q in ts.header["players"]]
    return ("step", {"turn": names[(names.index(ts.player) + 1) % len(names)]})


def _distances(dungeon, goals) -> dict:
    """Rooms -> moves to the nearest goal (neighbours, wrap travel, warps)."""
    from sheetgen.games.grid import DIRS
    links: dict = {r: set() for r in dungeon.rooms}
    warps = [r for r, room in dungeon.rooms.items() if room.type == "warp" or "warp" in room.functions]
    for r in dungeon.rooms:
        for d in DIRS:
            for n in (dungeon.neighbour(r, d), dungeon.wrap_target(r, d)):
                if n is not None:
                    links[r].add(n)
                    links[n].add(r)
        if r in warps:
            links[r] |= set(warps) - {r}
    dist = {g: 0 for g in goals}
    todo = deque(goals)
    while todo:
        r = todo.popleft()
        for n in links[r]:
            if n not in dist:
                dist[n] = dist[r] + 1
                todo.append(n)
    return dist
