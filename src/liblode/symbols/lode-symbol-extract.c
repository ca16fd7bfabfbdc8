/* lode-symbol-extract.c — symbol details and references from a file's parse
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "lode-symbol-extract.h"

/*
 * Runs on the chunker's thread, on the tree the chunker parsed: nothing is parsed twice.
 *
 * Details. For each declaration the chunker found, a small JSON object with what the chunk
 * query does not give: parameters (name, type, default), return types, visibility and
 * modifiers, the Go receiver, constructors, accessors and mutators; for classes, structs,
 * interfaces, traits and enums their fields, relations (extends, implements, uses, embeds)
 * and tags (annotations, decorators, attributes, modifiers); for Laravel/Eloquent models
 * their table, mass-assignment lists, casts, scopes, relationships and attributes. Keys:
 *
 *   kind, description, namespace, selection {start_line, start_column, end_line,
 *   end_column}, visibility, exported, is_static, is_abstract, is_final, tags[],
 *   parameters[{name, type?, default?}], returns[{type}], receiver, type, value,
 *   fields[{name, type?, default?, visibility, is_static, description?}],
 *   relations[{kind, name, target?}], trait, orm {…}
 *
 * lode-symbol-report.c turns them, with the symbols table, into the descriptors the tools
 * return. Each language's grammar is read by node type and field names; a construct a
 * grammar does not have is never matched, so one walk serves every language and the
 * switches below hold only what differs.
 *
 * References. One walk over the whole tree lists every identifier node (comments and
 * strings hold none) with its line and role, from its parent's type and its field: a call's
 * callee, a type, a name in an import, a declaration's name, or a plain use. The walk keeps
 * the path from the root on a stack, so a role costs two array reads, not a parent lookup
 * (ts_node_parent walks down from the root). C and C++ macro bodies are text to the grammar;
 * their identifiers are read with a small lexer.
 */

#define TEXT_MAX        200
#define DEFAULT_MAX     80
#define MAX_ITEMS       200
#define MAX_DEPTH       512
#define MIN_NAME_BYTES  2
#define MAX_NAME_BYTES  128

typedef enum
{
  LANG_OTHER,
  LANG_C,
  LANG_CPP,
  LANG_CSHARP,
  LANG_GO,
  LANG_JAVA,
  LANG_JS,
  LANG_TS,
  LANG_PYTHON,
  LANG_RUST,
  LANG_PHP,
  LANG_RUBY,
  LANG_KOTLIN,
  LANG_SWIFT,
} Lang;

/* Per grammar, computed once: which node types play which part in references. */
typedef struct
{
  const TSLanguage *ts_language;
  guint             n_symbols;
  guint8           *role;        /* per TSSymbol: ROLE_* bits */
  TSFieldId         field_function;
  TSFieldId         field_method;
  TSFieldId         field_name;
  TSFieldId         field_macro;
  TSFieldId         field_constructor;
  TSFieldId         field_type;
  TSFieldId         field_return_type;
  TSFieldId         field_result;
  TSFieldId         field_returns;
  TSFieldId         field_property;
  TSFieldId         field_field;
  TSFieldId         field_attribute;
  TSFieldId         field_superclass;
} Grammar;

enum
{
  ROLE_IDENTIFIER = 1 << 0,
  ROLE_TYPE_NAME  = 1 << 1,   /* type_identifier and the like */
  ROLE_CALL       = 1 << 2,   /* call nodes */
  ROLE_MEMBER     = 1 << 3,   /* a.b, a->b, a::b */
  ROLE_TYPE_CTX   = 1 << 4,   /* a node that holds types */
  ROLE_IMPORT     = 1 << 5,
  ROLE_MACRO_TEXT = 1 << 6,   /* preproc_arg */
  ROLE_NEW        = 1 << 7,   /* new X(…) */
};

struct _LodeSymbolExtractor
{
  const LodeLanguage *language;
  Lang                lang;
  const char         *text;
  gsize               len;
  TSNode              root;
  const Grammar      *grammar;
  char               *package;
  GHashTable         *php_uses;     /* PHP: alias → full name, from `use` statements */
};

/* Helpers ----------------------------------------------------------------------------- */

typedef struct
{
  TSTreeCursor cursor;
  TSNode       node;
  const char  *field;
  guint        started : 1;
  guint        done : 1;
} Iter;

static void
iter_init (Iter   *it,
           TSNode  node)
{
  it->started = FALSE;
  it->done = ts_node_is_null (node);
  if (!it->done)
    it->cursor = ts_tree_cursor_new (node);
}

static void
iter_clear (Iter *it)
{
  if (!it->done)
    ts_tree_cursor_delete (&it->cursor);
  it->done = TRUE;
}

/* Every child, named or not, with its field name. */
static gboolean
iter_next (Iter *it)
{
  gboolean ok;

  if (it->done)
    return FALSE;
  ok = it->started ? ts_tree_cursor_goto_next_sibling (&it->cursor)
                   : ts_tree_cursor_goto_first_child (&it->cursor);
  it->started = TRUE;
  if (!ok)
    {
      iter_clear (it);
      return FALSE;
    }
  it->node = ts_tree_cursor_current_node (&it->cursor);
  it->field = ts_tree_cursor_current_field_name (&it->cursor);
  return TRUE;
}

static gboolean
is_type (TSNode      node,
         const char *type)
{
  return !ts_node_is_null (node) && strcmp (ts_node_type (node), type) == 0;
}

static gboolean
type_in (TSNode             node,
         const char * const *types)
{
  const char *type;

  if (ts_node_is_null (node))
    return FALSE;
  type = ts_node_type (node);
  for (guint i = 0; types[i] != NULL; i++)
    if (strcmp (type, types[i]) == 0)
      return TRUE;
  return FALSE;
}

static TSNode
null_node (void)
{
  TSNode node = { 0 };

  return node;
}

/* Tree-sitter's accessors crash on a null node; these answer nothing. */
static TSNode
field (TSNode      node,
       const char *name)
{
  if (ts_node_is_null (node))
    return node;
  return ts_node_child_by_field_name (node, name, strlen (name));
}

static TSNode
parent (TSNode node)
{
  return ts_node_is_null (node) ? node : ts_node_parent (node);
}

static uint32_t
n_named (TSNode node)
{
  return ts_node_is_null (node) ? 0 : ts_node_named_child_count (node);
}

static TSNode
nth_named (TSNode   node,
           uint32_t i)
{
  return i < n_named (node) ? ts_node_named_child (node, i) : null_node ();
}

static TSNode
next_named (TSNode node)
{
  return ts_node_is_null (node) ? node : ts_node_next_named_sibling (node);
}

static TSNode
prev_named (TSNode node)
{
  return ts_node_is_null (node) ? node : ts_node_prev_named_sibling (node);
}

static TSNode
child_of_type (TSNode      node,
               const char *type)
{
  for (uint32_t i = 0; i < n_named (node); i++)
    {
      TSNode child = nth_named (node, i);

      if (is_type (child, type))
        return child;
    }
  return null_node ();
}

static TSNode
child_in (TSNode              node,
          const char * const *types)
{
  for (uint32_t i = 0; i < n_named (node); i++)
    {
      TSNode child = nth_named (node, i);

      if (type_in (child, types))
        return child;
    }
  return null_node ();
}

/* @str[0..len) with runs of white space as one space, trimmed, at most @max bytes (cut at a
 * character boundary). */
