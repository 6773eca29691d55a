"""The local web page of `pdn serve`: browse, replay and explore a game database."""
