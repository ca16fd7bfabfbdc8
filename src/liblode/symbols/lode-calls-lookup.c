/* lode-calls-lookup.c — a name in a scope: a file, its imports and headers, its package
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-calls"

#include "config.h"

#include "lode-calls-resolver-private.h"

/* Ruby's modules hold functions (`def self.f`) that `A::B.f` calls like a class's. */
const char * const _lode_calls_class_kinds[] = {
  "class", "struct", "interface", "trait", "object", "enum", "union", "record", "protocol",
  "type", "module", NULL
};
const char * const _lode_calls_function_kinds[] = {
  "function", "prototype", "macro", "constructor", NULL
};
const char * const _lode_calls_method_kinds[] = {
  "method", "function", "prototype", "constructor", NULL
};

/* Whether @line of @file lies in a `#if` block (include guards aside). */
static gboolean
is_conditional (File  *file,
                guint  line)
{
  GArray *ranges = file->calls->conditional;

  for (guint i = 0; i + 1 < ranges->len; i += 2)
    if (line >= g_array_index (ranges, guint, i) && line <= g_array_index (ranges, guint, i + 1))
      return TRUE;
  return FALSE;
}

static gboolean
symbol_wanted (const LodeCallSymbol *symbol,
               Want                  want)
{
  switch (want)
    {
    case WANT_FUNCTION:
      return kind_in (symbol->kind, _lode_calls_function_kinds) ||
             (strcmp (symbol->kind, "method") == 0 && symbol->container == NULL);
    case WANT_TYPE:
      return kind_in (symbol->kind, _lode_calls_class_kinds);
    case WANT_MEMBER:
      return kind_in (symbol->kind, _lode_calls_method_kinds);
    case WANT_CALLABLE:
    default:
      return kind_in (symbol->kind, _lode_calls_function_kinds) ||
             kind_in (symbol->kind, _lode_calls_class_kinds) ||
             (strcmp (symbol->kind, "method") == 0 && symbol->container == NULL);
    }
}

/* The symbols of file @f named @name: a run of the project's list of that name, which
 * build_indexes() filled file by file, symbol by symbol (a table per file would cost as much
 * again as the symbols). */
const LodeCallTarget *
_lode_calls_named_in_file (LodeCallResolver *self,
                           guint             f,
                           const char       *name,
                           guint            *n)
{
  guint n_all;
  const LodeCallTarget *targets = named_all (self, name, &n_all);
  guint low = 0, high = n_all, end;

  *n = 0;
  if (targets == NULL)
    return NULL;
  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (targets[middle].file < f)
        low = middle + 1;
      else
        high = middle;
    }
  for (end = low; end < n_all && targets[end].file == f; end++)
    ;
  *n = end - low;
  return targets + low;
}

/* Top-level definitions of @name in @f: functions not inside a class. */
void
_lode_calls_in_file (LodeCallResolver *self,
                     guint             f,
                     const char       *name,
                     Want              want,
                     gboolean          from_outside,
                     Found            *found)
{
  File *file = g_ptr_array_index (self->files, f);
  guint n;
  const LodeCallTarget *named = _lode_calls_named_in_file (self, f, name, &n);

  for (guint i = 0; i < n; i++)
    {
      guint s = named[i].symbol;
      const LodeCallSymbol *symbol = &file->symbols[s];

      if (!symbol_wanted (symbol, want))
        continue;
      if (from_outside && file_is_local (file, s))
        continue;
      /* A macro defined under `#if` may not be there: the name is looked up without it. */
      if (strcmp (symbol->kind, "macro") == 0 && is_conditional (file, symbol->start_line))
        continue;
      /* Methods are reached through their class, not by a bare name. */
      if (want != WANT_TYPE && want != WANT_MEMBER && symbol->container != NULL &&
          strcmp (symbol->kind, "method") == 0)
        continue;
      found_add (found, (LodeCallTarget) { f, s });
    }
}

