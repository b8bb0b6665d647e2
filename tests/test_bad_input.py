"""Bad input: a one-line message with file:line, the build goes on, --strict fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import run, write_workspace

GOOD_DAY = "# Day\nAll fine with @Peter.\n"
PETER = "# Peter\n"

CASES: list[tuple[str, dict[str, str | bytes], str]] = [
    (
        "malformed bullet",
        {"memory/2025-11-20.md": "# D\n## Retain\n- W @Peter Prefers tea\n"},
        "memory/2025-11-20.md:3: warning: not a Retain fact",
    ),
    (
        "confidence too high",
        {"memory/2025-11-20.md": "# D\n## Retain\n- O(c=1.7) @Peter: x\n"},
        "memory/2025-11-20.md:3: warning: confidence c=1.7 is outside 0..1",
    ),
    (
        "confidence not a number",
        {"memory/2025-11-20.md": "# D\n## Retain\n- O(c=abc) @Peter: x\n"},
        "memory/2025-11-20.md:3: warning: confidence c='abc' is not a number",
    ),
    (
        "impossible log date",
        {"memory/2025-02-30.md": "# D\nText\n"},
        "memory/2025-02-30.md:1: warning: 2025-02-30 in the file name is not a real date",
    ),
    (
        "impossible date in a fact",
        {"memory/2025-11-20.md": "# D\n## Retain\n- W @Peter: Due 2025-02-30.\n"},
        "memory/2025-11-20.md:3: warning: date '2025-02-30' is not a real date",
    ),
    ("empty file", {"memory/2025-11-20.md": ""}, "memory/2025-11-20.md:1: warning: file is empty"),
    (
        "non-UTF-8 file",
        {"memory/2025-11-20.md": b"# D\nline two\ncaf\xe9\n"},
        "memory/2025-11-20.md:3: warning: not valid UTF-8",
    ),
    (
        "invalid YAML front matter",
        {"bank/entities/Anna.md": "---\naliases: [a, b\n---\n# Anna\n"},
        "bank/entities/Anna.md:",
    ),
    (
        "front matter not a mapping",
        {"bank/entities/Anna.md": "---\n- a\n- b\n---\n# Anna\n"},
        "bank/entities/Anna.md:2: warning: front matter must be a mapping",
    ),
    (
        "link to a file that is not there",
        {"memory/2025-11-20.md": "# D\nSee [the plan](plan.md).\n"},
        "memory/2025-11-20.md:2: warning: links to memory/plan.md, which is not here",
    ),
    (
        "wikilink to a path that is not there",
        {"memory/2025-11-20.md": "# D\nSee [[gone/away]].\n"},
        "memory/2025-11-20.md:2: warning: [[gone/away]]: no such note in the workspace",
    ),
    (
        "missing heading",
        {"memory/2025-11-20.md": "# D\nSee [[Peter#Nope]].\n"},
        "memory/2025-11-20.md:2: warning: [[Peter#Nope]]: no heading 'Nope'",
    ),
    (
        "unclosed private block",
        {"memory/2025-11-20.md": "# D\n<!-- private -->\nsecret\n"},
        "memory/2025-11-20.md:2: warning: <!-- private --> is never closed",
    ),
    (
        "binary file named .md",
        {"memory/2025-11-20.md": b"\x00\x01\x02PNG"},
        "memory/2025-11-20.md:1: warning: looks like a binary file",
    ),
    (
        "unknown setting",
        {"memwiki.toml": "[site]\ntitel = 'x'\n"},
        "memwiki.toml:2: warning: unknown setting 'titel' in [site] is ignored; did you mean [site] title?",
    ),
    (
        "log dated in the future",
        {"memory/2030-01-01.md": "# D\nA typo in the year.\n"},
        "memory/2030-01-01.md:1: warning: dated 2030-01-01 by its name, which is after today",
    ),
    (
        "opinion id restated with another statement",
        {
            "bank/opinions.md": "# O\n- O(c=0.5) @Peter: Peter likes tea. ^tea\n",
            "memory/2025-11-20.md": "# D\n## Retain\n- O(c=0.9) @Peter: Peter hates mornings. ^tea\n",
        },
        'memory/2025-11-20.md:3: warning: opinion ^tea is restated with a different statement: "Peter hates mornings."',
    ),
    (
        "same fact twice in a file",
        {"memory/2025-11-20.md": "# D\n## Retain\n- W @Peter: Same.\n- W @Peter: Same.\n"},
        "memory/2025-11-20.md:4: warning: the same fact appears twice",
    ),
    (
        "front matter never closed",
        {"bank/entities/Anna.md": "---\naliases: [a]\n# Anna\n"},
        "bank/entities/Anna.md:1: warning: front matter starts with '---' but is never closed",
    ),
    (
        "generated block never closed",
        {"bank/entities/Anna.md": "# Anna\n\n<!-- memwiki:begin entity -->\nmine\n"},
        "bank/entities/Anna.md:3: warning: '<!-- memwiki:begin' has no '<!-- memwiki:end -->'",
    ),
    (
        "credential in a log",
        {"memory/2025-11-20.md": "# D\nThe token = abcd1234efgh5678 for staging.\n"},
        "memory/2025-11-20.md:2: warning: looks like a credential (secret assignment)",
    ),
    (
        "unknown fact kind",
        {"memory/2025-11-20.md": "# D\n## Retain\n- X @Peter: Unknown kind.\n"},
        "memory/2025-11-20.md:3: warning: unknown fact kind 'X'",
    ),
    (
        "fact without text",
        {"memory/2025-11-20.md": "# D\n## Retain\n- W @Peter:\n"},
        "memory/2025-11-20.md:3: warning:",
    ),
    (
        "empty confidence",
        {"memory/2025-11-20.md": "# D\n## Retain\n- O(c=) @Peter: x\n"},
        "memory/2025-11-20.md:3: warning:",
    ),
    (
        "private flag that is not true or false",
        {"memory/2025-11-20.md": "---\nprivate: 'yes please'\n---\n# D\nHidden.\n"},
        "memory/2025-11-20.md:2: warning: private: 'yes please' is not true or false; the page is kept private",
    ),
    (
        "CRLF file with a malformed bullet",
        {"memory/2025-11-20.md": b"# D\r\n\r\n## Retain\r\n- W @Peter Prefers tea\r\n"},
        "memory/2025-11-20.md:4: warning: not a Retain fact",
    ),
    (
        "BOM and an impossible date",
        {"memory/2025-11-20.md": "\ufeff# D\n## Retain\n- W @Peter: Due 2025-13-40.\n".encode()},
        "memory/2025-11-20.md:3: warning: date",
    ),
]


NESTED = "".join("  " * i + "- level\n" for i in range(400))
AWKWARD: list[tuple[str, dict[str, str | bytes]]] = [
    ("deeply nested list", {"memory/2025-11-20.md": "# D\n" + NESTED}),
    ("deeply nested quotes", {"memory/2025-11-20.md": "# D\n" + "> " * 500 + "deep\n"}),
    (
        "10 MB file",
        {"memory/2025-11-20.md": "# D\n" + ("Talked with @Peter about tiles and grout. " * 24 + "\n") * 10_000},
    ),
    ("100k-line log", {"memory/2025-11-20.md": "# D\n" + "".join(f"line {i} about @Peter\n" for i in range(100_000))}),
    ("one 1 MB line", {"memory/2025-11-20.md": "# D\n" + "word " * 200_000 + "\n"}),
    (
        "CRLF and BOM",
        {"memory/2025-11-20.md": "\ufeff# D\r\nAll @Peter.\r\n\r\n## Retain\r\n- W @Peter: CRLF fact.\r\n".encode()},
    ),
    ("tabs", {"memory/2025-11-20.md": "# D\n\tindented @Peter\n## Retain\n-\tW @Peter:\tTabbed fact.\n"}),
    (
        "unusual Unicode",
        {
            "memory/2025-11-20.md": "# D\n\u202eRTL override\u202c \u200dzero\u200bwidth 👩‍👩‍👧 e\u0301\n"
            "## Retain\n- W @Émile: Émile uses combining marks e\u0301 and NFC é.\n",
            "bank/entities/E\u0301mile.md": "# Émile\n",
        },
    ),
    ("front matter only", {"bank/entities/Anna.md": "---\naliases: [Ania]\n---\n"}),
    ("5000 headings", {"memory/2025-11-20.md": "".join(f"## Heading {i}\n" for i in range(5000))}),
    ("NUL after the first 8 KB", {"memory/2025-11-20.md": "# D\n" + "x" * 9000 + "\x00 hidden\n"}),
    ("stray private close", {"memory/2025-11-20.md": "# D\ntext <!-- /private --> more\n"}),
    (
        "nested generated markers",
        {
            "bank/entities/Anna.md": "# Anna\n<!-- memwiki:begin entity -->\n<!-- memwiki:begin entity -->\nx\n<!-- memwiki:end -->\n"
        },
    ),
    (
        "path-like entity names",
        {
            "memory/2025-11-20.md": "# D\n## Retain\n- W [[../../etc/passwd]]: x.\n- W @CON: y.\nSee [[a/b]] and [["
            + "L" * 300
            + "]].\n"
        },
    ),
    (
        "same undated fact on two bank pages",
        {"bank/world.md": "# W\n- W @Peter: Same.\n", "bank/experience.md": "# E\n- W @Peter: Same.\n"},
    ),
    (
        "huge confidence history",
        {
            "bank/opinions.md": "# O\n- O(c=0.5) @Peter: Likes tea. ^tea\n",
            **{
                f"memory/2024-{m:02d}-{d:02d}.md": f"# D\n## Retain\n- O(c=0.{(m * d) % 9 + 1}) @Peter: Likes tea. ^tea\n"
                for m in range(1, 13)
                for d in range(1, 29)
            },
        },
    ),
]


def test_the_corpus_has_forty_cases() -> None:
    assert len(CASES) + len(AWKWARD) >= 40


GENERATED = re.compile(
    rb"<!-- memwiki:begin [^\n]*?-->(?:(?!<!-- memwiki:begin).)*?<!-- memwiki:end -->(?:\r?\n)?", re.S
)


def human_bytes(data: bytes) -> bytes:
    """``data`` without its complete generated blocks: what a person wrote."""
    return GENERATED.sub(b"", data)


# Big inputs: the first two take about 30 s each through the five commands, the others 1-2 s.
SLOW = {
    "10 MB file",
    "100k-line log",
    "deeply nested list",
    "one 1 MB line",
    "5000 headings",
    "huge confidence history",
}


@pytest.mark.parametrize(
    ("name", "files"),
    [
        pytest.param(name, files, id=name, marks=[pytest.mark.slow] if name in SLOW else [])
        for name, files in [(c[0], c[1]) for c in CASES] + AWKWARD
    ],
)
def test_every_command_survives_every_case(tmp_path: Path, name: str, files: dict[str, str | bytes]) -> None:
    ws = write_workspace(tmp_path / "ws", {"bank/entities/Peter.md": "# Peter\n", **files})
    before = {p: p.read_bytes() for p in ws.rglob("*") if p.is_file()}
    outputs = [
        run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search"),
        run("check", str(ws)),
        run("reflect", str(ws)),
        run("recall", "Peter tiles", "--workspace", str(ws)),
        run("context", str(ws), "--budget", "500"),
    ]
    build, check, reflect, recall, context = outputs
    for result in (build, reflect, recall, context):  # bad input is reported, never a reason to give up
        assert result.exit_code == 0, result.output
    problems = re.search(r"(\d+) problem\(s\)\.\s*$", check.output)
    assert problems, check.output
    assert check.exit_code == (1 if int(problems[1]) else 0), check.output  # exit 1 on broken input only
    for result in outputs:
        for line in result.output.splitlines():
            if ": warning: " in line or ": error: " in line:
                assert re.match(r"^[^:]+(:\d+)?: (warning|error): ", line), line
    assert (tmp_path / "site/index.html").is_file()
    for path, data in before.items():  # reflect only ever adds (or rewrites) generated blocks
        kept, now = human_bytes(data), human_bytes(path.read_bytes())
        assert now.startswith(kept), path  # every byte a person wrote, in place...
        assert not now[len(kept) :].strip(b"\r\n"), path  # ...and nothing new but the line breaks before a block


@pytest.mark.parametrize(("name", "files", "message"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_warns_with_location_and_strict_fails(
    tmp_path: Path, name: str, files: dict[str, str | bytes], message: str
) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {"memory.md": "# Core\n", "bank/entities/Peter.md": "# Peter\n\n## Working style\n", **files},
    )
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out), "--no-search", "--no-reflect")
    assert result.exit_code == 0, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output
    assert (out / "index.html").is_file()

    strict = run("build", str(ws), "-o", str(tmp_path / "strict"), "--strict", "--no-search", "--no-reflect")
    assert strict.exit_code == 1
    assert "error:" in strict.output
    assert not (tmp_path / "strict").exists()


@pytest.mark.slow
def test_a_huge_file_is_read_whole_with_a_word_about_its_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import site_builder.io.sources

    monkeypatch.setattr(site_builder.io.sources, "LARGE_FILE", 1_000_000)  # 2 MB in memwiki; a smaller file here
    text = "# D\n" + "A pasted export line with words.\n" * 40_000
    ws = write_workspace(tmp_path / "ws", {"memory.md": "# Core\n", "memory/2025-11-20.md": text})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search", "--no-reflect")
    assert result.exit_code == 0
    assert "memory/2025-11-20.md:1: warning: large file (1.3 MB): read whole, but its page is slow" in result.output
    assert "L40001" in (tmp_path / "site" / "memory" / "2025-11-20.html").read_text(encoding="utf-8")


def test_a_binary_file_is_reported_once_not_also_as_empty(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory.md": "# Core\n", "memory/2025-11-20.md": b"\x00\x01\x02PNG"})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search", "--no-reflect")
    assert "memory/2025-11-20.md:1: warning: looks like a binary file" in result.output
    assert "file is empty" not in result.output


def test_malformed_bullet_is_rendered_as_plain_text(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory/2025-11-20.md": "# D\n## Retain\n- W @Peter Prefers tea\n"})
    out = tmp_path / "site"
    run("build", str(ws), "-o", str(out), "--no-search")
    html = (out / "memory/2025-11-20.html").read_text(encoding="utf-8")
    assert "Prefers tea" in html
    assert 'id="L3"' in html


def test_two_entity_files_differing_in_case(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"bank/entities/Peter.md": "# Peter\n", "bank/entities/peter_.md": "# p\n"})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert "bank/entities/peter_.md: warning: same entity as bank/entities/Peter.md" in result.output


def test_a_workspace_with_only_settings_builds_an_empty_site_and_names_its_path(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memwiki.toml": "[site]\ntitle = 'Empty'\n"})
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0
    assert f"\n{ws.resolve()}: warning: the workspace holds no Markdown memory files" in "\n" + result.output
    assert ".: warning" not in result.output
    assert (tmp_path / "site" / "index.html").is_file()


def test_missing_workspace_is_a_clear_cli_error(tmp_path: Path) -> None:
    result = run("build", str(tmp_path / "nope"))
    assert result.exit_code != 0
    assert "workspace not found" in result.output
    result = run("check", str(tmp_path / "nope"))
    assert result.exit_code != 0
    assert "workspace not found" in result.output


def test_output_folder_not_made_by_memwiki_is_not_wiped(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory.md": "# Core\n"})
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.txt").write_text("do not delete", encoding="utf-8")
    result = run("build", str(ws), "-o", str(precious), "--no-search")
    assert result.exit_code != 0
    assert "not made by memwiki" in result.output
    assert (precious / "thesis.txt").read_text(encoding="utf-8") == "do not delete"


@pytest.mark.parametrize("target", [".", ".."])
def test_output_may_not_be_or_contain_the_workspace(tmp_path: Path, target: str) -> None:
    ws = write_workspace(tmp_path / "ws", {"memory.md": "# Core\n"})
    result = run("build", str(ws), "-o", str(ws / target), "--no-search")
    assert result.exit_code != 0
    assert "is the workspace or contains it" in result.output
    assert (ws / "memory.md").is_file()


def test_check_exits_nonzero_on_broken_input_only(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws", {"memory/2025-11-19.md": "# D\nMet @Zed.\n", "memory/2025-11-20.md": "# D\nMet [[Zed]].\n"}
    )
    ok = run("check", str(ws))
    assert ok.exit_code == 0, ok.output
    assert "Placeholder entities (1)" in ok.output
    assert run("check", str(ws), "--strict").exit_code == 1
    (ws / "memory" / "2025-11-21.md").write_text("# D\n## Retain\n- W @Zed nope\n", encoding="utf-8")
    bad = run("check", str(ws))
    assert bad.exit_code == 1
    assert "memory/2025-11-21.md:3: not a Retain fact" in bad.output


def test_private_content_never_reaches_the_site(tmp_path: Path) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-11-20.md": "# D\nPublic line.\n<!-- private -->\nSENTINEL-A\n<!-- /private -->\nAfter.\n",
            "bank/entities/Secret.md": "---\nprivate: true\n---\n# Secret\nSENTINEL-B\n",
        },
    )
    out = tmp_path / "site"
    run("build", str(ws), "-o", str(out))
    for path in out.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert b"SENTINEL-A" not in data and b"SENTINEL-B" not in data, path
    html = (out / "memory/2025-11-20.html").read_text(encoding="utf-8")
    assert 'id="L6"' in html  # line numbers after the hidden block stay right


@pytest.mark.parametrize(("latest", "stale"), [("2025-03-02", False), ("2025-03-03", True)])
def test_an_opinion_is_stale_past_sixty_days_without_evidence(tmp_path: Path, latest: str, stale: bool) -> None:
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-01-01.md": "# D\n## Retain\n- O(c=0.8) @Ann: Ann likes green tea.\n",
            f"memory/{latest}.md": "# D\nA quiet day.\n",
        },
    )
    check = run("check", str(ws))
    finding = "'Ann likes green tea.' is stale: last evidence 2025-01-01"
    assert (finding in check.output) == stale, check.output  # 60 days after its last evidence: not yet; 61: stale


def test_a_template_placeholder_in_front_matter_is_reported_at_its_own_line(tmp_path: Path) -> None:
    template = "---\ndate: {{date}}\ntags: [daily, log]\n---\n# {{date}}\n\n- What happened today.\n"
    keep = "[workspace]\nkeep_templates = true\n"  # else a template is left out, not read
    files = {"MEMORY.md": "# Memory\n\n- Likes tea.\n", "notes/daily-note.md": template, "memwiki.toml": keep}
    ws = write_workspace(tmp_path / "ws", files)
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0
    assert "notes/daily-note.md:2: warning: date: '{{date}}' is a template's placeholder" in result.output
    assert "[daily, log]" not in result.output  # a YAML list: the other line is not blamed
