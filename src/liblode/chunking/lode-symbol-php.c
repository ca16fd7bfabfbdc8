/* lode-symbol-php.c — what only PHP has: names through `use` statements, Laravel/Eloquent
 * models
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-symbol-extract-private.h"

/* Names ------------------------------------------------------------------------------- */

/* PHP: a class name as written → its full name, through the file's `use` statements. */
char *
_lode_symbol_php_full_name (LodeSymbolExtractor *self,
                            const char          *name)
{
  const char *alias;
  const char *sep;
  g_autofree char *first = NULL;

  if (name == NULL)
    return NULL;
  if (name[0] == '\\')
    return g_strdup (name + 1);
  if (strcmp (name, "self") == 0 || strcmp (name, "static") == 0)
    return NULL;

  sep = strchr (name, '\\');
  first = sep != NULL ? g_strndup (name, sep - name) : g_strdup (name);
  alias = self->php_uses != NULL ? g_hash_table_lookup (self->php_uses, first) : NULL;
  if (alias != NULL)
    return sep != NULL ? g_strconcat (alias, sep, NULL) : g_strdup (alias);
  if (self->package != NULL)
    return g_strconcat (self->package, "\\", name, NULL);
  return g_strdup (name);
}

void
_lode_symbol_read_php_uses (LodeSymbolExtractor *self)
{
  self->php_uses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (uint32_t i = 0; i < n_named (self->root) && i < 256; i++)
    {
      TSNode statement = nth_named (self->root, i);

      if (!is_type (statement, "namespace_use_declaration"))
        continue;
      for (uint32_t j = 0; j < n_named (statement); j++)
        {
          TSNode clause = nth_named (statement, j);
          TSNode name = nth_named (clause, 0);
          TSNode alias = field (clause, "alias");
          g_autofree char *full = NULL;
          const char *short_name;

          if (!is_type (clause, "namespace_use_clause"))
            continue;
          if (ts_node_is_null (alias) && n_named (clause) > 1)
            alias = nth_named (clause, 1);
          full = text_of (self, name);
          if (full == NULL)
            continue;
          short_name = strrchr (full, '\\');
          short_name = short_name != NULL ? short_name + 1 : full;
          g_hash_table_replace (self->php_uses,
                                !ts_node_is_null (alias) ? text_of (self, alias)
                                                         : g_strdup (short_name),
                                g_strdup (full[0] == '\\' ? full + 1 : full));
        }
    }
}

/* Laravel / Eloquent ------------------------------------------------------------------ */

gboolean
_lode_symbol_php_is_model (LodeSymbolExtractor *self,
                           TSNode               class_node)
{
  static const char * const bases[] = {
    "Model", "Authenticatable", "Pivot", "MorphPivot", "User", NULL
  };
  TSNode base = nth_named (child_of_type (class_node, "base_clause"), 0);
  g_autofree char *name = text_of (self, base);
  g_autofree char *full = NULL;
  const char *last;

  if (name == NULL)
    return FALSE;
  full = _lode_symbol_php_full_name (self, name);
  last = strrchr (full != NULL ? full : name, '\\');
  last = last != NULL ? last + 1 : (full != NULL ? full : name);
  if (!g_strv_contains (bases, last))
    return FALSE;
  /* `User` only as Laravel's own base class. */
  return strcmp (last, "User") != 0 || (full != NULL && g_str_has_prefix (full, "Illuminate\\"));
}

static char *
snake_case (const char *name)
{
  GString *out = g_string_new (NULL);

  for (const char *p = name; *p != '\0'; p++)
    {
      if (g_ascii_isupper (*p) && p != name)
        g_string_append_c (out, '_');
      g_string_append_c (out, g_ascii_tolower (*p));
    }
  return g_string_free (out, FALSE);
}

/* Laravel's table name for a model class: its plural, snake case (Str::plural on the last
 * word: category → categories, box → boxes, person → people …, most words take -s). */
static char *
conventional_table (const char *class_name)
{
  static const struct { const char *singular; const char *plural; } irregular[] = {
    { "person", "people" }, { "man", "men" }, { "woman", "women" }, { "child", "children" },
    { "mouse", "mice" }, { "goose", "geese" }, { "foot", "feet" }, { "tooth", "teeth" },
  };
  g_autofree char *snake = snake_case (class_name);
  const char *word = strrchr (snake, '_');
  gsize n = strlen (snake);
  gsize stem_len;

  word = word != NULL ? word + 1 : snake;
  stem_len = word - snake;
  for (guint i = 0; i < G_N_ELEMENTS (irregular); i++)
    if (strcmp (word, irregular[i].singular) == 0)
      return g_strdup_printf ("%.*s%s", (int) stem_len, snake, irregular[i].plural);

  if (n > 1 && snake[n - 1] == 'y' && strchr ("aeiou", snake[n - 2]) == NULL)
    return g_strdup_printf ("%.*sies", (int) (n - 1), snake);
  if (g_str_has_suffix (snake, "s") || g_str_has_suffix (snake, "x") ||
      g_str_has_suffix (snake, "z") || g_str_has_suffix (snake, "ch") ||
      g_str_has_suffix (snake, "sh"))
    return g_strconcat (snake, "es", NULL);
  return g_strconcat (snake, "s", NULL);
}

