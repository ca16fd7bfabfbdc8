; Scala chunks; conventions in ../c/chunks.scm.

(comment) @doc
(block_comment) @doc

(package_object name: (_) @name) @definition.object
(object_definition name: (_) @name) @definition.object
(class_definition name: (_) @name) @definition.class
(trait_definition name: (_) @name) @definition.trait
(enum_definition name: (_) @name) @definition.enum
(function_definition name: (_) @name) @definition.function
(function_declaration name: (_) @name) @definition.prototype
(type_definition name: (_) @name) @definition.type
(given_definition name: (_) @name) @definition.object