static char *
collapse (const char *str,
          gsize       len,
          gsize       max)
{
  GString *out = g_string_sized_new (MIN (len, max) + 1);
  gboolean space = FALSE;

  for (gsize i = 0; i < len && out->len < max; i++)
    {
      if (g_ascii_isspace (str[i]))
        {
          space = out->len > 0;
          continue;
        }
      if (space)
        g_string_append_c (out, ' ');
      space = FALSE;
      g_string_append_c (out, str[i]);
    }
  while (out->len > 0 && ((guchar) out->str[out->len - 1] & 0xc0) == 0x80)
    g_string_truncate (out, out->len - 1);
  if (out->len > 0 && ((guchar) out->str[out->len - 1] & 0xc0) == 0xc0)
    g_string_truncate (out, out->len - 1);
  if (!g_utf8_validate (out->str, out->len, NULL))
    {
      char *valid = g_utf8_make_valid (out->str, out->len);

      g_string_free (out, TRUE);
      return valid;
    }
  return g_string_free (out, FALSE);
}

static char *
text_range (LodeSymbolExtractor *self,
            guint32              start,
            guint32              end,
            gsize                max)
{
  end = MIN (end, self->len);
  if (start >= end)
    return g_strdup ("");
  return collapse (self->text + start, MIN (end - start, max * 4), max);
}

static char *
text_of (LodeSymbolExtractor *self,
         TSNode               node)
{
  if (ts_node_is_null (node))
    return NULL;
  return text_range (self, ts_node_start_byte (node), ts_node_end_byte (node), TEXT_MAX);
}

static gboolean
text_equals (LodeSymbolExtractor *self,
             TSNode               node,
             const char          *str)
{
  guint32 start = ts_node_start_byte (node), end = MIN (ts_node_end_byte (node), self->len);
  gsize n = strlen (str);

  return end >= start && end - start == n && memcmp (self->text + start, str, n) == 0;
}

/* A type as written, without the `:` of an annotation. */
static char *
type_text (LodeSymbolExtractor *self,
           TSNode               node)
{
  g_autofree char *text = text_of (self, node);
  const char *p = text;

  if (p == NULL)
    return NULL;
  while (*p == ':' || *p == ' ')
    p++;
  if (g_str_has_prefix (p, "->"))
    p += 2;
  while (*p == ' ')
    p++;
  return *p != '\0' ? g_strdup (p) : NULL;
}

static void
add_string (JsonBuilder *builder,
            const char  *member,
            const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_add_string_value (builder, value);
}

/* Stored details leave false out: the report reads a missing member as false. */
static void
add_bool (JsonBuilder *builder,
          const char  *member,
          gboolean     value)
{
  if (!value)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_add_boolean_value (builder, TRUE);
}

/* The node holding a declaration's parts, below wrappers: Python decorators, JS/TS
 * `export`, Go's type_declaration around its type_spec, variable declarations around an
 * arrow function. */
static TSNode
unwrap (LodeSymbolExtractor *self,
        TSNode               node)
{
  static const char * const declarators[] = { "variable_declarator", NULL };

  for (guint depth = 0; depth < 4; depth++)
    {
      TSNode inner = null_node ();

      if (is_type (node, "decorated_definition") || is_type (node, "export_statement"))
        {
          inner = field (node, "definition");
          if (ts_node_is_null (inner))
            inner = field (node, "declaration");
        }
      else if (is_type (node, "type_declaration"))
        inner = child_in (node, (const char * const []) { "type_spec", "type_alias", NULL });
      else if (is_type (node, "lexical_declaration") || is_type (node, "variable_declaration"))
        {
          TSNode declarator = child_in (node, declarators);

          inner = !ts_node_is_null (declarator) ? field (declarator, "value") : null_node ();
        }
      else if (is_type (node, "expression_statement") && self->lang != LANG_PYTHON)
        {
          TSNode assignment = child_of_type (node, "assignment_expression");

          inner = !ts_node_is_null (assignment) ? field (assignment, "right") : null_node ();
        }
      else if (is_type (node, "pair"))
        inner = field (node, "value");

      if (ts_node_is_null (inner))
        return node;
      node = inner;
    }
  return node;
}

/* Modifiers --------------------------------------------------------------------------- */

typedef struct
{
  gboolean   open_is_visibility;  /* Swift: `open` is a visibility; Kotlin: a modifier */
  char      *visibility;
  gboolean   is_static;
  gboolean   is_abstract;
  gboolean   is_final;
  gboolean   exported_keyword;   /* JS/TS `export` */
  GPtrArray *tags;               /* char *, annotations and other modifiers */
} Modifiers;

