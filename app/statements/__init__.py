"""Every SQL statement of app/, named: one module per area (``app/statements/jobs.py`` holds
the statements of app/jobs.py, and so on), modelled on tasks/broker/statements.py.

The convention, checked by tests/test_architecture.py:

- A statement is a module-level constant, ``NAME = text(\"\"\"...\"\"\")``, preceded by a ``#:``
  comment saying what it does and why it is written so (bind parameters, locks, indexes it
  relies on).  The area module imports its statement module as ``sql`` and executes
  ``sql.NAME``: the statement is found by name, and reviewed in one place with its siblings.
- A statement whose text depends on the call (a filter, an order, a column list picked at run
  time) is a documented function here returning the ``TextClause``; its parts are constants
  beside it.  Values are always bind parameters, never formatted in.
- No module of app/ outside this package calls ``text()`` on a literal.

Data only: the tables themselves are created by the Alembic migrations.
"""
