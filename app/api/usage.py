"""Usage: documents, pages and bytes processed and seconds transcribed per API key per UTC day,
for the caller's tenant (every key of it: usage is the tenant's to meter, whichever key asks)."""

from __future__ import annotations

from flask import Response, jsonify

from app.api.auth import keyed_blueprint
from app.api.context import runtime, tenant_id
from app.api.openapi import Answer, documented
from app.api.requests import DayRange, UsageQuery, load_query
from app.api.responses import UsageSchema
from app.domain import usage

blueprint = keyed_blueprint("usage", __name__, url_prefix="/v1/usage")

_COUNTS = ("documents_completed", "documents_failed", "pages", "bytes", "transcription_seconds")


@blueprint.get("")
@documented(f"Documents (completed, failed), pages and bytes processed and seconds transcribed per "
            f"API key per UTC day, over at most {usage.MAX_DAYS} days", query=UsageQuery,
            responses={200: Answer(UsageSchema, "the tenant's usage")}, errors=(400,))
def get_usage() -> Response:
    days: DayRange = load_query(UsageQuery())
    with runtime().engine.connect() as conn:
        rows = usage.usage_by_key_and_day(conn, tenant_id(), days.first, days.last)
    totals = {name: sum(getattr(row, name) for row in rows) for name in _COUNTS}
    totals["transcription_seconds"] = round(totals["transcription_seconds"], 3)
    return jsonify(UsageSchema().dump({"first": days.first, "last": days.last, "usage": rows,
                                       "totals": totals}))
