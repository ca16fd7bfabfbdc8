/* lode-symbol-signature.c — a declaration's modifiers, parameters and return types
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-symbol-extract-private.h"

/* Modifiers --------------------------------------------------------------------------- */

static void
add_tag (Modifiers  *mods,
         const char *tag)
{
  if (mods->tags->len >= 32)
    return;
  for (guint i = 0; i < mods->tags->len; i++)
    if (strcmp (g_ptr_array_index (mods->tags, i), tag) == 0)
      return;
  g_ptr_array_add (mods->tags, g_strdup (tag));
}

/* One modifier word: a visibility, static, abstract, final, or a tag. */
static void
add_word (Modifiers  *mods,
          const char *word)
{
  static const char * const visibilities[] = {
    "public", "private", "protected", "internal", "fileprivate", "open", NULL
  };
  static const char * const ignored[] = { "fun", "func", "def", "function", "fn", "var",
                                          "val", "let", "const", "class", "struct", NULL };

  if (*word == '\0')
    return;
  if (strcmp (word, "open") == 0 && !mods->open_is_visibility)
    {
      add_tag (mods, word);
      return;
    }
  if (g_strv_contains (visibilities, word))
    {
      /* Swift `public private(set)`: the first visibility is the symbol's. */
      if (mods->visibility == NULL)
        mods->visibility = g_strdup (word);
      return;
    }
  if (g_str_has_prefix (word, "private(") || g_str_has_prefix (word, "fileprivate(") ||
      g_str_has_prefix (word, "internal("))
    {
      add_tag (mods, word);
      return;
    }
  if (strcmp (word, "pub") == 0)
    {
      g_free (mods->visibility);
      mods->visibility = g_strdup ("public");
      return;
    }
  if (g_str_has_prefix (word, "pub("))
    {
      g_free (mods->visibility);
      mods->visibility = g_strdup (word);
      return;
    }
  if (strcmp (word, "static") == 0)
    mods->is_static = TRUE;
  else if (strcmp (word, "abstract") == 0)
    mods->is_abstract = TRUE;
  else if (strcmp (word, "final") == 0 || strcmp (word, "sealed") == 0)
    {
      mods->is_final = TRUE;
      if (strcmp (word, "sealed") == 0)
        add_tag (mods, word);
    }
  else if (strcmp (word, "export") == 0)
    mods->exported_keyword = TRUE;
  else if (!g_strv_contains (ignored, word))
    add_tag (mods, word);
}

/* The words of a modifier node's text; annotations (@X(…), #[x], [X]) as whole tags. */
static void
add_modifier_text (LodeSymbolExtractor *self,
                   Modifiers           *mods,
                   TSNode               node)
{
  g_autofree char *text = text_of (self, node);
  const char *p = text;

  while (p != NULL && *p != '\0')
    {
      const char *start;

      while (*p == ' ')
        p++;
      start = p;
      if (*p == '@' || *p == '#' || *p == '[')
        {
          /* An annotation with arguments: up to the matching bracket. */
          int depth = 0;

          for (; *p != '\0'; p++)
            {
              if (*p == '(' || *p == '[')
                depth++;
              else if (*p == ')' || *p == ']')
                {
                  if (--depth <= 0 && *start != '@')
                    {
                      p++;
                      break;
                    }
                }
              else if (*p == ' ' && depth <= 0)
                break;
            }
          {
            g_autofree char *tag = g_strndup (start, p - start);

            add_tag (mods, tag);
          }
          continue;
        }
      while (*p != '\0' && *p != ' ')
        {
          if (*p == '(')
            {
              const char *close = strchr (p, ')');

              p = close != NULL ? close + 1 : p + strlen (p);
              break;
            }
          p++;
        }
      {
        g_autofree char *word = g_strndup (start, p - start);

        add_word (mods, word);
      }
    }
}

