"""The YAML loader and error formatting every definition kind relies on."""
from typing import Literal

import pytest

from sheetgen.definitions.models import Colour, Length, Strict, parse_length, validate_model
from sheetgen.definitions.yamlsource import parse_yaml
from sheetgen.errors import InputError


class _Elem(Strict):
    size: Length
    colour: Colour = None


class _Doc(Strict):
    sheetgen: Literal[1]
    title: str
    elems: dict[str, _Elem]


def _errors(text):
    with pytest.raises(InputError) as info:
        validate_model(_Doc, parse_yaml(text, "f.yaml"), "f.yaml")
    return [p.format() for p in info.value.problems]


def test_lengths_in_units():
    assert parse_length("10mm") == 10
    assert parse_length("1in") == pytest.approx(25.4)
    assert parse_length("72pt") == pytest.approx(25.4)
    assert parse_length("2 cm") == 20
    assert parse_length(3) == 3
    with pytest.raises(ValueError, match="unknown unit 'mn'.*did you mean 'mm'"):
        parse_length("3mn")


def test_unknown_key_named_with_line_column_and_suggestion():
    errs = _errors("sheetgen: 1\ntitle: x\nelems:\n  a: {size: 3mm, colr: red}\n")
    assert errs == ["f.yaml:4:18: elems.a: unknown key 'colr' (expected one of size, colour); did you mean 'colour'?"]


def test_wrong_type_and_bad_unit_located():
    errs = _errors("sheetgen: 1\ntitle: [1]\nelems:\n  b:\n    size: 3qq\n")
    assert any(e.startswith("f.yaml:2:8: title:") for e in errs)
    assert any(e.startswith("f.yaml:5:11: elems.b.size: unknown unit 'qq'") for e in errs)


def test_duplicate_key_is_an_error():
    with pytest.raises(InputError, match=r"g.yaml:2:1: duplicate key 'a' \(first given at line 1\)"):
        parse_yaml("a: 1\na: 2\n", "g.yaml")


def test_malformed_yaml_located():
    with pytest.raises(InputError, match=r"g.yaml:2:2: malformed YAML"):
        parse_yaml("a: [1, 2\nb: 3\n", "g.yaml")


# -- pydantic's errors said in one line each (input that is not a file: `track step`) ----------

FOURY_STEP_KEYS = ("entry, move, roll, fight, enemy, flee, collect, redeem, shovel, circle, climb, lever, "
                   "oracle, exit, market, coin, candy, flood, sheet, score, note")


def _messages(model, data):
    from pydantic import ValidationError

    from sheetgen.definitions.models import validation_messages
    with pytest.raises(ValidationError) as info:
        model.model_validate(data)
    return validation_messages(info.value, model)


def test_an_unknown_key_in_a_foury_step_names_the_key_the_allowed_ones_and_the_closest():
    from sheetgen.games.foury.formats.playlog import Step
    assert _messages(Step, {"mvoe": "C2", "roll": 3}) == [
        f"unknown key 'mvoe' (expected one of {FOURY_STEP_KEYS}); did you mean 'move'?"]
    assert _messages(Step, {"fight": {"hero": 3, "enemy": 2, "wepon": True}}) == [
        "fight: unknown key 'wepon' (expected one of hero, enemy, weapon, clover, shield, type, stolen, fury); "
        "did you mean 'weapon'?"]
    # deeper, through an optional model inside an optional model
    assert "fight.clover: unknown key 'rol' (expected one of die, roll); did you mean 'roll'?" in \
        _messages(Step, {"fight": {"hero": 3, "enemy": 2, "clover": {"die": "hero", "rol": 2}}})
    # a union member's class name is not a key of the data
    assert _messages(Step, {"market": {"trade": {"give": {"weapon": 1}, "got": {"shovels": 1}}}})[0] == \
        "market.trade: unknown key 'got' (expected one of give, get); did you mean 'get'?"


def test_an_unknown_key_in_a_layout_element_names_the_keys_of_its_type():
    from sheetgen.definitions.layout import LayoutModel
    messages = _messages(LayoutModel, {"sheetgen": 1, "kind": "layout", "elements": {
        "t": {"type": "text", "text": "hi", "sise": 3},
        "g": {"type": "group", "elements": {"b": {"type": "box", "widht": 2}}}}})
    assert messages == [
        "elements.t: unknown key 'sise' (expected one of x, y, z, grid, overlap, type, text, font, size, colour, align, "
        "valign, width, height, line_height, shrink, upper); did you mean 'size'?",
        "elements.g.elements.b: unknown key 'widht' (expected one of x, y, z, grid, overlap, stroke, stroke_width, dash, "
        "fill, pattern, type, width, height, radius); did you mean 'width'?"]
    assert _messages(LayoutModel, {"sheetgen": 1, "kind": "layout", "elements": {"t": {"type": "text"}}}) == \
        ["elements.t: missing required key 'text'"]


def test_without_the_model_an_unknown_key_is_still_named():
    from pydantic import ValidationError

    from sheetgen.definitions.models import error_message
    with pytest.raises(ValidationError) as info:
        _Elem.model_validate({"size": 3, "colr": "red"})
    (err,) = info.value.errors(include_url=False)
    assert error_message(err) == "unknown key 'colr'"
    assert error_message(err, _Elem) == "unknown key 'colr' (expected one of size, colour); did you mean 'colour'?"


def test_track_step_names_an_unknown_key(tmp_path):
    from click.testing import CliRunner

    from sheetgen.cli import main
    journal = str(tmp_path / "j.sqlite")
    CliRunner().invoke(main, ["track", "new", "--map", "ancient-story", "--hero", "kael", "--journal", journal])
    result = CliRunner().invoke(main, ["track", "step", "{mvoe: J11, roll: 3}", "--journal", journal])
    assert result.exit_code != 0
    assert "unknown key 'mvoe'" in result.output and "did you mean 'move'?" in result.output
    assert "Extra inputs are not permitted" not in result.output
