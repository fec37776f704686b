"""Markdown shapes that take cmark 0.30.2 down, side by side with cmark on the same bytes.

outline-render refuses each before parsing: a located error, exit 1, bounded memory. Both
tools run under the same bounds (CPU time and address space), so the test can neither hang
nor exhaust the machine; ours must finish inside them. What cmark spends is printed for the
record (the Safety section of the docs), never asserted: how fast a peer is depends on the machine.
"""
import re
import resource
import subprocess
import sys
import tempfile

import pytest

from conftest import TOOL


def measure(command, data, seconds=20, memory_bytes=4 << 30):
    """Runs command on data with bounds; returns (exit status, CPU seconds, peak RSS in MB,
    stderr). /usr/bin/time measures this one process (getrusage's maximum would include
    every earlier child)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    with tempfile.NamedTemporaryFile("r") as report:
        result = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%x %U %S %M", *command],
                                input=data, capture_output=True, preexec_fn=limit)
        status, user, system, kb = report.read().split()[-4:]
    return int(status) if status.lstrip("-").isdigit() else result.returncode, float(user) + float(system), int(kb) / 1024, result.stderr.decode()


CASES = [
    # (name, input, what cmark spends, the message's start)
    ("images and links: quadratic in cmark 0.30.2", b"![[]()" * 40_000, "cpu",
     r"<stdin>:1:1: error: this paragraph opens 7072 images"),
    ("block quotes nested 2,000,000 deep", b">" * 2_000_000, "memory",
     r"<stdin>:1:257: error: block quotes and list items nest deeper than 256 levels"),
    ("emphasis inside lists nested 3,000 deep by indentation",
     b"".join(b"  " * i + b"* a\n" for i in range(3000)) + b"  " * 3000 + b"a*" * 200_000, "cpu",
     r"<stdin>:257:513: error: block quotes and list items nest deeper than 256 levels"),
    ("12 MB of [", b"[" * 12_000_000, "memory",
     r"<stdin>:1:8388609: error: more than 8388608 Markdown elements"),
]


@pytest.mark.parametrize("name,data,cost,message", CASES, ids=[c[0] for c in CASES])
def test_refused_before_parsing_where_cmark_spends_heavily(name, data, cost, message):
    ours_status, ours_cpu, ours_mb, ours_err = measure([TOOL, "--from", "markdown", "-t", "json"], data)
    cmark_status, cmark_cpu, cmark_mb, _ = measure(["cmark"], data)
    assert ours_status == 1
    assert re.match(message, ours_err), ours_err
    assert ours_err.count("\n") == 1
    # Our memory is bounded by the refusal, whatever the machine (the debug build holds
    # the 12 MB input and its line index).
    assert ours_mb < 250
    print(f"{name} (cmark's cost: {cost}): ours {ours_cpu:.2f} s (refused); cmark {cmark_cpu:.2f} s, "
          f"{cmark_mb:.0f} MB, exit {cmark_status}", file=sys.stderr)


def test_a_batch_with_hostile_files_converts_the_rest(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.md").write_text("# A\n")
    (tmp_path / "in" / "b.md").write_bytes(b"![[]()" * 20_000)
    (tmp_path / "in" / "c.md").write_bytes(b">" * 2_000_000)
    (tmp_path / "in" / "d.md").write_text("# D\n")
    result = subprocess.run([TOOL, "in", "-o", "out"], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 1
    written = sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_file() and not p.name.startswith("."))
    assert written == ["404.html", "a.html", "d.html"]
    assert result.stderr.endswith("outline-render: 4 files: 2 written, 0 unchanged, 2 failed\n")