/* The MODIFIER_* bits of a node type, for the extractor's table of a grammar's symbols. */
guint
_lode_symbol_modifier_role (const char *type)
{
  static const char * const nodes[] = {
    "modifiers", "modifier", "visibility_modifier", "accessibility_modifier",
    "storage_class_specifier", "function_modifiers", "final_modifier", "abstract_modifier",
    "static_modifier", "readonly_modifier", "class_modifier", "member_modifier",
    "inheritance_modifier", "property_modifier", "function_modifier", "virtual_specifier",
    "explicit_function_specifier", "override_modifier", "annotation", "marker_annotation",
    "attribute_list", "attribute_item", "decorator", "mutation_modifier",
    "parameter_modifier", "platform_modifier", "ownership_modifier", "property_behavior_modifier",
    "virtual", NULL
  };
  /* Keywords that grammars leave as anonymous tokens. */
  static const char * const tokens[] = {
    "static", "async", "abstract", "final", "public", "private", "protected", "export",
    "get", "set", "readonly", "override", "virtual", "declare", "default", "inline",
    "synchronized", "unsafe", "extern", "const", "sealed", "open", "suspend", "internal",
    "*", NULL
  };
  guint role = 0;

  if (g_strv_contains (nodes, type))
    role |= MODIFIER_NODE;
  if (g_strv_contains (tokens, type))
    role |= MODIFIER_TOKEN;
  if (strcmp (type, "attribute_item") == 0 || strcmp (type, "attribute_list") == 0)
    role |= MODIFIER_ATTRIBUTE;
  return role;
}

void
_lode_symbol_collect_modifiers (LodeSymbolExtractor *self,
                                TSNode               node,
                                Modifiers           *mods)
{
  Iter it;

  iter_init (&it, node);
  while (iter_next (&it))
    {
      guint role;

      if (g_strcmp0 (it.field, "body") == 0 || g_strcmp0 (it.field, "parameters") == 0)
        continue;
      role = modifier_role (self, it.node);
      if (role & MODIFIER_NODE)
        add_modifier_text (self, mods, it.node);
      else if ((role & MODIFIER_TOKEN) && !ts_node_is_named (it.node))
        add_word (mods, strcmp (ts_node_type (it.node), "*") == 0 ? "generator"
                                                                   : ts_node_type (it.node));
    }
}

/* Annotations and attributes written before a declaration as siblings (Rust `#[derive]`,
 * C# `[Serializable]` lists, Swift attributes are children). Not looked for in a grammar
 * without them: a step back to the previous sibling walks the parent's children from the
 * first, and a C file's top-level declarations each took one. */
void
_lode_symbol_collect_preceding_attributes (LodeSymbolExtractor *self,
                                           TSNode               node,
                                           Modifiers           *mods)
{
  TSNode prev;

  if (!self->sibling_attributes)
    return;
  prev = prev_named (node);
  for (guint i = 0; i < 8 && !ts_node_is_null (prev); i++)
    {
      if (modifier_role (self, prev) & MODIFIER_ATTRIBUTE)
        add_modifier_text (self, mods, prev);
      else if (!is_type (prev, "line_comment") && !is_type (prev, "comment") &&
               !is_type (prev, "block_comment"))
        break;
      prev = prev_named (prev);
    }
}

/* C++: the access specifier in force at @node inside a class body; Ruby: `private` and
 * `protected` calls before a method. NULL when none precedes it, and in other languages.
 * One forward walk over the siblings before @node: stepping back with
 * ts_node_prev_named_sibling() costs a walk from the root each time, and a Rust impl or a
 * class with hundreds of members and doc comments took seconds. */
