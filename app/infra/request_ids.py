"""Request ids: the one value that ties an API request to every log line it causes.

A client may send its own (``X-Request-ID``, as proxies and tracing systems do); it is kept
when it is a plausible id -- 1 to 128 characters of letters, digits and ``-_.:/+=@`` -- and
replaced otherwise, since it is written into logs, job rows and webhook bodies.  Without one,
the API makes a ULID: 26 characters, sortable by time, unique without coordination.
"""

from __future__ import annotations

import re

from ulid import ULID

HEADER = "X-Request-ID"
MAX_LENGTH = 128
_PLAUSIBLE = re.compile(r"[A-Za-z0-9\-_.:/+=@]{1," + str(MAX_LENGTH) + "}")


def new_request_id() -> str:
    return str(ULID())


def request_id_from(header: str | None) -> str:
    """The client's id when it is plausible, else a new one."""
    if header is not None and _PLAUSIBLE.fullmatch(header):
        return header
    return new_request_id()
