"""Write a seeded synthetic workspace for benchmarks.

    python tests/bench/gen_corpus.py OUT --days 365 --entities 100 [--seed 7]

Each daily log has a few narrative lines with @mentions and [[wikilinks]] and a
Retain section of typed facts; opinions are restated with drifting confidence.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
from pathlib import Path

WORDS = [
    "deploy",
    "review",
    "invoice",
    "schema",
    "dashboard",
    "meeting",
    "trip",
    "budget",
    "tiles",
    "parser",
    "release",
    "alert",
    "latency",
    "partition",
    "customer",
    "report",
    "draft",
    "call",
    "lunch",
    "market",
    "studio",
    "contract",
    "migration",
    "backup",
    "outage",
    "roadmap",
    "hiring",
    "design",
    "feedback",
    "test",
    "benchmark",
]
KINDS = "WWWBBSO"


def generate(out: Path, days: int, entities: int, seed: int = 7, opinions: int = 0) -> dict[str, int]:
    rng = random.Random(seed)
    names = [f"Entity{i:05d}" for i in range(entities)]
    opinions = opinions or max(6, entities // 10)
    (out / "memory").mkdir(parents=True, exist_ok=True)
    (out / "bank" / "entities").mkdir(parents=True, exist_ok=True)
    (out / "memory.md").write_text("# Core memory\n\n- Synthetic workspace for benchmarks.\n", encoding="utf-8")
    for i, name in enumerate(names):
        body = f"---\ntype: {('person', 'place', 'project', 'tool')[i % 4]}\naliases: [E{i}]\n---\n# {name}\n\n"
        body += f"Works with [[{rng.choice(names)}]] on {rng.choice(WORDS)}.\n"
        (out / "bank" / "entities" / f"{name}.md").write_text(body, encoding="utf-8")
    confidence = [rng.uniform(0.3, 0.9) for _ in range(opinions)]
    lines = ["# Opinions", ""]
    for j in range(opinions):
        lines.append(f"- O(c={confidence[j]:.2f}) @{names[j % entities]}: Statement number {j} holds. ^op-{j}")
    (out / "bank" / "opinions.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    start = dt.date(2000, 1, 1)
    facts = 0
    for d in range(days):
        day = start + dt.timedelta(days=d)
        text = [f"# {day.isoformat()}", ""]
        for _ in range(rng.randint(3, 8)):
            a, b = rng.sample(names, 2) if entities > 1 else (names[0], names[0])
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14)))
            text.append(f"Talked with @{a} about {words}, see [[{b}]].")
        text += ["", "## Retain"]
        for _ in range(rng.randint(2, 5)):
            kind = rng.choice(KINDS)
            who = rng.choice(names)
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 12)))
            if kind == "O":
                j = rng.randrange(opinions)
                confidence[j] = min(1.0, max(0.0, confidence[j] + rng.uniform(-0.1, 0.1)))
                text.append(
                    f"- O(c={confidence[j]:.2f}) @{names[j % entities]}: Statement number {j} holds, {words}. ^op-{j}"
                )
            else:
                text.append(f"- {kind} @{who}: {words.capitalize()}.")
            facts += 1
        (out / "memory" / f"{day.isoformat()}.md").write_text("\n".join(text) + "\n", encoding="utf-8")
    return {"days": days, "entities": entities, "facts": facts, "opinions": opinions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--entities", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(generate(args.out, args.days, args.entities, args.seed))


if __name__ == "__main__":
    main()
