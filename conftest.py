"""Collection for the whole test run: the optional ``rl`` package's doctests need its extra."""

import importlib.util

# Without `pip install -e '.[rl]'`, otherside.rl cannot be imported, so its doctests are left
# out (tests/rl skips itself the same way); scripts/test installs the extra.
_RL_EXTRA = ("pettingzoo", "gymnasium", "numpy")
collect_ignore = (
    [] if all(importlib.util.find_spec(name) for name in _RL_EXTRA) else ["src/otherside/rl"]
)
