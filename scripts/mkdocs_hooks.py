"""mkdocs hooks (mkdocs.yml ``hooks:``): render the docstrings' Sphinx roles as code.

The docstrings are written in Sphinx style (``:func:`sabacc.replay```, the form the doctests,
IDEs and ``help()`` read); mkdocstrings keeps the role's text, so the API pages showed
``:func:`` before every name. This hook turns each ``:role:<code>name</code>`` of a built page
into ``<code>name</code>`` (``~a.b.c`` as ``c``, as Sphinx shows it); tests/test_docs_site.py
checks that no role is left in the built site.
"""

from __future__ import annotations

import re
from typing import Any

ROLE = re.compile(
    r":(?:py:)?(?:func|class|meth|mod|attr|data|exc|obj|const):<code>(~?)([^<]*)</code>"
)


def _code(match: re.Match[str]) -> str:
    short, name = match.group(1), match.group(2)
    return f"<code>{name.rsplit('.', 1)[-1] if short else name}</code>"


def on_page_content(html: str, **kwargs: Any) -> str:
    """The page's HTML with every Sphinx role rendered as plain code."""
    return ROLE.sub(_code, html)
