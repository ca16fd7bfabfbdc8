; PHP imports; conventions in ../javascript/imports.scm. In a group use, `use A\{B, C}`, the
; common prefix is captured as @prefix and joined with '\'.

(namespace_use_declaration
  (namespace_name) @prefix
  body: (namespace_use_group
    (namespace_use_clause [(qualified_name) (name)] @import.module)))
(namespace_use_declaration
  (namespace_use_clause [(qualified_name) (name)] @import.module))

[
  (include_expression [(string) (encapsed_string)] @import.relative)
  (include_once_expression [(string) (encapsed_string)] @import.relative)
  (require_expression [(string) (encapsed_string)] @import.relative)
  (require_once_expression [(string) (encapsed_string)] @import.relative)
]

; `require __DIR__ . '/x.php'`: the path is the string at the end.
[
  (include_expression (binary_expression right: [(string) (encapsed_string)] @import.relative))
  (include_once_expression
    (binary_expression right: [(string) (encapsed_string)] @import.relative))
  (require_expression (binary_expression right: [(string) (encapsed_string)] @import.relative))
  (require_once_expression
    (binary_expression right: [(string) (encapsed_string)] @import.relative))
]
