/* lode-calls-walk.c — the walk over a file's parse that finds its call sites
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-calls"

#include "config.h"

#include <string.h>

#include "lode-calls-private.h"

/*
 * Runs on the chunker's thread, on the tree the chunker parsed: nothing is parsed twice.
 *
 * One walk over the tree, in file order, with the chunker's definitions entered and left as
 * the walk passes their byte ranges: the innermost function or method around a call is its
 * caller. Each function has a scope of the names its parameters and locals declare, with
 * the type the code states (`Foo x`, `x: Foo`, `let x: Foo`) or the call whose result they
 * hold (`x = Foo()`, `let x = X::new()`, `x := NewT()`); a call's receiver is looked up
 * there, so only the receiver's answer is kept, not every local. What needs other files
 * (imports, fields, base classes, return types) is kept as bindings for the resolver
 * (lode-calls-bindings.c).
 *
 * The grammars differ in node names far more than in shape, so a call is taken apart by
 * the names of its fields (function, method, name, object, receiver, …) rather than by a
 * query per language: one walk finds calls, declarations and imports together, where a
 * query cursor would visit every node again for each. Calls the grammar does not see —
 * inside C and C++ macro bodies, inside Rust macro arguments — are read from the text with
 * a small lexer.
 */

static void
leave_defs (Walk    *w,
            guint32  byte)
{
  while (w->frames->len > 0)
    {
      Frame *frame = &g_array_index (w->frames, Frame, w->frames->len - 1);

      if (ts_node_end_byte (w->defs[frame->def]) > byte)
        break;
      g_clear_pointer (&frame->scope, _lode_calls_scope_free);
      g_array_set_size (w->frames, w->frames->len - 1);
    }
}

static void
enter_defs (Walk    *w,
            guint32  byte)
{
  leave_defs (w, byte);
  while (w->next < w->n_defs && ts_node_start_byte (w->defs[w->order[w->next]]) <= byte)
    {
      guint def = w->order[w->next++];
      Frame frame = { def, NULL };

      if (ts_node_end_byte (w->defs[def]) <= byte)
        continue;
      leave_defs (w, ts_node_start_byte (w->defs[def]));
      if (_lode_calls_kind_is_function (w->kinds[def]))
        frame.scope = _lode_calls_scope_new (_lode_calls_scope (w));
      g_array_append_val (w->frames, frame);
      _lode_calls_visit_decorated (w, def);
      _lode_calls_enter_def (w, def);
    }
}

/* Callees ----------------------------------------------------------------------------- */

static gboolean
is_name_node (TSNode node)
{
  static const char * const names[] = {
    "identifier", "field_identifier", "property_identifier", "simple_identifier", "name",
    "constant", "type_identifier", "private_property_identifier", "shorthand_property_identifier",
    NULL
  };

  return type_in (node, names);
}

/* The receiver of a member node and its called name, by the fields the grammars use. */
static gboolean
split_member (TSNode  node,
              TSNode *object,
              TSNode *name)
{
  static const char * const objects[] = {
    "argument", "value", "object", "operand", "expression", "target", "receiver", "scope",
    "path", NULL
  };
  static const char * const names[] = {
    "field", "property", "attribute", "name", "suffix", "method", NULL
  };

  *object = null_node ();
  *name = null_node ();
  if (is_type (node, "navigation_expression") && ts_node_is_null (field (node, "target")))
    {
      /* Kotlin: (navigation_expression EXPR (navigation_suffix NAME)) */
      *object = nth_named (node, 0);
      *name = child_of_type (child_of_type (node, "navigation_suffix"), "simple_identifier");
      return !ts_node_is_null (*name);
    }
  for (guint i = 0; objects[i] != NULL && ts_node_is_null (*object); i++)
    *object = field (node, objects[i]);
  for (guint i = 0; names[i] != NULL && ts_node_is_null (*name); i++)
    *name = field (node, names[i]);
  if (is_type (*name, "navigation_suffix"))
    *name = field (*name, "suffix");
  if (is_type (*name, "generic_name"))
    *name = nth_named (*name, 0);
  return !ts_node_is_null (*name);
}

