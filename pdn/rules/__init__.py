"""The rules of the game: variants and their draw rules, board geometry and square names,
positions and legal moves (the C kernel and its pure-Python twin), FEN."""
