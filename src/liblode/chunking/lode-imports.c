/* lode-imports.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-imports"

#include "config.h"

#include <string.h>

#include <gio/gio.h>

#include "lode-error.h"
#include "lode-imports.h"
#include "lode-imports-private.h"

/* Imports come from tree-sitter queries kept as data, `queries/<language>/imports.scm`. Each
 * pattern captures the node that names the import as `@import.<kind>` (the kinds of
 * #LodeImportKind, with `_` for `-`) and, for Python's `from a import b`, the imported name as
 * `@name`. Some captures need code: `@import.use` is a Rust use tree, expanded into one
 * import per leaf (`@import.<kind>.use` gives its leaves that kind: `pub use` re-exports);
 * `@import.selectors` a Scala import declaration, its path joined with '.' and its selectors
 * expanded; `@import.wildcard` a Java/Kotlin-style `a.b.*`; `@prefix` the common part of a
 * PHP group use, joined to the specifier with a backslash; `@at` the node that stands for
 * the import when patterns are compared (a Rust `#[path]` attribute replaces the plain `mod`
 * it applies to). Captures starting with `_` only serve predicates (`#eq?`,
 * `#not-eq?`, `#any-of?`, `#match?`). When several patterns capture the same node, the first
 * pattern wins, so specific patterns go first.
 *
 * Languages without a grammar in liblode (CSS/SCSS/Less, HTML with Vue and Svelte single-file
 * components, Dart) have small scanners in lode-imports-scan.c. */

#define PARSE_TIMEOUT_USEC   (3 * G_USEC_PER_SEC)
#define MAX_USE_TREE_DEPTH   32

/* Scanned languages: no grammar in liblode, imports found by lode-imports-scan.c. */
static gboolean
is_scanned (const LodeLanguage *language)
{
  return strcmp (language->id, "css") == 0 || strcmp (language->id, "html") == 0 ||
         strcmp (language->id, "dart") == 0;
}

/**
 * lode_imports_supported:
 * @language: a #LodeLanguage
 *
 * Returns: %TRUE if imports are extracted from files of @language
 */
gboolean
lode_imports_supported (const LodeLanguage *language)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (language != NULL, FALSE);

  if (is_scanned (language))
    return TRUE;

  return language->ts_language != NULL &&
         lode_language_get_import_query (language, &error) != NULL;
}

typedef struct
{
  guint32     spec_byte;
  guint32     sub_byte;
  guint       pattern;
  LodeImport *import;
} Found;

typedef enum
{
  ROLE_NONE,
  ROLE_IMPORT,
  ROLE_USE_TREE,
  ROLE_SELECTORS,
  ROLE_WILDCARD,
  ROLE_NAME,
  ROLE_PREFIX,
  ROLE_AT,
} Role;

typedef struct
{
  const char            *text;
  gsize                  len;
  guint                  line_offset;
  GArray                *found;
  const LodeParseBudget *budget;
  gboolean               spent;    /* the budget ran out during a query */
} Ctx;

static char *
node_text (const Ctx *ctx,
           TSNode     node)
{
  guint32 start = MIN (ts_node_start_byte (node), ctx->len);
  guint32 end = MIN (ts_node_end_byte (node), ctx->len);

  return g_strndup (ctx->text + start, end - start);
}

static char *
node_specifier (const Ctx *ctx,
                TSNode     node)
{
  guint32 start = MIN (ts_node_start_byte (node), ctx->len);
  guint32 end = MIN (ts_node_end_byte (node), ctx->len);

  return _lode_imports_clean_specifier (ctx->text + start, end - start);
}

static void
add_found (Ctx            *ctx,
           TSNode          spec_node,
           guint32         sub_byte,
           guint           pattern,
           char           *specifier,
           const char     *name,
           LodeImportKind  kind)
{
  Found found;

  if (specifier == NULL)
    return;

  found.spec_byte = ts_node_start_byte (spec_node);
  found.sub_byte = sub_byte;
  found.pattern = pattern;
  found.import = lode_import_new (specifier, name, kind,
                                  ts_node_start_point (spec_node).row + 1 + ctx->line_offset);
  g_array_append_val (ctx->found, found);
  g_free (specifier);
}