char *
_lode_symbol_section_visibility (LodeSymbolExtractor *self,
                                 TSNode               node)
{
  TSNode body;
  TSNode section = null_node ();
  TSTreeCursor cursor;

  if (self->lang != LANG_CPP && self->lang != LANG_RUBY)
    return NULL;
  body = ts_node_parent (node);
  if (ts_node_is_null (body))
    return NULL;

  cursor = ts_tree_cursor_new (body);
  if (ts_tree_cursor_goto_first_child (&cursor))
    do
      {
        TSNode child = ts_tree_cursor_current_node (&cursor);

        if (ts_node_eq (child, node) || ts_node_start_byte (child) > ts_node_start_byte (node))
          break;
        if (is_type (child, "access_specifier") ||
            (self->lang == LANG_RUBY && is_type (child, "identifier") &&
             (text_equals (self, child, "private") || text_equals (self, child, "protected") ||
              text_equals (self, child, "public"))))
          section = child;
      }
    while (ts_tree_cursor_goto_next_sibling (&cursor));
  ts_tree_cursor_delete (&cursor);

  return ts_node_is_null (section) ? NULL : text_of (self, section);
}

/* Parameters -------------------------------------------------------------------------- */

static gboolean
is_parameter (TSNode node)
{
  static const char * const types[] = {
    "parameter_declaration", "optional_parameter_declaration",
    "variadic_parameter_declaration", "formal_parameter", "spread_parameter", "parameter",
    "self_parameter", "identifier", "assignment_pattern", "rest_pattern", "object_pattern",
    "array_pattern", "required_parameter", "optional_parameter", "typed_parameter",
    "default_parameter", "typed_default_parameter", "list_splat_pattern",
    "dictionary_splat_pattern", "simple_parameter", "variadic_parameter",
    "property_promotion_parameter", "keyword_parameter", "splat_parameter",
    "hash_splat_parameter", "block_parameter", "class_parameter", "receiver_parameter",
    "function_value_parameter", "variadic_parameter", "simple_identifier", NULL
  };

  return type_in (node, types);
}

/* C and C++: the identifier a declarator declares, below pointers, references, arrays and
 * function declarators. */
TSNode
_lode_symbol_declarator_name (TSNode node)
{
  for (guint depth = 0; depth < 16 && !ts_node_is_null (node); depth++)
    {
      TSNode next = field (node, "declarator");

      if (ts_node_is_null (next))
        {
          if (is_type (node, "reference_declarator") || is_type (node, "pointer_declarator"))
            next = nth_named (node, 0);
          else if (is_type (node, "qualified_identifier"))
            next = field (node, "name");
        }
      if (ts_node_is_null (next))
        return node;
      node = next;
    }
  return node;
}

/* C-style: the text of @decl without the name and the default, as the type. */
char *
_lode_symbol_c_type_around (LodeSymbolExtractor *self,
                            TSNode               decl,
                            TSNode               name,
                            TSNode               skip)
{
  guint32 start = ts_node_start_byte (decl);
  guint32 end = !ts_node_is_null (skip) ? ts_node_start_byte (skip) : ts_node_end_byte (decl);
  TSNode type = field (decl, "type");
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *joined = NULL;
  gsize n;

  /* From the type and its qualifiers on: `static`, `virtual` and attributes are not part of
   * it. */
  if (!ts_node_is_null (type))
    {
      start = ts_node_start_byte (type);
      for (uint32_t i = 0; i < n_named (decl); i++)
        {
          TSNode child = nth_named (decl, i);

          if (is_type (child, "type_qualifier"))
            start = MIN (start, ts_node_start_byte (child));
        }
    }

  if (ts_node_is_null (name))
    return text_range (self, start, end, TEXT_MAX);
  before = text_range (self, start, ts_node_start_byte (name), TEXT_MAX);
  after = text_range (self, ts_node_end_byte (name), end, TEXT_MAX);
  joined = g_strdup_printf ("%s%s%s", before, *after != '\0' ? " " : "", after);
  n = strlen (joined);
  while (n > 0 && (joined[n - 1] == '=' || joined[n - 1] == ' ' || joined[n - 1] == ';'))
    joined[--n] = '\0';
  return n > 0 ? g_steal_pointer (&joined) : NULL;
}

