"""The Telegram world as plain objects (no aiohttp) and the rules that act on them.

:mod:`~tgfake.world.telegram` is the root (options, clock, registry, the state a reset forgets), and
:mod:`~tgfake.world.state` that state; ``people``, ``members``, ``bots`` and the other data modules hold accounts,
statuses and each bot's projection of the world. The rules: :mod:`~tgfake.world.registry` (which bot a token names,
"the bot"), :mod:`~tgfake.world.rooms` (where a bot sends, who a message reaches), :mod:`~tgfake.world.visibility`
(the one place that decides which bot gets which update), :mod:`~tgfake.world.person` (the person's actions),
groups, membership, keyboards, polls, payments, inline mode... The world never imports a surface (``botapi``,
``sim``, ``llmstub``) or the stand (tests/test_architecture.py).
"""
