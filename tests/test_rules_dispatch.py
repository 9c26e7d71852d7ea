"""One dispatch for the rules engines (sheetgen.games.base): a table from action type to its
handler, read with handler_of, and the step's violations in a StepReport whose refused flag
says whether the action was carried out (Outcome.followed)."""
import pytest

from sheetgen.games.base import StepReport, broken, handler_of
from sheetgen.games.exploration import rules as exploration_rules
from sheetgen.games.navigation import rules as navigation_rules
from sheetgen.games.shuffle import rules as shuffle_rules


class NotAnAction:
    by = None
    verb = "nothing"


def test_handler_of_finds_the_handler_of_the_actions_type():
    table = {int: "an int", str: "a str"}
    assert handler_of(table, 3, "toy") == "an int" and handler_of(table, "x", "toy") == "a str"


def test_an_action_of_another_type_is_a_bug_not_a_verdict():
    with pytest.raises(TypeError, match="not a toy action"):
        handler_of({int: "an int"}, 3.5, "toy")     # a float is no int here: the exact type decides


def test_a_refusal_rule_refuses_and_any_other_does_not():
    report = StepReport(frozenset({"nav.no-room"}))
    report.append(broken("nav.door-key", "a door passed without a key"))
    assert not report.refused and report.outcome("after").followed
    report.append(broken("nav.no-room", "no room there"))
    assert report.refused and not report.outcome("after").followed
    assert [v.rule for v in report.outcome("after").violations] == ["nav.door-key", "nav.no-room"]


def test_refuse_refuses_with_any_rule():
    report = StepReport()
    report.refuse("shuffle.off-turn", "not your turn")
    assert report.refused and [v.rule for v in report] == ["shuffle.off-turn"]


@pytest.mark.parametrize("table", [exploration_rules.ExplorationRules._STEPS, navigation_rules._HANDLERS,
                                   shuffle_rules._HANDLERS], ids=["exploration", "navigation", "shuffle"])
def test_every_engine_dispatches_by_its_table(table):
    assert table and all(isinstance(kind, type) and callable(handler) for kind, handler in table.items())
    with pytest.raises(TypeError):
        handler_of(table, NotAnAction(), "any")
