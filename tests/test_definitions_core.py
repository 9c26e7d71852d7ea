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