/* The string elements of a PHP array, or its `'key' => 'value'` pairs into @object. */
static void
php_array_strings (LodeSymbolExtractor *self,
                   TSNode               array,
                   DetailsJson         *builder,
                   gboolean             pairs)
{
  if (pairs)
    _lode_details_begin_object (builder);
  else
    _lode_details_begin_array (builder);

  for (uint32_t i = 0; is_type (array, "array_creation_expression") &&
                       i < n_named (array) && i < MAX_ITEMS; i++)
    {
      TSNode element = nth_named (array, i);
      TSNode key = nth_named (element, 0);
      TSNode value = nth_named (element, n_named (element) - 1);
      g_autofree char *value_text = NULL;

      if (!is_type (element, "array_element_initializer"))
        continue;
      value_text = text_of (self, value);
      if (value_text != NULL && (value_text[0] == '\'' || value_text[0] == '"'))
        {
          memmove (value_text, value_text + 1, strlen (value_text));
          value_text[strcspn (value_text, "'\"")] = '\0';
        }
      if (pairs && n_named (element) == 2)
        {
          g_autofree char *key_text = text_of (self, key);

          if (key_text != NULL && (key_text[0] == '\'' || key_text[0] == '"'))
            {
              memmove (key_text, key_text + 1, strlen (key_text));
              key_text[strcspn (key_text, "'\"")] = '\0';
            }
          add_string (builder, key_text, value_text);
        }
      else if (!pairs && value_text != NULL)
        _lode_details_add_string_value (builder, value_text);
    }

  if (pairs)
    _lode_details_end_object (builder);
  else
    _lode_details_end_array (builder);
}

/* `$this->hasMany(Post::class, …)` in a method body: the relationship and its class. */
static gboolean
php_relationship (LodeSymbolExtractor  *self,
                  TSNode                method,
                  char                **type,
                  char                **related)
{
  static const char * const kinds[] = {
    "hasOne", "hasMany", "belongsTo", "belongsToMany", "hasOneThrough", "hasManyThrough",
    "morphTo", "morphOne", "morphMany", "morphToMany", "morphedByMany", NULL
  };
  TSNode body = field (method, "body");
  TSTreeCursor cursor;
  gboolean found = FALSE;
  guint visited = 0;

  if (ts_node_is_null (body))
    return FALSE;
  cursor = ts_tree_cursor_new (body);
  for (;;)
    {
      TSNode node = ts_tree_cursor_current_node (&cursor);

      if (++visited > 4096)
        break;
      if (is_type (node, "member_call_expression"))
        {
          TSNode object = field (node, "object");
          TSNode name = field (node, "name");
          g_autofree char *kind = text_of (self, name);

          if (text_equals (self, object, "$this") && kind != NULL && g_strv_contains (kinds, kind))
            {
              TSNode arguments = field (node, "arguments");
              TSNode first = nth_named (nth_named (arguments, 0), 0);

              *type = g_steal_pointer (&kind);
              if (is_type (first, "class_constant_access_expression"))
                {
                  g_autofree char *class_name = text_of (self, nth_named (first, 0));

                  *related = _lode_symbol_php_full_name (self, class_name);
                }
              found = TRUE;
              break;
            }
        }
      if (ts_tree_cursor_goto_first_child (&cursor))
        continue;
      while (!ts_tree_cursor_goto_next_sibling (&cursor))
        if (!ts_tree_cursor_goto_parent (&cursor))
          goto done;
    }
done:
  ts_tree_cursor_delete (&cursor);
  return found;
}

/* What kind of model method @method is: "scope", "accessor", "mutator", "attribute" (an
 * Attribute-returning method, both), or NULL. @attribute gets the attribute's name. */
const char *
_lode_symbol_php_model_method_kind (LodeSymbolExtractor  *self,
                                    TSNode                method,
                                    char                **attribute,
                                    gboolean             *has_set)
{
  g_autofree char *name = text_of (self, field (method, "name"));
  g_autofree char *returns = type_text (self, field (method, "return_type"));
  gsize n = name != NULL ? strlen (name) : 0;

  *has_set = FALSE;
  if (n > 5 && g_str_has_prefix (name, "scope") && g_ascii_isupper (name[5]))
    {
      *attribute = g_strdup (name + 5);
      (*attribute)[0] = g_ascii_tolower ((*attribute)[0]);
      return "scope";
    }
  if (n > 12 && (g_str_has_prefix (name, "get") || g_str_has_prefix (name, "set")) &&
      g_str_has_suffix (name, "Attribute") && g_ascii_isupper (name[3]))
    {
      g_autofree char *middle = g_strndup (name + 3, n - 3 - strlen ("Attribute"));

      *attribute = snake_case (middle);
      return name[0] == 'g' ? "accessor" : "mutator";
    }
  if (name != NULL &&
      (g_strcmp0 (returns, "Attribute") == 0 || g_str_has_suffix (returns != NULL ? returns : "",
                                                                 "\\Attribute")))
    {
      g_autofree char *body = text_of (self, field (method, "body"));

      *attribute = snake_case (name);
      *has_set = body != NULL && strstr (body, "set:") != NULL;
      return "attribute";
    }
  return NULL;
}

