"""Credentials in memory are redacted from every output, with a warning at file:line; look-alikes are left alone.

The labelled corpus is ``tests/corpus/credentials.txt``; ``tests/bench/bench_credentials.py`` prints
the same figures next to detect-secrets'.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_builder.parse.credential_shapes import SHAPES
from site_builder.parse.credentials import redact
from tests.conftest import EXAMPLE, output_bytes, run, write_workspace
from tests.credential_corpus import CONTEXT_CORPUS, Sample, load_corpus, score

SAMPLES = load_corpus()
SECRETS = [s for s in SAMPLES if s.secret]
CLEAN = [s for s in SAMPLES if not s.secret]


def test_the_corpus_has_forty_secret_shapes_and_forty_look_alikes() -> None:
    assert len({s.label for s in SECRETS}) >= 40
    assert len(CLEAN) >= 40
    assert all(s.value and s.value in s.text for s in SECRETS)


def test_every_shape_memwiki_knows_has_an_example_in_the_corpora() -> None:
    samples = [*SECRETS, *(s for s in load_corpus(CONTEXT_CORPUS) if s.secret)]
    kinds = {f.kind for s in samples for f in redact(s.text)[1]}
    by_context = {"password", "secret assignment", "secret", "PIN", "recovery code", "seed phrase", "table"}
    assert {shape.name for shape in SHAPES} | by_context == kinds


@pytest.mark.parametrize("sample", SECRETS, ids=[f"L{s.line}-{s.label}" for s in SECRETS])
def test_each_secret_is_found_and_hidden_and_lines_stay_put(sample: Sample) -> None:
    text = f"first line\n{sample.text}\nlast line\n"
    redacted, found = redact(text)
    assert found and {f.line for f in found} <= set(range(2, 2 + sample.text.count("\n") + 1)), found
    assert sample.hidden_in(redacted), redacted
    assert "[redacted: " in redacted
    assert redacted.count("\n") == text.count("\n")  # line numbers stay put
    assert redacted.endswith("\nlast line\n") and redacted.startswith("first line\n")


@pytest.mark.parametrize("sample", CLEAN, ids=[f"L{s.line}-{s.label}" for s in CLEAN])
def test_look_alikes_from_code_and_docs_are_left_alone(sample: Sample) -> None:
    assert redact(sample.text) == (sample.text, [])


def test_recall_is_complete_and_precision_at_least_ninety_percent() -> None:
    def flags(sample: Sample) -> bool:
        redacted, found = redact(sample.text)
        return bool(found) and (not sample.secret or sample.value not in redacted)

    result = score(SAMPLES, flags)
    assert result.recall == 1.0, [s.label for s in result.missed]
    assert result.precision >= 0.9, [s.label for s in result.false_alarms]


def leaked(secret: str, output: bytes) -> bool:
    """Is ``secret`` in ``output``: anywhere, or for a short one (a PIN: ``4827``) as a word of its own, not inside
    the hex digest of a cache key (``…bb4827d7…``), where four digits turn up by chance."""
    if len(secret) > 6:
        return secret.encode() in output
    return re.search(rb"(?<![0-9A-Za-z])" + re.escape(secret.encode()) + rb"(?![0-9A-Za-z])", output) is not None


def test_no_secret_reaches_any_output_and_each_is_reported(tmp_path: Path) -> None:
    one_line = [s for s in SECRETS if "\n" not in s.text]
    log = "# Mon\n\n" + "".join(f"{s.text}\n\n" for s in one_line)
    log += "## Retain\n- W @Peter: Peter's staging token = staging-token-0042xyz.\n"
    key = "-----BEGIN EC " + "PRIVATE KEY-----\nMHcCAQEEIB7" + "x9Qk2\n-----END EC PRIVATE KEY-----"
    ws = write_workspace(
        tmp_path / "ws",
        {
            "memory/2025-11-03.md": log,
            "bank/entities/Peter.md": f"---\naliases: [Pete]\n---\n# Peter\n\nKey file:\n{key}\nAfter the key.\n",
        },
    )
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out))
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "redacted from every output" in line]
    assert len(lines) == len(one_line) + 2
    assert "memory/2025-11-03.md:3: warning: looks like a credential (Anthropic API key)" in result.output
    assert "bank/entities/Peter.md:7: warning: looks like a credential (private key)" in result.output
    recall = run("recall", "config token password", "--workspace", str(ws), "--json", "--k", "200")
    assert recall.exit_code == 0
    everything = output_bytes(out, ws / ".memwiki") + recall.output.encode()
    for secret in [*(s.value for s in one_line), "staging-token-0042xyz", "MHcCAQEEIB7x9Qk2"]:
        assert not leaked(secret, everything), secret
    assert b"[redacted: GitHub token]" in everything
    page = (out / "bank/entities/peter.html").read_text(encoding="utf-8")
    assert 'id="L10"' in page and "After the key." in page  # the lines after a key keep their numbers
    # The workspace itself is left for the person to fix.
    assert one_line[0].value in (ws / "memory/2025-11-03.md").read_text(encoding="utf-8")
    strict = run("build", str(ws), "-o", str(tmp_path / "strict"), "--strict", "--no-search")
    assert strict.exit_code == 1
    assert run("check", str(ws)).exit_code == 1


def test_a_secret_in_reflects_history_tables_is_found_like_any_other(tmp_path: Path) -> None:
    """The history tables of the opinions block are not scanned line by line (memwiki wrote them, and they can
    be most of a workspace), but a citation in them that looks secret still is, and the person's text always."""
    token = next(s.value for s in SECRETS if "\n" not in s.text and "GitHub" in s.label)
    password = "Wr0ng-Horse-Battery"  # noqa: S105 - a planted secret the build must hide
    opinions = (
        "# Opinions\n\n- O(c=0.7) @Peter: Prefers mornings. ^mornings\n\npassword: " + password + "\n\n"
        "<!-- memwiki:begin opinions · written by `memwiki reflect`; edits inside are replaced -->\n"
        "### Prefers mornings.\n\nId `mornings` · about [[Peter]] · confidence **0.70** · last changed never\n\n"
        "| Date | Confidence | Change | Fact | Source |\n|---|---|---|---|---|\n"
        f"| 2025-11-02 | 0.60 | restated | `abcdef0123` | [memory/{token}.md#L3](../memory/x.md#L3) |\n"
        "<!-- memwiki:end -->\n"
    )
    ws = write_workspace(
        tmp_path / "ws", {"memory/2025-11-03.md": "# Mon\n\nMet @Peter.\n", "bank/opinions.md": opinions}
    )
    out = tmp_path / "site"
    result = run("build", str(ws), "-o", str(out), "--no-reflect")
    assert result.exit_code == 0, result.output
    assert "bank/opinions.md:5: warning: looks like a credential (password)" in result.output
    assert "bank/opinions.md:14: warning: looks like a credential" in result.output
    everything = output_bytes(out, ws / ".memwiki")
    assert token.encode() not in everything and password.encode() not in everything


def test_no_false_alarm_on_the_example() -> None:
    result = run("check", str(EXAMPLE))
    assert "looks like a credential" not in result.output
    _, found = redact("\n".join(p.read_text(encoding="utf-8") for p in sorted(EXAMPLE.rglob("*.md"))))
    assert found == []


def test_a_key_longer_than_its_shape_is_redacted_whole() -> None:
    """A key is hidden to its last character: an ``AIza…`` run longer than a real key's 39 characters (the fake keys
    of ``../shared/real`` have 40) left its tail after the marker."""
    key = "AIzaSy" + "x7Kq2" * 6 + "0000qY"
    assert len(key) == 42
    redacted, found = redact(f"- Key: `{key}`\n")
    assert redacted == "- Key: `[redacted: Google API key]`\n"
    assert [f.kind for f in found] == ["Google API key"]