/* The first named child that is a type (Kotlin, Swift parameters). */
TSNode
_lode_symbol_type_child (TSNode node,
                         TSNode after)
{
  static const char * const types[] = {
    "user_type", "nullable_type", "function_type", "array_type", "dictionary_type",
    "optional_type", "tuple_type", "opaque_type", "existential_type", "type_identifier",
    "parenthesized_type", "metatype", "protocol_composition_type", NULL
  };
  gboolean seen = ts_node_is_null (after);

  for (uint32_t i = 0; i < n_named (node); i++)
    {
      TSNode child = nth_named (node, i);

      if (!seen)
        {
          seen = ts_node_eq (child, after);
          continue;
        }
      if (type_in (child, types))
        return child;
    }
  return null_node ();
}

void
_lode_symbol_read_parameter (LodeSymbolExtractor *self,
                             TSNode               node,
                             Param               *param)
{
  TSNode name = field (node, "name");
  TSNode type = field (node, "type");
  TSNode value = field (node, "default_value");

  if (ts_node_is_null (value))
    value = field (node, "value");
  if (ts_node_is_null (value) && is_type (node, "assignment_pattern"))
    {
      name = field (node, "left");
      value = field (node, "right");
    }

  switch (self->lang)
    {
    case LANG_C:
    case LANG_CPP:
      {
        TSNode declarator = field (node, "declarator");
        TSNode id = _lode_symbol_declarator_name (declarator);

        /* Macro parameters are bare identifiers. */
        if (is_type (node, "identifier"))
          {
            param->name = text_of (self, node);
            break;
          }
        param->name = !ts_node_is_null (declarator) ? text_of (self, id) : NULL;
        param->type = _lode_symbol_c_type_around (self, node,
                                                  !ts_node_is_null (declarator) ? id : null_node (),
                                                  value);
        if (is_type (node, "variadic_parameter_declaration") && param->type == NULL)
          param->type = g_strdup ("...");
        break;
      }

    case LANG_KOTLIN:
      {
        TSNode id = child_of_type (node, "simple_identifier");

        param->name = text_of (self, id);
        param->type = text_of (self, _lode_symbol_type_child (node, id));
        break;
      }

    case LANG_SWIFT:
      {
        /* `by amount: Int`: external_name, then the name and the type, both under `name`. */
        Iter it;

        iter_init (&it, node);
        while (iter_next (&it))
          if (g_strcmp0 (it.field, "name") == 0)
            {
              if (is_type (it.node, "simple_identifier"))
                {
                  g_free (param->name);
                  param->name = text_of (self, it.node);
                }
              else if (param->type == NULL)
                param->type = type_text (self, it.node);
            }
        break;
      }

    case LANG_CSHARP:
      {
        param->name = text_of (self, name);
        param->type = type_text (self, type);
        /* `int quantity = 1`: the default is the child after the name. */
        if (!ts_node_is_null (name))
          {
            TSNode next = next_named (name);

            if (!ts_node_is_null (next))
              value = next;
          }
        break;
      }

    case LANG_PYTHON:
      if (is_type (node, "typed_parameter") && ts_node_is_null (name))
        name = nth_named (node, 0);
      param->name = text_of (self, ts_node_is_null (name) ? node : name);
      param->type = type_text (self, type);
      break;

    case LANG_TS:
    case LANG_JS:
      if (ts_node_is_null (name))
        name = field (node, "pattern");
      param->name = text_of (self, ts_node_is_null (name) ? node : name);
      param->type = type_text (self, type);
      break;

    case LANG_RUST:
      if (ts_node_is_null (name))
        name = field (node, "pattern");
      param->name = text_of (self, ts_node_is_null (name) ? node : name);
      param->type = type_text (self, type);
      break;

    case LANG_GO:
    case LANG_JAVA:
    case LANG_PHP:
    case LANG_RUBY:
    case LANG_OTHER:
    default:
      if (ts_node_is_null (name) && (is_type (node, "splat_parameter") ||
                                     is_type (node, "hash_splat_parameter") ||
                                     is_type (node, "block_parameter") ||
                                     is_type (node, "spread_parameter")))
        name = node;
      param->name = text_of (self, ts_node_is_null (name) ? node : name);
      param->type = type_text (self, type);
      break;
    }

  if (param->value == NULL)
    param->value = default_text (self, value);
}

