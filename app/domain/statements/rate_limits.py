"""The statements of app/domain/rate_limits.py: the per-key request rate limit (GCRA), decided and
recorded in one statement."""

from __future__ import annotations

from sqlalchemy import text

#: Decide one request of key :key_id and record it, in one statement.  The proposed row
#: (``excluded``) is a first request's: ``tat = now + T``, always admitted.  For a known key,
#: every SET expression reads the row as it was (``a``): admitted when ``a.tat - now <= tau``
#: (``excluded.tat - T`` is now); then ``tat = max(a.tat, now) + T``, which is
#: ``greatest(a.tat + T, excluded.tat)``; a refusal keeps ``a.tat``.  :now is NULL in service
#: (the database's clock at the statement) and a fixed time in tests, which drive the clock
#: through it.  Returns the verdict, the new arrival time and the clock it was decided at.
ADMIT_REQUEST = text("""
    INSERT INTO rate_limit_arrivals AS a (api_key_id, tat, admitted)
    VALUES (CAST(:key_id AS uuid),
            coalesce(CAST(:now AS timestamptz), statement_timestamp()) + CAST(:emission AS interval),
            true)
    ON CONFLICT (api_key_id) DO UPDATE SET
        admitted = a.tat <= excluded.tat - CAST(:emission AS interval) + CAST(:tolerance AS interval),
        tat = CASE WHEN a.tat <= excluded.tat - CAST(:emission AS interval) + CAST(:tolerance AS interval)
                   THEN greatest(a.tat + CAST(:emission AS interval), excluded.tat)
                   ELSE a.tat END
    RETURNING a.admitted, a.tat, coalesce(CAST(:now AS timestamptz), statement_timestamp()) AS now
""")
