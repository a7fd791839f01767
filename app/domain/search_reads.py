"""Where a search reads: a PostgreSQL streaming replica (``PAGEMILL_SEARCH_DATABASE_URLS``)
when one is up and fresh enough, else the primary.  Only the search statement goes there;
authentication, rate limits, usage and every job's state stay on the primary.

- **Choice.**  Replicas are taken in turn (round-robin over the calls), skipping those left
  out; with none configured, or none usable, the primary serves.
- **Down.**  A replica whose connection fails (refused, dropped, a statement cancelled by a
  recovery conflict) is left out for ``retry`` seconds; the search that met the failure is
  served by the next replica or the primary: a search never fails because a replica did.
- **Lag, in seconds, through WAL positions.**  At most every ``sample_interval`` the
  primary's WAL flush position is read and kept with the time it was read.  A replica is
  fresh when its replay position (``pg_last_wal_replay_lsn()``, read in the search's own
  transaction just before the search) has reached a position the primary had within the last
  ``max_lag`` seconds: its view is then at most ``max_lag`` old.  Otherwise it is lagging, or
  there is no sample to prove it is not, and the search goes to the next replica or the
  primary; the replica is asked again by the next search.  Not
  ``now() - pg_last_xact_replay_timestamp()``: on a primary without writes the last replayed
  commit grows old although the replica has everything (every replica would look lagging
  after ``max_lag`` quiet seconds), and it compares two machines' clocks.  Not the bytes
  between the positions either: a bound in bytes is seconds under light load and a fraction
  of one under a bulk load.  The cost: the first search after ``max_lag`` quiet seconds,
  while the primary is writing, has only a sample taken just now, which a replica a few
  milliseconds behind has not reached yet: that one search is served by the primary.
- **Read-your-writes.**  A search that must see a finished job passes the job's commit LSN
  (``jobs.commit_lsn``, migration 0028): the chosen replica is polled
  (``pg_last_wal_replay_lsn()``, 2 ms doubling to 50 ms) until it has replayed that far, for
  at most ``wait`` seconds, then the search runs in that transaction (read committed: its
  snapshot is taken after the replay was seen).  Past ``wait`` the primary serves it.

PostgreSQL 18 has no ``WAIT FOR LSN`` (it comes in 19), hence the polling.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DatabaseError, InterfaceError, OperationalError, SQLAlchemyError

from app.domain.statements import search_reads as sql
from app.infra import metrics
from app.infra.error_text import error_line

log = logging.getLogger(__name__)

T = TypeVar("T")

PRIMARY = "primary"
# The wait for a replica to replay a job: polls 2 ms apart at first (a replica a few ms behind
# answers at once), doubling to 50 ms (a slow one costs at most 20 round trips a second).
_FIRST_POLL, _LONGEST_POLL = 0.002, 0.05


def lsn_value(lsn: str) -> int:
    """PostgreSQL's 'X/Y' WAL position as one number (X the high 32 bits, Y the low)."""
    high, _, low = lsn.partition("/")
    return (int(high, 16) << 32) | int(low, 16)


@dataclass(frozen=True)
class Standing:
    """Where a replica stands against the primary, read now (``pagemill doctor``)."""

    replayed: str | None  # its replay position; None: it replays no WAL (not a standby)
    bytes_behind: int | None  # the primary's flush position minus that


def standing(primary: Engine, replica: Engine) -> Standing:
    """Read the replica's replay position, then the primary's flush position (raises what
    connecting to either raises)."""
    with replica.connect() as conn:
        replayed = conn.execute(sql.REPLAY_LSN).scalar_one_or_none()
    with primary.connect() as conn:
        flushed = conn.execute(sql.FLUSH_LSN).scalar_one()
    return Standing(replayed, None if replayed is None else max(0, lsn_value(flushed) - lsn_value(replayed)))


