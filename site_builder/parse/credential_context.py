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

# What the label says the value is: a password (any word is one), a PIN (four to eight digits) or a key (random).
PASSWORD, PIN, KEY = "password", "PIN", "key"


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_PASSWORD_WORDS = _words(
    "password passwords passwd passphrase passcode pwd pass passwort kennwort contraseña contrasena "
    "mot-de-passe mdp senha palavra-passe пароль wachtwoord hasło haslo parola salasana lösenord losenord "
    "adgangskode passord şifre sifre jelszó heslo κωδικός clave credentials credential"
)
_KEY_WORDS = _words(
    "secret secrets token tokens key keys apikey api-key api-keys access-key private-key privkey secret-key "
    "client-secret auth-key admin-key adminkey inkey signing-key encryption-key master-key webhook-secret "
    "bearer schlüssel clé chiave chave llave ключ токен"
)
_PIN_WORDS = _words("pin pin-code pincode pin-nummer code-pin")
# Longest first: ``api-key`` is found before ``key``.
_ENDINGS = sorted(
    [(w, PIN) for w in _PIN_WORDS] + [(w, PASSWORD) for w in _PASSWORD_WORDS] + [(w, KEY) for w in _KEY_WORDS],
    key=lambda pair: -len(pair[0]),
)
# Scripts without spaces between words: the label ends with one of these.
_CJK_ENDINGS = (
    (("pin码", "pin碼"), PIN),
    (("パスワード", "비밀번호", "암호", "密码", "密碼", "口令"), PASSWORD),
    (("密钥", "秘钥", "私钥", "令牌", "金鑰", "トークン", "秘密鍵", "api키"), KEY),
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
    lower = label.casefold()
    for suffixes, kind in _CJK_ENDINGS:
        if lower.endswith(suffixes) and not any(w in lower for w in ("公钥", "公開鍵", "public")):
            return kind
    words = [w for w in _NORMALISE.split(lower) if w]
    if not words or len(words) > 5 or any(w in _NOT_THE_SECRET for w in words):
        return None
    if len(words) >= 3 and words[1] in _FOR and words[0] not in _WEAK:  # Password for Plex, Contraseña del router
        return _ends_with_credential(words, lower) or _ends_with_credential(words[:1], words[0])
    return _ends_with_credential(words, lower)


def _ends_with_credential(words: list[str], lower: str) -> str | None:
    """The kind of credential the words end with (``db password``: a password), or None."""
    joined = "-".join(words)
    for word, kind in _ENDINGS:
        if joined == word:
            return kind
        if not joined.endswith("-" + word):
            continue
        if word in _WEAK:
            glued = re.search(r"\w[_\-.]" + word + r"\W*$", lower) is not None  # DB_PASS, ssh-key
            before = joined[: -len(word) - 1]
            if len(words) > 3 or not (glued or before in _WEAK_AFTER or words[-2] in _WEAK_AFTER):
                return None
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
_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z]+(?:_[a-z]+)+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_FILE_NAME = re.compile(r"(?i)(?:id_\w+|[\w\-]+\.(?:pem|key|pub|txt|json|env|ya?ml|toml|gpg|asc|p12|pfx|crt|kdbx))")
# A variable or template: ``$TOKEN``, ``${API_KEY}``, ``%PASSWORD%``, ``<your password>``, ``[password]``.
_VARIABLE = re.compile(r"\$[A-Z_][A-Z0-9_]*|\$\{[^}]*\}|%\w+%|<[^>]*>|\[[^\]]*\]|\{[^}]*\}")
_EMAIL = re.compile(r"[\w.+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}")
_PATH = re.compile(r"[a-z0-9_.\-~]+(?:/[a-z0-9_.\-]+)+/?")
_CODE = re.compile(r"\w\[|^(?:process\.env|os\.environ|os\.getenv|env\.|self\.|this\.|config\.|settings\.)")
_PUBLIC = ("npub1", "ssh-rsa", "ssh-ed25519", "ecdsa-sha2", "age1", "sha256:", "md5:")
_HEX = re.compile(r"(?i)[0-9a-f]{24,}")
_RANDOM = re.compile(r"[A-Za-z0-9+/=_\-.~:!@#%^&*]{8,}")
_MASK = re.compile(r"[*•·xX.\-]{3,}|.*(?:[*•·]{3,}|[xX]{4,}).*")
_EVIDENCE = re.compile(r"\w")
_USER_AND_PASSWORD = re.compile(r"^[^\s/:]+[ \t]*(?:/|:)[ \t]*(\S+)$")  # admin / hunter2, admin:hunter2


