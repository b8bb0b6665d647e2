"""Strings that look like credentials, found and redacted before anything is derived from a note.

Two kinds of evidence: a shape that marks itself (a provider's prefix, a key
block; ``credential_shapes``), and a value written after a label that names a
secret (``Password LND: `…```, ``密码: …``, ``api_key = …``). A labelled value
counts only when it looks like a secret: not a placeholder (``<token>``,
``$TOKEN``, ``CLIENT_SECRET``, ``your_password``, ``sk-...``), not code
(``getBearerToken(req)``, ``process.env.KEY``), not a path, a number or a word.

The workspace itself is never changed (the warning asks the person to remove
the secret); every output (site, search index, recall, feeds, model prompts)
sees ``[redacted: GitHub token]`` instead. Line numbers are kept: a multi-line
private key becomes one marker followed by as many empty lines.
"""

from __future__ import annotations

import re

from site_builder.parse import credential_values as values
from site_builder.parse.credential_context import CONTEXT_CORE, Finding, redact_in_context
from site_builder.parse.credential_labels import LABEL_CORES, PASSWORD
from site_builder.parse.credential_shapes import SHAPES, Shape
from site_builder.parse.credential_values import CODE_START, DOTTED_NAME, ENV_NAME, PATH_NAME, SNAKE_NAME


def _listed(words: str) -> tuple[str, ...]:
    return tuple(words.split())


LOGIN_LABELS = _listed(
    r"password passwd passphrase passcode pwd pass passwort kennwort contraseña contrasena mot\sde\spasse mdp "
    "senha palavra-passe пароль wachtwoord hasło haslo parola salasana lösenord losenord adgangskode passord "
    "şifre sifre jelszó heslo κωδικός パスワード 비밀번호 암호 密码 密碼 口令"
)
KEY_LABELS = _listed(
    r"secret token api[_\s-]?key apikey access[_\s-]?key private[_\s-]?key privkey secret[_\s-]?key "
    r"client[_\s-]?secret auth[_\s-]?key credentials? admin[_\s-]?key adminkey inkey signing[_\s-]?key bearer "
    r"recovery[_\s-]?codes? backup[_\s-]?codes? "
    r"encryption[_\s-]?key master[_\s-]?key webhook[_\s-]?secret key 密钥 秘钥 私钥 令牌 金鑰 トークン "
    r"clé[_\s-]api chiave[_\s-]api"
)


def _either(words: tuple[str, ...]) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


# A label is an identifier ending in one of the words (``DATABASE_PASSWORD``, ``X-API-KEY``, ``Bot Token``),
# then at most two short words (``Password LND``, ``密码 (root)``), then ``:``, ``=``, ``：`` (or, for a
# password, ``is``), then the value, perhaps in quotes or back-ticks.
LABEL = re.compile(
    r"(?i)(?<![\w\-])[\w.\-]*?(?:(?P<password>" + _either(LOGIN_LABELS) + r")|(?P<secret>" + _either(KEY_LABELS) + r"))"
    r"(?![\w])[\"']?"
    r"(?P<gap>(?:[ \t]*\([^()\n]{1,20}\)|[ \t]+[\w\-]{1,12}){0,2})"
    r"(?:[ \t]*\**[ \t]*(?::=|=>|->|[:=：])[ \t]*\**[ \t]*|(?P<said>[ \t]+(?:is|was|es|ist|est|é|era|是|为|は)[ \t]+))"
    r"[\"'`]?(?P<value>[^\s\"'`]{1,300})"
)
# What a label needs after its word, on the same line (see ``LABEL``): found first, it spares the label's pattern
# most of the places a label word occurs in prose ("the key point", "a token of thanks").
SEPARATOR = re.compile(r"(?i)[:=：>]|[ \t](?:is|was|es|ist|est|é|era|是|为|は)[ \t]")
# What every label word contains, lower-cased: found with ``str.find`` before the label is matched there.
# Words that are a label only as the first word of a line or list item (``Pass: …``, not ``tests pass: 3/3``)
# or as the end of a name (``DB_PASS``, ``ssh-key``), never glued to a word (``highpass``, ``monkey``).
WEAK_LABELS = frozenset(("pass", "key", "credential", "credentials"))
ITEM_START = re.compile(r"[ \t]*(?:(?:[-*+>#|]+|\d+[.)])[ \t]*)*[*_`]*")

