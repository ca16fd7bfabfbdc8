/* lode-calls.h — call sites and what resolving them needs, from a file's parse
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <tree_sitter/api.h>

#include "lode-language.h"
#include "lode-parse-budget.h"
#include "lode-references.h"

G_BEGIN_DECLS

/**
 * LodeCallFlags:
 * @LODE_CALL_MEMBER: called on a receiver (`a.f()`, `a->f()`, `a?.f()`, Ruby `a.f`)
 * @LODE_CALL_SCOPED: called through a path (`A::f()`, `\Ns\f()`, PHP `A::f()`)
 * @LODE_CALL_NEW: a constructor (`new X()`, `X::new()` is a plain scoped call)
 * @LODE_CALL_LOCAL: the bare name is a parameter or local variable of the caller, declared
 *   before the call: a call through a variable, not of a definition of that name
 * @LODE_CALL_MACRO_TEXT: read from a macro's body or arguments, not from the parse
 * @LODE_CALL_REGISTRATION: not a call: a function named where a command table or a router
 *   registers it (lode-calls-entries.c); an ENTRY binding on its line gives the command or
 *   the route
 */
typedef enum
{
  LODE_CALL_MEMBER     = 1 << 0,
  LODE_CALL_SCOPED     = 1 << 1,
  LODE_CALL_NEW        = 1 << 2,
  LODE_CALL_LOCAL      = 1 << 3,
  LODE_CALL_MACRO_TEXT = 1 << 4,
  LODE_CALL_REGISTRATION = 1 << 5,
} LodeCallFlags;

/**
 * LodeCallReceiver:
 * @LODE_CALL_RECEIVER_UNKNOWN: nothing the code states
 * @LODE_CALL_RECEIVER_SELF: the qualifier starts with `self`, `this`, `Self`, `static`, `@`
 * @LODE_CALL_RECEIVER_TYPE: the qualifier's first name has a type stated in the caller
 *   (a typed parameter or local); #LodeCallSite.receiver names it
 * @LODE_CALL_RECEIVER_RESULT: the qualifier's first name holds the result of a call
 *   (`x = Foo()`, `let x = X::new()`, `x := NewT()`, `x = new X()`); #LodeCallSite.receiver
 *   is that call's callee as written (`Foo`, `X::new`, `NewT`)
 */
typedef enum
{
  LODE_CALL_RECEIVER_UNKNOWN,
  LODE_CALL_RECEIVER_SELF,
  LODE_CALL_RECEIVER_TYPE,
  LODE_CALL_RECEIVER_RESULT,
} LodeCallReceiver;

/**
 * LodeCallSite:
 * @name: the callee's name as written (the last identifier)
 * @qualifier: (nullable): the receiver or path before it as written (`self.pool`,
 *   `crate::sync`, `os.path`, `s->ops`), spaces removed; %NULL for a bare call
 * @receiver: (nullable): see @receiver_kind
 * @line: 1-based line of the callee's name
 * @caller: index in the file's symbols of the enclosing function or method (else the
 *   innermost enclosing definition), -1 at file level
 * @flags: #LodeCallFlags
 * @receiver_kind: what the code states of the qualifier's first name
 */
typedef struct
{
  char             *name;
  char             *qualifier;
  char             *receiver;
  guint             line;
  gint              caller;
  guint8            flags;
  LodeCallReceiver  receiver_kind : 8;
} LodeCallSite;

/**
 * LodeCallBindingKind:
 * @LODE_CALL_BINDING_IMPORT: @name is imported: @target is the imported name (%NULL when
 *   @name is the module, package or namespace itself, `*` for every name of it), @path the
 *   specifier as written
 * @LODE_CALL_BINDING_FIELD: a field of the class @scope: @target its type as written
 * @LODE_CALL_BINDING_FIELD_RESULT: a field of the class @scope assigned the result of a call
 *   (`self.x = Foo()`): @target the callee as written
 * @LODE_CALL_BINDING_SUPER: the class @scope extends or implements @target
 * @LODE_CALL_BINDING_RETURNS: the function @scope returns @target
 * @LODE_CALL_BINDING_ALIAS: the C or C++ macro @scope stands for the name @target
 *   (`#define ZSTD_isError ERR_isError`)
 * @LODE_CALL_BINDING_REEXPORT: as @LODE_CALL_BINDING_IMPORT, and the file exports the
 *   name again (`export { a } from './x'`, `export * from`, Rust `pub use`)
 * @LODE_CALL_BINDING_ENTRY: an entry point the code states: @name is the command or route
 *   (`add`, `GET /users/{id}`), @target why ("command", "route"); @scope the definition a
 *   decorator or annotation routes, or -1 with @path the handler's name of the
 *   %LODE_CALL_REGISTRATION call site on @line
 */
