/* lode-symbol-extract.c — symbol details and references from a file's parse
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-doc-comment.h"
#include "lode-symbol-extract-private.h"

/*
 * Runs on the chunker's thread, on the tree the chunker parsed: nothing is parsed twice.
 *
 * Details. For each declaration the chunker found, a small JSON object with what the chunk
 * query does not give: parameters (name, type, default), return types, visibility and
 * modifiers, the Go receiver, constructors, accessors and mutators; for classes, structs,
 * interfaces, traits and enums their fields, relations (extends, implements, uses, embeds)
 * and tags (annotations, decorators, attributes, modifiers); for Laravel/Eloquent models
 * their table, mass-assignment lists, casts, scopes, relationships and attributes. A
 * description is the summary of a doc comment, its first paragraph on one line
 * (lode_doc_comment_summary()), for the declaration and for each field and method. Keys:
 *
 *   kind, description, selection {start_line, start_column, end_line,
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

/* Members of an interface that are not declarations of their own: Go's method_elem,
 * TypeScript's method signatures. */
static void
add_signature_methods (LodeSymbolExtractor *self,
                       DetailsJson         *builder,
                       GArray              *members)
{
  _lode_details_set_member_name (builder, "methods");
  _lode_details_begin_array (builder);
  for (guint i = 0; i < members->len; i++)
    {
      const Member *m = &g_array_index (members, Member, i);
      TSNode member = m->node;
      g_autofree char *name = NULL;
      g_autofree char *signature = NULL;

      if (!is_type (member, "method_elem") && !is_type (member, "method_signature"))
        continue;
      name = text_of (self, field (member, "name"));
      signature = text_of (self, member);
      _lode_details_begin_object (builder);
      add_string (builder, "name", name);
      add_string (builder, "signature", signature);
      add_string (builder, "description", m->doc);
      _lode_symbol_add_parameters (self, builder, member);
      _lode_symbol_add_returns (self, builder, member);
      _lode_details_end_object (builder);
    }
  _lode_details_end_array (builder);
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
               DetailsJson         *builder,
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
  _lode_details_set_member_name (builder, "selection");
  _lode_details_begin_array (builder);
  _lode_details_add_int_value (builder, start.row + 1);
  _lode_details_add_int_value (builder, start.column + 1);
  _lode_details_add_int_value (builder, end.row + 1);
  _lode_details_add_int_value (builder, end.column + 1);
  _lode_details_end_array (builder);
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
      /* Not `pub(crate)`, `pub(super)`, `pub(in path)`: visible in the crate only. */
      return strcmp (visibility, "pub") == 0 || strcmp (visibility, "public") == 0;
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
        return _lode_symbol_default_member_visibility (self, parent (parent (node)));
      return self->lang == LANG_CSHARP ? "internal" : "package";
    case LANG_CPP:
      {
        TSNode list = parent (node);

        if (is_type (list, "field_declaration_list"))
          return _lode_symbol_default_member_visibility (self, parent (list));
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

      if (is_type (class_node, "class_declaration") &&
          _lode_symbol_php_is_model (self, class_node) &&
          (kind = _lode_symbol_php_model_method_kind (self, node, &attribute, &has_set)) != NULL)
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
add_tags (DetailsJson     *builder,
          const Modifiers *mods)
{
  if (mods->tags->len == 0)
    return;
  _lode_details_set_member_name (builder, "tags");
  _lode_details_begin_array (builder);
  for (guint i = 0; i < mods->tags->len; i++)
    _lode_details_add_string_value (builder, g_ptr_array_index (mods->tags, i));
  _lode_details_end_array (builder);
}

static void
describe_function (LodeSymbolExtractor *self,
                   DetailsJson         *builder,
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

  _lode_symbol_add_parameters (self, builder, node);
  _lode_symbol_add_returns (self, builder, node);
}

static void
describe_class (LodeSymbolExtractor *self,
                DetailsJson         *builder,
                const LodeSymbolDef *def,
                TSNode               node)
{
  TSNode body = _lode_symbol_class_body (self, node);
  g_autoptr(GArray) members = _lode_symbol_body_members (self, body);
  gboolean model = self->lang == LANG_PHP && is_type (node, "class_declaration") &&
                   _lode_symbol_php_is_model (self, node);
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

  _lode_symbol_add_fields (self, builder, node, body, members);
  _lode_symbol_add_relations (self, builder, node, body);
  if (self->lang == LANG_GO)
    {
      g_autoptr(GArray) elements = _lode_symbol_body_members (self, field (node, "type"));

      add_signature_methods (self, builder, elements);
    }
  else
    add_signature_methods (self, builder, members);
  if (model)
    {
      /* The relations array is closed; relationships go to their own list. */
      _lode_details_set_member_name (builder, "relationships");
      _lode_details_begin_array (builder);
      _lode_symbol_add_orm_relations (self, builder, body);
      _lode_details_end_array (builder);
      _lode_symbol_add_orm (self, builder, def->name, body);
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
  g_auto(DetailsJson) details = { NULL };
  DetailsJson *builder = &details;
  g_auto(Modifiers) mods = MODIFIERS_INIT (self);
  g_autofree char *section = NULL;
  g_autofree char *description = NULL;
  TSNode node = unwrap (self, def->node);
  const char *visibility;

  _lode_details_init (builder);
  _lode_details_begin_object (builder);
  if (def->doc != NULL)
    {
      g_autofree char *doc = _lode_symbol_clean_doc (self, def->doc);

      description = lode_doc_comment_summary (doc, DOC_MAX);
    }
  add_string (builder, "description", description);
  add_selection (self, builder, def->node, def->name_byte);

  /* Modifiers may sit on the wrapper (decorators, export) and on the declaration. */
  if (!ts_node_eq (node, def->node))
    _lode_symbol_collect_modifiers (self, def->node, &mods);
  _lode_symbol_collect_modifiers (self, node, &mods);
  if (self->lang == LANG_CPP || self->lang == LANG_C)
    {
      /* `double area () const override`: the qualifiers follow the parameters. */
      TSNode declarator = field (node, "declarator");

      for (guint depth = 0; depth < 8 && !ts_node_is_null (declarator); depth++)
        {
          if (is_type (declarator, "function_declarator"))
            {
              _lode_symbol_collect_modifiers (self, declarator, &mods);
              break;
            }
          declarator = field (declarator, "declarator");
        }
    }
  _lode_symbol_collect_preceding_attributes (self, def->node, &mods);
  section = _lode_symbol_section_visibility (self, def->node);
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
  _lode_details_end_object (builder);

  return _lode_details_steal (builder);
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

/* References -------------------------------------------------------------------------- */

/* Which node types play which part in references. */
struct _Grammar
{
  const TSLanguage *ts_language;
  guint             n_symbols;
  guint8           *role;        /* per TSSymbol: ROLE_* bits */
  guint8           *modifier_role;  /* per TSSymbol: MODIFIER_* bits, named or not */
  gboolean          sibling_attributes;
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
};

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
      grammar->modifier_role = g_new0 (guint8, grammar->n_symbols);
      for (TSSymbol s = 0; s < grammar->n_symbols; s++)
        {
          const char *name = ts_language_symbol_name (ts_language, s);

          grammar->modifier_role[s] = _lode_symbol_modifier_role (name);
          if (grammar->modifier_role[s] & MODIFIER_ATTRIBUTE)
            grammar->sibling_attributes = TRUE;
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

/* Adds the @calls from index @next on that start before @before; returns the next one. */
static guint
add_calls_before (LodeSymbolExtractor *self,
                  GArray              *calls,
                  guint                next,
                  guint32              before,
                  LodeReferences      *references)
{
  for (; calls != NULL && next < calls->len; next++)
    {
      const LodeSymbolSite *site = &g_array_index (calls, LodeSymbolSite, next);
      guint32 end = MIN (site->end_byte, self->len);

      if (site->start_byte >= before)
        break;
      if (end > site->start_byte && end - site->start_byte >= MIN_NAME_BYTES &&
          end - site->start_byte <= MAX_NAME_BYTES)
        lode_references_add (references, self->text + site->start_byte,
                             end - site->start_byte, site->line, LODE_REFERENCE_CALL);
    }
  return next;
}

/**
 * _lode_reference_walk_init:
 * @walk: the walk's state
 * @self: a #LodeSymbolExtractor
 * @def_names: (element-type guint32): the start bytes of the file's declaration names, sorted
 * @calls: (nullable) (element-type LodeSymbolSite): names called that the parse does not hold,
 *   in file order
 * @references: where to add the identifiers
 *
 * Starts listing references along a walk of @self's parse that calls
 * _lode_reference_walk_enter() on each node in document order, as long as the last call
 * asked to descend, and _lode_reference_walk_leave() when it is done with a node and what
 * lies below it; _lode_reference_walk_finish() ends it. The walk of
 * lode_symbol_extractor_add_references() is one; the call sites' walk of the same parse
 * (lode-calls-walk.c) lists references on its way.
 */
void
_lode_reference_walk_init (ReferenceWalk       *walk,
                           LodeSymbolExtractor *self,
                           GArray              *def_names,
                           GArray              *calls,
                           LodeReferences      *references)
{
  walk->x = self;
  walk->names = (const guint32 *) (gpointer) def_names->data;
  walk->n_names = def_names->len;
  walk->next_name = 0;
  walk->calls = calls;
  walk->next_call = 0;
  walk->references = references;
  walk->import_depth = G_MAXUINT;
}

/* Lists the cursor's node, @node of @symbol, if it is an identifier (or a macro's text);
 * whether the walk is to go down into it. The walk that moves the cursor has read the node
 * already. */
gboolean
_lode_reference_walk_enter (ReferenceWalk *walk,
                            TSTreeCursor  *cursor,
                            TSNode         node,
                            TSSymbol       symbol,
                            guint          depth)
{
  LodeSymbolExtractor *self = walk->x;
  const Grammar *g = self->grammar;
  guint8 role;

  if (g == NULL)
    return FALSE;

  role = symbol < g->n_symbols ? g->role[symbol] : 0;
  walk->symbols[depth] = symbol;
  /* Finding a node's field is not free; only the roles below need it. */
  walk->fields[depth] = role != 0 ? ts_tree_cursor_current_field_id (cursor) : 0;

  if ((role & ROLE_IMPORT) && walk->import_depth == G_MAXUINT)
    walk->import_depth = depth;

  if ((role & ROLE_IDENTIFIER) && ts_node_child_count (node) == 0)
    {
      guint32 start = ts_node_start_byte (node);
      guint32 end = MIN (ts_node_end_byte (node), self->len);
      LodeReferenceKind kind;

      /* Identifiers come in file order, as the sorted names and calls do. */
      while (walk->next_name < walk->n_names && walk->names[walk->next_name] < start)
        walk->next_name++;
      walk->next_call = add_calls_before (self, walk->calls, walk->next_call, start,
                                          walk->references);
      if (end > start && end - start >= MIN_NAME_BYTES && end - start <= MAX_NAME_BYTES)
        {
          const TSSymbol *symbols = walk->symbols;
          const TSFieldId *fields = walk->fields;

          if (walk->import_depth != G_MAXUINT)
            kind = LODE_REFERENCE_IMPORT;
          else if (walk->next_name < walk->n_names && walk->names[walk->next_name] == start)
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
          lode_references_add (walk->references, self->text + start, end - start,
                               ts_node_start_point (node).row + 1, kind);
        }
      return FALSE;
    }
  if (role & ROLE_MACRO_TEXT)
    {
      lex_macro_text (self, ts_node_start_byte (node), ts_node_end_byte (node),
                      ts_node_start_point (node).row + 1, walk->references);
      return FALSE;
    }
  return TRUE;
}

/* The walk is done with the node at @depth and everything below it. */
void
_lode_reference_walk_leave (ReferenceWalk *walk,
                            guint          depth)
{
  if (walk->import_depth != G_MAXUINT && depth <= walk->import_depth)
    walk->import_depth = G_MAXUINT;
}

void
_lode_reference_walk_finish (ReferenceWalk *walk)
{
  if (walk->x->grammar == NULL)
    return;
  add_calls_before (walk->x, walk->calls, walk->next_call, G_MAXUINT32, walk->references);
}

/**
 * lode_symbol_extractor_add_references:
 * @self: a #LodeSymbolExtractor
 * @def_names: (element-type guint32): the start bytes of the file's declaration names, sorted
 * @calls: (nullable) (element-type LodeSymbolSite): names called that the parse does not hold
 *   (the invocations of Rust macros whose items the chunker parsed as items), in file order
 * @references: where to add the identifiers
 *
 * Lists every identifier of the file with its role. Names shorter than two bytes are left
 * out: `i` and `x` are everywhere and nobody looks them up.
 */
void
lode_symbol_extractor_add_references (LodeSymbolExtractor *self,
                                      GArray              *def_names,
                                      GArray              *calls,
                                      LodeReferences      *references)
{
  ReferenceWalk walk;
  guint depth = 0;
  TSTreeCursor cursor;

  if (self->grammar == NULL)
    return;

  _lode_reference_walk_init (&walk, self, def_names, calls, references);
  cursor = ts_tree_cursor_new (self->root);
  for (;;)
    {
      TSNode node = ts_tree_cursor_current_node (&cursor);

      if (_lode_reference_walk_enter (&walk, &cursor, node, ts_node_symbol (node), depth) &&
          depth + 1 < MAX_DEPTH && ts_tree_cursor_goto_first_child (&cursor))
        {
          depth++;
          continue;
        }
      for (;;)
        {
          _lode_reference_walk_leave (&walk, depth);
          if (ts_tree_cursor_goto_next_sibling (&cursor))
            break;
          if (!ts_tree_cursor_goto_parent (&cursor))
            goto done;
          /* The cursor went down from the root as many times as depth counts. */
          g_assert (depth > 0);
          depth--;
        }
    }
done:
  ts_tree_cursor_delete (&cursor);
  _lode_reference_walk_finish (&walk);
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
  if (self->grammar != NULL)
    {
      self->modifier_roles = self->grammar->modifier_role;
      self->n_symbols = self->grammar->n_symbols;
      self->sibling_attributes = self->grammar->sibling_attributes;
    }
  self->package = declared_package (self);
  if (self->lang == LANG_PHP)
    _lode_symbol_read_php_uses (self);

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
