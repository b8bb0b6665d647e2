"""Every `memwiki` command and option has help text and a place in README.md's command table.

The table is the one under "## Commands" that starts ``| Command | What it does |``. Its first
cell holds each command's usage in code spans (``memwiki build [WORKSPACE] [-o DIR] ...``); an
option counts as documented when one of its names (``-o`` or ``--output``) is in a usage span
of its command. The second cell is prose and documents nothing here.
"""

from __future__ import annotations

import re

import click
import pytest

from site_builder.cli import main
from tests.conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
TABLE_HEADER = re.compile(r"^\|\s*Command\s*\|\s*What it does\s*\|\s*$", re.M)
CELL_BORDER = re.compile(r"(?<!\\)\|")  # a `\|` inside a cell is an escaped pipe, not a border
CODE_SPAN = re.compile(r"`([^`]+)`")
OPTION_NAME = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
GROUP = ""  # the usage spans of `memwiki` itself: `memwiki --version`, `memwiki COMMAND --help`


def usage_spans(readme: str) -> dict[str, str]:
    """Command name (``GROUP`` for memwiki itself) -> its usage spans from the command table, joined."""
    header = TABLE_HEADER.search(readme)
    assert header, "README.md has no '| Command | What it does |' table"
    spans: dict[str, list[str]] = {}
    for line in readme[header.end() :].lstrip("\n").splitlines()[1:]:  # [1:]: the |---|---| row
        if not line.startswith("|"):
            break
        first_cell = CELL_BORDER.split(line)[1].replace("\\|", "|")
        for span in CODE_SPAN.findall(first_cell):
            words = span.split()
            if len(words) < 2 or words[0] != "memwiki":
                continue
            command = words[1] if words[1] in main.commands else GROUP
            spans.setdefault(command, []).append(span)
    assert spans, "the command table has no `memwiki ...` usage"
    return {command: " ".join(found) for command, found in spans.items()}


def options(command: click.Command) -> list[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option) and not p.hidden]


def undocumented(group: click.Group, readme: str) -> list[str]:
    """Each command and option of ``group`` that the README's command table does not show."""
    spans = usage_spans(readme)
    missing = []
    for name, command in [(GROUP, group), *sorted(group.commands.items())]:
        label = f"memwiki {name}".rstrip()
        if command.hidden:
            continue
        if name not in spans:
            missing.append(label)
            continue
        written = set(OPTION_NAME.findall(spans[name]))
        missing += [f"{label} {'/'.join(o.opts)}" for o in options(command) if not written & set(o.opts)]
    return missing


def without_help(group: click.Group) -> list[str]:
    """Each command and option of ``group`` whose --help would say nothing about it."""
    missing = []
    for name, command in [(GROUP, group), *sorted(group.commands.items())]:
        label = f"memwiki {name}".rstrip()
        if not (command.help or command.short_help or "").strip():
            missing.append(label)
        missing += [f"{label} {'/'.join(o.opts)}" for o in options(command) if not (o.help or "").strip()]
    return missing


def test_every_command_and_option_has_help_text() -> None:
    assert without_help(main) == []


def test_every_command_and_option_is_in_the_readme_command_table() -> None:
    assert undocumented(main, README) == []


def test_the_table_is_read_from_the_readme() -> None:
    spans = usage_spans(README)
    assert set(spans) == {GROUP, *main.commands}, "every command has a row"
    assert "--provider offline|anthropic" in spans["reflect"]  # escaped pipes are read as pipes
    assert "--queries FILE" in spans["recall"]  # a command's second row counts too


# -- the checks can fail: synthetic READMEs and commands with one thing left out --------------


def edited(*changes: tuple[str, str]) -> str:
    """README.md with each ``(old, new)`` change made once."""
    text = README
    for old, new in changes:
        assert old in text, f"{old!r} is no longer in README.md; pick another part for this case"
        text = text.replace(old, new, 1)
    return text


CONTEXT_ROWS = [line for line in README.splitlines() if line.startswith("| `memwiki context ")]


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        pytest.param(edited((" [--no-search]", "")), "memwiki build --no-search", id="option removed"),
        pytest.param(edited((" [-o DIR]", "")), "memwiki build -o/--output", id="short option removed"),
        pytest.param(edited((" [--json]", "")), "memwiki recall --json", id="option of a two-row command removed"),
        pytest.param(edited(*((row + "\n", "") for row in CONTEXT_ROWS)), "memwiki context", id="command rows removed"),
        pytest.param(
            edited((" [--no-search]", ""), ("Reflect, then render the site", "Reflect (`--no-search` skips...)")),
            "memwiki build --no-search",
            id="named only in the prose cell",
        ),
        pytest.param(
            edited(("`memwiki --version`, ", "")), "memwiki --version/-V", id="option of memwiki itself removed"
        ),
        pytest.param(edited(("[--since WHEN]", "[--since DATE]")), None, id="other values still count"),
    ],
)
def test_a_readme_missing_an_option_or_command_fails(readme: str, expected: str | None) -> None:
    found = set(undocumented(main, readme))
    if expected is None:
        assert found == set()
    else:
        assert found == {expected}


def test_a_readme_without_the_table_fails() -> None:
    with pytest.raises(AssertionError, match=re.escape("no '| Command | What it does |' table")):
        undocumented(main, README.replace("| Command | What it does |", "| Cmd | Does |"))


def test_a_command_or_option_without_help_fails() -> None:
    @click.group(help="A tool.")
    def tool() -> None:
        """A tool."""

    @tool.command("quiet")
    @click.option("--loud", is_flag=True)
    @click.option("--soft", is_flag=True, help="Softly.")
    def quiet(loud: bool, soft: bool) -> None:
        pass

    assert without_help(tool) == ["memwiki quiet", "memwiki quiet --loud"]
