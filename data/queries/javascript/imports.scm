; JavaScript imports. Captures: @import.<kind> on the node naming the import (see
; src/liblode/lode-imports.c); the first pattern capturing a node decides its kind.

(import_statement (import_clause) source: (string) @import.module)
(import_statement source: (string) @import.side_effect)

(export_statement source: (string) @import.re_export)

; Template strings only without substitutions (see lode-imports.c).
(call_expression
  function: (import)
  arguments: (arguments . [(string) (template_string)] @import.dynamic))

(call_expression
  function: (identifier) @_require
  arguments: (arguments . [(string) (template_string)] @import.module)
  (#eq? @_require "require"))
