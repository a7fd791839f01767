"""E-mail attachments past the limits (issue 31): a mail whose attachments a limit drops is
still completed, and the drop is counted on the document and in its job, never silent."""

from __future__ import annotations

import io
from email.message import EmailMessage

import pytest

from app.services.submission import stage_record
from extractors.attachments import MAX_ATTACHMENTS, MAX_DEPTH, roll_up_dropped
from extractors.base import ExtractionResult
from extractors.router import extract
from tests.conftest import bearer, wait_for

# With the chain of forwards, 52 attachments: two past the 50th.
NOTES = 51


def _message(subject: str, body: str, attachments: list[tuple[str, bytes | EmailMessage]]) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.org", "b@example.org", subject
    message.set_content(body)
    for name, payload in attachments:
        if isinstance(payload, EmailMessage):
            message.add_attachment(payload, filename=name)  # message/rfc822
        else:
            message.add_attachment(payload, maintype="text", subtype="plain", filename=name)
    return message


def _mail_past_the_limits() -> bytes:
    """52 attachments: first (so that it is read) a chain of forwards, one inside the next,
    MAX_DEPTH deep, whose innermost attachment would be read at depth 4, one past the limit;
    then 51 notes, the last two of which are past the 50th."""
    inner: bytes | EmailMessage = b"Buried four levels down: never read."
    name = "deep.txt"
    for level in range(MAX_DEPTH, 0, -1):
        inner = _message(f"Forward {level}", f"Forwarded message at level {level}.", [(name, inner)])
        name = f"forward-{level}.eml"
    notes: list[tuple[str, bytes | EmailMessage]] = [
        (f"note-{i:02d}.txt", f"Assay note {i}: kinase activity measured.".encode())
        for i in range(1, NOTES + 1)]
    return _message("Lab results", "All the assay notes are attached.", [(name, inner), *notes]).as_bytes()


def _chain(result: ExtractionResult) -> list[ExtractionResult]:
    """The results along the chain of forwards: the mail, forward-1, forward-2, forward-3."""
    found = [result]
    while found[-1].attachments and found[-1].attachments[0].name.startswith("forward-"):
        child = found[-1].attachments[0].result
        assert child is not None
        found.append(child)
    return found


@pytest.mark.system
def test_attachments_past_the_limits_are_counted_on_the_mail():
    mail = extract(_mail_past_the_limits(), filename="results.eml")  # no error: the mail is read
    assert [a.name for a in mail.attachments] == \
        ["forward-1.eml", *[f"note-{i:02d}.txt" for i in range(1, MAX_ATTACHMENTS)]]
    assert all(a.result is not None for a in mail.attachments)
    assert mail.signals["attachments_dropped"] == {"depth_limit": 0, "count_limit": 2, "total": 2}
    assert "2 of 52 attachments not read" in mail.warnings[0] and "(count limit)" in mail.warnings[0]

    chain = _chain(mail)
    assert len(chain) == MAX_DEPTH + 1
    deepest = chain[-1]
    assert deepest.attachments == [] and "Forwarded message at level 3" in deepest.markdown
    assert deepest.signals["attachments_dropped"] == {"depth_limit": 1, "count_limit": 0, "total": 1}
    assert any("(depth limit)" in w for w in deepest.warnings)

    # What the worker does before storing the documents: every level counts its whole tree.
    assert roll_up_dropped(mail) == {"depth_limit": 1, "count_limit": 2}
    assert mail.signals["attachments_dropped"] == \
        {"depth_limit": 1, "count_limit": 2, "total": 3, "nested": 1}
    assert mail.warnings[-1] == "1 attachment not read inside its attachments (depth limit: 1)"
    assert chain[1].signals["attachments_dropped"] == \
        {"depth_limit": 1, "count_limit": 0, "total": 1, "nested": 1}
    assert mail.report()["signals"]["attachments_dropped"]["total"] == 3  # what is stored


def test_a_mail_within_the_limits_reports_no_drop():
    mail = extract(_message("Short", "One note.", [("note.txt", b"Kinase notes.")]).as_bytes(),
                   filename="short.eml")
    assert roll_up_dropped(mail) == {"depth_limit": 0, "count_limit": 0}
    assert "attachments_dropped" not in mail.signals and mail.warnings == []


