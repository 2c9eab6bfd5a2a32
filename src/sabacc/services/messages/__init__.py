"""The message catalogue: every player-facing line of the log, once, per language.

``CATALOGUE[lang][key]`` is a template filled with :meth:`str.format`-style ``{fields}``. A key
ending in ``.you`` is the second-person form used when the subject is the viewer; without one the
plain key is used with the viewer's pronoun (languages without verb agreement need none). A
variant overrides or adds keys through its :class:`sabacc.engine.text.VariantText`; the registry
checks that each variant's record has text in every language here or in its own
(:func:`sabacc.variants.registry.set_shared_text`).
"""

from __future__ import annotations

from collections.abc import Mapping

from sabacc.services.messages import en, ja, tour_en, tour_ja, ui_en, ui_ja
from sabacc.variants.registry import set_shared_text

#: Language codes the renderer speaks, the default first.
LANGUAGES: tuple[str, ...] = ("en", "ja")

#: The log's messages, the terminal table's own words (``ui_*``: bars, buttons, settings) and
#: the tournament director's (``tour_*``).
CATALOGUE: Mapping[str, Mapping[str, str]] = {
    "en": {**en.MESSAGES, **ui_en.MESSAGES, **tour_en.MESSAGES},
    "ja": {**ja.MESSAGES, **ui_ja.MESSAGES, **tour_ja.MESSAGES},
}

# Every variant's record is checked against it (and each one registered later).
set_shared_text(CATALOGUE)

__all__ = ["CATALOGUE", "LANGUAGES"]
