; C# using directives; conventions in ../javascript/imports.scm. For `using X = A.B;` the
; import is A.B.

(using_directive (qualified_name) @import.module)
(using_directive !name (identifier) @import.module)