PLACEHOLDER_WORDS = frozenset(
    _listed(
        "none null nil true false undefined required optional empty string str int bool any value here same "
        "changeme change_me password passwd secret token key apikey api_key example sample dummy placeholder "
        "redacted hidden masked removed omitted unset notset tbd todo n/a na xxx"
    )
)
GENERIC_PARTS = frozenset(_listed("key secret token password pass user username name value id client api auth access"))
PLACEHOLDER_START = ("your", "my_", "my-", "example", "placeholder", "insert", "replace", "enter", "dummy", "sample")
MASK_RUN = re.compile(r"([xX*•0])\1{5,}")
CODE_INDEX = re.compile(r"\w\[[^\]]*\]")
INNER_ASSIGNMENT = re.compile(r"[A-Za-z_][\w.\-]*=(?=[^=])")


def redact(text: str) -> tuple[str, list[Finding]]:
    """``text`` with every credential-looking string replaced, and where each one was."""
    findings: list[Finding] = []
    lower = text.lower()
    for shape in SHAPES:
        if any(hint in lower for hint in shape.hints) and shape.pattern.search(text):
            text = _redact_shape(shape, text, findings)
    if CONTEXT_CORE.search(lower):
        text = redact_in_context(text, text.lower() if findings else lower, findings)
    text = _redact_labelled(text, lower, findings)
    findings.sort(key=lambda f: (f.line, f.kind))
    return text, findings


def looks_secret(value: str, password: bool) -> bool:
    """Is the value written after a secret's label a secret (and not a placeholder, code, a path or a word)?"""
    if "..." in value or "…" in value:
        return False  # shortened: only the start of a key
    value = value.rstrip(".,;:)]}>")
    low = value.lower()
    short = len(value) < (6 if password else 12) and not (len(value) >= 10 and _three_classes(value))
    if short or low in PLACEHOLDER_WORDS or value.startswith("[redacted"):
        return False
    if value[0] in "<[{$%#@/~*•" or "${" in value or "{{" in value or "<%" in value:
        return False  # a template, a variable, a path, a handle, a mask
    if "(" in value or CODE_INDEX.search(value) or _masked(value):
        return False  # a call or an index in code, or a mask
    if low.startswith(PLACEHOLDER_START + CODE_START) or "://" in value or value.startswith(("./", "../")):
        return False
    if ENV_NAME.fullmatch(value) or SNAKE_NAME.fullmatch(value):
        return False  # CLIENT_SECRET, GENERATE_SECURE_TOKEN, secure_pass, token_de_botfather: names, not values
    if DOTTED_NAME.fullmatch(value) and not any(c.isdigit() for c in value):
        return False  # req.headers.token
    if PATH_NAME.fullmatch(value):
        return False  # secrets/github_ed25519: where the secret is kept
    inner = INNER_ASSIGNMENT.match(value)
    if inner:
        return looks_secret(value[inner.end() :], password)  # TRACK17_TOKEN=<redacted>, f=200
    if all(part in GENERIC_PARTS for part in re.split(r"[:_\-./=]+", low) if part):
        return False  # key:secret, user:pass
    if password:  # a digit, a symbol or a capital inside: not a plain (or capitalised) word
        return any(not c.isalpha() for c in value) or any(c.isupper() for c in value[1:])
    return _varied(value) and (_has_letters_and_digits(value) or len(value) >= 24)


def _varied(value: str) -> bool:
    """At least two of: lower-case, upper-case, digits, other letters, symbols."""
    found = (
        any(c.islower() for c in value),
        any(c.isupper() for c in value),
        any(c.isdigit() for c in value),
        any(c.isalpha() and not c.islower() and not c.isupper() for c in value),
        any(not c.isalnum() for c in value),
    )
    return sum(found) >= 2


def _three_classes(value: str) -> bool:
    """Upper-case, lower-case and digits: ``Sx4Pv7Mz1Qd``."""
    return any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value)