static void
add_param (DetailsJson *builder,
           const Param *param)
{
  _lode_details_begin_object (builder);
  add_string (builder, "name", param->name != NULL ? param->name : "");
  add_string (builder, "type", param->type);
  add_string (builder, "default", param->value);
  _lode_details_end_object (builder);
}

/* The node whose children are the parameters. */
static TSNode
parameter_list (LodeSymbolExtractor *self,
                TSNode               node)
{
  TSNode list = field (node, "parameters");

  if (!ts_node_is_null (list))
    return list;

  if (self->lang == LANG_C || self->lang == LANG_CPP)
    {
      TSNode declarator = field (node, "declarator");

      for (guint depth = 0; depth < 8 && !ts_node_is_null (declarator); depth++)
        {
          if (is_type (declarator, "function_declarator"))
            return field (declarator, "parameters");
          declarator = field (declarator, "declarator");
        }
      return null_node ();
    }

  list = child_in (node, (const char * const []) { "function_value_parameters",
                                                    "primary_constructor",
                                                    "method_parameters",
                                                    "lambda_parameters", NULL });
  if (!ts_node_is_null (list))
    return list;
  if (self->lang == LANG_SWIFT)
    return node;
  return null_node ();
}

/* Go: `a, b int` is one declaration with two names. */
static void
add_go_parameters (LodeSymbolExtractor *self,
                   DetailsJson         *builder,
                   TSNode               decl)
{
  g_autofree char *type = type_text (self, field (decl, "type"));
  gboolean named = FALSE;
  Iter it;

  iter_init (&it, decl);
  while (iter_next (&it))
    if (g_strcmp0 (it.field, "name") == 0)
      {
        Param param = { text_of (self, it.node), g_strdup (type), NULL };

        add_param (builder, &param);
        param_clear (&param);
        named = TRUE;
      }
  if (!named)
    {
      Param param = { g_strdup (""), g_strdup (type), NULL };

      add_param (builder, &param);
      param_clear (&param);
    }
}

void
_lode_symbol_add_parameters (LodeSymbolExtractor *self,
                             DetailsJson         *builder,
                             TSNode               node)
{
  TSNode list = parameter_list (self, node);
  gboolean own_list = !ts_node_eq (list, node);
  gboolean pending = FALSE;
  Param param = { 0 };
  guint n = 0;
  Iter it;

  _lode_details_set_member_name (builder, "parameters");
  _lode_details_begin_array (builder);
  if (ts_node_is_null (list))
    {
      _lode_details_end_array (builder);
      return;
    }

  iter_init (&it, list);
  while (iter_next (&it) && n < MAX_ITEMS)
    {
      TSNode child = it.node;

      if (!ts_node_is_named (child) || strstr (ts_node_type (child), "comment") != NULL)
        continue;
      /* Swift: parameters are children of the declaration, with the name and result. */
      if (!own_list && !is_type (child, "parameter") &&
          g_strcmp0 (it.field, "default_value") != 0)
        continue;

      if (g_strcmp0 (it.field, "default_value") == 0 ||
          (own_list && pending && !is_parameter (child)))
        {
          /* Kotlin and Swift write the default after the parameter node. */
          if (pending && param.value == NULL)
            param.value = default_text (self, child);
          continue;
        }
      if (!is_parameter (child))
        continue;
      if (self->lang == LANG_KOTLIN && is_type (child, "simple_identifier"))
        continue;

      if (pending)
        {
          add_param (builder, &param);
          param_clear (&param);
          memset (&param, 0, sizeof param);
          n++;
        }
      pending = FALSE;

      if (self->lang == LANG_GO && is_type (child, "parameter_declaration"))
        {
          add_go_parameters (self, builder, child);
          n++;
          continue;
        }
      _lode_symbol_read_parameter (self, child, &param);
      pending = TRUE;
    }
  iter_clear (&it);
  if (pending)
    add_param (builder, &param);
  param_clear (&param);
  _lode_details_end_array (builder);
}

/* Return types ------------------------------------------------------------------------ */

