; Ruby chunks; conventions in ../c/chunks.scm.

(comment) @doc

(class name: (_) @name) @definition.class
(module name: (_) @name) @definition.module
(singleton_class value: (_) @name) @definition.class
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
