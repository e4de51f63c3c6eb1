"""The approval inbox: what the stored runs wait on, and a person's answers, from a terminal or
a local page (extra `toolnexus-contract[inbox]` for both).

    toolnexus inbox --store runs.sqlite3                                   # what waits
    toolnexus inbox --store runs.sqlite3 show apr-…                        # one request
    toolnexus inbox --store runs.sqlite3 --toolkit myapp.tools:toolkit \\
        approve apr-… --arguments '{"amount": 200}' --scope turn           # approve, edited
    toolnexus inbox ... decline apr-… --message "not over 100 EUR"         # refuse, with words
    toolnexus inbox ... respond res-… --data '{"output": "42", "isError": false}'
    toolnexus inbox ... --web                                              # the same, in a page

`python -m toolnexus.inbox` is the same command. `--toolkit` names the host's `Toolkit` (or a
function that makes one from the store), so an approved call runs right there, in the
inbox's process. `Inbox` is what the command and the page share; every answer goes through
`SqliteRunStore.resume`, so the rules are the engine's, and a decision reaches the toolkit's
decision log like any other. The page's security choices are in `docs/inbox.md`.
"""

from ._inbox import Asks, Inbox, InboxError, Outcome, Waiting, load_toolkit, parse_json_object
from ._text import shown, shown_json

__all__ = [
    "Asks",
    "Inbox",
    "InboxError",
    "Outcome",
    "Waiting",
    "load_toolkit",
    "parse_json_object",
    "shown",
    "shown_json",
]
