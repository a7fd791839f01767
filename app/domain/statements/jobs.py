"""The statements of app/domain/jobs.py: jobs, their batches and documents, from submission through
claiming, completion, cancellation, retry and deletion.

The progress of a job is one query shape read three ways (one job, one job of a tenant, a page of
a tenant's jobs): ``_PROGRESS`` holds it, and each use is a constant below it with its filter and
order filled in at import.  Values are bind parameters in every case, never formatted in."""

from __future__ import annotations

from sqlalchemy import text

#: A new job of tenant :tenant; :key is its idempotency key (unique per tenant: a concurrent
#: job with the same key makes this raise), :api_key_id the key that submitted it,
#: :traceparent the trace its tasks join (NULL when the submitter does not trace).
INSERT_JOB = text("""
        INSERT INTO jobs (id, tenant_id, total_documents, batch_size, options, idempotency_key,
                          request_sha256, api_key_id, request_id, traceparent)
        VALUES (:id, :tenant, :total, :batch_size, CAST(:options AS jsonb), :key, :sha,
                CAST(:api_key_id AS uuid), :request_id, :traceparent)
    """)


#: Batches 0 to :count - 1 of job :job, each with its task id (<job>:<batch>) and the
#: concurrency group (:slot) whose slots it takes (app/domain/admission.py); :heavy for a remote OCR job.
INSERT_BATCHES = text("""
        INSERT INTO batches (job_id, batch_no, task_id, slot_key, heavy, priority)
        SELECT CAST(:job AS uuid), n, CAST(:job AS text) || ':' || n, :slot, :heavy, :priority
        FROM generate_series(0, :count - 1) AS n
    """)


#: Every document of job :job in one statement: parallel arrays unnested together, each
#: document's batch from its position (WITH ORDINALITY) and :batch_size.
INSERT_DOCUMENTS = text("""
        INSERT INTO documents (tenant_id, job_id, external_id, batch_no, source, object_key,
                               filename, mime_type, size_bytes, sha256, metadata, url)
        SELECT :tenant, :job, u.external_id, (u.ord - 1) / :batch_size, u.source, u.object_key,
               u.filename, u.mime, u.size, u.sha, CAST(u.meta AS jsonb), u.url
        FROM unnest(CAST(:external_ids AS text[]), CAST(:sources AS text[]),
                    CAST(:keys AS text[]), CAST(:filenames AS text[]), CAST(:mimes AS text[]),
                    CAST(:sizes AS bigint[]), CAST(:shas AS text[]), CAST(:metas AS text[]),
                    CAST(:urls AS text[]))
             WITH ORDINALITY AS u(external_id, source, object_key, filename, mime, size, sha, meta,
                                  url, ord)
    """)


#: A batch holding audio or video (transcribed by a remote provider, minutes per file) is of
#: the heavy kind too, and counts its recordings: its task goes to the media queue.
MARK_MEDIA_BATCHES = text("""
        UPDATE batches b SET heavy = true, media_documents = m.n
        FROM (SELECT batch_no, count(*) AS n FROM documents
              WHERE job_id = CAST(:job AS uuid)
                AND (mime_type LIKE 'audio/%' OR mime_type LIKE 'video/%')
              GROUP BY batch_no) m
        WHERE b.job_id = CAST(:job AS uuid) AND b.batch_no = m.batch_no
    """)


#: Job :id's batches were handed to admission.
MARK_JOB_HANDED = text("UPDATE jobs SET handed_at = now() WHERE id = :id")


