"""plist parsing agrees with Python's plistlib on generated files with awkward strings."""
import plistlib
import random
import re

import pytest

from conftest import body_normalized, run, title_normalized, to_json

AWKWARD = [
    "&", "<tag>", "a & b < c > d", "\"quotes\" and 'apostrophes'", "]]>", "<![CDATA[x]]>",
    "café", "naïve résumé", "日本語のテキスト", "مرحبا بالعالم", "emoji 👩‍💻🚀", "e\u0301 combining",
    "tab\there", "  leading and trailing  ", "line one\nline two", "\n\n  indented\n    more\n",
    "*emphasis* and `code`", "[link](https://example.org)", "a\u00a0nbsp", "zero\u200bwidth",
    "backslash \\ and #hash", "%percent%", "{.collapsed}", "1. not a list?",
]


def text(rng, allow_empty=False):
    if allow_empty and rng.random() < 0.2:
        return ""
    return " ".join(rng.choice(AWKWARD) for _ in range(rng.randint(1, 3)))


def title(rng):
    while True:
        value = text(rng)
        if value.strip():
            return value


def section(rng, depth):
    node = {"name" if rng.random() < 0.5 else "title": title(rng)}
    if rng.random() < 0.5:
        node["collapsed"] = rng.random() < 0.5
    if rng.random() < 0.6:
        node["detail"] = text(rng, allow_empty=True)
    if rng.random() < 0.2:
        node["id"] = f"id-{rng.randint(0, 10**9)}"
    if depth > 0:
        node["items"] = [
            section(rng, depth - 1) if rng.random() < 0.7 else title(rng)
            for _ in range(rng.randint(0, 3))
        ]
    return node


def chain(depth):
    """One section nested `depth` levels deep."""
    node = {"name": f"level {depth}", "detail": "deep"}
    for level in range(depth - 1, 0, -1):
        node = {"name": f"level {level}", "items": [node]}
    return node


def with_cdata(xml):
    """Rewrites some <string> values as CDATA sections (plistlib never writes them)."""
    def swap(match):
        raw = match.group(1)
        plain = raw.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        if "]]>" in plain or hash(raw) % 2:
            return match.group(0)
        return f"<string><![CDATA[{plain}]]></string>"
    return re.sub(r"<string>(.*?)</string>", swap, xml, flags=re.S)


def expected(value):
    """The outline plistlib's reading implies: what outline-render must produce."""
    if isinstance(value, str):
        return {"title": title_normalized(value), "collapsed": False, "body": "", "children": []}
    node = {
        "title": title_normalized(value.get("name", value.get("title"))),
        "collapsed": value.get("collapsed", False),
        "body": body_normalized(value.get("detail", "")),
        "children": [expected(v) for v in value.get("items", [])],
        **({"id": value["id"]} if "id" in value else {}),
    }
    # A node with neither body nor children is never collapsed (docs/formats.md).
    node["collapsed"] = node["collapsed"] and bool(node["body"] or node["children"])
    return node


def actual(node, has_id):
    result = {k: node[k] for k in ("title", "collapsed", "body")}
    result["children"] = [actual(c, "id" in c) for c in node["children"]]
    return result


def strip_ids(node):
    return {k: (v if k != "children" else [strip_ids(c) for c in v]) for k, v in node.items() if k != "id"}


def ids(value):
    if isinstance(value, str):
        return [None]
    own = [value["id"]] if "id" in value else [None]
    return own + [i for item in value.get("items", []) for i in ids(item)]


@pytest.mark.parametrize("seed", range(40))
def test_generated_plists_agree_with_plistlib(tmp, seed):
    rng = random.Random(seed)
    sections = [section(rng, rng.randint(0, 3)) for _ in range(rng.randint(1, 4))]
    if seed % 5 == 0:
        sections.append(chain(100))
    root = {"title": title(rng), "sections": sections} if seed % 2 else sections
    xml = plistlib.dumps(root, sort_keys=bool(seed % 3)).decode()
    if seed % 4 == 0:
        xml = with_cdata(xml)
    path = tmp / "generated.plist"
    path.write_text(xml, encoding="utf-8")

    oracle = plistlib.loads(path.read_bytes())  # the oracle reads the very same bytes
    got = to_json(path)
    sections = oracle["sections"] if isinstance(oracle, dict) else oracle
    if isinstance(oracle, dict):
        assert got["title"] == title_normalized(oracle["title"])
    else:
        assert "title" not in got
    assert [strip_ids(actual(n, True)) for n in got["sections"]] == [strip_ids(expected(s)) for s in sections]
    # Explicit ids are kept exactly.
    got_ids = [n["id"] for n in _preorder(got["sections"])]
    want_ids = [i for s in sections for i in ids(s)]
    assert len(got_ids) == len(want_ids)
    for g, w in zip(got_ids, want_ids):
        if w is not None:
            assert g == w


def _preorder(nodes):
    for n in nodes:
        yield n
        yield from _preorder(n["children"])


@pytest.mark.quick
def test_example_plist_matches_plistlib_and_the_golden_json():
    from conftest import EXAMPLES, GOLDEN
    import json
    oracle = plistlib.loads((EXAMPLES / "plist/products.plist").read_bytes())
    golden = json.loads((GOLDEN / "products.json").read_text())
    assert golden["title"] == oracle["title"]
    assert [strip_ids(actual(n, True)) for n in golden["sections"]] == [strip_ids(expected(s)) for s in oracle["sections"]]
