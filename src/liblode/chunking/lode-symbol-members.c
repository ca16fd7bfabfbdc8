/* lode-symbol-members.c — a class's fields, enum members and relations; doc comments' text
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-doc-comment.h"
#include "lode-symbol-extract-private.h"

/* Classes ----------------------------------------------------------------------------- */

TSNode
_lode_symbol_class_body (LodeSymbolExtractor *self,
                         TSNode               node)
{
  TSNode body = field (node, "body");

  if (ts_node_is_null (body) && is_type (node, "type_spec"))
    {
      TSNode type = field (node, "type");

      body = child_in (type, (const char * const []) { "field_declaration_list",
                                                        "method_spec_list", NULL });
      if (ts_node_is_null (body))
        body = type;
    }
  if (ts_node_is_null (body))
    body = child_in (node, (const char * const []) { "class_body", "enum_class_body",
                                                      "protocol_body", "enum_class_body",
                                                      "body_statement", NULL });
  /* Ruby wraps the members in body_statement; Kotlin enums in enum_class_body. */
  return body;
}

typedef struct
{
  DetailsJson *builder;
  guint        n;
} Fields;

static void
add_field (LodeSymbolExtractor *self,
           Fields              *fields,
           const char          *name,
           const char          *type,
           const char          *value,
           const char          *visibility,
           gboolean             is_static,
           const char          *doc)
{
  if (name == NULL || *name == '\0' || fields->n >= MAX_ITEMS)
    return;
  _lode_details_begin_object (fields->builder);
  add_string (fields->builder, "name", name);
  add_string (fields->builder, "type", type);
  add_string (fields->builder, "default", value);
  add_string (fields->builder, "visibility", visibility);
  add_bool (fields->builder, "is_static", is_static);
  add_string (fields->builder, "description", doc);
  _lode_details_end_object (fields->builder);
  fields->n++;
}

static gboolean
is_comment (TSNode node)
{
  return strstr (ts_node_type (node), "comment") != NULL;
}

/* Whether only white space precedes @node on its line. */
static gboolean
starts_line (LodeSymbolExtractor *self,
             TSNode               node)
{
  for (guint32 i = MIN (ts_node_start_byte (node), self->len); i > 0; i--)
    {
      char c = self->text[i - 1];

      if (c == '\n')
        return TRUE;
      if (!g_ascii_isspace (c))
        return FALSE;
    }
  return TRUE;
}

/* A doc comment without C#'s XML tags (`<summary>`, `<param name="x">`); a reference
 * (`<see cref="GrpcChannel"/>`) leaves the name it refers to. */
char *
_lode_symbol_clean_doc (LodeSymbolExtractor *self,
                        const char          *doc)
{
  GString *out;

  if (self->lang != LANG_CSHARP || strchr (doc, '<') == NULL)
    return g_strdup (doc);
  out = g_string_new (NULL);
  for (const char *p = doc; *p != '\0'; p++)
    {
      if (*p == '<' && (g_ascii_isalpha (p[1]) || p[1] == '/'))
        {
          const char *close = strchr (p, '>');
          const char *value = close != NULL ? g_strstr_len (p, close - p, "=\"") : NULL;
          const char *quote = value != NULL ? memchr (value + 2, '"', close - value - 2) : NULL;

          if (close != NULL && close[-1] == '/' && quote != NULL)
            g_string_append_len (out, value + 2, quote - value - 2);
          if (close != NULL)
            {
              p = close;
              continue;
            }
        }
      g_string_append_c (out, *p);
    }
  g_strstrip (out->str);
  return g_string_free (out, FALSE);
}

/* The summary of the comments @first … @last of @kids. */
static char *
comments_summary (LodeSymbolExtractor *self,
                  GArray              *kids,
                  guint                first,
                  guint                last)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *clean = NULL;

  for (guint i = first; i <= last; i++)
    {
      TSNode comment = g_array_index (kids, TSNode, i);
      guint32 start = ts_node_start_byte (comment);
      guint32 end = MIN (ts_node_end_byte (comment), self->len);

      if (end > start)
        lode_doc_comment_append (text, self->text + start, MIN (end - start, DOC_MAX * 4),
                                 DOC_MAX);
    }
  clean = _lode_symbol_clean_doc (self, text->str);
  return lode_doc_comment_summary (clean, DOC_MAX);
}

