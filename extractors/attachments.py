"""Attachments of e-mail (EML via the standard library, Outlook MSG via python-oxmsg).

The router parses each attachment as a document of its own (a PDF gets its text layer or
OCR, an image gets OCR, a DOCX goes to docling), so an e-mail is only as opaque as the
worst of its parts, and a failing attachment fails only its own section.
"""

from __future__ import annotations

import email
import email.policy
import io

from extractors.sniff import MIME_EML, MIME_MSG

MAX_ATTACHMENTS = 50


def is_encrypted_mail(data: bytes) -> bool:
    """PGP/MIME or S/MIME: the body is ciphertext, there is nothing to index."""
    message = email.message_from_bytes(data, policy=email.policy.default)
    kind = message.get_content_type()
    return kind == "multipart/encrypted" or (kind in ("application/pkcs7-mime", "application/x-pkcs7-mime")
                                             and message.get_param("smime-type") != "signed-data")


def list_attachments(data: bytes, mime_type: str) -> list[tuple[str, bytes]]:
    """(file name, bytes) of each attachment; an unreadable container yields none."""
    found: list[tuple[str, bytes]] = []
    if mime_type == MIME_EML:
        message = email.message_from_bytes(data, policy=email.policy.default)
        parts = list(message.iter_attachments())  # type: ignore[attr-defined]
        if message.get_content_type() == "multipart/digest":
            parts = [p for p in message.walk() if p.get_content_type() == "message/rfc822"]
        for index, part in enumerate(parts):
            if part.get_content_type() == "message/rfc822":
                inner = part.get_payload()
                payload = inner[0].as_bytes() if isinstance(inner, list) and inner else None
                name = part.get_filename() or f"message-{index + 1}.eml"
            else:
                payload = part.get_payload(decode=True)
                name = part.get_filename() or f"attachment-{index + 1}"
            if payload:
                found.append((name, payload))
    elif mime_type == MIME_MSG:
        from oxmsg import Message

        try:
            message = Message.load(io.BytesIO(data))
        except Exception:  # a damaged MSG: its body may still parse, its parts are lost
            return []
        for index, part in enumerate(message.attachments):
            if part.file_bytes:
                found.append((part.file_name or f"attachment-{index + 1}", part.file_bytes))
    return found[:MAX_ATTACHMENTS]