/* Where a Rust import is written: the inline modules around it (`mod a { mod b { … } }` →
 * "a::b", NULL at a file's top level), which the resolver needs for `mod x;` and `super`,
 * and the inline modules declared beside it, whose paths name no crate. */
typedef struct
{
  char      *scope;
  GPtrArray *locals;
} RustScope;

static void
rust_scope_clear (RustScope *scope)
{
  g_clear_pointer (&scope->scope, g_free);
  g_clear_pointer (&scope->locals, g_ptr_array_unref);
}

static void
rust_scope_init (RustScope *scope,
                 const Ctx *ctx,
                 TSNode     node)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  TSNode container = { 0 };

  scope->scope = NULL;
  scope->locals = g_ptr_array_new_with_free_func (g_free);

  for (TSNode p = ts_node_parent (node); !ts_node_is_null (p); p = ts_node_parent (p))
    {
      const char *type = ts_node_type (p);
      gboolean items = strcmp (type, "declaration_list") == 0;

      if (ts_node_is_null (container) &&
          (items || strcmp (type, "source_file") == 0 || strcmp (type, "block") == 0))
        container = p;
      if (items && strcmp (ts_node_type (ts_node_parent (p)), "mod_item") == 0)
        {
          TSNode name = lode_node_child_by_field (ts_node_parent (p), "name");

          if (!ts_node_is_null (name))
            g_ptr_array_insert (names, 0, node_text (ctx, name));
        }
    }

  if (names->len > 0)
    {
      g_ptr_array_add (names, NULL);
      scope->scope = g_strjoinv ("::", (char **) names->pdata);
    }

  for (uint32_t i = 0; !ts_node_is_null (container) && i < ts_node_named_child_count (container);
       i++)
    {
      TSNode item = ts_node_named_child (container, i);

      if (strcmp (ts_node_type (item), "mod_item") == 0 &&
          !ts_node_is_null (lode_node_child_by_field (item, "body")))
        {
          TSNode name = lode_node_child_by_field (item, "name");

          if (!ts_node_is_null (name))
            g_ptr_array_add (scope->locals, node_text (ctx, name));
        }
    }
}

/* A path through an inline module declared beside the `use` is written out from `self::`:
 * `mod support { mod mpsc; } use support::mpsc;` names no crate `support`. */
static char *
rust_local_path (const RustScope *scope,
                 char            *path)
{
  gsize first = strcspn (path, ":");

  for (guint i = 0; i < scope->locals->len; i++)
    {
      const char *local = g_ptr_array_index (scope->locals, i);

      if (strlen (local) == first && strncmp (path, local, first) == 0)
        {
          char *written = g_strconcat ("self::", path, NULL);

          g_free (path);
          return written;
        }
    }

  return path;
}

/* Rust: `use a::{b, c::{self, d as e}, f::*};` → a::b, a::c, a::c::d, a::f::* */
static void
expand_use_tree (Ctx             *ctx,
                 TSNode           node,
                 const char      *prefix,
                 const RustScope *scope,
                 guint            pattern,
                 LodeImportKind   kind,
                 guint            depth)
{
  const char *type = ts_node_type (node);
  g_autofree char *path = NULL;

  if (depth > MAX_USE_TREE_DEPTH)
    return;

  if (strcmp (type, "use_list") == 0)
    {
      for (uint32_t i = 0; i < ts_node_named_child_count (node); i++)
        expand_use_tree (ctx, ts_node_named_child (node, i), prefix, scope, pattern, kind,
                         depth + 1);
      return;
    }

  if (strcmp (type, "scoped_use_list") == 0)
    {
      TSNode path_node = lode_node_child_by_field (node, "path");
      TSNode list = lode_node_child_by_field (node, "list");
      g_autofree char *inner = NULL;

      if (!ts_node_is_null (path_node))
        {
          g_autofree char *text = node_specifier (ctx, path_node);

          if (text == NULL)
            return;
          inner = prefix != NULL ? g_strconcat (prefix, "::", text, NULL) : g_steal_pointer (&text);
        }
      else
        inner = g_strdup (prefix);

      if (!ts_node_is_null (list))
        expand_use_tree (ctx, list, inner, scope, pattern, kind, depth + 1);
      return;
    }

  if (strcmp (type, "use_as_clause") == 0)
    {
      TSNode path_node = lode_node_child_by_field (node, "path");

      if (!ts_node_is_null (path_node))
        expand_use_tree (ctx, path_node, prefix, scope, pattern, kind, depth + 1);
      return;
    }

  if (strcmp (type, "self") == 0 && prefix != NULL)
    path = g_strdup (prefix);
  else
    {
      g_autofree char *text = node_specifier (ctx, node);

      if (text == NULL)
        return;
      path = prefix != NULL ? g_strconcat (prefix, "::", text, NULL) : g_steal_pointer (&text);
    }

  add_found (ctx, node, ts_node_start_byte (node) + 1, pattern,
             rust_local_path (scope, g_steal_pointer (&path)), scope->scope, kind);
}

