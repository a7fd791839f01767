"""Direct uploads: a presigned URL to PUT one document's bytes straight into object storage;
the client then names the returned ``object_key`` in a job.  Large files skip the API's limit
on request size, never its limit on document size."""

from __future__ import annotations

import uuid

from flask import Response, jsonify

from app.api.auth import keyed_blueprint
from app.api.context import config, runtime, tenant_id
from app.api.errors import ApiError
from app.api.openapi import Answer, documented
from app.api.responses import UploadSchema

blueprint = keyed_blueprint("uploads", __name__, url_prefix="/v1/uploads")

UPLOAD_URL_SECONDS = 900


@blueprint.post("")
@documented("A presigned URL for one direct upload to object storage",
            responses={201: Answer(UploadSchema, "where to PUT the bytes")}, errors=(409,))
def create_upload() -> tuple[Response, int]:
    object_key = f"uploads/{uuid.uuid4().hex}"
    url = runtime().storage.presign_put(f"{tenant_id()}/{object_key}", UPLOAD_URL_SECONDS)
    if url is None:
        raise ApiError(409, "direct_upload_unavailable", "direct uploads need S3 storage "
                       "(STORAGE_URL=s3://...); upload through POST /v1/jobs")
    return jsonify(UploadSchema().dump({"object_key": object_key, "upload_url": url, "method": "PUT",
                                        "expires_in": UPLOAD_URL_SECONDS,
                                        "max_bytes": config().jobs.max_file_bytes})), 201