static void
modifiers_clear (Modifiers *mods)
{
  g_free (mods->visibility);
  g_clear_pointer (&mods->tags, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Modifiers, modifiers_clear)

#define MODIFIERS_INIT(self) \
  { (self)->lang == LANG_SWIFT, NULL, FALSE, FALSE, FALSE, FALSE, \
    g_ptr_array_new_with_free_func (g_free) }

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

static gboolean
is_modifier_node (TSNode node)
{
  static const char * const types[] = {
    "modifiers", "modifier", "visibility_modifier", "accessibility_modifier",
    "storage_class_specifier", "function_modifiers", "final_modifier", "abstract_modifier",
    "static_modifier", "readonly_modifier", "class_modifier", "member_modifier",
    "inheritance_modifier", "property_modifier", "function_modifier", "virtual_specifier",
    "explicit_function_specifier", "override_modifier", "annotation", "marker_annotation",
    "attribute_list", "attribute_item", "decorator", "mutation_modifier",
    "parameter_modifier", "platform_modifier", "ownership_modifier", "property_behavior_modifier",
    "virtual", NULL
  };

  return type_in (node, types);
}

/* Keywords that grammars leave as anonymous tokens. */
static gboolean
is_modifier_token (const char *type)
{
  static const char * const tokens[] = {
    "static", "async", "abstract", "final", "public", "private", "protected", "export",
    "get", "set", "readonly", "override", "virtual", "declare", "default", "inline",
    "synchronized", "unsafe", "extern", "const", "sealed", "open", "suspend", "internal",
    "*", NULL
  };

  for (guint i = 0; tokens[i] != NULL; i++)
    if (strcmp (type, tokens[i]) == 0)
      return TRUE;
  return FALSE;
}

static void
collect_modifiers (LodeSymbolExtractor *self,
                   TSNode               node,
                   Modifiers           *mods)
{
  Iter it;

  iter_init (&it, node);
  while (iter_next (&it))
    {
      if (g_strcmp0 (it.field, "body") == 0 || g_strcmp0 (it.field, "parameters") == 0)
        continue;
      if (is_modifier_node (it.node))
        add_modifier_text (self, mods, it.node);
      else if (!ts_node_is_named (it.node) && is_modifier_token (ts_node_type (it.node)))
        add_word (mods, strcmp (ts_node_type (it.node), "*") == 0 ? "generator"
                                                                   : ts_node_type (it.node));
    }
}

/* Annotations and attributes written before a declaration as siblings (Rust `#[derive]`,
 * C# `[Serializable]` lists, Swift attributes are children). */
static void
collect_preceding_attributes (LodeSymbolExtractor *self,
                              TSNode               node,
                              Modifiers           *mods)
{
  TSNode prev = prev_named (node);

  for (guint i = 0; i < 8 && !ts_node_is_null (prev); i++)
    {
      if (is_type (prev, "attribute_item") || is_type (prev, "attribute_list"))
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
static char *
section_visibility (LodeSymbolExtractor *self,
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
static TSNode
declarator_name (TSNode node)
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
static char *
c_type_around (LodeSymbolExtractor *self,
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

typedef struct
{
  char *name;
  char *type;
  char *value;
} Param;

static void
param_clear (Param *param)
{
  g_free (param->name);
  g_free (param->type);
  g_free (param->value);
}

static char *
default_text (LodeSymbolExtractor *self,
              TSNode               node)
{
  if (ts_node_is_null (node))
    return NULL;
  return text_range (self, ts_node_start_byte (node), ts_node_end_byte (node), DEFAULT_MAX);
}

/* The first named child that is a type (Kotlin, Swift parameters). */
static TSNode
type_child (TSNode node,
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

static void
read_parameter (LodeSymbolExtractor *self,
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
        TSNode id = declarator_name (declarator);

        /* Macro parameters are bare identifiers. */
        if (is_type (node, "identifier"))
          {
            param->name = text_of (self, node);
            break;
          }
        param->name = !ts_node_is_null (declarator) ? text_of (self, id) : NULL;
        param->type = c_type_around (self, node, !ts_node_is_null (declarator) ? id
                                                                              : null_node (),
                                     value);
        if (is_type (node, "variadic_parameter_declaration") && param->type == NULL)
          param->type = g_strdup ("...");
        break;
      }

    case LANG_KOTLIN:
      {
        TSNode id = child_of_type (node, "simple_identifier");

        param->name = text_of (self, id);
        param->type = text_of (self, type_child (node, id));
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
add_param (JsonBuilder *builder,
           const Param *param)
{
  json_builder_begin_object (builder);
  add_string (builder, "name", param->name != NULL ? param->name : "");
  add_string (builder, "type", param->type);
  add_string (builder, "default", param->value);
  json_builder_end_object (builder);
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
                   JsonBuilder         *builder,
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

static void
add_parameters (LodeSymbolExtractor *self,
                JsonBuilder         *builder,
                TSNode               node)
{
  TSNode list = parameter_list (self, node);
  gboolean own_list = !ts_node_eq (list, node);
  gboolean pending = FALSE;
  Param param = { 0 };
  guint n = 0;
  Iter it;

  json_builder_set_member_name (builder, "parameters");
  json_builder_begin_array (builder);
  if (ts_node_is_null (list))
    {
      json_builder_end_array (builder);
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
      read_parameter (self, child, &param);
      pending = TRUE;
    }
  iter_clear (&it);
  if (pending)
    add_param (builder, &param);
  param_clear (&param);
  json_builder_end_array (builder);
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
add_return (JsonBuilder *builder,
            char        *type)
{
  if (type == NULL)
    return;
  json_builder_begin_object (builder);
  add_string (builder, "type", type);
  json_builder_end_object (builder);
  g_free (type);
}

static void
add_returns (LodeSymbolExtractor *self,
             JsonBuilder         *builder,
             TSNode               node)
{
  json_builder_set_member_name (builder, "returns");
  json_builder_begin_array (builder);

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
          add_return (builder, type_text (self, type_child (node, params)));
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

  json_builder_end_array (builder);
}

/* Classes ----------------------------------------------------------------------------- */

static TSNode
class_body (LodeSymbolExtractor *self,
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
  JsonBuilder *builder;
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
  json_builder_begin_object (fields->builder);
  add_string (fields->builder, "name", name);
  add_string (fields->builder, "type", type);
  add_string (fields->builder, "default", value);
  add_string (fields->builder, "visibility", visibility);
  add_bool (fields->builder, "is_static", is_static);
  add_string (fields->builder, "description", doc);
  json_builder_end_object (fields->builder);
  fields->n++;
}

/* The whole-line comments right above @node, markers stripped (field documentation). */
static char *
doc_above (LodeSymbolExtractor *self,
           TSNode               node)
{
  TSNode prev = prev_named (node);
  GString *out;
  const char *p, *end;

  if (ts_node_is_null (prev) || strstr (ts_node_type (prev), "comment") == NULL ||
      ts_node_end_point (prev).row + 1 < ts_node_start_point (node).row)
    return NULL;

  out = g_string_new (NULL);
  p = self->text + ts_node_start_byte (prev);
  end = self->text + MIN (ts_node_end_byte (prev), self->len);
  while (p < end && out->len < 512)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *q = eol != NULL ? eol : end;

      while (p < q && (g_ascii_isspace (*p) || strchr ("/*#!", *p) != NULL))
        p++;
      while (q > p && (g_ascii_isspace (q[-1]) || q[-1] == '/' || q[-1] == '*'))
        q--;
      if (q > p)
        {
          if (out->len > 0)
            g_string_append_c (out, ' ');
          g_string_append_len (out, p, q - p);
        }
      p = (eol != NULL ? eol : end) + 1;
    }
  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  {
    char *doc = collapse (out->str, out->len, 512);

    g_string_free (out, TRUE);
    return doc;
  }
}

static const char *
default_member_visibility (LodeSymbolExtractor *self,
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
                   TSNode               member)
{
  g_auto(Modifiers) mods = MODIFIERS_INIT (self);
  g_autofree char *doc = doc_above (self, member);
  g_autofree char *section = NULL;
  const char *visibility;
  const char *type_name = ts_node_type (member);

  collect_modifiers (self, member, &mods);
  section = section_visibility (self, member);
  visibility = mods.visibility != NULL ? mods.visibility
               : section != NULL ? section
               : default_member_visibility (self, class_node);

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
            TSNode name = declarator_name (it.node);
            g_autofree char *id = NULL;
            g_autofree char *type = NULL;
            g_autofree char *def = NULL;

            /* A method prototype is a symbol of its own, not a field. */
            if (is_type (it.node, "function_declarator") ||
                is_type (nth_named (it.node, 0), "function_declarator"))
              continue;
            id = text_of (self, name);
            if (n_declarators == 1)
              type = c_type_around (self, member, name, value);
            else
              {
                /* `int a, *b;`: the shared type and this declarator's own part. */
                g_autofree char *type_part = text_of (self, field (member, "type"));
                g_autofree char *around = c_type_around (self, it.node, name, null_node ());

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
      g_autofree char *type = text_of (self, type_child (variable, id_node));
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
                  TSNode               body)
{
  static const char * const members[] = {
    "enumerator", "enum_constant", "enum_member_declaration", "enum_variant",
    "enum_assignment", "property_identifier", "enum_case", "enum_entry", NULL
  };

  for (uint32_t i = 0; i < n_named (body); i++)
    {
      TSNode member = nth_named (body, i);
      TSNode name;
      g_autofree char *id = NULL;
      g_autofree char *def = NULL;

      if (!type_in (member, members))
        continue;
      name = field (member, "name");
      if (ts_node_is_null (name))
        name = is_type (member, "property_identifier") ? member : nth_named (member, 0);
      id = text_of (self, name);
      def = default_text (self, field (member, "value"));
      add_field (self, fields, id, NULL, def, "public", TRUE, NULL);
    }
}

static void
add_fields (LodeSymbolExtractor *self,
            JsonBuilder         *builder,
            TSNode               class_node,
            TSNode               body)
{
  Fields fields = { builder, 0 };

  json_builder_set_member_name (builder, "fields");
  json_builder_begin_array (builder);

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
          collect_modifiers (self, parameter, &mods);
          read_parameter (self, parameter, &param);
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

  for (uint32_t i = 0; !ts_node_is_null (body) && i < n_named (body); i++)
    {
      TSNode member = nth_named (body, i);

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

                collect_modifiers (self, parameter, &mods);
                if (mods.visibility == NULL && !is_type (parameter, "property_promotion_parameter"))
                  continue;
                read_parameter (self, parameter, &param);
                add_field (self, &fields, param.name, param.type, param.value,
                           mods.visibility != NULL ? mods.visibility : "public", FALSE, NULL);
                param_clear (&param);
              }
          continue;
        }
      add_member_fields (self, &fields, class_node, member);
    }

  if (!ts_node_is_null (body) &&
      (strstr (ts_node_type (class_node), "enum") != NULL ||
       is_type (body, "enumerator_list") || is_type (body, "enum_body") ||
       is_type (body, "enum_variant_list") || is_type (body, "enum_class_body") ||
       is_type (body, "enum_declaration_list")))
    add_enum_members (self, &fields, body);

  json_builder_end_array (builder);
}

/* PHP: a class name as written → its full name, through the file's `use` statements. */
static char *
php_full_name (LodeSymbolExtractor *self,
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

static void
add_relation (LodeSymbolExtractor *self,
              JsonBuilder         *builder,
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

  json_builder_begin_object (builder);
  add_string (builder, "kind", kind);
  add_string (builder, "name", name);
  if (self->lang == LANG_PHP)
    {
      g_autofree char *full = php_full_name (self, name);

      add_string (builder, "target", full);
    }
  json_builder_end_object (builder);
  (*n)++;
}

static void
add_relations_of_list (LodeSymbolExtractor *self,
                       JsonBuilder         *builder,
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

static void
add_relations (LodeSymbolExtractor *self,
               JsonBuilder         *builder,
               TSNode               node,
               TSNode               body)
{
  guint n = 0;

  json_builder_set_member_name (builder, "relations");
  json_builder_begin_array (builder);

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

  json_builder_end_array (builder);
}

/* Laravel / Eloquent ------------------------------------------------------------------ */

static gboolean
php_is_model (LodeSymbolExtractor *self,
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
  full = php_full_name (self, name);
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
                   JsonBuilder         *builder,
                   gboolean             pairs)
{
  if (pairs)
    json_builder_begin_object (builder);
  else
    json_builder_begin_array (builder);

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
        json_builder_add_string_value (builder, value_text);
    }

  if (pairs)
    json_builder_end_object (builder);
  else
    json_builder_end_array (builder);
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

                  *related = php_full_name (self, class_name);
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
static const char *
php_model_method_kind (LodeSymbolExtractor  *self,
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

static void
add_orm (LodeSymbolExtractor *self,
         JsonBuilder         *builder,
         const char          *class_name,
         TSNode               body)
{
  static const char * const lists[] = { "fillable", "hidden", "visible", "appends", "guarded",
                                        NULL };
  gboolean has_table = FALSE, has_casts = FALSE;
  g_autoptr(GPtrArray) scopes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonBuilder) attributes = json_builder_new ();
  g_autoptr(JsonNode) attributes_node = NULL;
  json_builder_set_member_name (builder, "orm");
  json_builder_begin_object (builder);
  json_builder_begin_array (attributes);

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
              json_builder_set_member_name (builder, "casts");
              php_array_strings (self, value, builder, TRUE);
              has_casts = TRUE;
            }
          else if (g_strv_contains (lists, key))
            {
              json_builder_set_member_name (builder, key);
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

              json_builder_set_member_name (builder, "casts");
              php_array_strings (self, nth_named (ret, 0), builder, TRUE);
              has_casts = TRUE;
              continue;
            }
          kind = php_model_method_kind (self, member, &attribute, &has_set);
          if (g_strcmp0 (kind, "scope") == 0)
            g_ptr_array_add (scopes, g_steal_pointer (&attribute));
          else if (kind != NULL)
            {
              json_builder_begin_object (attributes);
              add_string (attributes, "name", attribute);
              add_string (attributes, "method", name);
              add_bool (attributes, "get", strcmp (kind, "mutator") != 0);
              add_bool (attributes, "set", strcmp (kind, "mutator") == 0 || has_set);
              json_builder_end_object (attributes);
            }
        }
    }

  if (!has_table)
    {
      g_autofree char *table = conventional_table (class_name);

      add_string (builder, "table", table);
    }
  json_builder_set_member_name (builder, "scopes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < scopes->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (scopes, i));
  json_builder_end_array (builder);
  json_builder_end_array (attributes);
  attributes_node = json_builder_get_root (attributes);
  json_builder_set_member_name (builder, "attributes");
  json_builder_add_value (builder, g_steal_pointer (&attributes_node));
  json_builder_end_object (builder);
}

/* The relationships of a model, as relations. */
static void
add_orm_relations (LodeSymbolExtractor *self,
                   JsonBuilder         *builder,
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
      json_builder_begin_object (builder);
      add_string (builder, "kind", type);
      add_string (builder, "name", name);
      add_string (builder, "target", related);
      json_builder_end_object (builder);
    }
}

/* A doc comment without C#'s XML tags (`<summary>`, `<param name="x">`). */
static char *
clean_doc (LodeSymbolExtractor *self,
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

/* Rust `/// doc` above `#[derive(…)]`: the chunker attaches only comments right above. */
static char *
doc_before_attributes (LodeSymbolExtractor *self,
                       TSNode               node)
{
  TSNode prev = prev_named (node);

  while (is_type (prev, "attribute_item"))
    {
      node = prev;
      prev = prev_named (prev);
    }
  if (ts_node_eq (node, prev) || !is_type (prev_named (node), "line_comment"))
    return NULL;
  return doc_above (self, node);
}

/* Members of an interface that are not declarations of their own: Go's method_elem,
 * TypeScript's method signatures. */
static void
add_signature_methods (LodeSymbolExtractor *self,
                       JsonBuilder         *builder,
                       TSNode               body)
{
  guint n = 0;

  json_builder_set_member_name (builder, "methods");
  json_builder_begin_array (builder);
  for (uint32_t i = 0; i < n_named (body) && n < MAX_ITEMS; i++)
    {
      TSNode member = nth_named (body, i);
      g_autofree char *name = NULL;
      g_autofree char *signature = NULL;
      g_autofree char *doc = NULL;

      if (!is_type (member, "method_elem") && !is_type (member, "method_signature"))
        continue;
      name = text_of (self, field (member, "name"));
      signature = text_of (self, member);
      doc = doc_above (self, member);
      json_builder_begin_object (builder);
      add_string (builder, "name", name);
      add_string (builder, "signature", signature);
      add_string (builder, "description", doc);
      add_parameters (self, builder, member);
      add_returns (self, builder, member);
      json_builder_end_object (builder);
      n++;
    }
  json_builder_end_array (builder);
}

/* Describing ---------------------------------------------------------------------------- */

static gboolean
kind_is_class_like (const char *kind)
{
  static const char * const kinds[] = {
    "class", "struct", "interface", "trait", "impl", "object", "enum", "union", "record",
    "protocol", "extension", NULL
  };

  return kind != NULL && g_strv_contains (kinds, kind);
}

static gboolean
kind_is_function_like (const char *kind)
{
  static const char * const kinds[] = { "function", "method", "prototype", NULL };

  return kind != NULL && g_strv_contains (kinds, kind);
}

static void
add_selection (LodeSymbolExtractor *self,
               JsonBuilder         *builder,
               TSNode               def,
               guint32              name_byte)
{
  TSNode name = ts_node_descendant_for_byte_range (def, name_byte, name_byte);
  TSPoint start, end;

  if (ts_node_is_null (name))
    return;
  start = ts_node_start_point (name);
  end = ts_node_end_point (name);
  /* [start line, start column, end line, end column], 1-based, columns in bytes */
  json_builder_set_member_name (builder, "selection");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, start.row + 1);
  json_builder_add_int_value (builder, start.column + 1);
  json_builder_add_int_value (builder, end.row + 1);
  json_builder_add_int_value (builder, end.column + 1);
  json_builder_end_array (builder);
}

static gboolean
is_exported (LodeSymbolExtractor *self,
             const LodeSymbolDef *def,
             TSNode               node,
             const Modifiers     *mods,
             const char          *visibility)
{
  const char *name = def->name;

  switch (self->lang)
    {
    case LANG_GO:
      return g_ascii_isupper (name[0]);
    case LANG_RUST:
      return g_str_has_prefix (visibility, "pub") || strcmp (visibility, "public") == 0;
    case LANG_PYTHON:
      return name[0] != '_' || (g_str_has_prefix (name, "__") && g_str_has_suffix (name, "__"));
    case LANG_JS:
    case LANG_TS:
      if (def->container != NULL)
        return strcmp (visibility, "public") == 0 && name[0] != '#';
      return mods->exported_keyword || is_type (node, "export_statement") ||
             is_type (parent (node), "export_statement");
    case LANG_C:
      return !mods->is_static;
    case LANG_CPP:
      return !mods->is_static || def->container != NULL
             ? strcmp (visibility, "public") == 0 : FALSE;
    case LANG_SWIFT:
      return strcmp (visibility, "public") == 0 || strcmp (visibility, "open") == 0;
    case LANG_CSHARP:
    case LANG_JAVA:
    case LANG_PHP:
    case LANG_KOTLIN:
    case LANG_RUBY:
    case LANG_OTHER:
    default:
      return strcmp (visibility, "public") == 0;
    }
}

static const char *
default_visibility (LodeSymbolExtractor *self,
                    const LodeSymbolDef *def,
                    TSNode               node)
{
  switch (self->lang)
    {
    case LANG_GO:
      return g_ascii_isupper (def->name[0]) ? "public" : "private";
    case LANG_PYTHON:
      return def->name[0] == '_' && !g_str_has_suffix (def->name, "__") ? "private" : "public";
    case LANG_RUST:
      return "private";
    case LANG_SWIFT:
      return "internal";
    case LANG_CSHARP:
    case LANG_JAVA:
      if (def->container != NULL)
        return default_member_visibility (self, parent (parent (node)));
      return self->lang == LANG_CSHARP ? "internal" : "package";
    case LANG_CPP:
      {
        TSNode list = parent (node);

        if (is_type (list, "field_declaration_list"))
          return default_member_visibility (self, parent (list));
        return "public";
      }
    case LANG_JS:
    case LANG_TS:
      return def->name[0] == '#' ? "private" : "public";
    case LANG_C:
    case LANG_PHP:
    case LANG_RUBY:
    case LANG_KOTLIN:
    case LANG_OTHER:
    default:
      return "public";
    }
}

static const char *
function_kind (LodeSymbolExtractor *self,
               const LodeSymbolDef *def,
               TSNode               node,
               const Modifiers     *mods)
{
  const char *name = def->name;

  if (is_type (node, "constructor_declaration") || is_type (node, "init_declaration") ||
      is_type (node, "compact_constructor_declaration") ||
      strcmp (name, "constructor") == 0 || strcmp (name, "__init__") == 0 ||
      strcmp (name, "__construct") == 0 ||
      (self->lang == LANG_RUBY && strcmp (name, "initialize") == 0) ||
      (self->lang == LANG_CPP && def->container != NULL &&
       (strcmp (name, def->container) == 0 ||
        g_str_has_suffix (def->container, name))))
    return "constructor";

  for (guint i = 0; i < mods->tags->len; i++)
    {
      const char *tag = g_ptr_array_index (mods->tags, i);

      if (strcmp (tag, "get") == 0 || strcmp (tag, "@property") == 0 ||
          g_str_has_prefix (tag, "@cached_property"))
        return "accessor";
      if (strcmp (tag, "set") == 0 || g_str_has_suffix (tag, ".setter"))
        return "mutator";
    }

  if (self->lang == LANG_PHP && def->container != NULL)
    {
      TSNode class_node = parent (parent (node));
      g_autofree char *attribute = NULL;
      gboolean has_set = FALSE;
      const char *kind;

      if (is_type (class_node, "class_declaration") && php_is_model (self, class_node) &&
          (kind = php_model_method_kind (self, node, &attribute, &has_set)) != NULL)
        return strcmp (kind, "attribute") == 0 ? "accessor" : kind;
    }

  if (strcmp (def->kind, "method") == 0 ||
      (def->container != NULL && self->lang != LANG_CPP && self->lang != LANG_C))
    return "method";
  /* C++ members declared in the class body; C has no methods. */
  if (self->lang == LANG_CPP && def->container != NULL &&
      (is_type (node, "field_declaration") || is_type (parent (node), "field_declaration_list")))
    return "method";
  return "function";
}

static void
add_tags (JsonBuilder     *builder,
          const Modifiers *mods)
{
  if (mods->tags->len == 0)
    return;
  json_builder_set_member_name (builder, "tags");
  json_builder_begin_array (builder);
  for (guint i = 0; i < mods->tags->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (mods->tags, i));
  json_builder_end_array (builder);
}

static void
describe_function (LodeSymbolExtractor *self,
                   JsonBuilder         *builder,
                   const LodeSymbolDef *def,
                   TSNode               node,
                   const Modifiers     *mods)
{
  add_string (builder, "kind", function_kind (self, def, node, mods));

  if (self->lang == LANG_GO)
    {
      TSNode receiver = field (node, "receiver");

      if (!ts_node_is_null (receiver))
        {
          g_autofree char *text = text_of (self, receiver);
          gsize n = text != NULL ? strlen (text) : 0;

          /* "(s *Store)" → "s *Store" */
          if (n >= 2 && text[0] == '(' && text[n - 1] == ')')
            {
              text[n - 1] = '\0';
              add_string (builder, "receiver", text + 1);
            }
        }
    }

  add_parameters (self, builder, node);
  add_returns (self, builder, node);
}

static void
describe_class (LodeSymbolExtractor *self,
                JsonBuilder         *builder,
                const LodeSymbolDef *def,
                TSNode               node)
{
  TSNode body = class_body (self, node);
  gboolean model = self->lang == LANG_PHP && is_type (node, "class_declaration") &&
                   php_is_model (self, node);
  const char *kind = def->kind;

  if (model)
    kind = "model";
  else if (strcmp (kind, "union") == 0 || strcmp (kind, "record") == 0)
    kind = "struct";
  else if (strcmp (kind, "protocol") == 0)
    kind = "interface";
  else if (strcmp (kind, "object") == 0 || strcmp (kind, "extension") == 0 ||
           strcmp (kind, "impl") == 0)
    kind = "class";
  /* Kotlin `data class`, Swift `struct` are told by the chunk query already. */
  add_string (builder, "kind", kind);

  if (self->lang == LANG_RUST && is_type (node, "impl_item"))
    {
      g_autofree char *trait = type_text (self, field (node, "trait"));

      add_string (builder, "trait", trait);
    }

  add_fields (self, builder, node, body);
  add_relations (self, builder, node, body);
  add_signature_methods (self, builder,
                         self->lang == LANG_GO ? field (node, "type") : body);
  if (model)
    {
      /* The relations array is closed; relationships go to their own list. */
      json_builder_set_member_name (builder, "relationships");
      json_builder_begin_array (builder);
      add_orm_relations (self, builder, body);
      json_builder_end_array (builder);
      add_orm (self, builder, def->name, body);
    }
}

/* Empty lists are left out of the stored details, as false is. */
static void
drop_empty (JsonObject *object)
{
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (object, l->data);

      if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);

          if (json_array_get_length (array) == 0)
            {
              json_object_remove_member (object, l->data);
              continue;
            }
          for (guint i = 0; i < json_array_get_length (array); i++)
            if (JSON_NODE_HOLDS_OBJECT (json_array_get_element (array, i)))
              drop_empty (json_array_get_object_element (array, i));
        }
    }
}

/**
 * lode_symbol_extractor_describe:
 * @self: a #LodeSymbolExtractor
 * @def: a declaration of the file
 *
 * Returns: (transfer full): the declaration's details, as compact JSON
 */
char *
lode_symbol_extractor_describe (LodeSymbolExtractor *self,
                                const LodeSymbolDef *def)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_auto(Modifiers) mods = MODIFIERS_INIT (self);
  g_autofree char *section = NULL;
  g_autofree char *description = NULL;
  TSNode node = unwrap (self, def->node);
  const char *visibility;

  json_builder_begin_object (builder);
  description = def->doc != NULL ? clean_doc (self, def->doc) : doc_before_attributes (self, def->node);
  add_string (builder, "description", description);
  /* PHP's `namespace A\B;` is the file's package, not inside it. */
  if (g_strcmp0 (def->namespace, def->name) != 0)
    add_string (builder, "namespace", def->namespace);
  add_selection (self, builder, def->node, def->name_byte);

  /* Modifiers may sit on the wrapper (decorators, export) and on the declaration. */
  if (!ts_node_eq (node, def->node))
    collect_modifiers (self, def->node, &mods);
  collect_modifiers (self, node, &mods);
  if (self->lang == LANG_CPP || self->lang == LANG_C)
    {
      /* `double area () const override`: the qualifiers follow the parameters. */
      TSNode declarator = field (node, "declarator");

      for (guint depth = 0; depth < 8 && !ts_node_is_null (declarator); depth++)
        {
          if (is_type (declarator, "function_declarator"))
            {
              collect_modifiers (self, declarator, &mods);
              break;
            }
          declarator = field (declarator, "declarator");
        }
    }
  collect_preceding_attributes (self, def->node, &mods);
  section = section_visibility (self, def->node);
  if (self->lang == LANG_RUBY && is_type (node, "singleton_method"))
    mods.is_static = TRUE;
  if (self->lang == LANG_PYTHON)
    for (guint i = 0; i < mods.tags->len; i++)
      {
        const char *tag = g_ptr_array_index (mods.tags, i);

        if (strcmp (tag, "@staticmethod") == 0 || strcmp (tag, "@classmethod") == 0)
          mods.is_static = TRUE;
        else if (g_str_has_prefix (tag, "@abstractmethod") ||
                 g_str_has_prefix (tag, "@abc.abstractmethod"))
          mods.is_abstract = TRUE;
      }
  if ((self->lang == LANG_CPP) && is_type (node, "field_declaration") &&
      !ts_node_is_null (field (node, "default_value")))
    mods.is_abstract = TRUE;   /* `virtual f () = 0;` */

  /* The items of a trait, and of a trait's impl, are as public as the trait. */
  if (self->lang == LANG_RUST && mods.visibility == NULL &&
      (is_type (parent (parent (def->node)), "trait_item") ||
       !ts_node_is_null (field (parent (parent (def->node)), "trait"))))
    mods.visibility = g_strdup ("public");
  /* A static C function or variable is private to its file. */
  if (self->lang == LANG_C && mods.is_static && mods.visibility == NULL)
    mods.visibility = g_strdup ("private");
  visibility = mods.visibility != NULL ? mods.visibility
               : section != NULL ? section : default_visibility (self, def, def->node);
  add_string (builder, "visibility", visibility);
  add_bool (builder, "exported", is_exported (self, def, def->node, &mods, visibility));
  add_bool (builder, "is_static", mods.is_static);
  add_bool (builder, "is_abstract", mods.is_abstract);
  add_bool (builder, "is_final", mods.is_final);

  if (kind_is_function_like (def->kind) ||
      (strcmp (def->kind, "macro") == 0 && is_type (node, "preproc_function_def")))
    describe_function (self, builder, def, node, &mods);
  else if (kind_is_class_like (def->kind))
    describe_class (self, builder, def, node);
  else if (strcmp (def->kind, "property") == 0 || strcmp (def->kind, "constant") == 0)
    {
      TSNode assignment = child_of_type (node, "assignment");
      g_autofree char *type = NULL;
      TSNode value;

      /* Python `NAME: type = value` */
      if (!ts_node_is_null (assignment))
        node = assignment;
      type = type_text (self, field (node, "type"));
      value = field (node, "value");
      if (ts_node_is_null (value))
        value = field (node, "right");
      add_string (builder, "type", type);
      if (!ts_node_is_null (value))
        {
          g_autofree char *text = default_text (self, value);

          add_string (builder, "value", text);
        }
    }
  else if (strcmp (def->kind, "type") == 0)
    {
      /* What a type alias stands for. */
      TSNode aliased = field (node, "value");
      g_autofree char *type = NULL;

      if (ts_node_is_null (aliased))
        aliased = field (node, "type");
      type = type_text (self, aliased);
      add_string (builder, "type", type);
    }
  else if (strcmp (def->kind, "macro") == 0)
    {
      g_autofree char *text = default_text (self, field (node, "value"));

      add_string (builder, "value", text);
    }

  add_tags (builder, &mods);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  drop_empty (json_node_get_object (root));
  return json_to_string (root, FALSE);
}

/* Files ------------------------------------------------------------------------------- */

static Lang
lang_for (const char *id)
{
  static const struct { const char *id; Lang lang; } langs[] = {
    { "c", LANG_C }, { "cpp", LANG_CPP }, { "csharp", LANG_CSHARP }, { "go", LANG_GO },
    { "java", LANG_JAVA }, { "javascript", LANG_JS }, { "typescript", LANG_TS },
    { "tsx", LANG_TS }, { "python", LANG_PYTHON }, { "rust", LANG_RUST }, { "php", LANG_PHP },
    { "ruby", LANG_RUBY }, { "kotlin", LANG_KOTLIN }, { "swift", LANG_SWIFT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (langs); i++)
    if (strcmp (id, langs[i].id) == 0)
      return langs[i].lang;
  return LANG_OTHER;
}

/**
 * lode_symbol_separator_for_language:
 * @language_id: a language id
 *
 * Returns: what joins a namespace's parts and a name: "::", "\\" or "."
 */
const char *
lode_symbol_separator_for_language (const char *language_id)
{
  switch (lang_for (language_id))
    {
    case LANG_CPP:
    case LANG_RUST:
    case LANG_RUBY:
      return "::";
    case LANG_PHP:
      return "\\";
    case LANG_C:
    case LANG_CSHARP:
    case LANG_GO:
    case LANG_JAVA:
    case LANG_JS:
    case LANG_TS:
    case LANG_PYTHON:
    case LANG_KOTLIN:
    case LANG_SWIFT:
    case LANG_OTHER:
    default:
      return ".";
    }
}

/* The package a file declares: Go's package clause, Java and Kotlin packages, PHP's and C#'s
 * file-wide namespace. */
static char *
declared_package (LodeSymbolExtractor *self)
{
  for (uint32_t i = 0; i < n_named (self->root) && i < 64; i++)
    {
      TSNode child = nth_named (self->root, i);

      if (is_type (child, "package_clause"))
        return text_of (self, nth_named (child, 0));
      if (is_type (child, "package_declaration") || is_type (child, "package_header"))
        return text_of (self, nth_named (child, 0));
      if ((is_type (child, "namespace_definition") && self->lang == LANG_PHP &&
           ts_node_is_null (field (child, "body"))) ||
          is_type (child, "file_scoped_namespace_declaration"))
        return text_of (self, field (child, "name"));
    }
  return NULL;
}

static void
read_php_uses (LodeSymbolExtractor *self)
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

/* References -------------------------------------------------------------------------- */

static GMutex grammars_lock;
static GHashTable *grammars;   /* TSLanguage → Grammar, never freed */

static gboolean
name_has_word (const char *name,
               const char *word)
{
  return strstr (name, word) != NULL;
}

static const Grammar *
grammar_for (const TSLanguage *ts_language)
{
  static const char * const identifiers[] = {
    "identifier", "type_identifier", "field_identifier", "property_identifier",
    "shorthand_property_identifier", "shorthand_property_identifier_pattern",
    "private_property_identifier", "namespace_identifier", "simple_identifier", "constant",
    "package_identifier", "statement_identifier", "name", "word", NULL
  };
  static const char * const calls[] = {
    "call_expression", "call", "method_invocation", "invocation_expression",
    "function_call_expression", "member_call_expression", "scoped_call_expression",
    "nullsafe_member_call_expression", "macro_invocation", "object_creation_expression",
    "new_expression", "explicit_constructor_invocation", "constructor_invocation", NULL
  };
  static const char * const members[] = {
    "field_expression", "member_expression", "selector_expression", "attribute",
    "scoped_identifier", "member_access_expression", "navigation_expression",
    "navigation_suffix", "qualified_identifier", "field_access", "scoped_property_access_expression",
    "class_constant_access_expression", "qualified_name", "generic_function", NULL
  };
  static const char * const imports[] = {
    "import_statement", "import_from_statement", "import_declaration", "import_spec",
    "import_header", "use_declaration", "namespace_use_declaration", "using_directive",
    "preproc_include", "package_clause", "package_declaration", "package_header",
    "future_import_statement", NULL
  };
  Grammar *grammar;

  g_mutex_lock (&grammars_lock);
  if (grammars == NULL)
    grammars = g_hash_table_new (NULL, NULL);
  grammar = g_hash_table_lookup (grammars, ts_language);
  if (grammar == NULL)
    {
      grammar = g_new0 (Grammar, 1);
      grammar->ts_language = ts_language;
      grammar->n_symbols = ts_language_symbol_count (ts_language);
      grammar->role = g_new0 (guint8, grammar->n_symbols);
      for (TSSymbol s = 0; s < grammar->n_symbols; s++)
        {
          const char *name = ts_language_symbol_name (ts_language, s);

          if (ts_language_symbol_type (ts_language, s) != TSSymbolTypeRegular)
            continue;
          if (g_strv_contains (identifiers, name))
            grammar->role[s] |= ROLE_IDENTIFIER;
          if (strcmp (name, "type_identifier") == 0)
            grammar->role[s] |= ROLE_TYPE_NAME;
          if (g_strv_contains (calls, name))
            grammar->role[s] |= ROLE_CALL;
          if (strcmp (name, "object_creation_expression") == 0 ||
              strcmp (name, "new_expression") == 0)
            grammar->role[s] |= ROLE_NEW;
          if (g_strv_contains (members, name))
            grammar->role[s] |= ROLE_MEMBER;
          if (g_strv_contains (imports, name))
            grammar->role[s] |= ROLE_IMPORT;
          if (strcmp (name, "preproc_arg") == 0)
            grammar->role[s] |= ROLE_MACRO_TEXT;
          if ((g_str_has_suffix (name, "_type") && strcmp (name, "function_type") != 0) ||
              name_has_word (name, "type_annotation") || name_has_word (name, "type_arguments") ||
              strcmp (name, "type") == 0 || strcmp (name, "type_list") == 0 ||
              strcmp (name, "superclass") == 0 || strcmp (name, "super_interfaces") == 0 ||
              strcmp (name, "base_clause") == 0 || strcmp (name, "base_class_clause") == 0 ||
              strcmp (name, "base_list") == 0 || strcmp (name, "class_heritage") == 0 ||
              strcmp (name, "extends_clause") == 0 || strcmp (name, "implements_clause") == 0 ||
              strcmp (name, "class_interface_clause") == 0 ||
              strcmp (name, "delegation_specifier") == 0 ||
              strcmp (name, "inheritance_specifier") == 0 ||
              strcmp (name, "type_descriptor") == 0 || strcmp (name, "generic_name") == 0 ||
              strcmp (name, "type_constraint") == 0 || strcmp (name, "trait_bounds") == 0)
            grammar->role[s] |= ROLE_TYPE_CTX;
        }
#define FIELD(member, name) \
      grammar->member = ts_language_field_id_for_name (ts_language, name, strlen (name))
      FIELD (field_function, "function");
      FIELD (field_method, "method");
      FIELD (field_name, "name");
      FIELD (field_macro, "macro");
      FIELD (field_constructor, "constructor");
      FIELD (field_type, "type");
      FIELD (field_return_type, "return_type");
      FIELD (field_result, "result");
      FIELD (field_returns, "returns");
      FIELD (field_property, "property");
      FIELD (field_field, "field");
      FIELD (field_attribute, "attribute");
      FIELD (field_superclass, "superclass");
#undef FIELD
      g_hash_table_insert (grammars, (gpointer) ts_language, grammar);
    }
  g_mutex_unlock (&grammars_lock);

  return grammar;
}

static gboolean
is_field (TSFieldId field_id,
          TSFieldId wanted)
{
  return wanted != 0 && field_id == wanted;
}

/* Whether the node at @depth of the path is the callee of a call: the call's function,
 * method or name, directly or as the last part of a member access (a.b.f(), s->ops->f(),
 * Foo::bar()). */
static gboolean
is_callee (const Grammar   *g,
           const TSSymbol  *symbols,
           const TSFieldId *fields,
           guint            depth)
{
  for (guint up = 0; up < 3 && depth >= up + 1; up++)
    {
      guint d = depth - up;
      TSSymbol parent = symbols[d - 1];
      TSFieldId f = fields[d];

      if (parent < g->n_symbols && (g->role[parent] & ROLE_CALL))
        {
          if (g->role[parent] & ROLE_NEW)
            return TRUE;
          return is_field (f, g->field_function) || is_field (f, g->field_method) ||
                 is_field (f, g->field_name) || is_field (f, g->field_macro) ||
                 is_field (f, g->field_constructor) || f == 0;
        }
      if (parent >= g->n_symbols || !(g->role[parent] & ROLE_MEMBER))
        return FALSE;
      /* In a member access only the last part is called: s->f (), not s. */
      if (up == 0 && !(is_field (f, g->field_field) || is_field (f, g->field_property) ||
                       is_field (f, g->field_attribute) || is_field (f, g->field_name) || f == 0))
        return FALSE;
    }
  return FALSE;
}

/* C and C++ macro bodies: identifiers outside strings, character literals and comments. */
static void
lex_macro_text (LodeSymbolExtractor *self,
                guint32              start,
                guint32              end,
                guint                line,
                LodeReferences      *references)
{
  const char *p = self->text + start;
  const char *stop = self->text + MIN (end, self->len);

  while (p < stop)
    {
      if (*p == '\n')
        {
          line++;
          p++;
        }
      else if (*p == '"' || *p == '\'')
        {
          char quote = *p++;

          while (p < stop && *p != quote && *p != '\n')
            p += (*p == '\\' && p + 1 < stop) ? 2 : 1;
          p++;
        }
      else if (p + 1 < stop && p[0] == '/' && p[1] == '*')
        {
          const char *close = g_strstr_len (p + 2, stop - p - 2, "*/");

          for (const char *q = p; q < (close != NULL ? close : stop); q++)
            line += *q == '\n';
          p = close != NULL ? close + 2 : stop;
        }
      else if (p + 1 < stop && p[0] == '/' && p[1] == '/')
        {
          while (p < stop && *p != '\n')
            p++;
        }
      else if (g_ascii_isalpha (*p) || *p == '_')
        {
          const char *word = p;
          const char *after;

          while (p < stop && (g_ascii_isalnum (*p) || *p == '_'))
            p++;
          for (after = p; after < stop && (*after == ' ' || *after == '\t'); after++)
            ;
          if (p - word >= MIN_NAME_BYTES && p - word <= MAX_NAME_BYTES)
            lode_references_add (references, word, p - word, line,
                                 after < stop && *after == '(' ? LODE_REFERENCE_CALL
                                                               : LODE_REFERENCE_USE);
        }
      else if (g_ascii_isdigit (*p))
        {
          while (p < stop && (g_ascii_isalnum (*p) || *p == '_' || *p == '.'))
            p++;
        }
      else
        p++;
    }
}

/**
 * lode_symbol_extractor_add_references:
 * @self: a #LodeSymbolExtractor
 * @def_names: (element-type guint32): the start bytes of the file's declaration names, sorted
 * @references: where to add the identifiers
 *
 * Lists every identifier of the file with its role. Names shorter than two bytes are left
 * out: `i` and `x` are everywhere and nobody looks them up.
 */
void
lode_symbol_extractor_add_references (LodeSymbolExtractor *self,
                                      GArray              *def_names,
                                      LodeReferences      *references)
{
  const Grammar *g = self->grammar;
  const guint32 *names = (const guint32 *) (gpointer) def_names->data;
  guint next_name = 0;
  TSSymbol symbols[MAX_DEPTH];
  TSFieldId fields[MAX_DEPTH];
  guint import_depth = G_MAXUINT;
  guint depth = 0;
  TSTreeCursor cursor;

  if (g == NULL)
    return;

  cursor = ts_tree_cursor_new (self->root);
  for (;;)
    {
      TSNode node = ts_tree_cursor_current_node (&cursor);
      TSSymbol symbol = ts_node_symbol (node);
      guint8 role = symbol < g->n_symbols ? g->role[symbol] : 0;
      gboolean descend = TRUE;

      symbols[depth] = symbol;
      /* Finding a node's field is not free; only the roles below need it. */
      fields[depth] = role != 0 ? ts_tree_cursor_current_field_id (&cursor) : 0;

      if ((role & ROLE_IMPORT) && import_depth == G_MAXUINT)
        import_depth = depth;

      if ((role & ROLE_IDENTIFIER) && ts_node_child_count (node) == 0)
        {
          guint32 start = ts_node_start_byte (node);
          guint32 end = MIN (ts_node_end_byte (node), self->len);
          LodeReferenceKind kind;

          /* Identifiers come in file order, as the sorted names do. */
          while (next_name < def_names->len && names[next_name] < start)
            next_name++;
          if (end > start && end - start >= MIN_NAME_BYTES && end - start <= MAX_NAME_BYTES)
            {
              if (import_depth != G_MAXUINT)
                kind = LODE_REFERENCE_IMPORT;
              else if ((next_name < def_names->len && names[next_name] == start))
                kind = LODE_REFERENCE_DEFINITION;
              else if (is_callee (g, symbols, fields, depth))
                kind = LODE_REFERENCE_CALL;
              else if ((role & ROLE_TYPE_NAME) ||
                       (depth > 0 && symbols[depth - 1] < g->n_symbols &&
                        (g->role[symbols[depth - 1]] & ROLE_TYPE_CTX)) ||
                       is_field (fields[depth], g->field_type) ||
                       is_field (fields[depth], g->field_return_type) ||
                       is_field (fields[depth], g->field_result) ||
                       is_field (fields[depth], g->field_returns) ||
                       is_field (fields[depth], g->field_superclass))
                kind = LODE_REFERENCE_TYPE;
              else
                kind = LODE_REFERENCE_USE;
              lode_references_add (references, self->text + start, end - start,
                                   ts_node_start_point (node).row + 1, kind);
            }
          descend = FALSE;
        }
      else if (role & ROLE_MACRO_TEXT)
        {
          lex_macro_text (self, ts_node_start_byte (node), ts_node_end_byte (node),
                          ts_node_start_point (node).row + 1, references);
          descend = FALSE;
        }

      if (descend && depth + 1 < MAX_DEPTH && ts_tree_cursor_goto_first_child (&cursor))
        {
          depth++;
          continue;
        }
      while (!ts_tree_cursor_goto_next_sibling (&cursor))
        {
          if (!ts_tree_cursor_goto_parent (&cursor))
            goto done;
          depth--;
          if (import_depth != G_MAXUINT && depth < import_depth)
            import_depth = G_MAXUINT;
        }
      if (import_depth != G_MAXUINT && depth <= import_depth)
        import_depth = G_MAXUINT;
    }
done:
  ts_tree_cursor_delete (&cursor);
}

/* Life cycle -------------------------------------------------------------------------- */

/**
 * lode_symbol_extractor_new:
 * @language: the file's language
 * @text: the file's text
 * @len: its length
 * @root: the root of its parse
 *
 * Returns: (transfer full): an extractor for one file, valid while @text and the tree live
 */
LodeSymbolExtractor *
lode_symbol_extractor_new (const LodeLanguage *language,
                           const char         *text,
                           gsize               len,
                           TSNode              root)
{
  LodeSymbolExtractor *self = g_new0 (LodeSymbolExtractor, 1);

  self->language = language;
  self->lang = lang_for (language->id);
  self->text = text;
  self->len = len;
  self->root = root;
  self->grammar = language->ts_language != NULL ? grammar_for (language->ts_language ())
                                                 : NULL;
  self->package = declared_package (self);
  if (self->lang == LANG_PHP)
    read_php_uses (self);

  return self;
}

void
lode_symbol_extractor_free (LodeSymbolExtractor *self)
{
  if (self == NULL)
    return;

  g_free (self->package);
  g_clear_pointer (&self->php_uses, g_hash_table_unref);
  g_free (self);
}

/**
 * lode_symbol_extractor_get_package:
 * @self: a #LodeSymbolExtractor
 *
 * Returns: (nullable): the package or namespace the whole file declares
 */
const char *
lode_symbol_extractor_get_package (LodeSymbolExtractor *self)
{
  return self->package;
}

const char *
lode_symbol_extractor_get_separator (LodeSymbolExtractor *self)
{
  return lode_symbol_separator_for_language (self->language->id);
}
