"""Whether a value written under a credential's label is the secret, and where in it: under a password any single
word is (``admin``, ``changeme``); under a token, key or secret a value that looks made up (hex or base64, letters
and digits mixed). What stays readable: names of secrets (``OPENCLAW_HOOKS_TOKEN``, ``getBearerToken(req)``,
``$TOKEN``), placeholders (``<your password>``, ``—``, ``see 1Password``), prose (a cell of several words: "Claude
Code OAuth — same as …"), public keys and key ids.
"""

from __future__ import annotations

import re

from site_builder.parse.credential_labels import CODE, PASSWORD, PHRASE, PIN, WEAK_PASSWORD, words

_PLACEHOLDERS = frozenset(
    words(
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
