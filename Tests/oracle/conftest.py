"""Shared helpers for the oracle, browser and validator tests (run by scripts/test)."""
import json
import os
import pathlib
import re
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "Examples"
GOLDEN = ROOT / "Tests" / "golden"
TOOL = os.environ.get("OUTLINE_RENDER", str(ROOT / ".build" / "debug" / "outline-render"))


def run(*args, input=None, check=True):
    """Runs outline-render; returns the CompletedProcess (text mode)."""
    result = subprocess.run([TOOL, *map(str, args)], input=input, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"outline-render {args} failed ({result.returncode}): {result.stderr}")
    return result


def to_json(path, *args):
    return json.loads(run(path, "-t", "json", *args).stdout)


def cmark(markdown):
    """cmark's own HTML for a Markdown text (the oracle)."""
    return subprocess.run(["cmark"], input=markdown, capture_output=True, text=True, check=True).stdout


def preorder(nodes, depth=1):
    for node in nodes:
        yield depth, node
        yield from preorder(node["children"], depth + 1)


_TOKEN = re.compile(
    r'^(?:<details id="(?P<open_id>[^"]+)"[^>]*><summary>.*</summary>'
    r'|<(?:h\d|div role="heading" aria-level="\d+") id="(?P<leaf_id>[^"]+)" class="outline-leaf">.*</(?:h\d|div)>'
    r'|<(?:h\d|div role="heading" aria-level="\d+") class="(?P<heading>outline-heading)">.*</(?:h\d|div)>'
    r'|(?P<close></details>))$'
)


def fragment_bodies(html):
    """Splits safe-mode fragment HTML into [(id, body_html)] in document order; the
    preamble comes first with id None (after the page title's <h1>, if any). Safe mode omits raw HTML, so a body cannot
    contain a line that looks like our own <details>/<summary> markup."""
    bodies = [[None, []]]
    current = bodies[0]
    for line in html.splitlines(keepends=True):
        match = _TOKEN.match(line.rstrip("\n"))
        if not match:
            current[1].append(line)
            continue
        if match["open_id"] or match["leaf_id"]:
            current = [match["open_id"] or match["leaf_id"], []]
            bodies.append(current)
        else:
            current = [None, []]  # after </details> or before a <details>: no body's text
    return [(i, "".join(b)) for i, b in bodies]


def body_normalized(text):
    """outline-render's rule for plist/XML text: LF endings, common indentation removed,
    no leading or trailing blank lines."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    content = [l for l in lines if l.strip(" \t\n")]
    if not content:
        return ""
    indent = min(len(l) - len(l.lstrip(" \t")) for l in content)
    first = next(i for i, l in enumerate(lines) if l.strip(" \t\n"))
    last = max(i for i, l in enumerate(lines) if l.strip(" \t\n"))
    return "\n".join("" if not l.strip(" \t\n") else l[indent:] for l in lines[first:last + 1])


@pytest.fixture
def tmp(tmp_path):
    return tmp_path
