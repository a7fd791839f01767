"""Mistral OCR as a remote provider, through the official SDK (``mistralai`` 3.x).

Two paths:

- synchronous ``/v1/ocr`` for one document or one rendered page (sync mode, and the last step
  of OCR escalation);
- the batch path: a JSONL file with one OCR request per document keyed by ``custom_id``,
  uploaded with purpose ``batch``, a batch job on ``/v1/ocr``, and the output JSONL parsed line
  by line, so one failed line fails one document.

This module only speaks to the provider; scheduling (polling without holding a worker) and
database state live in ``tasks/provider.py``.  Submissions are tagged with our own batch id in
the job's metadata so that a submission whose response was lost is found again instead of
being sent twice.
"""

from __future__ import annotations

import base64
import io
import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from extractors.base import EngineUnavailable, ExtractionError, ExtractionResult, ExtractOptions, Page
from extractors.engine import OcrEngine

if TYPE_CHECKING:
    from PIL.Image import Image

NAME = "mistral"
METADATA_KEY = "pagemill_batch"
RUNNING_STATES = frozenset({"QUEUED", "RUNNING", "CANCELLATION_REQUESTED"})
FAILED_STATES = frozenset({"FAILED", "TIMEOUT_EXCEEDED", "CANCELLED"})


@dataclass(frozen=True)
class MistralSettings:
    api_key: str | None = field(repr=False)  # never in a log or traceback
    server_url: str | None = None
    model: str = "mistral-ocr-latest"
    timeout_ms: int = 120_000

    def check(self) -> None:
        if not self.api_key:
            raise EngineUnavailable("Mistral OCR is not configured (MISTRAL_API_KEY is not set)")


def client(settings: MistralSettings) -> Any:
    settings.check()
    return _client(settings)


@lru_cache(maxsize=8)
def _client(settings: MistralSettings) -> Any:
    # One client per settings, kept alive: the SDK closes its HTTP client in a finalizer when
    # the Mistral object is collected, and a temporary one (``Mistral(...).batch.jobs.get()``)
    # can be collected by the cycle collector in the middle of its own request.
    from mistralai.client import Mistral

    return Mistral(api_key=settings.api_key, server_url=settings.server_url,
                   timeout_ms=settings.timeout_ms)


def _data_url(data: bytes, mime_type: str) -> str:
    return f"data:{mime_type};base64,{base64.b64encode(data).decode('ascii')}"


