"""Private content never reaches any output: site, search index, recall, shards, feeds, sitemap,
backlinks, entity summaries, reflect's blocks, `recall`/`context` answers and Claude prompts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import anthropic
import httpx2 as httpx
import pytest

from site_builder.build import build
from site_builder.core.config import Config
from site_builder.load import load
from site_builder.reflect.choose import make_reflector
from site_builder.reflect_loaded import reflect_workspace
from tests.conftest import output_bytes, run, write_workspace

SENTINELS = [f"PRIVSENT{i}" for i in range(1, 12)]
FILES = {
    "memory.md": "# Core\nPublic core line.\n<!-- private -->\nPRIVSENT1 the alarm code.\n<!-- /private -->\n",
    "memory/2025-11-03.md": "# Mon\nMet @Anna at noon. <!-- private -->PRIVSENT2 @Secretkeeper<!-- /private --> Later, tea.\n"
    "Inline twice: <!-- private -->PRIVSENT3<!-- /private --> and <!-- PRIVATE -->PRIVSENT4<!-- /PRIVATE -->.\n\n"
    "## Retain\n- W @Anna: Anna likes green tea.\n<!-- private -->\n- W @Anna: PRIVSENT5 Anna's medical note.\n"
    "- O(c=0.9) @Anna: PRIVSENT6 belief. ^secret-belief\n<!-- /private -->\n",
    "memory/2025-11-04.md": "---\nprivate: true\n---\n# Tue\nPRIVSENT7 with @Anna and [[Hidden Place]].\n\n"
    "## Retain\n- W @Anna: PRIVSENT8 fact in a private day.\n- O(c=0.1) @Anna: Anna is easy to reach. ^reach\n",
    "bank/entities/Anna.md": "---\naliases: [Ania]\n---\n# Anna\n\nCeramicist.\n<!-- private -->\nPRIVSENT9 address.\n<!-- /private -->\n",
    "bank/entities/Ghost.md": "---\nprivate: true\naliases: [PRIVSENT10]\n---\n# Ghost\n\nPRIVSENT11 whole page.\n",
    "bank/opinions.md": "# Opinions\n\n- O(c=0.6) @Anna: Anna is easy to reach. ^reach\n",
}


def claude_capturing(prompts: list[str]) -> anthropic.Anthropic:
    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        prompts.append(json.dumps(body))
        tool = body["tools"][0]["name"]
        ids = re.findall(r"\[([0-9a-f]{10})\]", body["messages"][0]["content"])
        payload = (
            {"summary": "A summary."}
            if tool == "write_summary"
            else {"verdicts": [{"fact_id": i, "verdict": "irrelevant"} for i in ids]}
        )
        return httpx.Response(
            200,
            json={
                "id": "m",
                "type": "message",
                "role": "assistant",
                "model": "m",
                "content": [{"type": "tool_use", "id": "t", "name": tool, "input": payload}],
                "stop_reason": "tool_use",
                "usage": {"input_tokens": 1, "output_tokens": 1},
            },
        )

    return anthropic.Anthropic(api_key="k", http_client=httpx.Client(transport=httpx.MockTransport(handler)))


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    return write_workspace(tmp_path / "ws", FILES)


def test_sentinels_are_in_no_output(ws: Path, tmp_path: Path) -> None:
    prompts: list[str] = []
    reflector = make_reflector(Config(reflect_provider="anthropic"), root=ws, client=claude_capturing(prompts))
    reflect_workspace(load(ws), reflector)
    assert prompts, "Claude was asked nothing"
    site = tmp_path / "site"
    result = build(ws, site, base_url="https://example.org/wiki")
    assert result.written and (site / "pagefind").is_dir() and (site / "sitemap.xml").is_file()
    answers = [
        run("recall", word, "--workspace", str(ws), "--json").output
        for word in ["alarm", "medical", "tea", "Anna", "address", "private", "Ghost", "belief"]
    ]
    answers.append(run("context", str(ws), "--query", "Anna medical address", "--budget", "100000").output)
    pages = [p.read_text(encoding="utf-8") for p in ws.rglob("*.md")]
    generated = [text.split("<!-- memwiki:begin", 1)[1] for text in pages if "<!-- memwiki:begin" in text]
    assert len(generated) >= 2
    everything = b"\n".join(
        [
            output_bytes(site, ws / ".memwiki"),
            *(a.encode() for a in answers),
            *(g.encode() for g in generated),
            *(p.encode() for p in prompts),
        ]
    )
    leaks = [s for s in SENTINELS if s.encode() in everything]
    assert leaks == []
    # Private mentions add no backlinks, entities or opinions.
    anna = (site / "bank/entities/anna.html").read_text(encoding="utf-8")
    assert "2025-11-04" not in anna
    assert "Secretkeeper" not in everything.decode("utf-8", "replace")
    assert "hidden-place" not in "".join(p.name for p in site.rglob("*"))
    assert "secret-belief" not in everything.decode("utf-8", "replace")
    recall = json.loads((site / "recall.json").read_text(encoding="utf-8"))
    reach = next(o for o in recall["opinions"] if o["id"] == "reach")
    assert [p["confidence"] for p in reach["history"]] == [0.6]  # the private day's O(c=0.1) is not evidence


def test_public_text_around_private_spans_stays(ws: Path, tmp_path: Path) -> None:
    build(ws, tmp_path / "site", search=False)
    day = (tmp_path / "site/memory/2025-11-03.html").read_text(encoding="utf-8")
    assert "Met " in day and "Later, tea." in day and "Inline twice:" in day
    assert re.search(r'id="L6"></span>.*Anna likes green tea', day)  # line anchors still match the file's lines
