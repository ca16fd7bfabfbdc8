; C# chunks; conventions in ../c/chunks.scm.

(comment) @doc

(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(destructor_declaration name: (identifier) @name) @definition.method
(operator_declaration operator: _ @name) @definition.method
(property_declaration name: (identifier) @name) @definition.property
(local_function_statement name: (identifier) @name) @definition.function
