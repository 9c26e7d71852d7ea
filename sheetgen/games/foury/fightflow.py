"""One fight exchange in the order the rules text gives it, for the page and `track play`.

"Roll 1D6 for your character, then choose whether to add the value of your Weapons to your
roll. ... Now roll 1D6 for the opponent" and, if your result is lower, "UNLESS you decide to
use a four-leaf clover and reroll any one die ... OR you decide to use ONE SHIELD to block
the hit": so the weapon is decided knowing your own die and not the foe's, and the clover and
the shield are offered once the exchange is known to be lost.  What an exchange comes to is
the engine's judgement (rules.step on the fight step), never a sum made here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .actions import Fight

TYPE, HERO, WEAPON, ENEMY, CLOVER_ROLL, DECIDE = "enemy_type", "hero", "weapon", "enemy", "clover_roll", "decide"


@dataclass(frozen=True)
class Exchange:
    """The exchange so far: None is not yet rolled (or decided); enemy_type: what a printed
    generic monster is ('' a plain monster), asked first since it sets the foe's strength."""
    enemy_type: str | None = None
    hero: int | None = None
    weapon: bool | None = None
    enemy: int | None = None
    clover: str | None = None           # 'hero' | 'enemy': the die a clover rerolls
    clover_roll: int | None = None

    def fight(self, shield: bool = False, stolen: str | None = None) -> Fight:
        return Fight(self.hero or 0, self.enemy or 0, bool(self.weapon), self.clover, self.clover_roll, shield,
                     self.enemy_type or None, stolen)

    def step(self, shield: bool = False, stolen: str | None = None) -> dict:
        """The play-log step of this exchange (the format's keys)."""
        f: dict = {"hero": self.hero, "enemy": self.enemy}
        if self.weapon:
            f["weapon"] = True
        if self.clover:
            f["clover"] = {"die": self.clover, "roll": self.clover_roll}
        if shield:
            f["shield"] = True
        if self.enemy_type:
            f["type"] = self.enemy_type
        if stolen:
            f["stolen"] = stolen
        return {"fight": f}


def question(g, ex: Exchange) -> str:
    """What is asked next: your die, the weapon (only with a weapon to add), the foe's die, the
    clover's reroll, or the decision on the exchange (record it; after a loss: clover or shield)."""
    if ex.enemy_type is None and g.rules.monster_types(g, g.pos):
        return TYPE
    if ex.hero is None:
        return HERO
    if ex.weapon is None and g.res.get("weapon", 0) > 0:
        return WEAPON
    if ex.enemy is None:
        return ENEMY
    if ex.clover is not None and ex.clover_roll is None:
        return CLOVER_ROLL
    return DECIDE


@dataclass(frozen=True)
class Judged:
    outcome: str            # 'win' | 'tie' | 'hit' | 'blocked' | 'refused'
    line: str               # the engine's words ("you 4 against the monster 3 + 1 = 4: a tie ...")
    hearts: int             # hearts the exchange costs
    problems: tuple         # the rules it breaks (a shield with none left ...)


def judge(g, ex: Exchange, shield: bool = False) -> Judged:
    """The engine's judgement of the exchange (with the shield, if used)."""
    from .tracker import ADAPTER
    action = ex.fight(shield)
    out = g.rules.step(g, action)
    lines: list[str] = []
    ADAPTER._tell_fight(g, out.state, action, lines.append)
    if not out.followed:
        return Judged("refused", "; ".join(v.message for v in out.violations), 0, tuple(out.violations))
    s = out.state
    hearts = g.res.get("hearts", 0) - s.res.get("hearts", 0)
    outcome = s.last if s.last in ("tie", "hit", "blocked") else "win"     # None: won, a second foe next
    line = next((x for x in lines if " against " in x), lines[0] if lines else "")
    return Judged(outcome, line, hearts, tuple(out.violations))


def may_clover(g, ex: Exchange) -> bool:
    return ex.clover is None and g.res.get("clovers", 0) > 0


def may_shield(g) -> bool:
    return g.res.get("shields", 0) > 0


def with_answer(ex: Exchange, what: str, value) -> Exchange:
    return replace(ex, **{what: value})


