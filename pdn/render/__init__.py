"""Showing positions and games: the text board, the SVG diagram, the terminal browser."""