typedef enum
{
  LODE_CALL_BINDING_IMPORT,
  LODE_CALL_BINDING_FIELD,
  LODE_CALL_BINDING_FIELD_RESULT,
  LODE_CALL_BINDING_SUPER,
  LODE_CALL_BINDING_RETURNS,
  LODE_CALL_BINDING_ALIAS,
  LODE_CALL_BINDING_REEXPORT,
  LODE_CALL_BINDING_ENTRY,
} LodeCallBindingKind;

typedef struct
{
  char                *name;
  char                *target;
  char                *path;
  guint                line;
  gint                 scope;
  LodeCallBindingKind  kind;
} LodeCallBinding;

/**
 * LodeCalls:
 * @sites: (element-type LodeCallSite): every call site, in file order
 * @bindings: (element-type LodeCallBinding): imported names, fields' types, base types,
 *   return types
 * @file_local: (element-type guint): indices of the symbols visible only in this file
 *   (C and C++ `static` functions, C++ anonymous namespaces)
 * @conditional: (element-type guint): pairs of first and last lines of the C and C++
 *   `#if`/`#ifdef` blocks, include guards aside: what lies there may not be compiled
 */
typedef struct
{
  GPtrArray *sites;
  GPtrArray *bindings;
  GArray    *file_local;
  GArray    *conditional;
} LodeCalls;

/* How resolving a call site ended (lode-calls-resolver.c), as the index stores it. */

/**
 * LodeCallStatus:
 * @LODE_CALL_RESOLVED: bound to one definition
 * @LODE_CALL_AMBIGUOUS: several definitions fit as well; all are listed
 * @LODE_CALL_EXTERNAL: into a dependency, named by the import that brings the name in
 * @LODE_CALL_UNRESOLVED: nothing the code states leads to a definition
 * @LODE_CALL_REGISTERED: not a call: a %LODE_CALL_REGISTRATION site, bound to the functions
 *   (one, or the candidates) that a command table or a router registers
 */
typedef enum
{
  LODE_CALL_RESOLVED,
  LODE_CALL_AMBIGUOUS,
  LODE_CALL_EXTERNAL,
  LODE_CALL_UNRESOLVED,
  LODE_CALL_REGISTERED,
} LodeCallStatus;

/**
 * LodeCallRule:
 * @LODE_CALL_RULE_NONE: no rule found it
 * @LODE_CALL_RULE_LOCAL: the caller's scope or its own file (a C prototype there leads to its
 *   definition)
 * @LODE_CALL_RULE_IMPORT: a name the file imports, through the import graph (C and C++:
 *   the headers it includes)
 * @LODE_CALL_RULE_RECEIVER: the receiver's type as the code states it
 * @LODE_CALL_RULE_PACKAGE: the caller's package, namespace or module
 * @LODE_CALL_RULE_UNIQUE: the only definition of the name in the project, where the
 *   language lets a name reach it without an import
 */
typedef enum
{
  LODE_CALL_RULE_NONE,
  LODE_CALL_RULE_LOCAL,
  LODE_CALL_RULE_IMPORT,
  LODE_CALL_RULE_RECEIVER,
  LODE_CALL_RULE_PACKAGE,
  LODE_CALL_RULE_UNIQUE,
} LodeCallRule;

LodeCalls *lode_calls_new           (void);
GBytes    *lode_calls_to_bytes      (const LodeCalls       *calls,
                                     GPtrArray             *symbols);
LodeCalls *lode_calls_new_from_bytes (GBytes               *bytes,
                                     GPtrArray           **symbols,
                                     GError              **error);
void       lode_calls_free          (LodeCalls             *calls);
gboolean   lode_calls_supported     (const LodeLanguage    *language);
LodeCalls *lode_calls_extract_tree  (const LodeLanguage    *language,
                                     TSNode                 root,
                                     const char            *text,
                                     gsize                  len,
                                     const TSNode          *definitions,
                                     const char * const    *kinds,
                                     guint                  n_definitions,
                                     const LodeParseBudget *budget,
                                     GArray                *def_names,
                                     GArray                *macro_calls,
                                     LodeReferences        *references);
void       lode_calls_add_binding   (LodeCalls             *calls,
                                     LodeCallBindingKind    kind,
                                     gint                   scope,
                                     const char            *name,
                                     const char            *target,
                                     const char            *path,
                                     guint                  line);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeCalls, lode_calls_free)

G_END_DECLS
