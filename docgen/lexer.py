"""A Pygments lexer for the rulecraft rules language.

A character outside the language comes out as an Error token, as Pygments does for
any unmatched input, so a test can tell that every shipped rule file is covered.

Registered through the ``pygments.lexers`` entry point (alias ``rules``), so any
Pygments user (mkdocs, Sphinx, pygmentize) highlights rule files without importing
rulecraft by hand. The word lists come from the parser, so a keyword added to the
language is highlighted without touching this file.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Whitespace

from rulecraft.dsl.parser import CONTEXTUAL, RESERVED

DECLARATIONS = ("action", "procedure", "function", "trigger", "victory", "reaction", "obligation", "script", "heuristic")
WORD_OPERATORS = ("and", "or", "not", "in")
CONSTANTS = ("true", "false", "none")
# Clauses whose string is documentation rather than data.
DOC_CLAUSES = ("text", "cite")
# The reserved words and the contextual ones (`gain`, `highest`, ...), which are keywords
# in their place and may be names elsewhere: highlighted as keywords everywhere.
KEYWORDS = tuple(sorted((RESERVED | CONTEXTUAL) - set(DECLARATIONS) - set(WORD_OPERATORS) - set(CONSTANTS)
                        - set(DOC_CLAUSES)))

_STRING = r'"(?:[^"\\\n]|\\.)*"'


class RulesLexer(RegexLexer):
    """Rule files (``*.rules``) of rulecraft rule sets."""

    name = "rulecraft rules"
    aliases = ["rules", "rulecraft"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulecraft-rules"]
    url = "https://pypi.org/project/rulecraft/"

    tokens = {
        "root": [
            (r"\n", Whitespace),
            (r"[ \t]+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r"(%s)([ \t]+)([A-Za-z_][A-Za-z0-9_]*)" % "|".join(DECLARATIONS),
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"(%s)([ \t]+)(%s)" % ("|".join(DOC_CLAUSES), _STRING), bygroups(Keyword, Whitespace, String.Doc)),
            (_STRING, String.Double),
            (r"[0-9]+", Number.Integer),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(WORD_OPERATORS, suffix=r"\b"), Operator.Word),
            (words(DOC_CLAUSES + KEYWORDS, suffix=r"\b"), Keyword),
            (r"[A-Za-z_][A-Za-z0-9_]*(?=\()", Name.Function),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"->|==|!=|<=|>=|\+=|-=|//|[<>=+\-*%?]", Operator),
            (r"[.,:()\[\]]", Punctuation),
        ],
    }