/* The leftmost part of a receiver: `a` of `a.b.c`, `f()` of `f().b`. */
static TSNode
leftmost (TSNode node)
{
  for (guint depth = 0; depth < 16 && !ts_node_is_null (node); depth++)
    {
      TSNode object, name;

      if (is_type (node, "parenthesized_expression") && n_named (node) == 1)
        node = nth_named (node, 0);
      else if (is_type (node, "navigation_expression") || is_type (node, "field_expression") ||
               is_type (node, "member_expression") || is_type (node, "selector_expression") ||
               is_type (node, "attribute") || is_type (node, "member_access_expression") ||
               is_type (node, "scoped_identifier") || is_type (node, "qualified_identifier") ||
               is_type (node, "member_access_expression") ||
               is_type (node, "scoped_property_access_expression"))
        {
          if (!split_member (node, &object, &name) || ts_node_is_null (object))
            return node;
          node = object;
        }
      else
        return node;
    }
  return node;
}

static gboolean
is_self_text (const char *text)
{
  static const char * const selves[] = {
    "self", "this", "$this", "Self", "static", "cls", "super", "parent", NULL
  };

  return g_strv_contains (selves, text);
}

/* What the code states of the receiver @qualifier's leftmost part. */
static void
describe_receiver (Walk         *w,
                   LodeCallSite *site,
                   TSNode        qualifier)
{
  TSNode first = leftmost (qualifier);
  g_autofree char *text = NULL;
  const Local *local;
  LodeCallReceiver kind;
  char *type = NULL;

  if (ts_node_is_null (first))
    return;
  if (_lode_calls_value_type (w, first, &kind, &type))
    {
      site->receiver_kind = kind;
      site->receiver = type;
      return;
    }
  text = _lode_calls_squeeze (w, ts_node_start_byte (first), ts_node_end_byte (first));
  if (text == NULL)
    return;
  if (is_self_text (text) || text[0] == '@')
    {
      site->receiver_kind = LODE_CALL_RECEIVER_SELF;
      return;
    }
  local = _lode_calls_scope_lookup (_lode_calls_scope (w), text);
  if (local != NULL && local->kind != LODE_CALL_RECEIVER_UNKNOWN)
    {
      site->receiver_kind = local->kind;
      site->receiver = g_strdup (local->type);
    }
}

/* Strips what joins a qualifier to the name: `.`, `->`, `::`, `?.`, `\`, `!.`. */
static void
trim_separator (char *qualifier)
{
  gsize n = strlen (qualifier);

  while (n > 0 && strchr (".:->?!\\", qualifier[n - 1]) != NULL)
    qualifier[--n] = '\0';
}

static void
emit (Walk          *w,
      TSNode         name,
      TSNode         qualifier,
      guint32        qualifier_start,
      LodeCallFlags  flags)
{
  LodeCallSite *site;
  char *text = _lode_calls_squeeze (w, ts_node_start_byte (name), ts_node_end_byte (name));
  char *qual = NULL;

  if (text == NULL || !_lode_calls_is_word_byte (text[0]))
    {
      g_free (text);
      return;
    }
  if (text[0] == '$' && w->x->lang == LANG_PHP)
    memmove (text, text + 1, strlen (text));
  if (qualifier_start < ts_node_start_byte (name))
    {
      qual = _lode_calls_squeeze (w, qualifier_start, ts_node_start_byte (name));
      if (qual != NULL)
        trim_separator (qual);
      if (qual != NULL && *qual == '\0')
        g_clear_pointer (&qual, g_free);
      if (qual == NULL && !(flags & LODE_CALL_SCOPED))
        qual = g_strdup ("?");
    }
  if (qual == NULL && !(flags & LODE_CALL_NEW))
    {
      const Local *local = _lode_calls_scope_lookup (_lode_calls_scope (w), text);

      if (local != NULL)
        flags |= LODE_CALL_LOCAL;
    }
  site = _lode_calls_add_site (w->calls, text, qual, ts_node_start_point (name).row + 1,
                               _lode_calls_caller (w), flags);
  if (!ts_node_is_null (qualifier) && (flags & LODE_CALL_MEMBER))
    describe_receiver (w, site, qualifier);
}