# A job row with its counts, from its submitted documents (attachments are listed under them)
# and batches: {where} picks the jobs, {order} orders and pages them.  Only a mail's report
# can count dropped attachments (:mail_types): reading the extraction report of every other
# document would cost the API's most polled query for nothing.
_PROGRESS = """
SELECT j.id, j.tenant_id, j.status, j.total_documents, j.batch_size, j.options, j.retries,
       j.created_at,
       j.updated_at, j.handed_at, j.finished_at,
       count(d.id) FILTER (WHERE d.status = 'completed') AS completed_documents,
       count(d.id) FILTER (WHERE d.status = 'failed') AS failed_documents,
       count(d.id) FILTER (WHERE d.status = 'cancelled') AS cancelled_documents,
       count(d.id) FILTER (WHERE d.status = 'processing') AS processing_documents,
       count(d.id) FILTER (WHERE d.status = 'pending') AS pending_documents,
       (SELECT count(*) FROM batches b WHERE b.job_id = j.id) AS total_batches,
       (SELECT count(*) FROM batches b WHERE b.job_id = j.id AND b.status = 'done') AS done_batches,
       coalesce(sum(CAST(d.extraction -> 'signals' -> 'attachments_dropped' ->> 'total' AS int))
                FILTER (WHERE d.mime_type = ANY(CAST(:mail_types AS text[]))), 0) AS attachments_dropped,
       count(d.id) FILTER (WHERE d.mime_type = ANY(CAST(:mail_types AS text[]))
                           AND d.extraction -> 'signals' -> 'attachments_dropped' IS NOT NULL)
           AS documents_with_dropped_attachments
FROM jobs j LEFT JOIN documents d ON d.job_id = j.id AND d.parent_id IS NULL
WHERE {where}
GROUP BY j.id
{order}
"""


#: The progress of job :job, whoever's it is (the CLI, workers).
JOB_PROGRESS = text(_PROGRESS.format(where="j.id = CAST(:job AS uuid)", order=""))


#: The progress of job :job if it is tenant :tenant's (the API).
JOB_PROGRESS_OF_TENANT = text(_PROGRESS.format(where="j.id = CAST(:job AS uuid) AND j.tenant_id = :tenant",
                                                order=""))


#: The job row lock, taken first by every transaction that changes several of a job's
#: documents (claim, cancel, delete), so that they queue on it instead of deadlocking.
LOCK_JOB = text("SELECT 1 FROM jobs WHERE id = CAST(:job AS uuid) FOR UPDATE")


#: LOCK_JOB for the job document :id (tenant :tenant's) belongs to.
LOCK_JOB_OF_DOCUMENT = text("""
            SELECT 1 FROM jobs j JOIN documents d ON d.job_id = j.id
            WHERE d.id = CAST(:id AS uuid) AND d.tenant_id = :tenant FOR UPDATE OF j
        """)


#: Batch (:job, :batch) runs (one more delivery of its task); returns how many recordings it holds.
START_BATCH = text("""
        UPDATE batches SET status = 'running', deliveries = deliveries + 1,
               started_at = coalesce(started_at, now())
        WHERE job_id = :job AND batch_no = :batch
        RETURNING media_documents
    """)


#: Job :job runs from its first batch on.
START_JOB = text("""
        UPDATE jobs SET status = 'running', updated_at = now()
        WHERE id = :job AND status = 'queued'
    """)


#: Batch (:job, :batch) is done: its slot is free (app/domain/admission.py).
FINISH_BATCH = text("""
        UPDATE batches SET status = 'done', finished_at = now()
        WHERE job_id = :job AND batch_no = :batch
    """)


#: Documents of batch (:job, :batch) left processing by :max_attempts crashed deliveries fail
#: as worker_crashed instead of looping.
FAIL_CRASHED_DOCUMENTS = text("""
        UPDATE documents SET status = 'failed', error_code = 'worker_crashed',
               error_message = 'processing was interrupted ' || attempts || ' times (worker '
                               'killed or out of memory?); giving up on this document',
               finished_at = now(), updated_at = now()
        WHERE job_id = :job AND batch_no = :batch AND status = 'processing'
          AND attempts >= :max_attempts
    """)


#: Take the unfinished documents of batch (:job, :batch), counting the attempt; terminal ones
#: are never touched again, so a duplicate delivery repeats no finished work.
CLAIM_BATCH_DOCUMENTS = text("""
        UPDATE documents SET status = 'processing', attempts = attempts + 1,
               started_at = now(), updated_at = now()
        WHERE job_id = :job AND batch_no = :batch AND status IN ('pending', 'processing')
        RETURNING id, tenant_id, job_id, external_id, object_key, filename, mime_type, sha256,
                  metadata, attempts, url, source, status
    """)


