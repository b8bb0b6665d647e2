"""Credentials: precision and recall of memwiki's detector and of detect-secrets, on the labelled corpus
and on real workspaces.

    python tests/bench/bench_credentials.py [--real ../shared/real] [--list]

The corpus is ``tests/corpus/credentials.txt``: secrets (each with the value that must be found) and
look-alikes from code and docs. memwiki catches a secret when it reports it and no output holds it;
detect-secrets (1.5.0, default plugins, scanning each sample as a Markdown file) catches it when one of
its findings is part of the secret. "Both" flags what either flags. On real workspaces the script
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
from tests.credential_corpus import Sample, Score, load_corpus, score


def memwiki_flags(sample: Sample) -> bool:
    redacted, found = redact(sample.text)
    return bool(found) and (not sample.secret or sample.value not in redacted)


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
        return any(value and (value in sample.value or sample.value in value) for _, value in found)

    return flags


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
    samples = load_corpus()
    secrets = [s for s in samples if s.secret]
    print(
        f"Corpus: {len(secrets)} secrets of {len({s.label for s in secrets})} shapes, {len(samples) - len(secrets)} look-alikes"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ours = score(samples, memwiki_flags)
        theirs = score(samples, detect_secrets_flags(folder))
        either = detect_secrets_flags(folder)
        both = score(samples, lambda s: memwiki_flags(s) or either(s))
        show("memwiki", ours, args.list)
        show("detect-secrets", theirs, args.list)
        show("either", both, False)
        if args.real:
            real_workspaces(args.real, folder, args.list)


if __name__ == "__main__":
    main()