def secret_value(value: str, kind: str) -> tuple[int, int] | None:
    """Where the secret is in a value written under a credential's label (a cell, the rest of a list item), or None
    when the value is a placeholder, a name, prose or empty."""
    start, end = _unwrap(value)
    core = value[start:end]
    if not core or core.startswith("[redacted") or not _EVIDENCE.search(core):
        return None
    if kind == PASSWORD and (pair := _USER_AND_PASSWORD.match(core)) and not _placeholder(pair[1].strip("`*")):
        a, b = _unwrap(pair[1])
        return start + pair.start(1) + a, start + pair.start(1) + b
    if any(c.isspace() for c in core):
        return _token_in_prose(value, start, end)
    if kind == PIN:
        return (start, end) if core.isdigit() and 4 <= len(core) <= 8 else None
    if _placeholder(core):
        return None
    if kind == PASSWORD:
        return None if core.isdigit() and len(core) < 4 else (start, end)
    return (start, end) if random_looking(core) else None


def random_looking(token: str) -> bool:
    """A token made to be unguessable: long hex, or a run of 20+ base64 characters with letters and digits (or
    12+ with upper, lower and digits)."""
    if _HEX.fullmatch(token):
        return True
    if not _RANDOM.fullmatch(token):
        return False
    has = (any(c.islower() for c in token), any(c.isupper() for c in token), any(c.isdigit() for c in token))
    letters = has[0] or has[1]
    return (len(token) >= 20 and letters and has[2]) or (len(token) >= 12 and all(has))


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
    if _PATH.fullmatch(core) or _CODE.search(core):
        return True  # secrets/github_ed25519, os.environ["DB_PASSWORD"]: where the secret is kept
    if _NAME.fullmatch(core) and not any(c.isdigit() for c in core):
        return True  # CLIENT_SECRET, api_token, process.env.TOKEN: names, not values
    # where the secret is kept, a public key, an e-mail address
    return bool(_FILE_NAME.fullmatch(core) or core.startswith(_PUBLIC) or _EMAIL.fullmatch(core))


def _masked(core: str) -> bool:
    """``****``, ``••••``, ``xxxx``, or a value that is half mask (``sk-ant-xxxxxxxx``); not ``fakeXXXX0000``."""
    return _MASK.fullmatch(core) is not None and sum(c in "*•·xX." for c in core) * 2 >= len(core)


_TOKEN = re.compile(r"[^\s`*\"'()\[\]<>,;|]+")


def _token_in_prose(value: str, start: int, end: int) -> tuple[int, int] | None:
    """In a cell of several words, the one that looks random, if any (``3f9c… (rotated 2026-03)``)."""
    for m in _TOKEN.finditer(value, start, end):
        if "..." in m.group() or "…" in m.group():
            continue  # shortened: only the start of a key (``MTQ3ODgz...``)
        token = m.group().rstrip(".:")
        if random_looking(token) and not _placeholder(token) and not token.startswith(_PUBLIC):
            return m.start(), m.start() + len(token)
    return None


# --- tables -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    start: int  # offsets in the line
    end: int

    def text(self, line: str) -> str:
        return line[self.start : self.end]


_VALUE_HEADERS = frozenset(
    _words(
        "value values wert werte valor valores valeur valeurs valore waarde значение 值 内容 数值 値 details detail info data"
    )
    + ("",)
)
DELIMITER = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)*\|?\s*$")