static void
add_selector (Ctx        *ctx,
              TSNode      node,
              GString    *prefix,
              const char *name,
              guint       pattern)
{
  if (prefix->len == 0 || name == NULL)
    return;

  add_found (ctx, node, ts_node_start_byte (node) + 1, pattern,
             g_strconcat (prefix->str, ".", name, NULL), NULL, LODE_IMPORT_MODULE);
}

/* Scala: `import a.b.C`, `import a.b._`, `import a.b.{C, D => E, _}`, `import a.b, c.d`,
 * `import a.b.C as D` → a.b.C, a.b.*, a.b.C, a.b.D, a.b.*, a.b, c.d, a.b.C */
static void
expand_selectors (Ctx    *ctx,
                  TSNode  node,
                  guint   pattern)
{
  g_autoptr(GString) prefix = g_string_new (NULL);
  TSNode last = node;

  for (uint32_t i = 0; i < ts_node_child_count (node); i++)
    {
      TSNode child = ts_node_child (node, i);
      const char *type = ts_node_type (child);

      if (strcmp (type, "identifier") == 0 || strcmp (type, "operator_identifier") == 0)
        {
          g_autofree char *text = node_specifier (ctx, child);

          if (text == NULL)
            continue;
          if (prefix->len > 0)
            g_string_append_c (prefix, '.');
          g_string_append (prefix, text);
          last = child;
        }
      else if (strcmp (type, ",") == 0)
        {
          if (prefix->len > 0)
            add_found (ctx, last, ts_node_start_byte (last) + 1, pattern,
                       g_strdup (prefix->str), NULL, LODE_IMPORT_MODULE);
          g_string_truncate (prefix, 0);
        }
      else if (strcmp (type, "namespace_wildcard") == 0)
        {
          add_selector (ctx, child, prefix, "*", pattern);
          g_string_truncate (prefix, 0);
        }
      else if (strcmp (type, "as_renamed_identifier") == 0)
        {
          g_autofree char *name = node_specifier (ctx, lode_node_child_by_field (child, "name"));

          add_selector (ctx, child, prefix, name, pattern);
          g_string_truncate (prefix, 0);
        }
      else if (strcmp (type, "namespace_selectors") == 0)
        {
          for (uint32_t j = 0; j < ts_node_named_child_count (child); j++)
            {
              TSNode selector = ts_node_named_child (child, j);
              const char *selector_type = ts_node_type (selector);
              g_autofree char *name = NULL;

              if (strcmp (selector_type, "namespace_wildcard") == 0 ||
                  strcmp (selector_type, "wildcard") == 0)
                name = g_strdup ("*");
              else if (strcmp (selector_type, "arrow_renamed_identifier") == 0 ||
                       strcmp (selector_type, "as_renamed_identifier") == 0)
                name = node_specifier (ctx, lode_node_child_by_field (selector, "name"));
              else
                name = node_specifier (ctx, selector);

              add_selector (ctx, selector, prefix, name, pattern);
            }
          g_string_truncate (prefix, 0);
        }
    }

  if (prefix->len > 0)
    add_found (ctx, last, ts_node_start_byte (last) + 1, pattern, g_strdup (prefix->str), NULL,
               LODE_IMPORT_MODULE);
}