#: Documents still in progress marked completed with what they were made into; the ids of those
#: that were (a cancelled or deleted one is left as it is).
COMPLETE_DOCUMENTS = text("""
UPDATE documents d SET status = 'completed', extractor = u.extractor, markdown = u.markdown,
       page_count = u.pages, chunk_count = u.chunks, error_code = NULL, error_message = NULL,
       quality = u.quality, language = u.language, extraction = CAST(u.report AS jsonb),
       annotation = CAST(u.annotation AS jsonb), finished_at = now(), updated_at = now()
FROM unnest(CAST(:ids AS uuid[]), CAST(:extractors AS text[]), CAST(:markdowns AS text[]),
            CAST(:pages AS int[]), CAST(:chunks AS int[]), CAST(:qualities AS real[]),
            CAST(:languages AS text[]), CAST(:reports AS text[]), CAST(:annotations AS text[]))
     AS u(id, extractor, markdown, pages, chunks, quality, language, report, annotation)
WHERE d.id = u.id AND d.status IN ('processing', 'waiting') AND d.deleted_at IS NULL
RETURNING d.id
""")


#: Document :id's row lock for the rest of the transaction, if it is still in progress: a
#: cancel or delete committing first is seen, one coming later waits for the index commit.
LOCK_DOCUMENT_FOR_COMMIT = text("""
        SELECT 1 FROM documents
        WHERE id = CAST(:id AS uuid) AND status IN ('processing', 'waiting') AND deleted_at IS NULL
        FOR UPDATE
    """)


#: The row locks of those of :ids still in progress that nobody else holds (SKIP LOCKED).
LOCK_DOCUMENTS_NOT_HELD = text("""
SELECT id FROM documents
WHERE id = ANY(CAST(:ids AS uuid[])) AND status IN ('processing', 'waiting') AND deleted_at IS NULL
ORDER BY id
FOR UPDATE SKIP LOCKED
""")


#: Documents of :ids whose own row and every ancestor's are in progress and not deleted: the
#: worker's checkpoint between stages.
LIVE_DOCUMENTS = text("""
WITH RECURSIVE chain AS (
    SELECT d.id AS document_id, d.id AS node_id, d.parent_id
    FROM documents d WHERE d.id = ANY(CAST(:ids AS uuid[]))
    UNION ALL
    SELECT c.document_id, p.id, p.parent_id
    FROM chain c JOIN documents p ON p.id = c.parent_id
)
SELECT c.document_id FROM chain c JOIN documents n ON n.id = c.node_id
GROUP BY c.document_id
HAVING bool_and(n.status IN ('processing', 'waiting') AND n.deleted_at IS NULL)
""")


#: Those of :ids still in progress although a document above them was cancelled or deleted
#: end: cancelled, and deleted too when an ancestor was, so that their job can finish.
END_ORPHANS = text("""
        WITH RECURSIVE above AS (
            SELECT d.id AS document_id, d.parent_id FROM documents d
            WHERE d.id = ANY(CAST(:ids AS uuid[]))
            UNION ALL
            SELECT a.document_id, p.parent_id FROM above a JOIN documents p ON p.id = a.parent_id
        ), ended AS (
            SELECT a.document_id, bool_or(p.deleted_at IS NOT NULL) AS deleted
            FROM above a JOIN documents p ON p.id = a.parent_id
            WHERE p.status NOT IN ('processing', 'waiting') OR p.deleted_at IS NOT NULL
            GROUP BY a.document_id
        )
        UPDATE documents d SET status = 'cancelled', finished_at = now(), updated_at = now(),
               error_code = CASE WHEN e.deleted THEN 'deleted' ELSE d.error_code END,
               error_message = 'ended with the document it is attached to',
               deleted_at = CASE WHEN e.deleted THEN now() ELSE d.deleted_at END
        FROM ended e
        WHERE d.id = e.document_id AND d.status IN ('processing', 'waiting')
    """)


#: URL document :id's fetched bytes (now stored like an upload's), while it is in progress.
RECORD_FETCH = text("""
        UPDATE documents SET object_key = :key, sha256 = :sha, size_bytes = :size,
               mime_type = :mime, filename = coalesce(filename, :filename), updated_at = now()
        WHERE id = :id AND status IN ('processing', 'waiting') AND deleted_at IS NULL
    """)


#: Whether a document not deleted (other than :besides) refers to stored object :key.
OBJECT_IN_USE = text("""
        SELECT 1 FROM documents
        WHERE object_key = :key AND deleted_at IS NULL
          AND (CAST(:besides AS uuid) IS NULL OR id <> CAST(:besides AS uuid))
        LIMIT 1
    """)


