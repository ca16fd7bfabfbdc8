/* lode-json.h — reading JSON from outside and writing JSON that stays valid
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Arrays and objects nested deeper than this are refused before json-glib (which parses
 * recursively) sees them. Lode's own messages and the configuration files it reads nest a
 * handful of levels. */
#define LODE_JSON_MAX_DEPTH 128

JsonNode *lode_json_parse     (const char  *data,
                               gssize       length,
                               GError     **error);
JsonNode *lode_json_parse_full (const char  *data,
                                gssize       length,
                                guint       *n_nul,
                                GError     **error);
JsonNode *lode_json_parse_file (const char *path,
                                GError    **error);
char     *lode_json_to_string (JsonNode    *node,
                               gboolean     pretty);
void      lode_json_append_string (GString    *out,
                                   const char *text);

/* Members of an object, from outside or our own: missing, null or of another type, they are
 * the default (none of json_object_get_*_member()'s criticals). */
const char *lode_json_get_string  (JsonObject *object,
                                   const char *member);
JsonObject *lode_json_get_object  (JsonObject *object,
                                   const char *member);
JsonArray  *lode_json_get_array   (JsonObject *object,
                                   const char *member);
gint64      lode_json_get_int     (JsonObject *object,
                                   const char *member,
                                   gint64      default_value);
gboolean    lode_json_get_boolean (JsonObject *object,
                                   const char *member,
                                   gboolean    default_value);

/* Members of an object being built. */
void        lode_json_builder_add_string   (JsonBuilder *builder,
                                            const char  *member,
                                            const char  *value);
void        lode_json_builder_add_int      (JsonBuilder *builder,
                                            const char  *member,
                                            gint64       value);
void        lode_json_builder_add_boolean  (JsonBuilder *builder,
                                            const char  *member,
                                            gboolean     value);
JsonObject *lode_json_builder_steal_object (JsonBuilder *builder);

G_END_DECLS
