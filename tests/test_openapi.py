"""The OpenAPI description matches the routes, and a property-based run (Schemathesis)
against it finds no server error: every generated request, valid or not, gets a 2xx or a
4xx with the documented error body; and valid requests made hostile (JSON nested thousands
deep anywhere in the body, a NUL in any query or path argument) get a 400."""

from __future__ import annotations

import copy
import json
import re
import uuid
from typing import Any

import pytest
import schemathesis

# Imported here, at collection, not lazily by from_wsgi during the run: CPython 3.11.7 raised
# "AST constructor recursion depth mismatch" once in CI as pytest's assertion rewriting parsed
# these modules mid-run (its AST state is shared between threads, CPython gh-106905).
import schemathesis.specs.openapi.schemas  # noqa: F401
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.api import create_app
from app.domain.auth import create_key

try:
    from schemathesis.checks import not_a_server_error
except ImportError:  # pragma: no cover - moved between releases
    from schemathesis.specs.openapi.checks import not_a_server_error


@pytest.fixture(scope="module")
def fuzz_app(config):
    # No worker serves this module's jobs: sync parsing gives up at once with its 202.  The
    # fuzzer sends hundreds of requests a minute with one key: a limit it never reaches keeps
    # every generated request checked (the 429 itself is tests/test_rate_limits.py's).
    return create_app(config.with_overrides(parse={"deadline_seconds": 0.05},
                                            limits={"rate_limit_per_minute": 1_000_000}))


@pytest.fixture(scope="module")
def fuzz_key(engine) -> str:
    with engine.begin() as conn:
        return create_key(conn, f"fuzz-{uuid.uuid4().hex[:10]}")


@pytest.fixture(scope="module")
def api_schema(fuzz_app):
    return schemathesis.openapi.from_wsgi("/openapi.json", fuzz_app)


def test_every_route_is_described(fuzz_app) -> None:
    described = fuzz_app.test_client().get("/openapi.json").get_json()["paths"]
    for rule in fuzz_app.url_map.iter_rules():
        if rule.endpoint in ("static", "meta.openapi", "meta.docs", "meta.docs_script", "meta.docs_static"):
            continue
        path = rule.rule.replace("<", "{").replace(">", "}")
        assert path in described, f"{path} is not in /openapi.json"
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in described[path], f"{method} {path} is not in /openapi.json"


# The stream endpoint stays open while its job runs; its error paths are tested below.
# /readyz answers 503 by design while no worker runs (none does here); test_processes.py
# tests its answers with and without one.
_NOT_FUZZED = {"GET /v1/jobs/{job_id}/events", "GET /readyz"}


def _described(exc: BaseException) -> str:
    """``exc`` and, for a group (Hypothesis's flaky failure is one), what each member said:
    the group's own message alone does not say what failed."""
    parts = [str(exc)]
    for member in getattr(exc, "exceptions", ()):
        parts.append(f"  {type(member).__name__}: {_described(member)}")
    return "\n".join(parts)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_request_makes_a_server_error(api_schema, fuzz_key, mode) -> None:
    headers = {"Authorization": f"Bearer {fuzz_key}"}
    checks = [not_a_server_error, content_type_conformance]
    if mode is GenerationMode.POSITIVE:
        # Valid requests must also get a documented status with a body of the documented shape.
        checks += [status_code_conformance, response_schema_conformance]
    failures: dict[str, str] = {}
    tried = 0
    for result in api_schema.get_all_operations():
        operation = result.ok()
        if operation.label in _NOT_FUZZED:
            continue
        tried += 1

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=20, deadline=None, phases=[Phase.explicit, Phase.generate],
                  suppress_health_check=list(HealthCheck), database=None)
        def run(case) -> None:
            case.call_and_validate(headers=headers, checks=checks)

        try:
            run()
        except Unsatisfiable:
            continue  # nothing in the operation can be made invalid (no parameters, no body)
        except Exception as exc:  # collect every operation's failure, not just the first
            failures[operation.label] = _described(exc)[:2000]
    assert tried >= 12
    assert not failures, "\n\n".join(f"{label}: {message}" for label, message in failures.items())


# Stands for the nesting in the serialised body: json.dumps itself cannot write 10,000 levels.
_NESTING = "__hostile_nesting__"


def _containers(value: Any) -> list[dict[str, Any] | list[Any]]:
    """Every object and array in a JSON value, outermost first."""
    found: list[dict[str, Any] | list[Any]] = []
    stack = [value]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict | list):
            found.append(item)
            stack.extend(item.values() if isinstance(item, dict) else item)
    return found


@st.composite
def _deeply_nested_body(draw: st.DrawFn, body: Any) -> bytes:
    """``body`` (a valid one) with arrays or objects nested past any sane limit at one place:
    a new key or item of any object or array in it, or in place of an existing value."""
    body = copy.deepcopy(body) if isinstance(body, dict | list) else [body]
    target = draw(st.sampled_from(_containers(body)))
    if isinstance(target, dict):
        target[draw(st.sampled_from([*target, "hostile"]))] = _NESTING
    else:
        target.insert(draw(st.integers(0, len(target))), _NESTING)
    depth = draw(st.sampled_from([65, 1_000, 10_000]))
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"k":', "}")]))
    nesting = opener * depth + draw(st.sampled_from(["1", '"x"', "[]", "{}"])) + closer * depth
    return json.dumps(body).replace(json.dumps(_NESTING), nesting).encode()