static gboolean
capture_text_is (const Ctx          *ctx,
                 const TSQueryMatch *match,
                 uint32_t            capture_id,
                 const char         *value,
                 gsize               value_len)
{
  for (uint16_t i = 0; i < match->capture_count; i++)
    if (match->captures[i].index == capture_id)
      {
        TSNode node = match->captures[i].node;
        guint32 start = MIN (ts_node_start_byte (node), ctx->len);
        guint32 end = MIN (ts_node_end_byte (node), ctx->len);

        /* An empty text may be NULL, which memcmp () does not take even for 0 bytes. */
        return end - start == value_len &&
               (value_len == 0 || memcmp (ctx->text + start, value, value_len) == 0);
      }

  return FALSE;
}

static gboolean
capture_matches (const Ctx          *ctx,
                 const TSQueryMatch *match,
                 uint32_t            capture_id,
                 const char         *pattern)
{
  for (uint16_t i = 0; i < match->capture_count; i++)
    if (match->captures[i].index == capture_id)
      {
        g_autofree char *text = node_text (ctx, match->captures[i].node);

        return g_regex_match_simple (pattern, text, G_REGEX_OPTIMIZE, 0);
      }

  return FALSE;
}

/* Evaluates the text predicates of the match's pattern; unknown ones are ignored. */
static gboolean
predicates_hold (const Ctx          *ctx,
                 TSQuery            *query,
                 const TSQueryMatch *match)
{
  uint32_t n_steps;
  const TSQueryPredicateStep *steps = ts_query_predicates_for_pattern (query,
                                                                       match->pattern_index,
                                                                       &n_steps);
  uint32_t i = 0;

  while (i < n_steps)
    {
      uint32_t first = i;
      uint32_t end = i;
      uint32_t op_len;
      const char *op;

      while (end < n_steps && steps[end].type != TSQueryPredicateStepTypeDone)
        end++;
      i = end + 1;

      if (end - first < 3 || steps[first].type != TSQueryPredicateStepTypeString ||
          steps[first + 1].type != TSQueryPredicateStepTypeCapture)
        continue;

      op = ts_query_string_value_for_id (query, steps[first].value_id, &op_len);

      if (strcmp (op, "eq?") == 0 || strcmp (op, "not-eq?") == 0 || strcmp (op, "any-of?") == 0)
        {
          gboolean negate = op[0] == 'n';
          gboolean any = FALSE;

          for (uint32_t s = first + 2; s < end; s++)
            {
              uint32_t value_len;
              const char *value;

              if (steps[s].type != TSQueryPredicateStepTypeString)
                continue;
              value = ts_query_string_value_for_id (query, steps[s].value_id, &value_len);
              if (capture_text_is (ctx, match, steps[first + 1].value_id, value, value_len))
                any = TRUE;
            }
          if (any == negate)
            return FALSE;
        }
      else if (strcmp (op, "match?") == 0 && steps[first + 2].type == TSQueryPredicateStepTypeString)
        {
          uint32_t value_len;
          const char *value = ts_query_string_value_for_id (query, steps[first + 2].value_id,
                                                            &value_len);

          if (!capture_matches (ctx, match, steps[first + 1].value_id, value))
            return FALSE;
        }
    }

  return TRUE;
}

static void
classify_captures (TSQuery        *query,
                   Role           *roles,
                   LodeImportKind *kinds)
{
  for (uint32_t i = 0; i < ts_query_capture_count (query); i++)
    {
      uint32_t name_len;
      const char *name = ts_query_capture_name_for_id (query, i, &name_len);

      roles[i] = ROLE_NONE;
      if (strcmp (name, "name") == 0)
        roles[i] = ROLE_NAME;
      else if (strcmp (name, "prefix") == 0)
        roles[i] = ROLE_PREFIX;
      else if (strcmp (name, "at") == 0)
        roles[i] = ROLE_AT;
      else if (strcmp (name, "import.selectors") == 0)
        {
          roles[i] = ROLE_SELECTORS;
          kinds[i] = LODE_IMPORT_MODULE;
        }
      else if (strcmp (name, "import.use") == 0)
        {
          roles[i] = ROLE_USE_TREE;
          kinds[i] = LODE_IMPORT_MODULE;
        }
      else if (g_str_has_prefix (name, "import.") && g_str_has_suffix (name, ".use"))
        {
          g_autofree char *kind = g_strndup (name + strlen ("import."),
                                             name_len - strlen ("import..use"));

          g_strdelimit (kind, "_", '-');
          if (lode_import_kind_from_string (kind, &kinds[i]))
            roles[i] = ROLE_USE_TREE;
          else
            g_warning ("Unknown import capture @%s", name);
        }
      else if (strcmp (name, "import.wildcard") == 0)
        {
          roles[i] = ROLE_WILDCARD;
          kinds[i] = LODE_IMPORT_MODULE;
        }
      else if (g_str_has_prefix (name, "import."))
        {
          g_autofree char *kind = g_strdelimit (g_strdup (name + strlen ("import.")), "_", '-');

          if (lode_import_kind_from_string (kind, &kinds[i]))
            roles[i] = ROLE_IMPORT;
          else
            g_warning ("Unknown import capture @%s", name);
        }
    }
}

