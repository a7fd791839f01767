"""Rows as dataclasses: a query's columns become the fields of the dataclass it returns.

Every field must come from the row (a query that forgets a column fails with a TypeError
where it is read, instead of a default standing in for it); uuids become text, which is
what every caller passes on; columns the dataclass does not name are left out.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import fields
from typing import Any, TypeVar

Row = TypeVar("Row")


def row_values(cls: type[Any], row: Mapping[Any, Any]) -> dict[str, Any]:
    """The row's values for the fields of dataclass ``cls``."""
    names = {f.name for f in fields(cls)}
    return {k: str(v) if isinstance(v, uuid.UUID) else v for k, v in row.items() if k in names}


def from_row(cls: type[Row], row: Mapping[Any, Any]) -> Row:
    return cls(**row_values(cls, row))