def _has_letters_and_digits(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def _redact_shape(shape: Shape, text: str, findings: list[Finding]) -> str:
    def replace(match: re.Match[str]) -> str:
        start, end = match.span(shape.group)
        secret = match.group(shape.group)
        if secret.startswith("[redacted") or _masked(secret):
            return match.group(0)
        if not _judged(shape, secret):
            return match.group(0)
        findings.append(Finding(text.count("\n", 0, start) + 1, shape.name))
        marker = f"[redacted: {shape.name}]" + "\n" * secret.count("\n")
        offset = match.start()
        return match.group(0)[: start - offset] + marker + match.group(0)[end - offset :]

    return shape.pattern.sub(replace, text)


def _judged(shape: Shape, secret: str) -> bool:
    """Does the part a shape found hold a secret, as its ``judge`` asks?"""
    if shape.judge == "free":
        return looks_secret(secret, password=True)
    if shape.judge == "password":
        return bool(values.secret_spans(secret, PASSWORD))
    if shape.judge == "random":
        return values.random_looking(secret)
    return True


def _masked(secret: str) -> bool:
    """A documented example, not a key: shortened (``sk-...``), or a long run of x, * or 0 that is half of it
    (``sk-ant-xxxxxxxxxxxx``, ``********``)."""
    if "..." in secret or "…" in secret:
        return True
    return bool(MASK_RUN.search(secret)) and sum(c in "xX*•0" for c in secret) * 2 >= len(secret)


def _redact_labelled(text: str, lower: str, findings: list[Finding]) -> str:
    """Each labelled value that looks like a secret, replaced by a marker of its kind."""
    pieces: list[str] = []
    done = 0
    for match in _labelled(text, lower):
        if match.start() < done:
            continue
        value = match.group("value")
        password = match.group("password") is not None
        if text[match.start() - 1 : match.start()] in ("?", "&"):
            value = re.split(r"[&#]", value, maxsplit=1)[0]  # a URL's query: the value ends at the next parameter
        if not _labels(match, text) or not looks_secret(value, password):
            continue
        if match.group("said") and not password and not values.key_like(value.rstrip(".,;:)]}>")):
            continue  # "the token is …": only a value that looks made up
        start = match.start("value")
        kind = "password" if password else "secret assignment"
        findings.append(Finding(text.count("\n", 0, start) + 1, kind))
        pieces += [text[done:start], f"[redacted: {kind}]"]
        done = start + len(value.rstrip(".,;:)]}>"))
    return "".join([*pieces, text[done:]]) if pieces else text


def _labelled(text: str, lower: str) -> list[re.Match[str]]:
    """Every label and its value, in order: matched only where a label word occurs (most text has none)."""
    if len(lower) != len(text):  # lower-casing changed the length (rare letters): match everywhere
        return list(LABEL.finditer(text))
    starts: set[int] = set()
    for core in LABEL_CORES:
        at = lower.find(core)
        while at != -1:
            start = at
            for _ in range(3):  # the word, and up to two before it: "mot de passe", "private key"
                while start > 0 and at - start < 80 and (text[start - 1].isalnum() or text[start - 1] in "_.-"):
                    start -= 1
                starts.add(start)
                if start < 2 or text[start - 1] not in " \t" or not text[start - 2].isalnum():
                    break
                start -= 1
            at = lower.find(core, at + 1)
    found = []
    for start in sorted(starts):
        line_end = text.find("\n", start)
        if SEPARATOR.search(text, start, line_end if line_end != -1 else len(text)) is None:
            continue  # no ``:``, ``=`` or "is" after the word on its line: no label can end here (a cheap test)
        match = LABEL.match(text, start)
        if match is not None:
            found.append(match)
    return found


def _labels(match: re.Match[str], text: str) -> bool:
    """Is the word a label here? A weak word (``pass``) only alone, first in its line or list item."""
    word = (match.group("password") or match.group("secret")).lower()
    if word not in WEAK_LABELS:
        return True
    prefix = text[match.start() : match.start("password" if match.group("password") else "secret")]
    if match.group("gap") or (not match.group("password") and len(match.group("value")) < (10 if prefix else 16)):
        return False  # "Key numbers: 27", "Key: 630-line script": a key is long and labelled as such
    if prefix:
        return prefix[-1] in "_-."  # DB_PASS, ssh-key, "stripe_key": "…"; not highpass, CertPass
    line_start = text.rfind("\n", 0, match.start()) + 1
    return ITEM_START.fullmatch(text, line_start, match.start()) is not None
