"""The Telegram world as plain objects (no aiohttp): people, bots and what each bot sees.

``people`` holds accounts (a person or a bot's user), ``bots`` each bot's projection of the world (its update queue,
subscription, webhook, commands), ``members`` the statuses, rights and permissions of chat members, and
``visibility`` the one place that decides which bot gets which update.
"""
