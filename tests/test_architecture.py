"""The import graph keeps its one-way flow (docs/architecture.md): each part of the package imports only the parts
it may, and the rules core only the standard library.

Every ``import`` is read from the source with ``ast`` (the ones inside functions too: a lazy import is still a
dependency), so nothing is imported to check it. A failure names the module and the import that breaks the rule;
if the new dependency is right, change ALLOWED here and the table in docs/architecture.md together.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"

# part -> the parts it may import. A part is a top-level module (companion/store.py -> "store") or a subpackage
# (companion/vision/... -> "vision"); "companion" is the package's own __init__. "table" is the table vocabulary;
# "parts" the Protocols the app's parts are typed by.
FOUNDATION = {"errors", "cards"}
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "cards": {"errors"},
    "rules": FOUNDATION,
    "commands": {"errors"},
    "paths": set(),
    "table": FOUNDATION | {"rules"},
    "parts": FOUNDATION | {"display", "vision"},
    "vision": FOUNDATION | {"table", "paths"},  # a calibration is saved where companion run finds it
    "sim": FOUNDATION | {"table", "vision", "rules"},
    "board": FOUNDATION | {"commands", "rules"},
    "display": FOUNDATION | {"commands", "rules", "table", "board"},  # the desktop window draws the virtual board
    "store": FOUNDATION | {"rules"},
    "referee": FOUNDATION | {"rules", "table"},
    "speech": FOUNDATION,
    "service": FOUNDATION,
    "config": FOUNDATION | {"paths", "rules", "board"},
    "demo": FOUNDATION | {"rules", "sim", "table"},
    "ui": FOUNDATION | {"rules", "referee", "display", "commands", "table"},
    "companion": FOUNDATION | {"rules"},
}
# The composition roots and the command line: they wire the parts together, so they may import any of them (so may
# each subcommand module, ``*_cmd``, beside the part it drives).
ANYTHING = {"app", "app_cmd", "cli"}

# Imports of third-party packages the rules core may not make (it is "standard library only"), by module, with why.
RULES_EXCEPTIONS: dict[str, str] = {}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "companion"


def imports(path: Path, source: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file (or in ``source`` as if it were that file), relative
    ones resolved."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text() if source is None else source, str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            if node.module is None:  # from . import x: x may be a module
                found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, base))
    return found


def internal_part(target: str) -> str | None:
    """The part an import of ``target`` depends on, or None if it is not the package's."""
    if target != "companion" and not target.startswith("companion."):
        return None
    name = target.split(".")[1] if "." in target else ""
    is_part = (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").is_file()
    return name if is_part else "companion"  # "from . import __version__" is the package itself


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_part_is_known():
    unknown = {part_of(module_name(p)) for p in SOURCES if not module_name(p).endswith("_cmd")} - set(ALLOWED) \
        - ANYTHING
    assert not unknown, f"new parts {sorted(unknown)}: say what they may import in ALLOWED (and the docs)"


def violations(path: Path, source: str | None = None) -> list[str]:
    """The imports in ``path`` that its part may not make."""
    module = module_name(path)
    part = part_of(module)
    if part in ANYTHING or module.endswith("_cmd"):  # a subcommand (board_test_cmd ...) wires its part like app_cmd
        return []
    return [f"{module}:{line} imports {target}" for line, target in imports(path, source)
            if (dep := internal_part(target)) is not None and dep != part and dep not in ALLOWED[part]]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_each_part_imports_only_what_it_may(path):
    wrong = violations(path)
    assert not wrong, f"{part_of(module_name(path))} may import only {sorted(ALLOWED[part_of(module_name(path))])}: " \
        + "; ".join(wrong)


@pytest.mark.parametrize("path", [p for p in SOURCES if part_of(module_name(p)) in FOUNDATION | {"rules"}],
                         ids=lambda p: module_name(p))
def test_the_rules_core_needs_only_the_standard_library(path):
    module = module_name(path)
    if module in RULES_EXCEPTIONS:
        pytest.skip(RULES_EXCEPTIONS[module])
    outside = [f"{module}:{line} imports {target}" for line, target in imports(path)
               if internal_part(target) is None and target.split(".")[0] not in sys.stdlib_module_names]
    assert not outside, "; ".join(outside)


def test_the_check_sees_a_forbidden_import_even_inside_a_function():
    show = PACKAGE / "rules" / "show.py"
    lazy = "def save(event):\n    from ..store import EventStore\n    from companion.vision import recognize\n"
    assert violations(show, lazy) == ["companion.rules.show:2 imports companion.store",
                                      "companion.rules.show:3 imports companion.vision"]
    assert violations(PACKAGE / "app.py", lazy) == []


VOCABULARY_OWNERS = {"companion.table", "companion.rules.phases"}
NAMED = {"phase", "screen", "zone", "kind", "from_zone"}


def vocabulary() -> set[str]:
    from companion import table

    words = {str(w) for enum in (table.Zone, table.Change, table.Phase, table.Screen, table.QuestionKind) for w in enum}
    return (words | {"seat1", "seat2", "seat3", "seat4"}) - {""}


def literal_comparisons(path: Path) -> list[str]:
    """``x.phase == "play"``, ``zone in ("crib", "deck")``: a phase, screen, zone or change kind compared with a
    string literal instead of the table vocabulary's names."""
    tree = ast.parse(path.read_text(), str(path))
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = any((isinstance(s, ast.Attribute) and s.attr in NAMED) or (isinstance(s, ast.Name) and s.id in NAMED)
                    for s in sides)
        literals = [c for s in sides for c in ([s] if isinstance(s, ast.Constant) else
                                              s.elts if isinstance(s, (ast.Tuple, ast.List, ast.Set)) else [])
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        literals = [c for c in literals if c.value in vocabulary()]
        if named and literals:
            out.append(f"{module_name(path)}:{node.lineno} compares with {literals[0].value!r}")
    return out


def test_no_table_name_is_compared_as_a_string_literal():
    """Zones, phases, change kinds and screens are named by companion.table (issue 13), so a typo fails at import."""
    wrong = [w for p in SOURCES if module_name(p) not in VOCABULARY_OWNERS for w in literal_comparisons(p)]
    assert not wrong, "; ".join(wrong)
