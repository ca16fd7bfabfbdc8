; Java imports; conventions in ../javascript/imports.scm. `import a.b.*` gives "a.b.*".

(import_declaration [(identifier) (scoped_identifier)] @import.wildcard (asterisk))
(import_declaration [(identifier) (scoped_identifier)] @import.module)
