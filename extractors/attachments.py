"""Attachments of e-mail (EML via the standard library, Outlook MSG via python-oxmsg).

Only their names and bytes: the router parses each attachment as a document of its own (a
PDF gets its text layer or OCR, an image gets OCR, a DOCX goes to docling); see
:mod:`extractors.mail`.
"""

from __future__ import annotations

import email
import email.policy
import io
from email.message import EmailMessage, Message

from extractors.mime import MIME_EML, MIME_MSG

MAX_ATTACHMENTS = 50


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
    """(file name, bytes) of each attachment; an unreadable container yields none."""
    if mime_type == MIME_EML:
        found = _mail_attachments(data)
    elif mime_type == MIME_MSG:
        found = _outlook_attachments(data)
    else:
        found = []
    return found[:MAX_ATTACHMENTS]


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