/* A callee expression → the called name, its qualifier and how it is called. */
static void
visit_callee (Walk          *w,
              TSNode         callee,
              LodeCallFlags  flags)
{
  guint32 start = ts_node_start_byte (callee);

  for (guint depth = 0; depth < 8 && !ts_node_is_null (callee); depth++)
    {
      TSNode object, name;
      const char *type = ts_node_type (callee);

      if (is_name_node (callee))
        {
          emit (w, callee, null_node (), start, flags);
          return;
        }
      if (strcmp (type, "parenthesized_expression") == 0 && n_named (callee) == 1)
        {
          callee = nth_named (callee, 0);
          start = ts_node_start_byte (callee);
        }
      else if (strcmp (type, "generic_function") == 0)
        callee = field (callee, "function");
      else if (!ts_node_is_null (field (callee, "rhs")))
        {
          /* tree-sitter-swift reads `n * f(x)` as `(n * f)(x)`: the call is of f. */
          callee = field (callee, "rhs");
          start = ts_node_start_byte (callee);
        }
      else if (strcmp (type, "template_function") == 0 || strcmp (type, "template_method") == 0)
        callee = field (callee, "name");
      else if (strcmp (type, "generic_name") == 0 || strcmp (type, "user_type") == 0)
        callee = nth_named (callee, 0);
      else if (strcmp (type, "qualified_identifier") == 0 ||
               strcmp (type, "scoped_identifier") == 0)
        {
          flags |= LODE_CALL_SCOPED;
          callee = field (callee, "name");
        }
      else if (strcmp (type, "qualified_name") == 0)
        {
          flags |= LODE_CALL_SCOPED;
          callee = child_of_type (callee, "name");
        }
      else if (split_member (callee, &object, &name))
        {
          if (ts_node_is_null (object))
            return;
          /* Rust `Type::f` and C++ `A::f` are paths; every other access has a receiver. */
          if (!(flags & LODE_CALL_SCOPED))
            flags |= LODE_CALL_MEMBER;
          emit (w, name, object, start, flags);
          return;
        }
      else
        return;
    }
}

/* The handlers the entries step found in the node just visited, read as callees: each
 * that is one call site becomes the entry point of that name. */
static void
visit_handlers (Walk *w)
{
  for (guint i = 0; i < w->handlers->len; i++)
    {
      const Handler *handler = &g_array_index (w->handlers, Handler, i);
      guint before = w->calls->sites->len;
      LodeCallSite *site;

      visit_callee (w, handler->value, LODE_CALL_REGISTRATION);
      if (w->calls->sites->len != before + 1)
        continue;
      site = g_ptr_array_index (w->calls->sites, before);
      lode_calls_add_binding (w->calls, LODE_CALL_BINDING_ENTRY, -1, handler->label,
                              handler->reason, site->name, site->line);
    }
  g_array_set_size (w->handlers, 0);
}

static void
handler_clear (gpointer data)
{
  Handler *handler = data;

  g_clear_pointer (&handler->label, g_free);
}

static void
visit_call (Walk   *w,
            TSNode  node,
            Lang    lang)
{
  TSNode callee, object;

  callee = field (node, "function");
  if (!ts_node_is_null (callee))
    {
      visit_callee (w, callee, 0);
      return;
    }

  /* Calls whose callee is split over fields of the call itself. */
  callee = field (node, "name");
  if (ts_node_is_null (callee))
    callee = field (node, "method");
  if (!ts_node_is_null (callee))
    {
      object = field (node, "object");
      if (ts_node_is_null (object))
        object = field (node, "receiver");
      if (!ts_node_is_null (object))
        {
          emit (w, callee, object, ts_node_start_byte (object), LODE_CALL_MEMBER);
          return;
        }
      object = field (node, "scope");
      if (!ts_node_is_null (object))
        {
          emit (w, callee, object, ts_node_start_byte (object), LODE_CALL_SCOPED);
          return;
        }
      /* Ruby: a bare `foo` is a call only with arguments or a block, else a local. */
      if (lang == LANG_RUBY && is_type (node, "identifier"))
        return;
      emit (w, callee, null_node (), ts_node_start_byte (callee), 0);
      return;
    }

  /* Kotlin and Swift: (call_expression CALLEE (call_suffix …)). */
  if (n_named (node) >= 2 && is_type (nth_named (node, 1), "call_suffix"))
    visit_callee (w, nth_named (node, 0), 0);
}

static void
visit_new (Walk   *w,
           TSNode  node)
{
  TSNode type = field (node, "constructor");

  if (ts_node_is_null (type))
    type = field (node, "type");
  if (ts_node_is_null (type))
    type = child_in (node, (const char * const []) {
                       "name", "qualified_name", "identifier", "type_identifier",
                       "scoped_type_identifier", "generic_type", "member_expression", NULL });
  if (is_type (type, "generic_type"))
    type = nth_named (type, 0);
  if (is_type (type, "scoped_type_identifier"))
    {
      TSNode name = field (type, "name");

      if (!ts_node_is_null (name))
        emit (w, name, null_node (), ts_node_start_byte (type), LODE_CALL_NEW | LODE_CALL_SCOPED);
      return;
    }
  if (!ts_node_is_null (type))
    visit_callee (w, type, LODE_CALL_NEW);
}

/* Macro text ------------------------------------------------------------------------- */

