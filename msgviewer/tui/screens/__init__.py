"""Screens of the app, one per module."""
