"""Password-protected OOXML (an OLE2 container holding "EncryptedPackage"): decrypted with
msoffcrypto and then routed as the DOCX, PPTX or XLSX it holds."""

from __future__ import annotations

import io

from extractors.base import ExtractionError, ExtractOptions


def decrypt(data: bytes, options: ExtractOptions) -> bytes:
    if not options.password:
        raise ExtractionError("encrypted", "Office file is password-protected; pass options.password")
    import msoffcrypto

    try:
        office = msoffcrypto.OfficeFile(io.BytesIO(data))
        office.load_key(password=options.password)
        plain = io.BytesIO()
        office.decrypt(plain)
    except Exception as exc:
        raise ExtractionError("encrypted", f"Office file could not be decrypted: {exc}") from exc
    return plain.getvalue()
