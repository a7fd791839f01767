{#- Lead pass j of round n.  The open chunks are completed one cut term at a time for the
    first `leads` terms of largest rest -- usually the rarest and heaviest -- and in the others
    at once.  Most open chunks do not hold the lead term, and once that is known their upper
    bound drops by its whole rest, mostly below theta; only the chunks that can still reach
    theta (or floor) go on to the next term.  Aggregated, not joined: CTEs carry no
    statistics, and a generic plan would join them by nested loops. -#}
{% import "macros.sql" as m %}
{% set prev = "r%d_keep%d" % (n, j - 1) %}
r{{ n }}_led{{ j }} AS MATERIALIZED (
    SELECT p.chunk_id, {{ m.part() }} AS extra
    FROM (SELECT * FROM r{{ n }}_order WHERE pos = {{ j }}) weights
    CROSS JOIN LATERAL (
        SELECT p.chunk_id, p.tf, p.doc_length FROM bm25_postings p
        WHERE p.term_id = weights.term_id
          AND p.chunk_id = ANY(ARRAY(SELECT chunk_id FROM {{ prev }} WHERE NOT seen{{ j }}))
        OFFSET 0
    ) p
),
r{{ n }}_keep{{ j }} AS MATERIALIZED (
    SELECT u.chunk_id, max(u.lb) AS lb, sum(u.ub) AS ub, sum(u.extra) AS extra{% for i in leads_range %}, bool_or(u.seen{{ i }}) AS seen{{ i }}{% endfor %}

    FROM (
        SELECT o.chunk_id, o.lb,
               o.ub - CASE WHEN o.seen{{ j }} THEN 0.0::float8
                           ELSE coalesce((SELECT rest FROM r{{ n }}_order WHERE pos = {{ j }}), 0.0::float8)
                      END AS ub,
               o.extra{% for i in leads_range %}, o.seen{{ i }}{% endfor %}

        FROM {{ prev }} o
        UNION ALL
        SELECT l.chunk_id, NULL, l.extra, l.extra{% for i in leads_range %}, NULL::boolean{% endfor %} FROM r{{ n }}_led{{ j }} l
    ) u
    GROUP BY u.chunk_id
    HAVING max(u.lb) >= (SELECT floor FROM r{{ n }}_bar) OR sum(u.ub) >= (SELECT theta FROM r{{ n }}_lift)
)