def request_body(data: bytes, mime_type: str, model: str,
                 annotation_schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON body of one ``/v1/ocr`` request (also one line of a batch file)."""
    if mime_type.startswith("image/"):
        document: dict[str, Any] = {"type": "image_url", "image_url": _data_url(data, mime_type)}
    else:
        document = {"type": "document_url", "document_url": _data_url(data, mime_type)}
    body: dict[str, Any] = {"model": model, "document": document, "include_image_base64": False}
    if annotation_schema is not None:
        body["document_annotation_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "document_annotation", "schema": annotation_schema, "strict": True}}
    return body


def result_from_body(body: dict[str, Any], mime_type: str,
                     annotation_schema: dict[str, Any] | None = None) -> ExtractionResult:
    """An OCR response body to a result; a malformed body or annotation is a provider error."""
    pages_in = body.get("pages")
    if not isinstance(pages_in, list):
        raise ExtractionError("provider_error", "Mistral OCR response has no pages")
    pages: list[Page] = []
    for item in pages_in:
        if not isinstance(item, dict) or not isinstance(item.get("markdown"), str):
            raise ExtractionError("provider_error", "Mistral OCR page without markdown")
        pages.append(Page(item["markdown"].strip(), number=int(item.get("index", len(pages))) + 1,
                          engine=NAME))
    result = ExtractionResult(pages=pages, extractor=NAME, mime_type=mime_type, page_count=len(pages),
                              route="provider")
    annotation = body.get("document_annotation")
    if annotation_schema is not None:
        result.signals["annotation"] = validate_annotation(annotation, annotation_schema)
    result.signals["provider_model"] = body.get("model")
    return result


def validate_annotation(annotation: Any, schema: dict[str, Any]) -> Any:
    import jsonschema

    if annotation is None:
        raise ExtractionError("provider_error", "Mistral returned no document annotation")
    try:
        value = json.loads(annotation) if isinstance(annotation, str) else annotation
        jsonschema.validate(value, schema)
    except (ValueError, jsonschema.ValidationError) as exc:
        message = exc.message if isinstance(exc, jsonschema.ValidationError) else str(exc)
        raise ExtractionError("provider_error", f"document annotation does not match the schema: "
                              f"{message}") from exc
    return value


def ocr(settings: MistralSettings, data: bytes, mime_type: str,
        annotation_schema: dict[str, Any] | None = None) -> ExtractionResult:
    """Synchronous OCR of one document or image."""
    body = request_body(data, mime_type, settings.model, annotation_schema)
    try:
        response = client(settings).ocr.process(**body)
    except EngineUnavailable:
        raise
    except Exception as exc:
        raise ExtractionError("provider_error", f"Mistral OCR call failed: {type(exc).__name__}: "
                              f"{exc}") from exc
    return result_from_body(response.model_dump(mode="json", by_alias=True), mime_type, annotation_schema)


def ocr_image(settings: MistralSettings, image: Image) -> str:
    """One rendered page (PIL image) through synchronous OCR: its Markdown."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return ocr(settings, buffer.getvalue(), "image/png").markdown


class MistralOcrEngine(OcrEngine):
    """Synchronous OCR of one rendered page: the last, remote step of OCR escalation."""

    name = NAME
    label = "mistral OCR"

    def check(self, options: ExtractOptions) -> None:
        """Unavailable without an API key.  Options without provider settings at all (not
        built from a Config) are reported the same way, naming the variable that configures
        the key: ``pagemill doctor`` and an OCR attempt give the same reason."""
        _settings(options)

    def recognise(self, image: Image, options: ExtractOptions) -> str:
        return ocr_image(_settings(options), image)


def _settings(options: ExtractOptions) -> MistralSettings:
    settings = options.mistral or MistralSettings(api_key=None)
    settings.check()
    return settings


ENGINE = MistralOcrEngine()


def batch_file(requests: list[tuple[str, dict[str, Any]]]) -> bytes:
    """JSONL: one ``{"custom_id", "body"}`` line per request."""
    return b"".join(json.dumps({"custom_id": cid, "body": body}).encode() + b"\n" for cid, body in requests)


def find_batch(settings: MistralSettings, our_id: str) -> Any | None:
    """The provider's batch job tagged with our batch id, if one was created."""
    listing = client(settings).batch.jobs.list(metadata={METADATA_KEY: our_id}, page_size=100)
    for job in listing.data or []:
        # Filtered again here: a server may ignore the metadata query.
        if (job.metadata or {}).get(METADATA_KEY) == our_id:
            return job
    return None


def submit_batch(settings: MistralSettings, our_id: str, jsonl: bytes) -> tuple[str, str | None, bool]:
    """(provider job id, input file id, created now?) -- an existing job is adopted, never doubled."""
    existing = find_batch(settings, our_id)
    if existing is not None:
        return existing.id, (existing.input_files or [None])[0], False
    api = client(settings)
    uploaded = api.files.upload(file={"file_name": f"{our_id}.jsonl", "content": jsonl},
                                purpose="batch")
    job = api.batch.jobs.create(input_files=[uploaded.id], endpoint="/v1/ocr", model=settings.model,
                                metadata={METADATA_KEY: our_id})
    return job.id, uploaded.id, True


def get_batch(settings: MistralSettings, job_id: str) -> Any:
    return client(settings).batch.jobs.get(job_id=job_id)


def download(settings: MistralSettings, file_id: str) -> bytes:
    response = client(settings).files.download(file_id=file_id)
    return response.read()


def parse_output(lines: bytes, mime_types: dict[str, str],
                 annotation_schema: dict[str, Any] | None = None
                 ) -> dict[str, ExtractionResult | ExtractionError]:
    """Each line of an output (or error) file to the result or error of its ``custom_id``.

    A line that cannot be parsed is skipped (its document is then reported missing); a line
    with a non-2xx status or an ``error`` fails only its document."""
    outcomes: dict[str, ExtractionResult | ExtractionError] = {}
    for raw in lines.splitlines():
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
            custom_id = str(line["custom_id"])
        except (ValueError, KeyError, TypeError):
            continue
        if custom_id not in mime_types:
            continue
        response = line.get("response") or {}
        status = response.get("status_code")
        error = line.get("error")
        if error or not isinstance(status, int) or not 200 <= status < 300:
            detail = error if error else (response.get("body") or {})
            message = detail.get("message") if isinstance(detail, dict) else detail
            outcomes[custom_id] = ExtractionError(
                "provider_error", f"Mistral OCR failed for this document (HTTP {status}): {message}")
            continue
        try:
            outcomes[custom_id] = result_from_body(response.get("body") or {}, mime_types[custom_id],
                                                   annotation_schema)
        except ExtractionError as exc:
            outcomes[custom_id] = exc
    return outcomes
