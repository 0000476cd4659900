"""The Redis cache backend (basislab.redis_cache) against a real Redis: Django's backend, with
one client kept per connection pool."""

import threading
import uuid

import redis

from basislab.redis_cache import RedisCache
from tests.redis_server import redis_url  # noqa: F401 -- the fixture
from tests.test_settings import manage


def _cache(url: str) -> RedisCache:
    return RedisCache(url, {"KEY_PREFIX": f"test-redis-cache-{uuid.uuid4()}"})


def test_the_backend_stores_reads_counts_and_deletes_like_djangos(redis_url):  # noqa: F811
    cache = _cache(redis_url)
    cache.set("answer", {"status": "correct", "score": 1.0}, timeout=30)
    assert cache.get("answer") == {"status": "correct", "score": 1.0}
    assert cache.add("answer", "other") is False
    cache.set("hits", 0, timeout=30)
    assert cache.incr("hits") == 1
    assert cache.get_many(["answer", "missing"]) == {"answer": {"status": "correct", "score": 1.0}}
    assert cache.delete("answer") is True
    assert cache.get("answer") is None
    cache.delete("hits")


def test_one_client_is_kept_and_shared_across_calls_and_threads(redis_url):  # noqa: F811
    cache = _cache(redis_url)
    client = cache._cache.get_client()
    assert isinstance(client, redis.Redis)
    assert cache._cache.get_client(write=True) is client  # one server: one pool, one client
    seen, errors = [], []

    def work(index: int) -> None:
        try:
            for n in range(50):
                cache.set(f"k{index}", n, timeout=30)
                assert cache.get(f"k{index}") == n
            seen.append(cache._cache.get_client())
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(c is client for c in seen)
    cache.delete_many([f"k{i}" for i in range(4)])


def test_each_server_keeps_the_client_of_its_own_pool(redis_url):  # noqa: F811
    # A primary and a replica (two databases of one Redis stand in for two servers): writes go
    # to the first, reads to either, and each kept client talks to the server it is kept for.
    primary, replica = redis_url.rsplit("/", 1)[0] + "/0", redis_url
    cache = RedisCache([primary, replica], {"KEY_PREFIX": f"test-redis-cache-{uuid.uuid4()}"})
    client = cache._cache
    for _ in range(40):
        reader = client.get_client()
        writer = client.get_client(write=True)
        for kept in (reader, writer):
            index = next(i for i, c in client._clients.items() if c is kept)
            assert kept.connection_pool is client._pools[index]
            assert kept.connection_pool.connection_kwargs["db"] == (
                0 if index == 0 else int(replica.rsplit("/", 1)[1])
            )
    assert client.get_client(write=True) is client._clients[0]


def test_a_redis_cache_url_gives_this_backend_in_the_running_site(tmp_path, redis_url):  # noqa: F811
    code = (
        "from django.core.cache import caches; import uuid; k = str(uuid.uuid4());"
        'c = caches["default"]; c.set(k, 7, 30); print(type(c).__module__, c.get(k)); c.delete(k)'
    )
    result = manage("shell", "-c", code, tmp_path=tmp_path, CACHE_URL=redis_url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].split() == ["basislab.redis_cache", "7"]
