"""Strings that look like credentials, found and redacted before anything is derived from a note.

The workspace itself is never changed (the warning asks the person to remove
the secret); every output (site, search index, recall, feeds, model prompts)
sees ``[redacted: GitHub token]`` instead. Line numbers are kept: a multi-line
private key becomes one marker followed by as many empty lines.
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


def _shape(name: str, hints: str, pattern: str, group: int = 0, flags: int = 0) -> Shape:
    return Shape(name, re.compile(pattern, flags), tuple(hints.split()), group)


SHAPES = (
    _shape(
        "PEM private key",
        "private key-----",
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|\Z)",
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
    ),
    _shape(
        "GitHub token",
        "ghp_ gho_ ghu_ ghs_ ghr_ github_pat_",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
    ),
    _shape("GitLab token", "glpat-", r"\bglpat-[A-Za-z0-9_\-]{20,}"),
    _shape("Slack token", "xox", r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
    _shape("Slack webhook", "hooks.slack.com", r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]{20,}"),
    _shape("Stripe key", "_live_ _test_", r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    _shape("Google API key", "aiza", r"\bAIza[0-9A-Za-z_\-]{35}"),
    _shape("Google OAuth client secret", "gocspx-", r"\bGOCSPX-[A-Za-z0-9_\-]{20,}"),
    _shape("JSON Web Token", "eyj", r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    _shape("SendGrid key", "sg.", r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{20,}"),
    _shape("npm token", "npm_", r"\bnpm_[A-Za-z0-9]{36}\b"),
    _shape("Hugging Face token", "hf_", r"\bhf_[A-Za-z0-9]{30,}\b"),
    _shape("Twilio key", "sk", r"\bSK[0-9a-f]{32}\b"),
    _shape("password in a URL", "://", r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:([^\s@/]{3,})@[^\s]+", 1),
    _shape(
        "secret assignment",
        "key secret token password passwd pwd",
        r"(?i)\b(?:api[_\-]?key|apikey|secret(?:[_\-]?key)?|access[_\-]?token|auth[_\-]?token|client[_\-]?secret"
        r"|password|passwd|pwd|token)\b\s*[=:]\s*[\"']?([^\s\"'`,;]{8,})",
        1,
    ),
)


@dataclass(frozen=True)
class Finding:
    line: int  # 1-based line of the text where the secret starts
    kind: str


def redact(text: str) -> tuple[str, list[Finding]]:
    """``text`` with every credential-looking string replaced, and where each one was."""
    findings: list[Finding] = []
    lower = text.lower()
    for shape in SHAPES:
        if any(hint in lower for hint in shape.hints) and shape.pattern.search(text):
            text = _redact_shape(shape, text, findings)
    findings.sort(key=lambda f: (f.line, f.kind))
    return text, findings


def _redact_shape(shape: Shape, text: str, findings: list[Finding]) -> str:
    def replace(match: re.Match[str]) -> str:
        start, end = match.span(shape.group)
        secret = match.group(shape.group)
        if secret.startswith("[redacted"):
            return match.group(0)
        findings.append(Finding(text.count("\n", 0, start) + 1, shape.name))
        marker = f"[redacted: {shape.name}]" + "\n" * secret.count("\n")
        offset = match.start()
        return match.group(0)[: start - offset] + marker + match.group(0)[end - offset :]

    return shape.pattern.sub(replace, text)
