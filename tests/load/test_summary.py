"""The load test's report reads Locust's stats file, including a request type none of whose
requests came back in a short run on a busy machine (Locust writes "N/A" for its percentiles)."""

import csv

from tests.load.__main__ import _print_table, _summary

FIELDS = ["Type", "Name", "Request Count", "Failure Count", "Requests/s", "50%", "99%"]


def test_a_request_type_with_no_timings_is_reported_not_an_error(tmp_path, capsys):
    stats = tmp_path / "load_stats.csv"
    with stats.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(FIELDS)
        writer.writerow(["GET", "preview (htmx)", "12", "0", "3.0", "41", "90"])
        writer.writerow(["POST", "submit: grade and store", "0", "0", "0.0", "N/A", "N/A"])
        writer.writerow(["", "Aggregated", "12", "0", "3.0", "41", "90"])
    table, total = _summary(stats)
    assert [(e["name"], e["requests"], e["p50_ms"]) for e in table] == [
        ("preview (htmx)", 12, 41.0),
        ("submit: grade and store", 0, None),
    ]
    assert (total["name"], total["p99_ms"]) == ("all requests", 90.0)
    _print_table(table, total)
    printed = capsys.readouterr().out
    assert "submit: grade and store" in printed
    assert printed.splitlines()[-2].split()[-2:] == ["-", "-"]
