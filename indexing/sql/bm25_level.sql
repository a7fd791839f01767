{#- Round n's threshold (n > 1), the least contribution a posting must add to be read, from
    the previous round's theta: a round proves its answer when the rests of all terms sum
    below theta, and a term whose best posting adds less than an even share of theta needs
    none of its postings read for that.  So those terms' bounds are set aside, taken from the
    smallest, and the rest of theta (1% under it, so that a round that ends with the same
    theta still proves it) is shared among the others -- water-filling -- so terms of little
    weight take none of the share.  Terms round 1 read whole (at most :whole x :depth1
    postings) are read in full again (threshold 0): cheap, and then they take none of it
    either.  Only efficiency rests on this: every round proves its answer from what it read.
    After a closing round, theta is the larger of its two (both are lower bounds of the
    k-th). -#}
{% set p = n - 1 %}
r{{ n }}_level AS MATERIALIZED (
    SELECT CASE WHEN count(*) FILTER (WHERE NOT x.small) = 0 THEN 'Infinity'::float8
                ELSE (max(x.budget) - coalesce(sum(x.ub) FILTER (WHERE x.small), 0.0::float8))
                     / count(*) FILTER (WHERE NOT x.small) END AS level
    FROM (
        SELECT u.ub, b.budget,
               u.ub * (count(*) OVER () - row_number() OVER o + 1)
                 <= b.budget - coalesce(sum(u.ub) OVER (o ROWS BETWEEN UNBOUNDED PRECEDING
                                                        AND 1 PRECEDING), 0.0::float8) AS small
        FROM (SELECT r.w * r.top * (SELECT drift FROM stats) AS ub FROM r1_rest r
              WHERE r.df > :whole * :depth1) u
{% if closing(p) %}
        CROSS JOIN (SELECT 0.99::float8 * greatest((SELECT theta FROM r{{ p }}_bar), (SELECT theta FROM r{{ p }}_verdict)) AS budget) b
{% else %}
        CROSS JOIN (SELECT 0.99::float8 * (SELECT theta FROM r{{ p }}_bar) AS budget) b
{% endif %}
        WINDOW o AS (ORDER BY u.ub)
    ) x
)