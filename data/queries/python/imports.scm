; Python imports; conventions in ../javascript/imports.scm. `from a import b` gives the
; module `a` with the name `b`, which may be a submodule.

(import_statement name: (dotted_name) @import.module)
(import_statement name: (aliased_import name: (dotted_name) @import.module))

(import_from_statement
  module_name: (_) @import.module
  name: (dotted_name) @name)
(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import name: (dotted_name) @name))
(import_from_statement
  module_name: (_) @import.module
  (wildcard_import))

(call
  function: (attribute attribute: (identifier) @_import_module)
  arguments: (argument_list . (string) @import.dynamic)
  (#eq? @_import_module "import_module"))
(call
  function: (identifier) @_import
  arguments: (argument_list . (string) @import.dynamic)
  (#any-of? @_import "__import__" "import_module"))
