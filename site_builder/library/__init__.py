"""Linking parsed notes into the Library: entities, backlinks, facts by entity, opinions, summaries, hygiene."""
