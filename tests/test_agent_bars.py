"""The agent page's bars: each tier's files against the context window, and the bootstrap files OpenClaw cuts."""

from __future__ import annotations

import html
import re
from pathlib import Path

from tests.conftest import run, write_workspace

LINE = "- The agent noted what it learned about the deploy and the people on the project today.\n"
WIDTH = len(LINE)  # 88 characters


def build(tmp_path: Path, files: dict[str, str]) -> str:
    ws = write_workspace(tmp_path / "ws", files)
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0, result.output
    return html.unescape((tmp_path / "site" / "agent.html").read_text(encoding="utf-8"))


def legend(page: str) -> list[tuple[str, str, str]]:
    """(file, tokens, share) of each segment of the page's bars, in order."""
    return re.findall(r'<a href="[^"]+">([^<]+)</a> <span class="muted">~([\d,]+) tokens, (<?[\d.,]+ %)</span>', page)


def cuts(page: str) -> dict[str, str]:
    """What the page says OpenClaw keeps of each file it cuts."""
    return dict(
        re.findall(
            r'<li><span class="cut-mark" aria-hidden="true">▼</span> <a href="[^"]+">([^<]+)</a>: ([^<]+) \(', page
        )
    )


def openclaw(memory_lines: int, **more: str) -> dict[str, str]:
    return {
        "AGENTS.md": "# Agents\n\nRead MEMORY.md first.\n",
        "SOUL.md": "# Soul\n\nBe kind.\n",
        "MEMORY.md": "# Memory\n\n" + LINE * memory_lines,
        "memory/2026-03-01.md": "# 2026-03-01\n\n- Deployed.\n",
        **more,
    }


def test_a_memory_over_the_per_file_limit_is_marked_with_what_the_prompt_keeps(tmp_path: Path) -> None:
    page = build(tmp_path, openclaw(360))
    chars = len("# Memory\n\n") + 360 * WIDTH - 1  # 31,689: OpenClaw trims the trailing newline
    assert "Always loaded: ~7,943 tokens, 4.0 % of a 200,000-token context window" in page
    assert legend(page)[:3] == [
        ("AGENTS.md", "8", "<0.1 %"),
        ("SOUL.md", "5", "<0.1 %"),
        ("MEMORY.md", "7,923", "4.0 %"),
    ]
    said = cuts(page)
    assert list(said) == ["MEMORY.md"]
    found = re.fullmatch(
        rf"{chars:,} characters, over the 20,000-character limit per file: OpenClaw's prompt keeps the first "
        r"([\d,]+) characters \(to line (\d+)\) and the last ([\d,]+) \(from line (\d+)\), ([\d,]+) characters lost",
        said["MEMORY.md"],
    )
    assert found, said["MEMORY.md"]
    head, head_line, tail, tail_line, lost = (int(g.replace(",", "")) for g in found.groups())
    assert 19_850 < head + tail < 20_000 and abs(head - 3 * tail) <= 3  # 75 % head, 25 % tail, the marker between
    assert head + tail + lost == chars
    assert head_line == 3 + (head - 11) // WIDTH and tail_line == 3 + (chars - tail - 10) // WIDTH  # lines 1-2: title
    assert f'href="MEMORY.html#L{head_line + 1}">the first line lost</a>' in page
    assert page.count('<svg class="ctx-mark"') == 1 and 'class="ctx-seg tone-3 cut"' in page
    assert "in OpenClaw's src/agents/embedded-agent-helpers/bootstrap.ts, main, December 2026" in page


def test_files_past_the_total_limit_keep_what_is_left_and_then_nothing(tmp_path: Path) -> None:
    big = "# Big\n\n" + LINE * 225  # 19,806 characters: under the per-file limit
    files = openclaw(20, **{"TOOLS.md": big, "IDENTITY.md": big, "USER.md": big, "HEARTBEAT.md": big})
    said = cuts(build(tmp_path, files))
    assert list(said) == ["HEARTBEAT.md", "MEMORY.md"]  # in the order OpenClaw injects them
    agents_and_soul = len("# Agents\n\nRead MEMORY.md first.") + len("# Soul\n\nBe kind.")
    left = 60_000 - agents_and_soul - 3 * (len(big) - 1)
    assert said["HEARTBEAT.md"].startswith(
        f"19,806 characters, past the 60,000-character limit of all bootstrap files ({left:,} were left): "
        "OpenClaw's prompt keeps the first "
    )
    assert said["MEMORY.md"] == (
        f"{len('# Memory') + 2 + 20 * WIDTH - 1:,} characters, past the 60,000-character limit of all bootstrap "
        "files: none of it is loaded"
    )


def test_the_context_window_is_a_setting_and_a_tier_larger_than_it_shows_where_it_ends(tmp_path: Path) -> None:
    files = {"memory.md": "# Core\n\n" + LINE * 40, "memwiki.toml": "[agent]\ncontext_tokens = 1000\n"}
    files |= {f"notes/n{i:02d}.md": f"# Note {i}\n\n" + LINE * (i + 1) for i in range(20)}
    page = build(tmp_path, files)
    assert "Always loaded: ~882 tokens, 88.2 % of a 1,000-token context window" in page
    assert "Found by search only: ~4,680 tokens, 4.7 times a 1,000-token context window" in page
    assert page.count('<line class="ctx-end"') == 1
    search = page[page.index("Found by search only: ~4,680") :]
    assert [name for name, _, _ in legend(search)] == [f"notes/n{i:02d}.md" for i in range(9, 20)]  # the largest 11
    assert "9 other files <span" in search
    assert '<svg class="ctx-mark"' not in page and "Marks (▼)" not in page  # not an OpenClaw workspace


def test_a_context_window_out_of_range_is_an_error_at_its_line(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory.md": "# Core\n", "memwiki.toml": "[agent]\ncontext_tokens = 5\n"})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code != 0
    assert (
        "memwiki.toml:2" in result.output
        and "[agent] context_tokens must be from 1,000 to 100,000,000" in result.output
    )
    assert not (tmp_path / "site").exists()


def test_an_openclaw_workspace_within_the_limits_says_so_and_marks_nothing(tmp_path: Path) -> None:
    page = build(tmp_path, openclaw(10))
    assert cuts(page) == {} and '<svg class="ctx-mark"' not in page and "Marks (▼)" not in page
    assert "No bootstrap file is cut at OpenClaw's default limits (20,000 characters a file" in page


def test_openclaw_loads_the_days_logs_of_its_memory_folder_only(tmp_path: Path) -> None:
    """OpenClaw reads ``memory/YYYY-MM-DD.md`` of today and yesterday at a session's start; a dated file in another
    folder (jarvis-globalcaos keeps ``memory/meta-ai/2026-02-07.md``) is found by search only."""
    page = build(tmp_path, openclaw(10, **{"memory/meta-ai/2026-03-01.md": "# 2026-03-01\n\n- A research note.\n"}))
    always = page.split("Always loaded: ~")[1].split("Found by search only: ~")[0]
    loaded = [name for name, _, _ in legend(always)]
    assert "memory/2026-03-01.md" in loaded and "memory/meta-ai/2026-03-01.md" not in loaded
