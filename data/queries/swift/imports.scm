; Swift imports; conventions in ../javascript/imports.scm.

(import_declaration (identifier) @import.module)