static gboolean
is_prototype (LodeCallResolver *self,
              LodeCallTarget    target)
{
  return strcmp (symbol_at (self, target)->kind, "prototype") == 0;
}

static gboolean
is_macro (LodeCallResolver *self,
          LodeCallTarget    target)
{
  return strcmp (symbol_at (self, target)->kind, "macro") == 0;
}

static GHashTable *include_closure (LodeCallResolver *self,
                                    guint             f);

static char *
stem_of (const char *path)
{
  const char *slash = strrchr (path, '/');
  const char *base = slash != NULL ? slash + 1 : path;
  const char *dot = strrchr (base, '.');

  return g_strndup (base, dot != NULL ? (gsize) (dot - base) : strlen (base));
}

/* The leading directories the file of @found's @i-th target shares with @path. */
static guint
common_dirs_with (LodeCallResolver *self,
                  const Found      *found,
                  guint             i,
                  const char       *path)
{
  LodeCallTarget t = g_array_index (found->targets, LodeCallTarget, i);

  return lode_import_common_dirs (((File *) g_ptr_array_index (self->files, t.file))->path,
                                  path);
}

/* The definitions, in the whole project, of the functions @name that a prototype or a
 * macro of the same name stands for: never a `static` one of another file. Those that @f
 * sees (its own, its headers') come first, then one whose file is named like the
 * prototype's header. Of several in other files, those nearest the prototype's header (or
 * @f, for a macro), by the leading directories their files share with it: in a tree that
 * holds several programs or copies of one library, each links its own. */
static void
definitions_of (LodeCallResolver *self,
                guint             f,
                const char       *name,
                const char       *header,
                const char       *package,
                Found            *found)
{
  guint n_list;
  const LodeCallTarget *list = named_all (self, name, &n_list);
  g_autofree char *stem = header != NULL ? stem_of (header) : NULL;
  GHashTable *closure = include_closure (self, f);
  g_auto(Found) all = { 0 };
  g_auto(Found) seen = { 0 };
  g_auto(Found) named = { 0 };
  Found *best;

  for (guint i = 0; i < n_list; i++)
    {
      LodeCallTarget t = list[i];
      File *file = g_ptr_array_index (self->files, t.file);
      const LodeCallSymbol *symbol = symbol_at (self, t);
      g_autofree char *other = NULL;

      if (strcmp (symbol->kind, "function") != 0 || !(file->flags & FLAG_INCLUDES))
        continue;
      /* C++: `ns::f` is declared and defined in the same namespace. */
      if (package != NULL && g_strcmp0 (symbol->package, package) != 0)
        continue;
      if (t.file == f || g_hash_table_contains (closure, GUINT_TO_POINTER (t.file)))
        {
          found_add (&seen, t);
          continue;
        }
      if (file_is_local (file, t.symbol))
        continue;
      found_add (&all, t);
      other = stem_of (file->path);
      if (stem != NULL && strcmp (other, stem) == 0)
        found_add (&named, t);
    }
  best = found_n (&seen) > 0 ? &seen : found_n (&named) > 0 ? &named : &all;
  if (best != &seen && found_n (best) > 1)
    {
      const char *near = header != NULL ? header
                                        : ((File *) g_ptr_array_index (self->files, f))->path;
      guint most = 0;

      for (guint i = 0; i < found_n (best); i++)
        most = MAX (most, common_dirs_with (self, best, i, near));
      for (guint i = 0; i < found_n (best); i++)
        if (common_dirs_with (self, best, i, near) == most)
          found_add (found, g_array_index (best->targets, LodeCallTarget, i));
      return;
    }
  for (guint i = 0; i < found_n (best); i++)
    found_add (found, g_array_index (best->targets, LodeCallTarget, i));
}

/* The binding of @kind of the definition @t. */
static const LodeCallBinding *
binding_of (LodeCallResolver    *self,
            LodeCallTarget       t,
            LodeCallBindingKind  kind)
{
  File *file = g_ptr_array_index (self->files, t.file);

  for (guint i = 0; i < file->n_bindings; i++)
    {
      const LodeCallBinding *b = &file->bindings[i];

      if (b->kind == kind && b->scope == (gint) t.symbol)
        return b;
    }
  return NULL;
}

