; Bash imports; conventions in ../javascript/imports.scm.

(command
  name: (command_name) @_source
  .
  argument: (_) @import.source
  (#any-of? @_source "source" "."))
