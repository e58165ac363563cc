"""The TextMate grammar of rule files, for editors (VS Code's extension in
``editors/vscode`` ships it as ``syntaxes/rules.tmLanguage.json``).

Its word lists are the Pygments lexer's, which come from the parser, so the editor
and the rules site highlight the same words. Write it anew after a keyword changes::

    python -m rulecraft.lsp.textmate > editors/vscode/syntaxes/rules.tmLanguage.json

Patterns use only what Python's ``re`` and Oniguruma read alike, so the tests can run
the grammar on rule lines without an editor.
"""

from __future__ import annotations

import json

from rulecraft.docgen.lexer import CONSTANTS, DECLARATIONS, DOC_CLAUSES, KEYWORDS, WORD_OPERATORS

SCOPE = "source.rulecraft-rules"
NAME = r"[A-Za-z_][A-Za-z0-9_]*"
STRING = r'"(?:[^"\\]|\\.)*"'


def _words(words) -> str:
    return r"\b(?:" + "|".join(sorted(words)) + r")\b"


def grammar() -> dict:
    lang = "rulecraft-rules"
    patterns = [
        {"name": f"comment.line.number-sign.{lang}", "match": r"#.*$"},
        {"match": r"\b(" + "|".join(DECLARATIONS) + r")\s+(" + NAME + ")",
         "captures": {"1": {"name": f"keyword.declaration.{lang}"}, "2": {"name": f"entity.name.function.{lang}"}}},
        {"match": r"\b(" + "|".join(DOC_CLAUSES) + r")\s+(" + STRING + ")",
         "captures": {"1": {"name": f"keyword.other.{lang}"}, "2": {"name": f"string.quoted.double.documentation.{lang}"}}},
        {"name": f"string.quoted.double.{lang}", "match": STRING},
        {"name": f"constant.numeric.integer.{lang}", "match": r"\b[0-9]+\b"},
        {"name": f"constant.language.{lang}", "match": _words(CONSTANTS)},
        {"name": f"keyword.operator.word.{lang}", "match": _words(WORD_OPERATORS)},
        {"name": f"keyword.control.{lang}", "match": _words(KEYWORDS + DOC_CLAUSES)},
        {"name": f"entity.name.function.call.{lang}", "match": NAME + r"(?=\()"},
        {"name": f"variable.other.{lang}", "match": NAME},
        {"name": f"keyword.operator.{lang}", "match": r"->|==|!=|<=|>=|\+=|-=|//|[<>=+\-*%?]"},
        {"name": f"punctuation.separator.{lang}", "match": r"[.,:()\[\]]"},
    ]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "rulecraft rules",
        "scopeName": SCOPE,
        "fileTypes": ["rules"],
        "comment": "Written by `python -m rulecraft.lsp.textmate`; do not edit by hand.",
        "patterns": patterns,
    }


def render() -> str:
    return json.dumps(grammar(), indent=2) + "\n"


if __name__ == "__main__":
    print(render(), end="")
