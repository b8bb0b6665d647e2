"""How many tokens a text costs an agent: estimated as one token per four characters (recall.json's budget, the
context block, the agent page)."""

from __future__ import annotations


def estimate_tokens(text: str) -> int:
    """Rough token count of ``text``: one token per four characters, rounded up."""
    return tokens_of(len(text))


def tokens_of(chars: int) -> int:
    """``estimate_tokens`` of a text of ``chars`` characters (a note's body: ``Note.chars``)."""
    return (chars + 3) // 4
