"""Names to entity keys, read from the recall index's ``aliases`` table one name at a time."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping


class AliasLookup(Mapping[str, str]):
    """The ``aliases`` table as a mapping from a folded name to its entity key, read one name at a time: a query
    names a few words, a workspace may have thousands of aliases. Where two rows fold to one name the later row
    wins, as in a dict made from the whole table."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._found: dict[str, str | None] = {}

    def _key(self, name: str) -> str | None:
        if name not in self._found:
            row = self._db.execute(
                "SELECT key FROM aliases WHERE folded = ? ORDER BY rowid DESC LIMIT 1", (name,)
            ).fetchone()
            self._found[name] = None if row is None else str(row[0])
        return self._found[name]

    def __getitem__(self, name: str) -> str:
        key = self._key(name)
        if key is None:
            raise KeyError(name)
        return key

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._key(name) is not None

    def _whole(self) -> dict[str, str]:
        return {
            str(folded): str(key) for folded, key in self._db.execute("SELECT folded, key FROM aliases ORDER BY rowid")
        }

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())