/* The doc of the member @kids[@i]: the comment after it on its last line, if any (Go's
 * `cancel context.CancelFunc // Cancelled on close.`), else the whole-line comments right
 * above it and its attributes. A comment after the member before it is that member's. */
static char *
member_doc (LodeSymbolExtractor *self,
            GArray              *kids,
            guint                i)
{
  TSNode member = g_array_index (kids, TSNode, i);
  guint row = ts_node_start_point (member).row;
  guint first, last;

  if (i + 1 < kids->len)
    {
      TSNode next = g_array_index (kids, TSNode, i + 1);

      if (is_comment (next) && ts_node_start_point (next).row == ts_node_end_point (member).row)
        return comments_summary (self, kids, i + 1, i + 1);
    }

  while (i > 0 && is_type (g_array_index (kids, TSNode, i - 1), "attribute_item"))
    {
      i--;
      row = ts_node_start_point (g_array_index (kids, TSNode, i)).row;
    }
  last = i;
  for (first = i; first > 0; first--)
    {
      TSNode comment = g_array_index (kids, TSNode, first - 1);
      TSPoint end = ts_node_end_point (comment);
      guint end_row = end.column == 0 && end.row > ts_node_start_point (comment).row
                      ? end.row - 1 : end.row;

      if (!is_comment (comment) || end_row + 1 < row || !starts_line (self, comment))
        break;
      row = ts_node_start_point (comment).row;
    }
  return first < last ? comments_summary (self, kids, first, last - 1) : NULL;
}

/**
 * _lode_symbol_body_members:
 * @self: a #LodeSymbolExtractor
 * @body: (nullable): the body of a class, struct, enum or interface
 *
 * Returns: (transfer full) (element-type Member): the members of @body in order, each with
 *   its doc: its named children but comments and Rust attributes, at most MAX_ITEMS. One
 *   walk: ts_node_named_child () and the sibling look-ups walk from the parent each time.
 */
GArray *
_lode_symbol_body_members (LodeSymbolExtractor *self,
                           TSNode               body)
{
  g_autoptr(GArray) kids = g_array_new (FALSE, FALSE, sizeof (TSNode));
  GArray *members = g_array_new (FALSE, FALSE, sizeof (Member));
  Iter it;

  g_array_set_clear_func (members, (GDestroyNotify) _lode_symbol_member_clear);
  iter_init (&it, body);
  while (iter_next (&it))
    if (ts_node_is_named (it.node))
      g_array_append_val (kids, it.node);

  for (guint i = 0; i < kids->len && members->len < MAX_ITEMS; i++)
    {
      TSNode node = g_array_index (kids, TSNode, i);
      Member member = { node, NULL };

      if (is_comment (node) || is_type (node, "attribute_item"))
        continue;
      member.doc = member_doc (self, kids, i);
      g_array_append_val (members, member);
    }
  return members;
}

void
_lode_symbol_member_clear (Member *member)
{
  g_clear_pointer (&member->doc, g_free);
}

const char *
_lode_symbol_default_member_visibility (LodeSymbolExtractor *self,
                                        TSNode               class_node)
{
  switch (self->lang)
    {
    case LANG_CPP:
      return is_type (class_node, "class_specifier") ? "private" : "public";
    case LANG_CSHARP:
      return is_type (class_node, "interface_declaration") ? "public" : "private";
    case LANG_JAVA:
      return is_type (class_node, "interface_declaration") ? "public" : "package";
    case LANG_SWIFT:
      return "internal";
    case LANG_RUST:
      return "private";
    case LANG_C:
    case LANG_GO:
    case LANG_JS:
    case LANG_TS:
    case LANG_PYTHON:
    case LANG_PHP:
    case LANG_RUBY:
    case LANG_KOTLIN:
    case LANG_OTHER:
    default:
      return "public";
    }
}

