"""JSON output validates against Schemas/outline.schema.json."""
import json

import jsonschema
import pytest

from conftest import EXAMPLES, GOLDEN, ROOT, run
from test_cmark_oracle import REAL

SCHEMA = json.loads((ROOT / "Schemas" / "outline.schema.json").read_text())


def validate(document):
    jsonschema.Draft202012Validator(SCHEMA).validate(document)


@pytest.mark.parametrize("path", sorted(p for p in EXAMPLES.rglob("*.*") if p.suffix != ".png") + sorted(GOLDEN.glob("*.json")) + [__import__("pathlib").Path(p) for p in REAL[:10]], ids=str)
def test_outputs_validate(path):
    document = json.loads(path.read_text()) if path.suffix == ".json" else json.loads(run(path, "-t", "json").stdout)
    validate(document)


@pytest.mark.quick
def test_schema_rejects_what_the_format_forbids():
    good = {"version": 1, "body": "", "sections": [{"id": "a", "title": "A", "collapsed": False, "body": "", "children": []}]}
    validate(good)
    for bad in [
        {**good, "version": 2},
        {**good, "sections": [{**good["sections"][0], "collapsed": "no"}]},
        {**good, "sections": [{**good["sections"][0], "attributes": {}}]},
        {**good, "sections": [{**good["sections"][0], "id": "has space"}]},
        {**good, "title": ""},
    ]:
        with pytest.raises(jsonschema.ValidationError):
            validate(bad)
