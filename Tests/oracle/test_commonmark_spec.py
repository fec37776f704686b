"""The CommonMark spec's own examples (0.31.2, Tests/commonmark-spec) through outline-render
(`--from commonmark`) and through the `cmark` command, on the same input.

- An example without top-level headings is one preamble: our `--fragment` output must be
  cmark's HTML byte for byte.
- An example with headings becomes sections (by design ours wraps them in <details>): each
  node's title must be cmark's heading text, and each body's HTML must be what cmark renders
  for it in the whole document's context.
Every difference is listed in KNOWN with its reason; any other difference fails.
"""
import json

import pytest

from conftest import CMARK, ROOT, differences_from_oracle

EXAMPLES = json.loads((ROOT / "Tests" / "commonmark-spec" / "commonmark.json").read_text())

# Example number: why outline-render differs from cmark there, by design.
KNOWN = {
    # An ATX heading with no text (`##`, `#`, `### ###`): a section needs a title, and an
    # empty <summary> would be an unlabeled control, so the title is "Untitled" (README).
    79: "empty headings are titled Untitled",
}


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example-{e['example']}" for e in EXAMPLES])
def test_spec_example_renders_as_cmark_renders_it(example):
    # Strict CommonMark: `--from commonmark` (Markdown's default is GitHub's flavour).
    differs = differences_from_oracle(example["markdown"], ["--from", "commonmark"], CMARK)
    number = example["example"]
    if number in KNOWN:
        assert differs, f"example {number} is listed as different ({KNOWN[number]}) but now matches: remove it"
    else:
        assert not differs, f"example {number} ({example['section']}): " + "; ".join(differs)


def test_the_suite_is_the_whole_spec():
    assert len(EXAMPLES) == 652
    assert [e["example"] for e in EXAMPLES] == list(range(1, 653))
