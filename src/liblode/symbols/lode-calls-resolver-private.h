/* lode-calls-resolver-private.h — what the parts of the call resolver share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include "lode-calls-resolver.h"
#include "lode-chunk.h"

G_BEGIN_DECLS

/*
 * lode-calls-resolver.c walks a call to what it names (receivers, types, methods, the
 * rules' order); lode-calls-lookup.c finds a name in a scope: a file, the names a file
 * imports and the headers it includes, its package, the project. The resolver calls the
 * lookup, never the other way round.
 */

#define MAX_HOPS 4

typedef enum
{
  FLAG_IMPLICIT_SELF = 1 << 0,  /* a bare name reaches the enclosing class's methods */
  FLAG_GLOBAL        = 1 << 1,  /* a bare name reaches other files without an import */
  FLAG_PACKAGE_DIR   = 1 << 2,  /* a package is a directory (Go) */
  FLAG_PACKAGE_DECL  = 1 << 3,  /* a package is what files declare (Java, C#, PHP…) */
  FLAG_MODULE_WIDE   = 1 << 4,  /* every file of the project is one module (Swift) */
  FLAG_INCLUDES      = 1 << 5,  /* C, C++: included headers, transitively */
} LangFlags;

typedef struct
{
  const char       *path;
  const char       *dir;
  const char       *language;
  LangFlags         flags;
  /* What the file defines, binds and imports, copied at lode_call_resolver_add_file() into
   * arrays of its own with the strings in the resolver's: the resolver holds them for every
   * file, and the callers' arrays of pointers to structs with strings of their own took
   * twice the memory (the call pass was the peak of an index of five copies of git). */
  LodeCallSymbol   *symbols;
  guint             n_symbols;
  LodeCallBinding  *bindings;
  guint             n_bindings;
  LodeImport       *imports;
  guint             n_imports;
  LodeCalls        *calls;        /* its sites (until dropped), file-local symbols and `#if`
                                   * blocks; its bindings are @bindings */
  GArray           *local;        /* guint, ascending: the file-local symbols */
  GArray           *wrappers;     /* guint: symbols whose body calls their own name */
  GArray          **targets;      /* per import: GArray of guint files, lazily */
  char            **packages;     /* per import: an external package, lazily */
  GHashTable       *closure;      /* files this one includes, transitively (C, C++), lazily */
  char             *package;
} File;

struct _LodeCallResolver
{
  GObject             parent_instance;
  LodeImportResolver *imports;
  GStringChunk       *strings;     /* the files' paths and directories and the strings of
                                    * their definitions, bindings and imports, each once */
  GPtrArray          *files;       /* File */
  GHashTable         *by_path;     /* path → index + 1 */
  GHashTable         *by_name;     /* name → its run in @named (NameRun), index + 1 */
  GArray             *runs;        /* NameRun */
  LodeCallTarget     *named;       /* every definition: name by name, file by file, symbol
                                    * by symbol (one array, not one per name) */
  GHashTable         *by_dir;      /* dir → GArray of guint */
  GHashTable         *by_package;  /* package → GArray of guint */
  GHashTable         *namespaces;  /* first parts of the C++ namespaces the project declares */
  guint               depth;       /* macros followed to the name they stand for */
  gboolean            indexed;
  /* While one file's sites are resolved (lode_call_resolver_resolve_sites()), what each bare
   * name its code sees resolved to: a file calls the same names again and again, and each
   * look-up through its headers or the project's same-named definitions costs alike. */
  guint               scope_file;
  GHashTable         *scope_memo;  /* "want name" → ScopeMemo */
};

/* The definitions of one name: @n targets from @start of the resolver's @named. */
typedef struct
{
  guint start;
  guint n;
} NameRun;

typedef struct
{
  LodeCallRule  rule;
  double        confidence;
  GArray       *targets;   /* LodeCallTarget */
  char         *package;
  gboolean      external;
} Found;

typedef enum
{
  WANT_FUNCTION,     /* a free function (or macro, prototype) */
  WANT_TYPE,         /* a class-like definition */
  WANT_CALLABLE,     /* a free function, else a class (a constructor call) */
  WANT_MEMBER,       /* a function or a class's method, imported by name (Java static) */
} Want;

