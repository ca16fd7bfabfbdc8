; C++ chunks; conventions in ../c/chunks.scm.

(comment) @doc

(namespace_definition
  name: (_) @name) @definition.namespace

(class_specifier
  name: (_) @name
  body: (field_declaration_list)) @definition.class

(struct_specifier
  name: (_) @name
  body: (field_declaration_list)) @definition.struct

(union_specifier
  name: (_) @name
  body: (field_declaration_list)) @definition.union

(enum_specifier
  name: (_) @name
  body: (enumerator_list)) @definition.enum

(function_definition
  declarator: (_) @name) @definition.function

(declaration
  declarator: [
    (function_declarator)
    (pointer_declarator declarator: (function_declarator))
    (reference_declarator (function_declarator))
  ] @name) @definition.prototype

(field_declaration
  declarator: [
    (function_declarator)
    (pointer_declarator declarator: (function_declarator))
    (reference_declarator (function_declarator))
  ] @name) @definition.prototype

(type_definition
  declarator: (type_identifier) @name) @definition.type

(alias_declaration
  name: (type_identifier) @name) @definition.type

(concept_definition
  name: (identifier) @name) @definition.type

(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro
