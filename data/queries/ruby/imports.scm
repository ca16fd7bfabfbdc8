; Ruby imports; conventions in ../javascript/imports.scm.

(call
  method: (identifier) @_require
  arguments: (argument_list . (string) @import.relative)
  (#eq? @_require "require_relative"))
(call
  method: (identifier) @_require
  arguments: (argument_list . (string) @import.module)
  (#any-of? @_require "require" "load"))
