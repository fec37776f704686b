"""A project's own icons (`custom_icons` of pymdownx.emoji in mkdocs.yml, docs/formats.md
"Icons"): which shortcodes they answer to and what they draw, against Python-Markdown with
mkdocs-material's `twemoji` index and `to_svg` given the same folder (run in a process of its
own: that index adds the project's icons to pymdownx's shared table)."""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import TOOL, run

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M{n} 0h2v2z"/></svg>'
ICONS = {
    "brand/logo.svg": SVG.format(n=1),
    "brand/sub/deep.svg": SVG.format(n=2),
    "zzplain.svg": '<?xml version="1.0"?>\n<!-- a comment -->\n' + SVG.format(n=3),
    # An emoji's name stays the emoji's.
    "top.svg": SVG.format(n=8),
    # A project's icon goes before a bundled one of its name.
    "material/check.svg": SVG.format(n=4),
    "grad.svg": '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 8 8">'
    '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>'
    '<rect width="8" height="8" fill="url(#g)"/><use xlink:href="#g"/></svg>',
    # Passed over as glob passes them over, or not an icon.
    ".hidden/hid.svg": SVG.format(n=5),
    "brand/.dot.svg": SVG.format(n=6),
    "brand/notes.txt": "not an icon",
}
SOURCE = """# Icons

Ours: :brand-logo: :brand-sub-deep: :zzplain: :material-check: :grad:

Bundled still: :material-close:, an emoji :top: and unknown: :brand-nope: :brand-notes: :hid:
"""

ORACLE = """
import json, sys
import markdown
from material.extensions import emoji
folder, source = sys.argv[1], sys.stdin.read()
config = {"pymdownx.emoji": {"emoji_index": emoji.twemoji, "emoji_generator": emoji.to_svg,
                             "options": {"custom_icons": [folder]}}}
print(markdown.markdown(source, extensions=["pymdownx.emoji"], extension_configs=config))
"""


def project(tmp_path, extra_icons=None, custom=("overrides/.icons",)):
    root = tmp_path / "project"
    for name, text in {**ICONS, **(extra_icons or {})}.items():
        path = root / "overrides" / ".icons" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text(SOURCE, encoding="utf-8")
    folders = "\n".join(f"          - {json.dumps(c)}" for c in custom)
    (root / "mkdocs.yml").write_text(
        "site_name: Icons\nmarkdown_extensions:\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n"
        f"      options:\n        custom_icons:\n{folders}\n", encoding="utf-8")
    return root


def icons_in(html):
    """Each icon's SVG as (tag, attributes, children), namespaces and declarations aside."""
    def shape(element):
        tag = element.tag.split("}")[-1]
        attributes = {k.split("}")[-1]: v for k, v in element.attrib.items()}
        return (tag, sorted(attributes.items()), [shape(c) for c in element])
    return [shape(ET.fromstring(svg)) for svg in re.findall(r'<span class="twemoji">(.*?)</span>', html, re.S)]


def test_a_projects_icons_are_the_ones_mkdocs_material_shows(tmp_path):
    root = project(tmp_path)
    result = run(root, "-o", tmp_path / "site")
    assert "warning" not in result.stderr
    ours = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    oracle = subprocess.run([sys.executable, "-c", ORACLE, str(root / "overrides" / ".icons")], input=SOURCE,
                            capture_output=True, text=True, check=True).stdout
    theirs = icons_in(oracle)
    assert len(theirs) == 6  # five of the project's and :material-close:
    assert icons_in(ours) == theirs
    assert "M8 0" not in ours and "M8 0" not in oracle
    for unknown in (":brand-nope:", ":brand-notes:", ":hid:"):
        assert unknown in ours and unknown in oracle


def test_a_heading_with_a_projects_icon_keeps_mkdocs_id(tmp_path):
    root = project(tmp_path)
    (root / "docs" / "index.md").write_text("# Page\n\n## :brand-logo: Brand\n\nText.\n", encoding="utf-8")
    run(root, "-o", tmp_path / "site")
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'id="brand"' in page  # as mkdocs' toc makes it, the icon left out
    assert '<span class="twemoji"><svg' in page


