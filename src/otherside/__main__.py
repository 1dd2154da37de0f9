"""Allow ``python -m otherside`` as well as the ``otherside`` console script."""

from otherside.cli.main import main

if __name__ == "__main__":
    main()
