"""Parsing one file into a Note: the line walker, front matter, Retain facts, links, dates, credentials, blocks."""
