"""An mkdocs project's `toc` options: the `slugify` and `separator` that make its headings'
ids, and the `permalink` beside each section. The oracle is Python-Markdown with the same
`toc` configuration (the functions themselves: Python-Markdown's and pymdownx's)."""
import random
import re
import subprocess
import unicodedata

import markdown
import pymdownx.slugs
import pytest
from markdown.extensions.toc import slugify, slugify_unicode

from conftest import TOOL

# Words of many scripts, with what tells the functions apart: case (a final sigma, Turkish
# İ, ß), combining marks (Devanagari's vowel signs are not `\w` in Python), decomposed
# letters, digits of other scripts, full-width forms, spaces of several kinds, tags in code.
WORDS = ["Templates", "API", "v1.0", "Foo & Bar", "A / B", "Über uns", "Cre\u0300me", "naïve café", "日本語",
         "中文 标题", "ΟΔΟΣ", "Σίσυφος", "İstanbul", "Straße", "हिन्दी", "١٢٣", "ﬁle", "Ｆｕｌｌ", "x_1", "C++",
         "`Vec<T>`", "a\u00a0b", "tab\tbed", "What's new?", "  spaced  out  ", "Ǆungla", "한국어", "Ωmega",
         "emoji 🚀", "--flag", "Ⅻ chapter", "e\u0301t\u00e9"]

STYLES = {
    "unicode": ("!!python/name:markdown.extensions.toc.slugify_unicode", slugify_unicode, "-"),
    "default": ("!!python/name:markdown.extensions.toc.slugify", slugify, "-"),
    "lower": ("!!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}",
              pymdownx.slugs.slugify(case="lower"), "-"),
    "none": ("!!python/object/apply:pymdownx.slugs.slugify {}", pymdownx.slugs.slugify(), "-"),
    "lower-ascii": ("!!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower-ascii}}",
                    pymdownx.slugs.slugify(case="lower-ascii"), "-"),
    "encoded": ("!!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower, percent_encode: true}}",
                pymdownx.slugs.slugify(case="lower", percent_encode=True), "-"),
    "nfd": ("!!python/object/apply:pymdownx.slugs.slugify {kwds: {normalize: NFD}}",
            pymdownx.slugs.slugify(normalize="NFD"), "-"),
    "underscore": ("!!python/name:markdown.extensions.toc.slugify_unicode", slugify_unicode, "_"),
}


def pages(seed, count=12):
    chooser = random.Random(seed)
    result = []
    for _ in range(count):
        lines = ["# Page\n"]
        for _ in range(chooser.randrange(3, 14)):
            title = " ".join(chooser.choice(WORDS) for _ in range(chooser.randrange(1, 4))).strip()
            lines.append(f"{'#' * chooser.randrange(2, 5)} {title}\n\ntext\n")
        result.append("\n".join(lines))
    return result


def mkdocs_ids(text, function, separator):
    html = markdown.markdown(text, extensions=["toc"],
                             extension_configs={"toc": {"slugify": function, "separator": separator}})
    return [unescape(id) for id in re.findall(r'<h[1-6][^>]* id="([^"]*)"', html)]


def unescape(text):
    return text.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


# A heading of ours: its id, and the id mkdocs gives it when that is another.
_HEADING = re.compile(
    r'<(?:details|h[1-6])(?: [^>]*)? id="([^"]*)"[^>]*>'
    r'(?:<summary><span class="outline-title[^"]*">)?(?:<span id="([^"]*)"></span>)?')


def build(tmp_path, texts, toc, more=""):
    (tmp_path / "docs").mkdir()
    for number, text in enumerate(texts):
        (tmp_path / "docs" / f"p{number}.md").write_text(text)
    (tmp_path / "mkdocs.yml").write_text(f"site_name: S\nmarkdown_extensions:\n  - toc:\n{toc}{more}")
    return subprocess.run([TOOL, tmp_path, "-o", tmp_path / "site", "--no-cache"], capture_output=True, text=True)


