"""Webhooks: endpoints that receive the tenant's events in the Standard Webhooks format, their
signing secrets (shown once, stored encrypted, rotated with a 24-hour overlap), and every
delivery with its attempts, which can be asked to run again."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request

from app.api.auth import keyed_blueprint
from app.api.context import config, runtime, tenant_id
from app.api.errors import ApiError
from app.api.openapi import Answer, documented
from app.api.requests import PageQuery, WebhookDeliveryPageQuery, WebhookRequestSchema, load_json, load_query
from app.api.responses import (
    WebhookDeliveryPageSchema,
    WebhookPageSchema,
    WebhookSchema,
    WebhookSecretSchema,
)
from app.domain import webhooks
from app.domain.secret_options import SecretKeyUnavailable, fernet
from app.domain.webhooks import Endpoint
from app.infra.url_fetch import FetchError, UrlPolicy, check_url, control_character
from app.infra.webhook_signing import new_secret

blueprint = keyed_blueprint("webhooks", __name__, url_prefix="/v1/webhooks")


def _sealed_secret() -> tuple[str, str]:
    """A new signing secret and its encrypted form, or a 400 when the server has no key."""
    secret = new_secret()
    try:
        return secret, fernet(config()).encrypt(secret.encode("ascii")).decode("ascii")
    except SecretKeyUnavailable as exc:
        raise ApiError(400, "secret_key_missing",
                       f"webhook signing secrets are stored encrypted like these: {exc}") from None


def _with_secret(endpoint: Endpoint, secret: str) -> dict[str, Any]:
    return {**endpoint.__dict__, "secret": secret}


def _not_found(webhook_id: str) -> ApiError:
    return ApiError(404, "not_found", f"webhook {webhook_id} not found")


def _endpoint(webhook_id: str) -> Endpoint:
    with runtime().engine.connect() as conn:
        endpoint = webhooks.get_endpoint(conn, tenant_id(), webhook_id)
    if endpoint is None:
        raise _not_found(webhook_id)
    return endpoint


@blueprint.post("")
@documented("Create a webhook endpoint (its secret is shown once)",
            body={"application/json": WebhookRequestSchema},
            responses={201: Answer(WebhookSecretSchema, "created, with its signing secret")},
            errors=(400, 409))
def create_webhook() -> tuple[Response, int]:
    wanted = load_json(WebhookRequestSchema(), request.get_json(silent=True) or {})
    # A malformed URL rather than a policy refusal: CR/LF would end up in every delivery's
    # request line and headers, and urlsplit drops them, so the policy check would not see them.
    unusable = control_character(wanted["url"])
    if unusable is not None:
        raise ApiError(400, "validation_error", "invalid request", {"url": [unusable]})
    try:
        # The URL documents' SSRF policy; checked again at every attempt (DNS can change).
        check_url(wanted["url"], UrlPolicy.from_config(config()))
    except FetchError as exc:
        raise ApiError(400, exc.code, exc.message, {"url": [exc.message]}) from None
    secret, token = _sealed_secret()
    try:
        with runtime().engine.begin() as conn:
            endpoint = webhooks.create_endpoint(conn, tenant_id(), wanted["url"], wanted["events"],
                                                wanted.get("description"), token)
    except webhooks.TooManyEndpoints as exc:
        raise ApiError(409, "too_many_webhooks", str(exc)) from None
    return jsonify(WebhookSecretSchema().dump(_with_secret(endpoint, secret))), 201


@blueprint.get("")
@documented("The caller's webhook endpoints, newest first", query=PageQuery,
            responses={200: Answer(WebhookPageSchema, "a page of endpoints")}, errors=(400,))
def list_webhooks() -> Response:
    page = load_query(PageQuery())
    with runtime().engine.connect() as conn:
        rows = webhooks.list_endpoints(conn, tenant_id(), page.limit, page.offset)
    return jsonify(WebhookPageSchema().dump({"webhooks": rows, "next_offset": page.next_offset(len(rows))}))


@blueprint.get("/<webhook_id>")
@documented("A webhook endpoint", responses={200: Answer(WebhookSchema, "the endpoint")}, errors=(404,))
def get_webhook(webhook_id: str) -> Response:
    return jsonify(WebhookSchema().dump(_endpoint(webhook_id)))


@blueprint.delete("/<webhook_id>")
@documented("Delete a webhook endpoint with its deliveries",
            responses={204: Answer(None, "deleted")}, errors=(404,))
def delete_webhook(webhook_id: str) -> tuple[str, int]:
    with runtime().engine.begin() as conn:
        if not webhooks.delete_endpoint(conn, tenant_id(), webhook_id):
            raise _not_found(webhook_id)
    return "", 204


@blueprint.post("/<webhook_id>/rotate-secret")
@documented("A new signing secret; the previous one also signs for 24 hours",
            responses={200: Answer(WebhookSecretSchema, "the endpoint, with its new secret")},
            errors=(400, 404))
def rotate_webhook_secret(webhook_id: str) -> Response:
    secret, token = _sealed_secret()
    with runtime().engine.begin() as conn:
        endpoint = webhooks.rotate_secret(conn, tenant_id(), webhook_id, token)
    if endpoint is None:
        raise _not_found(webhook_id)
    return jsonify(WebhookSecretSchema().dump(_with_secret(endpoint, secret)))


@blueprint.get("/<webhook_id>/deliveries")
@documented("The endpoint's deliveries, newest event first, with every attempt",
            query=WebhookDeliveryPageQuery,
            responses={200: Answer(WebhookDeliveryPageSchema, "a page of deliveries")},
            errors=(400, 404))
def list_webhook_deliveries(webhook_id: str) -> Response:
    page = load_query(WebhookDeliveryPageQuery())
    endpoint = _endpoint(webhook_id)
    with runtime().engine.connect() as conn:
        rows = webhooks.list_deliveries(conn, tenant_id(), endpoint.id, page.status, page.limit,
                                        page.offset)
    return jsonify(WebhookDeliveryPageSchema().dump(
        {"deliveries": rows, "next_offset": page.next_offset(len(rows))}))


@blueprint.post("/<webhook_id>/deliveries/<event_id>/redeliver")
@documented("Deliver an event to the endpoint again, with a fresh retry schedule",
            responses={202: Answer(None, "due now")}, errors=(404, 409))
def redeliver_webhook_event(webhook_id: str, event_id: str) -> tuple[str, int]:
    endpoint = _endpoint(webhook_id)
    if endpoint.disabled_at is not None:
        raise ApiError(409, "webhook_disabled", f"webhook {webhook_id} is disabled: "
                       f"{endpoint.disabled_reason}; create a new endpoint")
    number = webhooks.parse_event_id(event_id)
    with runtime().engine.begin() as conn:
        found = number is not None and webhooks.redeliver(conn, tenant_id(), endpoint.id, number)
    if not found:
        raise ApiError(404, "not_found", f"event {event_id} not found")
    return "", 202
