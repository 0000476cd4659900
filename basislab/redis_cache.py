"""Django's Redis cache, keeping one client per connection pool instead of one per call.

``django.core.cache.backends.redis.RedisCacheClient.get_client`` makes a new ``redis.Redis``
for every cache call, and redis-py's constructor builds its table of response callbacks each
time (about 170 entries): 2.5% of a worker's CPU under the load test (docs/benchmarks.md). The
client holds no connection of its own (it borrows one from the pool for each command) and is
safe to share, so one per pool is kept. Everything else is Django's backend.
"""

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = super().get_client(key, write=write)
        return client


class RedisCache(django_redis.RedisCache):
    """``CACHES`` backend ``basislab.redis_cache.RedisCache``: Django's, with kept clients."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
