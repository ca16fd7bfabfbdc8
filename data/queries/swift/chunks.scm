; Swift chunks; conventions in ../c/chunks.scm. `class_declaration` covers classes,
; structs, enums, actors and extensions; its declaration_kind tells them apart.

(comment) @doc
(multiline_comment) @doc

(class_declaration declaration_kind: "class" name: (_) @name) @definition.class
(class_declaration declaration_kind: "actor" name: (_) @name) @definition.class
(class_declaration declaration_kind: "struct" name: (_) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (_) @name) @definition.enum
(class_declaration declaration_kind: "extension" name: (_) @name) @definition.extension
(protocol_declaration name: (_) @name) @definition.interface
(function_declaration name: (simple_identifier) @name) @definition.function
(init_declaration name: _ @name) @definition.method
(protocol_function_declaration name: (simple_identifier) @name) @definition.prototype
(typealias_declaration name: (_) @name) @definition.type
