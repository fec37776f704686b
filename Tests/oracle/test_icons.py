"""mkdocs-material's icons in mkdocs' dialect (docs/formats.md "Icons"): `:material-check:` and
the other sets' shortcodes, compared with what Python-Markdown makes of them with pymdownx.emoji
configured as mkdocs-material's docs configure it (its `twemoji` index and `to_svg` generator),
from the mkdocs-material wheel that Tests/requirements.txt pins (the version scripts/vendor-icons
copied)."""
import json
import pathlib
import re

import markdown
import material
import pytest
from material.extensions import emoji as material_emoji

from conftest import run

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
ICONS = pathlib.Path(material.__file__).parent / "templates" / ".icons"
CONFIG = {"pymdownx.emoji": {"emoji_index": material_emoji.twemoji, "emoji_generator": material_emoji.to_svg}}


def canonical(html):
    """`html` with each tag's attributes in one order (the two writers order them differently)."""
    def tag(match):
        attributes = sorted(re.findall(r'\s([\w:-]+="[^"]*")', match.group(2)))
        return "<" + match.group(1) + "".join(" " + a for a in attributes) + match.group(3) + ">"
    return re.sub(r'<(\w+)((?:\s[\w:-]+="[^"]*")*)(\s*/?)>', tag, html)


def python(source, extensions=("pymdownx.emoji", "attr_list")):
    return markdown.markdown(source, extensions=list(extensions), extension_configs=CONFIG).strip()


def ours(source, *args):
    return run("-", "--from", "mkdocs", "--fragment", *args, input=source + "\n").stdout.strip()


def all_icon_names():
    return sorted(str(p.relative_to(ICONS).with_suffix("")).replace("/", "-") for p in ICONS.glob("*/**/*.svg"))


def test_the_bundled_icons_are_the_pinned_wheels():
    header = (ROOT / "Templates" / "icons" / "icons.txt").read_text().split("\n", 1)[0].split("\t")
    assert header[0] == f"mkdocs-material {material.__version__}"
    assert int(header[1]) == len(all_icon_names()) > 14000


def test_every_icon_of_every_set_is_the_svg_mkdocs_material_writes():
    names = all_icon_names()
    for prefix in ("material-", "fontawesome-brands-", "fontawesome-regular-", "fontawesome-solid-", "octicons-", "simple-"):
        assert any(n.startswith(prefix) for n in names), prefix
    source = "\n".join(f"- :{name}:" for name in names)
    mine, theirs = ours(source), python(source)
    assert mine.count('<span class="twemoji"><svg') == len(names)
    assert mine == theirs


CASES = [
    "A :material-check: and :octicons-heart-fill-24:, :simple-python: :fontawesome-brands-github:.",
    # Read from the left: the colon that ends a shortcode (known or not) opens no other.
    ":nope:material-check: and :material-check:material-check: :material-check::",
    "x:material-check:y and **x**:simple-python: and *:material-check:*",
    "Unknown: :material-no-such-icon: :unknownset-x: and :rocket-material-check:",
    "Code and images keep them: `:material-check:` ![:material-check:](y.png)",
    "In a link: [:material-github: GitHub](https://github.com)",
    "Classes and attributes: :material-check:{ .green } :simple-python:{ .lg .middle title=\"Python\" }",
    "Across a line:\n:material-check: here\nand :material-close:",
    "| Done | Icon |\n|---|---|\n| yes | :material-check: |",
    "Inside inline HTML: <span>:material-check:</span>",
]


@pytest.mark.parametrize("source", CASES)
def test_shortcodes_are_what_pymdownx_and_mkdocs_material_make_of_them(source):
    extensions = ("pymdownx.emoji", "attr_list") + (("tables",) if "|---|" in source else ())
    assert canonical(ours(source)) == canonical(python(source, extensions))


def test_a_heading_shows_its_icon_and_mkdocs_id_leaves_it_out():
    page = ours("# Page\n\n## :material-check: Done\n\nText.")
    summary = re.search(r'<details id="([^"]+)" open><summary>(.*?)</summary>', page.split("<h2", 1)[1]).group(0)
    # mkdocs' toc slugs the heading without its icon: `#done` (ours, GitHub's slug, is kept too).
    assert 'id="done"' in python("## :material-check: Done", ("pymdownx.emoji", "toc"))
    assert '<span id="done"></span>' in summary
    assert '<span class="twemoji"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">' in summary
    assert '<h2 class="outline-heading">Done</h2>' in page


