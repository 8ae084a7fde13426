"""One module per `boardgamesbot` sub-command."""
