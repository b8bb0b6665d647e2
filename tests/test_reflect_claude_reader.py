"""Claude as the deeper reader (``reflect.reader``): entities, dated facts and opinions read from prose notes through
the real anthropic SDK, with an httpx MockTransport answering as the API would (recorded answers: good, malformed,
refused, failing). Nothing reaches the network."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anthropic
import httpx2 as httpx  # the HTTP client the anthropic SDK is built on (httpx, renamed)
import pytest
from click.testing import Result

from tests.conftest import run, write_workspace

DAY1 = "memory/2025-11-03.md"
DAY2 = "memory/2025-11-04.md"
FILES = {
    DAY1: "# Monday\n\nMet Rosalind Okafor at the studio; she leads the kiln project.\n"
    "I think Rosalind will finish the glazes early.\n",
    DAY2: "# Tuesday\n\nShipped the Tidewater release on 2025-11-04.\n",
}
GOOD: dict[str, dict[str, Any]] = {
    DAY1: {
        "entities": [{"name": "Rosalind Okafor", "type": "person", "aliases": ["Rosalind"], "line": 3}],
        "facts": [{"entity": "Rosalind Okafor", "text": "Leads the kiln project.", "line": 3}],
        "opinions": [{"entity": "Rosalind", "text": "Will finish the glazes early.", "confidence": 0.7, "line": 4}],
    },
    DAY2: {
        "entities": [{"name": "Tidewater", "type": "product", "aliases": [], "line": 3}],
        "facts": [{"entity": "Tidewater", "text": "Released.", "date": "2025-11-04", "line": 3}],
        "opinions": [],
    },
}


def message(payload: object, stop_reason: str = "tool_use", tool: str = "record_findings") -> httpx.Response:
    content = [{"type": "tool_use", "id": "toolu_1", "name": tool, "input": payload}]
    if stop_reason == "refusal":
        content = [{"type": "text", "text": "I can't help with that."}]
    return httpx.Response(
        200,
        json={
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-haiku-5-5", "content": content,
            "stop_reason": stop_reason, "stop_sequence": None, "usage": {"input_tokens": 100, "output_tokens": 20},
        },
    )  # fmt: skip


class Recorded:
    """Answers each note's request with the recorded answer for its path (``answers``), and notes the paths sent."""

    def __init__(self, answers: dict[str, httpx.Response | dict[str, Any]]) -> None:
        self.answers = answers
        self.sent: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body["tool_choice"]["name"] == "judge_evidence":  # reflect weighs the opinions Claude found: no evidence
            return message({"verdicts": []}, tool="judge_evidence")
        assert body["tool_choice"] == {"type": "tool", "name": "record_findings"}
        found = re.search(r"^Note: (\S+)", body["messages"][0]["content"], re.M)
        assert found
        self.sent.append(found[1])
        answer = self.answers[found[1]]
        return answer if isinstance(answer, httpx.Response) else message(answer)


@pytest.fixture
def claude(monkeypatch: pytest.MonkeyPatch) -> Recorded:
    """The SDK's client, as memwiki makes it, answering through ``Recorded`` (good answers unless changed)."""
    recorded = Recorded(dict(GOOD))
    real = anthropic.Anthropic
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    monkeypatch.setattr(
        anthropic,
        "Anthropic",
        lambda **_: real(api_key="test-key", http_client=httpx.Client(transport=httpx.MockTransport(recorded))),
    )
    return recorded


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_workspace(tmp_path / "ws", FILES)


def build(ws: Path, out: Path, *more: str) -> Result:
    result = run("build", str(ws), "-o", str(out), "--no-search", "--provider", "anthropic", *more)
    assert result.exit_code == 0, result.output
    return result


def page(out: Path, path: str) -> str:
    return (out / path).read_text(encoding="utf-8")


def workspace_files(ws: Path) -> dict[str, bytes]:
    return {str(p.relative_to(ws)): p.read_bytes() for p in ws.rglob("*") if p.is_file() and ".memwiki" not in p.parts}


def test_claude_finds_an_entity_its_fact_and_opinion_and_the_page_says_so(
    ws: Path, tmp_path: Path, claude: Recorded
) -> None:
    before = workspace_files(ws)
    result = build(ws, tmp_path / "site")
    assert re.search(r"Claude will read 2 file\(s\) \(~[\d,]+ tokens\) with claude-", result.output), result.output
    assert sorted(claude.sent) == [DAY1, DAY2] and "0 warning(s)" in result.output, result.output
    rosalind = page(tmp_path / "site", "bank/entities/rosalind-okafor.html")
    assert "Found by Claude" in rosalind and "Also known as Rosalind" in rosalind
    fact = next(item for item in rosalind.split("<li") if "Leads the kiln project." in item)
    assert "memory/2025-11-03.html#L3" in fact and 'class="badge found-by"' in fact
    assert "Will finish the glazes early." in rosalind and "0.70" in rosalind
    tidewater = page(tmp_path / "site", "bank/entities/tidewater.html")
    assert "Released." in tidewater and "2025-11-04" in tidewater
    assert workspace_files(ws) == before  # nothing written into a workspace that keeps no bank/


