/* lode-symbol-extract-private.h — what the parts of the symbol extractor share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include "lode-symbol-extract.h"

G_BEGIN_DECLS

/*
 * The extractor is split by what it reads: lode-symbol-extract.c describes a declaration and
 * lists references, lode-symbol-signature.c reads modifiers, parameters and return types,
 * lode-symbol-members.c a class's fields and relations and the text of doc comments,
 * lode-symbol-php.c what only PHP has (`use` statements, Laravel/Eloquent models).
 * lode-symbol-extract.c calls the parts, never the other way round. The node and text
 * helpers below are small and used everywhere, so they are inline here.
 */

#define TEXT_MAX        200
#define DEFAULT_MAX     80
#define MAX_ITEMS       200
#define MAX_DEPTH       512
#define MIN_NAME_BYTES  2
#define MAX_NAME_BYTES  128
#define DOC_MAX         1024

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

/* Per grammar, computed once (lode-symbol-extract.c). */
typedef struct _Grammar Grammar;

struct _LodeSymbolExtractor
{
  const LodeLanguage *language;
  Lang                lang;
  const char         *text;
  gsize               len;
  TSNode              root;
  const Grammar      *grammar;
  const guint8       *modifier_roles;  /* per TSSymbol of the grammar: MODIFIER_* bits */
  guint               n_symbols;
  gboolean            sibling_attributes;  /* the grammar has a MODIFIER_ATTRIBUTE type */
  char               *package;
  GHashTable         *php_uses;     /* PHP: alias → full name, from `use` statements */
};

/* What a node's type is to a declaration's modifiers (_lode_symbol_modifier_role()), read by
 * its grammar symbol rather than by comparing its type's name with each of the list's. */
enum
{
  MODIFIER_NODE      = 1 << 0,  /* a node whose words are modifiers (`public static`) */
  MODIFIER_TOKEN     = 1 << 1,  /* a keyword a grammar leaves as an anonymous token */
  MODIFIER_ATTRIBUTE = 1 << 2,  /* an attribute that precedes a declaration as a sibling */
};

static inline guint
modifier_role (LodeSymbolExtractor *self,
               TSNode               node)
{
  TSSymbol symbol = ts_node_symbol (node);

  return symbol < self->n_symbols ? self->modifier_roles[symbol] : 0;
}

/* A walk of the parse that lists references (lode-symbol-extract.c), for
 * lode_symbol_extractor_add_references() and the call sites' walk (lode-calls-walk.c). */
typedef struct
{
  LodeSymbolExtractor *x;
  const guint32       *names;         /* the declarations' name bytes, sorted */
  guint                n_names;
  guint                next_name;
  GArray              *calls;         /* LodeSymbolSite, nullable */
  guint                next_call;
  LodeReferences      *references;
  guint                import_depth;  /* of the import the walk is in, or G_MAXUINT */
  TSSymbol             symbols[MAX_DEPTH];  /* the path from the root */
  TSFieldId            fields[MAX_DEPTH];
} ReferenceWalk;

void     _lode_reference_walk_init   (ReferenceWalk       *walk,
                                      LodeSymbolExtractor *self,
                                      GArray              *def_names,
                                      GArray              *calls,
                                      LodeReferences      *references);
gboolean _lode_reference_walk_enter  (ReferenceWalk       *walk,
                                      TSTreeCursor        *cursor,
                                      TSNode               node,
                                      TSSymbol             symbol,
                                      guint                depth);
void     _lode_reference_walk_leave  (ReferenceWalk       *walk,
                                      guint                depth);
void     _lode_reference_walk_finish (ReferenceWalk       *walk);

/* Helpers ----------------------------------------------------------------------------- */

typedef struct
{
  TSTreeCursor cursor;
  TSNode       node;
  const char  *field;
  guint        started : 1;
  guint        done : 1;
} Iter;

static inline void
iter_init (Iter   *it,
           TSNode  node)
{
  it->started = FALSE;
  it->done = ts_node_is_null (node);
  if (!it->done)
    it->cursor = ts_tree_cursor_new (node);
}