def ask_at_prompt(g, step: dict, auto: bool, prompt, echo, rng=None) -> dict:
    """A `fight` step of `track play` (or `track fight` on a terminal) completed in the rules'
    order: the monster's type (a printed generic one), your die, the weapon, the foe's die, then
    after a lost exchange the clover and the shield; the dice given on the line are kept.
    PROMPT and ECHO talk to the player; AUTO: sheetgen rolls the dice left out (shown)."""
    import random
    rng = rng or random.Random()
    f = dict(step.get("fight") or {})
    foe = g.enemy_at(g.pos) if g.pos is not None else None
    if foe is None:
        return step                                 # the rules say there is nothing to fight

    def die(what: str, chosen: bool = False) -> int:
        if auto and not chosen:
            n = rng.randint(1, 6)
            echo(f"{what}: sheetgen rolls {n}")
            return n
        while True:
            answer = str(prompt(f"{what} (1-6{'' if chosen else ', or r to let sheetgen roll'})")).strip().lower()
            if answer in ("r", "roll") and not chosen:
                n = rng.randint(1, 6)
                echo(f"  sheetgen rolls {n}")
                return n
            if answer in ("1", "2", "3", "4", "5", "6"):
                return int(answer)
            echo("a die shows 1 to 6" + ("" if chosen else " (or r: sheetgen rolls)"))

    def choose(what: str, options: dict) -> str:
        while True:
            answer = str(prompt(what)).strip().lower()
            if answer in options:
                return options[answer]
            echo("one of: " + ", ".join(k for k in options if k))

    types = g.rules.monster_types(g, g.pos)
    if types and "type" not in f:
        names = {"": "", "plain": "", **{t: t for t in types}}
        f["type"] = choose(f"which monster is printed here? ({', '.join(types)}; enter: a plain monster)", names)
        if not f["type"]:
            del f["type"]
    foe = f.get("type") or foe
    enemy_asked = f.get("enemy") is None
    if f.get("hero") is None:
        f["hero"] = die("your fight die")
    weapon = g.res.get("weapon", 0)
    if enemy_asked and "weapon" not in f and weapon > 0:
        yes = choose(f"your die shows {f['hero']}: add your weapon (+{weapon} = {f['hero'] + weapon}; "
                     "it drops by 1 after)? [y/n]", {"y": "y", "yes": "y", "n": "n", "no": "n", "": "n"})
        if yes == "y":
            f["weapon"] = True
    if f.get("enemy") is None:
        f["enemy"] = die(f"the {foe}'s die")
    ex = Exchange(enemy_type=f.get("type"), hero=f["hero"], weapon=bool(f.get("weapon")), enemy=f["enemy"])
    if "clover" in f or f.get("shield"):
        return {**step, "fight": f}                # the player said already how the exchange ends
    judged = judge(g, ex)
    echo(f"  {judged.line}")
    if judged.outcome == "hit" and may_clover(g, ex):
        options = {"t": "take", "": "take", "c": "hero", "e": "enemy"}
        words = ["t: take the hit", f"c: a clover rerolls your die ({g.res.get('clovers', 0)} left)",
                 f"e: a clover rerolls the {foe}'s die"]
        if may_shield(g):
            options["s"] = "shield"
            words.append(f"s: a shield blocks it ({g.res.get('shields', 0)} left)")
        pick = choose("you lose this exchange: " + ", ".join(words), options)
        if pick == "shield":
            f["shield"] = True
            return {**step, "fight": f}
        if pick in ("hero", "enemy"):
            roll = die("the clover's reroll" if g.hero.ability != "melyra" else "Melyra chooses the reroll",
                       chosen=g.hero.ability == "melyra")
            f["clover"] = {"die": pick, "roll": roll}
            ex = replace(ex, clover=pick, clover_roll=roll)
            judged = judge(g, ex)
            echo(f"  {judged.line}")
    if judged.outcome == "hit" and may_shield(g):
        pick = choose(f"you are hit: s: a shield blocks it ({g.res.get('shields', 0)} left), t: take the hit",
                      {"s": "shield", "t": "take", "": "take"})
        if pick == "shield":
            f["shield"] = True
    return {**step, "fight": f}