#: Complete document :id with the outcome of completed document :source (unchanged bytes
#: re-ingested): no extraction, OCR or embedding repeated.
COMPLETE_FROM = text("""
        UPDATE documents d SET status = 'completed', extractor = s.extractor, markdown = s.markdown,
               page_count = s.page_count, chunk_count = :chunks, quality = s.quality,
               language = s.language, extraction = s.extraction, annotation = s.annotation,
               error_code = NULL, error_message = NULL, finished_at = now(), updated_at = now()
        FROM documents s
        WHERE d.id = :id AND s.id = CAST(:source AS uuid) AND s.status = 'completed'
          AND d.status IN ('processing', 'waiting') AND d.deleted_at IS NULL
        RETURNING d.id
    """)


#: Document :id fails with :code and :message (its report kept, if given), while in progress.
FAIL_DOCUMENT = text("""
        UPDATE documents SET status = 'failed', error_code = :code, error_message = :message,
               extraction = COALESCE(CAST(:report AS jsonb), extraction),
               finished_at = now(), updated_at = now()
        WHERE id = :id AND status IN ('processing', 'waiting')
    """)


#: The options job :job was submitted with.
JOB_OPTIONS = text("SELECT options FROM jobs WHERE id = CAST(:job AS uuid)")


#: Job :job's terminal status from its documents, once none is unfinished (attachments
#: included): the submitted documents' outcomes decide it.  No row: unfinished or already final.
#: Its event is written by a trigger in the same transaction (migration 0016).
#: commit_lsn (migration 0028): the WAL insert position now, past the commit of every index
#: transaction of the job (they committed before this statement began), so a replica that has
#: replayed that far shows all of the job's documents.
FINALIZE_JOB = text("""
        WITH counts AS (
            -- The outcome is the submitted documents' (attachments are listed under them);
            -- nothing is final while any row, attachments included, is unfinished.
            SELECT count(*) FILTER (WHERE status = 'completed' AND parent_id IS NULL) AS completed,
                   count(*) FILTER (WHERE status = 'failed' AND parent_id IS NULL) AS failed,
                   count(*) FILTER (WHERE status NOT IN ('completed', 'failed', 'cancelled'))
                       AS unfinished
            FROM documents WHERE job_id = :job
        )
        UPDATE jobs j SET
            status = CASE WHEN c.failed = 0 AND c.completed = 0 THEN 'cancelled'
                          WHEN c.failed = 0 THEN 'completed'
                          WHEN c.completed = 0 THEN 'failed'
                          ELSE 'completed_with_errors' END,
            finished_at = now(), updated_at = now(), commit_lsn = pg_current_wal_insert_lsn()
        FROM counts c
        WHERE j.id = :job AND c.unfinished = 0 AND j.status IN ('queued', 'running')
        RETURNING j.status, j.tenant_id
    """)


#: Job :job of tenant :tenant: its status and, once terminal, where its outcome ends in the
#: primary's WAL (as text, 'X/Y'); no row: not the tenant's job.
JOB_COMMIT_LSN = text("""
        SELECT status, CAST(commit_lsn AS text) AS commit_lsn
        FROM jobs WHERE id = CAST(:job AS uuid) AND tenant_id = :tenant
    """)


#: Job :job's status.
JOB_STATUS = text("SELECT status FROM jobs WHERE id = :job")


#: Jobs written (or reopened) but never handed to admission, older than :age seconds: their
#: submitter died between the two.  Oldest first, at most 100 a run.
UNHANDED_JOBS = text("""
        SELECT j.id, j.retries, (SELECT count(*) FROM batches b WHERE b.job_id = j.id) AS batches
        FROM jobs j
        WHERE j.handed_at IS NULL AND j.status IN ('queued', 'running')
          AND j.updated_at < now() - make_interval(secs => :age)
        ORDER BY j.created_at
        LIMIT 100
    """)


#: Jobs whose documents are all terminal but which were never finalised (a lost chord
#: callback), untouched for :age seconds; at most 100 a run.
UNSETTLED_JOBS = text("""
        SELECT j.id FROM jobs j
        WHERE j.status IN ('queued', 'running')
          AND j.updated_at < now() - make_interval(secs => :age)
          AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.job_id = j.id
                          AND d.status NOT IN ('completed', 'failed', 'cancelled'))
        LIMIT 100
    """)


