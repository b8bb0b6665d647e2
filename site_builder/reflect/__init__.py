"""Reflect: new text for the generated blocks of entity pages and bank/opinions.md (offline or Claude)."""
