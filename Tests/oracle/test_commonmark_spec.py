"""The CommonMark spec's own examples (0.31.2, Tests/commonmark-spec) through outline-render
and through the `cmark` command, on the same input.

- An example without top-level headings is one preamble: our `--fragment` output must be
  cmark's HTML byte for byte.
- An example with headings becomes sections (by design ours wraps them in <details>): each
  node's title must be cmark's heading text, and each body's HTML must be what cmark renders
  for it in the whole document's context.
Every difference is listed in KNOWN with its reason; any other difference fails.
"""
import json
import re

import pytest

from conftest import ROOT, cmark, cmark_section_bodies, fragment_bodies, preorder, run, top_level_headings

EXAMPLES = json.loads((ROOT / "Tests" / "commonmark-spec" / "commonmark.json").read_text())

# Example number: why outline-render differs from cmark there, by design.
KNOWN = {
    # An ATX heading with no text (`##`, `#`, `### ###`): a section needs a title, and an
    # empty <summary> would be an unlabeled control, so the title is "Untitled" (README).
    79: "empty headings are titled Untitled",
}


def convert(markdown):
    return run("--from", "markdown", "--fragment", input=markdown, check=False)


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example-{e['example']}" for e in EXAMPLES])
def test_spec_example_renders_as_cmark_renders_it(example):
    markdown, number = example["markdown"], example["example"]
    ours = convert(markdown)
    differs = []
    if ours.returncode != 0:
        differs.append(f"exit {ours.returncode}: {ours.stderr.strip()}")
    else:
        blocks = top_level_headings(markdown)
        headings = [b for b in blocks if b[1] is not None]
        if not headings:
            if ours.stdout != cmark(markdown):
                differs.append(f"HTML differs:\nours:  {ours.stdout!r}\ncmark: {cmark(markdown)!r}")
        else:
            outline = json.loads(run("--from", "markdown", "-t", "json", input=markdown).stdout)
            titles = [node["title"] for _, node in preorder(outline["sections"])]
            if titles != [text for _, _, text in headings]:
                differs.append(f"titles {titles} != cmark's {[t for _, _, t in headings]}")
            bodies = [html for _, html in fragment_bodies(ours.stdout)]
            if bodies != cmark_section_bodies(markdown, blocks):
                differs.append(f"bodies differ:\nours:  {bodies!r}\ncmark: {cmark_section_bodies(markdown, blocks)!r}")
    if number in KNOWN:
        assert differs, f"example {number} is listed as different ({KNOWN[number]}) but now matches: remove it"
    else:
        assert not differs, f"example {number} ({example['section']}): " + "; ".join(differs)


def test_the_suite_is_the_whole_spec():
    assert len(EXAMPLES) == 652
    assert [e["example"] for e in EXAMPLES] == list(range(1, 653))
