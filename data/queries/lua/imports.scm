; Lua imports; conventions in ../javascript/imports.scm.

(function_call
  name: (identifier) @_require
  arguments: (arguments . (string) @import.module)
  (#eq? @_require "require"))
