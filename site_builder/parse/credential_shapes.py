"""The shapes of credentials that carry their own mark: a provider's prefix, a key block, a URL with a password.

Each shape is found anywhere in a note, whatever the words around it. Values
that are only secret because of their label (``Password: …``, ``api_key = …``)
are judged in ``site_builder.parse.credentials``. Prefixes and lengths follow the
providers' documentation and the rule sets of gitleaks and detect-secrets;
``tests/corpus/credentials.txt`` holds an example of each, and
``tests/bench/bench_credentials.py`` measures them against detect-secrets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Shape:
    name: str
    pattern: re.Pattern[str]
    hints: tuple[str, ...]  # one of these must occur in the lower-cased text: a fast test before the regex
    group: int = 0  # the part to redact (0: the whole match)
    # How the part is judged: "" it is a secret; "free" it has no fixed alphabet and must look like a secret, not a
    # placeholder; "password" it is a password by where it is (``user:pass@``), any word but a placeholder; "random"
    # it must look made up (``bearer …`` in prose).
    judge: str = ""


def _shape(name: str, hints: str, pattern: str, group: int = 0, flags: int = 0, judge: str = "") -> Shape:
    return Shape(name, re.compile(pattern, flags), tuple(hints.split()), group, judge)


END = r"(?![A-Za-z0-9_\-])"  # a token ends where its alphabet ends
B64 = r"[A-Za-z0-9+/]"

SHAPES = (
    _shape(
        "private key",
        "private key-----",
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        flags=re.S,
    ),
    _shape("Anthropic API key", "sk-ant-", r"\bsk-ant-[A-Za-z0-9]+-[A-Za-z0-9_\-]{20,}"),
    _shape("OpenAI API key", "sk-", r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}"),
    _shape("AWS access key id", "akia asia agpa aida aroa", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"),
    _shape(
        "AWS secret access key",
        "aws",
        r"(?i)\baws.{0,20}?(?:secret|private)?.{0,20}?(?:key)?\s*[=:]\s*[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
        1,
        judge="free",
    ),
    _shape(
        "GitHub token",
        "ghp_ gho_ ghu_ ghs_ ghr_ github_pat_",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
    ),
    _shape("GitLab token", "glpat- gldt- glrt-", r"\bgl(?:pat|dt|rt)-[A-Za-z0-9_\-]{20,}"),
    _shape("Slack token", "xox", r"\bxox[abposre]-[A-Za-z0-9\-]{10,}"),
    _shape("Slack webhook", "hooks.slack.com", r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]{20,}"),
    _shape("Discord webhook", "/api/webhooks/", r"https://(?:\w+\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w\-]{30,}"),
    _shape(
        "Discord bot token",
        ".",
        r"[MNO](?<!\w[MNO])[A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}" + END,
    ),
    _shape("Telegram bot token", ":aa", r"\b\d{8,10}:AA[A-Za-z0-9_\-]{32,34}" + END),
    _shape("Stripe key", "_live_ _test_", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    _shape("Google API key", "aiza", r"\bAIza[0-9A-Za-z_\-]{35,}"),
    _shape("Google OAuth client secret", "gocspx-", r"\bGOCSPX-[A-Za-z0-9_\-]{20,}"),
    _shape("JSON Web Token", "eyj", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    _shape("SendGrid key", "sg.", r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{20,}"),
    _shape("npm token", "npm_", r"\bnpm_[A-Za-z0-9]{36}\b"),
    _shape("PyPI token", "pypi-", r"\bpypi-AgE[A-Za-z0-9_\-]{50,}"),
    _shape("Hugging Face token", "hf_", r"\bhf_[A-Za-z0-9]{30,}\b"),
    _shape("Twilio key", "sk", r"SK(?<!\wSK)[0-9a-f]{32}\b"),
    _shape("DigitalOcean token", "dop_v1_ doo_v1_ dor_v1_", r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    _shape("Shopify token", "shpat_ shpss_ shpca_ shppa_", r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b"),
    _shape("Square token", "sq0atp- sq0csp- eaaa", r"\b(?:sq0atp-[\w\-]{22}|sq0csp-[\w\-]{43}|EAAA[\w\-]{60})" + END),
    _shape("Mailgun key", "key-", r"\bkey-[0-9a-f]{32}\b"),
    _shape("Groq API key", "gsk_", r"\bgsk_[A-Za-z0-9]{48,}\b"),
    _shape("Notion token", "secret_ ntn_", r"\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46})\b"),
    _shape("Linear API key", "lin_api_", r"\blin_api_[A-Za-z0-9]{40}\b"),
    _shape("Replicate token", "r8_", r"\br8_[A-Za-z0-9]{37}\b"),
    _shape("Perplexity API key", "pplx-", r"\bpplx-[A-Za-z0-9]{48}\b"),
    _shape("xAI API key", "xai-", r"\bxai-[A-Za-z0-9]{70,}\b"),
    _shape("Supabase token", "sbp_", r"\bsbp_[a-f0-9]{40}\b"),
    _shape("Doppler token", "dp.", r"\bdp\.(?:st|ct|pt|sa|scim|audit)\.[A-Za-z0-9_\-.]{40,}"),
    _shape("Postman key", "pmak-", r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"),
    _shape("Azure storage key", "accountkey=", r"AccountKey=(" + B64 + r"{86}==)", 1),
    _shape("Nostr secret key", "nsec1", r"\bnsec1[02-9ac-hj-np-z]{58}\b"),
    _shape("extended private key", "prv", r"\b[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,112}\b"),
    _shape(
        "Authorization header",
        "authorization",
        r"(?i)\bauthorization\s*:\s*(?:basic|bearer|token)\s+([A-Za-z0-9+/=._~\-]{16,})",
        1,
        judge="free",
    ),
    _shape("age secret key", "age-secret-key-1", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b"),
    _shape("bearer token", "bearer", r"(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{12,}=*)", 1, judge="random"),
    _shape(
        "session cookie",
        "cookie",
        r"(?i)\b(?:set-)?cookie\s*:\s*[^\n]*?\b(?:session|sessionid|sid|token|auth|jwt|connect\.sid)[\w.\-]*=([^;\s\"']{8,})",
        1,
        judge="free",
    ),
    _shape("Wi-Fi password", "wifi:", r"\bWIFI:(?:[^;\n]*;)*?P:((?:\\;|[^;\n])+)", 1, judge="password"),
    _shape(
        "password in a .netrc line",
        "machine",
        r"(?m)^[ \t>*+`-]*machine[ \t]+\S+[ \t]+(?:login[ \t]+\S+[ \t]+)?password[ \t]+(\S+)",
        1,
        judge="password",
    ),
    # Passwords on a command line: mysql -pX, sshpass -p X, curl -u user:X, htpasswd -b file user X, echo X | sudo -S
    _shape(
        "password on a command line",
        "mysql mariadb",
        r"\b(?:mysql\w*|mariadb\w*)\b[^\n]*?\s-p(['\"]?)([^\s'\"\-][^\s'\"]*)\1",
        2,
        judge="password",
    ),
    _shape("password on a command line", "sshpass", r"\bsshpass\s+-p\s*(['\"]?)([^\s'\"]+)\1", 2, judge="password"),
    _shape(
        "password on a command line",
        "curl",
        r"\bcurl\b[^\n]*?\s(?:-u|--user)\s*(['\"]?)[^\s:'\"]+:([^\s'\"@]+)\1",
        2,
        judge="password",
    ),
    _shape(
        "password on a command line",
        "htpasswd",
        r"\bhtpasswd\s+(?:-\w+\s+)*-\w*b\w*\s+(?:-\w+\s+)*\S+\s+\S+\s+(['\"]?)([^\s'\"]+)\1",
        2,
        judge="password",
    ),
    _shape(
        "password on a command line", "sudo", r"\becho\s+(['\"]?)([^\s'\"|]+)\1\s*\|\s*sudo\s+-S", 2, judge="password"
    ),
    _shape(
        "password in a URL", "://", r"(?i)\b[a-z][a-z0-9+.\-]*://[^\s:/@]*:([^\s@/]{1,})@[^\s]+", 1, judge="password"
    ),
)
