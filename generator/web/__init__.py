"""`pnpgen serve`: the live preview and translation editor (server, session, page)."""
