"""Values PostgreSQL can store, as marshmallow fields: text and jsonb hold neither U+0000 nor
unpaired surrogates, and timestamptz takes zone offsets up to 15:59 only.  Refused as field
errors (a 400, or a CLI usage error), never as a failed insert (a 500)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from marshmallow import ValidationError, fields

_UNSTORABLE = "text cannot contain NUL characters or unpaired surrogates"


def storable(value: Any) -> None:
    """PostgreSQL text and jsonb hold neither U+0000 nor unpaired surrogates (which are not
    UTF-8): refuse them in any string, key or nested value, rather than fail at the insert."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ValidationError(_UNSTORABLE)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValidationError(_UNSTORABLE) from exc
    elif isinstance(value, dict):
        for key, item in value.items():
            storable(key)
            storable(item)
    elif isinstance(value, list):
        for item in value:
            storable(item)


class Text(fields.String):
    """A string PostgreSQL can store."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text: str = super()._deserialize(value, attr, data, **kwargs)
        storable(text)
        return text


class JsonObject(fields.Dict):
    """A JSON object PostgreSQL's jsonb can store."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[str, Any]:
        out: dict[str, Any] = super()._deserialize(value, attr, data, **kwargs)
        storable(out)
        return out


class Instant(fields.AwareDateTime):
    """An aware timestamp, in UTC, within what PostgreSQL's timestamptz accepts (its zone
    offsets stop at 15:59)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        moment: datetime = super()._deserialize(value, attr, data, **kwargs)
        offset = moment.utcoffset()
        if offset is not None and abs(offset.total_seconds()) >= 16 * 3600:
            raise ValidationError("time zone offset out of range (at most 15:59)")
        try:
            return moment.astimezone(UTC)
        except OverflowError as exc:
            raise ValidationError("date out of range") from exc
