"""Values that are credentials because of where they are written: a table column or row, a list item's label, a
front-matter key.

Agents keep a home server's logins the way people do::

    | Service | Username | Password |        - **API key:** `3f9c…`
    |---------|----------|----------|        - password — changeme
    | Plex    | admin    | hunter2  |        ---\\napi_key: 3f9c…\\n---

There the label says what the value is, so the value needs no shape of its own: under a password, any single
word is the password ("admin", "changeme"); under a token, key or secret, a value that looks random (hex or
base64 of 24 characters, letters and digits mixed). What stays readable: names of secrets (``OPENCLAW_HOOKS_TOKEN``,
``getBearerToken(req)``, ``$TOKEN``), placeholders (``<your password>``, ``—``, ``see 1Password``), prose (a
cell of several words: "Claude Code OAuth — same as …"), public keys and key ids.

A label *names* a credential when its last word does (``Admin password``, ``API Key``, ``DB_PASSWORD``, ``密码``,
``Mot de passe``), or its first word with a qualifier (``Password (root)``, ``Contraseña del router``,
``Password for Plex``); never "Password reset", "Key concept", "Token budget", "Public key" or "Key ID".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

# What the label says the value is: a password (any word is one; for a bare "Pass", not a number), a PIN (four to
# eight digits), a key (random-looking: letters and digits), recovery codes, or a seed phrase (many words).
PASSWORD, WEAK_PASSWORD, PIN, KEY, CODE, PHRASE = "password", "pass", "PIN", "key", "code", "phrase"


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_PASSWORD_WORDS = _words(
    "password passwords passwd passphrase passcode pwd pass passwort kennwort contraseña contrasena "
    "mot-de-passe mdp senha palavra-passe пароль wachtwoord hasło haslo parola salasana lösenord losenord "
    "adgangskode passord şifre sifre jelszó heslo κωδικός clave credentials credential pw"
)
_KEY_WORDS = _words(
    "secret secrets token tokens key keys apikey api-key api-keys access-key private-key privkey secret-key "
    "client-secret auth-key admin-key adminkey inkey signing-key encryption-key master-key webhook-secret "
    "bearer schlüssel clé chiave chave llave ключ токен"
)
_PIN_WORDS = _words("pin pin-code pincode pin-nummer code-pin")
_CODE_WORDS = _words(
    "recovery-code recovery-codes backup-code backup-codes 2fa-codes 2fa-backup-codes otp-codes codes-de-secours "
    "wiederherstellungscodes códigos-de-recuperación recovery-key"
)
_PHRASE_WORDS = _words("seed seed-phrase seed-words mnemonic recovery-phrase secret-phrase frase-semilla")
# Longest first: ``api-key`` is found before ``key``.
_ENDINGS = sorted(
    [(w, PIN) for w in _PIN_WORDS]
    + [(w, PASSWORD) for w in _PASSWORD_WORDS]
    + [(w, KEY) for w in _KEY_WORDS]
    + [(w, CODE) for w in _CODE_WORDS]
    + [(w, PHRASE) for w in _PHRASE_WORDS],
    key=lambda pair: -len(pair[0]),
)
_ENDINGS_BY_LAST: dict[str, list[tuple[str, str]]] = {}
for _word, _kind in _ENDINGS:
    _ENDINGS_BY_LAST.setdefault(_word.rsplit("-", 1)[-1], []).append((_word, _kind))
# Scripts without spaces between words: the label ends with one of these.
_CJK_ENDINGS = (
    (("pin码", "pin碼"), PIN),
    (("パスワード", "비밀번호", "암호", "密码", "密碼", "口令"), PASSWORD),
    (("密钥", "秘钥", "私钥", "令牌", "金鑰", "トークン", "秘密鍵", "api키"), KEY),
    (("助记词", "恢复码", "备用码"), PHRASE),
)
# A word anywhere in the label that makes it about something else than the secret itself.
_NOT_THE_SECRET = frozenset(
    _words(
        "public pub pubkey publickey npub id ids name names hash fingerprint type length size count limit limits "
        "usage budget budgets expiry expires expiration rotation reset policy manager file path location env "
        "variable var header format prefix scope scopes permissions status used avg cost costs price window "
        "concept topic content point points takeaway takeaways insight insights idea ideas finding findings date "
        "generated created total max min per hint hints strength rules rule required"
    )
)
# Words joining the credential to what it is for: ``Password for Plex``, ``Contraseña del router``.
_FOR = frozenset(_words("for of to de del da do des du für fuer zum zur pour para per di"))
# A weak word names a credential alone, at the end of an identifier (``DB_PASS``, ``ssh-key``) or after one of
# these words (``API key``, ``WiFi pass``); not "Boarding pass", "Session key", "hotkey".
_WEAK = frozenset(("pass", "key", "keys"))
_WEAK_AFTER = frozenset(
    _words(
        "api ssh wifi wi-fi wlan gpg pgp license licence product activation access secret private signing "
        "encryption master admin root user db database sudo vpn app auth deploy host server router bot client "
        "account service stripe openai anthropic github aws"
    )
)
_NORMALISE = re.compile(r"[\s_.\-/]+")
_MARKUP = re.compile(r"[*`~\"']|\[|\]\([^)]*\)|\]")
_PARENTHESIS = re.compile(r"\s*[(（][^()（）]{0,30}[)）]\s*$")


def credential_label(text: str) -> str | None:
    """``PASSWORD``, ``PIN`` or ``KEY`` when the label (a header, a row's first cell, a list item's or front matter's
    key) names a credential; None when it does not."""
    label = _MARKUP.sub("", text).strip().rstrip(":：").strip()
    label = _PARENTHESIS.sub("", label).strip()
    if not label or len(label) > 48:
        return None
    lower = label.casefold().rstrip(" 0123456789")  # 密钥 2
    for suffixes, kind in _CJK_ENDINGS:
        if lower.endswith(suffixes) and not any(w in lower for w in ("公钥", "公開鍵", "public")):
            return kind
    words = [w.rstrip("0123456789") or w for w in _NORMALISE.split(lower) if w]  # password2, token_1
    while len(words) > 1 and words[-1].isdigit():
        words.pop()  # Password 2, API key 3
    if not words or len(words) > 5 or any(w in _NOT_THE_SECRET for w in words):
        return None
    if len(words) >= 3 and words[1] in _FOR and words[0] not in _WEAK:  # Password for Plex, Contraseña del router
        return _ends_with_credential(words, lower) or _ends_with_credential(words[:1], words[0])
    return _ends_with_credential(words, lower)


def _ends_with_credential(words: list[str], lower: str) -> str | None:
    """The kind of credential the words end with (``db password``: a password), or None."""
    joined = "-".join(words)
    for word, kind in _ENDINGS_BY_LAST.get(words[-1], ()):
        if joined == word:
            return WEAK_PASSWORD if word == "pass" else kind  # "Pass" over a column of test results: not numbers
        if not joined.endswith("-" + word):
            continue
        if word in _WEAK:
            glued = re.search(r"\w[_\-.]" + word + r"\W*$", lower) is not None  # DB_PASS, ssh-key
            before = joined[: -len(word) - 1]
            if len(words) > 3:
                return None
            if not (glued or before in _WEAK_AFTER or words[-2] in _WEAK_AFTER):
                return KEY  # "Laptop pass", "Session key": only a value that looks made up
        return kind
    return None


# --- values -------------------------------------------------------------------------------------------------------

_PLACEHOLDERS = frozenset(
    _words(
        "none null nil n/a na tbd todo tba unknown same ditto yes no true false set unset empty required optional "
        "hidden redacted masked removed omitted default defaults blank nothing ok okay done configured saved "
        "stored vault 1password bitwarden lastpass keepass keepassxc keychain env dotenv .env pass pw pwd "
        "password passwd secret token key apikey api_key value example sample dummy placeholder varies see below "
        "above n.a. changed rotated updated reset expired revoked works working correct wrong incorrect invalid "
        "valid known shared sent provided needed missing weak strong protected enabled disabled active inactive "
        "generic random temporary new old original different passed failed fail skip skipped error pending string "
        "str int integer bool boolean number float text object array list dict keine keins kein ninguna ninguno "
        "aucun aucune nenhuma nenhum 无 无密码 暂无 同上 なし"
    )
)
# Names of secrets, not values: CLIENT_SECRET, api_token, process.env.TOKEN; where one is kept: secrets/github.
ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]+")
SNAKE_NAME = re.compile(r"[a-z]+(?:_[a-z]+)+")
DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
PATH_NAME = re.compile(r"[a-z0-9_.\-~]+(?:/[a-z0-9_.\-]+)+/?")
_INDEXED = re.compile(r"\w\[")  # os.environ["KEY"], config[key]: code
CODE_START = ("process.env", "os.environ", "os.getenv", "env.", "env[", "self.", "this.", "config.", "settings.")
_FILE_NAME = re.compile(r"(?i)(?:id_\w+|[\w\-]+\.(?:pem|key|pub|txt|json|env|ya?ml|toml|gpg|asc|p12|pfx|crt|kdbx))")
# A variable or template: ``$TOKEN``, ``${API_KEY}``, ``%PASSWORD%``, ``<your password>``, ``[password]``.
_VARIABLE = re.compile(r"\$[A-Z_][A-Z0-9_]*|\$\{[^}]*\}|%\w+%|<[^>]*>|\[[^\]]*\]|\{[^}]*\}")
_EMAIL = re.compile(r"[\w.+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}")
_PUBLIC = ("npub1", "ssh-rsa", "ssh-ed25519", "ecdsa-sha2", "age1", "sha256:", "sha1:", "md5:")  # lower-case
_HEX = re.compile(r"(?i)[0-9a-f]{24,}")
_RANDOM = re.compile(r"[A-Za-z0-9+/=_\-.~:!@#%^&*]{8,}")
_MASK = re.compile(r"[*•·xX.\-]{3,}|.*(?:[*•·]{3,}|[xX]{4,}).*")
_EVIDENCE = re.compile(r"\w")
_NUMBER = re.compile(r"[\d.,/%:+-]+")
_CODE_SHAPE = re.compile(r"[A-Za-z0-9]+(?:[- ][A-Za-z0-9]+)*")
_PIN_NAME = re.compile(r"[A-Za-z]+\d+|\d+[A-Za-z]+")
# Words of letters and digits that are not made up: versions, dates, times, addresses, host names, sizes.
_NOT_MADE_UP = re.compile(
    r"v?\d+(?:\.\d+)+(?:[-+.]?[A-Za-z0-9]+)*|\d{4}-\d\d-\d\d(?:T[\d:.]+Z?)?|[\d.:]+|"
    r"(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?::\d+)?|\d+(?:[.,]\d+)?[A-Za-z]{1,3}|[A-Za-z]{1,6}-?\d{1,4}|[a-z]+(?:[-_][a-z0-9]+)+|"
    r"[A-Za-z]+(?::[\w+.\-]+){2,}"  # agent:main:discord:channel:1478…: an identifier of parts
)
_CAMEL_WORDS = re.compile(r"[A-Z]*(?:[A-Z][a-z]{2,})+[A-Z]{0,3}|[a-z]+(?:[A-Z][a-z]{2,})+")
_WRAPPED = re.compile(r"\[([^\]\n]+)\]\([^)\n]*\)|<(?:kbd|code|b|strong|em|i|span|mark|samp)\b[^>]*>(.+?)</\w+>")
_ASSIGNED = re.compile(r"[A-Za-z_][\w.\-]*=(?=[^=])")
_USER_AND_PASSWORD = re.compile(r"^[^\s/:]+[ \t]*(?:/|:)[ \t]*(\S+)$")  # admin / hunter2, admin:hunter2


Span = tuple[int, int]


def secret_spans(value: str, kind: str) -> list[Span]:
    """Where the secrets are in a value written under a credential's label (a cell, the rest of a list item): none
    when the value is a placeholder, a name, prose or empty. Parts apart (``old: A<br>new: B``, a YAML list
    ``[a, b]`` or map ``{gh: a, npm: b}``) are judged one by one."""
    spans: list[Span] = []
    for start, end in _parts(value):
        span = _secret_in(value[start:end], kind)
        if span is not None:
            spans.append((start + span[0], start + span[1]))
    return spans


def secret_value(value: str, kind: str) -> Span | None:
    """The first of ``secret_spans``, or None."""
    spans = secret_spans(value, kind)
    return spans[0] if spans else None


_BREAK = re.compile(r"<br\s*/?>|;\s+", re.I)
_FLOW = re.compile(r"^\s*([\[{])(.*)([\]}])\s*$")


def _parts(value: str) -> list[Span]:
    flow = _FLOW.match(value)
    if flow and (flow[1] == "[") == (flow[3] == "]"):
        inner, offset = flow[2], flow.start(2)
        parts, at = [], 0
        for piece in [*inner.split(","), ""][:-1] if inner else []:
            begin = offset + at
            if flow[1] == "{" and ":" in piece:  # {gh: X}: the value after the key
                begin += piece.index(":") + 1
            parts.append((begin, offset + at + len(piece)))
            at += len(piece) + 1
        return parts
    cuts = [m.span() for m in _BREAK.finditer(value)] if "<br" in value.lower() else []
    starts = [0, *(end for _, end in cuts)]
    ends = [*(start for start, _ in cuts), len(value)]
    return list(zip(starts, ends, strict=True))


def _secret_in(value: str, kind: str) -> Span | None:
    start, end = _unwrap(value)
    core = value[start:end]
    if not core or core.startswith("[redacted") or not _EVIDENCE.search(core):
        return None
    wrapped = _WRAPPED.fullmatch(core)
    if wrapped:  # [Lk7Nb3Wc9Tq](https://…), <kbd>…</kbd>: the text inside
        inner = _secret_in(wrapped[1] or wrapped[2], kind)
        offset = start + wrapped.start(1 if wrapped[1] is not None else 2)
        return None if inner is None else (offset + inner[0], offset + inner[1])
    spaced = any(c.isspace() for c in core)
    if kind == PHRASE and spaced and len(core.split()) >= 8 and all(w.isalpha() and w.islower() for w in core.split()):
        return start, end  # a seed phrase: twelve or twenty-four plain words
    if not spaced and (_placeholder(core) or "..." in value or "…" in value):
        return None  # n/a, <token>, $TOKEN, MTQ3ODgz... (shortened)
    pair = _USER_AND_PASSWORD.match(core) if kind in (PASSWORD, WEAK_PASSWORD) else None
    if pair and not _placeholder(pair[1].strip("`*")):  # admin / hunter2, admin:hunter2
        a, b = _unwrap(pair[1])
        return start + pair.start(1) + a, start + pair.start(1) + b
    if spaced:
        return _token_in_prose(value, start, end, kind)
    assigned = _ASSIGNED.match(core)
    if assigned:  # TRACK17_TOKEN=<redacted>: the value after the name
        inner = _secret_in(core[assigned.end() :], kind)
        return None if inner is None else (start + assigned.end() + inner[0], start + assigned.end() + inner[1])
    return (start, end) if _judged(core, kind) else None


def _judged(core: str, kind: str) -> bool:
    """Is a single word, under a label of this kind, the secret?"""
    if kind == PIN:
        return (core.isdigit() and 4 <= len(core) <= 8) or key_like(core)
    if kind == PASSWORD:
        return not (core.isdigit() and len(core) < 4)
    if kind == WEAK_PASSWORD:
        return not _NUMBER.fullmatch(core)
    if kind == CODE:
        return len(core) >= 6 and any(c.isdigit() for c in core) and _CODE_SHAPE.fullmatch(core) is not None
    return key_like(core)


def random_looking(token: str) -> bool:
    """A token made to be unguessable: long hex, or a run of 20+ base64 characters with letters and digits (or
    12+ with upper, lower and digits)."""
    if _HEX.fullmatch(token):
        return True
    if not _RANDOM.fullmatch(token) or _NOT_MADE_UP.fullmatch(token):
        return False
    has = (any(c.islower() for c in token), any(c.isupper() for c in token), any(c.isdigit() for c in token))
    letters = has[0] or has[1]
    return (len(token) >= 20 and letters and has[2]) or (len(token) >= 12 and all(has))


def key_like(token: str) -> bool:
    """Written under a key's, token's or secret's label, is the value made up? Random-looking, or eight characters
    or more mixing letters and digits that are not a version, a date, a host name or an address."""
    if random_looking(token):
        return True
    letters = any(c.isalpha() for c in token)
    digits = any(c.isdigit() for c in token)
    if len(token) >= 8 and letters and digits:
        return _NOT_MADE_UP.fullmatch(token) is None
    return _random_letters(token)


def _random_letters(token: str) -> bool:
    """Eight letters or more, upper- and lower-case mixed the way no words are (``ONYlgCtj``, not ``JavaScript``,
    ``OpenClaw``, ``iPhone``)."""
    if len(token) < 8 or not token.isalpha() or _CAMEL_WORDS.fullmatch(token):
        return False
    return sum(c.isupper() for c in token) >= 2 and sum(c.islower() for c in token) >= 2


def _unwrap(value: str) -> tuple[int, int]:
    """The span of the value inside its markup: bold, code, quotes, trailing punctuation."""
    start, end = 0, len(value)
    while start < end and value[start] in " \t*_`\"'“«":
        start += 1
    while end > start and value[end - 1] in " \t*_`\"'”»,;.":
        end -= 1
    return start, end


def _placeholder(core: str) -> bool:
    low = core.casefold()
    if (
        low in _PLACEHOLDERS
        or low.startswith(("your", "my-", "my_", "{{", "see-", "op://"))
        or _VARIABLE.fullmatch(core)
    ):
        return True
    if core[0] in "/~@#" or "://" in core or "(" in core or _masked(core) or "..." in core or "…" in core:
        return True  # a template, a path, a handle, a call, a link, a mask, a shortened key
    if PATH_NAME.fullmatch(core) or _INDEXED.search(core) or core.startswith(CODE_START):
        return True  # secrets/github_ed25519, os.environ["DB_PASSWORD"]: where the secret is kept
    names = (ENV_NAME.fullmatch(core) and "_" in core) or SNAKE_NAME.fullmatch(core) or DOTTED_NAME.fullmatch(core)
    if names and not any(c.isdigit() for c in core):
        return True  # CLIENT_SECRET, api_token, process.env.TOKEN: names, not values
    # where the secret is kept, a public key, an e-mail address
    return bool(_FILE_NAME.fullmatch(core) or low.startswith(_PUBLIC) or _EMAIL.fullmatch(core))


def _masked(core: str) -> bool:
    """``****``, ``••••``, ``xxxx``, or a value that is half mask (``sk-ant-xxxxxxxx``); not ``fakeXXXX0000``."""
    return _MASK.fullmatch(core) is not None and sum(c in "*•·xX." for c in core) * 2 >= len(core)


_TOKEN = re.compile(r"[^\s`*\"'()\[\]<>,;|]+")


_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def _token_in_prose(value: str, start: int, end: int, kind: str) -> Span | None:
    """In a value of several words, the secret, if any: a code span that the label's kind accepts
    (`` `Cs8At4Wx1Lz` (rotated) ``), else a word that looks random (``3f9c… (rotated 2026-03)``)."""
    for m in _CODE_SPAN.finditer(value):
        if kind in (PASSWORD, WEAK_PASSWORD) and value[:start].strip(" *_") != "`":
            break  # a password is the code span the value starts with, not "username `admin`, password …"
        inner = _secret_in(m[1], kind) if " " not in m[1].strip() else None
        if inner is not None:
            return m.start(1) + inner[0], m.start(1) + inner[1]
    for m in _TOKEN.finditer(value, start, end):
        if "..." in m.group() or "…" in m.group():
            continue  # shortened: only the start of a key (``MTQ3ODgz...``)
        token = m.group().rstrip(".:")
        if random_looking(token) and not _placeholder(token):
            return m.start(), m.start() + len(token)
    return None


# --- tables -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    start: int  # offsets in the text the row is in
    end: int

    def text(self, line: str) -> str:
        return line[self.start : self.end]


# The header of the column a row's label speaks of: ``| Field | Value |``, ``| Setting | Wert |``.
_VALUE_HEADERS = frozenset(
    (
        *_words(
            "value values wert werte valor valores valeur valeurs valore waarde значение 值 内容 数值 値 details detail info data"
        ),
        "",
    )
)
QUOTED = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*")  # a table in a blockquote (or indented in a list) starts after this
DELIMITER = re.compile(r"\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)*\|?\s*")


def cells(line: str) -> list[Cell]:
    """The cells of a table row: split at ``|`` outside code spans and not escaped (a password ``p|pe`` in back-ticks
    stays one cell, so it is redacted whole); in a blockquote, after its ``>``."""
    found: list[Cell] = []
    start = i = QUOTED.match(line).end()  # type: ignore[union-attr]  # it matches the empty string
    n = len(line)
    if line.startswith("|", i):
        start = i = i + 1
    while i < n:
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            run = len(line) - i - len(line[i:].lstrip("`"))
            close = line.find("`" * run, i + run)
            i = close + run if close != -1 else i + run
            continue
        if c == "|":
            found.append(Cell(start, i))
            start = i + 1
        i += 1
    if line[start:].strip():
        found.append(Cell(start, n))
    return found


@dataclass
class TableFinding:
    line: int  # the first line where a value was redacted
    rows: list[str]  # the row names (first cell) or "row N"
    columns: list[str]  # the labels that named the credentials


def table_blocks(lines: list[str]) -> Iterator[tuple[int, int, bool]]:
    """``(first, end, has_header)`` of each table: a header row and its delimiter row, then every row with a ``|``;
    or, without a delimiter, lines that start with ``|`` (in a blockquote too)."""
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if "|" not in line:
            i += 1
            continue
        below = lines[i + 1] if i + 1 < n else ""
        if "-" in below and "|" in below and DELIMITER.fullmatch(below, QUOTED.match(below).end()):  # type: ignore[union-attr]
            end = i + 2
            while end < n and "|" in lines[end] and lines[end].strip(" \t>"):
                end += 1
            yield i, end, True
            i = end
            continue
        end = i
        while end < n and _row_start(lines[end]):
            end += 1
        if end > i:
            yield i, end, False
            i = end
            continue
        i += 1


def _row_start(line: str) -> bool:
    at = QUOTED.match(line).end()  # type: ignore[union-attr]
    return line.startswith("|", at) and len(line.strip()) > 1


@dataclass
class Grid:
    """A table as rows of cells (``| … |`` rows, or an HTML table's ``<tr>``), over the text they are in."""

    text: str
    header: list[Cell] | None
    rows: list[list[Cell]]
    row_lines: list[int]  # the line of each row (0-based, in the text the grid is in)


def redact_grid(grid: Grid, marker: str) -> tuple[list[tuple[int, int, str]], TableFinding | None]:
    """The spans of the grid's text to replace (start, end, marker) for each value a header or row label names a
    credential, and what to report."""
    text = grid.text
    names = [c.text(text).strip() for c in grid.header] if grid.header else []
    header = [credential_label(name) for name in names]
    labelled = _labelled_columns(names)
    found = TableFinding(0, [], [])
    replaced: list[tuple[int, int, str]] = []
    for number, (row, line) in enumerate(zip(grid.rows, grid.row_lines, strict=True), 1):
        if not row:
            continue
        label_kind = credential_label(row[0].text(text))  # | Admin password | hunter2 |
        hits = []
        for index, cell in enumerate(row):
            kind, column = (header[index], names[index]) if index < len(header) else (None, "")
            if kind is None and label_kind and index >= 1 and (labelled is None or index in labelled):
                kind, column = label_kind, row[0].text(text)
            if kind is None:
                continue
            for a, b in secret_spans(cell.text(text), kind):
                hits.append((cell.start + a, cell.start + b, marker.format(kind=kind_name(kind))))
                name = _MARKUP.sub("", column).strip()
                if name and name not in found.columns:
                    found.columns.append(name)
        if hits:
            replaced += hits
            found.line = found.line or line + 1
            first = _MARKUP.sub("", row[0].text(text)).strip()
            named = first and not any(a < row[0].end and b > row[0].start for a, b, _ in hits)  # not the secret
            found.rows.append(first[:40] if named else f"row {number}")
    return replaced, (found if found.line else None)


def _labelled_columns(names: list[str]) -> set[int] | None:
    """The columns whose cells a row's label names (None: all of them): in a table of names and values (``| Field |
    Value |``) the value column; in a table turned sideways (``| | Router | NAS |``) every column; in ``| Secret |
    Owner |`` none (the first column lists secrets, the others speak of them)."""
    if not names or not _MARKUP.sub("", names[0]).strip():
        return None
    return {i for i, name in enumerate(names) if i and _MARKUP.sub("", name).strip().casefold() in _VALUE_HEADERS}


def redact_table(lines: list[str], first: int, end: int, has_header: bool, marker: str) -> TableFinding | None:
    """Redact, in place, each value of the ``| … |`` table at ``lines[first:end]`` that a header or a row label
    names a credential."""
    body = first
    if not has_header and _header_without_delimiter(lines[first]):
        has_header = True  # | Host | User | Password | written without its delimiter row
        body = first - 1
    if has_header:
        body += 2
    text = "\n".join(lines[first:end])
    starts = [0]
    for line in lines[first : end - 1]:
        starts.append(starts[-1] + len(line) + 1)
    row_cells = [
        [Cell(c.start + starts[i], c.end + starts[i]) for c in cells(lines[first + i])] for i in range(end - first)
    ]
    grid = Grid(
        text,
        row_cells[0] if has_header else None,
        row_cells[body - first :],
        list(range(body, end)),
    )
    replaced, found = redact_grid(grid, marker)
    if replaced:
        for row, line in enumerate(_replace(text, replaced).split("\n")):
            lines[first + row] = line
    return found


def _replace(text: str, spans: list[tuple[int, int, str]]) -> str:
    pieces, done = [], 0
    for a, b, marker in sorted(spans):
        if a < done:
            continue
        pieces += [text[done:a], marker]
        done = b
    return "".join([*pieces, text[done:]])


_HTML_TABLE = re.compile(r"<table\b.*?</table\s*>", re.S | re.I)
_HTML_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr\s*>", re.S | re.I)
_HTML_CELL = re.compile(r"<t([hd])\b[^>]*>(.*?)</t\1\s*>", re.S | re.I)


def html_grids(text: str) -> Iterator[Grid]:
    """The HTML tables of a text (``<table>``, ``<tr>``, ``<th>``/``<td>``) as grids over it."""
    for table in _HTML_TABLE.finditer(text):
        rows = []
        for row in _HTML_ROW.finditer(text, table.start(), table.end()):
            found = list(_HTML_CELL.finditer(text, row.start(1), row.end(1)))
            rows.append(([Cell(m.start(2), m.end(2)) for m in found], all(m[1].lower() == "h" for m in found)))
        if not rows:
            continue
        header = rows[0][0] if rows[0][1] else None
        body = rows[1:] if header is not None else rows
        lines = [text.count("\n", 0, cells_[0].start) if cells_ else 0 for cells_, _ in body]
        yield Grid(text, header, [cells_ for cells_, _ in body], lines)


def redact_html_tables(text: str, marker: str) -> tuple[str, list[TableFinding]]:
    """``text`` with the credentials of its HTML tables redacted, and one finding per table."""
    replaced: list[tuple[int, int, str]] = []
    findings = []
    for grid in html_grids(text):
        spans, found = redact_grid(grid, marker)
        replaced += spans
        if found is not None:
            findings.append(found)
    return (_replace(text, replaced) if replaced else text), findings


def _header_without_delimiter(line: str) -> bool:
    """Does the first row of a table without a delimiter row name credentials (``| Host | User | Password |``),
    rather than hold one beside its label (``| Password | hunter2 |``)?"""
    row = cells(line)
    if not any(credential_label(cell.text(line)) for cell in row):
        return False
    label = credential_label(row[0].text(line))
    return not (label and len(row) > 1 and secret_value(row[1].text(line), label) is not None)


# --- list items and front matter ----------------------------------------------------------------------------------

# A label first in its line or list item, then ``:``, ``=`` or a dash, then the value to the end of the line:
# ``- **Password:** x``, ``password — x``, ``api_key: x`` (front matter), ``> PIN: 1234``.
ITEM = re.compile(
    r"^(?P<lead>[ \t]*(?:(?:[-*+>]|\d+[.)])[ \t]+)*(?:\[[ xX]\][ \t]+)?)"
    r"(?P<label>[*_`]{0,2}[^\s:=：—–|*`][^:=：—–|\n]{0,46}?[*_`]{0,2})"
    r"(?P<sep>[ \t]*(?::=|[:=：])[*_]{0,2}[ \t]*|[*_]{0,2}[ \t]+(?:[—–]|--?)[ \t]+)"
    r"(?P<value>[^\n]+)$"
)


def item_secrets(line: str) -> tuple[str, list[Span]] | None:
    """The kind and spans of the secrets in a line whose label names a credential, or None."""
    m = ITEM.match(line)
    if m is None:
        return None
    kind = credential_label(m["label"])
    if kind is None:
        return None
    spans = secret_spans(m["value"], kind)
    return (kind, [(m.start("value") + a, m.start("value") + b) for a, b in spans]) if spans else None


DEFINITION = re.compile(r"^[ \t]*:[ \t]+(?P<value>.+)$")  # a definition list's ``: value`` below its term
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$")
BULLET = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+(?P<item>.+)$")


def definition_secrets(term: str, line: str) -> tuple[str, list[Span]] | None:
    """``VPN secret`` then ``: Dn4Hs8Kq1Zx``: the secrets of a definition whose term names a credential."""
    m = DEFINITION.match(line)
    kind = credential_label(term) if m and "|" not in term else None
    if m is None or kind is None:
        return None
    spans = secret_spans(m["value"], kind)
    return (kind, [(m.start("value") + a, m.start("value") + b) for a, b in spans]) if spans else None


def section_secrets(lines: list[str], heading: int) -> list[tuple[int, str, list[Span]]]:
    """Under a heading that names credentials (``## Passwords``, ``### GitHub recovery codes``), each list item's
    secret, ``(line, kind, spans)``: the item's value (``- Plex: hunter2x``) or the item itself (``- 7f3a9-c2e81``),
    when it looks made up (letters and digits; a password alone does not say so here). To the next heading of the
    same level or higher."""
    m = HEADING.match(lines[heading])
    kind = credential_label(m[2]) if m else None
    if m is None or kind is None:
        return []
    level = len(m[1])
    judged = kind if kind in (CODE, PHRASE, PIN) else KEY
    found = []
    for number in range(heading + 1, len(lines)):
        line = lines[number]
        above = HEADING.match(line)
        if above and len(above[1]) <= level:
            break
        item = BULLET.match(line)
        if item is None or item_secrets(line) is not None:
            continue
        labelled = ITEM.match(line)
        if labelled and any(w in _NOT_THE_SECRET for w in _NORMALISE.split(labelled["label"].casefold().strip("*_` "))):
            continue  # - Fingerprint: …, - Public key: …, - Path: …
        start = labelled.start("value") if labelled else item.start("item")
        spans = secret_spans(line[start:], judged)
        if spans:
            found.append((number, judged, [(start + a, start + b) for a, b in spans]))
    return found


def replace_spans(line: str, spans: list[Span], marker: str) -> str:
    """``line`` with each span replaced by ``marker``."""
    return _replace(line, [(a, b, marker) for a, b in spans])


# A PIN or a lock's code in a sentence: "The alarm PIN is 902318", "the safe combination is 31-17-42".
CODE_SENTENCE = re.compile(
    r"(?i)\b(?:pin(?:[ -]?code)?|passcode|(?:door|alarm|gate|safe|lock|garage|entry|access)[ -]code|"
    r"(?:safe|lock)[ -]combination|combination)(?:\s+(?:is|was|=)\s+|\s*[:=]\s*)\**`?(\d{4,8}|\d{1,3}(?:-\d{1,3}){2,5})\b"
)


def codes_in_sentence(line: str) -> list[Span]:
    """The PINs and lock codes a sentence gives (``CODE_SENTENCE``)."""
    low = line.lower()
    if "pin" not in low and "code" not in low and "combination" not in low:
        return []  # most lines: no look with the pattern, which ignores case
    return [m.span(1) for m in CODE_SENTENCE.finditer(line)]


def kind_name(kind: str) -> str:
    """The word a redaction marker says: ``[redacted: password]``."""
    names = {PASSWORD: "password", WEAK_PASSWORD: "password", PIN: "PIN", KEY: "secret", CODE: "recovery code"}
    return names.get(kind, "seed phrase")
