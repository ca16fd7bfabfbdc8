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

gboolean   lode_call_pass_run         (LodeIndexStore      *store,
                                       LodeImportResolver  *imports,
                                       GCancellable        *cancellable,
                                       guint               *n_changed,
                                       GError             **error);

G_END_DECLS
