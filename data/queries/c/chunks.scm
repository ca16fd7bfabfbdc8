; Chunk queries: which nodes of a file are declarations that get a chunk and a symbol.
; Every data/queries/<lang>/chunks.scm follows the same convention, after tree-sitter's
; tags.scm narrowed to definitions:
;
;   @definition.<kind>  the whole declaration. <kind> is shown by search and used to rank:
;                       function, method, prototype, class, struct, union, enum, interface,
;                       trait, impl, module, namespace, object, type, constant, macro,
;                       property. A "function" directly inside a class-like definition is
;                       reported as a "method".
;   @name               its name; required. A C/C++ declarator is followed down to the
;                       declared identifier, and `A::f` gives the name f in container A.
;   @body               optional: the node where the signature ends (default: the `body`
;                       field of the definition node, else the first `{`).
;   @container          optional: the container's name when it is not an enclosing
;                       definition (Go receivers, Lua `function M.f`).
;   @doc                alone in a pattern: a comment; the whole-line comments right above a
;                       definition become its doc. Inside a definition's pattern: the doc
;                       itself (Python docstrings).
;   @attribute          alone in a pattern: an attribute written before a definition as a
;                       node of its own (Rust `#[derive(…)]`); the doc above it is the
;                       definition's.
;
; When two patterns match the same node, the earlier pattern wins; when two matches share
; a name node, the outer one wins. Predicates (#eq?, #match?) are not evaluated: don't use
; them. Every pattern starts at a named node type, `(type …)`: the chunker runs the query only
; on nodes of those types (an alternation, a wildcard or a supertype at the start of a pattern
; makes the query fail to load).

(comment) @doc

(function_definition
  declarator: (_) @name) @definition.function

(declaration
  declarator: [
    (function_declarator)
    (pointer_declarator declarator: (function_declarator))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator)))
  ] @name) @definition.prototype

(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (field_declaration_list)) @definition.union

(enum_specifier
  name: (type_identifier) @name
  body: (enumerator_list)) @definition.enum

(type_definition
  declarator: [
    (type_identifier)
    (pointer_declarator declarator: (type_identifier))
  ] @name) @definition.type

(preproc_def
  name: (identifier) @name) @definition.macro

(preproc_function_def
  name: (identifier) @name) @definition.macro