def test_a_job_and_its_mail_show_the_dropped_attachments(client, key, engine, storage, worker):
    """Through the API and a real worker: the mail completes, its document carries the
    warning and the counts, and the job counts them."""
    upload = {"files": [(io.BytesIO(_mail_past_the_limits()), "results.eml")]}
    response = client.post("/v1/jobs", data=upload, headers=bearer(key), content_type="multipart/form-data")
    assert response.status_code == 202, response.get_json()
    assert response.get_json()["attachments_dropped"] == 0  # nothing read yet
    job_id = response.get_json()["id"]

    def finished():
        body = client.get(f"/v1/jobs/{job_id}", headers=bearer(key)).get_json()
        return body if body["status"] in ("completed", "completed_with_errors", "failed") else None

    job = wait_for(finished, timeout=300, what=f"job {job_id}")
    assert (job["status"], job["completed_documents"], job["failed_documents"]) == ("completed", 1, 0)
    assert (job["attachments_dropped"], job["documents_with_dropped_attachments"]) == (3, 1)
    listed = client.get("/v1/jobs", headers=bearer(key)).get_json()["jobs"]
    assert [(j["id"], j["attachments_dropped"]) for j in listed] == [(job_id, 3)]

    documents = client.get(f"/v1/jobs/{job_id}/documents", headers=bearer(key)).get_json()["documents"]
    assert [d["status"] for d in documents] == ["completed"]
    detail = client.get(f"/v1/documents/{documents[0]['id']}", headers=bearer(key)).get_json()
    assert detail["status"] == "completed"
    assert detail["extraction"]["signals"]["attachments_dropped"] == \
        {"depth_limit": 1, "count_limit": 2, "total": 3, "nested": 1}
    warnings = detail["extraction"]["warnings"]
    assert any("2 of 52 attachments not read" in w for w in warnings)
    assert "1 attachment not read inside its attachments (depth limit: 1)" in warnings
    assert len(detail["attachments"]) == MAX_ATTACHMENTS
    assert {a["status"] for a in detail["attachments"]} == {"completed"}

    # The attachment where the depth limit struck says so too.
    forward = next(a for a in detail["attachments"] if a["document_id"] == "results.eml#forward-1.eml")
    for name in ("forward-2.eml", "forward-3.eml"):
        below = client.get(f"/v1/documents/{forward['id']}", headers=bearer(key)).get_json()["attachments"]
        forward = next(a for a in below if a["filename"] == name)
    deepest = client.get(f"/v1/documents/{forward['id']}", headers=bearer(key)).get_json()
    assert deepest["status"] == "completed" and deepest["attachments"] == []
    assert deepest["extraction"]["signals"]["attachments_dropped"] == \
        {"depth_limit": 1, "count_limit": 0, "total": 1}


def test_a_job_without_mail_counts_no_dropped_attachments(engine, storage, config, tenant):
    from app.domain import jobs
    from app.services.processing import process_batch

    record = stage_record(storage, tenant, {"id": "r1", "title": "Plain", "text": "Nothing attached.",
                                            "metadata": {}})
    with engine.begin() as conn:
        job_id, _ = jobs.create_job(conn, tenant, [record], batch_size=10)
    assert process_batch(engine, storage, config, job_id, 0).completed == 1
    with engine.begin() as conn:
        jobs.finalize_job(conn, job_id)
        progress = jobs.job_progress(conn, job_id, tenant)
    assert progress is not None and progress.completed_documents == 1
    assert (progress.attachments_dropped, progress.documents_with_dropped_attachments) == (0, 0)


def test_an_attachment_over_the_zip_limits_fails_on_its_own_and_is_not_a_drop():
    """The ZIP limits (extractors/zip_limits.py) drop nothing: such an attachment is read,
    refused as too_large, and listed (and stored) as a failed attachment of the mail."""
    import zipfile

    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("word/document.xml", b"\0" * (4 * 1024 * 1024))  # inflates ~1000 times
    message = _message("Bomb", "A suspicious report.", [])
    message.add_attachment(packed.getvalue(), maintype="application", subtype="zip", filename="report.docx")
    mail = extract(message.as_bytes(), filename="bomb.eml")
    assert [(a.name, a.error_code) for a in mail.attachments] == [("report.docx", "too_large")]
    assert mail.signals["attachments"] == \
        [{"name": "report.docx", "status": "failed", "error_code": "too_large"}]
    assert roll_up_dropped(mail) == {"depth_limit": 0, "count_limit": 0}
    assert "attachments_dropped" not in mail.signals
