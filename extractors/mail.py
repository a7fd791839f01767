"""The mail route: an e-mail's body through its engines, its attachments listed for the router.

Each attachment becomes a document of its own (the router reads it like any submitted file,
:func:`extractors.router.extract`), so a mail is only as opaque as the worst of its parts and
a failing attachment fails only its own section.
"""

from __future__ import annotations

from extractors.attachments import is_encrypted_mail, list_attachments
from extractors.base import Attachment, ExtractionError, ExtractionResult, ExtractOptions
from extractors.engine import Request, Route
from extractors.mime import MIME_EML
from extractors.pipelines import chain

# Attachments inside attachments inside mail: deep enough for forwards, bounded for bombs.
MAX_DEPTH = 3


def run(request: Request, route: Route, options: ExtractOptions) -> ExtractionResult:
    if request.mime_type == MIME_EML and is_encrypted_mail(request.data):
        raise ExtractionError("encrypted", "the e-mail is encrypted (PGP/MIME or S/MIME)")
    attachments = list_attachments(request.data, request.mime_type) if request.depth < MAX_DEPTH else []
    try:
        result = chain(route.fast, request, options, route.name)
    except ExtractionError:
        if not attachments:
            raise
        # A mail with no body text is still worth its attachments.
        result = ExtractionResult(pages=[], extractor=route.fast[0].name, mime_type=request.mime_type,
                                  route=route.name)
    result.attachments.extend(Attachment(name, data) for name, data in attachments)
    return result