static gboolean
is_keyword (const char *word,
            gsize       len)
{
  static const char * const keywords[] = {
    "if", "while", "for", "switch", "return", "sizeof", "defined", "typeof", "__typeof__",
    "alignof", "_Alignof", "__alignof__", "__attribute__", "__builtin_offsetof", "offsetof",
    "do", "else", "case", "match", "loop", "in", "as", "fn", "move", "async", "await",
    "__VA_ARGS__", "_Generic", "__extension__", "__asm__", "asm", "static_assert",
    "_Static_assert", "decltype", "noexcept", "catch", "throw", "new", "delete", "not",
    "and", "or", NULL
  };

  for (guint i = 0; keywords[i] != NULL; i++)
    if (strlen (keywords[i]) == len && memcmp (keywords[i], word, len) == 0)
      return TRUE;
  return FALSE;
}

/* Calls in text the grammar leaves unparsed: an identifier followed by `(`. Strings,
 * characters and comments are skipped; `name!(` (a Rust macro) is not a call. */
static void
lex_calls (Walk    *w,
           guint32  start,
           guint32  end,
           guint    line)
{
  const char *text = w->x->text;
  guint32 p = start;
  gint caller = _lode_calls_caller (w);

  end = MIN (end, w->x->len);
  while (p < end)
    {
      char c = text[p];

      if (c == '\n')
        {
          line++;
          p++;
        }
      else if (c == '"')
        {
          for (p++; p < end && text[p] != '"' && text[p] != '\n'; p++)
            if (text[p] == '\\')
              p++;
          p++;
        }
      else if (c == '\'' && p + 2 < end && (text[p + 2] == '\'' ||
                                            (text[p + 1] == '\\' && p + 3 < end)))
        {
          for (p++; p < end && text[p] != '\'' && text[p] != '\n'; p++)
            if (text[p] == '\\')
              p++;
          p++;
        }
      else if (c == '/' && p + 1 < end && text[p + 1] == '*')
        {
          for (p += 2; p + 1 < end && !(text[p] == '*' && text[p + 1] == '/'); p++)
            line += text[p] == '\n';
          p += 2;
        }
      else if (c == '/' && p + 1 < end && text[p + 1] == '/')
        {
          while (p < end && text[p] != '\n')
            p++;
        }
      else if (g_ascii_isalpha (c) || c == '_')
        {
          guint32 word = p, after, before = p;
          LodeCallFlags flags = 0;
          g_autofree char *qualifier = NULL;

          while (p < end && (g_ascii_isalnum (text[p]) || text[p] == '_'))
            p++;
          for (after = p; after < end && (text[after] == ' ' || text[after] == '\t'); after++)
            ;
          if (after >= end || text[after] != '(' || is_keyword (text + word, p - word))
            continue;
          while (before > start && (text[before - 1] == ' ' || text[before - 1] == '\t'))
            before--;
          if (before > start && (text[before - 1] == '.' ||
                                 (before > start + 1 && text[before - 1] == '>' &&
                                  text[before - 2] == '-')))
            {
              flags = LODE_CALL_MEMBER | LODE_CALL_MACRO_TEXT;
              qualifier = g_strdup ("?");
            }
          else if (before > start + 1 && text[before - 1] == ':' && text[before - 2] == ':')
            {
              guint32 q = before - 2;

              while (q > start && (_lode_calls_is_word_byte (text[q - 1]) || text[q - 1] == ':'))
                q--;
              flags = LODE_CALL_SCOPED | LODE_CALL_MACRO_TEXT;
              qualifier = q < before - 2 ? g_strndup (text + q, before - 2 - q) : NULL;
            }
          else
            flags = LODE_CALL_MACRO_TEXT;
          _lode_calls_add_site (w->calls, g_strndup (text + word, p - word),
                                g_steal_pointer (&qualifier), line, caller, flags);
        }
      else if (g_ascii_isdigit (c))
        {
          while (p < end && (g_ascii_isalnum (text[p]) || text[p] == '_' || text[p] == '.'))
            p++;
        }
      else
        p++;
    }
}

/* Grammar tables ---------------------------------------------------------------------- */

typedef enum
{
  ACT_NONE,
  ACT_CALL,
  ACT_NEW,
  ACT_MACRO_CALL,    /* Rust: its arguments are tokens */
  ACT_MACRO_TEXT,    /* C, C++: a macro's body */
  ACT_BINDING,       /* declarations, imports: lode-calls-bindings.c */
  ACT_RUBY_NAME,     /* Ruby: a bare name that no local declares is a method call */
  ACT_TABLE_ROW,     /* C, C++: an initializer list, maybe a row of a table of commands */
} Action;

