/* lode-symbol-format.c — the symbol reports as markdown
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include "lode-i18n.h"
#include "lode-symbol-report-private.h"

static const char *
get_string (JsonObject *object,
            const char *member)
{
  return object != NULL ? detail_string (object, member) : NULL;
}

static void
append_location (GString    *out,
                 JsonObject *location)
{
  g_string_append_printf (out, "`%s:%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT "`",
                          get_string (location, "file_path"),
                          json_object_get_int_member (location, "start_line"),
                          json_object_get_int_member (location, "end_line"));
}

static void
append_parameters (GString    *out,
                   JsonObject *function)
{
  JsonArray *parameters = detail_array (function, "parameters");
  JsonArray *returns = detail_array (function, "returns");

  for (guint i = 0; parameters != NULL && i < json_array_get_length (parameters); i++)
    {
      JsonObject *p = json_array_get_object_element (parameters, i);

      g_string_append_printf (out, "  - `%s`", get_string (p, "name"));
      if (get_string (p, "type") != NULL)
        g_string_append_printf (out, ": `%s`", get_string (p, "type"));
      if (get_string (p, "default") != NULL)
        g_string_append_printf (out, " = `%s`", get_string (p, "default"));
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; returns != NULL && i < json_array_get_length (returns); i++)
    g_string_append_printf (out, "  - returns `%s`\n",
                            get_string (json_array_get_object_element (returns, i), "type"));
}

static void
append_candidates (GString    *out,
                   JsonObject *report,
                   const char *what)
{
  JsonArray *list = detail_array (report, "candidates");
  guint n = list != NULL ? json_array_get_length (list) : 0;

  if (n == 0)
    {
      g_string_append_printf (out, "No %s named “%s”. %s.\n", what, get_string (report, "query"),
                              get_string (report, "hint"));
      return;
    }
  g_string_append_printf (out, "## ");
  lode_append_count (out, json_object_get_int_member (report, "count"), "%u match",
                     "%u matches");
  g_string_append_printf (out, " for “%s”\n\n", get_string (report, "query"));
  for (guint i = 0; i < n; i++)
    {
      JsonObject *c = json_array_get_object_element (list, i);

      g_string_append_printf (out, "- %s `%s` at ", get_string (c, "kind"),
                              get_string (c, "full_name"));
      append_location (out, json_object_get_object_member (c, "location"));
      g_string_append_c (out, '\n');
    }
  g_string_append_printf (out, "\n%s.\n", get_string (report, "hint"));
}

char *
lode_symbol_format_type (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonNode *node = json_object_get_member (report, "type");
  JsonObject *type;
  JsonArray *fields, *methods, *relations;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      append_candidates (out, report, "type");
      return g_string_free (out, FALSE);
    }

  type = json_node_get_object (node);
  g_string_append_printf (out, "## %s `%s` (%s)\n\n", get_string (type, "kind"),
                          get_string (type, "full_name"), get_string (type, "language"));
  append_location (out, json_object_get_object_member (type, "location"));
  g_string_append_c (out, '\n');
  if (get_string (type, "signature") != NULL)
    g_string_append_printf (out, "\n```\n%s\n```\n", get_string (type, "signature"));
  if (get_string (type, "description") != NULL)
    g_string_append_printf (out, "\n%s\n", get_string (type, "description"));

  relations = detail_array (type, "relations");
  if (relations != NULL && json_array_get_length (relations) > 0)
    {
      g_string_append (out, "\n### Relations\n\n");
      for (guint i = 0; i < json_array_get_length (relations); i++)
        {
          JsonObject *r = json_array_get_object_element (relations, i);

          g_string_append_printf (out, "- %s `%s`", get_string (r, "kind"),
                                  get_string (r, "target") != NULL ? get_string (r, "target")
                                                                   : get_string (r, "name"));
          if (get_string (r, "target") != NULL && get_string (r, "name") != NULL &&
              g_strcmp0 (get_string (r, "kind"), "extends") != 0 &&
              g_strcmp0 (get_string (r, "kind"), "implements") != 0 &&
              g_strcmp0 (get_string (r, "kind"), "uses") != 0)
            g_string_append_printf (out, " (%s())", get_string (r, "name"));
          g_string_append_c (out, '\n');
        }
    }

  fields = detail_array (type, "fields");
  if (fields != NULL && json_array_get_length (fields) > 0)
    {
      g_string_append (out, "\n### Fields\n\n");
      for (guint i = 0; i < json_array_get_length (fields); i++)
        {
          JsonObject *f = json_array_get_object_element (fields, i);

          g_string_append_printf (out, "- %s%s`%s`", get_string (f, "visibility") != NULL
                                                    ? get_string (f, "visibility") : "",
                                  json_object_get_boolean_member (f, "is_static")
                                  ? " static " : " ", get_string (f, "name"));
          if (get_string (f, "type") != NULL)
            g_string_append_printf (out, ": `%s`", get_string (f, "type"));
          if (get_string (f, "default") != NULL)
            g_string_append_printf (out, " = `%s`", get_string (f, "default"));
          if (get_string (f, "description") != NULL)
            g_string_append_printf (out, " — %s", get_string (f, "description"));
          g_string_append_c (out, '\n');
        }
    }

  methods = detail_array (type, "methods");
  if (methods != NULL && json_array_get_length (methods) > 0)
    {
      g_string_append (out, "\n### Methods\n\n");
      for (guint i = 0; i < json_array_get_length (methods); i++)
        {
          JsonObject *m = json_array_get_object_element (methods, i);

          g_string_append_printf (out, "- %s `%s`", get_string (m, "kind"),
                                  get_string (m, "signature") != NULL
                                  ? get_string (m, "signature") : get_string (m, "name"));
          if (get_string (m, "description") != NULL)
            g_string_append_printf (out, " — %s", get_string (m, "description"));
          g_string_append_c (out, '\n');
        }
    }

  if (json_object_has_member (type, "table"))
    {
      g_autoptr(JsonNode) casts = json_node_copy (json_object_get_member (type, "casts"));
      g_autofree char *casts_text = json_to_string (casts, FALSE);
      static const char * const lists[] = { "fillable", "hidden", "visible", "appends",
                                            "scopes", NULL };

      g_string_append_printf (out, "\n### Model\n\n- table `%s`\n", get_string (type, "table"));
      for (guint i = 0; lists[i] != NULL; i++)
        {
          JsonArray *list = detail_array (type, lists[i]);

          if (list == NULL || json_array_get_length (list) == 0)
            continue;
          g_string_append_printf (out, "- %s:", lists[i]);
          for (guint k = 0; k < json_array_get_length (list); k++)
            g_string_append_printf (out, "%s `%s`", k > 0 ? "," : "",
                                    json_array_get_string_element (list, k));
          g_string_append_c (out, '\n');
        }
      g_string_append_printf (out, "- casts: `%s`\n", casts_text);
    }

  return g_string_free (out, FALSE);
}

char *
lode_symbol_format_function (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonNode *node = json_object_get_member (report, "function");
  JsonObject *function;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      append_candidates (out, report, "function");
      return g_string_free (out, FALSE);
    }

  function = json_node_get_object (node);
  g_string_append_printf (out, "## %s `%s` (%s)\n\n", get_string (function, "kind"),
                          get_string (function, "full_name"), get_string (function, "language"));
  append_location (out, json_object_get_object_member (function, "location"));
  g_string_append_c (out, '\n');
  if (get_string (function, "description") != NULL)
    g_string_append_printf (out, "\n%s\n", get_string (function, "description"));
  g_string_append (out, "\n");
  append_parameters (out, function);
  if (get_string (function, "code") != NULL)
    g_string_append_printf (out, "\n```%s\n%s\n```\n", get_string (function, "language"),
                            get_string (function, "code"));
  return g_string_free (out, FALSE);
}

char *
lode_symbol_format_exports (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *exports = detail_array (report, "exports");

  g_string_append_printf (out, "## Exports of `%s`: ", get_string (report, "query"));
  lode_append_count (out, json_object_get_int_member (report, "total"), "%u symbol",
                     "%u symbols");
  g_string_append (out, "\n\n");
  for (guint i = 0; exports != NULL && i < json_array_get_length (exports); i++)
    {
      JsonObject *e = json_array_get_object_element (exports, i);

      g_string_append_printf (out, "- %s `%s` at ", get_string (e, "kind"),
                              get_string (e, "signature") != NULL ? get_string (e, "signature")
                                                                  : get_string (e, "name"));
      append_location (out, json_object_get_object_member (e, "location"));
      if (get_string (e, "description") != NULL)
        {
          g_autofree char *first = g_strdup (get_string (e, "description"));

          first[strcspn (first, "\n")] = '\0';
          g_string_append_printf (out, " — %s", first);
        }
      g_string_append_c (out, '\n');
    }
  if (get_string (report, "hint") != NULL)
    g_string_append_printf (out, "\n%s.\n", get_string (report, "hint"));
  return g_string_free (out, FALSE);
}

char *
lode_symbol_format_references (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *references = detail_array (report, "references");
  JsonArray *files = detail_array (report, "files");
  guint listed = references != NULL ? json_array_get_length (references) : 0;

  g_string_append_printf (out, "## `%s`: ", get_string (report, "symbol"));
  lode_append_count (out, json_object_get_int_member (report, "total"), "%u reference",
                     "%u references");
  g_string_append (out, " in ");
  lode_append_count (out, json_object_get_int_member (report, "fileCount"), "%u file",
                     "%u files");
  g_string_append (out, "\n\n");
  for (guint i = 0; i < listed; i++)
    {
      JsonObject *r = json_array_get_object_element (references, i);
      g_autofree char *text = g_strdup (get_string (r, "text") != NULL ? get_string (r, "text")
                                                                       : "");

      g_string_append_printf (out, "- `%s:%" G_GINT64_FORMAT "` %s: `%s`\n",
                              get_string (r, "path"), json_object_get_int_member (r, "line"),
                              get_string (r, "kind"), g_strstrip (text));
    }
  if (listed < json_object_get_int_member (report, "total"))
    {
      g_string_append (out, "\nPer file:\n\n");
      for (guint i = 0; files != NULL && i < json_array_get_length (files); i++)
        {
          JsonObject *f = json_array_get_object_element (files, i);

          g_string_append_printf (out, "- `%s`: %" G_GINT64_FORMAT "\n", get_string (f, "path"),
                                  json_object_get_int_member (f, "count"));
        }
    }
  return g_string_free (out, FALSE);
}
