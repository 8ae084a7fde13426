"""Benchmarks: figures we re-measure after every change (`boardgamesbot bench`)."""