#: A use of idempotency key :key older than :window hours is released, so the key can name a new job.
RELEASE_OLD_IDEMPOTENCY_KEY = text("""
        UPDATE jobs SET idempotency_key = NULL
        WHERE tenant_id = :tenant AND idempotency_key = :key
          AND created_at < now() - make_interval(hours => :window)
    """)


#: The job of tenant :tenant created with idempotency key :key, and its request's hash.
FIND_IDEMPOTENT_JOB = text("""
        SELECT id, request_sha256 FROM jobs WHERE tenant_id = :tenant AND idempotency_key = :key
    """)


#: A page of tenant :tenant's jobs (:status NULL: any) with their progress, newest first.
LIST_JOBS = text(_PROGRESS.format(
    where="j.tenant_id = :tenant AND (CAST(:status AS text) IS NULL OR j.status = :status)",
    order="ORDER BY j.created_at DESC, j.id LIMIT :limit OFFSET :offset"))


# What a document statement returns about a document (a DocumentOutcome's fields).
_DOCUMENT_FIELDS = """
    d.id, d.job_id, d.external_id AS document_id, d.status, d.error_code, d.error_message,
    d.filename, d.mime_type, d.size_bytes, d.sha256, d.source, d.url, d.extractor, d.page_count,
    d.chunk_count, d.attempts, d.metadata, d.quality, d.language, d.annotation, d.created_at,
    d.started_at, d.finished_at, d.parent_id
"""


#: A page of job :job's submitted documents (tenant :tenant's; :status NULL: any), by batch and id.
LIST_DOCUMENTS = text(f"""
        SELECT {_DOCUMENT_FIELDS} FROM documents d
        WHERE d.tenant_id = :tenant AND d.job_id = CAST(:job AS uuid) AND d.deleted_at IS NULL
          AND d.parent_id IS NULL AND (CAST(:status AS text) IS NULL OR d.status = :status)
        ORDER BY d.batch_no, d.external_id
        LIMIT :limit OFFSET :offset
    """)


#: Tenant :tenant's indexed documents (what search reads), by external id after :after (NULL:
#: from the first), at most :limit; only ids starting with :prefix, only :mime_type, when given.
#: A keyset page: the (tenant_id, external_id) key serves the order and both bounds.
LIST_INDEXED_DOCUMENTS = text("""
        SELECT sd.external_id AS document_id, sd.source_document_id::text AS document_uuid,
               sd.job_id::text AS job_id, sd.title, sd.mime_type, sd.metadata, sd.chunk_count,
               sd.indexed_at
        FROM search_documents sd
        WHERE sd.tenant_id = CAST(:tenant AS uuid)
          AND (CAST(:after AS text) IS NULL OR sd.external_id > :after)
          AND (CAST(:prefix AS text) IS NULL
               OR (sd.external_id >= :prefix AND left(sd.external_id, length(:prefix)) = :prefix))
          AND (CAST(:mime_type AS text) IS NULL OR sd.mime_type = :mime_type)
        ORDER BY sd.external_id
        LIMIT :limit
    """)


#: Job :job's failed documents, attachments included, by external id (at most :limit).
FAILED_DOCUMENTS = text(f"""
        SELECT {_DOCUMENT_FIELDS} FROM documents d
        WHERE d.tenant_id = :tenant AND d.job_id = CAST(:job AS uuid) AND d.status = 'failed'
          AND d.deleted_at IS NULL
        ORDER BY d.external_id
        LIMIT :limit
    """)


#: Document :id of tenant :tenant with :chars characters of its Markdown from character :offset
#: (0-based), the Markdown's length, and whether its chunks are the ones searched.  substr counts
#: characters, as Python slices do, so offsets mean the same on both sides.
GET_DOCUMENT_MARKDOWN = text(f"""
        SELECT {_DOCUMENT_FIELDS},
               substr(d.markdown, CAST(:offset AS int) + 1, CAST(:chars AS int)) AS markdown,
               coalesce(length(d.markdown), 0) AS total_chars,
               EXISTS (SELECT 1 FROM search_documents sd JOIN chunks c ON c.search_document_id = sd.id
                       WHERE sd.tenant_id = d.tenant_id AND sd.source_document_id = d.id) AS indexed
        FROM documents d
        WHERE d.tenant_id = :tenant AND d.id = CAST(:id AS uuid) AND d.deleted_at IS NULL
    """)


