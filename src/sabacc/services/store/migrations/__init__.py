"""The store's schema versions (Alembic): ``env.py`` and one script per revision in
``versions/``. :func:`sabacc.services.store.schema.upgrade` runs them; nothing here is imported
at run time but by Alembic."""
