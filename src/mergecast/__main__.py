"""`python -m mergecast`: the same command line as `mergecast`."""

from .cli import main

main(prog_name="mergecast")