/* Whether the body of macro @t calls its own name: a wrapper of the function. */
static gboolean
wraps_itself (LodeCallResolver *self,
              LodeCallTarget    t)
{
  File *file = g_ptr_array_index (self->files, t.file);

  for (guint i = 0; i < file->wrappers->len; i++)
    if (g_array_index (file->wrappers, guint, i) == t.symbol)
      return TRUE;
  return FALSE;
}

/* C and C++: what a name found in the file and its headers stands for. A macro comes
 * before anything else of its name, as the preprocessor runs first: `#define a b` is a
 * call of b; a macro whose body calls its own name (`#define error(...) (error(…), …)`)
 * wraps the function; any other macro is the callee itself. A prototype leads to the
 * definition. */
void
_lode_calls_follow_declarations (LodeCallResolver *self,
                                 guint             f,
                                 Found            *found)
{
  g_auto(Found) out = { 0 };

  for (guint i = 0; i < found_n (found); i++)
    {
      LodeCallTarget t = g_array_index (found->targets, LodeCallTarget, i);
      const LodeCallBinding *alias;

      if (!is_macro (self, t))
        continue;
      alias = binding_of (self, t, LODE_CALL_BINDING_ALIAS);
      if (alias != NULL)
        {
          if (self->depth < MAX_HOPS)
            {
              self->depth++;
              _lode_calls_in_scope (self, f, alias->target, WANT_CALLABLE, &out);
              self->depth--;
            }
        }
      else if (wraps_itself (self, t))
        definitions_of (self, f, symbol_at (self, t)->name, NULL, NULL, &out);
      else
        found_add (&out, t);
      g_clear_pointer (&found->targets, g_array_unref);
      found->targets = g_steal_pointer (&out.targets);
      return;
    }

  for (guint i = 0; i < found_n (found); i++)
    {
      LodeCallTarget t = g_array_index (found->targets, LodeCallTarget, i);

      if (is_prototype (self, t))
        definitions_of (self, f, symbol_at (self, t)->name,
                        ((File *) g_ptr_array_index (self->files, t.file))->path,
                        symbol_at (self, t)->package, &out);
      else
        found_add (&out, t);
    }
  g_clear_pointer (&found->targets, g_array_unref);
  found->targets = g_steal_pointer (&out.targets);
}

/* Imports ----------------------------------------------------------------------------- */

static GArray *
import_targets (LodeCallResolver *self,
                guint             f,
                guint             i)
{
  File *file = g_ptr_array_index (self->files, f);

  if (file->targets[i] == NULL)
    {
      const LodeImport *import = &file->imports[i];
      g_auto(GStrv) paths = NULL;

      file->targets[i] = g_array_new (FALSE, FALSE, sizeof (guint));
      if (self->imports != NULL)
        paths = lode_import_resolver_resolve_all (self->imports, file->path, import,
                                                  &file->packages[i]);
      for (guint p = 0; paths != NULL && paths[p] != NULL; p++)
        {
          guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->by_path, paths[p]));

          if (index > 0 && index - 1 != f)
            g_array_append_val (file->targets[i], (guint) { index - 1 });
        }
    }
  return file->targets[i];
}

/* The files (and external package) of the import on @line of @f. */
static void
binding_files (LodeCallResolver  *self,
               guint              f,
               guint              line,
               GArray            *files,
               char             **package)
{
  File *file = g_ptr_array_index (self->files, f);

  for (guint i = 0; i < file->n_imports; i++)
    {
      const LodeImport *import = &file->imports[i];
      GArray *targets;

      if (import->line != line)
        continue;
      targets = import_targets (self, f, i);
      g_array_append_vals (files, targets->data, targets->len);
      if (targets->len == 0 && file->packages[i] != NULL && package != NULL && *package == NULL)
        *package = g_strdup (file->packages[i]);
    }
}

