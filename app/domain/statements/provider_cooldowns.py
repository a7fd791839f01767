"""The statements of app/domain/provider_cooldowns.py: transcription providers on cool-down, shared
by every worker."""

from __future__ import annotations

from sqlalchemy import text

#: Providers cooling now: the epoch seconds their cool-down ends, the 429s that put them
#: there, the last one's error.
ACTIVE_COOLDOWNS = text("""
SELECT provider, extract(epoch FROM until) AS until, hits, last_error
FROM provider_cooldowns
WHERE until > now()
ORDER BY provider
""")


#: A provider's cool-down runs to now + :seconds, never shortened by a later, shorter
#: answer (two workers meeting 429s at once keep the longer).  ``hits`` counts the 429s that
#: put it on cool-down since it last cooled down fully.
RECORD_COOLDOWN = text("""
INSERT INTO provider_cooldowns AS c (provider, until, last_error)
VALUES (:provider, now() + make_interval(secs => :seconds), :error)
ON CONFLICT (provider) DO UPDATE
SET until = greatest(c.until, EXCLUDED.until),
    hits = CASE WHEN c.until > now() THEN c.hits + 1 ELSE 1 END,
    last_error = EXCLUDED.last_error,
    updated_at = now()
""")
