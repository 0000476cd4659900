"""Kinds written apart from the course, and the systematic mistakes planted in them, for the
planted-mistake benchmark (`tests/benchmarks/bench_planted.py`)."""
