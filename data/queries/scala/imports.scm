; Scala imports; conventions in ../javascript/imports.scm. The whole declaration is captured
; (@import.selectors): its path is joined with '.', selectors `{A, B => C, _}` expanded.

(import_declaration) @import.selectors
