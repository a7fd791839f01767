"""Attachments of e-mail (EML via the standard library, Outlook MSG via python-oxmsg).

Only their names and bytes: the router parses each attachment as a document of its own (a
PDF gets its text layer or OCR, an image gets OCR, a DOCX goes to docling); see
:mod:`extractors.mail`, which also applies the limits below.  What a limit leaves unread is
counted on the document (signal ``attachments_dropped``, and a warning), never left out in
silence: a mail whose 51st attachment is dropped is still ``completed``, so the count is the
only trace a client gets of it.
"""

from __future__ import annotations

import email
import email.policy
import io
from collections.abc import Iterator
from email.message import EmailMessage, Message
from typing import Any

from extractors.base import ExtractionResult
from extractors.mime import MIME_EML, MIME_MSG

# Attachments inside attachments inside mail: deep enough for forwards, bounded for bombs.
# A message this deep among attachments (0: the submitted document) has its attachments
# dropped (counted as "depth_limit").
MAX_DEPTH = 3
# Attachments read per message; those after the 50th are dropped (counted as "count_limit").
MAX_ATTACHMENTS = 50
# The signal (in ExtractionResult.signals, stored with the document's extraction report) that
# counts attachments not read, by reason: "depth_limit" (nested past MAX_DEPTH),
# "count_limit" (past MAX_ATTACHMENTS), and their "total"; app/domain/jobs.py sums the totals.
DROPPED_SIGNAL = "attachments_dropped"
DROP_REASONS = ("depth_limit", "count_limit")


def _parse(data: bytes) -> EmailMessage:
    message = email.message_from_bytes(data, policy=email.policy.default)
    assert isinstance(message, EmailMessage)  # what policy.default's message factory makes
    return message


def is_encrypted_mail(data: bytes) -> bool:
    """PGP/MIME or S/MIME: the body is ciphertext, there is nothing to index."""
    message = _parse(data)
    kind = message.get_content_type()
    return kind == "multipart/encrypted" or (kind in ("application/pkcs7-mime", "application/x-pkcs7-mime")
                                             and message.get_param("smime-type") != "signed-data")


def list_attachments(data: bytes, mime_type: str) -> list[tuple[str, bytes]]:
    """(file name, bytes) of every attachment, in order; an unreadable container yields none.
    Not capped here: the caller counts what its limits leave out (:mod:`extractors.mail`)."""
    if mime_type == MIME_EML:
        return _mail_attachments(data)
    if mime_type == MIME_MSG:
        return _outlook_attachments(data)
    return []


def record_dropped(result: ExtractionResult, depth_limit: int = 0, count_limit: int = 0) -> None:
    """Count attachments of this document that a limit left unread, as a signal and a
    warning on the document itself (its attachments' own drops are added by
    :func:`roll_up_dropped`)."""
    if depth_limit + count_limit == 0:
        return
    result.signals[DROPPED_SIGNAL] = {"depth_limit": depth_limit, "count_limit": count_limit,
                                      "total": depth_limit + count_limit}
    if count_limit:
        result.warnings.append(f"{count_limit} of {_attachments(MAX_ATTACHMENTS + count_limit)} not read: "
                               f"a message's attachments after the {MAX_ATTACHMENTS}th are dropped "
                               "(count limit)")
    if depth_limit:
        result.warnings.append(f"{_attachments(depth_limit)} not read: attachments nested more than "
                               f"{MAX_DEPTH} levels deep are dropped (depth limit)")


def roll_up_dropped(result: ExtractionResult) -> dict[str, int]:
    """Add the drops inside a document's attachments (at any depth) to its own signal, with a
    warning, and return its totals by reason.

    A client looks at the document it submitted and at its job, not at the attachment of an
    attachment where a limit struck; so every document's signal counts its whole tree, and
    ``nested`` says how many of those were inside its attachments.  Call once per result
    (its attachments' results are rolled up on the way)."""
    own: dict[str, Any] = result.signals.get(DROPPED_SIGNAL) or {}
    totals = {reason: int(own.get(reason, 0)) for reason in DROP_REASONS}
    nested = dict.fromkeys(DROP_REASONS, 0)
    for child in _results_of_attachments(result):
        for reason, count in roll_up_dropped(child).items():
            nested[reason] += count
    if sum(nested.values()):
        for reason in DROP_REASONS:
            totals[reason] += nested[reason]
        result.signals[DROPPED_SIGNAL] = {**totals, "total": sum(totals.values()),
                                          "nested": sum(nested.values())}
        reasons = ", ".join(f"{reason.replace('_', ' ')}: {nested[reason]}"
                            for reason in DROP_REASONS if nested[reason])
        result.warnings.append(f"{_attachments(sum(nested.values()))} not read inside its "
                               f"attachments ({reasons})")
    return totals


def _results_of_attachments(result: ExtractionResult) -> Iterator[ExtractionResult]:
    # A failed attachment has no result: its own drops, if any, are lost with it (its row
    # says why it failed).
    return (a.result for a in result.attachments if a.result is not None)


def _attachments(count: int) -> str:
    return f"{count} attachment{'s' if count != 1 else ''}"


def _mail_attachments(data: bytes) -> list[tuple[str, bytes]]:
    message = _parse(data)
    parts: list[Message] = list(message.iter_attachments())
    if message.get_content_type() == "multipart/digest":
        parts = [p for p in message.walk() if p.get_content_type() == "message/rfc822"]
    found: list[tuple[str, bytes]] = []
    for index, part in enumerate(parts):
        payload: bytes | None
        if part.get_content_type() == "message/rfc822":
            inner = part.get_payload()
            forwarded = inner[0] if isinstance(inner, list) and inner else None
            payload = forwarded.as_bytes() if isinstance(forwarded, Message) else None
            name = part.get_filename() or f"message-{index + 1}.eml"
        else:
            decoded = part.get_payload(decode=True)
            payload = decoded if isinstance(decoded, bytes) else None
            name = part.get_filename() or f"attachment-{index + 1}"
        if payload:
            found.append((name, payload))
    return found


def _outlook_attachments(data: bytes) -> list[tuple[str, bytes]]:
    from oxmsg import Message as OutlookMessage

    try:
        message = OutlookMessage.load(io.BytesIO(data))
    except Exception:  # a damaged MSG: its body may still parse, its parts are lost
        return []
    return [(part.file_name or f"attachment-{index + 1}", part.file_bytes)
            for index, part in enumerate(message.attachments) if part.file_bytes]
