/* lode-calls-resolver.h — call sites bound to the definitions the code names
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "lode-calls.h"
#include "lode-import-resolver.h"

G_BEGIN_DECLS

typedef struct
{
  guint file;
  guint symbol;
} LodeCallTarget;

/**
 * LodeCallSymbol:
 * @name: the declared name
 * @kind: interned kind, as #LodeSymbol's
 * @container: (nullable): enclosing class, impl, namespace or module
 * @package: (nullable): as #LodeSymbol's
 * @start_line: first line, 1-based
 * @end_line: last line, 1-based, inclusive
 *
 * What the resolver keeps of a file's #LodeSymbol: the strings are the resolver's.
 */
typedef struct
{
  const char *name;
  const char *kind;
  const char *container;
  const char *package;
  guint       start_line;
  guint       end_line;
} LodeCallSymbol;

/**
 * LodeCallEdge:
 * @site: (transfer none): the call site, owned by the file's #LodeCalls
 * @status: how it ended
 * @rule: the rule that decided it
 * @confidence: 0–1, see lode_call_rule_confidence()
 * @targets: (element-type LodeCallTarget): one definition, or the candidates of an
 *   ambiguous call
 * @package: (nullable): the dependency of an external call
 */
typedef struct
{
  const LodeCallSite *site;
  LodeCallStatus      status;
  LodeCallRule        rule;
  double              confidence;
  GArray             *targets;
  char               *package;
} LodeCallEdge;

#define LODE_TYPE_CALL_RESOLVER (lode_call_resolver_get_type ())
G_DECLARE_FINAL_TYPE (LodeCallResolver, lode_call_resolver, LODE, CALL_RESOLVER, GObject)

LodeCallResolver *lode_call_resolver_new         (LodeImportResolver *imports);
guint             lode_call_resolver_add_file    (LodeCallResolver   *self,
                                                  const char         *path,
                                                  const char         *language_id,
                                                  GPtrArray          *symbols,
                                                  LodeCalls          *calls,
                                                  GPtrArray          *imports);
guint             lode_call_resolver_get_n_files (LodeCallResolver   *self);
const char       *lode_call_resolver_get_path    (LodeCallResolver   *self,
                                                  guint               file);
const LodeCallSymbol *lode_call_resolver_get_symbols (LodeCallResolver *self,
                                                      guint             file,
                                                      guint            *n_symbols);
GPtrArray        *lode_call_resolver_resolve     (LodeCallResolver   *self,
                                                  guint               file);
void              lode_call_resolver_drop_sites  (LodeCallResolver   *self,
                                                  guint               file);
GPtrArray        *lode_call_resolver_resolve_sites (LodeCallResolver *self,
                                                  guint               file,
                                                  GPtrArray          *sites);

gboolean          lode_call_resolver_same_for_others (GPtrArray       *symbols_a,
                                                      const LodeCalls *calls_a,
                                                      GPtrArray       *imports_a,
                                                      GPtrArray       *symbols_b,
                                                      const LodeCalls *calls_b,
                                                      GPtrArray       *imports_b);

void              lode_call_edge_free            (LodeCallEdge       *edge);
const char       *lode_call_status_to_string     (LodeCallStatus      status);
const char       *lode_call_rule_to_string       (LodeCallRule        rule);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeCallEdge, lode_call_edge_free)

G_END_DECLS
