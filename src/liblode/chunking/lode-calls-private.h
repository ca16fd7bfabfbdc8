/* lode-calls-private.h — what the parts of the call-site extractor share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-calls.h"
#include "lode-symbol-extract-private.h"

G_BEGIN_DECLS

/*
 * The extractor in parts, each calling only those above it here:
 *
 *   lode-calls.c           the value (call sites, bindings, stored and read back) and the
 *                          walk's state: the definitions around it, its scopes
 *   lode-calls-bindings.c  declarations, fields, imports and base types, per language
 *   lode-calls-entries.c   what the code registers: routes, tables of commands (the walk
 *                          calls it on each call, initializer list and function it enters;
 *                          it leaves the handlers it finds in the walk's list of handlers)
 *   lode-calls-walk.c      the walk over the parse: callees, receivers, macro bodies, `#if`;
 *                          it reads each handler the entries step left as a callee
 */

/* What the walk knows of a name in a function's scope. */
typedef struct
{
  LodeCallReceiver  kind;     /* UNKNOWN: a local whose type the code does not state */
  char             *type;     /* TYPE: the type; RESULT: the callee whose result it holds */
} Local;

typedef struct _Scope Scope;
struct _Scope
{
  GHashTable *names;          /* char * → Local * */
  Scope      *parent;
};

typedef struct
{
  guint  def;                 /* index in the file's definitions */
  Scope *scope;               /* owned; NULL unless the definition is a function */
} Frame;

/* A function the code hands to a router or a table of commands, by name: the walk reads
 * @value as the callee of a registration and records the entry point under @label. */
typedef struct
{
  TSNode      value;          /* the function as written: `h`, `pkg.F`, `h.Method` */
  const char *reason;         /* static: "route" or "command" */
  char       *label;          /* owned: the route or the command */
} Handler;

typedef struct
{
  LodeSymbolExtractor   *x;
  LodeCalls             *calls;
  const TSNode          *defs;
  const char * const    *kinds;
  guint                  n_defs;
  guint                 *order;       /* definition indices by start byte */
  guint                  next;        /* next of order to enter */
  GArray                *frames;      /* Frame, innermost last */
  const LodeParseBudget *budget;
  guint                  steps;
  gboolean               spent;
  gboolean               reexporting;  /* the import being read exports its names again */
  GArray                *handlers;    /* Handler: found in the node being visited */
  ReferenceWalk         *refs;        /* the references listed on the way, or NULL */
} Walk;

/* lode-calls.c: the value and the walk's state */
LodeCallSite *_lode_calls_add_site          (LodeCalls         *calls,
                                             char              *name,
                                             char              *qualifier,
                                             guint              line,
                                             gint               caller,
                                             LodeCallFlags      flags);
gint          _lode_calls_caller            (Walk              *w);
gint          _lode_calls_class             (Walk              *w);
gboolean      _lode_calls_kind_is_function  (const char        *kind);
Scope        *_lode_calls_scope             (Walk              *w);
Scope        *_lode_calls_scope_new         (Scope             *parent);
void          _lode_calls_scope_free        (Scope             *scope);
const Local  *_lode_calls_scope_lookup      (Scope             *scope,
                                             const char        *name);
void          _lode_calls_declare           (Walk              *w,
                                             TSNode             name,
                                             LodeCallReceiver   kind,
                                             const char        *type);
gboolean      _lode_calls_is_word_byte      (char               c);
char         *_lode_calls_clean_type        (const char        *text);
char         *_lode_calls_squeeze           (Walk              *w,
                                             guint32            start,
                                             guint32            end);

/* lode-calls-bindings.c: declarations, fields, imports and base types, per language */
gboolean      _lode_calls_visit_binding     (Walk              *w,
                                             TSNode             node,
                                             const char        *type);
void          _lode_calls_enter_def         (Walk              *w,
                                             guint              def);
gboolean      _lode_calls_value_type        (Walk              *w,
                                             TSNode             value,
                                             LodeCallReceiver  *kind,
                                             char             **type);

/* lode-calls-entries.c: routes and tables of commands; a handler named by a call or a row
 * is appended to w->handlers for the walk to read */
void          _lode_calls_visit_registration (Walk             *w,
                                              TSNode            call);
void          _lode_calls_visit_table_row    (Walk             *w,
                                              TSNode            row);
void          _lode_calls_visit_decorated    (Walk             *w,
                                              guint             def);

G_END_DECLS