/* C and C++: the files @f includes, directly or not, not through includes under `#if` (a
 * platform's headers, an optional feature's: another platform's `#define getenv
 * mingw_getenv` is no call of the project's). */
static GHashTable *
include_closure (LodeCallResolver *self,
                 guint             f)
{
  File *file = g_ptr_array_index (self->files, f);
  GHashTable **closure = &file->closure;
  g_autoptr(GArray) queue = NULL;

  if (*closure != NULL)
    return *closure;
  *closure = g_hash_table_new (NULL, NULL);
  queue = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (queue, f);
  for (guint q = 0; q < queue->len; q++)
    {
      guint g = g_array_index (queue, guint, q);
      File *other = g_ptr_array_index (self->files, g);

      for (guint i = 0; i < other->n_imports; i++)
        {
          const LodeImport *import = &other->imports[i];
          GArray *targets;

          if (is_conditional (other, import->line))
            continue;
          targets = import_targets (self, g, i);
          for (guint t = 0; t < targets->len; t++)
            {
              guint h = g_array_index (targets, guint, t);

              if (h != f && !g_hash_table_contains (*closure, GUINT_TO_POINTER (h)))
                {
                  g_hash_table_add (*closure, GUINT_TO_POINTER (h));
                  g_array_append_val (queue, h);
                }
            }
        }
    }
  return *closure;
}

/* @name as @f exports it: its own definition, or one it re-exports (`export { a } from`,
 * `from .x import a` in `__init__.py`, `pub use`), followed up to MAX_HOPS files. */
void
_lode_calls_find_exported (LodeCallResolver *self,
                           guint             f,
                           const char       *name,
                           Want              want,
                           guint             hops,
                           Found            *found)
{
  File *file = g_ptr_array_index (self->files, f);
  guint before = found_n (found);

  _lode_calls_in_file (self, f, name, want, TRUE, found);
  if (found_n (found) > before || hops >= MAX_HOPS)
    return;
  for (guint i = 0; i < file->n_bindings; i++)
    {
      const LodeCallBinding *b = &file->bindings[i];
      g_autoptr(GArray) files = NULL;
      const char *original;

      /* Imports export nothing again, but in Python (a module's names are its attributes,
       * `__init__.py`'s imports included). */
      if (b->kind != LODE_CALL_BINDING_REEXPORT &&
          !(b->kind == LODE_CALL_BINDING_IMPORT && strcmp (file->language, "python") == 0))
        continue;
      if (strcmp (b->name, name) != 0 && strcmp (b->name, "*") != 0)
        continue;
      original = b->target != NULL && strcmp (b->target, "*") != 0 ? b->target : name;
      files = g_array_new (FALSE, FALSE, sizeof (guint));
      binding_files (self, f, b->line, files, NULL);
      for (guint j = 0; j < files->len; j++)
        _lode_calls_find_exported (self, g_array_index (files, guint, j), original, want,
                                   hops + 1, found);
    }
}

