/* lode-json-schema.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-json-schema"

#include "config.h"

#include <math.h>

#include "lode-error.h"
#include "lode-json-schema.h"

/*
 * A validator for the subset of JSON Schema that tool arguments use: type (one or a list),
 * properties, required, additionalProperties: false, enum, minimum, maximum, minLength,
 * maxLength and items. Anything else in a schema (description, default, title…) is ignored.
 * The messages name the argument and what it must be, because an agent reads them and
 * retries.
 */

static const char *
kind_of (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      return "object";
    case JSON_NODE_ARRAY:
      return "array";
    case JSON_NODE_NULL:
      return "null";
    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_BOOLEAN:
          return "boolean";
        case G_TYPE_STRING:
          return "string";
        case G_TYPE_INT64:
          return "integer";
        default:
          return "number";
        }
    default:
      return "unknown";
    }
}

static const char *
with_article (const char *kind)
{
  if (g_str_equal (kind, "object"))
    return "an object";
  if (g_str_equal (kind, "array"))
    return "an array";
  if (g_str_equal (kind, "integer"))
    return "an integer";
  if (g_str_equal (kind, "null"))
    return "null";
  if (g_str_equal (kind, "string"))
    return "a string";
  if (g_str_equal (kind, "boolean"))
    return "a boolean";
  return "a number";
}

static gboolean
is_number (JsonNode *node)
{
  GType type;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static double
number_of (JsonNode *node)
{
  return json_node_get_value_type (node) == G_TYPE_INT64 ? (double) json_node_get_int (node)
                                                          : json_node_get_double (node);
}

static gboolean
matches_type (JsonNode   *node,
              const char *type)
{
  const char *kind = kind_of (node);

  if (g_str_equal (type, kind))
    return TRUE;
  if (g_str_equal (type, "number"))
    return g_str_equal (kind, "integer");
  /* 3.0 is an integer in JSON Schema: it is the value that counts, not the spelling. */
  if (g_str_equal (type, "integer") && g_str_equal (kind, "number"))
    {
      double v = json_node_get_double (node);
      return isfinite (v) && floor (v) == v;
    }

  return FALSE;
}

static gboolean
check_type (JsonNode     *type,
            JsonNode     *instance,
            const char   *name,
            GError      **error)
{
  g_autoptr(GString) expected = g_string_new (NULL);

  if (JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
    {
      if (matches_type (instance, json_node_get_string (type)))
        return TRUE;
      g_string_append (expected, with_article (json_node_get_string (type)));
    }
  else if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *types = json_node_get_array (type);

      for (guint i = 0; i < json_array_get_length (types); i++)
        {
          const char *t = json_array_get_string_element (types, i);

          if (t == NULL)
            continue;
          if (matches_type (instance, t))
            return TRUE;
          if (expected->len > 0)
            g_string_append (expected, " or ");
          g_string_append (expected, with_article (t));
        }
    }
  else
    return TRUE;

  g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
               "Argument “%s” must be %s, not %s", name, expected->str,
               with_article (kind_of (instance)));
  return FALSE;
}

static char *
describe_value (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup_printf ("“%s”", json_node_get_string (node));

  return json_to_string (node, FALSE);
}

static gboolean
check_enum (JsonArray   *values,
            JsonNode    *instance,
            const char  *name,
            GError     **error)
{
  g_autoptr(GString) allowed = g_string_new (NULL);
  g_autofree char *got = NULL;

  for (guint i = 0; i < json_array_get_length (values); i++)
    {
      JsonNode *value = json_array_get_element (values, i);
      g_autofree char *text = NULL;

      if (json_node_equal (value, instance))
        return TRUE;
      text = JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING
             ? g_strdup (json_node_get_string (value)) : json_to_string (value, FALSE);
      if (allowed->len > 0)
        g_string_append (allowed, ", ");
      g_string_append (allowed, text);
    }

  got = describe_value (instance);
  g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
               "Argument “%s” must be one of: %s (got %s)", name, allowed->str, got);
  return FALSE;
}

static gboolean
check_number (JsonObject  *schema,
              JsonNode    *instance,
              const char  *name,
              GError     **error)
{
  double value = number_of (instance);

  if (json_object_has_member (schema, "minimum") &&
      value < json_object_get_double_member (schema, "minimum"))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Argument “%s” must be at least %g (got %g)", name,
                   json_object_get_double_member (schema, "minimum"), value);
      return FALSE;
    }

  if (json_object_has_member (schema, "maximum") &&
      value > json_object_get_double_member (schema, "maximum"))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Argument “%s” must be at most %g (got %g)", name,
                   json_object_get_double_member (schema, "maximum"), value);
      return FALSE;
    }

  return TRUE;
}

