; Kotlin imports; conventions in ../javascript/imports.scm. `import a.b.*` gives "a.b.*".

(import_header (identifier) @import.wildcard (wildcard_import))
(import_header (identifier) @import.module)
