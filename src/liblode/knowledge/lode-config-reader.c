/* lode-config-reader.c — configuration files read as flat keys with their lines
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <string.h>
#include <yaml.h>

#include "lode-config-reader.h"
#include "lode-error.h"
#include "lode-json.h"

/*
 * The style rules and the manifests a project states come in five formats. Each is read
 * into the same flat list of (key path, value, line), so that a rule can name the line it
 * comes from. JSON and XML go through json-glib and GMarkup, YAML through libyaml; TOML has
 * no C reader in Debian, so its subset that configuration files use (tables, array tables,
 * dotted keys, strings, numbers, booleans, arrays over several lines, inline tables kept as
 * written) is read here, as is INI (.editorconfig).
 */

void
lode_config_entry_free (LodeConfigEntry *entry)
{
  if (entry == NULL)
    return;

  g_free (entry->key);
  g_free (entry->value);
  g_free (entry);
}

static void
add_entry (GPtrArray  *entries,
           const char *key,
           const char *value,
           guint       line)
{
  LodeConfigEntry *entry = g_new0 (LodeConfigEntry, 1);

  entry->key = g_strdup (key);
  entry->value = g_strdup (value);
  entry->line = line;
  g_ptr_array_add (entries, entry);
}

static guint
line_at (const char *text,
         const char *at)
{
  guint line = 1;

  for (const char *p = text; p < at; p++)
    line += *p == '\n';

  return line;
}

/* JSON ------------------------------------------------------------------------------- */

/* json-glib keeps no positions: a member's line is where `"name"` is next written after
 * its parent's. */
static const char *
find_member (const char *from,
             const char *name)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\"", name);
  const char *at = strstr (from, quoted);

  return at != NULL ? at : from;
}

static void
flatten_json (GPtrArray  *entries,
              const char *text,
              const char *from,
              const char *prefix,
              JsonNode   *node)
{
  JsonObject *object = json_node_get_object (node);
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);
      g_autofree char *key = prefix[0] != '\0' ? g_strconcat (prefix, ".", l->data, NULL)
                                               : g_strdup (l->data);
      const char *at = find_member (from, l->data);

      if (JSON_NODE_HOLDS_OBJECT (value))
        {
          flatten_json (entries, text, at, key, value);
          continue;
        }
      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
        add_entry (entries, key, json_node_get_string (value), line_at (text, at));
      else
        {
          g_autofree char *written = lode_json_to_string (value, FALSE);

          add_entry (entries, key, written, line_at (text, at));
        }
    }
}

static gboolean
read_json (GPtrArray   *entries,
           const char  *text,
           gsize        length,
           GError     **error)
{
  g_autoptr(JsonNode) root = lode_json_parse (text, length, error);

  if (root == NULL)
    return FALSE;
  if (JSON_NODE_HOLDS_OBJECT (root))
    flatten_json (entries, text, text, "", root);

  return TRUE;
}

/* TOML -------------------------------------------------------------------------------- */

/* Where a value that may span lines ends: brackets and braces balanced outside strings. */
static const char *
value_end (const char *p)
{
  int depth = 0;
  char quote = 0;

  for (; *p != '\0'; p++)
    {
      if (quote != 0)
        {
          if (*p == '\\' && quote == '"' && p[1] != '\0')
            p++;
          else if (*p == quote)
            quote = 0;
          continue;
        }
      if (*p == '"' || *p == '\'')
        quote = *p;
      else if (*p == '[' || *p == '{')
        depth++;
      else if (*p == ']' || *p == '}')
        depth--;
      else if (*p == '#')
        {
          while (p[1] != '\0' && p[1] != '\n')
            p++;
        }
      else if (*p == '\n' && depth <= 0)
        return p;
    }

  return p;
}

/* A key as written: bare, or quoted; dotted parts joined by dots. */
static char *
toml_key (const char *start,
          const char *end)
{
  GString *key = g_string_new (NULL);

  for (const char *p = start; p < end; p++)
    {
      if (*p == '"' || *p == '\'')
        {
          char quote = *p++;

          while (p < end && *p != quote)
            g_string_append_c (key, *p++);
        }
      else if (!g_ascii_isspace (*p))
        g_string_append_c (key, *p);
    }

  return g_string_free (key, FALSE);
}