typedef struct
{
  const TSLanguage *ts_language;
  guint             n_symbols;
  guint8           *actions;
} Table;

static GMutex tables_lock;
static GHashTable *tables;   /* TSLanguage → Table, never freed */

static const Table *
table_for (const TSLanguage *ts_language,
           Lang              lang)
{
  static const struct { const char *type; Action action; } entries[] = {
    { "call_expression", ACT_CALL }, { "call", ACT_CALL }, { "method_invocation", ACT_CALL },
    { "invocation_expression", ACT_CALL }, { "function_call_expression", ACT_CALL },
    { "member_call_expression", ACT_CALL }, { "nullsafe_member_call_expression", ACT_CALL },
    { "scoped_call_expression", ACT_CALL },
    { "new_expression", ACT_NEW }, { "object_creation_expression", ACT_NEW },
    { "macro_invocation", ACT_MACRO_CALL }, { "preproc_arg", ACT_MACRO_TEXT },
    /* Declarations and imports: lode-calls-bindings.c takes them apart. */
    { "parameter_declaration", ACT_BINDING }, { "formal_parameter", ACT_BINDING },
    { "parameter", ACT_BINDING }, { "required_parameter", ACT_BINDING },
    { "optional_parameter", ACT_BINDING }, { "typed_parameter", ACT_BINDING },
    { "typed_default_parameter", ACT_BINDING }, { "default_parameter", ACT_BINDING },
    { "simple_parameter", ACT_BINDING }, { "property_promotion_parameter", ACT_BINDING },
    { "class_parameter", ACT_BINDING }, { "formal_parameters", ACT_BINDING },
    { "parameters", ACT_BINDING }, { "method_parameters", ACT_BINDING },
    { "lambda_parameters", ACT_BINDING }, { "block_parameters", ACT_BINDING },
    { "declaration", ACT_BINDING }, { "local_variable_declaration", ACT_BINDING },
    { "variable_declaration", ACT_BINDING }, { "short_var_declaration", ACT_BINDING },
    { "var_spec", ACT_BINDING }, { "let_declaration", ACT_BINDING },
    { "variable_declarator", ACT_BINDING }, { "assignment", ACT_BINDING },
    { "assignment_expression", ACT_BINDING }, { "property_declaration", ACT_BINDING },
    { "field_declaration", ACT_BINDING }, { "public_field_definition", ACT_BINDING },
    { "import_statement", ACT_BINDING }, { "import_from_statement", ACT_BINDING },
    { "import_declaration", ACT_BINDING }, { "import_spec", ACT_BINDING },
    { "use_declaration", ACT_BINDING }, { "namespace_use_declaration", ACT_BINDING },
    { "using_directive", ACT_BINDING }, { "using_declaration", ACT_BINDING },
    { "import_header", ACT_BINDING }, { "export_statement", ACT_BINDING },
    { "enhanced_for_statement", ACT_BINDING }, { "catch_formal_parameter", ACT_BINDING },
    { "for_range_loop", ACT_BINDING }, { "mod_item", ACT_BINDING },
    { "preproc_def", ACT_BINDING }, { "initializer_list", ACT_TABLE_ROW },
  };
  Table *table;

  g_mutex_lock (&tables_lock);
  if (tables == NULL)
    tables = g_hash_table_new (NULL, NULL);
  table = g_hash_table_lookup (tables, ts_language);
  if (table == NULL)
    {
      table = g_new0 (Table, 1);
      table->ts_language = ts_language;
      table->n_symbols = ts_language_symbol_count (ts_language);
      table->actions = g_new0 (guint8, table->n_symbols);
      for (TSSymbol s = 0; s < table->n_symbols; s++)
        {
          const char *name = ts_language_symbol_name (ts_language, s);

          if (ts_language_symbol_type (ts_language, s) != TSSymbolTypeRegular)
            continue;
          for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
            if (strcmp (name, entries[i].type) == 0)
              table->actions[s] = entries[i].action;
          if (lang == LANG_RUBY && strcmp (name, "identifier") == 0)
            table->actions[s] = ACT_RUBY_NAME;
        }
      g_hash_table_insert (tables, (gpointer) ts_language, table);
    }
  g_mutex_unlock (&tables_lock);
  return table;
}

/* The walk ---------------------------------------------------------------------------- */

