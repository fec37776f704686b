"""Math (docs/formats.md, "Math"): `$…$`, `$$…$$` and ```` ```math ```` blocks, found as pandoc's
`tex_math_dollars` finds them (pandoc is the oracle for which dollars are math and for the
TeX each holds), written as pymdownx.arithmatex's generic form, and typeset by KaTeX in headless
Chromium from file:// (a single page holds KaTeX, a site's pages load it from outline-site/katex/);
a page without math loads none of it."""
import re
import subprocess

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from conftest import run
from test_browser import browser  # noqa: F401 (the shared fixture)

CASES = [
    "Inline $x_1 + y_2 = \\{z\\}$ and $a < b$, then $$\\frac{a}{b}$$ in a line.",
    "Prices: $20 and $30 are no math, nor $ x$ or $x $, but $y$ is.",
    "Escaped: \\$5 and \\$6, then $\\alpha$ and $\\beta$.",
    "Next to words: a$b$c and $x$y, not $1$2.",
    "Across lines: $a +\nb$ and $$\nE = mc^2\n$$",
    "Two in a row $a$ $b$ and `$code$` in code.",
    "Emphasis inside: $a_1 * b_2 * c_3$ and $\\{1, 2\\}$.",
    "Other syntax inside stays TeX: $a ~~b~~ :smile: www.example.com$ and $[x](y)$.",
]


def pandoc_math(source):
    """The TeX of each math span pandoc's tex_math_dollars finds, in order."""
    out = subprocess.run(["pandoc", "-f", "markdown-smart-superscript-subscript+tex_math_dollars", "-t", "html", "--mathjax", "--wrap=none"],
                         input=source, capture_output=True, text=True, check=True).stdout
    return [m.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            for m in re.findall(r'<span class="math (?:inline|display)">\\[(\[](.*?)\\[)\]]</span>', out, re.S)]


def our_math(source, *args):
    out = run("-", "--fragment", *args, input=source + "\n").stdout
    return [m.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
            for m in re.findall(r'<span class="arithmatex">\\[(\[](.*?)\\[)\]]</span>', out, re.S)]


@pytest.mark.parametrize("source", CASES)
def test_the_math_is_what_pandoc_finds(source):
    assert [" ".join(m.split()) for m in our_math(source)] == [" ".join(m.split()) for m in pandoc_math(source)]
    assert our_math(source), source


def test_plain_text_json_and_strict_commonmark_keep_the_dollars():
    source = "Inline $x_1 * y$ and\n\n$$\nE = mc^2\n$$\n"
    assert run("-", "--to", "text", input=source).stdout.rstrip("\n") == "Inline $x_1 * y$ and\n\n$$\nE = mc^2\n$$"
    assert our_math(source, "--from", "commonmark") == []


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("math")
    page = "# Math\n\nEuler: $e^{i\\pi} + 1 = 0$.\n\n$$\n\\sum_{i=1}^n i = \\frac{n(n+1)}{2}\n$$\n\n```math\n\\sqrt{2}\n```\n\nBad: $\\frac{$ stays.\n"
    (folder / "math.md").write_text(page)
    (folder / "plain.md").write_text("# Plain\n\nNo math, $20 and $30.\n")
    run(folder / "math.md", "-o", folder / "math.html")
    run(folder / "plain.md", "-o", folder / "plain.html")
    (folder / "docs").mkdir()
    (folder / "docs" / "math.md").write_text(page)
    (folder / "docs" / "index.md").write_text("# Home\n\nNo math.\n")
    run("--no-cache", folder / "docs", "-o", folder / "site")
    return folder


def typeset(browser, url):  # noqa: F811
    browser.get(url)
    WebDriverWait(browser, 30).until(lambda b: b.execute_script("return document.querySelectorAll('.katex').length >= 3"))
    return browser.execute_script(
        "return [document.querySelectorAll('.katex').length, document.querySelectorAll('.katex-display').length,"
        " document.querySelectorAll('.katex-error').length, document.fonts.check('16px KaTeX_Main'),"
        " [...document.querySelectorAll('.katex annotation')].map(a => a.textContent)]")


@pytest.mark.parametrize("where", ["math.html", "site/math.html"])
def test_katex_typesets_the_math_from_file_urls(browser, made, where):  # noqa: F811
    count, displays, errors, font, tex = typeset(browser, (made / where).as_uri())
    assert count == 3 and displays == 2 and errors == 1
    assert [t.strip() for t in tex] == ["e^{i\\pi} + 1 = 0", "\\sum_{i=1}^n i = \\frac{n(n+1)}{2}", "\\sqrt{2}"]
    assert font, "KaTeX's fonts load from the page's style"


def test_a_page_without_math_loads_no_katex(made):
    assert "katex" not in (made / "plain.html").read_text()
    assert "katex" not in (made / "site" / "index.html").read_text()
    assert sorted(p.name for p in (made / "site" / "outline-site" / "katex").iterdir()) == ["COPYRIGHT", "katex.css", "katex.js"]


def test_a_page_of_inline_math_alone_loads_katex(browser, tmp_path):  # noqa: F811
    # (No math block: the math is found in the paragraphs' HTML.)
    (tmp_path / "inline.md").write_text("# Inline\n\nOnly inline: $a^2 + b^2 = c^2$.\n")
    run(tmp_path / "inline.md", "-o", tmp_path / "inline.html")
    browser.get((tmp_path / "inline.html").as_uri())
    WebDriverWait(browser, 30).until(lambda b: b.execute_script("return document.querySelectorAll('.katex').length === 1"))


def test_math_in_titles_is_typeset_alone_or_beside_other_markup(browser, tmp_path):  # noqa: F811
    # (Titles hold the page's only math: a title of math alone, and one with emphasis too.
    # A title whose dollars are not math stays as written.)
    (tmp_path / "titles.md").write_text("# Physics\n\n## Energy $E=mc^2$\n\nText.\n\n## Mass $m$ and *more*\n\nText.\n\n## Costs $5 and $6\n\nText.\n")
    run(tmp_path / "titles.md", "-o", tmp_path / "titles.html")
    page = (tmp_path / "titles.html").read_text()
    assert "Costs $5 and $6</span>" in page
    browser.get((tmp_path / "titles.html").as_uri())
    WebDriverWait(browser, 30).until(lambda b: b.execute_script("return document.querySelectorAll('summary .katex').length === 2"))
    shown = browser.execute_script("return [...document.querySelectorAll('summary .outline-title')].map(e => e.textContent)")
    assert not any("$" in t and "Costs" not in t for t in shown)
