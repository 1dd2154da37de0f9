"""``python -m otherside.i18n extract | init LANGUAGE | compile``: keep the catalogs."""

from __future__ import annotations

import sys

from otherside.i18n import catalogs

USAGE = "usage: python -m otherside.i18n extract | init LANGUAGE | compile"


def main(argv: list[str]) -> int:
    """Run one command of the catalogs; the exit status."""
    if argv == ["extract"]:
        print("updated:", ", ".join(catalogs.update()))
    elif len(argv) == 2 and argv[0] == "init":
        print("created:", catalogs.init(argv[1]))
    elif argv == ["compile"]:
        print("compiled:", ", ".join(str(p) for p in catalogs.compile_all()))
    else:
        print(USAGE, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
