"""The `boardgamesbot` command line: one entry point for developers, operators and CI."""
