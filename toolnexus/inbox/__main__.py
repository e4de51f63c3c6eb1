"""`python -m toolnexus.inbox`: the same command as `toolnexus inbox`."""

import sys

try:
    from ._cli import inbox
except ImportError as exc:  # click is missing: say which extra brings it
    sys.exit(str(exc))

inbox(prog_name="python -m toolnexus.inbox")
