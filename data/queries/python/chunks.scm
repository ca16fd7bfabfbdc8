; Python chunks; conventions in ../c/chunks.scm. The docstring is the doc.

(comment) @doc

(decorated_definition
  definition: (class_definition
    name: (identifier) @name
    body: (block . (expression_statement (string) @doc)?) @body)) @definition.class

(decorated_definition
  definition: (function_definition
    name: (identifier) @name
    body: (block . (expression_statement (string) @doc)?) @body)) @definition.function

(class_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?)) @definition.class

(function_definition
  name: (identifier) @name
  body: (block . (expression_statement (string) @doc)?)) @definition.function

(module
  (expression_statement
    (assignment left: (identifier) @name)) @definition.constant)

(type_alias_statement
  left: (type (identifier) @name)) @definition.type