typedef struct
{
  TSQuery        *query;
  TSQueryCursor  *cursor;
  Role           *roles;
  LodeImportKind *kinds;
} Run;

static void
run_init (Run     *run,
          TSQuery *query)
{
  uint32_t n_captures = ts_query_capture_count (query);

  run->query = query;
  run->cursor = ts_query_cursor_new ();
  run->roles = g_new0 (Role, MAX (n_captures, 1));
  run->kinds = g_new0 (LodeImportKind, MAX (n_captures, 1));
  classify_captures (query, run->roles, run->kinds);

  /* Bounds the work of a pathological query on a pathological tree. */
  ts_query_cursor_set_match_limit (run->cursor, 1024);
}

static void
run_clear (Run *run)
{
  ts_query_cursor_delete (run->cursor);
  g_free (run->roles);
  g_free (run->kinds);
}

/* Runs the query over the nodes of @root that meet the bytes [@start, @end). */
static void
run_query (Ctx      *ctx,
           Run      *run,
           TSNode    root,
           uint32_t  start,
           uint32_t  end)
{
  TSQuery *query = run->query;
  Role *roles = run->roles;
  LodeImportKind *kinds = run->kinds;
  TSQueryCursor *cursor = run->cursor;
  TSQueryMatch match;
  LodeQueryBudget query_budget;

  ts_query_cursor_set_byte_range (cursor, start, end);
  lode_parse_budget_exec (ctx->budget, &query_budget, cursor, query, root);

  while (ts_query_cursor_next_match (cursor, &match))
    {
      const TSQueryCapture *spec = NULL;
      const TSQueryCapture *name = NULL;
      const TSQueryCapture *prefix = NULL;
      const TSQueryCapture *at = NULL;

      if (!predicates_hold (ctx, query, &match))
        continue;

      for (uint16_t i = 0; i < match.capture_count; i++)
        {
          Role role = roles[match.captures[i].index];

          if (role == ROLE_NAME)
            name = &match.captures[i];
          else if (role == ROLE_PREFIX)
            prefix = &match.captures[i];
          else if (role == ROLE_AT)
            at = &match.captures[i];
          else if (role != ROLE_NONE)
            spec = &match.captures[i];
        }

      if (spec == NULL)
        continue;

      switch (roles[spec->index])
        {
        case ROLE_USE_TREE:
          {
            RustScope scope;

            rust_scope_init (&scope, ctx, spec->node);
            expand_use_tree (ctx, spec->node, NULL, &scope, match.pattern_index,
                             kinds[spec->index], 0);
            rust_scope_clear (&scope);
          }
          break;

        case ROLE_SELECTORS:
          expand_selectors (ctx, spec->node, match.pattern_index);
          break;

        case ROLE_WILDCARD:
          {
            g_autofree char *text = node_specifier (ctx, spec->node);

            if (text != NULL)
              add_found (ctx, spec->node, 0, match.pattern_index,
                         g_strconcat (text, ".*", NULL), NULL, kinds[spec->index]);
          }
          break;

        case ROLE_IMPORT:
          {
            g_autofree char *name_text = name != NULL ? node_specifier (ctx, name->node) : NULL;
            g_autofree char *prefix_text = prefix != NULL ? node_specifier (ctx, prefix->node)
                                                          : NULL;
            char *specifier = node_specifier (ctx, spec->node);

            if (prefix_text != NULL && specifier != NULL)
              {
                char *joined = g_strconcat (prefix_text, "\\", specifier, NULL);

                g_free (specifier);
                specifier = joined;
              }

            /* Rust's `mod x;` inside `mod a { … }` names the file of a::x. */
            if (name_text == NULL && kinds[spec->index] == LODE_IMPORT_SOURCE &&
                strcmp (ts_node_type (ts_node_parent (at != NULL ? at->node : spec->node)),
                        "mod_item") == 0)
              {
                RustScope scope;

                rust_scope_init (&scope, ctx, ts_node_parent (at != NULL ? at->node
                                                                         : spec->node));
                name_text = g_steal_pointer (&scope.scope);
                rust_scope_clear (&scope);
              }

            add_found (ctx, at != NULL ? at->node : spec->node,
                       name != NULL ? ts_node_start_byte (name->node) + 1 : 0,
                       match.pattern_index, specifier, name_text, kinds[spec->index]);
          }
          break;

        case ROLE_NAME:
        case ROLE_PREFIX:
        case ROLE_AT:
        case ROLE_NONE:
        default:
          g_assert_not_reached ();
        }
    }

  /* The walk ends early when the budget runs out. */
  ctx->spent = lode_parse_budget_spent (ctx->budget);
}

static int
found_cmp_node (gconstpointer a,
                gconstpointer b)
{
  const Found *fa = a;
  const Found *fb = b;

  if (fa->spec_byte != fb->spec_byte)
    return fa->spec_byte < fb->spec_byte ? -1 : 1;
  if (fa->sub_byte != fb->sub_byte)
    return fa->sub_byte < fb->sub_byte ? -1 : 1;
  if (fa->pattern != fb->pattern)
    return fa->pattern < fb->pattern ? -1 : 1;
  return 0;
}

/* Keeps one import per captured node (the first pattern's), in file order. The names of
 * one statement (Python's `from a import b, c`) make one import of `a` named "b,c": one
 * statement, one import, and one edge when `a` is a module. */
static void
collect_found (Ctx       *ctx,
               GPtrArray *imports)
{
  const Found *prev = NULL;

  g_array_sort (ctx->found, found_cmp_node);

  for (guint i = 0; i < ctx->found->len; i++)
    {
      Found *found = &g_array_index (ctx->found, Found, i);

      if (prev != NULL && prev->spec_byte == found->spec_byte &&
          prev->sub_byte == found->sub_byte)
        {
          g_clear_pointer (&found->import, lode_import_free);
          continue;
        }
      if (prev != NULL && prev->spec_byte == found->spec_byte && found->import->name != NULL)
        {
          LodeImport *statement = g_ptr_array_index (imports, imports->len - 1);

          if (statement->name != NULL && statement->kind == found->import->kind)
            {
              char *names = g_strconcat (statement->name, ",", found->import->name, NULL);

              g_free (statement->name);
              statement->name = names;
              g_clear_pointer (&found->import, lode_import_free);
              prev = found;
              continue;
            }
        }

      g_ptr_array_add (imports, g_steal_pointer (&found->import));
      prev = found;
    }

  g_array_set_size (ctx->found, 0);
}

/* The '#' of a line `#include …` or `#import …` (blanks allowed around the '#'), or NULL. */
static const char *
include_directive (const char *p,
                   const char *end)
{
  const char *hash;

  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (p >= end || *p != '#')
    return NULL;
  hash = p++;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;

  if ((end - p >= 7 && memcmp (p, "include", 7) == 0) ||
      (end - p >= 6 && memcmp (p, "import", 6) == 0))
    return hash;
  return NULL;
}

/* Where the imports of a file end: for Go, Java and Kotlin, at the first top-level node that
 * is neither a package clause, an import nor a comment (nor a syntax error, which may hide
 * one); for other languages, at the end. */
static uint32_t
header_end (const LodeLanguage *language,
            TSNode              root)
{
  static const char * const header_nodes[] = {
    "package_clause", "package_declaration", "package_header", "import_declaration",
    "import_list", "import_header", "file_annotation", "shebang_line", "comment",
    "line_comment", "block_comment", "multiline_comment", "ERROR",
  };

  if (strcmp (language->id, "go") != 0 && strcmp (language->id, "java") != 0 &&
      strcmp (language->id, "kotlin") != 0)
    return UINT32_MAX;

  for (uint32_t i = 0; i < ts_node_named_child_count (root); i++)
    {
      TSNode child = ts_node_named_child (root, i);
      gboolean header = FALSE;

      for (guint j = 0; j < G_N_ELEMENTS (header_nodes) && !header; j++)
        header = strcmp (ts_node_type (child), header_nodes[j]) == 0;
      if (!header)
        return ts_node_start_byte (child);
    }

  return UINT32_MAX;
}

