"""Credentials: precision and recall of memwiki's detector and of detect-secrets, on the labelled corpus
and on real workspaces.

    python tests/bench/bench_credentials.py [--real ../shared/real] [--list]

Two corpora, scored apart: ``tests/corpus/credentials.txt`` (secrets that carry their own shape, values after
labels, and look-alikes from code and docs) and ``tests/corpus/credentials_context.txt`` (values that are secrets
by where they stand: table columns and row labels, list labels, front matter, ``user:pass@``; written
independently of the detector). memwiki catches a sample when it reports it and no output holds any of its
secrets; detect-secrets (1.5.0, default plugins, scanning each sample as a Markdown file) catches it when each
of its secrets overlaps one of its findings. "Both" flags what either flags. On real workspaces the script
counts what each reports; ``--list`` prints each warning so that a person can judge it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from detect_secrets.core.secrets_collection import SecretsCollection
from detect_secrets.settings import default_settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, for tests.*
from site_builder.parse.credentials import redact
from tests.credential_corpus import CONTEXT_CORPUS, CORPUS, Sample, Score, load_corpus, score


def memwiki_flags(sample: Sample) -> bool:
    redacted, found = redact(sample.text)
    return bool(found) and (not sample.secret or sample.hidden_in(redacted))


def detect_secrets_values(text: str, folder: Path) -> list[tuple[int, str]]:
    """(line, secret) of each finding of detect-secrets' default plugins, the text scanned as a Markdown file."""
    path = folder / "sample.md"
    path.write_text(text, encoding="utf-8")
    collection = SecretsCollection()
    with default_settings():
        collection.scan_file(str(path))
    return [(secret.line_number, secret.secret_value or "") for _, secret in collection]


def detect_secrets_flags(folder: Path) -> Callable[[Sample], bool]:
    def flags(sample: Sample) -> bool:
        found = detect_secrets_values(sample.text, folder)
        if not sample.secret:
            return bool(found)
        return all(
            any(value and (value in secret or secret in value) for _, value in found) for secret in sample.values
        )

    return flags


def either_flags(theirs: Callable[[Sample], bool]) -> Callable[[Sample], bool]:
    """Flags what memwiki or detect-secrets flags."""
    return lambda sample: memwiki_flags(sample) or theirs(sample)


def show(name: str, result: Score, listing: bool) -> None:
    caught, missed, alarms = len(result.caught), len(result.missed), len(result.false_alarms)
    print(
        f"{name:<16} recall {result.recall:6.1%} ({caught}/{caught + missed})   "
        f"precision {result.precision:6.1%} ({alarms} false alarm(s))"
    )
    if listing:
        for sample in result.missed:
            print(f"    missed      line {sample.line}: {sample.label}")
        for sample in result.false_alarms:
            print(f"    false alarm line {sample.line}: {sample.label}")


def real_workspaces(root: Path, folder: Path, listing: bool) -> None:
    print(f"\nReal workspaces under {root}: warnings (lines reported)")
    for workspace in sorted(p for p in root.iterdir() if p.is_dir()):
        ours = theirs = 0
        for path in sorted(workspace.rglob("*")):
            parts = path.relative_to(workspace).parts
            if path.suffix not in (".md", ".jsonl") or any(p.startswith(".") or p == "_site" for p in parts):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            lines = text.split("\n")
            found = sorted({f.line for f in redact(text)[1]})
            their_lines = sorted({line for line, _ in detect_secrets_values(text, folder)})
            ours, theirs = ours + len(found), theirs + len(their_lines)
            if listing:
                for tool, numbers in (("memwiki", found), ("detect-secrets", their_lines)):
                    for number in numbers:
                        shown = lines[number - 1].strip()[:110] if number <= len(lines) else ""
                        print(f"    {tool:<14} {path.relative_to(root)}:{number}: {shown}")
        print(f"  {workspace.name:<24} memwiki {ours:4}   detect-secrets {theirs:5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--real", type=Path, help="a folder of workspaces to count warnings on (read only)")
    parser.add_argument("--list", action="store_true", help="list every miss, false alarm and real warning")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for corpus in (CORPUS, CONTEXT_CORPUS):
            samples = load_corpus(corpus)
            secrets = [s for s in samples if s.secret]
            print(
                f"\n{corpus.name}: {len(secrets)} samples with secrets ({sum(len(s.values) for s in secrets)} values), "
                f"{len(samples) - len(secrets)} look-alikes"
            )
            ours = score(samples, memwiki_flags)
            theirs = score(samples, detect_secrets_flags(folder))
            both = score(samples, either_flags(detect_secrets_flags(folder)))
            show("memwiki", ours, args.list)
            show("detect-secrets", theirs, args.list)
            show("either", both, False)
        if args.real:
            real_workspaces(args.real, folder, args.list)


if __name__ == "__main__":
    main()