static inline void
iter_clear (Iter *it)
{
  if (!it->done)
    ts_tree_cursor_delete (&it->cursor);
  it->done = TRUE;
}

/* Every child, named or not, with its field name. */
static inline gboolean
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

static inline gboolean
is_type (TSNode      node,
         const char *type)
{
  return !ts_node_is_null (node) && strcmp (ts_node_type (node), type) == 0;
}

static inline gboolean
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

static inline TSNode
null_node (void)
{
  TSNode node = { 0 };

  return node;
}

/* Tree-sitter's accessors crash on a null node; these answer nothing. */
static inline TSNode
field (TSNode      node,
       const char *name)
{
  if (ts_node_is_null (node))
    return node;
  return lode_node_child_by_field (node, name);
}

static inline TSNode
parent (TSNode node)
{
  return ts_node_is_null (node) ? node : ts_node_parent (node);
}

static inline uint32_t
n_named (TSNode node)
{
  return ts_node_is_null (node) ? 0 : ts_node_named_child_count (node);
}

static inline TSNode
nth_named (TSNode   node,
           uint32_t i)
{
  return i < n_named (node) ? ts_node_named_child (node, i) : null_node ();
}

static inline TSNode
next_named (TSNode node)
{
  return ts_node_is_null (node) ? node : ts_node_next_named_sibling (node);
}

static inline TSNode
prev_named (TSNode node)
{
  return ts_node_is_null (node) ? node : ts_node_prev_named_sibling (node);
}

static inline TSNode
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

static inline TSNode
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
static inline char *
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

static inline char *
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

static inline char *
text_of (LodeSymbolExtractor *self,
         TSNode               node)
{
  if (ts_node_is_null (node))
    return NULL;
  return text_range (self, ts_node_start_byte (node), ts_node_end_byte (node), TEXT_MAX);
}

static inline gboolean
text_equals (LodeSymbolExtractor *self,
             TSNode               node,
             const char          *str)
{
  guint32 start = ts_node_start_byte (node), end = MIN (ts_node_end_byte (node), self->len);
  gsize n = strlen (str);

  return end >= start && end - start == n && memcmp (self->text + start, str, n) == 0;
}

/* A type as written, without the `:` of an annotation. */
static inline char *
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

/* lode-symbol-details.c: the details' JSON, written with calls like a JsonBuilder's. */
typedef struct
{
  GString    *out;
  GArray     *levels;   /* DetailsLevel */
  GArray     *keys;     /* DetailsKey, of the objects being written */
  const char *member;   /* the name the next value of an object takes */
} DetailsJson;

void  _lode_details_init              (DetailsJson *json);
void  _lode_details_clear             (DetailsJson *json);
char *_lode_details_steal             (DetailsJson *json);
void  _lode_details_begin_object      (DetailsJson *json);
void  _lode_details_end_object        (DetailsJson *json);
void  _lode_details_begin_array       (DetailsJson *json);
void  _lode_details_end_array         (DetailsJson *json);
void  _lode_details_set_member_name   (DetailsJson *json,
                                       const char  *member);
void  _lode_details_add_string_value  (DetailsJson *json,
                                       const char  *value);
void  _lode_details_add_int_value     (DetailsJson *json,
                                       gint64       value);
void  _lode_details_add_boolean_value (DetailsJson *json,
                                       gboolean     value);
void  _lode_details_add_json          (DetailsJson *json,
                                       const char  *text);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (DetailsJson, _lode_details_clear)

static inline void
add_string (DetailsJson *builder,
            const char  *member,
            const char  *value)
{
  if (value == NULL)
    return;
  _lode_details_set_member_name (builder, member);
  _lode_details_add_string_value (builder, value);
}

