"""The variant is the one place that knows the variant: outside ``sabacc/variants/`` no code
names a variant (or an alias of one) to branch on it. Apps ask ``VariantInfo`` instead.

Names come from the registry, so a newly registered variant is covered at once. Allowed: default
argument values (``variant: str = "corellian_spike"``) and field defaults in class bodies (a
form's default variant), which choose a variant without knowing anything about it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from sabacc.variants.registry import lookup, variant_names

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "sabacc"
WEB = PACKAGE / "apps" / "web"


def _norm(name: str) -> str:
    # Case is kept: code compares the lowercase names; "Spike" (a phase's title) is prose.
    return name.strip().replace("-", "_").replace(" ", "_")


def variant_words() -> set[str]:
    """Every registered name and alias, spelled with ``_`` (``corellian-spike`` ->
    ``corellian_spike``)."""
    words: set[str] = set()
    for name in variant_names():
        info = lookup(name)
        words |= {_norm(w) for w in (info.name, *info.aliases)}
    return words


def _skipped(path: Path) -> bool:
    rel = path.relative_to(PACKAGE).as_posix()
    return rel.startswith("variants/")


def _allowed_nodes(tree: ast.AST) -> set[int]:
    """ids of constants that are default values (of arguments, or of fields in class bodies)."""
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None:
                    allowed |= {id(n) for n in ast.walk(default)}
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                    allowed |= {id(n) for n in ast.walk(stmt.value)}
    return allowed


def python_offences(source: str, words: set[str]) -> list[tuple[int, str]]:
    """(line, text) of each string constant naming a variant that is not a default value."""
    tree = ast.parse(source)
    allowed = _allowed_nodes(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and _norm(node.value) in words
        and id(node) not in allowed
    ]


_QUOTED = re.compile(r"""(["'`])([A-Za-z_ -]+)\1""")


def js_offences(source: str, words: set[str]) -> list[tuple[int, str]]:
    """(line, text) of each quoted JS string that names a variant."""
    return [
        (lineno, match.group(0))
        for lineno, line in enumerate(source.splitlines(), 1)
        for match in _QUOTED.finditer(line)
        if _norm(match.group(2)) in words
    ]


def test_the_registry_names_every_builtin_variant() -> None:
    # The scan is only as good as its word list: the three built-in variants are in it.
    assert {"classic", "corellian_spike", "surabat_cycle", "spike", "surabat"} <= variant_words()


def test_no_variant_names_in_python_outside_variants() -> None:
    words = variant_words()
    offences = [
        f"{path.relative_to(SRC)}:{line}: {text!r}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if not _skipped(path)
        for line, text in python_offences(path.read_text(encoding="utf-8"), words)
    ]
    assert not offences, "ask VariantInfo instead of naming a variant:\n" + "\n".join(offences)


def test_no_variant_names_in_the_web_client() -> None:
    words = variant_words()
    offences = [
        f"{path.relative_to(SRC)}:{line}: {text}"
        for path in sorted(WEB.glob("*.js"))
        for line, text in js_offences(path.read_text(encoding="utf-8"), words)
    ]
    assert not offences, "the client draws from /api/variants:\n" + "\n".join(offences)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('def f(v="classic"):\n    return v\n', []),
        ('def f(v):\n    return v == "classic"\n', [2]),
        ('X = ("corellian_spike", "surabat-cycle")\n', [1, 1]),
        ('class C:\n    variant: str = "spike"\n', []),
        ('"""The classic game."""\n', []),
        ('f(variant="corellian-spike")\n', [1]),
        ('PHASE_TITLE = "Spike"\n', []),
    ],
)
def test_the_python_scan(source: str, expected: list[int]) -> None:
    # The detector itself: comparisons, tables and call arguments are found; defaults and prose
    # are not.
    assert [line for line, _ in python_offences(source, variant_words())] == expected


def test_the_js_scan() -> None:
    text = 'if (v === "classic") x();\nconst note = "a classic look";\nf(`surabat`);\n'
    assert [line for line, _ in js_offences(text, variant_words())] == [1, 3]


# ---------------------------------------------------------------------- variant concepts
#: The catalogue is words, not branches: its texts may say "gain" or "discard".
TEXT = ("services/messages/",)


def variant_concepts() -> set[str]:
    """Every variant's pile keys (and known-card keys) and its own action kinds' names and
    text heads (``swap_moon``, ``swap moon``, ``keep``); the shared kinds (stand, betting) are
    everyone's."""
    from sabacc.engine.actions import SHARED_KINDS

    shared = {kind.name for kind in SHARED_KINDS}
    words: set[str] = set()
    for name in variant_names():
        info = lookup(name)
        for pile in info.piles:
            words |= {pile.key, *([pile.known_key] if pile.known_key else [])}
        for kind in info.actions:
            if kind.name not in shared:
                words |= {kind.name, " ".join(kind.head)}
    return words


def concept_offences(source: str, words: set[str]) -> list[tuple[int, str]]:
    """(line, text) of each string constant spelling a variant concept: not a default value,
    a docstring or a dict literal's key (a JSON field such as ``"token"`` is not a read)."""
    tree = ast.parse(source)
    allowed = _allowed_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            allowed |= {id(k) for k in node.keys if k is not None}
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            allowed.add(id(node.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in words
        and id(node) not in allowed
    ]


def test_the_concepts_cover_every_variants_piles_and_actions() -> None:
    assert {"sun", "moon_known", "discard_pile", "swap_moon", "gain_sun", "keep"} <= (
        variant_concepts()
    )
    assert {"call hand", "draw sand", "impostor", "token"} <= variant_concepts()
    assert not {"stand", "check", "bet", "junk"} & variant_concepts()


def test_no_variant_concepts_in_apps_and_services() -> None:
    words = variant_concepts()
    offences = []
    for layer in ("apps", "services"):
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            rel = path.relative_to(PACKAGE).as_posix()
            if rel.startswith(TEXT):
                continue
            offences += [
                f"{rel}:{line}: {text!r}"
                for line, text in concept_offences(path.read_text(encoding="utf-8"), words)
            ]
    assert not offences, (
        "read the variant's declared piles and action kinds (VariantInfo.piles, .actions, "
        ".fields) instead of naming them:\n" + "\n".join(offences)
    )


_CODE = re.compile(r"^\s*(//|\*|/\*)")


def test_no_action_kinds_of_a_variant_in_the_web_client() -> None:
    # The client groups and draws the legal actions by the declared kinds (/api/variants):
    # no variant's own action kind is spelled in its code (the catalogue i18n.js is words).
    from sabacc.engine.actions import SHARED_KINDS

    shared = {kind.name for kind in SHARED_KINDS}
    kinds = {
        word
        for name in variant_names()
        for kind in lookup(name).actions
        if kind.name not in shared
        for word in (kind.name, " ".join(kind.head))
    }
    offences = [
        f"{path.relative_to(SRC)}:{lineno}: {match.group(0)}"
        for path in sorted(WEB.glob("*.js"))
        if path.name != "i18n.js"
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if not _CODE.match(line)
        for match in _QUOTED.finditer(line)
        if match.group(2).strip() in kinds
    ]
    assert not offences, "draw from the declared action kinds:\n" + "\n".join(offences)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('x = obs["sun"]\n', [1]),
        ('if a.startswith("keep"):\n    pass\n', [1]),
        ('d = {"token": 1}\n', []),
        ('def f(pile="sun"):\n    return pile\n', []),
        ('"""The sun."""\n', []),
    ],
)
def test_the_concept_scan(source: str, expected: list[int]) -> None:
    assert [line for line, _ in concept_offences(source, variant_concepts())] == expected
