"""memwiki serve: the preview server, its live-reload script and the workspace watcher."""
