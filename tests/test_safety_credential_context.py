"""Values that are credentials by where they stand (a table's column or row label, a list item's label, a
front-matter key, ``user:pass@`` in a URL) are redacted from every output, each table reported once with its rows;
the names of secrets stay readable.

The labelled samples are ``tests/corpus/credentials_context.txt``, written independently of the detector;
``tests/bench/bench_credentials.py`` prints the same figures next to detect-secrets'.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder.parse.credentials import redact
from tests.conftest import output_bytes, run, write_workspace
from tests.credential_corpus import CONTEXT_CORPUS, Sample, load_corpus
from tests.test_mcp import Server, start
from tests.test_reflect_claude import FakeClaude, reflect_with

SAMPLES = load_corpus(CONTEXT_CORPUS)
SECRETS = [s for s in SAMPLES if s.secret]
CLEAN = [s for s in SAMPLES if not s.secret]


def test_the_corpus_covers_tables_lists_front_matter_and_urls() -> None:
    assert len(SECRETS) >= 40 and len(CLEAN) >= 40
    texts = [s.text for s in SECRETS]
    assert sum("|---" in t or "| ---" in t for t in texts) >= 20
    assert sum(t.startswith("---\n") for t in texts) >= 3
    assert sum("://" in t for t in texts) >= 5


@pytest.mark.parametrize("sample", SECRETS, ids=[f"L{s.line}" for s in SECRETS])
def test_each_value_in_a_credential_context_is_hidden_and_lines_stay_put(sample: Sample) -> None:
    redacted, found = redact(sample.text)
    assert found
    assert sample.hidden_in(redacted), redacted
    assert redacted.count("\n") == sample.text.count("\n")


@pytest.mark.parametrize("sample", CLEAN, ids=[f"L{s.line}" for s in CLEAN])
def test_names_placeholders_and_public_values_stay_readable(sample: Sample) -> None:
    assert redact(sample.text) == (sample.text, [])


SERVICES = """# Homelab

### API Keys (for automation)
| Service | API Key |
|---------|---------|
| Sonarr  | 3f9c2a1b7d8e9f0a1b2c3d4e5f6a7b8c |
| Radarr  | dGhpcyBpcyBhIHZlcnkgbG9uZyBiYXNlNjQgc3RyaW5nIG9mIGZvcnR5 |

### Service Logins
| Service | Username | Password |
|---|---|---|
| Plex | admin | Tr0mb0ne-Sky |
| Jellyfin | family | changeme |
| MikroTik | admin | `r0ut|er#Q` |
| Grafana | admin | — |

### Required GitHub Secrets
| Secret | Notes |
|--------|-------|
| `CLAUDE_CODE_OAUTH_TOKEN` | Claude Code OAuth — same as tplink-omada-mcp |

### NAS
| Field | Value |
|---|---|
| Host | 192.168.1.20 |
| Admin password | Marmota77 |

| 服务 | 用户 | 密码 |
|---|---|---|
| 路由器 | root | Yun#2025qq |

