"""What a scan says: the `kind: sheetscan` YAML file, the text for a person, the JSON.

The sheetscan file holds the photo, the sheet it shows (its identity and how it was
known), the photo's quality, what the sheet shows (the game's view), the rules it
breaks, the differences with the play record, and every region with its reading and
confidence, the uncertain ones first."""
from __future__ import annotations

import re

from .contract import UNCERTAIN


def _violation(v) -> dict:
    out = {"rule": v.rule, "message": v.message}
    if v.line is not None:
        out["line"] = v.line
    if v.step is not None:
        out["step"] = v.step
    return out


def as_data(result) -> dict:
    """The sheetscan document as plain data (YAML and JSON share it)."""
    sheet = result.sheet
    regions = sorted(result.readings.values(), key=lambda r: (not r.uncertain, r.confidence if r.uncertain else 0,
                                                              r.region.id))
    out = {
        "sheetgen": 1,
        "kind": "sheetscan",
        "ruleset": sheet.loaded.ruleset,
        "photo": result.photo,
        "sheet": {"code": sheet.identity.encode(), "is": sheet.identity.describe(), "known_by": result.identity_from,
                  "located_by": result.location.by, "marker_error_px": round(result.location.error_px, 2)},
        "quality": result.quality.as_dict(),
        "verdict": result.verdict,
        "shows": result.view.as_dict(),
        "violations": [_violation(v) for v in result.violations],
    }
    if result.record is not None:
        out["record"] = {"file": result.record, "differences": [d.as_dict() for d in result.differences],
                         "violations": [_violation(v) for v in result.record_violations]}
        if result.record_readings:
            out["record"]["readings"] = result.record_readings
    corrections = list(result.corrections)
    if corrections:
        # a person's review (--review): what each region was read as and what they said it is;
        # the readings, shows and verdict above are the corrected ones
        out["corrections"] = [c.as_dict() for c in corrections]
    confirmed = list(getattr(result, "confirmed", []))
    if confirmed:
        # regions a person said read right as they are (--review): sure, so the verdict rests on them
        out["confirmed"] = confirmed
    corrected = {c.id for c in corrections} | set(confirmed)
    out["uncertain"] = [r.region.id for r in regions if r.uncertain]
    if result.unconfirmed:
        # the unsure ones (uncertain where the photo could have shown a mark): what "consistent" waits on
        out["to_check"] = [r.region.id for r in result.unsure()]
    out["regions"] = [{"id": r.region.id, "role": r.region.role, "reading": r.value, "confidence": r.confidence,
                       **({"hidden": True} if r.hidden else {}),
                       **({"by": "person"} if r.region.id in corrected else {})} for r in regions]
    out["seconds"] = round(result.seconds, 3)
    return out


def sheetscan_yaml(result, data: dict | None = None) -> str:
    """The sheetscan file's text; DATA: as_data(result) when the caller has it already."""
    import yaml
    if data is None:
        data = as_data(result)
    head = (f"# sheetgen scan of {result.photo}: {len(data['regions'])} regions read, "
            f"{len(data['uncertain'])} uncertain (confidence below {UNCERTAIN}), listed first"
            + (f"; {len(data['corrections'])} corrected by a person" if data.get("corrections") else "")
            + (f"; {len(data['confirmed'])} confirmed by a person" if data.get("confirmed") else "") + "\n")
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)    # libyaml: the same text, faster

    def dump(part: dict) -> str:
        return yaml.dump(part, Dumper=dumper, sort_keys=False, allow_unicode=True, width=120,
                         default_flow_style=None)
    lines = _region_lines(data["regions"])
    if lines is None:
        return head + dump(data)
    before = {k: v for k, v in data.items() if k not in ("regions", "seconds")}
    seconds = yaml.representer.SafeRepresenter().represent_data(data["seconds"]).value
    return head + dump(before) + "regions:\n" + "".join(lines) + f"seconds: {seconds}\n"


