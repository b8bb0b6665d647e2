"""Records and settings every stage shares: the model, names, config, diagnostics, progress."""
