"""The edges: reading a workspace's files (and knowing its layout), writing the site and workspace files."""