extern const char * const _lode_calls_class_kinds[];
extern const char * const _lode_calls_function_kinds[];
extern const char * const _lode_calls_method_kinds[];

static inline gboolean
kind_in (const char         *kind,
         const char * const *kinds)
{
  return kind != NULL && g_strv_contains (kinds, kind);
}

static inline const LodeCallSymbol *
symbol_at (LodeCallResolver *self,
           LodeCallTarget    target)
{
  File *file = g_ptr_array_index (self->files, target.file);

  return &file->symbols[target.symbol];
}

/* The definitions named @name in the project, file by file, symbol by symbol. */
static inline const LodeCallTarget *
named_all (LodeCallResolver *self,
           const char       *name,
           guint            *n)
{
  guint run = GPOINTER_TO_UINT (g_hash_table_lookup (self->by_name, name));
  const NameRun *r;

  *n = 0;
  if (run == 0)
    return NULL;
  r = &g_array_index (self->runs, NameRun, run - 1);
  *n = r->n;
  return self->named + r->start;
}

static inline void
found_clear (Found *found)
{
  g_clear_pointer (&found->targets, g_array_unref);
  g_clear_pointer (&found->package, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Found, found_clear)

static inline void
found_add (Found          *found,
           LodeCallTarget  target)
{
  if (found->targets == NULL)
    found->targets = g_array_new (FALSE, FALSE, sizeof (LodeCallTarget));
  for (guint i = 0; i < found->targets->len; i++)
    {
      LodeCallTarget *t = &g_array_index (found->targets, LodeCallTarget, i);

      if (t->file == target.file && t->symbol == target.symbol)
        return;
    }
  g_array_append_val (found->targets, target);
}

static inline guint
found_n (const Found *found)
{
  return found->targets != NULL ? found->targets->len : 0;
}

static inline void
found_set (Found        *found,
           LodeCallRule  rule,
           double        confidence)
{
  found->rule = rule;
  found->confidence = confidence;
}

static inline gint
compare_guints (gconstpointer a,
                gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/* Whether @symbol of @file is file-local (a C `static`): not found from other files. */
static inline gboolean
file_is_local (const File *file,
               guint       symbol)
{
  return g_array_binary_search (file->local, &symbol, compare_guints, NULL);
}

/* lode-calls-lookup.c */
typedef struct _ScopeMemo ScopeMemo;
void        _lode_calls_scope_memo_free      (ScopeMemo         *memo);
const LodeCallTarget *_lode_calls_named_in_file (LodeCallResolver  *self,
                                                 guint              f,
                                                 const char        *name,
                                                 guint             *n);
void        _lode_calls_in_file              (LodeCallResolver  *self,
                                              guint              f,
                                              const char        *name,
                                              Want               want,
                                              gboolean           from_outside,
                                              Found             *found);
void        _lode_calls_follow_declarations  (LodeCallResolver  *self,
                                              guint              f,
                                              Found             *found);
void        _lode_calls_find_exported        (LodeCallResolver  *self,
                                              guint              f,
                                              const char        *name,
                                              Want               want,
                                              guint              hops,
                                              Found             *found);
gboolean    _lode_calls_lookup_global        (LodeCallResolver  *self,
                                              guint              f,
                                              const char        *name,
                                              Want               want,
                                              Found             *found);
gboolean    _lode_calls_find_type            (LodeCallResolver  *self,
                                              guint              f,
                                              const char        *path,
                                              Found             *found);
gboolean    _lode_calls_module_binding       (LodeCallResolver       *self,
                                              guint                   f,
                                              const char             *part,
                                              GArray                 *files,
                                              char                  **package,
                                              const LodeCallBinding **binding);
gboolean    _lode_calls_in_scope             (LodeCallResolver  *self,
                                              guint              f,
                                              const char        *name,
                                              Want               want,
                                              Found             *found);
const char *_lode_calls_last_part            (const char        *path);

G_END_DECLS
