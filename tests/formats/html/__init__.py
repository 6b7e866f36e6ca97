"""Tests of the html format."""
