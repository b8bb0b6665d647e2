"""The labelled credential corpus (``tests/corpus/credentials.txt``) and how a detector scores on it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus" / "credentials.txt"
# Values that are secrets by where they stand (tables, list labels, front matter, URLs), and their look-alikes:
# written independently of the detector, from the description only.
CONTEXT_CORPUS = CORPUS.with_name("credentials_context.txt")
MARKED = re.compile(r"⟦(.*?)⟧", re.S)


@dataclass(frozen=True)
class Sample:
    secret: bool
    label: str  # the shape of the secret, or where the clean text comes from
    text: str
    values: tuple[str, ...]  # the secrets themselves (none for clean text)
    line: int  # line of the corpus file
    corpus: str = "credentials.txt"

    @property
    def value(self) -> str:
        return self.values[0] if self.values else ""

    def hidden_in(self, redacted: str) -> bool:
        """Is every secret of the sample gone from the redacted text? A value that also stands where it is no secret
        (``guest:guest``, a username that is also the password) may stay there, as often as it does."""
        return all(
            redacted.count(value) <= self.text.count(value) - self.values.count(value) for value in set(self.values)
        )


def load_corpus(path: Path = CORPUS) -> list[Sample]:
    samples = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        kind, label, text = (part.strip() for part in raw.split(" | ", 2))
        assert kind in ("secret", "clean"), f"{path.name}:{number}: {kind!r}"
        text = text.replace("§", "").replace("\\n", "\n")
        values = tuple(MARKED.findall(text))
        assert (kind == "secret") == bool(values), f"{path.name}:{number}: a secret needs ⟦…⟧, clean text none"
        samples.append(Sample(kind == "secret", label, MARKED.sub(r"\1", text), values, number, path.name))
    return samples


@dataclass(frozen=True)
class Score:
    caught: list[Sample]  # secrets found
    missed: list[Sample]  # secrets not found
    false_alarms: list[Sample]  # clean text flagged

    @property
    def recall(self) -> float:
        return len(self.caught) / max(1, len(self.caught) + len(self.missed))

    @property
    def precision(self) -> float:
        return len(self.caught) / max(1, len(self.caught) + len(self.false_alarms))


def score(samples: list[Sample], flags: Callable[[Sample], bool]) -> Score:
    """``flags(sample)``: does the detector report (and, for memwiki, hide) the sample's secret?"""
    results = [(sample, flags(sample)) for sample in samples]
    return Score(
        caught=[s for s, hit in results if s.secret and hit],
        missed=[s for s, hit in results if s.secret and not hit],
        false_alarms=[s for s, hit in results if not s.secret and hit],
    )
