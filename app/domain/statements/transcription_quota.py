"""The statements of app/domain/transcription_quota.py: seconds transcribed per API key per UTC day,
reserved against the key's limit before a provider is called, settled afterwards."""

from __future__ import annotations

from sqlalchemy import text

# The row of a job without a key: NULLs cannot meet in a unique index on PostgreSQL 14, so the
# index (migration 0025) and every statement here read a missing key as the nil UUID.
_NO_KEY = "'00000000-0000-0000-0000-000000000000'::uuid"


# The limit of the key that submitted job :job: its own, else :default_limit; 0 (unlimited)
# for a job without a key.  A key deleted meanwhile falls back to the setting.
_JOB_METER = """
    SELECT j.tenant_id, j.api_key_id,
           CASE WHEN j.api_key_id IS NULL THEN 0
                ELSE coalesce(k.transcription_seconds_per_day, :default_limit) END AS limit_seconds
    FROM jobs j LEFT JOIN api_keys k ON k.id = j.api_key_id
    WHERE j.id = CAST(:job AS uuid)
"""


#: Add :seconds to the day's row of job :job's key (today, UTC, by the database's clock) if
#: that keeps the row within the key's limit, or whatever it is when :bounded is false (a
#: recording already transcribed: metered, not refused).  One statement: concurrent
#: reservations of one key serialise on the row (or on the unique index for the day's first),
#: and the ON CONFLICT condition is evaluated on the latest row, so a limit cannot be passed
#: twice.  Returns the row as it now is; no row: refused (or the job is gone).
RESERVE_TRANSCRIPTION = text(f"""
    WITH meter AS ({_JOB_METER})
    INSERT INTO transcription_usage AS u (tenant_id, api_key_id, day, seconds)
    SELECT tenant_id, api_key_id, (now() AT TIME ZONE 'UTC')::date, :seconds FROM meter
    WHERE NOT :bounded OR limit_seconds = 0 OR :seconds <= limit_seconds
    ON CONFLICT (tenant_id, day, coalesce(api_key_id, {_NO_KEY}))
    DO UPDATE SET seconds = u.seconds + EXCLUDED.seconds
    WHERE NOT :bounded OR (SELECT limit_seconds FROM meter) = 0
       OR u.seconds + EXCLUDED.seconds <= (SELECT limit_seconds FROM meter)
    RETURNING u.tenant_id::text AS tenant_id, u.api_key_id::text AS api_key_id, u.day
""")


#: What a refused reservation is measured against: the key's limit and its seconds today.
TRANSCRIPTION_STANDING = text(f"""
    WITH meter AS ({_JOB_METER})
    SELECT m.limit_seconds, coalesce(u.seconds, 0) AS used_seconds
    FROM meter m LEFT JOIN transcription_usage u
      ON u.tenant_id = m.tenant_id AND u.day = (now() AT TIME ZONE 'UTC')::date
     AND coalesce(u.api_key_id, {_NO_KEY}) = coalesce(m.api_key_id, {_NO_KEY})
""")


#: Move a reservation's row by :delta seconds (what was sent less what was reserved); never
#: below zero, whatever a concurrent settlement did.
SETTLE_TRANSCRIPTION = text(f"""
    UPDATE transcription_usage SET seconds = greatest(0, seconds + :delta)
    WHERE tenant_id = CAST(:tenant AS uuid) AND day = :day
      AND coalesce(api_key_id, {_NO_KEY}) = coalesce(CAST(:key AS uuid), {_NO_KEY})
""")