/* The directive a line holds (`if`, `ifdef`, `endif`…) and its argument, or FALSE. */
static gboolean
directive (const char  *line,
           const char  *end,
           const char **word,
           gsize       *word_len,
           const char **arg)
{
  const char *p = line;

  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (p >= end || *p != '#')
    return FALSE;
  for (p++; p < end && (*p == ' ' || *p == '\t'); p++)
    ;
  *word = p;
  while (p < end && g_ascii_isalpha (*p))
    p++;
  *word_len = p - *word;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  *arg = p;
  return TRUE;
}

static gboolean
word_is (const char *word,
         gsize       len,
         const char *what)
{
  return strlen (what) == len && memcmp (word, what, len) == 0;
}

/* The name @arg tests for absence, `#ifndef X`, `#if !defined(X)` or `#if !defined X`:
 * its length, 0 for another condition. */
static gsize
negated_name (const char  *word,
              gsize        len,
              const char  *arg,
              const char  *stop,
              const char **name)
{
  const char *p = arg;
  gsize n = 0;

  if (word_is (word, len, "if"))
    {
      if (p >= stop || *p != '!')
        return 0;
      for (p++; p < stop && (*p == ' ' || *p == '\t'); p++)
        ;
      if (stop - p < 7 || memcmp (p, "defined", 7) != 0)
        return 0;
      for (p += 7; p < stop && (*p == ' ' || *p == '\t' || *p == '('); p++)
        ;
    }
  else if (!word_is (word, len, "ifndef"))
    return 0;
  while (p + n < stop && (g_ascii_isalnum (p[n]) || p[n] == '_'))
    n++;
  *name = p;
  return n;
}

/* A line that leaves an include-once block what it is: blank, a comment, an `#include`. */
static gboolean
keeps_include_once (const char *p,
                    const char *stop)
{
  const char *word, *arg;
  gsize len;

  while (p < stop && g_ascii_isspace (*p))
    p++;
  if (p == stop || (stop - p >= 2 && (memcmp (p, "//", 2) == 0 || memcmp (p, "/*", 2) == 0)))
    return TRUE;
  return directive (p, stop, &word, &len, &arg) && word_is (word, len, "include");
}

typedef struct
{
  guint    line;          /* where it starts; 0: always compiled; G_MAXUINT: a guard yet */
  gboolean include_once;  /* `#ifndef X` around `#include`s only, so far */
} Block;

/* C and C++: the line ranges of `#if` blocks, read from the text (a confused parse must not
 * move them). What these hold is always compiled, so they are left out: include guards
 * (`#ifndef X` or `#if !defined(X)`, then `#define X`), `#ifdef __cplusplus` (around
 * `extern "C" {`), and a test for absence around nothing but includes (decNumber.h's `#if
 * !defined(DECCONTEXT) #include "decContext.h" #endif`, an include made once). */
static void
scan_conditionals (Walk *w)
{
  const char *text = w->x->text, *end = text + w->x->len;
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (Block));
  const char *guard = NULL;
  gsize guard_len = 0;
  guint line = 1;

  for (const char *p = text; p < end; line++)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *stop = eol != NULL ? eol : end;
      const char *word, *arg, *name = NULL;
      gsize len;
      gboolean is_directive = directive (p, stop, &word, &len, &arg);

      if (is_directive)
        {
          gsize arg_len = 0;
          gsize name_len = negated_name (word, len, arg, stop, &name);

          while (arg + arg_len < stop && (g_ascii_isalnum (arg[arg_len]) || arg[arg_len] == '_'))
            arg_len++;
          if (word_is (word, len, "if") || word_is (word, len, "ifdef") ||
              word_is (word, len, "ifndef"))
            {
              Block block = { line, name_len > 0 };

              if (g_strstr_len (arg, stop - arg, "__cplusplus") != NULL)
                block.line = 0;
              else if (name_len > 0 && open->len == 0 && guard == NULL)
                {
                  guard = name;
                  guard_len = name_len;
                  block.line = G_MAXUINT;   /* a guard if a `#define` of it follows */
                }
              g_array_append_val (open, block);
            }
          else if (word_is (word, len, "define") && open->len == 1 &&
                   g_array_index (open, Block, 0).line == G_MAXUINT)
            g_array_index (open, Block, 0).line = (arg_len == guard_len &&
                                                   memcmp (arg, guard, arg_len) == 0) ? 0 : line;
          else if (word_is (word, len, "endif") && open->len > 0)
            {
              Block block = g_array_index (open, Block, open->len - 1);

              g_array_set_size (open, open->len - 1);
              if (block.line != 0 && block.line != G_MAXUINT && !block.include_once)
                {
                  guint range[2] = { block.line, line };

                  g_array_append_vals (w->calls->conditional, range, 2);
                }
            }
        }
      if (open->len > 0 && !(is_directive && name != NULL) &&
          g_array_index (open, Block, open->len - 1).include_once &&
          !keeps_include_once (p, stop))
        g_array_index (open, Block, open->len - 1).include_once = FALSE;
      if (open->len == 1 && g_array_index (open, Block, 0).line == G_MAXUINT &&
          (is_directive ? !(name != NULL && p <= name) : p < stop))
        /* Something else came first: no guard. */
        g_array_index (open, Block, 0).line = line;
      p = eol != NULL ? eol + 1 : end;
    }
}