/* Why @budget ran out, as an error: cancelled, or out of time. Returns FALSE. */
static gboolean
set_budget_error (const LodeParseBudget  *budget,
                  GError                **error)
{
  if (lode_parse_budget_cancelled (budget))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                         "Out of time for reading imports");
  return FALSE;
}

/* Appends the imports of @tree to @imports, lines shifted by @line_offset. */
gboolean
_lode_imports_collect_tree (const LodeLanguage     *language,
                            TSTree                 *tree,
                            const char             *text,
                            gsize                   len,
                            guint                   line_offset,
                            const LodeParseBudget  *budget,
                            GPtrArray              *imports,
                            GError                **error)
{
  TSQuery *query;
  TSNode root;
  Run run;
  Ctx ctx = { text, len, line_offset, NULL, budget, FALSE };

  query = lode_language_get_import_query (language, error);
  if (query == NULL)
    return FALSE;

  ctx.found = g_array_new (FALSE, FALSE, sizeof (Found));
  run_init (&run, query);
  root = ts_tree_root_node (tree);

  /* A query cursor visits every node it may match, which costs a third of the parse. Where
   * imports can only be in a few places, only those are visited: C and C++ includes are
   * directive lines, each the node that spans it; Go, Java and Kotlin imports come before the
   * first declaration. */
  if (strcmp (language->id, "c") == 0 || strcmp (language->id, "cpp") == 0)
    {
      for (gsize line = 0; line < len && !ctx.spent;)
        {
          const char *eol = memchr (text + line, '\n', len - line);
          gsize next = eol != NULL ? (gsize) (eol - text) + 1 : len;
          const char *directive = include_directive (text + line, text + next);

          if (directive != NULL)
            {
              gsize end = next;
              TSNode node;

              while (end > line && g_ascii_isspace (text[end - 1]))
                end--;
              node = ts_node_named_descendant_for_byte_range (root, directive - text, end);
              if (!ts_node_is_null (node) && strcmp (ts_node_type (node), "preproc_include") == 0)
                run_query (&ctx, &run, node, 0, UINT32_MAX);
            }
          line = next;
        }
    }
  else
    run_query (&ctx, &run, root, 0, header_end (language, root));

  run_clear (&run);
  if (ctx.spent)
    {
      g_array_unref (ctx.found);
      return set_budget_error (budget, error);
    }
  collect_found (&ctx, imports);
  g_array_unref (ctx.found);

  return TRUE;
}

/* Parses @text with @language's grammar and appends its imports. A parse that fails finds
 * none; one that runs out of @budget (or of its own time without one) is an error. */
gboolean
_lode_imports_collect_text (const LodeLanguage     *language,
                            const char             *text,
                            gsize                   len,
                            guint                   line_offset,
                            const LodeParseBudget  *budget,
                            GPtrArray              *imports,
                            GError                **error)
{
  TSParser *parser;
  TSTree *tree;
  gboolean ret;

  if (lode_language_get_import_query (language, error) == NULL)
    return FALSE;

  if (lode_parse_budget_spent (budget))
    return set_budget_error (budget, error);

  parser = ts_parser_new ();
  if (!ts_parser_set_language (parser, language->ts_language ()))
    {
      ts_parser_delete (parser);
      g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                   "The %s grammar does not fit the tree-sitter runtime", language->name);
      return FALSE;
    }

  tree = lode_parse_budget_parse (budget, parser, text, len, PARSE_TIMEOUT_USEC);
  ts_parser_delete (parser);
  if (tree == NULL)
    {
      g_debug ("Parse of %zu bytes of %s for imports failed or timed out", len, language->name);
      return lode_parse_budget_spent (budget) ? set_budget_error (budget, error) : TRUE;
    }

  ret = _lode_imports_collect_tree (language, tree, text, len, line_offset, budget, imports,
                                    error);
  ts_tree_delete (tree);

  return ret;
}

