"""What the Claude reflector asks and what it accepts: the prompt and forced tool of an entity's summary and of a
belief's verdicts, and the checks an answer must pass before it is kept (``reflect.claude`` sends them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from anthropic.types import ToolParam

from site_builder.core.model import KIND_NAMES
from site_builder.library.opinions import VERDICTS
from site_builder.reflect.reflector import EntityInput, MalformedAnswer, VerdictInput

MAX_FACTS_IN_PROMPT = 60

SUMMARY_SYSTEM = (
    "You keep the wiki of an AI assistant's long-term memory. Write the summary paragraph of one entity's page "
    "from the facts given and nothing else: 2 to 4 plain sentences, most important and most recent first, with "
    "dates where they matter. No lists, headings, speculation or advice. Write about the assistant's own actions "
    "in the first person ('I')."
)
SUMMARY_TOOL: ToolParam = {
    "name": "write_summary",
    "description": "Record the entity's summary paragraph.",
    "input_schema": {
        "type": "object",
        "properties": {"summary": {"type": "string", "description": "2 to 4 sentences of plain prose."}},
        "required": ["summary"],
    },
}
VERDICT_SYSTEM = (
    "You judge new facts as evidence for a belief an AI assistant holds. For each fact answer: 'reinforces' "
    "(makes the belief more likely true), 'weakens' (somewhat less likely), 'contradicts' (clearly shows it is "
    "false), or 'irrelevant'. Judge only from the fact's text."
)
VERDICT_TOOL: ToolParam = {
    "name": "judge_evidence",
    "description": "Record a verdict for every fact.",
    "input_schema": {
        "type": "object",
        "properties": {
            "verdicts": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "fact_id": {"type": "string"},
                        "verdict": {"type": "string", "enum": list(VERDICTS)},
                        "reason": {"type": "string"},
                    },
                    "required": ["fact_id", "verdict"],
                },
            }
        },
        "required": ["verdicts"],
    },
}


@dataclass(frozen=True)
class Job:
    """One request to Claude: its prompt and forced tool, and what a warning names if it fails."""

    what: str  # for messages: "entity Anna", "opinion concise-replies"
    path: str  # the page whose text stays if this fails
    tool: ToolParam
    system: str
    prompt: str
    max_tokens: int


def summary_job(entity: EntityInput) -> Job:
    """The request for an entity's summary: its own text, its latest facts, the beliefs about it."""
    lines = [f"Entity: {entity.name}" + (f" ({entity.type})" if entity.type else "")]
    if entity.text:
        lines += ["", "The page's own text, written by a person:", "<page>", entity.text, "</page>"]
    lines += ["", "Facts, oldest first (date · kind · fact):"]
    for fact in entity.facts[-MAX_FACTS_IN_PROMPT:]:
        date = fact.date.isoformat() if fact.date else "undated"
        lines.append(f"- {date} · {KIND_NAMES[fact.kind]} · {fact.content}")
    if entity.opinions:
        lines += ["", "Beliefs about it (confidence):"]
        lines += [f"- {o.confidence:.2f} {o.statement}" for o in entity.opinions]
    if entity.related:
        lines += ["", f"Often mentioned with: {', '.join(entity.related)}"]
    return Job(f"entity {entity.name}", entity.path, SUMMARY_TOOL, SUMMARY_SYSTEM, "\n".join(lines), 600)


def verdict_job(item: VerdictInput, facts: list[Any]) -> Job:
    """The request for verdicts on one batch of new facts about a belief."""
    opinion = item.opinion
    lines = [f"Belief: {opinion.statement}", f"Current confidence: {opinion.confidence:.2f}", "", "Facts:"]
    for fact in facts:
        date = fact.date.isoformat() if fact.date else "undated"
        lines.append(f"- [{fact.id}] {date}: {fact.content}")
    return Job(f"opinion {opinion.id}", "bank/opinions.md", VERDICT_TOOL, VERDICT_SYSTEM, "\n".join(lines), 1500)


def check_summary(answer: dict[str, Any]) -> None:
    """A summary answer is kept only when it is some text of a paragraph's length."""
    summary = answer.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        raise MalformedAnswer("the summary is missing or empty")
    if len(summary) > 2000:
        raise MalformedAnswer("the summary is too long")


def check_verdicts(answer: dict[str, Any]) -> None:
    """A verdicts answer is kept only when every verdict names a fact and is one ``VERDICTS`` knows."""
    verdicts = answer.get("verdicts")
    if not isinstance(verdicts, list):
        raise MalformedAnswer("'verdicts' is not a list")
    for item in verdicts:
        if not isinstance(item, dict) or not isinstance(item.get("fact_id"), str):
            raise MalformedAnswer("a verdict without a fact_id")
        if item.get("verdict") not in VERDICTS:
            raise MalformedAnswer(f"unknown verdict {item.get('verdict')!r}")
