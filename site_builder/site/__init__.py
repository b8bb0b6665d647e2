"""Rendering the Library into the wiki: views per page kind, Markdown, charts, feeds, templates, Pagefind."""
