; Kotlin chunks; conventions in ../c/chunks.scm. The grammar has no fields, so bodies are
; captured explicitly.

(line_comment) @doc
(multiline_comment) @doc

(class_declaration
  "interface"
  (type_identifier) @name
  (class_body)? @body) @definition.interface

(class_declaration
  "class"
  (type_identifier) @name
  [(class_body) (enum_class_body)]? @body) @definition.class

(object_declaration
  (type_identifier) @name
  (class_body)? @body) @definition.object

(companion_object
  (type_identifier) @name
  (class_body)? @body) @definition.object

(function_declaration
  (simple_identifier) @name
  (function_body)? @body) @definition.function

(type_alias
  (type_identifier) @name) @definition.type
