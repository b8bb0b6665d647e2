from site_builder.cli import run

run()