#: Document :id of tenant :tenant with its Markdown and extraction report.
GET_DOCUMENT = text(f"""
        SELECT {_DOCUMENT_FIELDS}, d.markdown, d.extraction FROM documents d
        WHERE d.tenant_id = :tenant AND d.id = CAST(:id AS uuid) AND d.deleted_at IS NULL
    """)


#: Document :id of tenant :tenant (no row: not the tenant's, or deleted): its external id,
#: its number of indexed chunks, whether chunk :chunk (may be null) is one of them and its
#: position -- what a window over its chunks is cut from, in one pass over them.
CHUNK_WINDOW_BOUNDS = text("""
        SELECT d.external_id AS document_id, w.total_chunks, w.position,
               coalesce(w.has_chunk, false) AS has_chunk
        FROM documents d
        CROSS JOIN LATERAL (
            SELECT count(c.id) AS total_chunks, bool_or(c.id = :chunk) AS has_chunk,
                   count(c.id) FILTER (WHERE c.chunk_no < around.chunk_no) AS position
            FROM search_documents sd
            JOIN chunks c ON c.search_document_id = sd.id
            LEFT JOIN chunks around ON around.search_document_id = sd.id AND around.id = :chunk
            WHERE sd.tenant_id = :tenant AND sd.source_document_id = d.id) w
        WHERE d.tenant_id = :tenant AND d.id = CAST(:id AS uuid) AND d.deleted_at IS NULL
    """)


#: :count chunks (null: all) indexed from document :id, from position :start on, in order; none
#: when its content is not the one indexed.  The chunks' key (search_document_id, chunk_no)
#: serves the range without reading the others.
CHUNK_WINDOW = text("""
        SELECT c.id, c.chunk_no, c.text, c.heading_path, c.page_start, c.page_end, c.boxes,
               c.start_s, c.end_s, c.token_count
        FROM search_documents sd JOIN chunks c ON c.search_document_id = sd.id
        WHERE sd.tenant_id = :tenant AND sd.source_document_id = CAST(:id AS uuid)
        ORDER BY c.chunk_no
        OFFSET :start LIMIT :count
    """)


#: The attachments directly below document :id, by external id.
ATTACHMENTS_OF_DOCUMENT = text("""
        SELECT id, external_id AS document_id, filename, mime_type, status, error_code, error_message,
               chunk_count
        FROM documents WHERE parent_id = CAST(:id AS uuid) AND deleted_at IS NULL
        ORDER BY external_id
    """)


#: The row of attachment :external_id of document :parent: processing, or failed with :code.
#: Replays converge on the same row; no row when it is already terminal, the id is one the
#: client submitted, or the parent is no longer being processed.
UPSERT_ATTACHMENT = text("""
        INSERT INTO documents AS d (tenant_id, job_id, external_id, batch_no, source, object_key,
                                    filename, mime_type, size_bytes, sha256, metadata, status,
                                    error_code, error_message, attempts, started_at, finished_at,
                                    parent_id)
        SELECT p.tenant_id, p.job_id, :external_id, p.batch_no, 'attachment', :key, :name, :mime,
               :size, :sha, CAST(:metadata AS jsonb),
               CASE WHEN CAST(:code AS text) IS NULL THEN 'processing' ELSE 'failed' END,
               :code, :message, 1, now(), CASE WHEN CAST(:code AS text) IS NULL THEN NULL ELSE now() END,
               p.id
        -- Only under a parent still being processed: a cancelled mail gets no new attachments.
        FROM documents p WHERE p.id = CAST(:parent AS uuid) AND p.status = 'processing'
        ON CONFLICT (job_id, external_id) DO UPDATE SET
            object_key = excluded.object_key, mime_type = excluded.mime_type,
            size_bytes = excluded.size_bytes, sha256 = excluded.sha256, status = excluded.status,
            error_code = excluded.error_code, error_message = excluded.error_message,
            attempts = d.attempts + 1, started_at = now(), finished_at = excluded.finished_at,
            updated_at = now()
        WHERE d.parent_id = excluded.parent_id AND d.status NOT IN ('completed', 'failed', 'cancelled')
        RETURNING id, tenant_id, job_id, external_id, object_key, filename, mime_type, sha256,
                  metadata, attempts, url, source, status
    """)