@st.composite
def _hostile_case(draw: st.DrawFn, operation: Any) -> Any:
    """A valid request of ``operation`` with one hostile change: three in four of those with a
    JSON body nest it deep, the others put a NUL in a query or path argument."""
    if "application/json" in {body.media_type for body in operation.body} and draw(st.integers(0, 3)):
        case = draw(operation.as_strategy(GenerationMode.POSITIVE).filter(
            lambda generated: generated.media_type == "application/json"))
        case.body = draw(_deeply_nested_body(case.body))
        return case
    case = draw(operation.as_strategy(GenerationMode.POSITIVE))
    arguments = [("query", name) for name in case.query or {}] + [("query", "extra")]
    arguments += [("path", name) for name in case.path_parameters or {}]
    where, name = draw(st.sampled_from(arguments))
    values = case.query if where == "query" else case.path_parameters
    value = str((values or {}).get(name, ""))
    cut = draw(st.integers(0, len(value)))
    hostile = {**(values or {}), name: value[:cut] + "\x00" + value[cut:]}
    if where == "query":
        case.query = hostile
    else:
        case.path_parameters = hostile
    return case


def test_hostile_requests_are_400s(api_schema, fuzz_key) -> None:
    headers = {"Authorization": f"Bearer {fuzz_key}"}
    failures: dict[str, str] = {}
    for result in api_schema.get_all_operations():
        # The event stream too: every hostile request is refused before a stream could open.
        operation = result.ok()

        @given(case=_hostile_case(operation))
        @settings(max_examples=12, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck), database=None)
        def run(case) -> None:
            response = case.call_and_validate(headers=headers,
                                              checks=[not_a_server_error, content_type_conformance])
            assert response.status_code == 400, (case.query, case.path_parameters, response.text[:300])
            assert response.json()["error"]["code"] == "validation_error"

        try:
            run()
        except Exception as exc:
            failures[operation.label] = _described(exc)[:2000]
    assert not failures, "\n\n".join(f"{label}: {message}" for label, message in failures.items())


def test_event_stream_of_an_unknown_job_is_404(fuzz_app, fuzz_key) -> None:
    # The stream endpoint is left out of the generated run (a known job's stream stays open
    # until the job ends); its error paths are checked here.
    client = fuzz_app.test_client()
    headers = {"Authorization": f"Bearer {fuzz_key}"}
    for job in ("not-a-uuid", str(uuid.uuid4())):
        response = client.get(f"/v1/jobs/{job}/events", headers=headers)
        assert response.status_code == 404
        assert response.get_json()["error"]["code"] == "not_found"


def test_interactive_docs_are_served_without_a_cdn(fuzz_app) -> None:
    client = fuzz_app.test_client()
    page = client.get("/docs")
    assert page.status_code == 200 and b"/openapi.json" in page.data
    script = client.get("/docs/static/swagger-ui-bundle.js")
    assert script.status_code == 200 and len(script.data) > 100_000
    assert client.get("/docs/static/../../../etc/passwd").status_code == 404


def test_interactive_docs_have_the_web_page_s_policy_and_no_inline_script(fuzz_app) -> None:
    client = fuzz_app.test_client()
    web_page = client.get("/")
    assert web_page.status_code == 200
    for path in ("/docs", "/docs/init.js", "/docs/static/swagger-ui-bundle.js",
                 "/docs/static/swagger-ui.css"):
        response = client.get(path)
        assert response.status_code == 200, path
        for header in ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"):
            assert response.headers[header] == web_page.headers[header], (path, header)
    policy = client.get("/docs").headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self';" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert client.get("/docs").headers["X-Content-Type-Options"] == "nosniff"
    # Every script on the page is a file of this origin (script-src 'self' runs no inline one).
    page = client.get("/docs").get_data(as_text=True)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts and all(re.search(r'src="/docs/', attrs) and not body.strip()
                           for attrs, body in scripts)
    for attrs, _ in scripts:
        src = re.search(r'src="([^"]+)"', attrs)
        assert src is not None and client.get(src.group(1)).status_code == 200
    assert client.get("/docs/init.js").mimetype == "text/javascript"


def test_interactive_docs_do_not_keep_the_api_key(fuzz_app) -> None:
    # Swagger UI stores what "Authorize" took in localStorage only with persistAuthorization;
    # the start script turns it off and removes what an earlier release stored.
    script = fuzz_app.test_client().get("/docs/init.js").get_data(as_text=True)
    assert "persistAuthorization: false" in script
    assert re.search(r"localStorage\.removeItem\(\"authorized\"\)", script)
    assert "setItem" not in script and "persistAuthorization: true" not in script
    assert "validatorUrl: null" in script  # the description is not sent to swagger.io