@dataclass(frozen=True)
class ReplicaPolicy:
    """``PAGEMILL_SEARCH_REPLICA_MAX_LAG_SECONDS``, ``..._WAIT_SECONDS``, ``..._RETRY_SECONDS``
    (their defaults are app/config.py's)."""

    max_lag: float
    wait: float
    retry: float

    @property
    def sample_interval(self) -> float:
        """How often the primary's position is read at most (by a process that searches):
        lag is then judged to within a quarter of its bound, for at most one round trip to
        the primary a second."""
        return min(1.0, self.max_lag / 4)


@dataclass(frozen=True)
class Served(Generic[T]):
    """What a read returned, who served it (``PRIMARY`` or a replica's name) and why."""

    value: T
    by: str
    # 'replica'; or why the primary: 'no_replicas', 'asked' (the caller needs the primary),
    # 'wait_timed_out' (no replica replayed the job in time), 'replicas_unusable',
    # 'replica_error' (the read failed on the replica for a reason other than its connection).
    reason: str


@dataclass
class Replica:
    name: str
    engine: Engine
    # time.monotonic() until which it is left out (found down).
    left_out_until: float = 0.0
    # Whether it was last found lagging for sure (to log the changes only).
    lagging: bool = False
    # Whether it said it replays no WAL (logged once).
    unmeasured: bool = False


