"""The ``opinions`` block reflect keeps in ``bank/opinions.md``: readable Markdown that is also the record.

Per opinion: a heading with the statement, a line with its id, entities,
confidence and last change, a history table (one row per point, naming the
fact that set it) and the evidence for and against. ``site_builder.parse.blocks``
reads the table back, so the history survives every run; rows are never removed.
"""

from __future__ import annotations

from site_builder.core.model import Opinion
from site_builder.reflect.blocks import source_link


def render_opinion_block(opinions: list[Opinion], path: str = "bank/opinions.md") -> str:
    lines = [
        "## Confidence and evidence",
        "",
        "Kept by `memwiki reflect`: each row is a point in the opinion's history, in date order, and",
        "names the fact that set it. Rows are never removed. Edit the opinions above, not this block.",
    ]
    up = source_link(path, "")  # what leads from the page to a citation (worked out once: a million rows)
    for opinion in sorted(opinions, key=lambda o: o.id):
        about = ", ".join(f"[[{name}]]" for name in opinion.entities) or "nothing in particular"
        changed = opinion.changed.isoformat() if opinion.changed else "never"
        lines += [
            "",
            f"### {_one_line(opinion.statement)}",
            "",
            f"Id `{opinion.id}` · about {about} · confidence **{opinion.confidence:.2f}** · last changed {changed}",
            "",
            "| Date | Confidence | Change | Fact | Source |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| {p.date.isoformat() if p.date else '—'} | {p.confidence:.2f} | {p.change} | `{p.fact_id}` | "
            f"[{p.source}]({up}{p.source}) |"
            for p in opinion.history
        ]
        support = [e.fact for e in opinion.evidence if e.stance in ("supports", "reinforces")]
        against = [e.fact for e in opinion.evidence if e.stance in ("contradicts", "weakens")]
        for label, facts in (("For", support), ("Against", against)):
            if facts:
                sources = [fact.source for fact in facts]
                cites = ", ".join([f"[{f.date or s}]({up}{s})" for f, s in zip(facts, sources, strict=True)])
                lines += ["", f"{label}: {cites}"]
    return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    return " ".join(text.split())
