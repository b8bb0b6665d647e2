"""The commands an agent uses: ``recall`` and ``context`` answer it from the workspace, ``mcp`` serves it the
memory as MCP tools. Each imports what it needs when it runs, so ``memwiki recall`` starts fast."""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from site_builder.cli.options import workspace_argument
from site_builder.core.diagnostics import Diagnostics
from site_builder.io.reader import WorkspaceError, open_workspace
from site_builder.library.agent_view import FORMATS
from site_builder.recall.query import DEFAULT_K

if TYPE_CHECKING:
    from site_builder.recall.hits import Hit
    from site_builder.recall.index import RecallIndex
    from site_builder.recall.query import QueryError, RecallQuery


@click.command("recall")
@click.argument("query", required=False)
@click.argument(
    "workspace_arg", metavar="[WORKSPACE]", required=False, type=click.Path(file_okay=False, path_type=Path)
)
@click.option(
    "-w",
    "--workspace",
    type=click.Path(file_okay=False, path_type=Path),
    help="Workspace folder (or give it after QUERY; default: the current folder).",
)
@click.option("--k", "k", type=click.IntRange(1, 1000), default=DEFAULT_K, show_default=True, help="Results to return.")
@click.option(
    "--since",
    help="Only lines dated on/after this: YYYY-MM-DD, a span back from today (30d, 2w, 6m, 1y) "
    "or time words ('yesterday', 'last week', 'in November 2025').",
)
@click.option("--until", help="Only lines dated on/before this (a date, a span or time words; their last day).")
@click.option("--now", help="Count relative times from this day (YYYY-MM-DD) instead of today: archived workspaces.")
@click.option("--entity", help="Only lines about this entity (name or alias).")
@click.option("--kind", type=click.Choice(["W", "B", "O", "S", "log", "page"]), help="Only this kind of line.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option(
    "--queries",
    type=click.File("r", encoding="utf-8"),
    help="Answer one query per line of FILE ('-' for stdin); prints one JSON object per line.",
)
def recall_command(
    query: str | None,
    workspace_arg: Path | None,
    workspace: Path | None,
    k: int,
    since: str | None,
    until: str | None,
    now: str | None,
    entity: str | None,
    kind: str | None,
    as_json: bool,
    queries: TextIO | None,
) -> None:
    """Answer QUERY from WORKSPACE with ranked, dated, cited lines."""
    from site_builder.recall.ahead import answer_fresh
    from site_builder.recall.query import QueryError, make_query, parse_now

    query, path = _recall_arguments(query, workspace_arg, workspace, queries)
    try:
        today = parse_now(now)
        base = make_query("", k=k, since=since, until=until, entity=entity, kind=kind, today=today)
        _, index, answer = answer_fresh(path, Diagnostics(), functools.partial(_ask, base, query, entity))
        if answer[0] is not None:
            raise answer[0]
    except (WorkspaceError, QueryError) as exc:
        raise click.ClickException(str(exc)) from None
    if index.is_empty():
        click.echo("warning: the workspace has no facts or log lines to search", err=True)
    if queries is not None:
        _answer_each(index, base, queries)
        return
    hits = answer[1]
    if isinstance(hits, QueryError):
        raise click.ClickException(str(hits))
    _print_answer(index, dataclasses.replace(base, text=query or ""), hits, as_json)


def _recall_arguments(
    query: str | None, workspace_arg: Path | None, workspace: Path | None, queries: TextIO | None
) -> tuple[str | None, Path]:
    """The query (None with ``--queries``) and the workspace's folder, from ``recall``'s arguments: with
    ``--queries FILE`` the one argument given is the workspace. A usage error when both a query and ``--queries``
    or neither are given, or two workspaces."""
    if queries is not None and query is not None and workspace_arg is None:
        workspace_arg = Path(query)  # `recall --queries FILE WORKSPACE`
        query = None
    if (query is None) == (queries is None):
        raise click.UsageError("give a QUERY or --queries FILE (not both)")
    if workspace is not None and workspace_arg is not None and workspace.resolve() != workspace_arg.resolve():
        raise click.UsageError(f"two workspaces given: {workspace_arg} and -w {workspace}")
    return query, workspace or workspace_arg or Path()


