"""memwiki mcp, driven through the mcp SDK's own client over stdio: a real `memwiki mcp` subprocess."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client, MCPError, StdioServerParameters
from mcp.types import CallToolResult

from tests.conftest import REPO, write_workspace

DAY1 = """# Monday
Peter talked about the kitchen tiles with @Maggie.

## Retain
- W @Peter: The tile quote is €2.1k for the kitchen.
- B @Peter: I booked the Marrakech trip for Nov 27–Dec 1, 2025.
- O(c=0.6) @Sam: Sam prefers meetings in the morning. ^sam-mornings
"""
DAY2 = """# Tuesday
<!-- private -->
The door code is 4711 PRIVATESENTINEL.
<!-- /private -->
Deploy key: ghp_abcdefghijklmnopqrstuvwxyz0123456789

## Retain
- O(c=0.8) @Sam: Sam prefers meetings in the morning. ^sam-mornings
"""
FILES = {
    "memory.md": "# Core\nI am Wren.\n",
    "memory/2025-11-03.md": DAY1,
    "memory/2025-11-04.md": DAY2,
    "memory/2025-11-05.md": "# Wed\n\n## Retain\n- O(c=0.9) @Sam: Sam prefers meetings in the morning. ^sam-mornings\n",
    "bank/entities/Margaret.md": "---\naliases: [Maggie]\n---\n# Margaret\nRuns the pottery studio.\n",
    "bank/secret.md": "---\nprivate: true\n---\n# Secret\nSECRETPAGE\n",
    ".git/config": "[core]\n",
}


class Server:
    """A `memwiki mcp` subprocess and a connected SDK client, callable from synchronous tests."""

    def __init__(self, portal: BlockingPortal, client: Client, root: Path) -> None:
        self.portal = portal
        self.client = client
        self.root = root

    def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        result: CallToolResult = self.portal.call(self.client.call_tool, name, arguments)
        return result

    def ok(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = self.call(name, arguments)
        assert not result.is_error, result.content
        answer: dict[str, Any] = result.structured_content
        return answer

    def error(self, name: str, arguments: dict[str, Any]) -> dict[str, str]:
        result = self.call(name, arguments)
        assert result.is_error, result.structured_content
        error: dict[str, str] = result.structured_content["error"]
        assert error["message"] and len(error["message"]) < 1000
        return error


def start(root: Path, *flags: str) -> Iterator[Server]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "site_builder", "mcp", str(root), *flags])
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(Client(params)) as client:
        yield Server(portal, client, root)


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start(write_workspace(tmp_path_factory.mktemp("mcp") / "ws", FILES))


@pytest.fixture(scope="module")
def writer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from start(write_workspace(tmp_path_factory.mktemp("mcp") / "ws", FILES), "--allow-write")


@pytest.mark.slow  # 2.1 s
def test_tools_have_schemas_and_read_only_hints(reader: Server, writer: Server) -> None:
    listed = reader.portal.call(reader.client.list_tools).tools
    assert [t.name for t in listed] == ["memory_search", "memory_get", "memory_entity", "memory_context"]
    for tool in listed:
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert tool.input_schema["type"] == "object" and tool.input_schema["additionalProperties"] is False
        assert tool.output_schema and tool.description
    search = listed[0].input_schema["properties"]
    assert set(search) == {"query", "maxResults", "since", "until", "entity", "kind"}
    remember = writer.portal.call(writer.client.list_tools).tools[-1]
    assert remember.name == "memory_remember"
    assert remember.annotations is not None and remember.annotations.read_only_hint is False
    assert remember.input_schema["required"] == ["kind", "content"]


def test_memory_search_answers_in_openclaws_shape(reader: Server) -> None:
    results = reader.ok("memory_search", {"query": "Marrakech trip", "maxResults": 3})["results"]
    top = results[0]
    assert top["citation"] == "memory/2025-11-03.md#L6" and top["path"] == "memory/2025-11-03.md"
    assert (top["startLine"], top["endLine"]) == (6, 6)
    assert top["snippet"] == "I booked the Marrakech trip for Nov 27–Dec 1, 2025."
    assert top["date"] == "2025-11-03" and top["kind"] == "B" and top["entities"] == ["peter"]
    assert top["occurred"] == {"start": "2025-11-27", "end": "2025-12-01"}
    assert top["confidence"] is None and top["score"] > 0


def test_an_opinion_restated_three_times_is_one_result_with_its_current_confidence(reader: Server) -> None:
    results = reader.ok("memory_search", {"query": "Sam meetings morning"})["results"]
    opinions = [r for r in results if r["kind"] == "O"]
    assert len(opinions) == 1
    assert opinions[0]["confidence"] == 0.9 and opinions[0]["citation"] == "memory/2025-11-05.md#L4"
    assert opinions[0]["opinion"] == {"id": "sam-mornings", "history": 3}


def test_search_filters_resolve_aliases_and_time_words(reader: Server) -> None:
    by_alias = reader.ok("memory_search", {"query": "kitchen", "entity": "Margaret"})["results"]
    assert [r["citation"] for r in by_alias] == ["memory/2025-11-03.md#L2"]
    since = reader.ok("memory_search", {"query": "Sam meetings", "since": "2025-11-04", "kind": "O"})["results"]
    assert since and all(r["date"] >= "2025-11-04" for r in since)
    recent = reader.ok("memory_search", {"query": "kitchen", "since": "yesterday"})["results"]
    assert recent == []  # the workspace's days are long past


def test_memory_get_reads_lines_without_private_text_or_credentials(reader: Server) -> None:
    got = reader.ok("memory_get", {"path": "memory/2025-11-04.md"})
    assert got["path"] == "memory/2025-11-04.md" and got["totalLines"] == 8
    assert "PRIVATESENTINEL" not in got["text"] and "ghp_abcdefghijklmnop" not in got["text"]
    assert got["text"].split("\n")[4].startswith("Deploy key:")  # line numbers still match citations
    cited = reader.ok("memory_get", {"path": "memory/2025-11-03.md#L5-L6"})
    assert (cited["from"], cited["to"]) == (5, 6) and cited["text"].startswith("- W @Peter")
    part = reader.ok("memory_get", {"path": "memory/2025-11-03.md", "from": 2, "lines": 1})
    assert part["text"] == "Peter talked about the kitchen tiles with @Maggie." and part["to"] == 2


def test_memory_entity_finds_an_entity_by_alias(reader: Server) -> None:
    entity = reader.ok("memory_entity", {"name": "maggie"})
    assert entity["name"] == "Margaret" and entity["aliases"] == ["Maggie"]
    assert [m["source"] for m in entity["mentions"]] == ["memory/2025-11-03.md#L2"]
    sam = reader.ok("memory_entity", {"name": "Sam"})
    assert [o["confidence"] for o in sam["opinions"]] == [0.9]
    assert reader.error("memory_entity", {"name": "Nobody"})["code"] == "unknown_entity"


def test_memory_context_is_the_prompt_block(reader: Server) -> None:
    block = reader.ok("memory_context", {"query": "Marrakech", "budget": 500})
    assert block["text"].startswith("<memory ") and "I am Wren." in block["text"]
    assert "memory/2025-11-03.md#L6" in block["text"] and "tokens" in block["summary"]


@pytest.mark.slow  # 1.3 s
@pytest.mark.parametrize(
    ("tool", "arguments", "code", "words"),
    [
        ("memory_search", {"query": "x", "bogus": 1}, "invalid_arguments", "unknown argument(s): bogus"),
        ("memory_search", {"query": ""}, "invalid_arguments", "query must not be empty"),
        ("memory_search", {"query": "   "}, "invalid_query", "empty query"),
        ("memory_search", {"query": "q" * 10_000_000}, "invalid_arguments", "longer than 2,000 characters"),
        ("memory_search", {"query": "x", "maxResults": "ten"}, "invalid_arguments", "must be of type integer"),
        ("memory_search", {"query": "x", "since": "last tuesday"}, "invalid_query", "is not a date"),
        ("memory_search", {"query": "kitchen", "entity": "Nobody"}, "invalid_query", "unknown entity"),
        ("memory_search", {}, "invalid_arguments", "missing required argument 'query'"),
        ("memory_get", {"path": "../outside.md"}, "outside_workspace", "leaves the workspace"),
        ("memory_get", {"path": "/etc/passwd"}, "outside_workspace", "not a workspace-relative path"),
        ("memory_get", {"path": ".git/config"}, "not_memory", "hidden folder"),
        ("memory_get", {"path": "bank/secret.md"}, "private", "private"),
        ("memory_get", {"path": "nothing.md"}, "not_found", "not a memory file"),
        ("memory_get", {"path": "memory.md", "lines": 10**9}, "invalid_arguments", "lines must be at most 2000"),
        ("memory_get", {"path": "memory.md", "from": 50}, "out_of_range", "has 2 lines"),
        ("memory_remember", {"kind": "W", "content": "x"}, "read_only", "--allow-write"),
    ],
)
def test_bad_calls_are_tool_errors_and_the_server_keeps_serving(
    reader: Server, tool: str, arguments: dict[str, Any], code: str, words: str
) -> None:
    error = reader.error(tool, arguments)
    assert error["code"] == code and words in error["message"]
    assert reader.ok("memory_search", {"query": "kitchen"})["results"]


def test_an_unknown_tool_is_a_protocol_error(reader: Server) -> None:
    with pytest.raises(MCPError, match="Unknown tool: memory_delete"):
        reader.call("memory_delete", {})
    assert reader.ok("memory_search", {"query": "kitchen"})["results"]


def test_files_changed_while_the_server_runs_are_picked_up(reader: Server) -> None:
    new = reader.root / "memory/2025-11-06.md"
    new.write_text("# Thu\nPlanning a zanzibar holiday with @Maggie.\n", encoding="utf-8")
    found = reader.ok("memory_search", {"query": "zanzibar"})["results"]
    assert [r["citation"] for r in found] == ["memory/2025-11-06.md#L2"]
    assert len(reader.ok("memory_entity", {"name": "Margaret"})["mentions"]) == 2
    new.unlink()
    assert reader.ok("memory_search", {"query": "zanzibar"})["results"] == []
    assert len(reader.ok("memory_entity", {"name": "Margaret"})["mentions"]) == 1


def test_a_same_size_edit_that_keeps_the_modification_time_is_picked_up(reader: Server) -> None:
    day = reader.root / "memory/2025-11-07.md"
    day.write_text("# Fri\nA walk to the lighthouse with @Maggie.\n", encoding="utf-8")
    assert reader.ok("memory_search", {"query": "lighthouse"})["results"]
    before = day.stat()
    day.write_text("# Fri\nA walk to the watermill with @Maggie.\n", encoding="utf-8")
    os.utime(day, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert reader.ok("memory_search", {"query": "lighthouse"})["results"] == []
    assert [r["citation"] for r in reader.ok("memory_search", {"query": "watermill"})["results"]] == [
        "memory/2025-11-07.md#L2"
    ]
    day.unlink()


@pytest.mark.slow  # 1.1 s
def test_remember_appends_a_retain_fact_to_todays_log(writer: Server) -> None:
    log = writer.root / f"memory/{dt.date.today().isoformat()}.md"
    first = writer.ok(
        "memory_remember", {"kind": "O", "content": "Tea beats coffee.", "entities": ["Sam"], "confidence": 0.7}
    )
    assert first["citation"] == f"{log.relative_to(writer.root).as_posix()}#L4"
    assert (
        log.read_text(encoding="utf-8")
        == f"# {dt.date.today().isoformat()}\n\n## Retain\n- O(c=0.7) @Sam: Tea beats coffee.\n"
    )
    log.write_text(log.read_text(encoding="utf-8") + "\n## Later\nA person wrote this.\n", encoding="utf-8")
    second = writer.ok("memory_remember", {"kind": "W", "content": "The studio opens at nine."})
    assert second["line"] == 5
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[3:] == [
        "- O(c=0.7) @Sam: Tea beats coffee.",
        "- W: The studio opens at nine.",
        "",
        "## Later",
        "A person wrote this.",
    ]
    found = writer.ok("memory_search", {"query": "studio opens nine"})["results"]
    assert found[0]["citation"] == second["citation"]


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"kind": "X", "content": "x"}, "invalid_arguments"),
        ({"kind": "W", "content": "x", "confidence": 0.5}, "invalid_confidence"),
        ({"kind": "O", "content": "x", "confidence": 1.5}, "invalid_arguments"),
        ({"kind": "W", "content": "two\nlines"}, "invalid_content"),
        ({"kind": "W", "content": "hide <!-- the rest"}, "invalid_content"),
        ({"kind": "W", "content": "x", "entities": ["no spaces allowed"]}, "invalid_entities"),
        ({"kind": "W", "content": "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789abcdef"}, "credential"),
    ],
)
def test_remember_refuses_what_is_not_a_fact_and_writes_nothing(
    writer: Server, arguments: dict[str, Any], code: str
) -> None:
    before = sorted((p.as_posix(), p.read_bytes()) for p in (writer.root / "memory").iterdir())
    assert writer.error("memory_remember", arguments)["code"] == code
    assert sorted((p.as_posix(), p.read_bytes()) for p in (writer.root / "memory").iterdir()) == before


def test_remember_leaves_a_log_open_in_an_editor_alone(writer: Server) -> None:
    log = writer.root / f"memory/{dt.date.today().isoformat()}.md"
    swap = log.with_name(f".{log.name}.swp")
    swap.write_bytes(b"vim swap")
    before = log.read_bytes() if log.exists() else None
    try:
        error = writer.error("memory_remember", {"kind": "W", "content": "Written while vim has it open."})
    finally:
        swap.unlink()
    assert error["code"] == "open_in_editor" and swap.name in error["message"]
    assert (log.read_bytes() if log.exists() else None) == before
    assert writer.ok("memory_remember", {"kind": "W", "content": "Written once vim closed it."})["path"]


def test_recall_help_does_not_import_the_mcp_sdk() -> None:
    code = "import sys; from site_builder.cli import main\ntry: main(['recall', '--help'])\nexcept SystemExit: pass\n"
    code += "print(sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'jsonschema'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert out.strip().endswith("[]")


@pytest.mark.slow  # 2.0 s
def test_a_search_on_unchanged_files_loads_no_parser_or_renderer_in_the_server(tmp_path: Path) -> None:
    ws = write_workspace(tmp_path / "ws", FILES)
    stamp = (ws / "memory.md").stat().st_mtime - 3600  # old enough for the index to trust every stamp
    for path in ws.rglob("*.md"):
        os.utime(path, (stamp, stamp))
    subprocess.run([sys.executable, "-m", "site_builder", "recall", "kitchen", str(ws)], check=True, cwd=REPO)
    code = (
        "import sys\nfrom site_builder.io.reader import open_workspace\nfrom site_builder.mcp.live import LiveWorkspace\n"
        "from site_builder.mcp.server import make_server\nfrom site_builder.mcp.tools import MemoryTools\n"
        f"tools = MemoryTools(LiveWorkspace(open_workspace({str(ws)!r})), allow_write=True)\nmake_server(tools)\n"
        "print(tools.call('memory_search', {'query': 'kitchen tiles'})['results'][0]['path'])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('site_builder.parse.note', 'site_builder.parse.front',"
        " 'site_builder.parse.credentials', 'site_builder.recall.bundle', 'site_builder.site', 'mistune', 'yaml'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert out.split("\n")[:2] == ["memory/2025-11-03.md", "[]"], out
