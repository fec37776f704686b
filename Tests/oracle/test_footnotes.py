"""Footnotes (SPEC §3.1.2) as `cmark-gfm -e footnotes` renders them: each case below, made to
try one rule of cmark-gfm's (where a note starts and ends, which references count, how notes
are numbered, kept, ordered and linked back), must render as cmark-gfm renders it, byte for
byte (`differences_from_oracle`: bodies in the whole document's context when it has
sections). The example of cmark-gfm's own tests is in test_gfm_spec.py. In a browser, a
reference opens the closed section that holds its note."""
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import CMARK_GFM, cmark, differences_from_oracle, github_sanitized, run
from test_browser import browser  # (the shared fixture)

CASES = {
    "basic": "Text[^1] and more[^2].\n\n[^1]: One.\n[^2]: Two words here.\n",
    "one word is a note, not a link": "See[^1].\n\n[^1]: Note.\n",
    "references in order of first use": "B[^b] a[^a] b again[^b] b[^b].\n\n[^a]: A.\n\n[^b]: B.\n",
    "unknown, escaped, linked and bare": "x[^nope] \\[^1] [^1](http://e.com) [^] [^1][^1]\n\n[^1]: N.\n",
    "after an exclamation mark": "Wow![^1]\n\n[^1]: N.\n",
    "labels compared case aside": "x[^Note]\n\n[^nOTE]: N.\n",
    "first definition wins": "x[^1]\n\n[^1]: First.\n\n[^1]: Second.\n",
    "unused notes dropped": "x\n\n[^1]: Unused.\n",
    "consecutive definitions": "a[^1] b[^2] c[^3]\n\n[^1]: One\n[^2]: Two\n[^3]: Three\n",
    "lazy lines": "a[^1]\n\n[^1]: One\nlazy line\nand another\n\nAfter.\n",
    "indented content": "a[^1]\n\n[^1]: One.\n\n    Two.\n\n        code\n\n    > quoted\n\nAfter.\n",
    "content starts below": "a[^1]\n\n[^1]:\n    Below.\n\n    More.\n",
    "code block first": "a[^1]\n\n[^1]:\n        code only\n",
    "interrupts a paragraph": "a[^1]\n[^1]: One.\nb\n",
    "after a list with the same marker": "- a[^1]\n- b\n[^1]: One.\n- c\n",
    "after an ordered list": "1. a[^1]\n2. b\n\n[^1]: One.\n\n3. c\n",
    "after a quote": "> a[^1]\n[^1]: One.\n> b\n",
    "content that looks like a rule": "a[^1] b[^2]\n\n[^1]: - - -\n[^2]: * * *\n",
    "content that looks like a task": "a[^1]\n\n[^1]: [ ] not a task\n",
    "content that looks like a heading": "a[^1]\n\n[^1]: # Not a section\n",
    "in code and HTML": "a[^1]\n\n```\n[^1]: in code\n```\n\n<div>\n[^1]: in HTML\n</div>\n\n[^1]: Real.\n",
    "in emphasis, links and tables": "*a[^1]* [link [^2]](http://e.com)\n\n| x | y |\n|---|---|\n| c[^1] | d |\n\n[^1]: One.\n[^2]: Two.\n",
    "a note refers to another": "a[^1]\n\n[^1]: One, see[^2].\n[^2]: Two.\n",
    "notes written before their references": "[^1]: One.\n\nText[^1].\n",
    "labels with punctuation": "a[^a&b] b[^it's] c[^é] d[^x_y_z] e[^a.b-c]\n\n"
    "[^a&b]: A.\n[^it's]: B.\n[^é]: C.\n[^x_y_z]: D.\n[^a.b-c]: E.\n",
    "many notes": "".join(f"n{i}[^{i}] " for i in range(1, 13)) + "\n\n" + "".join(f"[^{i}]: Note {i}.\n" for i in range(12, 0, -1)),
    "in sections": "# A\n\nOne[^1].\n\n[^2]: Two.\n\n## B\n\nTwo[^2].\n\n[^1]: One.\n\n# C\n\nThree.\n",
    "a note holding a list": "a[^1]\n\n[^1]: Items:\n\n    - one\n    - two\n",
    "line endings": "a[^1]\r\n\r\n[^1]: One.\r\n",
    "in a list item": "- a[^1]\n\n  [^1]: Inside.\n- b\n",
    "indented, content below (as mkdocs-material writes them)": "a[^1] b[^2]\n\n  [^1]:\n    Below.\n\n    More.\n\n  [^2]: Two.\n\n    Still two.\n",
    "in a list item, with more": "- a[^1]\n\n  [^1]: Inside.\n\n      More inside.\n- b\n",
    "in a block quote": "> a[^1]\n> [^1]: Quoted\n> lazy\n\nb[^2]\n\n> [^2]: Alone.\n",
    "a blank line first": "a[^1]\n\n[^1]:\n\n    Below a blank line.\n",
    "a table in a note": "a[^1]\n\n[^1]: | a | b |\n    |---|---|\n    | c[^1] | d |\n",
    "an empty first line with CRLF": "a[^1]\r\n\r\n[^1]:\r\n    Below.\r\n",
}



