"""The choice of where a search reads (app/domain/search_reads.py), on its own: WAL positions,
taking replicas in turn, leaving a failed one out for the retry period, and judging lag from
the primary's sampled positions.  Engines are made but never connected (tests/test_search_replicas.py
runs the same against a real primary and standby)."""

from __future__ import annotations

from sqlalchemy import create_engine

from app.config import DatabaseConfig
from app.domain.search_reads import Replica, ReplicaPolicy, SearchReads, lsn_value


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _policy(**chosen: float) -> ReplicaPolicy:
    """The configured defaults, with ``chosen`` over them."""
    database = DatabaseConfig()
    return ReplicaPolicy(**{"max_lag": database.search_replica_max_lag, "wait": database.search_replica_wait,
                            "retry": database.search_replica_retry, **chosen})


def _reads(n: int, clock: Clock, **policy: float) -> SearchReads:
    engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")  # never connected
    return SearchReads(engine, [Replica(f"replica-{i}", engine) for i in range(n)],
                       _policy(**policy), clock=clock)


def test_wal_positions_compare_as_numbers() -> None:
    assert lsn_value("0/3272E30") == 0x3272E30
    assert lsn_value("16/B374D848") == (0x16 << 32) | 0xB374D848
    # The high part counts first: text order would get these wrong.
    assert lsn_value("1/0") > lsn_value("0/FFFFFFFF") > lsn_value("0/9")


def test_replicas_are_taken_in_turn_and_a_failed_one_waits_out_the_retry_period() -> None:
    clock = Clock()
    reads = _reads(3, clock, retry=5.0)
    names = [[r.name for r in reads._candidates()] for _ in range(3)]
    assert names == [["replica-0", "replica-1", "replica-2"], ["replica-1", "replica-2", "replica-0"],
                     ["replica-2", "replica-0", "replica-1"]]
    reads._leave_out(reads.replicas[1], "it failed: connection refused")
    assert [r.name for r in reads._candidates()] == ["replica-0", "replica-2"]
    clock.now += 4.9
    assert "replica-1" not in [r.name for r in reads._candidates()]
    clock.now += 0.2
    assert "replica-1" in [r.name for r in reads._candidates()]


def test_a_replica_is_fresh_when_it_has_a_position_the_primary_had_within_the_bound() -> None:
    clock = Clock()
    reads = _reads(1, clock, max_lag=5.0)
    replica = reads.replicas[0]
    # No sample yet: nothing proves it fresh, nothing says it lags.
    assert reads._fresh(replica, "0/100") is False and not replica.lagging
    reads._samples.extend([(96.0, 0x100), (99.0, 0x200)])
    assert reads._fresh(replica, "0/100") is True  # it has what the primary had 4 s ago
    clock.now = 101.5  # the 96.0 sample is now 5.5 s old: only 99.0's position proves freshness
    assert reads._fresh(replica, "0/1FF") is False and not replica.lagging  # not proven, not known
    assert reads._fresh(replica, "0/200") is True
    # Without what the primary had 5.5 s ago it lags for sure, until it is fresh again.
    assert reads._fresh(replica, "0/FF") is False and replica.lagging
    assert reads._fresh(replica, "0/1FF") is False and replica.lagging
    assert reads._fresh(replica, "0/200") is True and not replica.lagging
    # A server that replays nothing (not a standby) has no lag to measure.
    assert reads._fresh(replica, None) is True


def test_the_primary_is_sampled_at_most_every_quarter_of_the_bound_up_to_a_second() -> None:
    assert _policy(max_lag=5.0).sample_interval == 1.0
    assert _policy(max_lag=0.4).sample_interval == 0.1
