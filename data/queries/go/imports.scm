; Go imports; conventions in ../javascript/imports.scm.

(import_spec path: (_) @import.module)
