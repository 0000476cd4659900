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
        # The server is chosen once, and the kept client is that server's: Django's own
        # get_client would choose again (at random among replicas for a read).
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = self._pools.get(index)
            if pool is None:
                pool = self._pools[index] = self._pool_class.from_url(
                    self._servers[index], **self._pool_options
                )
            client = self._clients[index] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``CACHES`` backend ``basislab.redis_cache.RedisCache``: Django's, with kept clients."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
