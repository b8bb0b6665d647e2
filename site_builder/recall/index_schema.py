"""The tables of the recall index (``index.RecallIndex``) and the version that names them: an index of another
version is emptied and made again.

``docs`` holds one row per searchable line (``index_rows``) and ``docs_fts`` its words: the line, its neighbours,
its entities, the characters and pairs of its CJK runs and the headings it sits under, each a column of its own
(BM25 weighs a word by the lines that hold it in that column: ``candidates``). ``facts`` keeps what ``memory_entity``
and recall.json read of each Retain fact; ``opinion_points`` the confidence history reflect recorded; ``aliases``
every page name and alias, the names of the user and of each project (``subject``), and of each entity found in
prose (no file's own: ``index_mentions``); ``mention_tags`` the entities a build added to the lines that name them
in plain text (``index_mentions``); ``files`` the digest and stamp each file was indexed at.
"""

INDEX_VERSION = "12"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, digest TEXT NOT NULL, stamp TEXT NOT NULL, day TEXT);
CREATE TABLE IF NOT EXISTS aliases(alias TEXT NOT NULL, key TEXT NOT NULL, path TEXT NOT NULL, folded TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS aliases_key ON aliases(key);
CREATE INDEX IF NOT EXISTS aliases_folded ON aliases(folded);
CREATE TABLE IF NOT EXISTS docs(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL, line INTEGER NOT NULL, date TEXT,
    kind TEXT NOT NULL, entities TEXT NOT NULL, content TEXT NOT NULL,
    occurred TEXT, confidence REAL, opinion TEXT, prior REAL NOT NULL);
CREATE INDEX IF NOT EXISTS docs_path ON docs(path);
CREATE INDEX IF NOT EXISTS docs_opinion ON docs(opinion) WHERE opinion IS NOT NULL;
CREATE TABLE IF NOT EXISTS opinion_points(
    opinion TEXT NOT NULL, date TEXT, confidence REAL NOT NULL, source TEXT NOT NULL, path TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS opinion_points_key ON opinion_points(opinion);
CREATE TABLE IF NOT EXISTS facts(
    path TEXT NOT NULL, line INTEGER NOT NULL, id TEXT NOT NULL, kind TEXT NOT NULL, content TEXT NOT NULL,
    entities TEXT NOT NULL, date TEXT, occurred TEXT, confidence REAL, block_id TEXT, mentions TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS facts_path ON facts(path, line);
CREATE INDEX IF NOT EXISTS facts_recent ON facts(date, path, line) WHERE kind != 'O';
CREATE INDEX IF NOT EXISTS facts_opinions ON facts(path, line) WHERE kind = 'O';
CREATE INDEX IF NOT EXISTS facts_id ON facts(id);
CREATE TABLE IF NOT EXISTS mention_tags(path TEXT NOT NULL, line INTEGER NOT NULL, keys TEXT NOT NULL,
    PRIMARY KEY(path, line));
CREATE VIRTUAL TABLE IF NOT EXISTS docs_fts USING fts5(
    content, context, entities, cjk, heading, tokenize = 'porter unicode61 remove_diacritics 2');
"""
TABLES = ("files", "docs", "docs_fts", "aliases", "opinion_points", "facts", "mention_tags")
FTS_BUFFER = 16 << 20  # bytes of new terms FTS5 keeps in memory before writing them (default 1 MB): fewer merges
