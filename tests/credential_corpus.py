"""The labelled credential corpus (``tests/corpus/credentials.txt``) and how a detector scores on it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus" / "credentials.txt"


@dataclass(frozen=True)
class Sample:
    secret: bool
    label: str  # the shape of the secret, or where the clean text comes from
    text: str
    value: str  # the secret itself ("" for clean text)
    line: int  # line of the corpus file


def load_corpus(path: Path = CORPUS) -> list[Sample]:
    samples = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        kind, label, text = (part.strip() for part in raw.split(" | ", 2))
        assert kind in ("secret", "clean"), f"{path.name}:{number}: {kind!r}"
        text = text.replace("§", "").replace("\\n", "\n")
        value = ""
        if kind == "secret":
            start, end = text.index("⟦"), text.index("⟧")
            value = text[start + 1 : end]
            text = text[:start] + value + text[end + 1 :]
        samples.append(Sample(kind == "secret", label, text, value, number))
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