@pytest.mark.parametrize("name", list(CASES))
def test_footnotes_render_as_cmark_gfm_renders_them(name):
    text = CASES[name]
    if "<!-- raw HTML omitted -->" in cmark(text, CMARK_GFM):
        # (Raw HTML is what GitHub's sanitizer keeps of it: see test_gfm_spec.py.)
        differs = differences_from_oracle(text, ["--from", "markdown"], [*CMARK_GFM, "--unsafe"], github_sanitized)
    else:
        differs = differences_from_oracle(text, ["--from", "markdown"], CMARK_GFM)
    assert not differs, f"{name}: " + "; ".join(differs)


def test_a_reference_in_a_section_title_is_numbered_but_not_shown():
    # The title is plain text: the note keeps its number, with no link back to the title.
    text = "# Title[^1]\n\nBody[^2].\n\n[^1]: In the title.\n[^2]: In the body.\n"
    html = run("--from", "markdown", "--fragment", input=text).stdout
    assert '<span class="outline-title outline-level-1">Title</span>' in html
    assert 'href="#fn-2" id="fnref-2" data-footnote-ref>2</a>' in html
    assert '<li id="fn-1">\n<p>In the title.</p>\n</li>' in html
    assert 'href="#fnref-2"' in html and 'href="#fnref-1"' not in html


def test_footnotes_in_plain_text_and_json():
    text = "# A\n\nText[^n] and[^m].\n\n[^n]: First note.\n\n    Its second paragraph.\n[^m]: Second.\n"
    plain = run("--from", "markdown", "-t", "text", input=text).stdout
    assert "Text[1] and[2]." in plain
    assert "[1] First note.\n\n" in plain and "    Its second paragraph." in plain and "[2] Second." in plain
    # The source keeps the notes as written.
    assert "[^n]: First note." in run("--from", "markdown", "-t", "json", input=text).stdout
    # Strict CommonMark has no footnotes: a one-word note is a link reference there.
    assert "fnref" not in run("--from", "commonmark", "--fragment", input="a[^1]\n\n[^1]: x\n").stdout


def test_a_reference_opens_the_closed_section_that_holds_its_note(browser, tmp_path):
    # The notes go to the end of the last section's body: here a closed one. Following a
    # reference opens it and shows the note; its back-link leads back to the reference.
    source = tmp_path / "notes.md"
    source.write_text("# Open\n\nSee the note[^1].\n\n# Closed {.collapsed}\n\nLater.\n\n[^1]: The note itself.\n")
    page = tmp_path / "notes.html"
    run(source, "-o", page)
    browser.get(page.as_uri())
    note = browser.find_element(By.ID, "fn-1")
    assert not note.is_displayed()
    browser.find_element(By.CSS_SELECTOR, "sup.footnote-ref a").click()
    WebDriverWait(browser, 10).until(lambda driver: note.is_displayed())
    assert browser.execute_script("return document.getElementById('closed').open") is True
    browser.find_element(By.CSS_SELECTOR, "a.footnote-backref").click()
    WebDriverWait(browser, 10).until(lambda driver: driver.execute_script("return location.hash") == "#fnref-1")
    assert browser.find_element(By.ID, "fnref-1").is_displayed()
