"""Credentials in memory are redacted from every output, with a warning at file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.parse.credentials import SHAPES, redact
from tests.conftest import EXAMPLE, output_bytes, run, write_workspace

# Built by concatenation so that no real-looking secret sits in the repository as one string.
A40 = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
CASES = [
    ("Anthropic API key", "sk-" + "ant-api03-" + "Zx9" * 12),
    ("OpenAI API key", "sk-" + "proj-" + "Ab1" * 12),
    ("OpenAI API key", "sk-" + "Qw2" * 16),
    ("AWS access key id", "AKIA" + "IOSFODNN7EXAMPLE"),
    ("AWS secret access key", "aws_secret_access_key = " + A40),
    ("GitHub token", "ghp" + "_" + "a1B2c3D4e5" * 4),
    ("GitHub token", "github" + "_pat_" + "11ABCDEFG0123456789_abcdefghijKLMN"),
    ("GitLab token", "glpat" + "-" + "x1y2z3A4B5C6D7E8F9G0"),
    ("Slack token", "xox" + "b-" + "1234567890-0987654321-AbCdEfGhIjKl"),
    ("Slack webhook", "https://hooks.slack.com/services/" + "T0000/B0000/" + "XXXXXXXXXXXXXXXXXXXXXXXX"),
    ("Stripe key", "sk" + "_live_" + "4eC39HqLyjWDarjtT1zdp7dc"),
    ("Google API key", "AIza" + "SyA-1234567890abcdefghijklmnopqrstu"),
    ("Google OAuth client secret", "GOCSPX" + "-" + "abcdefghijklmnopqrstuvwx12"),
    (
        "JSON Web Token",
        "eyJ"
        + "hbGciOiJIUzI1NiJ9"
        + ".eyJ"
        + "zdWIiOiIxMjM0NTY3ODkwIn0"
        + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ),
    ("SendGrid key", "SG" + ".abcdefghijklmnopqrstuv" + ".ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq"),
    ("npm token", "npm" + "_" + "a" * 36),
    ("Hugging Face token", "hf" + "_" + "AbCdEfGhIjKlMnOpQrStUvWxYz01234567"),
    ("Twilio key", "SK" + "0123456789abcdef" * 2),
    ("password in a URL", "postgres://admin:" + "Tr0ub4dor&3" + "@db.internal:5432/app"),
    ("secret assignment", "api_key=" + "9f8e7d6c5b4a3210"),
    ("secret assignment", 'password: "' + "correct-horse-battery" + '"'),
    (
        "PEM private key",
        "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nq1w2e3r4t5y6\n-----END RSA PRIVATE KEY-----",
    ),
]


def secret_of(kind: str, text: str) -> str:
    """The part that must never appear in an output."""
    if kind == "password in a URL":
        return "Tr0ub4dor&3"
    if kind in ("AWS secret access key", "secret assignment"):
        return text.split("=", 1)[-1].split(":", 1)[-1].strip().strip('"')
    if kind == "PEM private key":
        return "MIIEowIBAAKCAQEA7"
    return text


def test_the_corpus_covers_at_least_fifteen_shapes() -> None:
    assert len({kind for kind, _ in CASES}) >= 15
    assert {kind for kind, _ in CASES} == {s.name for s in SHAPES}


@pytest.mark.parametrize(("kind", "text"), CASES, ids=[f"{i}-{k}" for i, (k, _) in enumerate(CASES)])
def test_each_shape_is_found_and_redacted(kind: str, text: str) -> None:
    redacted, found = redact(f"first line\nNote: {text} (ok)\nlast line\n")
    assert [(f.line, f.kind) for f in found] == [(2, kind)]
    assert secret_of(kind, text) not in redacted
    assert f"[redacted: {kind}]" in redacted
    assert redacted.count("\n") == 3 + text.count("\n")  # line numbers stay put


def test_no_secret_reaches_any_output_and_each_is_reported(tmp_path: Path) -> None:
    log = "# Mon\n\n" + "".join(f"Found {text} in a config.\n" for _, text in CASES)
    log += "\n## Retain\n- W @Peter: Peter's staging token = " + "staging-token-0042xyz" + ".\n"
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-11-03.md": log,
            "bank/entities/Peter.md": "---\naliases: [Pete]\n---\n# Peter\n\nKey "
            + "AKIA"
            + "ABCDEFGHIJKLMNOP"
            + ".\n",
        },
    )
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "redacted from every output" in line]
    assert len(lines) == len(CASES) + 2
    assert "memory/2025-11-03.md:3: warning: looks like a credential (Anthropic API key)" in result.output
    assert "bank/entities/Peter.md:6: warning: looks like a credential (AWS access key id)" in result.output
    recall = run("recall", "config token", "--workspace", str(ws), "--json", "--k", "100")
    assert recall.exit_code == 0
    everything = output_bytes(out, ws / ".memwiki") + recall.output.encode()
    for kind, text in [*CASES, ("x", "staging-token-0042xyz"), ("x", "AKIAABCDEFGHIJKLMNOP")]:
        assert secret_of(kind, text).encode() not in everything, kind
    assert b"[redacted: GitHub token]" in everything
    # The workspace itself is left for the person to fix.
    assert CASES[0][1] in (ws / "memory/2025-11-03.md").read_text(encoding="utf-8")
    strict = run("build", str(ws), "-o", str(tmp_path / "strict"), "--strict", "--no-search")
    assert strict.exit_code == 1
    assert run("check", str(ws)).exit_code == 1


def test_no_false_alarm_on_the_example(tmp_path: Path) -> None:
    result = run("check", str(EXAMPLE))
    assert "looks like a credential" not in result.output
    _, found = redact("\n".join(p.read_text(encoding="utf-8") for p in sorted(EXAMPLE.rglob("*.md"))))
    assert found == []
