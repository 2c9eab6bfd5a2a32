"""Alembic's environment for the store: always run on a connection the caller hands over
(``config.attributes["connection"]``, see :func:`sabacc.services.store.schema.upgrade`)."""

from __future__ import annotations

from alembic import context

from sabacc.services.store.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite alters a table by copying it (ALTER TABLE is limited there).
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
