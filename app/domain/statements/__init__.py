"""Every SQL statement of app/, named: one module per area, modelled on tasks/broker/statements.py.
An area is the module that runs the statements: ``app/domain/statements/jobs.py`` holds those of
app/domain/jobs.py, ``webhooks.py`` those of app/domain/webhooks.py, and so on; for a module inside a package
the package says which (``cli_jobs.py``: app/cli/jobs.py, ``doctor.py``: app/cli/doctor.py,
``health.py``: app/api/meta.py's probes, ``metrics.py``: app/domain/database_gauges.py).

The convention, checked by tests/test_architecture.py:

- A statement is a module-level constant, ``NAME = text(\"\"\"...\"\"\")``, preceded by a ``#:``
  comment saying what it does and why it is written so (bind parameters, locks, indexes it
  relies on).  The area module imports its statement module as ``sql`` and executes
  ``sql.NAME``: the statement is found by name, and reviewed in one place with its siblings.
- A statement whose text depends on the call (a filter, an order, a column list picked at run
  time) is a documented function here returning the ``TextClause``; its parts are constants
  beside it.  Values are bind parameters, never formatted in (the one exception, SET, takes no
  parameter: metrics.statement_timeout formats in an int of ours).
- No module of app/ outside this package calls ``text()`` on a literal.  A statement module
  imports sqlalchemy only, never the area module (which imports it).

Data only: the tables themselves are created by the Alembic migrations.
"""
