"""``memwiki mcp``: the workspace's recall served to agents as MCP tools over stdio.

``live.py`` keeps the index and the linked library fresh while the server runs,
``tools.py`` defines the tools (schemas and answers, no SDK), ``remember.py``
appends a Retain fact to today's log, ``server.py`` is the only module that
imports the ``mcp`` SDK.
"""
