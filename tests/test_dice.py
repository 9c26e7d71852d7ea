"""Dice: parsing with clear errors, d66 read tens then units, seeded rolls, the roll command."""
import random

import pytest
from click.testing import CliRunner

from sheetgen.cli import main
from sheetgen.games import dice


class FixedRng:
    """Answers randint with preset faces, to see how dice read them."""
    def __init__(self, faces):
        self.faces = list(faces)

    def randint(self, a, b):
        value = self.faces.pop(0)
        assert a <= value <= b
        return value


def test_d66_reads_first_die_as_tens_then_units():
    assert dice.d66(FixedRng([3, 5])) == 35
    assert dice.d66(FixedRng([5, 3])) == 53
    assert dice.parse("d66").roll(FixedRng([6, 1])).total == 61
    assert dice.RandomDice(random.Random(2)).d66() == dice.d66(random.Random(2))


def test_d66_values_never_hold_0_or_7():
    assert len(dice.D66_VALUES) == 36
    assert all(1 <= v // 10 <= 6 and 1 <= v % 10 <= 6 for v in dice.D66_VALUES)
    for bad in (10, 17, 60, 67, 70, 0, 7, 100, True):
        assert not dice.is_d66(bad)
    with pytest.raises(dice.DiceError):
        dice.d66_digits(47)
    assert dice.d66_digits(46) == (4, 6)
    rng = random.Random(4)
    assert {dice.d66(rng) for _ in range(3000)} == set(dice.D66_VALUES)


@pytest.mark.parametrize("text,count,sides,mod,lo,hi", [
    ("d6", 1, 6, 0, 1, 6), ("2d6", 2, 6, 0, 2, 12), ("3d8", 3, 8, 0, 3, 24), ("D20", 1, 20, 0, 1, 20),
    ("2d6+1", 2, 6, 1, 3, 13), ("1d4-1", 1, 4, -1, 0, 3)])
def test_parse_ndm(text, count, sides, mod, lo, hi):
    d = dice.parse(text)
    assert (d.count, d.sides, d.modifier, d.minimum, d.maximum) == (count, sides, mod, lo, hi)
    rng = random.Random(1)
    assert all(lo <= d.roll(rng).total <= hi for _ in range(200))


@pytest.mark.parametrize("text,fragment", [
    ("x6", "not a dice expression"), ("0d6", "number of dice"), ("d1", "2 to"), ("2d", "not a dice"),
    ("", "not a dice"), ("d6+", "not a dice")])
def test_parse_errors_are_clear(text, fragment):
    with pytest.raises(dice.DiceError, match=fragment):
        dice.parse(text)


def test_same_seed_same_rolls():
    a = [dice.parse("2d6").roll(random.Random(9)).total for _ in range(3)]
    assert len(set(a)) == 1


def test_roll_command():
    runner = CliRunner()
    one = runner.invoke(main, ["roll", "d66", "2d6", "--seed", "5", "--times", "3"])
    two = runner.invoke(main, ["roll", "d66", "2d6", "--seed", "5", "--times", "3"])
    assert one.exit_code == 0 and one.output == two.output
    lines = one.output.strip().splitlines()
    assert len(lines) == 6 and lines[0].startswith("d66: ") and lines[1].startswith("2d6: ")
    value = int(lines[0].split()[1])
    assert dice.is_d66(value) and f"tens {value // 10}, units {value % 10}" in lines[0]
    bad = runner.invoke(main, ["roll", "7x"])
    assert bad.exit_code == 2 and "not a dice expression" in bad.output and "Traceback" not in bad.output
    assert "Example" in runner.invoke(main, ["roll", "--help"]).output
