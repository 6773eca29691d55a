"""Jobs over archives: the pipeline and its runners (local processes, Dask), and what runs on it:
validate, list, convert, annotate, filter, with the criteria, identities, players and openings."""
