"""The time zones a learner may choose: one list for the settings form and the service."""

import functools
import zoneinfo


@functools.cache
def time_zone_names() -> frozenset[str]:
    """Return the names of the time zones this server knows."""
    # Reading the zone database takes a while; it does not change while the process runs.
    return frozenset(zoneinfo.available_timezones())
