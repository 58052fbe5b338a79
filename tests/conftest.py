import pytest
from channels.layers import channel_layers

from games import store
from games.constellate.clues import blocklist_provider, set_blocklist
from lobby import limits, seating
from tests.support.cache import clear_cache


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    """Rolled-back test transactions can reuse game ids: never carry a cached fold over;
    and every test starts with empty rate-limit counters and no sockets counted."""
    store.forget_cached_states()
    seating.forget_all()
    clear_cache()
    limits.forget_local_counts()  # the sockets this process counts, with the cache's
    yield
    store.forget_cached_states()
    seating.forget_all()


@pytest.fixture(autouse=True)
def _a_channel_layer_per_test():
    """Each test's ``async_to_sync`` runs its own event loop, and the Redis layer keeps
    per-channel ``asyncio.Lock``s that a receive's backup cleaner releases only when it
    finishes: a loop that ends first leaves the lock held and bound to a dead loop, and
    every later receive on that channel fails ("bound to a different event loop"). A
    fresh layer per test keeps one test's loop out of the next."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _blocklist_from_the_database_only_with_one(request):
    """The moderators' blocklist lives in the database: pure tests check words without it."""
    if request.node.get_closest_marker("django_db") is not None:
        yield
        return
    installed = blocklist_provider()
    set_blocklist(None)
    yield
    set_blocklist(installed)
