"""`toolnexus` (the console script) and `python -m toolnexus`: the command line; `toolnexus inbox`."""

import sys

__all__ = ["main"]


def main() -> None:
    try:
        from .inbox._cli import toolnexus
    except ImportError as exc:  # click is missing: say which extra brings it
        sys.exit(str(exc))
    toolnexus()


if __name__ == "__main__":
    main()