/* A name @f imports: explicit names first, then wildcards, then (C, C++) included files. */
static gboolean
by_import (LodeCallResolver *self,
           guint             f,
           const char       *name,
           Want              want,
           Found            *found)
{
  File *file = g_ptr_array_index (self->files, f);

  for (guint pass = 0; pass < 2; pass++)
    {
      for (guint i = 0; i < file->n_bindings; i++)
        {
          const LodeCallBinding *b = &file->bindings[i];
          g_autoptr(GArray) files = NULL;
          g_autofree char *package = NULL;
          const char *original;

          if (b->kind != LODE_CALL_BINDING_IMPORT && b->kind != LODE_CALL_BINDING_REEXPORT)
            continue;
          if (pass == 0 ? strcmp (b->name, name) != 0 : strcmp (b->name, "*") != 0)
            continue;
          original = b->target != NULL && strcmp (b->target, "*") != 0 &&
                     strcmp (b->target, "default") != 0 ? b->target : name;
          files = g_array_new (FALSE, FALSE, sizeof (guint));
          binding_files (self, f, b->line, files, &package);
          for (guint j = 0; j < files->len; j++)
            _lode_calls_find_exported (self, g_array_index (files, guint, j), original, want, 1,
                                       found);
          /* `import static a.B.m`, `from a.B import m`: a member imported by name. */
          if (found_n (found) == 0 && pass == 0 && want != WANT_TYPE)
            for (guint j = 0; j < files->len; j++)
              _lode_calls_in_file (self, g_array_index (files, guint, j), original, WANT_MEMBER,
                                   TRUE, found);
          /* `import x from './x'`: the default export is whatever the file names so. */
          if (found_n (found) == 0 && b->target != NULL && strcmp (b->target, "default") == 0)
            for (guint j = 0; j < files->len; j++)
              _lode_calls_find_exported (self, g_array_index (files, guint, j), name, want, 1,
                                         found);
          if (found_n (found) > 0)
            {
              found_set (found, LODE_CALL_RULE_IMPORT, pass == 0 ? 0.95 : 0.9);
              return TRUE;
            }
          if (pass == 0 && files->len == 0 && package != NULL)
            {
              found->external = TRUE;
              found->package = g_steal_pointer (&package);
              found_set (found, LODE_CALL_RULE_IMPORT, 0.9);
              return TRUE;
            }
        }
    }

  /* The headers the file includes. */
  if (file->flags & FLAG_INCLUDES)
    {
      GHashTable *closure = include_closure (self, f);
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, closure);
      /* A header's `static inline` functions are the includer's own. */
      while (g_hash_table_iter_next (&iter, &key, NULL))
        _lode_calls_in_file (self, GPOINTER_TO_UINT (key), name, want, FALSE, found);
      if (found_n (found) > 0)
        {
          _lode_calls_follow_declarations (self, f, found);
          found_set (found, LODE_CALL_RULE_IMPORT, 0.9);
          return found_n (found) > 0;
        }
    }
  return FALSE;
}

/* The Swift module of @path: its `Sources/<Target>` (SwiftPM's layout), else its first
 * folder. */
static char *
swift_module (const char *path)
{
  const char *sources = strstr (path, "Sources/");
  const char *start = sources != NULL ? sources + strlen ("Sources/") : path;
  const char *slash = strchr (start, '/');

  if (sources != NULL && (sources == path || sources[-1] == '/') && slash != NULL)
    return g_strndup (path, slash - path);
  slash = strchr (path, '/');
  return slash != NULL ? g_strndup (path, slash - path) : g_strdup ("");
}

static gboolean
by_package (LodeCallResolver *self,
            guint             f,
            const char       *name,
            Want              want,
            Found            *found)
{
  File *file = g_ptr_array_index (self->files, f);
  GArray *files = NULL;

  if (file->flags & FLAG_PACKAGE_DIR)
    files = g_hash_table_lookup (self->by_dir, file->dir);
  else if ((file->flags & FLAG_PACKAGE_DECL) && file->package != NULL)
    files = g_hash_table_lookup (self->by_package, file->package);
  else if (file->flags & FLAG_MODULE_WIDE)
    {
      g_autofree char *module = swift_module (file->path);

      for (guint g = 0; g < self->files->len; g++)
        {
          File *other = g_ptr_array_index (self->files, g);
          g_autofree char *other_module = NULL;

          if (g == f || other->language != file->language)
            continue;
          other_module = swift_module (other->path);
          if (strcmp (module, other_module) == 0)
            _lode_calls_in_file (self, g, name, want, TRUE, found);
        }
    }
  for (guint i = 0; files != NULL && i < files->len; i++)
    {
      guint g = g_array_index (files, guint, i);

      if (g != f &&
          ((File *) g_ptr_array_index (self->files, g))->language == file->language)
        _lode_calls_in_file (self, g, name, want, TRUE, found);
    }
  if (found_n (found) == 0)
    return FALSE;
  found_set (found, LODE_CALL_RULE_PACKAGE, 0.85);
  return TRUE;
}