/* Ruby: `total` alone, in a method, is a call of self's `total` unless a local or a
 * parameter of that name was declared before. */
static void
ruby_name (Walk         *w,
           TSTreeCursor *cursor,
           TSNode        node)
{
  static const char * const declaring[] = {
    "method", "singleton_method", "class", "module", "method_parameters",
    "lambda_parameters", "block_parameters", "optional_parameter", "keyword_parameter",
    "splat_parameter", "hash_splat_parameter", "block_parameter", "exception_variable",
    "pair", "alias", "undef", "for", "destructured_left_assignment", "left_assignment_list",
    "call", "scope_resolution", NULL
  };
  TSNode up = parent (node);
  const char *f = ts_tree_cursor_current_field_name (cursor);
  g_autofree char *text = NULL;

  if (_lode_calls_scope (w) == NULL || type_in (up, declaring))
    return;
  if (f != NULL && (strcmp (f, "left") == 0 || strcmp (f, "name") == 0))
    return;
  text = _lode_calls_squeeze (w, ts_node_start_byte (node), ts_node_end_byte (node));
  if (text == NULL || _lode_calls_scope_lookup (_lode_calls_scope (w), text) != NULL)
    return;
  _lode_calls_add_site (w->calls, g_steal_pointer (&text), NULL,
                        ts_node_start_point (node).row + 1, _lode_calls_caller (w), 0);
}

/* Visits the cursor's node and what lies below it: for the call sites while @calls, for the
 * references (w->refs) while @refs; where one stops going down the other goes on alone. */
static void
visit (Walk         *w,
       const Table  *table,
       TSTreeCursor *cursor,
       guint         depth,
       gboolean      calls,
       gboolean      refs)
{
  TSNode node = ts_tree_cursor_current_node (cursor);
  TSSymbol symbol = ts_node_symbol (node);
  Action action = symbol < table->n_symbols ? table->actions[symbol] : ACT_NONE;
  gboolean descend = TRUE;
  gboolean refs_descend = FALSE;

  if (depth >= MAX_DEPTH)
    return;
  if (calls && w->spent)
    calls = FALSE;
  else if (calls && ++w->steps % LODE_PARSE_BUDGET_WALK_STEPS == 0 &&
           lode_parse_budget_spent (w->budget))
    {
      w->spent = TRUE;
      calls = FALSE;
    }
  if (!calls && !refs)
    return;

  if (refs)
    refs_descend = _lode_reference_walk_enter (w->refs, cursor, node, symbol, depth);

  if (calls)
    {
      enter_defs (w, ts_node_start_byte (node));

      switch (action)
        {
        case ACT_CALL:
          visit_call (w, node, w->x->lang);
          _lode_calls_visit_registration (w, node);
          visit_handlers (w);
          break;
        case ACT_TABLE_ROW:
          _lode_calls_visit_table_row (w, node);
          visit_handlers (w);
          break;
        case ACT_NEW:
          visit_new (w, node);
          break;
        case ACT_MACRO_CALL:
          {
            TSNode args = child_of_type (node, "token_tree");

            if (!ts_node_is_null (args))
              lex_calls (w, ts_node_start_byte (args), ts_node_end_byte (args),
                         ts_node_start_point (args).row + 1);
            descend = FALSE;
          }
          break;
        case ACT_MACRO_TEXT:
          if (is_type (parent (node), "preproc_function_def"))
            lex_calls (w, ts_node_start_byte (node), ts_node_end_byte (node),
                       ts_node_start_point (node).row + 1);
          descend = FALSE;
          break;
        case ACT_BINDING:
          descend = _lode_calls_visit_binding (w, node, ts_node_type (node));
          break;
        case ACT_RUBY_NAME:
          ruby_name (w, cursor, node);
          break;
        case ACT_NONE:
        default:
          break;
        }
    }

  if (((calls && descend) || refs_descend) && ts_tree_cursor_goto_first_child (cursor))
    {
      do
        visit (w, table, cursor, depth + 1, calls && descend, refs_descend);
      while ((refs_descend || (calls && descend && !w->spent)) &&
             ts_tree_cursor_goto_next_sibling (cursor));
      ts_tree_cursor_goto_parent (cursor);
    }

  if (refs)
    _lode_reference_walk_leave (w->refs, depth);
}