static gboolean
check_string (JsonObject  *schema,
              JsonNode    *instance,
              const char  *name,
              GError     **error)
{
  glong length = g_utf8_strlen (json_node_get_string (instance), -1);

  if (json_object_has_member (schema, "minLength") &&
      length < json_object_get_int_member (schema, "minLength"))
    {
      if (json_object_get_int_member (schema, "minLength") == 1)
        g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                     "Argument “%s” must not be empty", name);
      else
        g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                     "Argument “%s” must be at least %" G_GINT64_FORMAT " characters long",
                     name, json_object_get_int_member (schema, "minLength"));
      return FALSE;
    }

  if (json_object_has_member (schema, "maxLength") &&
      length > json_object_get_int_member (schema, "maxLength"))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Argument “%s” must be at most %" G_GINT64_FORMAT " characters long "
                   "(got %ld)", name, json_object_get_int_member (schema, "maxLength"), length);
      return FALSE;
    }

  return TRUE;
}

static char *
member_name (const char *parent,
             const char *member)
{
  return parent[0] == '\0' ? g_strdup (member) : g_strdup_printf ("%s.%s", parent, member);
}

static gboolean validate (JsonNode    *schema,
                          JsonNode    *instance,
                          const char  *name,
                          GError     **error);

static gboolean
check_object (JsonObject  *schema,
              JsonObject  *object,
              const char  *name,
              GError     **error)
{
  JsonObject *properties = NULL;
  JsonNode *additional;
  g_autoptr(GList) members = NULL;

  if (json_object_has_member (schema, "properties"))
    properties = json_object_get_object_member (schema, "properties");

  if (json_object_has_member (schema, "required"))
    {
      JsonArray *required = json_object_get_array_member (schema, "required");

      for (guint i = 0; i < json_array_get_length (required); i++)
        {
          const char *member = json_array_get_string_element (required, i);
          g_autofree char *full = member_name (name, member);
          JsonNode *type = NULL;

          if (json_object_has_member (object, member))
            continue;

          if (properties != NULL && json_object_has_member (properties, member))
            type = json_object_get_member (json_object_get_object_member (properties, member),
                                           "type");
          if (type != NULL && JSON_NODE_HOLDS_VALUE (type))
            g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                         "Missing required argument “%s” (%s)", full,
                         with_article (json_node_get_string (type)));
          else
            g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                         "Missing required argument “%s”", full);
          return FALSE;
        }
    }

  additional = json_object_get_member (schema, "additionalProperties");
  members = json_object_get_members (object);
  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *member = l->data;
      g_autofree char *full = member_name (name, member);

      if (properties != NULL && json_object_has_member (properties, member))
        {
          if (!validate (json_object_get_member (properties, member),
                         json_object_get_member (object, member), full, error))
            return FALSE;
        }
      else if (additional != NULL && JSON_NODE_HOLDS_VALUE (additional) &&
               !json_node_get_boolean (additional))
        {
          g_autoptr(GString) known = g_string_new (NULL);
          g_autoptr(GList) names = properties != NULL ? json_object_get_members (properties)
                                                      : NULL;

          for (const GList *k = names; k != NULL; k = k->next)
            g_string_append_printf (known, "%s%s", known->len > 0 ? ", " : "",
                                    (const char *) k->data);
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "Unknown argument “%s”; expected %s%s", full,
                       known->len > 0 ? "one of: " : "no arguments",
                       known->str);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
validate (JsonNode    *schema_node,
          JsonNode    *instance,
          const char  *name,
          GError     **error)
{
  JsonObject *schema;
  JsonNode *type;

  if (!JSON_NODE_HOLDS_OBJECT (schema_node))
    return TRUE;
  schema = json_node_get_object (schema_node);

  type = json_object_get_member (schema, "type");
  if (type != NULL && !check_type (type, instance, name[0] != '\0' ? name : "arguments", error))
    return FALSE;

  if (json_object_has_member (schema, "enum") &&
      !check_enum (json_object_get_array_member (schema, "enum"), instance, name, error))
    return FALSE;

  if (is_number (instance))
    return check_number (schema, instance, name, error);

  if (JSON_NODE_HOLDS_VALUE (instance) && json_node_get_value_type (instance) == G_TYPE_STRING)
    return check_string (schema, instance, name, error);

  if (JSON_NODE_HOLDS_OBJECT (instance))
    return check_object (schema, json_node_get_object (instance), name, error);

  if (JSON_NODE_HOLDS_ARRAY (instance) && json_object_has_member (schema, "items"))
    {
      JsonArray *array = json_node_get_array (instance);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *item = g_strdup_printf ("%s[%u]", name, i);

          if (!validate (json_object_get_member (schema, "items"),
                         json_array_get_element (array, i), item, error))
            return FALSE;
        }
    }

  return TRUE;
}

/**
 * lode_json_schema_validate:
 * @schema: a JSON Schema (the subset described above)
 * @instance: the value to check
 * @name: (nullable): what @instance is called in messages; %NULL for a tool's arguments,
 *   whose members are then named by themselves ("limit", "filter.path", "paths[2]")
 * @error: return location for a #GError
 *
 * Returns: %TRUE if @instance is valid; otherwise %FALSE with %LODE_ERROR_INVALID_ARGUMENT
 *   and a message that names the argument and what it must be
 */
gboolean
lode_json_schema_validate (JsonNode    *schema,
                           JsonNode    *instance,
                           const char  *name,
                           GError     **error)
{
  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (instance != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return validate (schema, instance, name != NULL ? name : "", error);
}
