import pytest

from games import store


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    """Rolled-back test transactions can reuse game ids: never carry a cached fold over."""
    store.forget_cached_states()
    yield
    store.forget_cached_states()