static gboolean
check_input (const LodeLanguage  *language,
             gsize                len,
             GError             **error)
{
  if (!lode_imports_supported (language))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Imports of %s files are not extracted", language->name);
      return FALSE;
    }

  if (len > LODE_IMPORTS_MAX_BYTES)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Not searching %zu bytes for imports (the limit is %u)", len,
                   LODE_IMPORTS_MAX_BYTES);
      return FALSE;
    }

  return TRUE;
}

typedef struct
{
  const LodeParseBudget *budget;
  GError                *error;   /* the first block that ran out of the budget */
} Blocks;

/* The `<script>` blocks of HTML, Vue and Svelte files, read with their language's query,
 * all within the file's budget. */
static void
collect_block_cb (const LodeLanguage *language,
                  const char         *text,
                  gsize               len,
                  guint               line_offset,
                  GPtrArray          *imports,
                  gpointer            user_data)
{
  Blocks *blocks = user_data;
  g_autoptr(GError) error = NULL;

  if (blocks->error != NULL)
    return;
  if (!_lode_imports_collect_text (language, text, len, line_offset, blocks->budget, imports,
                                   &error))
    {
      if (error->domain == G_IO_ERROR)
        blocks->error = g_steal_pointer (&error);
      else
        g_warning ("Imports of a script block: %s", error->message);
    }
}

/**
 * lode_imports_extract:
 * @language: the language of @text
 * @text: the file's content; need not be valid UTF-8 or nul-terminated
 * @len: length of @text in bytes
 * @budget: (nullable): the time and cancellation of the file's parses, or %NULL for the
 *   default time per parse
 * @imports: (out) (transfer container) (element-type LodeImport): the imports, in file order
 * @error: return location for a #GError
 *
 * Finds the imports of one file, parsing it when its language has a grammar.
 *
 * Returns: %TRUE on success; %FALSE if @language has no import extraction or @text is larger
 *   than %LODE_IMPORTS_MAX_BYTES, or with %G_IO_ERROR_TIMED_OUT or %G_IO_ERROR_CANCELLED
 *   when @budget runs out
 */
gboolean
lode_imports_extract (const LodeLanguage     *language,
                      const char             *text,
                      gsize                   len,
                      const LodeParseBudget  *budget,
                      GPtrArray             **imports,
                      GError                **error)
{
  g_autoptr(GPtrArray) array = NULL;
  Blocks blocks = { budget, NULL };

  g_return_val_if_fail (language != NULL, FALSE);
  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (imports != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_input (language, len, error))
    return FALSE;

  array = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_import_free);

  if (is_scanned (language))
    {
      _lode_imports_scan (language, text != NULL ? text : "", len, array, collect_block_cb,
                          &blocks);
      if (blocks.error != NULL)
        {
          g_propagate_error (error, blocks.error);
          return FALSE;
        }
    }
  else if (!_lode_imports_collect_text (language, text != NULL ? text : "", len, 0, budget, array,
                                        error))
    return FALSE;

  *imports = g_steal_pointer (&array);
  return TRUE;
}

/**
 * lode_imports_extract_tree:
 * @language: the language of @text, with a grammar
 * @tree: @text parsed with @language's grammar
 * @text: the file's content
 * @len: length of @text in bytes
 * @budget: (nullable): the time and cancellation of the file's queries
 * @imports: (out) (transfer container) (element-type LodeImport): the imports, in file order
 * @error: return location for a #GError
 *
 * Like lode_imports_extract(), reusing a parse the caller already has (the chunker's).
 *
 * Returns: %TRUE on success
 */
gboolean
lode_imports_extract_tree (const LodeLanguage     *language,
                           TSTree                 *tree,
                           const char             *text,
                           gsize                   len,
                           const LodeParseBudget  *budget,
                           GPtrArray             **imports,
                           GError                **error)
{
  g_autoptr(GPtrArray) array = NULL;

  g_return_val_if_fail (language != NULL, FALSE);
  g_return_val_if_fail (language->ts_language != NULL, FALSE);
  g_return_val_if_fail (tree != NULL, FALSE);
  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (imports != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_input (language, len, error))
    return FALSE;

  array = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_import_free);
  if (!_lode_imports_collect_tree (language, tree, text, len, 0, budget, array, error))
    return FALSE;

  *imports = g_steal_pointer (&array);
  return TRUE;
}
