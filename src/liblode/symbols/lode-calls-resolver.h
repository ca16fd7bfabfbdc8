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

typedef struct
{
  guint file;
  guint symbol;
} LodeCallTarget;

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
GPtrArray        *lode_call_resolver_get_symbols (LodeCallResolver   *self,
                                                  guint               file);
GPtrArray        *lode_call_resolver_resolve     (LodeCallResolver   *self,
                                                  guint               file);

void              lode_call_edge_free            (LodeCallEdge       *edge);
const char       *lode_call_status_to_string     (LodeCallStatus      status);
const char       *lode_call_rule_to_string       (LodeCallRule        rule);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeCallEdge, lode_call_edge_free)

G_END_DECLS
