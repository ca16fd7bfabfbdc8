; Rust imports; conventions in ../javascript/imports.scm. A use tree is expanded into one
; import per leaf (@import.use); `pub use` re-exports its leaves (not `pub(crate) use`);
; `mod x;` without a body names the file of module x.

((use_declaration (visibility_modifier) @_pub argument: (_) @import.re_export.use)
 (#eq? @_pub "pub"))
(use_declaration argument: (_) @import.use)

; `#[path = "x.rs"] mod m;` names its file. @at makes it the same import as the next pattern's,
; which it replaces since it comes first.
((attribute_item
   (attribute (identifier) @_path value: (string_literal) @import.source))
 .
 (mod_item !body name: (identifier) @at)
 (#eq? @_path "path"))
(mod_item !body name: (identifier) @import.source)
(extern_crate_declaration name: (identifier) @import.module)
