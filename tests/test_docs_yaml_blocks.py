"""Every YAML example of the docs reads with the YAML reader rule sets are read with
(libyaml's, where it is installed): two board examples wrote a space without properties
as `hall:,` in braces, which only PyYAML's own Python reader takes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulecraft.dsl.yaml_data import _BaseLoader

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = [(path, text[:m.start()].count("\n") + 2, m.group(1))
          for path in sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
          for text in [path.read_text(encoding="utf-8")]
          for m in re.finditer(r"```yaml\n(.*?)```", text, re.S)]


def test_the_docs_have_yaml_examples():
    assert len(BLOCKS) > 30


@pytest.mark.parametrize("path, line, block", BLOCKS, ids=[f"{p.name}:{n}" for p, n, _ in BLOCKS])
def test_a_yaml_example_reads(path, line, block):
    try:
        yaml.load(block, Loader=_BaseLoader)
    except yaml.YAMLError as err:
        pytest.fail(f"{path.name}:{line}: {err}")
