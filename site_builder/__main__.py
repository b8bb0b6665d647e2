from site_builder.cli import main

main()