/* One member declaration of a class body that declares fields. */
static void
add_member_fields (LodeSymbolExtractor *self,
                   Fields              *fields,
                   TSNode               class_node,
                   TSNode               member,
                   const char          *doc)
{
  g_auto(Modifiers) mods = MODIFIERS_INIT (self);
  g_autofree char *section = NULL;
  const char *visibility;
  const char *type_name = ts_node_type (member);

  _lode_symbol_collect_modifiers (self, member, &mods);
  section = _lode_symbol_section_visibility (self, member);
  visibility = mods.visibility != NULL ? mods.visibility
               : section != NULL ? section
               : _lode_symbol_default_member_visibility (self, class_node);

  if (strcmp (type_name, "field_declaration") == 0 &&
      (self->lang == LANG_C || self->lang == LANG_CPP))
    {
      TSNode value = field (member, "default_value");
      guint n_declarators = 0;
      Iter it;

      iter_init (&it, member);
      while (iter_next (&it))
        n_declarators += g_strcmp0 (it.field, "declarator") == 0;

      iter_init (&it, member);
      while (iter_next (&it))
        if (g_strcmp0 (it.field, "declarator") == 0)
          {
            TSNode name = _lode_symbol_declarator_name (it.node);
            g_autofree char *id = NULL;
            g_autofree char *type = NULL;
            g_autofree char *def = NULL;

            /* A method prototype is a symbol of its own, not a field. */
            if (is_type (it.node, "function_declarator") ||
                is_type (nth_named (it.node, 0), "function_declarator"))
              continue;
            id = text_of (self, name);
            if (n_declarators == 1)
              type = _lode_symbol_c_type_around (self, member, name, value);
            else
              {
                /* `int a, *b;`: the shared type and this declarator's own part. */
                g_autofree char *type_part = text_of (self, field (member, "type"));
                g_autofree char *around = _lode_symbol_c_type_around (self, it.node, name,
                                                                      null_node ());

                type = around != NULL ? g_strdup_printf ("%s %s", type_part, around)
                                      : g_strdup (type_part);
              }
            def = default_text (self, value);
            add_field (self, fields, id, type, def, visibility, mods.is_static, doc);
          }
      return;
    }

  if (strcmp (type_name, "field_declaration") == 0 && self->lang == LANG_GO)
    {
      g_autofree char *type = type_text (self, field (member, "type"));
      gboolean named = FALSE;
      Iter it;

      iter_init (&it, member);
      while (iter_next (&it))
        if (g_strcmp0 (it.field, "name") == 0)
          {
            g_autofree char *id = text_of (self, it.node);

            named = TRUE;
            add_field (self, fields, id, type, NULL,
                       g_ascii_isupper (*id) ? "public" : "private", FALSE, doc);
          }
      /* Embedded fields are relations, not fields. */
      (void) named;
      return;
    }

  if (strcmp (type_name, "field_declaration") == 0 && self->lang == LANG_RUST)
    {
      g_autofree char *id = text_of (self, field (member, "name"));
      g_autofree char *type = type_text (self, field (member, "type"));

      add_field (self, fields, id, type, NULL, visibility, FALSE, doc);
      return;
    }

  if (strcmp (type_name, "field_declaration") == 0)
    {
      /* Java: type, then declarators; C#: a variable_declaration holding them. */
      TSNode holder = child_of_type (member, "variable_declaration");
      TSNode type_node;
      g_autofree char *type = NULL;

      if (ts_node_is_null (holder))
        holder = member;
      type_node = field (holder, "type");
      type = type_text (self, type_node);
      for (uint32_t i = 0; i < n_named (holder); i++)
        {
          TSNode declarator = nth_named (holder, i);
          TSNode value;
          g_autofree char *id = NULL;
          g_autofree char *def = NULL;

          if (!is_type (declarator, "variable_declarator"))
            continue;
          id = text_of (self, ts_node_is_null (field (declarator, "name"))
                              ? nth_named (declarator, 0)
                              : field (declarator, "name"));
          value = field (declarator, "value");
          if (ts_node_is_null (value) && n_named (declarator) > 1)
            value = nth_named (declarator, n_named (declarator) - 1);
          def = default_text (self, value);
          add_field (self, fields, id, type, def, visibility, mods.is_static, doc);
        }
      return;
    }

  if (strcmp (type_name, "property_declaration") == 0 && self->lang == LANG_PHP)
    {
      g_autofree char *type = type_text (self, field (member, "type"));

      for (uint32_t i = 0; i < n_named (member); i++)
        {
          TSNode element = nth_named (member, i);
          g_autofree char *id = NULL;
          g_autofree char *def = NULL;

          if (!is_type (element, "property_element"))
            continue;
          id = text_of (self, field (element, "name"));
          def = default_text (self, field (element, "default_value"));
          add_field (self, fields, id, type, def, visibility, mods.is_static, doc);
        }
      return;
    }

  if (strcmp (type_name, "const_declaration") == 0 && self->lang == LANG_PHP)
    {
      for (uint32_t i = 0; i < n_named (member); i++)
        {
          TSNode element = nth_named (member, i);
          g_autofree char *id = NULL;
          g_autofree char *def = NULL;

          if (!is_type (element, "const_element"))
            continue;
          id = text_of (self, nth_named (element, 0));
          def = default_text (self, nth_named (element, 1));
          add_field (self, fields, id, NULL, def, visibility, TRUE, doc);
        }
      return;
    }

  if (strcmp (type_name, "property_declaration") == 0 && self->lang == LANG_CSHARP)
    {
      g_autofree char *id = text_of (self, field (member, "name"));
      g_autofree char *type = type_text (self, field (member, "type"));
      g_autofree char *def = default_text (self, field (member, "value"));

      add_field (self, fields, id, type, def, visibility, mods.is_static, doc);
      return;
    }

  if (strcmp (type_name, "property_declaration") == 0 && self->lang == LANG_KOTLIN)
    {
      TSNode variable = child_of_type (member, "variable_declaration");
      TSNode id_node = child_of_type (variable, "simple_identifier");
      g_autofree char *id = text_of (self, id_node);
      g_autofree char *type = text_of (self, _lode_symbol_type_child (variable, id_node));
      TSNode value = next_named (variable);
      g_autofree char *def = NULL;

      if (!ts_node_is_null (value) && !is_type (value, "getter") && !is_type (value, "setter"))
        def = default_text (self, value);
      add_field (self, fields, id, type, def, visibility, mods.is_static, doc);
      return;
    }

  if ((strcmp (type_name, "property_declaration") == 0 ||
       strcmp (type_name, "protocol_property_declaration") == 0) && self->lang == LANG_SWIFT)
    {
      TSNode pattern = field (member, "name");
      TSNode bound = field (pattern, "bound_identifier");
      g_autofree char *id = text_of (self, ts_node_is_null (bound) ? pattern : bound);
      g_autofree char *type = type_text (self, child_of_type (member, "type_annotation"));
      g_autofree char *def = default_text (self, field (member, "value"));

      add_field (self, fields, id, type, def, visibility, mods.is_static, doc);
      return;
    }

  if (strcmp (type_name, "field_definition") == 0 ||
      strcmp (type_name, "public_field_definition") == 0 ||
      strcmp (type_name, "property_signature") == 0)
    {
      TSNode name = field (member, "property");
      g_autofree char *id = NULL;
      g_autofree char *type = type_text (self, field (member, "type"));
      g_autofree char *def = default_text (self, field (member, "value"));

      if (ts_node_is_null (name))
        name = field (member, "name");
      id = text_of (self, name);
      add_field (self, fields, id, type, def,
                 id != NULL && *id == '#' ? "private" : visibility, mods.is_static, doc);
      return;
    }

  if (strcmp (type_name, "expression_statement") == 0 && self->lang == LANG_PYTHON)
    {
      TSNode assignment = child_of_type (member, "assignment");
      TSNode left = field (assignment, "left");
      g_autofree char *id = NULL;
      g_autofree char *type = NULL;
      g_autofree char *def = NULL;

      if (!is_type (left, "identifier"))
        return;
      id = text_of (self, left);
      type = type_text (self, field (assignment, "type"));
      def = default_text (self, field (assignment, "right"));
      add_field (self, fields, id, type, def, *id == '_' ? "private" : "public", FALSE, doc);
      return;
    }

  if (strcmp (type_name, "call") == 0 && self->lang == LANG_RUBY)
    {
      /* attr_reader :a, :b */
      TSNode method = field (member, "method");
      TSNode arguments = field (member, "arguments");

      if (!(text_equals (self, method, "attr_reader") || text_equals (self, method, "attr_writer") ||
            text_equals (self, method, "attr_accessor")))
        return;
      for (uint32_t i = 0; i < n_named (arguments); i++)
        {
          g_autofree char *symbol = text_of (self, nth_named (arguments, i));

          if (symbol != NULL && symbol[0] == ':')
            add_field (self, fields, symbol + 1, NULL, NULL, visibility, FALSE, doc);
        }
      return;
    }

  if (strcmp (type_name, "assignment") == 0 && self->lang == LANG_RUBY)
    {
      TSNode left = field (member, "left");
      g_autofree char *id = NULL;
      g_autofree char *def = NULL;

      if (!is_type (left, "constant"))
        return;
      id = text_of (self, left);
      def = default_text (self, field (member, "right"));
      add_field (self, fields, id, NULL, def, "public", TRUE, doc);
    }
}