def as_json(data: dict) -> str:
    """json.dumps(data, indent=2), the same text: the regions (thousands of small mappings, most of
    the time json's indenting encoder, written in Python, takes) formatted directly."""
    import json
    from math import isfinite
    regions = data.get("regions")
    if not isinstance(regions, list) or not regions:
        return json.dumps(data, indent=2)
    marker = "\x00regions\x00"
    text = json.dumps({**data, "regions": marker}, indent=2)
    quoted = json.dumps(marker)
    if text.count(quoted) != 1:
        return json.dumps(data, indent=2)
    from json.encoder import encode_basestring_ascii as quote
    scalars: dict = {}

    def scalar(value) -> str:
        key = (type(value), value)
        hit = scalars.get(key)
        if hit is None:
            hit = scalars[key] = json.dumps(value)
        return hit
    heads: dict = {}            # a key -> its indented, quoted start ("id", "role" ... a few keys)
    items = []
    for region in regions:
        if not isinstance(region, dict) or not region:
            return json.dumps(data, indent=2)
        parts = []
        for k, v in region.items():
            head = heads.get(k)
            if head is None:
                if not isinstance(k, str):
                    return json.dumps(data, indent=2)
                head = heads[k] = f"      {quote(k)}: "
            if type(v) is str:
                parts.append(head + quote(v))
            elif type(v) is float and isfinite(v):
                parts.append(head + repr(v))            # json writes a finite float by float.__repr__
            elif v is None or isinstance(v, (str, int, float)):
                parts.append(head + scalar(v))
            else:
                return json.dumps(data, indent=2)
        items.append("    {\n" + ",\n".join(parts) + "\n    }")
    return text.replace(quoted, "[\n" + ",\n".join(items) + "\n  ]")


_PLAIN = re.compile(r"[A-Za-z](?:[A-Za-z0-9_. -]*[A-Za-z0-9_.])?")
# a string -> itself when PyYAML writes it plain (unquoted), else None: a sheet's region ids come
# again with each of its photos (emptied when it grows past _PLAIN_KEPT strings)
_plain_text: dict[str, str | None] = {}
_PLAIN_KEPT = 200_000


def _plain(value: str) -> str | None:
    """VALUE as PyYAML writes it in a flow mapping when that is plain, else None."""
    hit = _plain_text.get(value, "")
    if hit != "":
        return hit
    import yaml
    plain = bool(_PLAIN.fullmatch(value)) and "  " not in value and yaml.resolver.Resolver().resolve(
        yaml.ScalarNode, value, (True, False)) == "tag:yaml.org,2002:str"
    if len(_plain_text) >= _PLAIN_KEPT:
        _plain_text.clear()
    _plain_text[value] = value if plain else None
    return _plain_text[value]


def _region_lines(regions: list[dict]) -> list[str] | None:
    """The regions as PyYAML writes them (one flow mapping a line), written directly: thousands
    of small mappings cost PyYAML seconds.  None when a value is not one this writes as YAML
    would (then PyYAML writes them all)."""
    import math

    import yaml
    representer = yaml.representer.SafeRepresenter()
    numbers: dict = {}
    heads: dict = {}            # a key -> "key: ", or None when PyYAML would not write it plain

    def scalar(value) -> str | None:
        kind = type(value)
        if kind is str:
            return _plain(value)
        if kind is float and math.isfinite(value):
            # SafeRepresenter.represent_float: repr, lower case, ".0" put before an exponent
            # without a decimal point (1e-05 -> 1.0e-05): the common case is repr itself
            text = repr(value)
            if "e" not in text and "n" not in text:
                return text
        if kind is bool or value is None:
            return "true" if value is True else None
        if kind in (int, float):
            key = (kind, value)
            if key not in numbers:
                numbers[key] = representer.represent_data(value).value
            return numbers[key]
        return None
    out = []
    for region in regions:
        parts = []
        for k, v in region.items():
            head = heads.get(k, "")
            if head == "":
                head = heads[k] = f"{k}: " if isinstance(k, str) and _PLAIN.fullmatch(k) else None
            text = scalar(v)
            if text is None or head is None:
                return None
            parts.append(head + text)
        line = "- {" + ", ".join(parts) + "}\n"
        if len(line) > 110:             # PyYAML would fold it at width 120
            return None
        out.append(line)
    return out


