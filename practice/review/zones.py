"""The time zones a learner may choose: the IANA zones of the world's countries, by region.

The list is the tz database's own ``zone.tab`` (the zones of each country, so a learner in
Amsterdam finds Amsterdam), as shipped by the ``tzdata`` package, plus ``UTC``. It leaves out
what ``zoneinfo.available_timezones()`` also holds and no learner lives in: ``localtime``,
``Factory``, ``posixrules``, the ``Etc/GMT+5`` family and the backward-compatible names such as
``US/Eastern``. Browsers may still report an old name (Chromium says ``Asia/Calcutta``):
``zone_aliases`` maps the database's links onto the listed zones for the settings page.
"""

import functools
from importlib import resources

UTC = "UTC"


def _tzdata_file(name: str) -> str:
    return resources.files("tzdata").joinpath("zoneinfo", name).read_text("utf-8")


@functools.cache
def canonical_zones() -> tuple[str, ...]:
    """Return the canonical IANA zone names, sorted."""
    table = _tzdata_file("zone.tab")
    names = set()
    for line in table.splitlines():
        if line and not line.startswith("#"):
            names.add(line.split("\t")[2])
    return tuple(sorted(names))


def time_zone_names() -> frozenset[str]:
    """Return every zone a learner may choose: the canonical zones and UTC."""
    return frozenset((UTC, *canonical_zones()))


def zone_label(name: str) -> str:
    """Return a zone's name as a learner reads it within its region ("Argentina / Buenos Aires")."""
    _region, _, place = name.partition("/")
    return (place or name).replace("_", " ").replace("/", " / ")


@functools.cache
def time_zone_choices() -> tuple[tuple[str, object], ...]:
    """Return the choices for a select: UTC first, then one group per region, by place."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in canonical_zones():
        groups.setdefault(name.partition("/")[0], []).append((name, zone_label(name)))
    return (
        (UTC, UTC),
        *(
            (region, tuple(sorted(zones, key=lambda zone: zone[1])))
            for region, zones in sorted(groups.items())
        ),
    )


@functools.cache
def zone_aliases() -> dict[str, tuple[str, ...]]:
    """Return, for each listed zone, the other names that lead to it (``Asia/Calcutta`` for
    ``Asia/Kolkata``), from the database's links (``L target name`` lines of ``tzdata.zi``)."""
    target_of = {}
    for line in _tzdata_file("tzdata.zi").splitlines():
        if line.startswith("L "):
            _l, target, name = line.split()[:3]
            target_of[name] = target
    listed = set(canonical_zones())
    aliases: dict[str, list[str]] = {}
    for name in target_of:
        target, hops = name, 0
        while target not in listed and target in target_of and hops < 8:
            target, hops = target_of[target], hops + 1
        if target in listed and name not in listed:
            aliases.setdefault(target, []).append(name)
    return {zone: tuple(sorted(names)) for zone, names in aliases.items()}
