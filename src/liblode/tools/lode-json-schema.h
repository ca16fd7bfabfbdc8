/* lode-json-schema.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

gboolean lode_json_schema_validate (JsonNode    *schema,
                                    JsonNode    *instance,
                                    const char  *name,
                                    GError     **error);

G_END_DECLS
