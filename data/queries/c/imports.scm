; C includes; conventions in ../javascript/imports.scm.

(preproc_include path: (string_literal) @import.include_local)
(preproc_include path: (system_lib_string) @import.include_system)
