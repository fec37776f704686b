"""The rest of what GitHub shows (SPEC §3.1.2), each against a peer's own output: mermaid
fences as mkdocs-material writes them (Python-Markdown with pymdownx.superfences' mermaid
fence, as mkdocs-material's docs configure it)."""
import re

import markdown
import pymdownx.superfences

from conftest import run

DIAGRAMS = [
    "graph LR\n  A[Start] --> B{Is it?} & C\n  B -->|Yes| D[<b>OK</b>]\n",
    "sequenceDiagram\n  Alice->>John: Hello John, how are you?\n  John-->>Alice: Great & you?\n",
    "",
]


def superfences(text):
    fence = {"name": "mermaid", "class": "mermaid", "format": pymdownx.superfences.fence_code_format}
    return markdown.markdown(text, extensions=["pymdownx.superfences"],
                             extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}})


def test_a_mermaid_fence_is_written_as_mkdocs_material_writes_it():
    for diagram in DIAGRAMS:
        text = "```mermaid\n" + diagram + "```\n"
        ours = run("--from", "markdown", "--fragment", input=text).stdout
        theirs = superfences(text)
        # The same element and text (pymdownx drops the code's last line break).
        pattern = r'<pre class="mermaid"><code>(.*?)\n?</code></pre>'
        assert re.fullmatch(pattern + r"\n?", ours, re.S), ours
        assert re.fullmatch(pattern, theirs, re.S), theirs
        assert re.fullmatch(pattern + r"\n?", ours, re.S)[1] == re.fullmatch(pattern, theirs, re.S)[1]
    # Other fences are code as before; the source and plain text keep the fence.
    assert '<code class="language-python">' in run("--from", "markdown", "--fragment", input="```python\nx\n```\n").stdout
    assert "graph LR" in run("--from", "markdown", "-t", "text", input="# A\n```mermaid\ngraph LR\n```\n").stdout
