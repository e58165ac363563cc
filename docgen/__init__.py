"""Documentation generated from a rule set: a Pygments lexer for the rules language,
SVG pictures of tiles and boards, and an mkdocs site whose rule text is rendered from
the rules themselves, so it cannot drift from what the engine plays."""