- **Password:** Kettle-Brine-42
- NAS admin password — blue.otter.19
- Database: `postgres://app:Pg-pass-2024@db:5432/app`
"""
FRONT = "---\nservice: weather\napi_key: 555c00e9fa4ffff554bc70b062188bd4\npassword: st4ging-Pw\n---\n# Weather\n\nRuns at 06:00 for @Homelab.\n"
LOG = (
    "# Mon\n\nMoved the media server into @Homelab today.\n\n"
    "| Host | User | Password |\n| octopi | pi | raspberry3d |\n\n"
    "Checked the CI with `curl -u deploy:Cu8Rl2Vn6Jb https://ci.example.com/api` and `mysql -u root -pMy7Sq4Lb2Wn`.\n\n"
    "> | Account | PIN |\n> |---|---|\n> | Visa | 83921746 |\n\n"
    "<table>\n<tr><th>Service</th><th>Password</th></tr>\n<tr><td>VPN</td><td>Gl7Wq2Rp9Ms</td></tr>\n</table>\n\n"
    "### GitHub recovery codes\n- 7f3a9-c2e81\n- b91d4-6e0a2\n\n"
    "## Retain\n- W @Homelab: The Plex password is Tr0mb0ne-Sky and the NAS runs Synology.\n"
)
VALUES = [
    "3f9c2a1b7d8e9f0a1b2c3d4e5f6a7b8c",
    "dGhpcyBpcyBhIHZlcnkgbG9uZyBiYXNlNjQgc3RyaW5nIG9mIGZvcnR5",
    "Tr0mb0ne-Sky",
    "changeme",
    "r0ut|er#Q",
    "Marmota77",
    "Yun#2025qq",
    "Kettle-Brine-42",
    "blue.otter.19",
    "Pg-pass-2024",
    "555c00e9fa4ffff554bc70b062188bd4",
    "st4ging-Pw",
    "raspberry3d",
    "Cu8Rl2Vn6Jb",
    "My7Sq4Lb2Wn",
    "83921746",
    "Gl7Wq2Rp9Ms",
    "7f3a9-c2e81",
    "b91d4-6e0a2",
]


@pytest.fixture(scope="module")
def homelab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("secrets") / "ws"
    return write_workspace(
        root,
        {
            "memory.md": "# Core\nI run the homelab.\n",
            "bank/entities/Homelab.md": SERVICES,
            "bank/weather.md": FRONT,
            "memory/2025-11-03.md": LOG,
        },
    )


@pytest.fixture(scope="module")
def mcp(homelab: Path) -> Iterator[Server]:
    yield from start(homelab)


@pytest.mark.slow  # 1.8 s
def test_no_value_reaches_any_output_and_each_table_is_reported_once(
    homelab: Path, mcp: Server, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    built = run("build", str(homelab), "-o", str(out))
    assert built.exit_code == 0, built.output
    tables = [line for line in built.output.splitlines() if "a table holds credentials" in line]
    # API keys, logins, the NAS, 密码; the log's table without a delimiter row, in a blockquote, in HTML
    assert len(tables) == 7, tables
    assert any(
        "bank/entities/Homelab.md:12: warning: a table holds credentials (Password) in 3 row(s): Plex, Jellyfin, MikroTik"
        in line
        for line in tables
    ), tables
    assert "bank/weather.md:3: warning: looks like a credential (secret)" in built.output
    assert "bank/weather.md:4: warning: looks like a credential (password)" in built.output
    answers = [
        run("recall", "password API key Plex NAS service", "--workspace", str(homelab), "--json", "--k", "50").output,
        run("context", str(homelab), "--query", "password of the Plex server").output,
        *(
            json.dumps(mcp.ok("memory_search", {"query": query, "maxResults": 20}))
            for query in ("password", "API key Sonarr Radarr", "Plex MikroTik NAS", "api_key weather")
        ),
        *(json.dumps(mcp.ok("memory_get", {"path": path})) for path in ("bank/entities/Homelab.md", "bank/weather.md")),
        json.dumps(mcp.ok("memory_get", {"path": "memory/2025-11-03.md"})),
        json.dumps(mcp.ok("memory_entity", {"name": "Homelab"})),
        json.dumps(mcp.ok("memory_context", {"query": "homelab passwords"})),
    ]
    claude = FakeClaude()
    reflect_with(homelab, claude)
    assert claude.requests, "reflect sent Claude nothing to check"
    answers += [json.dumps(body) for body in claude.requests]
    everything = output_bytes(out, homelab / ".memwiki") + "\n".join(answers).encode()
    leaked = [value for value in VALUES if value.encode() in everything]
    assert leaked == []
    page = (out / "bank/entities/homelab.html").read_text(encoding="utf-8")
    assert "CLAUDE_CODE_OAUTH_TOKEN" in page and "Claude Code OAuth" in page  # a secret's name stays readable
    assert "[redacted: password]" in page and "Sonarr" in page and "192.168.1.20" in page
    strict = run("check", str(homelab), "--strict")
    assert strict.exit_code == 1 and "a table holds credentials" in strict.output


def test_a_table_of_five_hundred_rows_is_one_warning_that_names_its_rows() -> None:
    rows = "".join(f"| host{i:03} | admin | pw-{i:03}-Zq |\n" for i in range(500))
    text = "| Host | User | Password |\n|---|---|---|\n" + rows
    redacted, found = redact(text)
    assert [f.line for f in found] == [3]
    assert "pw-" not in redacted and redacted.count("\n") == text.count("\n")
    said = found[0].describe()
    assert "in 500 row(s): host000, host001, host002, host003, host004, host005 and 494 more" in said


@pytest.mark.parametrize(
    ("text", "hidden", "kept"),
    [
        ("| Password |\n|---|\n", [], ["Password"]),  # a header row only
        ("| Service | Password |\n|---|---|\n", [], ["Service"]),
        ("| Plex | Password | hunter2x |\n", [], ["Plex"]),  # no header: the row's first cell names nothing
        ("| Password | hunter2x |\n", ["hunter2x"], []),  # no header: the row label names a password
        ("| A | Password |\n|---|---|\n| x | s3cret-1 | extra | cells |\n| y |\n", ["s3cret-1"], ["extra", "cells"]),
        ("| A | Password |\n|---|---|\n||\n| | |\n|x|`a|b`|\n", ["a|b"], []),  # empty and merged cells, a pipe in code
        ("| Dienst | Kennwort |\n|---|---|\n| NAS | Brezel7 |\n", ["Brezel7"], ["NAS"]),
        ("| サービス | パスワード |\n|---|---|\n| ルーター | sakura0401 |\n", ["sakura0401"], ["ルーター"]),
        ("|||\n|-|-|\n|||\n", [], []),
        ("| Password \\| PIN |\n|---|\n| 4827 |\n", ["4827"], []),  # an escaped pipe: one header, a PIN
    ],
)
def test_odd_tables_are_redacted_or_left_alone_never_an_error(text: str, hidden: list[str], kept: list[str]) -> None:
    redacted, found = redact(text)
    assert redacted.count("\n") == text.count("\n")
    assert all(value not in redacted for value in hidden), redacted
    assert all(value in redacted for value in kept), redacted
    assert bool(found) == bool(hidden)


CELL = st.text(alphabet=st.sampled_from("ab9Z|`\\ -:*_—密码Password"), max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(CELL, max_size=5), max_size=6), st.booleans())
def test_any_table_keeps_its_lines_and_never_raises(rows: list[list[str]], delimiter: bool) -> None:
    lines = ["| " + " | ".join(row) + " |" for row in rows]
    if delimiter and lines:
        lines.insert(1, "|---|---|")
    text = "\n".join(lines)
    redacted, _ = redact(text)
    assert redacted.count("\n") == text.count("\n")


@pytest.mark.slow  # 1.3 s
@settings(max_examples=300, deadline=None)
@given(
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9!#$%&*+\-.?@^_~]{0,14}", fullmatch=True).filter(
        lambda w: "..." not in w and sum(c in "*xX." for c in f"{w}Q9") * 2 < len(w) + 2
    )
)
def test_any_word_in_a_password_column_is_hidden(word: str) -> None:
    """Any word but a shortened one (``ab...``: the start of a key, as docs show it) or a mask (``XXXXQ9``: half of
    it mask characters, as ``sk-ant-xxxxxxxx`` shows a key without giving it)."""
    text = f"| Service | Password |\n|---|---|\n| svc | {word}Q9 |\n"
    redacted, found = redact(text)
    assert redacted == "| Service | Password |\n|---|---|\n| svc | [redacted: password] |\n" and found
