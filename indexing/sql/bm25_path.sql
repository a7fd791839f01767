{#- Which path answers a BM25 query ('scan', 'exact<n>', 'maxscore' or 'budget'), without
    ranking: for benchmarks and tests.  Context: as bm25.sql (unfiltered). -#}
WITH
{% include "bm25.sql" %}

SELECT (SELECT path FROM safe) AS path