def _ask(
    base: RecallQuery, query: str | None, entity: str | None, index: RecallIndex
) -> tuple[QueryError | None, list[Hit] | QueryError]:
    """(what is wrong with --entity, the hits for ``query`` or what is wrong with it)."""
    from site_builder.recall.entity_naming import resolve_entity
    from site_builder.recall.query import QueryError
    from site_builder.recall.search import search

    try:
        if entity:
            resolve_entity(index, entity)
    except QueryError as exc:
        return exc, []
    try:
        return None, search(index, dataclasses.replace(base, text=query)) if query is not None else []
    except QueryError as exc:
        return None, exc


def _answer_each(index: RecallIndex, base: RecallQuery, queries: TextIO) -> None:
    """Answer each line of ``queries`` as a JSON line (``--queries``)."""
    from site_builder.recall.search import answer_json

    for line in queries:
        record = answer_json(index, dataclasses.replace(base, text=line.rstrip("\n")))
        click.echo(json.dumps(record, ensure_ascii=False))


def _print_answer(index: RecallIndex, query: RecallQuery, hits: list[Hit], as_json: bool) -> None:
    """The hits, as text or JSON; an empty answer says why (``recall.empty_answer``)."""
    record: dict[str, object] = {"query": query.text, "results": [h.as_json() for h in hits]}
    if not hits:
        from site_builder.recall.empty_answer import why_nothing

        record["note"] = why_nothing(index, query)
    if as_json:
        click.echo(json.dumps(record, ensure_ascii=False, indent=2))
        return
    if not hits:
        click.echo(f"Nothing found. {record['note']}")
    for rank, hit in enumerate(hits, 1):
        click.echo(hit.as_text(rank))


@click.command("mcp")
@workspace_argument
@click.option("--allow-write", is_flag=True, help="Offer memory_remember (appends Retain facts to today's log).")
@click.option("--now", help="Count relative times from this day (YYYY-MM-DD) instead of today: archived workspaces.")
def mcp_command(workspace: Path, allow_write: bool, now: str | None) -> None:
    """Serve WORKSPACE's memory to agents as MCP tools over stdio (memory_search, memory_get, ...)."""
    from site_builder.recall.query import QueryError, parse_now

    try:
        opened = open_workspace(workspace)
        today = parse_now(now) if now else None
    except (WorkspaceError, QueryError) as exc:
        raise click.ClickException(str(exc)) from None
    from site_builder.mcp.server import serve_stdio  # imports the mcp SDK: only this command needs it

    serve_stdio(opened, allow_write=allow_write, now=today)


@click.command("context")
@workspace_argument
@click.option("--budget", type=click.IntRange(50, 1_000_000), help="Token budget (default: core memory + 4000).")
@click.option("--query", "-q", default="", help="Also include the lines most relevant to this query.")
@click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="memwiki", show_default=True, help="Whose prompt block."
)
@click.option("--budget-report", is_flag=True, help="Print what the agent loads always, lists, or finds by search.")
@click.option("--now", help="Count time words in --query from this day (YYYY-MM-DD) instead of today.")
def context_command(
    workspace: Path, budget: int | None, query: str, fmt: str, budget_report: bool, now: str | None
) -> None:
    """Print a memory block for an agent's prompt: core memory, opinions, relevant and recent facts."""
    from site_builder.load import load
    from site_builder.recall.context import context_for
    from site_builder.recall.query import QueryError, parse_now

    try:
        today = parse_now(now)
        loaded = load(workspace)
        parts = (loaded.workspace, loaded.notes, loaded.library)
        text, note = context_for(*parts, budget=budget, query=query.strip(), fmt=fmt, report=budget_report, today=today)
    except (WorkspaceError, QueryError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(text, nl=False)
    click.echo(note, err=True)
