"""Applications: command line, terminal UI, web server and client, RL environments."""
