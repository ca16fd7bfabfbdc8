; JavaScript chunks; conventions in ../c/chunks.scm.

(comment) @doc

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class
(method_definition name: (_) @name) @definition.method

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (generator_function body: (_) @body)
    ])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
      (generator_function body: (_) @body)
    ])) @definition.function

(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: (class))) @definition.class

(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
    ])) @definition.function

(pair
  key: (property_identifier) @name
  value: [
    (arrow_function body: (_) @body)
    (function_expression body: (_) @body)
  ]) @definition.method