static gboolean
by_unique (LodeCallResolver *self,
           guint             f,
           const char       *name,
           Want              want,
           Found            *found)
{
  File *file = g_ptr_array_index (self->files, f);
  guint n_list;
  const LodeCallTarget *list = named_all (self, name, &n_list);

  /* C and C++ reach another file's function through a declaration the includes bring in
   * (the import rule); one that no included header declares comes from elsewhere (a
   * system header), whatever the project defines under that name. */
  if (!(file->flags & FLAG_GLOBAL) || (file->flags & FLAG_INCLUDES))
    return FALSE;
  for (guint i = 0; i < n_list; i++)
    {
      LodeCallTarget t = list[i];
      File *other = g_ptr_array_index (self->files, t.file);
      const LodeCallSymbol *symbol = symbol_at (self, t);

      if (other->language != file->language && !((file->flags & FLAG_INCLUDES) &&
                                                 (other->flags & FLAG_INCLUDES)))
        continue;
      if (!symbol_wanted (symbol, want) || file_is_local (other, t.symbol))
        continue;
      if (want != WANT_TYPE && symbol->container != NULL && strcmp (symbol->kind, "method") == 0)
        continue;
      /* PHP: a bare name reaches the caller's namespace (the package rule) and the global
       * one, never another namespace's function. */
      if ((file->flags & FLAG_PACKAGE_DECL) && symbol->package != NULL)
        continue;
      found_add (found, t);
    }
  if (file->flags & FLAG_INCLUDES)
    _lode_calls_follow_declarations (self, f, found);
  if (found_n (found) == 0)
    return FALSE;
  found_set (found, LODE_CALL_RULE_UNIQUE, 0.7);
  return TRUE;
}

/* A name in @f's scope, by the rules after `local`. */
gboolean
_lode_calls_lookup_global (LodeCallResolver *self,
                           guint             f,
                           const char       *name,
                           Want              want,
                           Found            *found)
{
  return by_import (self, f, name, want, found) ||
         by_package (self, f, name, want, found) ||
         by_unique (self, f, name, want, found);
}

static gboolean
in_scope (LodeCallResolver *self,
          guint             f,
          const char       *name,
          Want              want,
          Found            *found)
{
  File *file = g_ptr_array_index (self->files, f);

  _lode_calls_in_file (self, f, name, want, FALSE, found);
  if (found_n (found) > 0)
    {
      if (file->flags & FLAG_INCLUDES)
        {
          _lode_calls_follow_declarations (self, f, found);
          if (found_n (found) == 0)
            return _lode_calls_lookup_global (self, f, name, want, found);
        }
      found_set (found, LODE_CALL_RULE_LOCAL, 1.0);
      return TRUE;
    }
  return _lode_calls_lookup_global (self, f, name, want, found);
}

/* What _lode_calls_in_scope() answered for a name, and the state it left. */
struct _ScopeMemo
{
  Found    found;
  gboolean in;
};

void
_lode_calls_scope_memo_free (ScopeMemo *memo)
{
  found_clear (&memo->found);
  g_free (memo);
}

/* Whether @found is as a look-up starts: nothing found, nothing set. */
static gboolean
found_is_empty (const Found *found)
{
  return found->targets == NULL && found->package == NULL && !found->external &&
         found->rule == 0 && found->confidence == 0.0;
}

static void
found_copy (Found       *to,
            const Found *from)
{
  to->rule = from->rule;
  to->confidence = from->confidence;
  to->targets = from->targets != NULL ? g_array_copy (from->targets) : NULL;
  to->package = g_strdup (from->package);
  to->external = from->external;
}

/* A bare name as the code of @f sees it outside any caller: the file's own definitions (C
 * and C++: a declaration followed to what it declares), else the rules after `local`. The
 * same name in the file whose sites are being resolved, asked from nothing, is answered as
 * it was the first time. */