def test_a_note_is_sent_once_and_an_edited_one_again(ws: Path, tmp_path: Path, claude: Recorded) -> None:
    build(ws, tmp_path / "a")
    claude.sent.clear()
    again = build(ws, tmp_path / "b")  # another folder: a whole build, Claude's answers from the memo store
    assert claude.sent == [] and "Claude will read" not in again.output
    assert "Found by Claude" in page(tmp_path / "b", "bank/entities/rosalind-okafor.html")
    (ws / DAY2).write_text(FILES[DAY2] + "Tidewater got its first bug report.\n", encoding="utf-8")
    build(ws, tmp_path / "c")
    assert claude.sent == [DAY2]


def test_max_files_sends_the_most_recent_and_says_how_many_wait(ws: Path, tmp_path: Path, claude: Recorded) -> None:
    result = build(ws, tmp_path / "site", "--max-files", "1")
    assert claude.sent == [DAY2]
    assert "Claude will read 1 file(s)" in result.output and "1 more left for the next run" in result.output
    claude.sent.clear()
    build(ws, tmp_path / "again", "--max-files", "1")
    assert claude.sent == [DAY1]


def test_items_its_note_does_not_bear_out_are_dropped_with_a_warning(
    ws: Path, tmp_path: Path, claude: Recorded
) -> None:
    claude.answers[DAY1] = {
        "entities": [
            {"name": "Rosalind Okafor", "type": "person", "aliases": [], "line": 3},
            {"name": "Marguerite", "type": "person", "aliases": [], "line": 3},  # not on that line
            {"name": "Okafor", "type": "person", "aliases": [], "line": 99},  # no such line
        ],
        "facts": [{"entity": "Marguerite", "text": "Owns the studio.", "line": 3}],
        "opinions": [{"entity": "Rosalind Okafor", "text": "Sure.", "confidence": "high", "line": 3}],
    }
    result = build(ws, tmp_path / "site")
    assert (
        f"{DAY1}:3: warning: reflect: Claude named 'Marguerite' here, but this line does not; dropped" in result.output
    )
    assert "Claude cited line 99, which this note does not have (lines 1-5); dropped" in result.output
    assert (
        f"{DAY1}:3: warning: reflect: Claude's fact is about 'Marguerite', which this line does not name"
        in result.output
    )
    assert "confidence 'high', not a number from 0 to 1" in result.output
    assert "Found by Claude" in page(tmp_path / "site", "bank/entities/rosalind-okafor.html")
    assert not (tmp_path / "site/bank/entities/marguerite.html").exists()
    assert "Released." in page(tmp_path / "site", "bank/entities/tidewater.html")  # the other note as read


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (message("not json {"), "Claude's answer for this note is malformed answer: no record_findings call"),
        (message({"entities": "Rosalind"}), "malformed answer: 'entities' is not a list of objects"),
        (httpx.Response(200, content=b"{not json", headers={"content-type": "application/json"}), "malformed"),
        (message({}, stop_reason="refusal"), "Claude refused to read this note; its offline findings stand"),
    ],
    ids=["tool-input-not-json", "wrong-schema", "body-not-json", "refusal"],
)
def test_a_bad_answer_is_a_warning_kept_and_not_asked_again(
    ws: Path, tmp_path: Path, claude: Recorded, answer: httpx.Response, expected: str
) -> None:
    claude.answers[DAY1] = answer
    result = build(ws, tmp_path / "site")
    assert f"{DAY1}: warning: reflect: " in result.output and expected in result.output, result.output
    assert not (tmp_path / "site/bank/entities/rosalind-okafor.html").exists()
    assert "Released." in page(tmp_path / "site", "bank/entities/tidewater.html")
    claude.sent.clear()
    again = build(ws, tmp_path / "again")
    assert claude.sent == [] and expected in again.output  # kept: said again, not paid for again


@pytest.mark.slow  # 1.5 s
@pytest.mark.parametrize(
    ("status", "expected"),
    [(429, "rate limited (429) after retries"), (401, "the API key was rejected (401)")],
)
def test_an_api_error_is_a_clear_message_and_the_offline_site_is_built(
    ws: Path, tmp_path: Path, claude: Recorded, monkeypatch: pytest.MonkeyPatch, status: int, expected: str
) -> None:
    error = {"type": "error", "error": {"type": "rate_limit_error" if status == 429 else "authentication_error"}}
    failing = httpx.Response(status, json=error, headers={"retry-after": "0"})
    claude.answers = {DAY1: failing, DAY2: failing}
    result = build(ws, tmp_path / "site")
    assert f"{DAY1}: warning: reflect: Claude could not read this note ({expected})" in result.output
    assert (tmp_path / "site/memory/2025-11-03.html").exists()
    assert not (tmp_path / "site/bank/entities/rosalind-okafor.html").exists()
    claude.answers = dict(GOOD)
    claude.sent.clear()
    build(ws, tmp_path / "again")
    assert sorted(claude.sent) == [DAY1, DAY2]  # a failed call is asked again


def test_offline_stays_the_default(ws: Path, tmp_path: Path, claude: Recorded) -> None:
    result = run("build", str(ws), "-o", str(tmp_path / "site"), "--no-search")
    assert result.exit_code == 0 and claude.sent == [] and "Claude" not in result.output
    assert not (tmp_path / "site/bank/entities/rosalind-okafor.html").exists()
