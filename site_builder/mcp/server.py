"""The MCP server over stdio, on the official ``mcp`` SDK's low-level ``Server``.

The only module that imports the SDK (``memwiki mcp`` imports it, nothing
else does). Tools are listed with their JSON schemas, output schemas and
read-only hints; a call answers with structured content and the same JSON as
text. A call the tool cannot answer (bad arguments, a path outside the
workspace, a log changed while writing) is a tool error with
``{"error": {"code", "message"}}``, and the server keeps serving; an unknown
tool is a JSON-RPC "invalid params" error.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import signal
import sys
from typing import Any

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from site_builder import __version__
from site_builder.io.reader import Workspace
from site_builder.mcp.live import LiveWorkspace
from site_builder.mcp.tools import MemoryTools, ToolError

INSTRUCTIONS = (
    "Long-term memory of this agent (a memwiki workspace). Before answering about past work, people, dates or "
    "decisions, call memory_search; quote the citation (path#Lline) of every remembered fact you use. "
    "memory_entity gives everything about one name; memory_get reads the lines around a citation; "
    "memory_context gives a block to read at the start of a task."
)


def make_server(tools: MemoryTools) -> Server[Any]:
    """A low-level SDK server answering ``tools``."""

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[
                types.Tool(
                    name=spec.name,
                    title=spec.title,
                    description=spec.description,
                    input_schema=spec.input_schema,
                    output_schema=spec.output_schema,
                    annotations=types.ToolAnnotations(
                        title=spec.title,
                        read_only_hint=spec.read_only,
                        destructive_hint=False,
                        idempotent_hint=spec.read_only,
                        open_world_hint=False,
                    ),
                )
                for spec in tools.specs.values()
            ]
        )

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        name = params.name
        if name not in {"memory_remember"} | set(tools.specs):
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name[:100]}")
        try:
            answer = tools.call(name, params.arguments or {})
        except ToolError as exc:
            return _error(exc.code, str(exc))
        except Exception as exc:  # a bug or the disk: say so, keep serving
            logging.getLogger("memwiki.mcp").exception("%s failed", name)
            return _error("internal_error", f"{name} failed: {type(exc).__name__}: {exc}"[:1000])
        text = json.dumps(answer, ensure_ascii=False)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=answer)

    return Server(
        "memwiki",
        version=__version__,
        title="memwiki memory",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def _error(code: str, message: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message)],
        structured_content={"error": {"code": code, "message": message}},
        is_error=True,
    )


def serve_stdio(workspace: Workspace, *, allow_write: bool, now: dt.date | None) -> None:
    """Serve the workspace's memory over stdin/stdout until the client closes them."""
    logging.basicConfig(level=logging.WARNING)  # the SDK logs to stderr; stdout is the protocol
    tools = MemoryTools(LiveWorkspace(workspace), allow_write=allow_write, now=now)
    server = make_server(tools)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    tools_named = ", ".join(tools.specs)
    print(f"memwiki mcp: serving {workspace.root} over stdio ({tools_named}); Ctrl-C stops", file=sys.stderr)
    # The SDK reads stdin in a thread that cancelling does not wake, so Ctrl-C would wait for the next line of
    # input: stop at once instead (nothing is pending; every write is atomic).
    signal.signal(signal.SIGINT, _stop)
    anyio.run(run)


def _stop(signum: int, frame: object) -> None:
    sys.stderr.write("memwiki mcp: stopped\n")
    sys.stderr.flush()
    os._exit(128 + signum)