#: Every attachment below document :id, attachments of attachments included.
ATTACHMENT_IDS = text("""
        WITH RECURSIVE below AS (
            SELECT id FROM documents WHERE parent_id = CAST(:id AS uuid) AND tenant_id = :tenant
            UNION ALL
            SELECT d.id FROM documents d JOIN below b ON d.parent_id = b.id
        )
        SELECT id FROM below
    """)


#: Job :job's status, row-locked, if it is tenant :tenant's: the job row lock orders
#: concurrent cancels, retries, deletes, claims and the finalising callback.
LOCK_JOB_OF_TENANT = text("""
        SELECT status FROM jobs WHERE id = CAST(:job AS uuid) AND tenant_id = :tenant FOR UPDATE
    """)


#: Cancel job :job's unfinished documents, those being processed too (their workers stop at
#: the next checkpoint).
CANCEL_DOCUMENTS = text("""
        UPDATE documents SET status = 'cancelled', finished_at = now(), updated_at = now(),
               error_message = CASE WHEN status = 'pending' THEN NULL
                                    ELSE 'cancelled while ' || status END
        WHERE job_id = :job AND status IN ('pending', 'processing', 'waiting')
    """)


#: Job :job is cancelled; its event is written by a trigger in the same transaction; its
#: commit_lsn as FINALIZE_JOB's (what it had indexed before the cancel is in the WAL before it).
CANCEL_JOB = text("""
        UPDATE jobs SET status = 'cancelled', finished_at = now(), updated_at = now(),
               commit_lsn = pg_current_wal_insert_lsn()
        WHERE id = :job
    """)


#: Job :job's failed documents (not deleted) are pending again; returns their batches.
REOPEN_FAILED_DOCUMENTS = text("""
        UPDATE documents SET status = 'pending', error_code = NULL, error_message = NULL,
               finished_at = NULL, updated_at = now()
        WHERE job_id = :job AND status = 'failed' AND deleted_at IS NULL
        RETURNING batch_no
    """)


#: Job :job runs again as its next retry, to be handed to admission anew; returns the retry number.
REOPEN_JOB = text("""
        UPDATE jobs SET status = 'running', retries = retries + 1, finished_at = NULL,
               handed_at = NULL, updated_at = now(), commit_lsn = NULL
        WHERE id = :job RETURNING retries
    """)


#: Batches :batches of job :job queue again, without a slot, to be admitted anew.
REQUEUE_BATCHES = text("""
        UPDATE batches SET status = 'queued', finished_at = NULL, admitted_at = NULL,
               published_at = NULL
        WHERE job_id = :job AND batch_no = ANY(CAST(:batches AS int[]))
    """)


#: Document :id of tenant :tenant is deleted (its Markdown dropped); an unfinished one is
#: cancelled here too, whoever is working on it.  Returns its external id and object key.
MARK_DOCUMENT_DELETED = text("""
        UPDATE documents SET deleted_at = now(), markdown = NULL, updated_at = now(),
               -- An unfinished document ends here, whoever is working on it: its worker
               -- stops at its next checkpoint and can no longer commit it (lock_for_commit).
               status = CASE WHEN status IN ('pending', 'processing', 'waiting') THEN 'cancelled'
                             ELSE status END,
               error_code = CASE WHEN status IN ('pending', 'processing', 'waiting') THEN 'deleted'
                                 ELSE error_code END,
               error_message = CASE WHEN status IN ('pending', 'processing', 'waiting')
                                    THEN 'deleted while ' || status ELSE error_message END,
               finished_at = CASE WHEN status IN ('pending', 'processing', 'waiting') THEN now()
                                  ELSE finished_at END
        WHERE id = CAST(:id AS uuid) AND tenant_id = :tenant AND deleted_at IS NULL
        RETURNING external_id, object_key
    """)


#: Whether document :id's content is the version indexed under its external id.
DOCUMENT_IS_INDEXED = text("""
        SELECT 1 FROM search_documents
        WHERE tenant_id = :tenant AND source_document_id = CAST(:id AS uuid)
    """)
