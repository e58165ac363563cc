"""A language server for rule sets: the checker's diagnostics as one types, hover,
go to definition, references, completion and rename (install the ``lsp`` extra)."""
