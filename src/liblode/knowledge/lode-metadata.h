/* lode-metadata.h — what a project is made of: languages, manifests, frameworks, tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-project.h"

G_BEGIN_DECLS

const char *lode_framework_for_dependency (const char    *name);
JsonObject *lode_metadata_report          (LodeProject   *project,
                                           GCancellable  *cancellable,
                                           GError       **error);
char       *lode_metadata_format          (JsonObject    *report);

G_END_DECLS
