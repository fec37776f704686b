"""Emoji shortcodes (SPEC §3.1.2): `:name:` shows as the emoji GitHub names so. The names and
their emoji are checked against pymdownx's gemoji index (pymdown-extensions' own copy of
gemoji, read with its `unicode_alt` sequences), every one of them; where they show, and what
keeps the shortcode, against GitHub's rules (ids are made from the shortcode's words)."""
import html
import re

import pymdownx.gemoji_db as gemoji_db

from conftest import run


def gemoji_names():
    """Each name of pymdownx's index and its emoji."""
    def emoji(entry):
        return "".join(chr(int(point, 16)) for point in entry.get("unicode_alt", entry["unicode"]).split("-"))
    names = {name.strip(":"): emoji(entry) for name, entry in gemoji_db.emoji.items()}
    names.update({alias.strip(":"): emoji(gemoji_db.emoji[name]) for alias, name in gemoji_db.aliases.items()})
    return names


def test_every_name_shows_its_emoji():
    names = gemoji_names()
    assert len(names) > 1800
    text = "".join(f"{name} :{name}:\n\n" for name in names)
    paragraphs = re.findall(r"<p>(.*?)</p>", run("--from", "markdown", "--fragment", input=text).stdout)
    shown = dict(html.unescape(p).split(" ", 1) for p in paragraphs)
    assert shown == names


def test_where_shortcodes_show_and_where_they_stay():
    text = (
        "# Top :tada:\n\n## :rocket: Features\n\nI :heart: it, ::smile:: and :smile:smile: "
        ":notanemoji: `:smile:` [link :+1:](https://e.com) ![alt :smile:](x.png)\n\n"
        "```\n:smile:\n```\n\n> ### :fire: Inside\n"
    )
    page = run("--from", "markdown", "--fragment", input=text).stdout
    # Titles show the emoji, and keep ids made of the shortcode's words (as GitHub does).
    assert '<details id="rocket-features"' in page and ">🚀 Features</span>" in page
    assert ">Top 🎉</span>" in page and '<h1 class="outline-heading">Top 🎉</h1>' in page
    assert '<h3 id="fire-inside">🔥 Inside</h3>' in page
    # In text, read from the left; not in code, not in an image's description.
    assert "I ❤️ it, :😄: and 😄smile: :notanemoji: <code>:smile:</code>" in page
    assert '<a href="https://e.com">link 👍</a>' in page
    assert 'alt="alt :smile:"' in page
    assert "<pre><code>:smile:\n</code></pre>" in page
    # The source, JSON and plain text keep what was written.
    assert '"title": ":rocket: Features"' in run("--from", "markdown", "-t", "json", input=text).stdout
    assert "I :heart: it" in run("--from", "markdown", "-t", "text", input=text).stdout
    # Strict CommonMark has no emoji.
    assert ":heart:" in run("--from", "commonmark", "--fragment", input="I :heart: it\n").stdout