gboolean
_lode_calls_in_scope (LodeCallResolver *self,
                      guint             f,
                      const char       *name,
                      Want              want,
                      Found            *found)
{
  g_autofree char *key = NULL;
  ScopeMemo *memo;

  if (self->scope_memo == NULL || f != self->scope_file || self->depth != 0 ||
      !found_is_empty (found))
    return in_scope (self, f, name, want, found);

  key = g_strdup_printf ("%d %s", want, name);
  memo = g_hash_table_lookup (self->scope_memo, key);
  if (memo == NULL)
    {
      memo = g_new0 (ScopeMemo, 1);
      memo->in = in_scope (self, f, name, want, found);
      found_copy (&memo->found, found);
      g_hash_table_insert (self->scope_memo, g_steal_pointer (&key), memo);
      return memo->in;
    }
  found_copy (found, &memo->found);
  return memo->in;
}

/* A type named @path (`Foo`, `a::Foo`, `pkg.Foo`) as @f sees it. */
gboolean
_lode_calls_find_type (LodeCallResolver *self,
                       guint             f,
                       const char       *path,
                       Found            *found)
{
  const char *name = path;
  const char *p;

  for (p = path; *p != '\0'; p++)
    if (*p == '.' || *p == '\\' || (*p == ':' && p[1] == ':'))
      name = p + (*p == ':' ? 2 : 1);
  if (*name == '\0')
    return FALSE;
  /* `pkg.Type`, `ns::Type`, `mod.Type`: the module the file binds to the prefix. */
  if (name > path)
    {
      g_autofree char *prefix = g_strndup (path, name - path);
      g_autoptr(GArray) files = g_array_new (FALSE, FALSE, sizeof (guint));
      gsize n = strlen (prefix);

      while (n > 0 && strchr (".:\\", prefix[n - 1]) != NULL)
        prefix[--n] = '\0';
      if (_lode_calls_module_binding (self, f, prefix, files, NULL, NULL) && files->len > 0)
        {
          for (guint i = 0; i < files->len; i++)
            _lode_calls_find_exported (self, g_array_index (files, guint, i), name, WANT_TYPE, 1,
                                       found);
          if (found_n (found) > 0)
            {
              found_set (found, LODE_CALL_RULE_IMPORT, 0.95);
              return TRUE;
            }
        }
    }
  _lode_calls_in_file (self, f, name, WANT_TYPE, FALSE, found);
  if (found_n (found) > 0)
    {
      found_set (found, LODE_CALL_RULE_LOCAL, 1.0);
      return TRUE;
    }
  return _lode_calls_lookup_global (self, f, name, WANT_TYPE, found);
}

/* A module or package the file binds to @part: `import a.b as x`, `import * as ns`, Go's
 * package name, Rust `use a::b` of a module. */
gboolean
_lode_calls_module_binding (LodeCallResolver       *self,
                            guint                   f,
                            const char             *part,
                            GArray                 *files,
                            char                  **package,
                            const LodeCallBinding **binding)
{
  File *file = g_ptr_array_index (self->files, f);

  for (guint i = 0; i < file->n_bindings; i++)
    {
      const LodeCallBinding *b = &file->bindings[i];

      if ((b->kind != LODE_CALL_BINDING_IMPORT && b->kind != LODE_CALL_BINDING_REEXPORT) ||
          strcmp (b->name, part) != 0)
        continue;
      binding_files (self, f, b->line, files, package);
      if (binding != NULL)
        *binding = b;
      return TRUE;
    }
  return FALSE;
}

/* `a.b.C`, `a::b::C`, `A\B\C` → `C`. */
const char *
_lode_calls_last_part (const char *path)
{
  const char *last = path;

  for (const char *p = path; *p != '\0'; p++)
    if (*p == '.' || *p == '\\' || *p == '/' || (*p == ':' && p[1] == ':'))
      last = p + (*p == ':' ? 2 : 1);
  return last;
}