def test_icons_are_mkdocs_dialect_only_and_other_outputs_keep_the_shortcode(tmp_path):
    source = "# Page\n\n## :material-check: Done\n\nA :material-check: here.\n"
    assert "twemoji" not in run("-", "--fragment", input=source).stdout
    # A tree whose mkdocs.yml leaves pymdownx.emoji out: no icons there either.
    for project, extensions in {"with": "[pymdownx.emoji, toc]", "without": "[toc]"}.items():
        docs = tmp_path / project / "docs"
        docs.mkdir(parents=True)
        (tmp_path / project / "mkdocs.yml").write_text(f"markdown_extensions: {extensions}\n")
        (docs / "page.md").write_text(source)
        run(str(docs), "-o", str(tmp_path / project / "site"))
        page = (tmp_path / project / "site" / "page.html").read_text()
        assert ('class="twemoji"' in page) == (project == "with"), project
    # Plain text shows nothing for a picture; JSON and Markdown keep the source.
    text = run("-", "--from", "mkdocs", "--to", "text", input=source).stdout
    assert "A  here." in text and "material" not in text
    outline = json.loads(run("-", "--from", "mkdocs", "--to", "json", input=source).stdout)
    assert ":material-check:" in json.dumps(outline)
    assert ":material-check: Done" in run("-", "--from", "mkdocs", "--to", "markdown", input=source).stdout


def test_a_site_titles_pages_and_search_results_without_the_shortcode(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "markdown_extensions:\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n"
    )
    (docs / "index.md").write_text("# :material-home: Home\n\n## :octicons-heart-fill-24: Love it\n\nSome :simple-python: text.\n")
    run(str(docs), "-o", str(tmp_path / "site"))
    page = (tmp_path / "site" / "index.html").read_text()
    assert "<title>Home</title>" in page
    nav = (tmp_path / "site" / "outline-site" / "nav.js").read_text()
    assert '["index.html","Home","<span class=\\"twemoji\\"><svg' in nav
    search = (tmp_path / "site" / "outline-site" / "search.js").read_text()
    assert '"Love it","Some text."' in search and ":octicons" not in search


def test_thousands_of_shortcodes_each_become_an_icon_or_stay_text():
    line = ":material-nope: :material-check: x" * 50
    source = "\n\n".join(f"## :octicons-heart-fill-24: Section {n}\n\n{line}" for n in range(200))
    page = ours("# Page\n\n" + source)
    assert page.count('<span class="twemoji">') == 200 * 50 + 200
    assert page.count(":material-nope:") == 200 * 50
    assert ":material-check:" not in page


def test_tab_and_admonition_titles_show_their_markdown_as_python_markdown_does():
    # As mkdocs-material's docs write them (blog/posts/excluding-content-from-search.md).
    source = (
        '=== ":octicons-file-code-16: `docs/page.md`"\n\n    Content\n\n=== "Plain"\n\n    Two\n\n'
        '!!! note "A *fine* `title` :material-check:"\n\n    Body\n\n??? tip "Keys **bold**"\n\n    Body\n'
    )
    mine = ours(source)
    theirs = python(source, ("pymdownx.emoji", "pymdownx.tabbed", "admonition", "pymdownx.details"))
    titles = [re.findall(r"<summary>(.*?)</summary>", mine), re.findall(r'<p class="outline-callout-title">(.*?)</p>', mine)]
    ours_titles = [re.sub(r'<span class="outline-callout-icon"[^>]*></span>', "", t) for t in titles[0] + titles[1]]
    python_titles = re.findall(r"<label[^>]*>(.*?)</label>", theirs) + re.findall(r"<summary>(.*?)</summary>", theirs)
    python_titles += re.findall(r'<p class="admonition-title">(.*?)</p>', theirs)
    assert sorted(canonical(t) for t in ours_titles) == sorted(canonical(t) for t in python_titles)
    assert '<code>docs/page.md</code>' in ours_titles[0] and '<span class="twemoji">' in ours_titles[0]
