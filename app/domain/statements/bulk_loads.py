"""The statements of app/domain/bulk_loads.py: bulk loads (``vector_index_loads``), the index size they
are measured against, and the lock that lets one graph build or drop run at a time."""

from __future__ import annotations

from sqlalchemy import text

#: The job's submitted documents not indexed yet under their id (a re-ingest adds no chunks),
#: NULL unless the job is still to run; the chunks and documents indexed (planner statistics:
#: no scan of a large table; -1 until the table was first analysed, read as 0).
INDEX_SIZE = text("""
SELECT (SELECT count(*) FROM documents d
        WHERE d.job_id = j.id AND d.parent_id IS NULL
          AND NOT EXISTS (SELECT 1 FROM search_documents s
                          WHERE s.tenant_id = d.tenant_id AND s.external_id = d.external_id))
           AS job_documents,
       greatest((SELECT reltuples FROM pg_class WHERE oid = 'chunks'::regclass), 0) AS chunks,
       greatest((SELECT reltuples FROM pg_class WHERE oid = 'search_documents'::regclass), 0)
           AS documents
FROM jobs j
WHERE j.id = CAST(:job AS uuid) AND j.status IN ('queued', 'running')
""")


#: Records the job as a bulk load (once: a redelivered first batch finds it recorded).
BEGIN_BULK_LOAD = text("""
INSERT INTO vector_index_loads (job_id, expected_chunks, indexed_chunks)
VALUES (CAST(:job AS uuid), :expected, :indexed)
ON CONFLICT (job_id) DO NOTHING
RETURNING job_id
""")


#: The job's bulk load is over; returns a row only when this call ended it.
END_BULK_LOAD = text("""
UPDATE vector_index_loads SET ended_at = now()
WHERE job_id = CAST(:job AS uuid) AND ended_at IS NULL
RETURNING job_id
""")


#: Ends the bulk loads of jobs that ended without a batch ending them (cancelled, deleted).
SETTLE_BULK_LOADS = text("""
UPDATE vector_index_loads l SET ended_at = now()
FROM jobs j
WHERE j.id = l.job_id AND l.ended_at IS NULL
  AND j.status NOT IN ('queued', 'running')
RETURNING l.job_id
""")


#: Ended bulk loads the graph has not been rebuilt after, and not tried to within :retry s.
UNBUILT_BULK_LOADS = text("""
SELECT count(*) FROM vector_index_loads
WHERE ended_at IS NOT NULL AND built_at IS NULL
  AND (build_attempted_at IS NULL OR build_attempted_at < now() - make_interval(secs => :retry))
""")


#: How many bulk loads are running: the graph is built only when none is.
RUNNING_BULK_LOADS = text("SELECT count(*) FROM vector_index_loads WHERE ended_at IS NULL")


#: The graph was rebuilt over every bulk load ended before :started (the build's start).
MARK_BUILT = text("""
UPDATE vector_index_loads SET built_at = now()
WHERE ended_at IS NOT NULL AND built_at IS NULL AND ended_at <= :started
""")


#: Take the graph-build lock (:key is app.domain.bulk_loads.BUILD_LOCK) for this session, without
#: waiting: false when a build or a drop holds it.
TRY_BUILD_LOCK = text("SELECT pg_try_advisory_lock(:key)")


#: The database's clock: a build's start, compared with ended_at (also the database's) by MARK_BUILT.
DATABASE_NOW = text("SELECT now()")


#: A build starts for the ended loads not built yet: the reconciler retries it only after
#: :retry s (UNBUILT_BULK_LOADS), not every run.
MARK_BUILD_ATTEMPTED = text("""
UPDATE vector_index_loads SET build_attempted_at = now()
WHERE ended_at IS NOT NULL AND built_at IS NULL
""")


#: Release the graph-build lock taken by TRY_BUILD_LOCK.
RELEASE_BUILD_LOCK = text("SELECT pg_advisory_unlock(:key)")


#: Whether job :job's bulk load (no row: it had none) has ended, and the graph been built after it.
LOAD_OF_JOB = text("""
SELECT ended_at IS NOT NULL AS ended, built_at IS NOT NULL AS built
FROM vector_index_loads WHERE job_id = CAST(:job AS uuid)
""")
