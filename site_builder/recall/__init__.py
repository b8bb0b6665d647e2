"""What agents read: recall.json, the SQLite FTS5 index and its ranked search, time words, the context block."""
