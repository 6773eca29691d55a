"""Reading PDN: finding files, lines and their decoding, cutting a file into games, the lexer over
pdn.lark, the parser, and movetext read when it is first needed."""
