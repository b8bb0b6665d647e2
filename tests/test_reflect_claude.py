"""The Claude reflector through the real anthropic SDK, with an httpx MockTransport standing in for the API."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anthropic
import httpx2 as httpx  # the HTTP client the anthropic SDK is built on (httpx, renamed)
import pytest

from site_builder.core.config import Config
from site_builder.load import load
from site_builder.reflect.choose import make_reflector
from site_builder.reflect.run import ReflectResult
from site_builder.reflect_loaded import reflect_workspace
from tests.conftest import run, write_workspace

Handler = Callable[[httpx.Request], httpx.Response]

FILES = {
    "memwiki.toml": '[reflect]\nprovider = "anthropic"\nmodel = "claude-haiku-5-5"\n',
    "bank/entities/Anna.md": "# Anna\n\nCeramicist.\n<!-- private -->\nSECRET-SENTINEL\n<!-- /private -->\n",
    "bank/entities/Peter.md": "# Peter\n\nDeveloper in Lisbon.\n",
    "bank/opinions.md": "# Opinions\n\n- O(c=0.6) @Anna: Anna is easiest to reach in the mornings. ^mornings\n",
    "memory/2025-11-03.md": "# Mon\n\n## Retain\n- W @Anna: Anna called at 8:40 in the morning about tiles.\n"
    "- W @Peter: Peter fixed the ingest bug.\n",
}


def message(tool: str, payload: dict[str, Any], usage: tuple[int, int] = (120, 30)) -> httpx.Response:
    return httpx.Response(
        200,
        json={
            "id": "msg_test",
            "type": "message",
            "role": "assistant",
            "model": "claude-haiku-5-5",
            "content": [{"type": "tool_use", "id": "toolu_test", "name": tool, "input": payload}],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": usage[0], "output_tokens": usage[1]},
        },
    )


def group(pattern: str, text: str) -> str:
    """The first group of ``pattern``'s first match in ``text`` (multiline); the match must exist."""
    found = re.search(pattern, text, re.M)
    assert found, f"{pattern!r} not in {text!r}"
    return found[1]


