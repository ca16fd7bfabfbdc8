; Rust imports; conventions in ../javascript/imports.scm. A use tree is expanded into one
; import per leaf (@import.use); `mod x;` without a body names the file of module x.

(use_declaration argument: (_) @import.use)
(mod_item !body name: (identifier) @import.source)
(extern_crate_declaration name: (identifier) @import.module)
