"""pymdownx.magiclink's shorthand for GitHub (docs/formats.md, "mkdocs' dialect"), in an mkdocs
project whose mkdocs.yml configures it: the oracle is Python-Markdown with pymdownx.magiclink
and the same options, paragraph by paragraph: every link it makes (class, address, title,
text), and the paragraph's text."""
import html.parser

import markdown
import pytest

from test_docs_site import tool

OPTIONS = {"repo_url_shorthand": True, "user": "squidfunk", "repo": "mkdocs-material"}
SHA = "1234567890abcdef1234567890abcdef12345678"
SHA2 = "abcdef1234567890abcdef1234567890abcdef12"

CASES = [
    "Fixed #1234 and !56 and ?78.",
    "See @squidfunk and @pawamoy/mkdocstrings, byrnereese/mkdocs-git-committers-plugin#12 and mkdocs#3",
    "/foo#1 @foo#1 a_b#3 é#4 #0 #01 #1a #1_ (#2) x#3y",
    "squidfunk/mkdocs-material#12 squidfunk/other#13 mkdocs-material#14 other!15 x/y?16",
    f"{SHA} {SHA}...{SHA2} repo@{SHA} u/r@{SHA}...{SHA2} squidfunk/mkdocs-material@{SHA}",
    "@squidfunk/mkdocs-material @x_y @a-b- @ab_ a@b @1/2 @-x",
    "In `code #12` and [a link #13](x.md), *emphasis #14* and **#15**, #16",
    "Escaped \\#17 and \\@user, and #18 after them",
    "Line one #19\nline two @two",
    "Unicode: 中文#20 café#21 —#22 ’@user’s",
    f"Long: {'a' * 120}#23 {'b' * 50}/c#24 @{'d' * 45} x{SHA}y {SHA}0",
    "Punctuation: (#25), [#26], #27, #28. #29! #30? end",
]


class Paragraphs(html.parser.HTMLParser):
    """Each paragraph's magiclinks (class, href, title, text) and text."""

    def __init__(self, text):
        super().__init__()
        self.found, self.link, self.inside = [], None, 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "p":
            self.found.append(([], ""))
            self.inside += 1
        elif tag == "a" and self.inside and "magiclink" in attrs.get("class", ""):
            self.link = [attrs["class"], attrs["href"], attrs.get("title"), ""]

    def handle_endtag(self, tag):
        if tag == "p":
            self.inside -= 1
        elif tag == "a" and self.link:
            self.found[-1][0].append(tuple(self.link))
            self.link = None

    def handle_data(self, data):
        if self.inside:
            links, text = self.found[-1]
            self.found[-1] = (links, text + data)
            if self.link:
                self.link[3] += data


@pytest.mark.parametrize("normalize", [False, True])
def test_shorthand_links_are_what_magiclink_makes(tmp_path, normalize):
    options = {**OPTIONS, "normalize_issue_symbols": normalize}
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: M\nmarkdown_extensions:\n  - pymdownx.magiclink:\n"
        + "".join(f"      {key}: {str(value).lower() if isinstance(value, bool) else value}\n" for key, value in options.items()))
    page = "# Links\n\n" + "\n\n".join(CASES) + "\n"
    (tmp_path / "docs/index.md").write_text(page)
    result = tool(tmp_path, ".", "-o", "site")
    assert result.returncode == 0, result.stderr
    ours = Paragraphs((tmp_path / "site/index.html").read_text()).found
    theirs = Paragraphs(markdown.markdown(
        "\n\n".join(CASES), extensions=["pymdownx.magiclink"], extension_configs={"pymdownx.magiclink": options})).found
    assert len(ours) == len(CASES) == len(theirs)
    for case, (our_links, our_text), (their_links, their_text) in zip(CASES, ours, theirs):
        assert our_links == their_links, case
        assert our_text.split() == their_text.split(), case
    # (Not a trivial oracle: most kinds of link, and paragraphs with none.)
    kinds = {link[0].split()[-1] for links, _ in theirs for link in links}
    assert {"magiclink-issue", "magiclink-pull", "magiclink-discussion", "magiclink-commit", "magiclink-compare",
            "magiclink-mention", "magiclink-repository"} <= kinds


def test_without_the_options_nothing_is_linked(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: M\nmarkdown_extensions:\n  - pymdownx.magiclink\n")
    (tmp_path / "docs/index.md").write_text("# A\n\nFixed #12 for @someone.\n")
    assert tool(tmp_path, ".", "-o", "site").returncode == 0
    assert "magiclink" not in (tmp_path / "site/index.html").read_text()


def test_mkdocs_materials_docs_link_what_mkdocs_links(tmp_path):
    """The real project: every page's magiclinks (their addresses) are those of `mkdocs build`
    (mkdocs-material's docs, its plugins, hooks and theme overrides left out of mkdocs' copy:
    they need the project's own code)."""
    import os
    import re
    import shutil
    import subprocess
    import sys
    from collections import Counter
    from pathlib import Path

    from conftest import ROOT, mkdocs_yml_without_code
    project = tmp_path / "material"
    shutil.copytree(ROOT / "Tests/real/mkdocs-material", project)
    (project / "mkdocs.yml").write_text(mkdocs_yml_without_code((project / "mkdocs.yml").read_text()))
    for page in (project / "docs").rglob("*.md"):
        page.write_text(re.sub(r"^template:.*\n", "", page.read_text(), flags=re.M))
    subprocess.run([Path(sys.executable).parent / "mkdocs", "build", "-q", "--no-directory-urls", "-d", str(tmp_path / "mkdocs-site")],
                   cwd=project, check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    result = tool(tmp_path, project, "-o", "site")
    assert result.returncode == 0, result.stderr
    link = re.compile(r'<a class="magiclink[^"]*" href="([^"]*)"')

    def links(site):
        return {str(page.relative_to(site)): Counter(link.findall(page.read_text()))
                for page in site.rglob("*.html") if link.search(page.read_text())}

    theirs = links(tmp_path / "mkdocs-site")
    assert links(tmp_path / "site") == theirs
    assert sum(sum(counts.values()) for counts in theirs.values()) > 600
