"""Every rule has its page, in the house shape, naming only real options."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mockpolicy.project import OPTIONS
from mockpolicy.rules import ALL_RULES, doc_text

SECTIONS = ["What it does", "Why is this bad?", "Example", "Use instead", "Options", "Known limits"]
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


@pytest.mark.parametrize("rule", ALL_RULES, ids=[rule.symbol for rule in ALL_RULES])
def test_rule_page_has_every_section_in_order(rule) -> None:  # type: ignore[no-untyped-def]
    text = doc_text(rule)
    assert text is not None, f"docs/rules/{rule.symbol}.md is missing"
    assert text.splitlines()[0] == f"# {rule.symbol} ({rule.msgid})"
    headings = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    assert headings == SECTIONS


@pytest.mark.parametrize("rule", ALL_RULES, ids=[rule.symbol for rule in ALL_RULES])
def test_options_named_on_a_page_exist(rule) -> None:  # type: ignore[no-untyped-def]
    text = doc_text(rule) or ""
    options = text.split("## Options", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"^- `([a-z][a-z0-9-]*)`", options, flags=re.MULTILINE)
    assert set(named) <= set(OPTIONS)
    assert named or options.strip() == "None."


def test_no_page_without_a_rule() -> None:
    pages = {path.stem for path in DOCS.glob("*.md")}
    assert pages == {rule.symbol for rule in ALL_RULES}


def test_symbols_and_ids_are_unique_and_in_our_block() -> None:
    assert len({rule.symbol for rule in ALL_RULES}) == len(ALL_RULES)
    assert len({rule.msgid for rule in ALL_RULES}) == len(ALL_RULES)
    assert all(re.fullmatch(r"[CRWEF]73\d\d", rule.msgid) for rule in ALL_RULES)
