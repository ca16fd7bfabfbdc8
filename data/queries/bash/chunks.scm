; Bash chunks; conventions in ../c/chunks.scm.

(comment) @doc

(function_definition name: (word) @name) @definition.function
