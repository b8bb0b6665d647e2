"""Whether a label names a credential, and which kind: a table's header or row label, a list item's or front
matter's key, a heading over a list.

A label *names* a credential when its last word does (``Admin password``, ``API Key``, ``DB_PASSWORD``, ``密码``,
``Mot de passe``), or its first word with a qualifier (``Password (root)``, ``Contraseña del router``,
``Password for Plex``); never "Password reset", "Key concept", "Token budget", "Public key" or "Key ID".
"""

from __future__ import annotations

import re

# What the label says the value is: a password (any word is one; for a bare "Pass", not a number), a PIN (four to
# eight digits), a key (random-looking: letters and digits), recovery codes, or a seed phrase (many words).
PASSWORD, WEAK_PASSWORD, PIN, KEY, CODE, PHRASE = "password", "pass", "PIN", "key", "code", "phrase"


def words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_PASSWORD_WORDS = words(
    "password passwords passwd passphrase passcode pwd pass passwort kennwort contraseña contrasena "
    "mot-de-passe mdp senha palavra-passe пароль wachtwoord hasło haslo parola salasana lösenord losenord "
    "adgangskode passord şifre sifre jelszó heslo κωδικός clave credentials credential pw"
)
_KEY_WORDS = words(
    "secret secrets token tokens key keys apikey api-key api-keys access-key private-key privkey secret-key "
    "client-secret auth-key admin-key adminkey inkey signing-key encryption-key master-key webhook-secret "
    "bearer schlüssel clé chiave chave llave ключ токен"
)
_PIN_WORDS = words("pin pin-code pincode pin-nummer code-pin")
_CODE_WORDS = words(
    "recovery-code recovery-codes backup-code backup-codes 2fa-codes 2fa-backup-codes otp-codes codes-de-secours "
    "wiederherstellungscodes códigos-de-recuperación recovery-key"
)
_PHRASE_WORDS = words("seed seed-phrase seed-words mnemonic recovery-phrase secret-phrase frase-semilla")
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
NOT_THE_SECRET = frozenset(
    words(
        "public pub pubkey publickey npub id ids name names hash fingerprint type length size count limit limits "
        "usage budget budgets expiry expires expiration rotation reset policy manager file path location env "
        "variable var header format prefix scope scopes permissions status used avg cost costs price window "
        "concept topic content point points takeaway takeaways insight insights idea ideas finding findings date "
        "generated created total max min per hint hints strength rules rule required"
    )
)
# Words joining the credential to what it is for: ``Password for Plex``, ``Contraseña del router``.
_FOR = frozenset(words("for of to de del da do des du für fuer zum zur pour para per di"))
# A weak word names a credential alone, at the end of an identifier (``DB_PASS``, ``ssh-key``) or after one of
# these words (``API key``, ``WiFi pass``); not "Boarding pass", "Session key", "hotkey".
_WEAK = frozenset(("pass", "key", "keys"))
_WEAK_AFTER = frozenset(
    words(
        "api ssh wifi wi-fi wlan gpg pgp license licence product activation access secret private signing "
        "encryption master admin root user db database sudo vpn app auth deploy host server router bot client "
        "account service stripe openai anthropic github aws"
    )
)
NORMALISE = re.compile(r"[\s_.\-/]+")
MARKUP = re.compile(r"[*`~\"']|\[|\]\([^)]*\)|\]")
_PARENTHESIS = re.compile(r"\s*[(（][^()（）]{0,30}[)）]\s*$")


def credential_label(text: str) -> str | None:
    """``PASSWORD``, ``PIN`` or ``KEY`` when the label (a header, a row's first cell, a list item's or front matter's
    key) names a credential; None when it does not."""
    label = MARKUP.sub("", text).strip().rstrip(":：").strip()
    label = _PARENTHESIS.sub("", label).strip()
    if not label or len(label) > 48:
        return None
    lower = label.casefold().rstrip(" 0123456789")  # 密钥 2
    for suffixes, kind in _CJK_ENDINGS:
        if lower.endswith(suffixes) and not any(w in lower for w in ("公钥", "公開鍵", "public")):
            return kind
    words = [w.rstrip("0123456789") or w for w in NORMALISE.split(lower) if w]  # password2, token_1
    while len(words) > 1 and words[-1].isdigit():
        words.pop()  # Password 2, API key 3
    if not words or len(words) > 5 or any(w in NOT_THE_SECRET for w in words):
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


def kind_name(kind: str) -> str:
    """The word a redaction marker says: ``[redacted: password]``."""
    names = {PASSWORD: "password", WEAK_PASSWORD: "password", PIN: "PIN", KEY: "secret", CODE: "recovery code"}
    return names.get(kind, "seed phrase")


LABEL_CORES = words(
    "pass pwd kennwort contrase mdp senha пароль wachtwoord hasł haslo parola salasana lösenord losenord "
    "adgangskode şifre sifre jelszó heslo κωδικός パスワード 비밀번호 암호 密码 密碼 口令 "
    "secret token key credential bearer recovery backup 密钥 秘钥 私钥 令牌 金鑰 トークン clé chiave"
)