/* Stored details leave false out: the report reads a missing member as false. */
static inline void
add_bool (DetailsJson *builder,
          const char  *member,
          gboolean     value)
{
  if (!value)
    return;
  _lode_details_set_member_name (builder, member);
  _lode_details_add_boolean_value (builder, TRUE);
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

static inline void
modifiers_clear (Modifiers *mods)
{
  g_free (mods->visibility);
  g_clear_pointer (&mods->tags, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Modifiers, modifiers_clear)

#define MODIFIERS_INIT(self) \
  { (self)->lang == LANG_SWIFT, NULL, FALSE, FALSE, FALSE, FALSE, \
    g_ptr_array_new_with_free_func (g_free) }

typedef struct
{
  char *name;
  char *type;
  char *value;
} Param;

static inline void
param_clear (Param *param)
{
  g_free (param->name);
  g_free (param->type);
  g_free (param->value);
}

static inline char *
default_text (LodeSymbolExtractor *self,
              TSNode               node)
{
  if (ts_node_is_null (node))
    return NULL;
  return text_range (self, ts_node_start_byte (node), ts_node_end_byte (node), DEFAULT_MAX);
}

/* lode-symbol-signature.c */
void        _lode_symbol_collect_modifiers            (LodeSymbolExtractor  *self,
                                                       TSNode                node,
                                                       Modifiers            *mods);
char       *_lode_symbol_section_visibility           (LodeSymbolExtractor  *self,
                                                       TSNode                node);
TSNode      _lode_symbol_declarator_name              (TSNode                node);
char       *_lode_symbol_c_type_around                (LodeSymbolExtractor  *self,
                                                       TSNode                decl,
                                                       TSNode                name,
                                                       TSNode                skip);
TSNode      _lode_symbol_type_child                   (TSNode                node,
                                                       TSNode                after);
void        _lode_symbol_read_parameter               (LodeSymbolExtractor  *self,
                                                       TSNode                node,
                                                       Param                *param);
void        _lode_symbol_add_parameters               (LodeSymbolExtractor  *self,
                                                       DetailsJson          *builder,
                                                       TSNode                node);
void        _lode_symbol_add_returns                  (LodeSymbolExtractor  *self,
                                                       DetailsJson          *builder,
                                                       TSNode                node);
void        _lode_symbol_collect_preceding_attributes (LodeSymbolExtractor  *self,
                                                       TSNode                node,
                                                       Modifiers            *mods);
guint       _lode_symbol_modifier_role                (const char           *type);

/* A member of a class body, with its doc's summary. */
typedef struct
{
  TSNode  node;
  char   *doc;
} Member;

/* lode-symbol-members.c */
char       *_lode_symbol_clean_doc                    (LodeSymbolExtractor  *self,
                                                       const char           *doc);
GArray     *_lode_symbol_body_members                 (LodeSymbolExtractor  *self,
                                                       TSNode                body);
void        _lode_symbol_member_clear                 (Member               *member);
const char *_lode_symbol_default_member_visibility    (LodeSymbolExtractor  *self,
                                                       TSNode                class_node);
TSNode      _lode_symbol_class_body                   (LodeSymbolExtractor  *self,
                                                       TSNode                node);
void        _lode_symbol_add_fields                   (LodeSymbolExtractor  *self,
                                                       DetailsJson          *builder,
                                                       TSNode                class_node,
                                                       TSNode                body,
                                                       GArray               *members);
void        _lode_symbol_add_relations                (LodeSymbolExtractor  *self,
                                                       DetailsJson          *builder,
                                                       TSNode                node,
                                                       TSNode                body);

/* lode-symbol-php.c */
char       *_lode_symbol_php_full_name                (LodeSymbolExtractor  *self,
                                                       const char           *name);
gboolean    _lode_symbol_php_is_model                 (LodeSymbolExtractor  *self,
                                                       TSNode                class_node);
const char *_lode_symbol_php_model_method_kind        (LodeSymbolExtractor  *self,
                                                       TSNode                method,
                                                       char                **attribute,
                                                       gboolean             *has_set);
void        _lode_symbol_add_orm                      (LodeSymbolExtractor  *self,
                                                       DetailsJson          *builder,
                                                       const char           *class_name,
                                                       TSNode                body);
void        _lode_symbol_add_orm_relations            (LodeSymbolExtractor  *self,
                                                       DetailsJson          *builder,
                                                       TSNode                body);
void        _lode_symbol_read_php_uses                (LodeSymbolExtractor  *self);

G_END_DECLS
