"""The `pdn` command line (typer): thin commands over the library."""
