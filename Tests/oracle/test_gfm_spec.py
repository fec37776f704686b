"""GitHub Flavored Markdown, outline-render's default Markdown, against `cmark-gfm` (Debian's
command, never linked): every example of the GFM spec 0.29 and of cmark-gfm's extension tests
(Tests/gfm-spec), rendered safe and with `--unsafe` (GitHub's tag filter then applies), must
be what `cmark-gfm -e table -e strikethrough -e autolink -e tasklist -e footnotes` makes of the
same text.
Safe, raw HTML is what GitHub's sanitizer keeps (SPEC §3.1.2): an example that holds some is
compared with cmark-gfm's `--unsafe` HTML as ammonia keeps it by GitHub's allowlist, both
sides read by ammonia (`github_sanitized`); every other example byte for byte.

The comparison is `differences_from_oracle` (conftest.py): byte for byte without headings,
titles and each section's body with them. Every difference is listed in KNOWN with its reason."""
import re

import pytest

from conftest import CMARK_GFM, ROOT, cmark, differences_from_oracle, github_sanitized

FENCE = "`" * 32


def examples(name):
    """(number, the example's info word, Markdown) of each example of a spec-format file; the
    spec writes tabs as →."""
    lines = (ROOT / "Tests" / "gfm-spec" / name).read_text(encoding="utf-8").split("\n")
    found, index = [], 0
    while index < len(lines):
        match = re.fullmatch(FENCE + r" example(.*)", lines[index])
        if match:
            end = lines.index(".", index + 1)
            markdown = "\n".join(lines[index + 1:end])
            found.append((len(found) + 1, match[1].strip(), (markdown + "\n" if markdown else "").replace("→", "\t")))
            index = lines.index(FENCE, end)
        index += 1
    return found


SPEC = examples("spec.txt")
EXTENSIONS = examples("extensions.txt")
ALL = [("spec", *e) for e in SPEC] + [("extensions", *e) for e in EXTENSIONS]

# (file, example number): why outline-render differs from cmark-gfm there, by design.
KNOWN = {
    # An ATX heading with no text: a section needs a title (as in the CommonMark suite).
    ("spec", 49): "empty headings are titled Untitled",
}
# The same, for the safe rendering only (raw HTML as GitHub's sanitizer keeps it).
KNOWN_SAFE = {
    # An element whose content is raw text (<xmp>, <textarea>) left open: an HTML parser
    # reads the rest of the page as its text, and drops it with it; ours drops the rest of
    # its scope (the paragraph), so that raw HTML can never take the page after it.
    ("extensions", 22): "an open <xmp> or <textarea> ends with its paragraph",
}


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize("example", ALL, ids=[f"{f}-{n}" for f, n, _, _ in ALL])
def test_example_renders_as_cmark_gfm_renders_it(example, unsafe):
    name, number, _, markdown = example
    args = ["--from", "markdown", *(["--unsafe"] if unsafe else [])]
    oracle = [*CMARK_GFM, *(["--unsafe", "-e", "tagfilter"] if unsafe else [])]
    if not unsafe and "<!-- raw HTML omitted -->" in cmark(markdown, CMARK_GFM):
        differs = differences_from_oracle(markdown, args, [*CMARK_GFM, "--unsafe"], github_sanitized)
    else:
        differs = differences_from_oracle(markdown, args, oracle)
    known = KNOWN.get((name, number)) or (None if unsafe else KNOWN_SAFE.get((name, number)))
    if known:
        assert differs, f"{name} example {number} is listed as different ({known}) but now matches"
    else:
        assert not differs, f"{name} example {number}: " + "; ".join(differs)


def test_the_suites_are_whole():
    assert len(SPEC) == 673
    assert len(EXTENSIONS) == 28
    # Each extension's examples are there, and the tag filter's is run unsafe above.
    assert {kind for _, kind, _ in SPEC} >= {"table", "strikethrough", "autolink", "tagfilter"}