/* Enum members: C enumerators, Java/C#/TS/Rust/Swift/PHP/Kotlin cases and variants. */
static void
add_enum_members (LodeSymbolExtractor *self,
                  Fields              *fields,
                  GArray              *members)
{
  static const char * const types[] = {
    "enumerator", "enum_constant", "enum_member_declaration", "enum_variant",
    "enum_assignment", "property_identifier", "enum_case", "enum_entry", NULL
  };

  for (guint i = 0; i < members->len; i++)
    {
      const Member *m = &g_array_index (members, Member, i);
      TSNode member = m->node;
      TSNode name;
      g_autofree char *id = NULL;
      g_autofree char *def = NULL;

      if (!type_in (member, types))
        continue;
      name = field (member, "name");
      if (ts_node_is_null (name))
        name = is_type (member, "property_identifier") ? member : nth_named (member, 0);
      id = text_of (self, name);
      def = default_text (self, field (member, "value"));
      add_field (self, fields, id, NULL, def, "public", TRUE, m->doc);
    }
}

void
_lode_symbol_add_fields (LodeSymbolExtractor *self,
                         DetailsJson         *builder,
                         TSNode               class_node,
                         TSNode               body,
                         GArray              *members)
{
  Fields fields = { builder, 0 };

  _lode_details_set_member_name (builder, "fields");
  _lode_details_begin_array (builder);

  /* Kotlin primary constructors and TypeScript/PHP constructor parameters declare fields. */
  if (self->lang == LANG_KOTLIN)
    {
      TSNode primary = child_of_type (class_node, "primary_constructor");

      for (uint32_t i = 0; !ts_node_is_null (primary) && i < n_named (primary);
           i++)
        {
          TSNode parameter = nth_named (primary, i);
          g_auto(Modifiers) mods = MODIFIERS_INIT (self);
          Param param = { 0 };

          if (!is_type (parameter, "class_parameter") ||
              ts_node_is_null (child_of_type (parameter, "binding_pattern_kind")))
            continue;
          _lode_symbol_collect_modifiers (self, parameter, &mods);
          _lode_symbol_read_parameter (self, parameter, &param);
          {
            TSNode last = nth_named (parameter, n_named (parameter) - 1);

            if (!type_in (last, (const char * const []) { "user_type", "nullable_type",
                                                          "simple_identifier", NULL }))
              param.value = default_text (self, last);
          }
          add_field (self, &fields, param.name, param.type, param.value,
                     mods.visibility != NULL ? mods.visibility : "public", FALSE, NULL);
          param_clear (&param);
        }
    }

  for (guint i = 0; i < members->len; i++)
    {
      const Member *m = &g_array_index (members, Member, i);
      TSNode member = m->node;

      if (is_type (member, "constructor_declaration") || is_type (member, "method_declaration") ||
          is_type (member, "method_definition") || is_type (member, "function_definition") ||
          is_type (member, "method"))
        {
          /* TypeScript `constructor(private name: string)`, PHP promoted properties,
           * Python `self.x = …` in __init__. */
          TSNode params = field (member, "parameters");
          TSNode name = field (member, "name");

          if (!ts_node_is_null (params) && (text_equals (self, name, "constructor") ||
                                            text_equals (self, name, "__construct")))
            for (uint32_t j = 0; j < n_named (params); j++)
              {
                TSNode parameter = nth_named (params, j);
                g_auto(Modifiers) mods = MODIFIERS_INIT (self);
                Param param = { 0 };

                _lode_symbol_collect_modifiers (self, parameter, &mods);
                if (mods.visibility == NULL && !is_type (parameter, "property_promotion_parameter"))
                  continue;
                _lode_symbol_read_parameter (self, parameter, &param);
                add_field (self, &fields, param.name, param.type, param.value,
                           mods.visibility != NULL ? mods.visibility : "public", FALSE, NULL);
                param_clear (&param);
              }
          continue;
        }
      add_member_fields (self, &fields, class_node, member, m->doc);
    }

  if (!ts_node_is_null (body) &&
      (strstr (ts_node_type (class_node), "enum") != NULL ||
       is_type (body, "enumerator_list") || is_type (body, "enum_body") ||
       is_type (body, "enum_variant_list") || is_type (body, "enum_class_body") ||
       is_type (body, "enum_declaration_list")))
    add_enum_members (self, &fields, members);

  _lode_details_end_array (builder);
}