static gboolean
read_toml (GPtrArray   *entries,
           const char  *text,
           GError     **error)
{
  g_autofree char *table = g_strdup ("");

  for (const char *p = text; *p != '\0'; )
    {
      const char *end = strchr (p, '\n');
      const char *line_end = end != NULL ? end : p + strlen (p);
      const char *s = p;
      const char *eq;

      while (s < line_end && g_ascii_isspace (*s))
        s++;
      if (s == line_end || *s == '#')
        {
          p = end != NULL ? end + 1 : line_end;
          continue;
        }
      if (*s == '[')
        {
          gboolean array = s[1] == '[';
          const char *close = memchr (s, ']', line_end - s);

          if (close == NULL)
            {
              g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                           "line %u: a table header without “]”", line_at (text, s));
              return FALSE;
            }
          g_free (table);
          table = toml_key (s + (array ? 2 : 1), close);
          if (array)
            {
              char *with = g_strconcat (table, "[]", NULL);

              g_free (table);
              table = with;
            }
          p = end != NULL ? end + 1 : line_end;
          continue;
        }

      eq = memchr (s, '=', line_end - s);
      if (eq == NULL)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "line %u: neither a table nor “key = value”", line_at (text, s));
          return FALSE;
        }
      {
        g_autofree char *key = toml_key (s, eq);
        g_autofree char *full = table[0] != '\0' ? g_strconcat (table, ".", key, NULL)
                                                 : g_strdup (key);
        const char *v = eq + 1;
        const char *v_end = value_end (v);
        g_autofree char *raw = g_strstrip (g_strndup (v, v_end - v));
        g_autofree char *value = NULL;
        char *hash;

        /* A comment after a scalar value. */
        if (raw[0] != '[' && raw[0] != '{' && raw[0] != '"' && raw[0] != '\'' &&
            (hash = strchr (raw, '#')) != NULL)
          {
            *hash = '\0';
            g_strstrip (raw);
          }
        value = lode_config_unquote (raw);
        add_entry (entries, full, value, line_at (text, s));
        p = *v_end != '\0' ? v_end + 1 : v_end;
      }
    }

  return TRUE;
}

/* YAML -------------------------------------------------------------------------------- */

typedef struct
{
  char     *path;
  gboolean  sequence;
  char     *key;       /* a mapping's key waiting for its value */
} YamlLevel;

static void
yaml_level_free (YamlLevel *level)
{
  g_free (level->path);
  g_free (level->key);
  g_free (level);
}

/* The path of a value at the top of @stack. A mapping or list used as a key (`? [a, b]`)
 * has no key above it: it takes its parent's path. */
static char *
yaml_path (GPtrArray *stack)
{
  YamlLevel *top = g_ptr_array_index (stack, stack->len - 1);
  const char *key = top->key != NULL ? top->key : "";

  if (top->sequence)
    return g_strconcat (top->path, "[]", NULL);
  if (top->path[0] == '\0')
    return g_strdup (key);

  return g_strconcat (top->path, ".", key, NULL);
}

