"""The compiled cores' shape: one source per rule (issue 39).

What the cores share is written once, in the kernel (``sabacc/variants/_kernel``: the table's C
rules, the betting core, the protocol members, the RNG) and in the Spike family's includes
(``spike_family/*.pxi``: what its variants share); each variant's own rules are its own core
module, ``<variant>/_<variant>_core.pyx``, compiled from those includes and its rules. So:

- every variant with a compiled core has that module in its package;
- shared compiled code names no variant and never branches on which variant it is compiled
  for (no ``variant ==``, no variant constants, no compile-time ``IF``);
- no block of code stands twice among the compiled sources (every core module, include and
  declaration file): two cores that share a block take it from one include.
"""

from __future__ import annotations

import importlib
import re
from itertools import combinations
from pathlib import Path

import pytest

import sabacc
from sabacc.variants.registry import lookup

VARIANTS = Path(sabacc.__file__).parent / "variants"

#: Compiled code every core, or every core of a family, includes: it must name no variant.
SHARED = sorted(
    [
        *VARIANTS.glob("_kernel/*.pxi"),
        *VARIANTS.glob("_kernel/*.pxd"),
        *VARIANTS.glob("spike_family/*.pxi"),
    ]
)
#: Every compiled source: the core modules and everything they include or cimport.
SOURCES = sorted(
    {*VARIANTS.glob("*/_*_core.pyx"), *VARIANTS.glob("**/*.pxi"), *VARIANTS.glob("**/*.pxd")}
)
#: How many consecutive code lines make a copied block.
BLOCK = 6
#: Lines that carry no rule of their own (a keyword alone): passed over like punctuation.
BARE = {
    "else:",
    "try:",
    "pass",
    "return",
    "break",
    "continue",
    "return True",
    "return False",
    "return None",
}

BRANCHES = [
    re.compile(r"\bvariant\b\s*(==|!=|\bis\b|\bin\b)"),
    re.compile(r"(==|!=|\bis\b)\s*[\w.]*\bvariant\b"),
    re.compile(r"\bV_[A-Z]+\b"),  # a variant constant
    re.compile(r"^\s*(IF|ELIF)\b"),  # Cython's compile-time conditional
    re.compile(r"info\.name\s*(==|!=)|(==|!=)\s*[\w.]*info\.name"),
    re.compile(r"_game_type\s*(is|==|!=)"),
]


def variant_words() -> set[str]:
    """The words that name a built-in variant: the first word of each name (``corellian``,
    ``surabat``, ``coruscant``, ``kessel``, ``classic``)."""
    return {name.split("_")[0] for name in sabacc.variant_names()}