static void
add_relation (LodeSymbolExtractor *self,
              DetailsJson         *builder,
              const char          *kind,
              TSNode               node,
              guint               *n)
{
  g_autofree char *name = text_of (self, node);
  char *lt;

  if (name == NULL || *name == '\0' || *n >= MAX_ITEMS)
    return;
  /* Generic arguments are not part of the related type's name. */
  lt = strpbrk (name, "<[(");
  if (lt != NULL && lt > name)
    *lt = '\0';
  g_strstrip (name);

  _lode_details_begin_object (builder);
  add_string (builder, "kind", kind);
  add_string (builder, "name", name);
  if (self->lang == LANG_PHP)
    {
      g_autofree char *full = _lode_symbol_php_full_name (self, name);

      add_string (builder, "target", full);
    }
  _lode_details_end_object (builder);
  (*n)++;
}

static void
add_relations_of_list (LodeSymbolExtractor *self,
                       DetailsJson         *builder,
                       const char          *kind,
                       TSNode               list,
                       guint               *n)
{
  static const char * const wrappers[] = { "type_list", "interface_type_list", NULL };

  for (uint32_t i = 0; i < n_named (list); i++)
    {
      TSNode child = nth_named (list, i);

      if (type_in (child, wrappers))
        add_relations_of_list (self, builder, kind, child, n);
      else if (!is_type (child, "access_specifier") && !is_type (child, "keyword_argument") &&
               strstr (ts_node_type (child), "comment") == NULL)
        add_relation (self, builder, kind, child, n);
    }
}