class FakeClaude:
    """Answers like the Messages API and records every request body."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        tool = body["tools"][0]["name"]
        prompt = body["messages"][0]["content"]
        if tool == "write_summary":
            name = group(r"^Entity: (\w+)", prompt)
            return message(tool, {"summary": f"{name} is summarised by Claude."})
        ids = re.findall(r"^- \[([0-9a-f]{10})\]", prompt, re.M)
        return message(tool, {"verdicts": [{"fact_id": i, "verdict": "reinforces", "reason": "fits"} for i in ids]})


def client(handler: Handler, retries: int = 2) -> anthropic.Anthropic:
    return anthropic.Anthropic(
        api_key="test-key", http_client=httpx.Client(transport=httpx.MockTransport(handler)), max_retries=retries
    )


def reflect_with(ws: Path, handler: Handler | None, retries: int = 2) -> tuple[ReflectResult, list[str]]:
    loaded = load(ws)
    reflector = make_reflector(
        Config(reflect_provider="anthropic"), root=ws, client=client(handler, retries) if handler else None
    )
    _, result, found = reflect_workspace(loaded, reflector)
    return result, [d.message for d in found.items if d.code == "reflect"]


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_workspace(tmp_path / "ws", FILES)


def test_summaries_and_verdicts_come_from_claude_through_tool_calls(ws: Path) -> None:
    fake = FakeClaude()
    result, messages = reflect_with(ws, fake)
    assert messages == []
    anna = (ws / "bank/entities/Anna.md").read_text(encoding="utf-8")
    assert "Anna is summarised by Claude." in anna
    opinions = (ws / "bank/opinions.md").read_text(encoding="utf-8")
    assert re.search(r"\| 2025-11-03 \| 0\.62 \| reinforces \| `[0-9a-f]{10}` \|", opinions)
    assert result.usage.calls == len(fake.requests) == 3  # two entities, one opinion
    assert result.usage.input_tokens == 360 and result.usage.output_tokens == 90
    for body in fake.requests:
        assert body["model"] == "claude-haiku-5-5"
        assert body["tool_choice"] == {"type": "tool", "name": body["tools"][0]["name"]}
        assert "SECRET-SENTINEL" not in json.dumps(body)


def test_a_second_run_makes_no_calls_and_changes_no_byte(ws: Path) -> None:
    reflect_with(ws, FakeClaude())
    before = {p: p.read_bytes() for p in ws.rglob("*.md")}
    fake = FakeClaude()
    result, _ = reflect_with(ws, fake)
    assert fake.requests == [] and result.usage.cached == 2  # the judged fact is not sent again
    assert {p: p.read_bytes() for p in ws.rglob("*.md")} == before


def test_a_new_daily_log_only_sends_the_touched_entities(ws: Path) -> None:
    reflect_with(ws, FakeClaude())
    (ws / "memory/2025-11-04.md").write_text("# Tue\n\n## Retain\n- W @Peter: Peter shipped the fix.\n")
    fake = FakeClaude()
    result, _ = reflect_with(ws, fake)
    sent = [group(r"^(?:Entity|Belief): (.*)$", b["messages"][0]["content"]) for b in fake.requests]
    assert sent == ["Peter"]
    assert result.usage.calls == 1 and result.usage.cached == 1


def failing(status: int) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            status, json={"type": "error", "error": {"type": "x", "message": "no"}}, headers={"retry-after-ms": "1"}
        )

    return handler


def timing_out(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("slow", request=request)


def malformed(request: httpx.Request) -> httpx.Response:
    response = message("write_summary", {})
    body = json.loads(response.content)
    body["content"] = [{"type": "text", "text": "Here is a summary, not a tool call."}]
    return httpx.Response(200, json=body)


def empty_verdicts(request: httpx.Request) -> httpx.Response:
    tool = json.loads(request.content)["tools"][0]["name"]
    return message(
        tool, {"summary": ""} if tool == "write_summary" else {"verdicts": [{"fact_id": "x", "verdict": "maybe"}]}
    )


@pytest.mark.slow  # 0.9 s
@pytest.mark.parametrize(
    ("handler", "expected"),
    [
        (failing(429), "rate limited (429) after retries"),
        (failing(500), "API error 500"),
        (failing(503), "API error 503"),
        (failing(401), "the API key was rejected (401)"),
        (timing_out, "timed out"),
        (malformed, "malformed answer: no write_summary call in the answer"),
        (empty_verdicts, "malformed answer"),
    ],
    ids=["429", "500", "503", "401", "timeout", "no-tool-call", "bad-fields"],
)
def test_api_failures_keep_the_previous_text_and_say_why(ws: Path, handler: Handler, expected: str) -> None:
    reflect_with(ws, FakeClaude())
    anna_before = (ws / "bank/entities/Anna.md").read_bytes()
    (ws / "memory/2025-11-05.md").write_text("# Wed\n\n## Retain\n- W @Anna: Anna opened a second studio.\n")
    _, messages = reflect_with(ws, handler, retries=1)
    assert messages and all(expected in m for m in messages if "Anna" in m), messages
    assert any("kept the previous text" in m for m in messages)
    anna = (ws / "bank/entities/Anna.md").read_text(encoding="utf-8")
    assert "Anna is summarised by Claude." in anna  # the summary stayed
    assert "Anna opened a second studio." in anna  # the facts list is still brought up to date
    assert anna_before != anna.encode()


def test_no_api_key_is_a_clear_warning_and_strict_fails(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = run("reflect", str(ws))
    assert result.exit_code == 0
    assert "ANTHROPIC_API_KEY is not set" in result.output
    anna = (ws / "bank/entities/Anna.md").read_text(encoding="utf-8")
    assert "Anna (no type)" not in anna and "comes up on" in anna  # new pages get the offline summary
    strict = run("reflect", str(ws), "--strict")
    assert strict.exit_code == 1 and "error: reflect: ANTHROPIC_API_KEY is not set" in strict.output


def test_requests_run_concurrently_but_bounded(ws: Path) -> None:
    import threading
    import time

    active = 0
    peak = 0
    lock = threading.Lock()
    fake = FakeClaude()

    def slow(request: httpx.Request) -> httpx.Response:
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.05)
        with lock:
            active -= 1
        return fake(request)

    for i in range(10):
        (ws / f"bank/entities/Person{i}.md").write_text(f"# Person{i}\n\nMet @Peter.\n")
    result, _ = reflect_with(ws, slow)
    assert result.usage.calls == 13
    assert 1 < peak <= 4


@pytest.mark.slow  # 0.7 s
def test_an_opinion_is_weighed_against_a_bounded_number_of_facts_those_sharing_its_words_first(tmp_path: Path) -> None:
    days = {
        f"memory/2025-10-{day:02d}.md": "# Day\n\n## Retain\n"
        + "".join(f"- W @Anna: Anna glazed bowl {day}{n} for the shop.\n" for n in range(4))
        for day in range(1, 26)
    }  # 100 facts about Anna that share no word with the belief
    days["memory/2025-09-26.md"] = "# Day\n\n## Retain\n" + "".join(  # older than the rest
        f"- W @Anna: Anna answered in the morning, call {n}.\n" for n in range(3)
    )
    ws = write_workspace(tmp_path / "ws", {**FILES, **days})
    fake = FakeClaude()
    reflect_with(ws, fake)
    sent = [
        re.findall(r"^- \[[0-9a-f]{10}\] [\d-]+: (.*)$", b["messages"][0]["content"], re.M)
        for b in fake.requests
        if b["tools"][0]["name"] == "judge_evidence"
    ]
    assert len(sent) == 2  # 40 facts in two requests of 20, not 104 facts in six
    facts = [fact for request in sent for fact in request]
    assert len(facts) == 40
    assert {f"Anna answered in the morning, call {n}." for n in range(3)} <= set(facts)
    assert "Anna called at 8:40 in the morning about tiles." in facts

    # The judged facts are recorded: a second run sends nothing; a new fact sharing the belief's words is weighed
    # in the next run, alone (the rest of the 40 that bear on the belief most were judged).
    fake = FakeClaude()
    reflect_with(ws, fake)
    assert [b for b in fake.requests if b["tools"][0]["name"] == "judge_evidence"] == []
    (ws / "memory/2025-10-27.md").write_text("# Day\n\n## Retain\n- W @Anna: Anna is easy to reach before noon.\n")
    fake = FakeClaude()
    reflect_with(ws, fake)
    later = [b["messages"][0]["content"] for b in fake.requests if b["tools"][0]["name"] == "judge_evidence"]
    assert [re.findall(r"^- \[[0-9a-f]{10}\] [\d-]+: (.*)$", c, re.M) for c in later] == [
        ["Anna is easy to reach before noon."]
    ]
