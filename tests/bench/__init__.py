"""Benchmark scripts, each run on its own: ``python tests/bench/bench_build.py`` (see the README)."""
