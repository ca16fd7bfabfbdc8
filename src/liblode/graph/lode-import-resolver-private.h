/* lode-import-resolver-private.h — what the parts of the import resolver share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "lode-import-resolver.h"
#include "lode-json.h"
#include "lode-language.h"

G_BEGIN_DECLS

/*
 * The resolver is split by what it reads: lode-import-resolver.c is the object and its
 * public calls, lode-import-files.c keeps the indexes of the project's files (with the
 * packages JVM, C# and PHP files declare, lode-import-declarations-private.h),
 * lode-import-configs.c reads the configuration files (tsconfig, package.json,
 * compile_commands.json, Makefiles through lode-import-makefile-private.h, go.mod, Cargo.toml,
 * composer.json, pubspec.yaml, Package.swift) and lode-import-rules.c holds each language's
 * resolution rules.
 */

#define CONFIG_MAX_BYTES       (1024 * 1024)
#define DECLARATION_HEAD_BYTES (64 * 1024)
#define MAX_EXTENDS_DEPTH      8

typedef struct
{
  char  *dir;                     /* directory of the tsconfig, "" for the root */
  char  *base_url;                /* project path, or NULL */
  GPtrArray *patterns;            /* PathPattern */
} TsConfig;

typedef struct
{
  char  *pattern;                 /* "@app/<star>" or "utils", with at most one '*' */
  GStrv  targets;                 /* project paths, with at most one '*' */
} PathPattern;

typedef struct
{
  char *prefix;                   /* module path, crate name, namespace prefix, package name */
  char *dir;                      /* project directory it maps to */
  char *entry;                    /* package.json `main`, relative to @dir, or NULL */
} Mapping;

struct _LodeImportResolver
{
  GObject     parent_instance;

  char       *root;
  GHashTable *files;              /* path → the same string (a set whose strings the others
                                   * borrow) */
  GHashTable *dirs;               /* directory → GPtrArray of paths directly in it, borrowed */
  GHashTable *trees;              /* directory → number of files below it, any depth */
  GHashTable *basenames;          /* base name → GPtrArray of paths, borrowed */
  GHashTable *declared;           /* path → GStrv of packages/namespaces it declares */
  GHashTable *packages;           /* package/namespace → GPtrArray of paths, borrowed */

  GPtrArray  *tsconfigs;          /* TsConfig, deepest directory first */
  GPtrArray  *js_packages;        /* Mapping: package.json name → directory */
  GPtrArray  *include_dirs;       /* project directories from compile_commands.json */
  GHashTable *make_include_dirs;  /* a Makefile's directory ("" for the root) → GPtrArray of
                                   * the include directories its flags name, in order, for
                                   * the files below it */
  GPtrArray  *go_modules;         /* Mapping: module path → directory */
  GPtrArray  *crates;             /* Mapping: crate name → src directory */
  GPtrArray  *psr4;               /* Mapping: namespace prefix (with '\') → directory */
  GPtrArray  *dart_packages;      /* Mapping: pubspec name → lib directory */
  GPtrArray  *swift_targets;      /* Mapping: target name → directory */

  /* Derived from the files, rebuilt when asked for after a file came or went. */
  GPtrArray  *python_roots;       /* directories holding top-level Python packages */
  GPtrArray  *lib_dirs;           /* directories named lib (Ruby load path) */
  GHashTable *swift_modules;      /* module → GPtrArray of its .swift files, borrowed */
  guint       derived_valid : 1;
};

/* One resolution: the targets found and, when there are none, the package; the key. */
typedef struct
{
  LodeImportResolver *self;
  const char         *from;
  char               *from_dir;
  const LodeImport   *import;
  const char         *spec;
  GPtrArray          *targets;
  char               *package;
  char               *key;
} Resolve;

typedef void (*ResolveFunc) (Resolve *r);

/* Path helpers. Project paths are relative, '/'-separated, without "." or ".." parts; the
 * root directory is "". */

static inline char *
path_dirname (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? g_strndup (path, slash - path) : g_strdup ("");
}

static inline const char *
path_basename (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? slash + 1 : path;
}

static inline gboolean
has_file (LodeImportResolver *self,
          const char         *path)
{
  return path != NULL && g_hash_table_contains (self->files, path);
}

/* Whether @path lies in the directory @dir, at any depth. */
static inline gboolean
path_in_dir (const char *path,
             const char *dir)
{
  gsize n = strlen (dir);

  return n == 0 || (strncmp (path, dir, n) == 0 && path[n] == '/');
}

static inline GPtrArray *
dir_files (LodeImportResolver *self,
           const char         *dir)
{
  return dir != NULL ? g_hash_table_lookup (self->dirs, dir) : NULL;
}

static inline int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/* lode-import-files.c */
char        *_lode_import_path_join              (const char         *dir,
                                                  const char         *rel);
char        *_lode_import_key_for_component      (const char         *component,
                                                  gsize               len);
char        *_lode_import_key_for_last_component (const char         *path);
char        *_lode_import_read_project_file      (LodeImportResolver *self,
                                                  const char         *path,
                                                  gsize               max,
                                                  gsize              *len);
gboolean     _lode_import_index_file             (LodeImportResolver *self,
                                                  const char         *path);
gboolean     _lode_import_unindex_file           (LodeImportResolver *self,
                                                  const char         *path);
void         _lode_import_ensure_derived         (LodeImportResolver *self);
const char  *_lode_import_find_by_suffix         (LodeImportResolver *self,
                                                  const char         *from,
                                                  const char         *suffix);

/* lode-import-configs.c */
void         _lode_import_ts_config_free         (TsConfig           *config);
void         _lode_import_mapping_free           (Mapping            *mapping);
void         _lode_import_load_configs           (LodeImportResolver *self);
gboolean     _lode_import_is_read_config         (const char         *path);

/* lode-import-rules.c */
ResolveFunc  _lode_import_resolve_func_for       (LodeImportResolver *self,
                                                  const char         *from,
                                                  const LodeImport   *import);
gboolean     _lode_import_rust_is_root_file      (const char         *base);

G_END_DECLS