void
_lode_symbol_add_relations (LodeSymbolExtractor *self,
                            DetailsJson         *builder,
                            TSNode               node,
                            TSNode               body)
{
  guint n = 0;

  _lode_details_set_member_name (builder, "relations");
  _lode_details_begin_array (builder);

  switch (self->lang)
    {
    case LANG_CPP:
      add_relations_of_list (self, builder, "extends", child_of_type (node, "base_class_clause"),
                             &n);
      break;

    case LANG_JAVA:
      add_relations_of_list (self, builder, "extends", field (node, "superclass"), &n);
      add_relations_of_list (self, builder, "implements", field (node, "interfaces"), &n);
      add_relations_of_list (self, builder, "extends", child_of_type (node, "extends_interfaces"),
                             &n);
      break;

    case LANG_CSHARP:
      {
        TSNode list = child_of_type (node, "base_list");

        /* Syntax cannot tell a base class from an interface: by .NET convention interface
         * names are I followed by a capital. */
        for (uint32_t i = 0; i < n_named (list); i++)
          {
            TSNode base = nth_named (list, i);
            g_autofree char *name = text_of (self, base);
            gboolean interface = name != NULL && name[0] == 'I' && g_ascii_isupper (name[1]);

            add_relation (self, builder,
                          interface || is_type (node, "interface_declaration") ? "implements"
                          : "extends", base, &n);
          }
        break;
      }

    case LANG_JS:
    case LANG_TS:
      {
        TSNode heritage = child_of_type (node, "class_heritage");

        if (self->lang == LANG_JS)
          add_relations_of_list (self, builder, "extends", heritage, &n);
        for (uint32_t i = 0; self->lang == LANG_TS && i < n_named (heritage);
             i++)
          {
            TSNode clause = nth_named (heritage, i);

            add_relations_of_list (self, builder, is_type (clause, "implements_clause")
                                                  ? "implements" : "extends", clause, &n);
          }
        add_relations_of_list (self, builder, "extends",
                               child_of_type (node, "extends_type_clause"), &n);
        break;
      }

    case LANG_PYTHON:
      add_relations_of_list (self, builder, "extends", field (node, "superclasses"), &n);
      break;

    case LANG_RUST:
      add_relations_of_list (self, builder, "extends", field (node, "bounds"), &n);
      break;

    case LANG_PHP:
      add_relations_of_list (self, builder, "extends", child_of_type (node, "base_clause"), &n);
      add_relations_of_list (self, builder, "implements",
                             child_of_type (node, "class_interface_clause"), &n);
      for (uint32_t i = 0; !ts_node_is_null (body) && i < n_named (body); i++)
        {
          TSNode member = nth_named (body, i);

          if (is_type (member, "use_declaration"))
            add_relations_of_list (self, builder, "uses", member, &n);
        }
      break;

    case LANG_RUBY:
      add_relations_of_list (self, builder, "extends", field (node, "superclass"), &n);
      for (uint32_t i = 0; !ts_node_is_null (body) && i < n_named (body); i++)
        {
          TSNode member = nth_named (body, i);
          TSNode method = field (member, "method");

          if (is_type (member, "call") && (text_equals (self, method, "include") ||
                                           text_equals (self, method, "extend") ||
                                           text_equals (self, method, "prepend")))
            add_relations_of_list (self, builder, "uses", field (member, "arguments"), &n);
        }
      break;

    case LANG_KOTLIN:
      for (uint32_t i = 0; i < n_named (node); i++)
        {
          TSNode specifier = nth_named (node, i);
          TSNode invocation = child_of_type (specifier, "constructor_invocation");

          if (!is_type (specifier, "delegation_specifier"))
            continue;
          if (!ts_node_is_null (invocation))
            add_relation (self, builder, "extends", child_of_type (invocation, "user_type"), &n);
          else
            add_relation (self, builder, "implements", nth_named (specifier, 0), &n);
        }
      break;

    case LANG_SWIFT:
      {
        gboolean first = TRUE;
        gboolean is_class = FALSE;
        Iter it;

        iter_init (&it, node);
        while (iter_next (&it))
          if (g_strcmp0 (it.field, "declaration_kind") == 0)
            is_class = text_equals (self, it.node, "class");
        for (uint32_t i = 0; i < n_named (node); i++)
          {
            TSNode specifier = nth_named (node, i);

            if (!is_type (specifier, "inheritance_specifier"))
              continue;
            add_relation (self, builder, first && is_class ? "extends" : "implements",
                          field (specifier, "inherits_from"), &n);
            first = FALSE;
          }
        break;
      }

    case LANG_GO:
      {
        /* Embedded fields and embedded interfaces. */
        TSNode type = field (node, "type");
        TSNode list = is_type (type, "struct_type") ? child_of_type (type, "field_declaration_list")
                                                    : type;

        for (uint32_t i = 0; !ts_node_is_null (list) && i < n_named (list); i++)
          {
            TSNode member = nth_named (list, i);

            if (is_type (member, "field_declaration") && ts_node_is_null (field (member, "name")))
              add_relation (self, builder, "embeds", field (member, "type"), &n);
            else if (is_type (member, "type_elem") || is_type (member, "constraint_elem"))
              add_relation (self, builder, "embeds", member, &n);
          }
        break;
      }

    case LANG_C:
    case LANG_OTHER:
    default:
      break;
    }

  _lode_details_end_array (builder);
}
