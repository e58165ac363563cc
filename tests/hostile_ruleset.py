"""A copy of Panic Station written by someone hostile: every free-text field of its rules,
data, glossaries, variants and worked examples carries script and markup payloads, a
rule file and a scenario file have markup in their names, and two new layouts have room
types that are a path (``../../../../x``) and a tag. The rules themselves are untouched,
so the copy still loads and checks.

Each payload that could run a script pushes its number onto ``top.pwned`` and every
injected element carries the attribute ``data-injected``: a page that runs or holds
any of them is caught by looking for those two marks.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules" / "panic_station"
SEEDS = ROOT / "seeds" / "panic_station"


def _run(n: int) -> str:
    return f"(top.pwned=top.pwned||[]).push({n})"


# Every payload, as it would be typed into a rule set. None has a double quote, so all
# can go into a string of the rules language too (QUOTED adds those that need one).
PAYLOADS = [
    f"<img src=x onerror={_run(1)} data-injected>",
    f"<script data-injected>{_run(2)}</script>",
    f"<svg data-injected onload={_run(3)}>",
    "[pwned link](javascript:alert(4))",
    "[pwned link](JaVa&#x53;cript:alert&#40;5&#41;)",
    "[pwned link](java\tscript:alert)",
    "{: data-injected onclick=alert(7)}",
    "{#anchor data-injected onmouseover=alert(8)}",
    f"`</code><img src=x onerror={_run(9)} data-injected>`",
    f"&lt;img src=x onerror={_run(10)} data-injected&gt;",
    f"</title><script data-injected>{_run(11)}</script>",
    "<a href=javascript:alert(12) data-injected>pwned</a>",
    f"<details open ontoggle={_run(13)} data-injected>x</details>",
    f"<iframe src=javascript:{_run(14)} data-injected></iframe>",
    "<div markdown=1 data-injected>*pwned*</div>",
    "![pwned](javascript:alert(16))",
    "'onmouseover='alert(17)' data-injected x='",
    f"<input autofocus onfocus={_run(18)} data-injected>",
    f"&#60;img src=x onerror={_run(19)} data-injected&#62;",
    f"<object data=javascript:{_run(20)} data-injected></object>",
]
QUOTED = [
    f"\"><img src=x onerror={_run(21)} data-injected>",
    f"\" onmouseover=\"alert(22)\" data-injected=\"",
    f"x\n\n<script data-injected>{_run(23)}</script>\n\n    code\n=== \"tab <b data-injected>\"",
]
EVERY = PAYLOADS + QUOTED
ALL = " ".join(EVERY)
RULE_SAFE = " ".join(PAYLOADS)  # strings of the rules language hold no double quote nor newline

# Keys whose string value is free text, in rule-set data, variants and scenarios.
FREE_TEXT = {"title", "text", "cite", "question", "ruling", "reason", "section", "because", "prompt"}
PATH_ROOM = "../../../../x"
TAG_ROOM = f"<img src=x onerror={_run(24)} data-injected>"


def _harden(node, suffix: str, keys=FREE_TEXT):
    """Append ``suffix`` to every free-text string of a YAML document."""
    if isinstance(node, dict):
        return {k: (v + " " + suffix if isinstance(v, str) and k in keys else _harden(v, suffix, keys))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_harden(v, suffix, keys) for v in node]
    return node


class _Rotation:
    """Hands out the payloads in turn, so each glossary word gets one and each payload many words."""

    def __init__(self):
        self.i = 0

    def __call__(self) -> str:
        self.i += 1
        return EVERY[self.i % len(EVERY)]


def _harden_glossary(node, next_payload):
    """Append a payload to every word and phrase of a glossary."""
    if isinstance(node, dict):
        return {k: (v if k in ("language", "gender") else _harden_glossary(v, next_payload)) for k, v in node.items()}
    if isinstance(node, str):
        return f"{node} {next_payload()}"
    return node


def _dump(path: Path, data) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000), encoding="utf-8")


def make_hostile(where: Path) -> Path:
    """Write the hostile copy under ``where`` (``rules/panic_station`` and ``seeds/panic_station``
    as in a checkout); returns the rule-set folder."""
    rules = where / "rules" / "panic_station"
    seeds = where / "seeds" / "panic_station"
    shutil.copytree(RULES, rules, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(SEEDS, seeds, ignore=shutil.ignore_patterns("__pycache__"))
    titles: dict[str, str] = {}
    for path in sorted(rules.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if path.parent.name == "glossary":
            data = _harden_glossary(data, _Rotation())
            if path.parent.parent == rules:  # the base glossaries name the two new room types
                data.setdefault("values", {})[PATH_ROOM] = f"escape {ALL}"
                data["values"][TAG_ROOM] = f"tag {ALL}"
        else:
            data = _harden(data, ALL)
            for item in data.get("superseded") or []:  # a variant names the scenarios it supersedes by title
                item["scenario"] = item["scenario"] + " " + ALL
        if path.name == "kinds.yaml":  # the room kind's type property lists the room types
            for kind in data["kinds"].values() if isinstance(data["kinds"], dict) else data["kinds"]:
                for prop in (kind.get("properties") or {}).values():
                    if isinstance(prop, dict) and "plain" in (prop.get("values") or []):
                        prop["values"] += [PATH_ROOM, TAG_ROOM]
        if path.name == "board.yaml":
            layouts = data["board"]["layouts"]
            sides = {d: "open" for d in data["board"]["directions"]}
            layouts["hostile_path"] = {"rooms": {"main": {"type": PATH_ROOM}}, "sides": sides}
            layouts["hostile_tag"] = {"rooms": {"main": {"type": TAG_ROOM}}, "sides": sides}
        _dump(path, data)
    for path in sorted(rules.rglob("*.rules")):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r'(\b(?:cite|text)\s+")([^"\n]*)"', lambda m: f'{m.group(1)}{m.group(2)} {RULE_SAFE}"', text)
        path.write_text(text, encoding="utf-8")
    # markup in file names: a rule file shown on its own page, a scenario file
    (rules / "board.rules").rename(rules / f"board<img src=x onerror={_run(25)} data-injected>.rules")
    for path in sorted(seeds.glob("*.yaml")):
        _dump(path, _harden(yaml.safe_load(path.read_text(encoding="utf-8")), ALL))
    (seeds / "explore.yaml").rename(seeds / f"explore<svg onload={_run(26)} data-injected>.yaml")
    return rules
