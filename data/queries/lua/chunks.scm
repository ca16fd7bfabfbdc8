; Lua chunks; conventions in ../c/chunks.scm. `function M.f` and `function M:f` are named f
; in container M.

(comment) @doc

(function_declaration
  name: [
    (dot_index_expression table: (_) @container field: (identifier) @name)
    (method_index_expression table: (_) @container method: (identifier) @name)
  ]) @definition.method

(function_declaration
  name: (identifier) @name) @definition.function

(variable_declaration
  (assignment_statement
    (variable_list name: (identifier) @name)
    (expression_list value: (function_definition)))) @definition.function