static gboolean
read_yaml (GPtrArray   *entries,
           const char  *text,
           gsize        length,
           GError     **error)
{
  yaml_parser_t parser;
  g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func ((GDestroyNotify) yaml_level_free);
  gboolean done = FALSE;
  gboolean ok = TRUE;

  if (!yaml_parser_initialize (&parser))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_FAILED, "Cannot start libyaml");
      return FALSE;
    }
  yaml_parser_set_input_string (&parser, (const unsigned char *) text, length);

  while (!done)
    {
      yaml_event_t event;
      YamlLevel *top;

      if (!yaml_parser_parse (&parser, &event))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "line %zu: %s",
                       parser.problem_mark.line + 1,
                       parser.problem != NULL ? parser.problem : "not YAML");
          ok = FALSE;
          break;
        }
      top = stack->len > 0 ? g_ptr_array_index (stack, stack->len - 1) : NULL;

      switch (event.type)
        {
        case YAML_MAPPING_START_EVENT:
        case YAML_SEQUENCE_START_EVENT:
          {
            YamlLevel *level = g_new0 (YamlLevel, 1);

            level->sequence = event.type == YAML_SEQUENCE_START_EVENT;
            level->path = top == NULL ? g_strdup ("") : yaml_path (stack);
            if (top != NULL && !top->sequence)
              g_clear_pointer (&top->key, g_free);
            g_ptr_array_add (stack, level);
          }
          break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT:
          if (stack->len > 0)
            g_ptr_array_set_size (stack, stack->len - 1);
          break;
        case YAML_SCALAR_EVENT:
          {
            const char *value = (const char *) event.data.scalar.value;

            if (top == NULL)
              break;
            if (!top->sequence && top->key == NULL)
              top->key = g_strdup (value);
            else
              {
                g_autofree char *path = yaml_path (stack);

                add_entry (entries, path, value, event.start_mark.line + 1);
                if (!top->sequence)
                  g_clear_pointer (&top->key, g_free);
              }
          }
          break;
        case YAML_STREAM_END_EVENT:
          done = TRUE;
          break;
        case YAML_NO_EVENT:
        case YAML_STREAM_START_EVENT:
        case YAML_DOCUMENT_START_EVENT:
        case YAML_DOCUMENT_END_EVENT:
        case YAML_ALIAS_EVENT:
        default:
          break;
        }
      yaml_event_delete (&event);
    }
  yaml_parser_delete (&parser);

  return ok;
}

/* INI --------------------------------------------------------------------------------- */

static gboolean
read_ini (GPtrArray   *entries,
          const char  *text,
          GError     **error)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *section = g_strdup ("");

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *sep;

      if (line[0] == '\0' || line[0] == '#' || line[0] == ';')
        continue;
      if (line[0] == '[')
        {
          g_free (section);
          section = g_strdup (line);
          continue;
        }
      sep = strpbrk (line, "=:");
      if (sep == NULL)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "line %u: neither a section nor “key = value”", i + 1);
          return FALSE;
        }
      *sep = '\0';
      {
        g_autofree char *key = section[0] != '\0'
                               ? g_strconcat (section, ".", g_strstrip (line), NULL)
                               : g_strdup (g_strstrip (line));

        add_entry (entries, key, g_strstrip (sep + 1), i + 1);
      }
    }

  return TRUE;
}

/* XML --------------------------------------------------------------------------------- */

typedef struct
{
  GPtrArray *entries;
  GString   *path;
  GArray    *lengths;    /* path lengths of the open elements' parents */
  GString   *text;
  guint      text_line;
} XmlState;

static void
xml_start (GMarkupParseContext  *context,
           const char           *element,
           const char          **names,
           const char          **values,
           gpointer              user_data,
           GError              **error)
{
  XmlState *state = user_data;
  int line;

  g_markup_parse_context_get_position (context, &line, NULL);
  g_array_append_val (state->lengths, state->path->len);
  if (state->path->len > 0)
    g_string_append_c (state->path, '/');
  g_string_append (state->path, element);
  g_string_truncate (state->text, 0);
  state->text_line = line;
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *key = g_strdup_printf ("%s/@%s", state->path->str, names[i]);

      add_entry (state->entries, key, values[i], line);
    }
}

static void
xml_end (GMarkupParseContext  *context,
         const char           *element,
         gpointer              user_data,
         GError              **error)
{
  XmlState *state = user_data;
  g_autofree char *text = g_strstrip (g_strdup (state->text->str));

  if (text[0] != '\0')
    add_entry (state->entries, state->path->str, text, state->text_line);
  g_string_truncate (state->text, 0);
  g_string_truncate (state->path, g_array_index (state->lengths, gsize,
                                                 state->lengths->len - 1));
  g_array_set_size (state->lengths, state->lengths->len - 1);
}

static void
xml_text (GMarkupParseContext  *context,
          const char           *text,
          gsize                 length,
          gpointer              user_data,
          GError              **error)
{
  XmlState *state = user_data;

  g_string_append_len (state->text, text, length);
}