/* C and C++: the declaration's type and the pointers and references around the function
 * declarator. */
static char *
c_return_type (LodeSymbolExtractor *self,
               TSNode               node)
{
  TSNode type = field (node, "type");
  TSNode declarator = field (node, "declarator");
  GString *out;
  g_autofree char *base = NULL;

  if (ts_node_is_null (type))
    return NULL;
  out = g_string_new (NULL);
  for (uint32_t i = 0; i < n_named (node); i++)
    {
      TSNode child = nth_named (node, i);

      if (is_type (child, "type_qualifier") &&
          ts_node_start_byte (child) < ts_node_start_byte (type))
        {
          g_autofree char *qualifier = text_of (self, child);

          g_string_append_printf (out, "%s ", qualifier);
        }
    }
  base = text_of (self, type);
  g_string_append (out, base);
  for (guint depth = 0; depth < 8 && !ts_node_is_null (declarator); depth++)
    {
      if (is_type (declarator, "function_declarator"))
        break;
      if (is_type (declarator, "pointer_declarator"))
        g_string_append (out, depth == 0 ? " *" : "*");
      else if (is_type (declarator, "reference_declarator"))
        g_string_append (out, depth == 0 ? " &" : "&");
      declarator = field (declarator, "declarator");
      if (ts_node_is_null (declarator))
        break;
    }
  return g_string_free (out, FALSE);
}

static void
add_return (DetailsJson *builder,
            char        *type)
{
  if (type == NULL)
    return;
  _lode_details_begin_object (builder);
  add_string (builder, "type", type);
  _lode_details_end_object (builder);
  g_free (type);
}

void
_lode_symbol_add_returns (LodeSymbolExtractor *self,
                          DetailsJson         *builder,
                          TSNode               node)
{
  _lode_details_set_member_name (builder, "returns");
  _lode_details_begin_array (builder);

  switch (self->lang)
    {
    case LANG_C:
    case LANG_CPP:
      add_return (builder, c_return_type (self, node));
      break;

    case LANG_GO:
      {
        TSNode result = field (node, "result");

        if (is_type (result, "parameter_list"))
          {
            for (uint32_t i = 0; i < n_named (result); i++)
              {
                TSNode decl = nth_named (result, i);
                Iter it;
                guint names = 0;

                iter_init (&it, decl);
                while (iter_next (&it))
                  if (g_strcmp0 (it.field, "name") == 0)
                    names++;
                for (guint k = 0; k < MAX (names, 1); k++)
                  add_return (builder, type_text (self, field (decl, "type")));
              }
          }
        else
          add_return (builder, type_text (self, result));
        break;
      }

    case LANG_CSHARP:
      add_return (builder, type_text (self, field (node, "returns")));
      if (is_type (node, "property_declaration") || is_type (node, "delegate_declaration"))
        add_return (builder, type_text (self, field (node, "type")));
      break;

    case LANG_JAVA:
      add_return (builder, type_text (self, field (node, "type")));
      break;

    case LANG_KOTLIN:
      {
        TSNode params = child_of_type (node, "function_value_parameters");

        if (!ts_node_is_null (params))
          add_return (builder, type_text (self, _lode_symbol_type_child (node, params)));
        break;
      }

    case LANG_SWIFT:
      {
        /* The result is the last child under `name` that is a type, after the parameters. */
        TSNode result = null_node ();
        Iter it;

        if (is_type (node, "init_declaration"))
          break;
        iter_init (&it, node);
        while (iter_next (&it))
          if (g_strcmp0 (it.field, "name") == 0 && !is_type (it.node, "simple_identifier"))
            result = it.node;
        add_return (builder, type_text (self, result));
        break;
      }

    case LANG_JS:
    case LANG_TS:
    case LANG_PYTHON:
    case LANG_RUST:
    case LANG_PHP:
    case LANG_RUBY:
    case LANG_OTHER:
    default:
      add_return (builder, type_text (self, field (node, "return_type")));
      break;
    }

  _lode_details_end_array (builder);
}