class SearchReads:
    """The primary and the replicas a process's searches read from (one per runtime)."""

    def __init__(self, primary: Engine, replicas: Sequence[Replica], policy: ReplicaPolicy,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.primary = primary
        self.replicas = list(replicas)
        self.policy = policy
        self._clock = clock
        self._lock = threading.Lock()
        self._turn = 0
        # (time read, primary flush position), oldest first: those of the last max_lag
        # seconds and the newest one before them.
        self._samples: deque[tuple[float, int]] = deque()
        self._sampled_at = float("-inf")
        # Reads served, by server: what tests and an operator's debugger look at.
        self.served: Counter[str] = Counter()

    def run(self, work: Callable[[Connection], T], after_lsn: str | None = None,
            primary: bool = False) -> Served[T]:
        """``work`` (a read) in a transaction on a replica, or on the primary when ``primary``,
        when no replica is usable, or when none replays ``after_lsn`` within the wait."""
        if primary or not self.replicas:
            return self._on_primary(work, "asked" if primary else "no_replicas")
        self._sample()  # before the replicas' positions are read: an idle replica then has it
        for replica in self._candidates():
            try:
                with replica.engine.begin() as conn:
                    replay = conn.execute(sql.REPLAY_LSN).scalar_one_or_none()
                    if not self._fresh(replica, replay) or (after_lsn is not None and replay is None):
                        continue  # behind, or cannot say whether it has the job
                    if after_lsn is not None and not self._replays(conn, str(replay), after_lsn):
                        break  # the replica's connection is given back before the primary's is taken
                    value = work(conn)
            except (OperationalError, InterfaceError) as exc:
                self._leave_out(replica, error_line(exc))
                continue
            except DatabaseError as exc:
                # Not the connection: the read itself failed there -- most likely a schema the
                # replica has not replayed yet (new code before a migration reached it).  The
                # primary answers this search; the replica stays in (if the read fails there
                # too, that error is the search's, as without replicas).
                why = error_line(exc)
                log.warning(f"search replica {replica.name} failed a read, served by the primary: {why}",
                            extra={"replica": replica.name, "reason": why})
                return self._on_primary(work, "replica_error")
            self._count(replica.name, "replica")
            return Served(value, replica.name, "replica")
        else:
            return self._on_primary(work, "replicas_unusable")
        return self._on_primary(work, "wait_timed_out")

    def _on_primary(self, work: Callable[[Connection], T], reason: str) -> Served[T]:
        with self.primary.begin() as conn:
            value = work(conn)
        self._count(PRIMARY, reason)
        return Served(value, PRIMARY, reason)

    def _count(self, name: str, reason: str) -> None:
        with self._lock:
            self.served[name] += 1
        metrics.count_search_read(name, reason)

    def _candidates(self) -> list[Replica]:
        """The replicas not left out, starting at the next one's turn."""
        with self._lock:
            start, self._turn = self._turn, (self._turn + 1) % len(self.replicas)
            now = self._clock()
            turn = self.replicas[start:] + self.replicas[:start]
            return [r for r in turn if r.left_out_until <= now]

    def _leave_out(self, replica: Replica, why: str) -> None:
        with self._lock:
            replica.left_out_until = self._clock() + self.policy.retry
        # The gist in the message too: text lines show only the boundary fields.
        log.warning(f"search replica {replica.name} left out for {self.policy.retry:g} s: {why}", extra={
            "replica": replica.name, "url": replica.engine.url.render_as_string(hide_password=True),
            "reason": why, "seconds": self.policy.retry})

    def _fresh(self, replica: Replica, replay: str | None) -> bool:
        """Whether the replica has replayed a position the primary had within the last
        ``max_lag`` seconds.  A server that replays nothing (``None``: not a streaming
        standby, e.g. the primary named by mistake) has nothing to measure and counts as fresh
        (said once).  A replica that misses WAL older than that is
        lagging for sure, and said so (once, until it is fresh again); one that is neither
        proven fresh nor known to lag (no sample old enough yet) is only passed over."""
        if replay is None:
            if not replica.unmeasured:
                replica.unmeasured = True
                log.warning(f"search replica {replica.name} reports no WAL replay position (not a "
                            "streaming standby): its lag is not measured, and searches with "
                            "after_job go to the primary", extra={"replica": replica.name})
            return True
        position = lsn_value(replay)
        with self._lock:
            bound = self._clock() - self.policy.max_lag
            window = [at_position for at, at_position in self._samples if at >= bound]
            older = [at_position for at, at_position in self._samples if at < bound]
            fresh = bool(window) and window[0] <= position
            lags = not fresh and bool(older) and older[-1] > position
            was = replica.lagging
            replica.lagging = lags or (was and not fresh)
        if replica.lagging != was:
            said = f"over {self.policy.max_lag:g} s behind the primary" if lags else "caught up"
            log.log(logging.WARNING if lags else logging.INFO, f"search replica {replica.name} {said}",
                    extra={"replica": replica.name, "replayed": replay})
        return fresh

    def _sample(self) -> None:
        """Read the primary's flush position if the last reading is older than the interval."""
        with self._lock:
            stamp = self._clock()
            if stamp - self._sampled_at < self.policy.sample_interval:
                return
            self._sampled_at = stamp  # one reader at a time; the others use what is there
        try:
            with self.primary.connect() as conn:
                position = lsn_value(conn.execute(sql.FLUSH_LSN).scalar_one())
        except SQLAlchemyError:  # the primary's own trouble shows in the searches it serves
            log.warning("could not read the primary's WAL position", exc_info=True)
            return
        with self._lock:
            # Stamped with the time before the read: a replica that has this position has
            # everything the primary had written by then, so it is at most now - stamp behind.
            self._samples.append((stamp, position))
            if len(self._samples) > 1 and self._samples[-2][0] > stamp:  # a slow read came last
                self._samples = deque(sorted(self._samples))
            # Kept: those of the last max_lag seconds, and the newest one before them (a
            # replica without its position is lagging for sure).
            while len(self._samples) > 1 and self._samples[1][0] < self._clock() - self.policy.max_lag:
                self._samples.popleft()

    def _replays(self, conn: Connection, replay: str, target: str) -> bool:
        """Poll until this replica has replayed ``target``; ``False`` after the wait."""
        goal, deadline, pause = lsn_value(target), self._clock() + self.policy.wait, _FIRST_POLL
        while lsn_value(replay) < goal:
            left = deadline - self._clock()
            if left <= 0:
                return False
            time.sleep(min(pause, left))
            pause = min(2 * pause, _LONGEST_POLL)
            replay = conn.execute(sql.REPLAY_LSN).scalar_one()
        return True
