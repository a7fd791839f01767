"""The mail route: an e-mail's body through its engines, its attachments listed for the router.

Each attachment becomes a document of its own (the router reads it like any submitted file,
:func:`extractors.router.extract`), so a mail is only as opaque as the worst of its parts and
a failing attachment fails only its own section.  Past the limits (a message nested
``MAX_DEPTH`` deep, attachments after the ``MAX_ATTACHMENTS``-th) attachments are dropped and
counted on the mail (:func:`extractors.attachments.record_dropped`).
"""

from __future__ import annotations

from extractors.attachments import (
    MAX_ATTACHMENTS,
    MAX_DEPTH,
    is_encrypted_mail,
    list_attachments,
    record_dropped,
)
from extractors.base import Attachment, ExtractionError, ExtractionResult, ExtractOptions
from extractors.engine import Request, Route
from extractors.mime import MIME_EML
from extractors.pipelines import chain


def run(request: Request, route: Route, options: ExtractOptions) -> ExtractionResult:
    if request.mime_type == MIME_EML and is_encrypted_mail(request.data):
        raise ExtractionError("encrypted", "the e-mail is encrypted (PGP/MIME or S/MIME)")
    # Listed even past the depth limit: parsing the message again is cheap, and what is
    # dropped must be counted, not merely not read.
    found = list_attachments(request.data, request.mime_type)
    too_deep = request.depth >= MAX_DEPTH
    attachments = [] if too_deep else found[:MAX_ATTACHMENTS]
    dropped = len(found) - len(attachments)
    try:
        result = chain(route.fast, request, options, route.name)
    except ExtractionError as exc:
        if not attachments:
            if dropped:  # too deep: the message fails, and its error says what it held
                raise ExtractionError(exc.code, f"{exc.message}; its {dropped} attachment(s) were not read "
                                      f"(nested more than {MAX_DEPTH} levels deep)", exc.attempts) from exc
            raise
        # A mail with no body text is still worth its attachments.
        result = ExtractionResult(pages=[], extractor=route.fast[0].name, mime_type=request.mime_type,
                                  route=route.name)
    record_dropped(result, depth_limit=dropped if too_deep else 0, count_limit=0 if too_deep else dropped)
    result.attachments.extend(Attachment(name, data) for name, data in attachments)
    return result