def if_otherwise(otherwise: list[tuple[str, list]], holds: bool = True) -> list[str]:
    """What the rules say of a region to check read otherwise (ScanResult.otherwise: each other value and
    the violations it would add), the values that come to the same said together: "if marked: the rules
    still hold", "if empty: rule: ...".  HOLDS: the rules hold on the paper as read (else a reading that
    breaks none of them anew is "no other rule breaks")."""
    same = "the rules still hold" if holds else "no other rule breaks"
    said: dict[str, list[str]] = {}
    for value, found in otherwise:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        said.setdefault(f"rule: {found[0].message}{more}" if found else same, []).append(value)
    return [f"if {' or '.join(values)}: {outcome}" for outcome, values in said.items()]


def _if_otherwise(otherwise: list[tuple[str, list]]) -> str:
    return "".join(f"; {phrase}" for phrase in if_otherwise(otherwise))


def text(result) -> str:
    """The scan for a person: what sheet, what it shows, what is wrong."""
    sheet = result.sheet
    lines = [f"{result.photo}: {sheet.identity.describe()} (known by the {result.identity_from}; "
             f"{len(result.readings)} regions read, {len(result.uncertain())} uncertain)"]
    shows = result.view.as_dict()
    for key, value in shows.items():
        if isinstance(value, (dict, list)) and not value:
            value = "none"                  # not an empty line (a blank sheet's resources)
        elif isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(str(v) for v in value[:24]) + (f" ... ({len(value)})" if len(value) > 24 else "")
        lines.append(f"  {key}: {value}")
    for v in result.violations:
        lines.append(f"  rule: {v.message}")
    if result.record is not None:
        if result.differences:
            lines.append(f"  against {result.record}: {len(result.differences)} difference"
                         f"{'s' if len(result.differences) != 1 else ''}")
            lines += [f"    {d.message}" for d in result.differences]
        else:
            lines.append(f"  against {result.record}: the paper shows what the log does")
        for v in result.record_violations:
            lines.append(f"  log: {v.format(result.record)}")
    corrections = list(result.corrections)
    if corrections:
        lines.append(f"  corrected by a person: {len(corrections)} region{'s' if len(corrections) != 1 else ''} ("
                     + ", ".join(f"{c.id} {c.read} -> {c.now}" for c in corrections[:8])
                     + (f" ... ({len(corrections)})" if len(corrections) > 8 else "") + ")")
    confirmed = list(getattr(result, "confirmed", []))
    if confirmed:
        lines.append(f"  confirmed as read by a person: {len(confirmed)} region{'s' if len(confirmed) != 1 else ''} ("
                     + ", ".join(confirmed[:8]) + (f" ... ({len(confirmed)})" if len(confirmed) > 8 else "") + ")")
    if result.consistent:
        lines.append("  consistent")
    elif result.unconfirmed:
        unsure = result.unsure()
        n = len(unsure)
        # each where a player finds it on the paper (the game's words) and what it was read as, then the
        # verdict, last as always
        place = result.scanner.place if result.scanner is not None else (lambda region: region.role)
        lines.append("  to check:")
        lines += [f"    {r.region.id}: {place(r.region)}, read {r.value} (sure {r.confidence:.0%})"
                  + _if_otherwise(result.otherwise(r)) for r in unsure[:8]]
        lines.append(f"  consistent as read, if the {n} uncertain region{'s read' if n != 1 else ' reads'} right: check "
                     f"{'them' if n != 1 else 'it'} on the sheet or with --review ("
                     + ", ".join(r.region.id for r in unsure[:8]) + (" ..." if n > 8 else "") + ")")
    else:
        lines.append("  NOT consistent")
    return "\n".join(lines)