@pytest.mark.parametrize("style", STYLES)
def test_ids_as_the_configured_slugify_makes_them(tmp_path, style):
    tag, function, separator = STYLES[style]
    texts = pages(list(STYLES).index(style))
    result = build(tmp_path, texts, f"      slugify: {tag}\n      separator: '{separator}'\n")
    assert result.returncode == 0, result.stderr
    assert "slugify" not in result.stderr, result.stderr
    for number, text in enumerate(texts):
        theirs = mkdocs_ids(text, function, separator)
        html = (tmp_path / "site" / f"p{number}.html").read_text()
        ours = [(unescape(m.group(1)), m.group(2) and unescape(m.group(2))) for m in _HEADING.finditer(html)]
        # (Ours has the page's title heading first, as mkdocs.)
        assert len(ours) == len(theirs), (text, ours, theirs)
        own = [id for id, _ in ours]
        for (id, alias), expected in zip(ours, theirs):
            # Each heading answers to mkdocs' id, unless that id is another heading's own.
            assert expected in (id, alias) or (expected in own and alias is None), (style, text, id, alias, expected)


def test_the_words_take_every_branch():
    # The words' characters take every branch: a check that the list still holds them.
    joined = "".join(WORDS)
    assert any(unicodedata.category(c) == "Mn" for c in joined)
    assert any(c.isnumeric() and not c.isascii() for c in joined)
    assert unicodedata.normalize("NFC", joined) != joined


def test_permalinks_as_configured(tmp_path):
    text = "# Page\n\n## One\n\ntext\n\n## Two\n\nmore\n"
    result = build(tmp_path, [text], "      permalink: '🔗'\n      permalink_title: Link here\n")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site/p0.html").read_text()
    # (The page's title heading, holding the others, has one too, as in mkdocs.)
    assert page.count('class="outline-permalink"') == 3
    assert '<a class="outline-permalink" href="#one" aria-label="Link here">🔗</a>' in page


@pytest.mark.parametrize("setting, text", [("true", "¶"), ("false", None), (None, None)])
def test_permalink_true_false_and_absent(tmp_path, setting, text):
    toc = f"      permalink: {setting}\n" if setting else "      baselevel: 1\n"
    result = build(tmp_path, ["# Page\n\n## One\n\ntext\n"], toc)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site/p0.html").read_text()
    if text is None:
        assert "outline-permalink\"" not in page
    else:
        assert f'aria-label="Permanent link">{text}</a>' in page


def test_outside_a_project_our_permalink_stays(tmp_path):
    (tmp_path / "a.md").write_text("# Page\n\n## One\n\ntext\n")
    subprocess.run([TOOL, tmp_path / "a.md", "-o", tmp_path / "a.html"], check=True, capture_output=True)
    assert 'aria-label="Link to this section">#</a>' in (tmp_path / "a.html").read_text()


@pytest.mark.parametrize("tag, message", [
    ("!!python/name:my_module.my_slugify", "'my_module.my_slugify'"),
    ("!!python/object/apply:pymdownx.slugs.slugify {kwds: {case: upper}}", "case is not none"),
])
def test_a_slugify_not_known_here_is_a_located_warning(tmp_path, tag, message):
    result = build(tmp_path, ["# Page\n\n## Ünïcode\n"], f"      slugify: {tag}\n")
    assert result.returncode == 0, result.stderr
    warning = next(line for line in result.stderr.splitlines() if "slugify" in line)
    assert re.search(r"mkdocs\.yml:4:\d+: warning", warning) and message in warning, result.stderr


def test_a_link_to_a_configured_id_resolves(tmp_path):
    texts = ["# Page\n\n## 中文 标题\n\ntext\n", "# Other\n\n[there](p0.md#中文-标题), [nowhere](p0.md#标题)\n"]
    result = build(tmp_path, texts, "      slugify: !!python/name:markdown.extensions.toc.slugify_unicode\n",
                   "validation:\n  anchors: warn\n")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line or "info" in line]
    assert len(warnings) == 1 and "'标题'" in warnings[0], result.stderr