typedef struct
{
  guint32 start;
  guint32 end;
  guint   index;
} Span;

static gint
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const Span *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  /* Same start: the outer one first. */
  if (x->end != y->end)
    return x->end > y->end ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/**
 * lode_calls_extract_tree:
 * @language: the file's language
 * @root: the root of the chunker's parse
 * @text: the file's text
 * @len: its length
 * @definitions: (array length=n_definitions): the nodes of the file's definitions, in the
 *   order of its symbols
 * @kinds: (array length=n_definitions): their kinds ("function", "class", …)
 * @n_definitions: how many
 * @budget: (nullable): the file's parse budget, which the walk shares
 * @def_names: (nullable) (element-type guint32): with @references, the start bytes of the
 *   file's declaration names, sorted
 * @macro_calls: (nullable) (element-type LodeSymbolSite): with @references, names called
 *   that the parse does not hold (see lode_symbol_extractor_add_references())
 * @references: (nullable): where to add the file's references on the same walk, as
 *   lode_symbol_extractor_add_references() lists them (all of them, even when the budget
 *   stops the calls), or %NULL
 *
 * Lists the call sites of a file and what resolving them needs (see #LodeCalls). Callers
 * are given as indices into @definitions. One walk of the parse serves both the calls and,
 * if asked, the references, which would otherwise take a walk of their own. A language
 * without call extraction (see lode_calls_supported()) gets neither.
 *
 * Returns: (transfer full) (nullable): the calls, or %NULL when the budget ran out
 */
LodeCalls *
lode_calls_extract_tree (const LodeLanguage    *language,
                         TSNode                 root,
                         const char            *text,
                         gsize                  len,
                         const TSNode          *definitions,
                         const char * const    *kinds,
                         guint                  n_definitions,
                         const LodeParseBudget *budget,
                         GArray                *def_names,
                         GArray                *macro_calls,
                         LodeReferences        *references)
{
  g_autoptr(LodeSymbolExtractor) extractor = NULL;
  g_autoptr(LodeCalls) calls = lode_calls_new ();
  g_autofree guint *order = g_new (guint, MAX (n_definitions, 1));
  g_autofree Span *spans = NULL;
  TSTreeCursor cursor;
  ReferenceWalk refs;
  Walk w = { 0 };

  g_return_val_if_fail (language != NULL, NULL);
  g_return_val_if_fail (text != NULL || len == 0, NULL);
  g_return_val_if_fail (definitions != NULL || n_definitions == 0, NULL);

  if (!lode_calls_supported (language))
    return g_steal_pointer (&calls);

  extractor = lode_symbol_extractor_new (language, text, len, root);
  spans = g_new (Span, MAX (n_definitions, 1));
  for (guint i = 0; i < n_definitions; i++)
    spans[i] = (Span) { ts_node_start_byte (definitions[i]), ts_node_end_byte (definitions[i]),
                        i };
  qsort (spans, n_definitions, sizeof (Span), compare_spans);
  for (guint i = 0; i < n_definitions; i++)
    order[i] = spans[i].index;

  w.x = extractor;
  w.calls = calls;
  w.defs = definitions;
  w.kinds = kinds;
  w.n_defs = n_definitions;
  w.order = order;
  w.frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  w.handlers = g_array_new (FALSE, FALSE, sizeof (Handler));
  g_array_set_clear_func (w.handlers, handler_clear);
  w.budget = budget;

  if (extractor->lang == LANG_C || extractor->lang == LANG_CPP)
    scan_conditionals (&w);
  cursor = ts_tree_cursor_new (root);
  if (references != NULL)
    {
      w.refs = &refs;
      _lode_reference_walk_init (&refs, extractor, def_names, macro_calls, references);
    }
  visit (&w, table_for (language->ts_language (), extractor->lang), &cursor, 0, TRUE,
         references != NULL);
  ts_tree_cursor_delete (&cursor);
  if (references != NULL)
    _lode_reference_walk_finish (&refs);
  leave_defs (&w, G_MAXUINT32);
  g_array_unref (w.frames);
  g_array_unref (w.handlers);

  if (w.spent)
    return NULL;
  return g_steal_pointer (&calls);
}
