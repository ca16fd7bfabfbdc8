; TypeScript and TSX chunks (the TSX grammar uses this file too); conventions in
; ../c/chunks.scm.

(comment) @doc

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.prototype
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(interface_declaration name: (type_identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type
(internal_module name: (_) @name) @definition.namespace
(module name: (_) @name) @definition.module
(method_definition name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method

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

(expression_statement
  (assignment_expression
    left: (member_expression property: (property_identifier) @name)
    right: [
      (arrow_function body: (_) @body)
      (function_expression body: (_) @body)
    ])) @definition.function
