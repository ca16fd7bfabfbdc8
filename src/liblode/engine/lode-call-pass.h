/* lode-call-pass.h — resolves the calls of an index again after files changed (issue #28)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-import-resolver.h"
#include "lode-index-store.h"

G_BEGIN_DECLS

typedef struct _LodeCallPassEdits LodeCallPassEdits;

LodeCallPassEdits *lode_call_pass_edits_new     (void);
void               lode_call_pass_edits_free    (LodeCallPassEdits   *edits);
gboolean           lode_call_pass_edits_add     (LodeCallPassEdits   *edits,
                                                 LodeIndexStore      *store,
                                                 const char          *path,
                                                 GError             **error);
guint              lode_call_pass_edits_get_n_files (LodeCallPassEdits *edits);

gboolean   lode_call_pass_run         (LodeIndexStore      *store,
                                       LodeImportResolver  *imports,
                                       LodeCallPassEdits   *edits,
                                       GCancellable        *cancellable,
                                       guint               *n_resolved,
                                       guint               *n_changed,
                                       GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeCallPassEdits, lode_call_pass_edits_free)

G_END_DECLS