static gboolean
read_xml (GPtrArray   *entries,
          const char  *text,
          gsize        length,
          GError     **error)
{
  static const GMarkupParser parser = { xml_start, xml_end, xml_text, NULL, NULL };
  XmlState state = { entries, g_string_new (NULL), g_array_new (FALSE, FALSE, sizeof (gsize)),
                     g_string_new (NULL), 0 };
  g_autoptr(GMarkupParseContext) context = NULL;
  const char *start = text;
  gboolean ok;

  /* GMarkup reads no XML declaration or doctype: start at the first element. */
  while (start != NULL && (start = strchr (start, '<')) != NULL &&
         (start[1] == '?' || start[1] == '!'))
    start = strchr (start, '>');
  context = g_markup_parse_context_new (&parser, G_MARKUP_IGNORE_QUALIFIED, &state, NULL);
  ok = start != NULL &&
       g_markup_parse_context_parse (context, start, length - (start - text), error) &&
       g_markup_parse_context_end_parse (context, error);
  if (start == NULL)
    g_set_error_literal (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "no XML element");
  g_string_free (state.path, TRUE);
  g_string_free (state.text, TRUE);
  g_array_unref (state.lengths);

  return ok;
}

/**
 * lode_config_read:
 * @text: a configuration file's contents
 * @length: its length
 * @format: its format
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeConfigEntry) (nullable): its values in the
 *   order written, or %NULL with the line that does not parse
 */
GPtrArray *
lode_config_read (const char        *text,
                  gsize              length,
                  LodeConfigFormat   format,
                  GError           **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                 lode_config_entry_free);
  g_autofree char *terminated = g_strndup (text, length);
  gboolean ok;

  switch (format)
    {
    case LODE_CONFIG_JSON:
      ok = read_json (entries, terminated, length, error);
      break;
    case LODE_CONFIG_TOML:
      ok = read_toml (entries, terminated, error);
      break;
    case LODE_CONFIG_YAML:
      ok = read_yaml (entries, terminated, length, error);
      break;
    case LODE_CONFIG_INI:
      ok = read_ini (entries, terminated, error);
      break;
    case LODE_CONFIG_XML:
      ok = read_xml (entries, terminated, length, error);
      break;
    default:
      g_assert_not_reached ();
    }

  return ok ? g_steal_pointer (&entries) : NULL;
}

/**
 * lode_config_unquote:
 * @value: a value as written
 *
 * Returns: (transfer full): @value without the quotes of a string; other values as they are
 */
char *
lode_config_unquote (const char *value)
{
  gsize n = strlen (value);

  if (n >= 2 && (value[0] == '"' || value[0] == '\'') && value[n - 1] == value[0])
    return g_strndup (value + 1, n - 2);

  return g_strdup (value);
}

/**
 * lode_config_split_list:
 * @value: a list as written: `["a", "b"]` (JSON, TOML) or `a, b`
 *
 * Returns: (transfer full): its strings
 */
GStrv
lode_config_split_list (const char *value)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *inner = g_strstrip (g_strdup (value));
  gsize n = strlen (inner);
  GString *item = g_string_new (NULL);
  char quote = 0;

  if (n >= 2 && inner[0] == '[' && inner[n - 1] == ']')
    {
      inner[n - 1] = '\0';
      memmove (inner, inner + 1, n - 1);
    }
  for (const char *p = inner; ; p++)
    {
      if (quote != 0 && *p != '\0' && *p != quote)
        {
          g_string_append_c (item, *p);
          continue;
        }
      if (*p == '"' || *p == '\'')
        {
          quote = quote == 0 ? *p : 0;
          continue;
        }
      if (*p == '#')
        {
          while (p[1] != '\0' && p[1] != '\n')
            p++;
          continue;
        }
      if (*p == ',' || *p == '\0')
        {
          g_autofree char *text = g_strstrip (g_strdup (item->str));

          if (text[0] != '\0')
            g_strv_builder_add (builder, text);
          g_string_truncate (item, 0);
          if (*p == '\0')
            break;
          continue;
        }
      if (*p != '\n')
        g_string_append_c (item, *p);
    }
  g_string_free (item, TRUE);

  return g_strv_builder_end (builder);
}