void
_lode_symbol_add_orm (LodeSymbolExtractor *self,
                      DetailsJson         *builder,
                      const char          *class_name,
                      TSNode               body)
{
  static const char * const lists[] = { "fillable", "hidden", "visible", "appends", "guarded",
                                        NULL };
  gboolean has_table = FALSE, has_casts = FALSE;
  g_autoptr(GPtrArray) scopes = g_ptr_array_new_with_free_func (g_free);
  g_auto(DetailsJson) attributes = { NULL };

  _lode_details_init (&attributes);
  _lode_details_set_member_name (builder, "orm");
  _lode_details_begin_object (builder);
  _lode_details_begin_array (&attributes);

  for (uint32_t i = 0; i < n_named (body); i++)
    {
      TSNode member = nth_named (body, i);

      if (is_type (member, "property_declaration"))
        {
          TSNode element = child_of_type (member, "property_element");
          g_autofree char *property = text_of (self, field (element, "name"));
          TSNode value = field (element, "default_value");
          const char *key = property != NULL && property[0] == '$' ? property + 1 : property;

          if (key == NULL)
            continue;
          if (strcmp (key, "table") == 0)
            {
              g_autofree char *table = text_of (self, value);

              if (table != NULL && (table[0] == '\'' || table[0] == '"') && strlen (table) >= 2)
                {
                  table[strlen (table) - 1] = '\0';
                  add_string (builder, "table", table + 1);
                  has_table = TRUE;
                }
            }
          else if (strcmp (key, "casts") == 0)
            {
              _lode_details_set_member_name (builder, "casts");
              php_array_strings (self, value, builder, TRUE);
              has_casts = TRUE;
            }
          else if (g_strv_contains (lists, key))
            {
              _lode_details_set_member_name (builder, key);
              php_array_strings (self, value, builder, FALSE);
            }
        }
      else if (is_type (member, "method_declaration"))
        {
          g_autofree char *name = text_of (self, field (member, "name"));
          g_autofree char *attribute = NULL;
          gboolean has_set = FALSE;
          const char *kind;

          if (g_strcmp0 (name, "casts") == 0 && !has_casts)
            {
              /* Laravel 11: `protected function casts(): array { return [...]; }` */
              TSNode ret = child_of_type (field (member, "body"), "return_statement");

              _lode_details_set_member_name (builder, "casts");
              php_array_strings (self, nth_named (ret, 0), builder, TRUE);
              has_casts = TRUE;
              continue;
            }
          kind = _lode_symbol_php_model_method_kind (self, member, &attribute, &has_set);
          if (g_strcmp0 (kind, "scope") == 0)
            g_ptr_array_add (scopes, g_steal_pointer (&attribute));
          else if (kind != NULL)
            {
              _lode_details_begin_object (&attributes);
              add_string (&attributes, "name", attribute);
              add_string (&attributes, "method", name);
              add_bool (&attributes, "get", strcmp (kind, "mutator") != 0);
              add_bool (&attributes, "set", strcmp (kind, "mutator") == 0 || has_set);
              _lode_details_end_object (&attributes);
            }
        }
    }

  if (!has_table)
    {
      g_autofree char *table = conventional_table (class_name);

      add_string (builder, "table", table);
    }
  _lode_details_set_member_name (builder, "scopes");
  _lode_details_begin_array (builder);
  for (guint i = 0; i < scopes->len; i++)
    _lode_details_add_string_value (builder, g_ptr_array_index (scopes, i));
  _lode_details_end_array (builder);
  _lode_details_end_array (&attributes);
  _lode_details_set_member_name (builder, "attributes");
  _lode_details_add_json (builder, attributes.out->str);
  _lode_details_end_object (builder);
}

/* The relationships of a model, as relations. */
void
_lode_symbol_add_orm_relations (LodeSymbolExtractor *self,
                                DetailsJson         *builder,
                                TSNode               body)
{
  for (uint32_t i = 0; i < n_named (body); i++)
    {
      TSNode member = nth_named (body, i);
      g_autofree char *type = NULL;
      g_autofree char *related = NULL;
      g_autofree char *name = NULL;

      if (!is_type (member, "method_declaration") ||
          !php_relationship (self, member, &type, &related))
        continue;
      name = text_of (self, field (member, "name"));
      _lode_details_begin_object (builder);
      add_string (builder, "kind", type);
      add_string (builder, "name", name);
      add_string (builder, "target", related);
      _lode_details_end_object (builder);
    }
}