def code_lines(path: Path) -> list[tuple[int, str]]:
    """``path``'s lines with comments cut (a ``#`` outside a string, roughly: from a ``#`` that
    follows only code characters), numbered from 1."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        out.append((number, re.sub(r"\s+#\s.*$", "", line)))
    return out


@pytest.mark.parametrize(
    "name", [n for n in sabacc.variant_names() if lookup(n).compiled is not None]
)
def test_a_variant_s_compiled_core_is_in_its_package(name: str) -> None:
    assert (VARIANTS / name / f"_{name}_core.pyx").is_file()
    loader = lookup(name).compiled
    assert loader is not None
    try:
        core = loader()
    except ImportError:
        pytest.skip("the compiled cores are not built")
    assert core.__module__ == f"sabacc.variants.{name}._{name}_core"


def test_there_are_shared_sources_to_check() -> None:
    names = {p.relative_to(VARIANTS).as_posix() for p in SHARED}
    assert {"_kernel/_core_table.pxi", "spike_family/_spike_family.pxi"} <= names


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.relative_to(VARIANTS).as_posix())
def test_shared_compiled_code_names_no_variant(path: Path) -> None:
    text = path.read_text(encoding="utf-8").lower()
    named = sorted(word for word in variant_words() if word in text)
    assert not named, f"{path.name} names {named}: a variant's rules belong in its core module"


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.relative_to(VARIANTS).as_posix())
def test_shared_compiled_code_does_not_branch_on_the_variant(path: Path) -> None:
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for number, line in code_lines(path)
        for pattern in BRANCHES
        if pattern.search(line)
    ]
    assert not found, "a branch on the variant in shared compiled code:\n" + "\n".join(found)


def kept_lines(path: Path) -> list[tuple[int, str]]:
    """The lines a copied block is made of: code with white space folded, without blank lines,
    comments, imports, lone punctuation, bare keywords (``else:``, ``return True``...) and the
    fields of ``struct`` declarations (Cython has no
    way to include fields into a struct, so each core declares its ``State`` and ``Opts`` with
    the field names the kernel reads: a declaration of names, not a rule)."""
    out = []
    in_struct = False
    for number, line in code_lines(path):
        text = " ".join(line.split())
        if re.match(r"(ctypedef|cdef) struct \w+:", text):
            in_struct = True
            continue
        if in_struct:
            if line[:1].isspace() or not text:
                continue
            in_struct = False
        if not text or re.fullmatch(r"[\])}\"',:]+", text) or text in BARE:
            continue
        if text.startswith(("import ", "from ", "cimport ", "include ")):
            continue
        out.append((number, text))
    return out


def blocks(path: Path) -> dict[tuple[str, ...], int]:
    """Every run of BLOCK kept lines of ``path``, with the line it starts at."""
    lines = kept_lines(path)
    return {
        tuple(text for _, text in lines[i : i + BLOCK]): lines[i][0]
        for i in range(len(lines) - BLOCK + 1)
    }


def test_no_block_stands_twice_in_the_compiled_sources() -> None:
    runs = {path: blocks(path) for path in SOURCES}
    copies = []
    for a, b in combinations(SOURCES, 2):
        for block in runs[a].keys() & runs[b].keys():
            copies.append(
                f"{a.relative_to(VARIANTS)}:{runs[a][block]} ~ "
                f"{b.relative_to(VARIANTS)}:{runs[b][block]}: {block[0]}"
            )
    assert not copies, "blocks written twice (take them from one include):\n" + "\n".join(
        sorted(copies)[:20]
    )


def test_the_block_check_finds_a_copied_block(tmp_path: Path) -> None:
    """The comparison sees a rule copied into two files (it is not vacuous)."""
    rule = "\n".join(
        [
            "cdef int g_rule(State* st) noexcept nogil:",
            "    cdef int s, k = 0",
            "    for s in range(st.n):",
            "        if st.in_hand[s]:",
            "            k += 1",
            "    st.legal_ok = 0",
            "    return k",
        ]
    )
    one, two = tmp_path / "one.pyx", tmp_path / "two.pxi"
    one.write_text("ctypedef struct State:\n    int n\n\n" + rule + "\n", encoding="utf-8")
    two.write_text("# another core\n" + rule.replace("    ", "  ") + "\n", encoding="utf-8")
    assert blocks(one).keys() & blocks(two).keys()
    # The fields of two cores' State declarations are names, not a copied rule.
    fields = "\n".join(f"    long long field_{i}[MAXP]" for i in range(BLOCK + 2))
    three, four = tmp_path / "three.pyx", tmp_path / "four.pyx"
    three.write_text(f"ctypedef struct State:\n{fields}\n", encoding="utf-8")
    four.write_text(f"cdef struct State:\n{fields}\n\ncdef int x = 0\n", encoding="utf-8")
    assert kept_lines(three) == [] and not blocks(three).keys() & blocks(four).keys()


def test_each_family_core_compiles_the_family_include() -> None:
    """The Spike family's variants are built from its one include, each with its own rules."""
    family = [
        path
        for path in VARIANTS.glob("*/_*_core.pyx")
        if 'include "sabacc/variants/spike_family/_spike_family.pxi"' in path.read_text("utf-8")
    ]
    names = {path.parent.name for path in family}
    assert names == {"corellian_spike", "surabat_cycle", "coruscant_shift"}
    for path in family:
        module = f"sabacc.variants.{path.parent.name}.{path.stem}"
        try:
            core = importlib.import_module(module)
        except ImportError:
            continue
        assert core.SpikeFamilyCore is not None