def cells(line: str) -> list[Cell]:
    """The cells of a table row: split at ``|`` outside code spans and not escaped (a password ``p|pe`` in back-ticks
    stays one cell, so it is redacted whole)."""
    found: list[Cell] = []
    start, i, n = 0, 0, len(line)
    stripped = line.strip()
    if stripped.startswith("|"):
        start = i = line.index("|") + 1
    while i < n:
        c = line[i]
        if c == "\\":
            i += 2
            continue
        if c == "`":
            run = len(line) - i - len(line[i:].lstrip("`"))
            close = line.find("`" * run, i + run)
            if close != -1:
                i = close + run
                continue
            i += run
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
    or, without a delimiter, two or more lines that start and end with ``|``."""
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if "|" not in line:
            i += 1
            continue
        if i + 1 < n and DELIMITER.match(lines[i + 1]) and "-" in lines[i + 1]:
            end = i + 2
            while end < n and "|" in lines[end] and lines[end].strip():
                end += 1
            yield i, end, True
            i = end
            continue
        end = i
        while end < n and lines[end].strip().startswith("|") and len(lines[end].strip()) > 1:
            end += 1
        if end - i >= 1 and lines[i].strip().startswith("|"):
            yield i, end, False
            i = max(end, i + 1)
            continue
        i += 1


def redact_table(lines: list[str], first: int, end: int, has_header: bool, marker: str) -> TableFinding | None:
    """Redact, in place, each value of the table that a header or a row label names a credential."""
    header: list[str | None] = []
    names: list[str] = []
    body = first
    if not has_header and _header_without_delimiter(lines[first]):
        has_header = True  # | Host | User | Password | written without its delimiter row
        body = first - 1
    if has_header:
        head = lines[first]
        names = [c.text(head).strip() for c in cells(head)]
        header = [credential_label(name) for name in names]
        body += 2
    # A row's first cell names what the next cell holds only in a table of names and values (``| Field | Value |``,
    # or no header): in ``| Secret | Owner |`` the first column lists secrets and the others speak about them.
    by_label = len(names) < 2 or _MARKUP.sub("", names[1]).strip().casefold() in _VALUE_HEADERS
    found = TableFinding(0, [], [])
    for number in range(body, end):
        line = lines[number]
        row = cells(line)
        if not row:
            continue
        label_kind = credential_label(row[0].text(line)) if by_label else None  # | Admin password | hunter2 |
        pieces: list[str] = []
        done = 0
        for index, cell in enumerate(row):
            kind, column = (header[index], names[index]) if index < len(header) else (None, "")
            if kind is None and index == 1 and label_kind:
                kind, column = label_kind, row[0].text(line)
            span = secret_value(cell.text(line), kind) if kind else None
            if span is None or kind is None:
                continue
            pieces += [line[done : cell.start + span[0]], marker.format(kind=kind_name(kind))]
            done = cell.start + span[1]
            name = _MARKUP.sub("", column).strip()
            if name and name not in found.columns:
                found.columns.append(name)
        if pieces:
            lines[number] = "".join([*pieces, line[done:]])
            found.line = found.line or number + 1
            first_cell = _MARKUP.sub("", row[0].text(line)).strip()
            named = first_cell and not lines[number][row[0].start :].lstrip(" *_`").startswith("[redacted")
            found.rows.append(first_cell[:40] if named else f"row {number - body + 1}")
    return found if found.line else None


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


def item_value(line: str) -> tuple[str, int, int] | None:
    """``(kind, start, end)`` of the secret in a line whose label names a credential, or None."""
    m = ITEM.match(line)
    if m is None:
        return None
    kind = credential_label(m["label"])
    if kind is None:
        return None
    span = secret_value(m["value"], kind)
    if span is None:
        return None
    return kind, m.start("value") + span[0], m.start("value") + span[1]


def kind_name(kind: str) -> str:
    """The word a redaction marker says: ``[redacted: password]``."""
    return {PASSWORD: "password", PIN: "PIN", KEY: "secret"}[kind]
