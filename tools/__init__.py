"""Maintenance scripts run by hand (``python -m tools.<name>``); not part of the installed package."""