def test_an_icon_is_made_safe_unless_unsafe(tmp_path):
    hostile = ('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" viewBox="0 0 1 1">'
               '<script>alert(2)</script><foreignObject><div>x</div></foreignObject>'
               '<path style="fill:url(https://evil.example/x)" d="M0 0"/><image href="https://evil.example/i.png"/>'
               '<rect fill="url(https://evil.example/p)" width="1" height="1"/><use href="https://evil.example/u#a"/>'
               '<circle r="1" fill="currentColor" onclick="alert(3)"/></svg>')
    root = project(tmp_path, {"brand/logo.svg": hostile})
    run(root, "-o", tmp_path / "site")
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    icon = re.search(r'<span class="twemoji">(<svg viewBox="0 0 1 1".*?</svg>)</span>', page, re.S).group(1)
    assert "alert" not in icon and "evil" not in icon and "foreignObject" not in icon and "style" not in icon
    assert '<circle r="1" fill="currentColor"></circle>' in icon
    run(root, "-o", tmp_path / "unsafe", "--unsafe")
    assert hostile in (tmp_path / "unsafe" / "index.html").read_text(encoding="utf-8")


def test_a_folder_outside_the_project_is_a_warning_and_not_read(tmp_path):
    outside = tmp_path / "elsewhere"
    (outside / "x").mkdir(parents=True)
    (outside / "x" / "y.svg").write_text(SVG.format(n=9), encoding="utf-8")
    root = project(tmp_path, custom=("overrides/.icons", "../elsewhere", "missing"))
    (root / "overrides" / ".icons" / "outlink.svg").symlink_to(outside / "x" / "y.svg")
    (root / "docs" / "index.md").write_text(":x-y: :outlink: :brand-logo:\n", encoding="utf-8")
    result = run(root, "-o", tmp_path / "site")
    assert "mkdocs.yml:9:13: warning: custom_icons '../elsewhere' is not a folder of the project" in result.stderr
    assert "mkdocs.yml:10:13: warning: custom_icons 'missing' is not a folder of the project" in result.stderr
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert ":x-y:" in page and ":outlink:" in page and page.count('<span class="twemoji">') == 1


def test_editing_an_icon_rebuilds_the_pages(tmp_path):
    root = project(tmp_path)
    site = tmp_path / "site"
    run(root, "-o", site)
    icon = root / "overrides" / ".icons" / "brand" / "logo.svg"
    icon.write_text(SVG.format(n=7), encoding="utf-8")
    run(root, "-o", site)
    assert "M7 0h2v2z" in (site / "index.html").read_text(encoding="utf-8")


def test_the_logo_may_be_a_projects_icon(tmp_path):
    root = project(tmp_path)
    config = root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "theme:\n  name: material\n  icon:\n    logo: brand/sub/deep\n", encoding="utf-8")
    result = run(root, "-o", tmp_path / "site")
    assert "warning" not in result.stderr
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    logo = re.search(r'outline-site-icon"[^>]*>(.*?)</span>', page, re.S)
    assert logo and "M2 0h2v2z" in logo.group(1)


def test_links_that_loop_or_lead_nowhere_safe_are_passed_over(tmp_path):
    import os
    root = project(tmp_path)
    icons = root / "overrides" / ".icons"
    # Two links back up: a walk that followed them all would never end.
    (icons / "brand" / "up").symlink_to("..")
    (icons / "brand" / "again").symlink_to("..")
    (icons / "devzero.svg").symlink_to("/dev/zero")
    os.mkfifo(icons / "fifo.svg")
    (icons / "entity.svg").write_text('<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg"><text>&a;</text></svg>')
    (icons / "huge.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg">' + " " * (1 << 20) + "</svg>")
    (root / "docs" / "index.md").write_text(":devzero: :fifo: :entity: :huge: :brand-up-brand-logo: :brand-logo:\n", encoding="utf-8")
    result = subprocess.run([TOOL, root, "-o", tmp_path / "site"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    # (The folder the links lead back to was walked already: it is not walked again.)
    for text in (":devzero:", ":fifo:", ":entity:", ":huge:", ":brand-up-brand-logo:"):
        assert text in page
    assert page.count('<span class="twemoji">') == 1
