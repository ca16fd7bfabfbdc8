/* lode-calls-resolver.c — call sites bound to the definitions the code names
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-calls"

#include "config.h"

#include "lode-calls-resolver-private.h"

/*
 * A pure module: files (their symbols, call sites, bindings and imports) in, edges out.
 * Nothing here reads a file or a store, so the indexer, the tests and the compiler bench
 * (bench/callgraph-gcc.py) run the same rules.
 *
 * A call is resolved by the first rule that finds anything, in this order:
 *
 *   local    the caller's own scope and file: a function nested in the caller, a method of
 *            the caller's class (in languages where a bare name reaches it), a function of
 *            the file (C `static` ones only there; a prototype leads to its definition)
 *   import   a name the file imports, through the import graph's resolution (aliases,
 *            re-exports followed up to 4 files, `from x import y`, Go packages, Rust `use`,
 *            C and C++ headers included directly or not)
 *   receiver the type of the receiver as the code states it: `self`/`this`, a typed
 *            parameter, local or field, the result of a constructor or of a function whose
 *            return type is written; its bases; through an interface its implementations
 *   package  the caller's package, namespace or module (Go directory, Java/Kotlin package,
 *            C# and PHP namespace, Swift module)
 *   unique   the only definition of the name in the project, only where a name reaches
 *            another file without an import (C, C++, Ruby, PHP, Swift)
 *
 * A rule that finds several definitions ends in AMBIGUOUS with them all; an import from a
 * dependency ends in EXTERNAL with its package; a receiver whose type the code does not
 * state, a name nothing defines or imports, end in UNRESOLVED. A call is never bound to a
 * definition merely because it has the same name: `take` and `describe` that nothing
 * imports stay unresolved even when the project defines a `take`.
 */

G_DEFINE_FINAL_TYPE (LodeCallResolver, lode_call_resolver, G_TYPE_OBJECT)

static LangFlags
flags_for (const char *language)
{
  static const struct { const char *id; LangFlags flags; } table[] = {
    { "c", FLAG_GLOBAL | FLAG_INCLUDES },
    { "cpp", FLAG_GLOBAL | FLAG_INCLUDES | FLAG_IMPLICIT_SELF },
    { "csharp", FLAG_IMPLICIT_SELF | FLAG_PACKAGE_DECL },
    { "go", FLAG_PACKAGE_DIR },
    { "java", FLAG_IMPLICIT_SELF | FLAG_PACKAGE_DECL },
    { "kotlin", FLAG_IMPLICIT_SELF | FLAG_PACKAGE_DECL },
    { "php", FLAG_GLOBAL | FLAG_PACKAGE_DECL },
    { "ruby", FLAG_GLOBAL | FLAG_IMPLICIT_SELF },
    { "swift", FLAG_IMPLICIT_SELF | FLAG_MODULE_WIDE },
    { "scala", FLAG_IMPLICIT_SELF | FLAG_PACKAGE_DECL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (strcmp (language, table[i].id) == 0)
      return table[i].flags;
  return 0;
}

/* Life cycle -------------------------------------------------------------------------- */

static void
file_free (File *file)
{
  guint n = file->n_imports;

  g_free (file->symbols);
  g_free (file->bindings);
  g_clear_pointer (&file->calls, lode_calls_free);
  g_clear_pointer (&file->local, g_array_unref);
  g_clear_pointer (&file->wrappers, g_array_unref);
  g_clear_pointer (&file->closure, g_hash_table_unref);
  for (guint i = 0; file->targets != NULL && i < n; i++)
    if (file->targets[i] != NULL)
      g_array_unref (file->targets[i]);
  for (guint i = 0; file->packages != NULL && i < n; i++)
    g_free (file->packages[i]);
  g_free (file->targets);
  g_free (file->packages);
  g_free (file->imports);
  g_free (file->package);
  g_free (file);
}

static void
lode_call_resolver_finalize (GObject *object)
{
  LodeCallResolver *self = LODE_CALL_RESOLVER (object);

  g_clear_object (&self->imports);
  g_ptr_array_unref (self->files);
  g_string_chunk_free (self->strings);
  g_hash_table_unref (self->by_path);
  g_hash_table_unref (self->by_name);
  g_array_unref (self->runs);
  g_free (self->named);
  g_hash_table_unref (self->by_dir);
  g_hash_table_unref (self->by_package);
  g_hash_table_unref (self->namespaces);

  G_OBJECT_CLASS (lode_call_resolver_parent_class)->finalize (object);
}

static void
lode_call_resolver_class_init (LodeCallResolverClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lode_call_resolver_finalize;
}

static void
lode_call_resolver_init (LodeCallResolver *self)
{
  self->strings = g_string_chunk_new (64 * 1024);
  self->files = g_ptr_array_new_with_free_func ((GDestroyNotify) file_free);
  self->by_path = g_hash_table_new (g_str_hash, g_str_equal);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->runs = g_array_new (FALSE, FALSE, sizeof (NameRun));
  self->by_dir = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                        (GDestroyNotify) g_array_unref);
  self->by_package = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                            (GDestroyNotify) g_array_unref);
  self->namespaces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * lode_call_resolver_new:
 * @imports: (nullable): resolves the files' imports (and Rust paths) to project files
 *
 * Returns: (transfer full): an empty resolver
 */
LodeCallResolver *
lode_call_resolver_new (LodeImportResolver *imports)
{
  LodeCallResolver *self = g_object_new (LODE_TYPE_CALL_RESOLVER, NULL);

  g_return_val_if_fail (imports == NULL || LODE_IS_IMPORT_RESOLVER (imports), NULL);
  if (imports != NULL)
    self->imports = g_object_ref (imports);
  return self;
}

/* The symbols of a file whose bodies call their own name (wrappers): all that resolving
 * other files needs of its sites. */
static GArray *
wrappers_of (GPtrArray       *symbols,
             const LodeCalls *calls)
{
  GArray *wrappers = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < calls->sites->len; i++)
    {
      const LodeCallSite *site = g_ptr_array_index (calls->sites, i);

      if (site->caller >= 0 && (guint) site->caller < symbols->len &&
          strcmp (site->name, ((LodeSymbol *) g_ptr_array_index (symbols,
                                                                 site->caller))->name) == 0)
        g_array_append_val (wrappers, site->caller);
    }
  return wrappers;
}

/* @text in the resolver's strings, once however many files name it. */
static const char *
intern (LodeCallResolver *self,
        const char       *text)
{
  return text != NULL ? g_string_chunk_insert_const (self->strings, text) : NULL;
}

static void
copy_symbols (LodeCallResolver *self,
              File             *file,
              GPtrArray        *symbols)
{
  file->n_symbols = symbols->len;
  file->symbols = g_new (LodeCallSymbol, MAX (symbols->len, 1));
  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeSymbol *symbol = g_ptr_array_index (symbols, i);

      file->symbols[i] = (LodeCallSymbol) {
        .name = intern (self, symbol->name),
        .kind = symbol->kind,
        .container = intern (self, symbol->container),
        .package = intern (self, symbol->package),
        .start_line = symbol->start_line,
        .end_line = symbol->end_line,
      };
    }
}

/* Takes the bindings out of @calls. */
static void
copy_bindings (LodeCallResolver *self,
               File             *file,
               LodeCalls        *calls)
{
  GPtrArray *bindings = calls->bindings;

  file->n_bindings = bindings->len;
  file->bindings = g_new (LodeCallBinding, MAX (bindings->len, 1));
  for (guint i = 0; i < bindings->len; i++)
    {
      const LodeCallBinding *binding = g_ptr_array_index (bindings, i);

      file->bindings[i] = (LodeCallBinding) {
        .name = (char *) intern (self, binding->name),
        .target = (char *) intern (self, binding->target),
        .path = (char *) intern (self, binding->path),
        .line = binding->line,
        .scope = binding->scope,
        .kind = binding->kind,
      };
    }
  g_ptr_array_set_size (bindings, 0);
}

static void
copy_imports (LodeCallResolver *self,
              File             *file,
              GPtrArray        *imports)
{
  file->n_imports = imports != NULL ? imports->len : 0;
  file->imports = g_new (LodeImport, MAX (file->n_imports, 1));
  for (guint i = 0; i < file->n_imports; i++)
    {
      const LodeImport *import = g_ptr_array_index (imports, i);

      file->imports[i] = (LodeImport) {
        .specifier = (char *) intern (self, import->specifier),
        .name = (char *) intern (self, import->name),
        .kind = import->kind,
        .line = import->line,
      };
    }
}

/**
 * lode_call_resolver_add_file:
 * @self: a #LodeCallResolver
 * @path: the file's path in the project
 * @language_id: its language
 * @symbols: (element-type LodeSymbol): its definitions, as the chunker listed them, copied
 * @calls: (transfer full): its call sites and bindings
 * @imports: (nullable) (element-type LodeImport): its imports, copied
 *
 * Returns: the file's index
 */
guint
lode_call_resolver_add_file (LodeCallResolver *self,
                             const char       *path,
                             const char       *language_id,
                             GPtrArray        *symbols,
                             LodeCalls        *calls,
                             GPtrArray        *imports)
{
  g_autofree char *dir = NULL;
  File *file;
  const char *slash;

  g_return_val_if_fail (LODE_IS_CALL_RESOLVER (self), 0);
  g_return_val_if_fail (path != NULL && language_id != NULL, 0);
  g_return_val_if_fail (symbols != NULL && calls != NULL, 0);

  file = g_new0 (File, 1);
  file->path = intern (self, path);
  slash = strrchr (path, '/');
  dir = g_strndup (path, slash != NULL ? slash - path : 0);
  file->dir = intern (self, dir);
  file->language = g_intern_string (language_id);
  file->flags = flags_for (language_id);
  /* What resolving other files needs of these sites, so that they can go
   * (lode_call_resolver_drop_sites()). */
  file->wrappers = wrappers_of (symbols, calls);
  copy_symbols (self, file, symbols);
  copy_bindings (self, file, calls);
  copy_imports (self, file, imports);
  file->calls = calls;
  file->targets = g_new0 (GArray *, MAX (file->n_imports, 1));
  file->packages = g_new0 (char *, MAX (file->n_imports, 1));
  g_ptr_array_add (self->files, file);
  g_hash_table_insert (self->by_path, (gpointer) file->path, GUINT_TO_POINTER (self->files->len));
  self->indexed = FALSE;
  return self->files->len - 1;
}

static gboolean
same_symbols (GPtrArray *a,
              GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      const LodeSymbol *x = g_ptr_array_index (a, i);
      const LodeSymbol *y = g_ptr_array_index (b, i);

      if (g_strcmp0 (x->name, y->name) != 0 || g_strcmp0 (x->kind, y->kind) != 0 ||
          g_strcmp0 (x->container, y->container) != 0 ||
          g_strcmp0 (x->package, y->package) != 0 || x->start_line != y->start_line ||
          x->end_line != y->end_line)
        return FALSE;
    }
  return TRUE;
}

static gboolean
same_bindings (GPtrArray *a,
               GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      const LodeCallBinding *x = g_ptr_array_index (a, i);
      const LodeCallBinding *y = g_ptr_array_index (b, i);

      if (g_strcmp0 (x->name, y->name) != 0 || g_strcmp0 (x->target, y->target) != 0 ||
          g_strcmp0 (x->path, y->path) != 0 || x->line != y->line || x->scope != y->scope ||
          x->kind != y->kind)
        return FALSE;
    }
  return TRUE;
}

static gboolean
same_imports (GPtrArray *a,
              GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      const LodeImport *x = g_ptr_array_index (a, i);
      const LodeImport *y = g_ptr_array_index (b, i);

      if (g_strcmp0 (x->specifier, y->specifier) != 0 || g_strcmp0 (x->name, y->name) != 0 ||
          x->kind != y->kind || x->line != y->line)
        return FALSE;
    }
  return TRUE;
}

static gboolean
same_guints (GArray *a,
             GArray *b)
{
  return a->len == b->len &&
         (a->len == 0 || memcmp (a->data, b->data, a->len * sizeof (guint)) == 0);
}

/**
 * lode_call_resolver_same_for_others:
 * @symbols_a: (element-type LodeSymbol): a file's definitions
 * @calls_a: its call sites and bindings
 * @imports_a: (element-type LodeImport): its imports
 * @symbols_b: (element-type LodeSymbol): the same of another version of the file
 * @calls_b: …
 * @imports_b: (element-type LodeImport): …
 *
 * Whether two versions of one file (of one language) resolve the calls of other files
 * alike: everything lode_call_resolver_add_file() keeps of a file once its sites are dropped
 * is the same, lines included (a caller's row names the line of its target). An edit for
 * which this holds changes the calls of its own file only.
 *
 * Returns: %TRUE when the two give the resolver the same definitions, bindings, file-local
 *   symbols, conditional blocks, wrappers and imports
 */
gboolean
lode_call_resolver_same_for_others (GPtrArray       *symbols_a,
                                    const LodeCalls *calls_a,
                                    GPtrArray       *imports_a,
                                    GPtrArray       *symbols_b,
                                    const LodeCalls *calls_b,
                                    GPtrArray       *imports_b)
{
  g_autoptr(GArray) wrappers_a = NULL;
  g_autoptr(GArray) wrappers_b = NULL;

  g_return_val_if_fail (symbols_a != NULL && calls_a != NULL && imports_a != NULL, FALSE);
  g_return_val_if_fail (symbols_b != NULL && calls_b != NULL && imports_b != NULL, FALSE);

  if (!same_symbols (symbols_a, symbols_b) ||
      !same_bindings (calls_a->bindings, calls_b->bindings) ||
      !same_guints (calls_a->file_local, calls_b->file_local) ||
      !same_guints (calls_a->conditional, calls_b->conditional) ||
      !same_imports (imports_a, imports_b))
    return FALSE;
  wrappers_a = wrappers_of (symbols_a, calls_a);
  wrappers_b = wrappers_of (symbols_b, calls_b);
  return same_guints (wrappers_a, wrappers_b);
}

guint
lode_call_resolver_get_n_files (LodeCallResolver *self)
{
  g_return_val_if_fail (LODE_IS_CALL_RESOLVER (self), 0);

  return self->files->len;
}

const char *
lode_call_resolver_get_path (LodeCallResolver *self,
                             guint             file)
{
  g_return_val_if_fail (LODE_IS_CALL_RESOLVER (self), NULL);
  g_return_val_if_fail (file < self->files->len, NULL);

  return ((File *) g_ptr_array_index (self->files, file))->path;
}

/**
 * lode_call_resolver_drop_sites:
 * @self: a #LodeCallResolver
 * @file: a file's index
 *
 * Frees the call sites of @file, keeping what resolving the other files' calls needs of
 * them: a caller that resolves file by file (lode_call_resolver_resolve_sites()) then holds
 * every file's definitions, but the sites of one file at a time.
 */
void
lode_call_resolver_drop_sites (LodeCallResolver *self,
                               guint             file)
{
  File *f;

  g_return_if_fail (LODE_IS_CALL_RESOLVER (self));
  g_return_if_fail (file < self->files->len);

  f = g_ptr_array_index (self->files, file);
  g_ptr_array_unref (f->calls->sites);
  f->calls->sites = g_ptr_array_new ();
}

/**
 * lode_call_resolver_get_symbols:
 * @self: a #LodeCallResolver
 * @file: a file's index
 * @n_symbols: (out) (optional): how many there are
 *
 * Returns: (transfer none) (array length=n_symbols): the symbols of @file, in the order it
 *   was added with (a #LodeCallTarget's @symbol)
 */
const LodeCallSymbol *
lode_call_resolver_get_symbols (LodeCallResolver *self,
                                guint             file,
                                guint            *n_symbols)
{
  File *f;

  g_return_val_if_fail (LODE_IS_CALL_RESOLVER (self), NULL);
  g_return_val_if_fail (file < self->files->len, NULL);

  f = g_ptr_array_index (self->files, file);
  if (n_symbols != NULL)
    *n_symbols = f->n_symbols;
  return f->symbols;
}

/* Indexes ----------------------------------------------------------------------------- */

static void
append_index (GHashTable *table,
              const char *key,
              guint       value)
{
  GArray *list = g_hash_table_lookup (table, key);

  if (list == NULL)
    {
      list = g_array_new (FALSE, FALSE, sizeof (guint));
      g_hash_table_insert (table, (gpointer) key, list);
    }
  g_array_append_val (list, value);
}

/* The run of @name in the resolver's @named, added when new. */
static NameRun *
name_run (LodeCallResolver *self,
          const char       *name)
{
  guint run = GPOINTER_TO_UINT (g_hash_table_lookup (self->by_name, name));

  if (run == 0)
    {
      g_array_append_val (self->runs, ((NameRun) { 0, 0 }));
      run = self->runs->len;
      g_hash_table_insert (self->by_name, (gpointer) name, GUINT_TO_POINTER (run));
    }
  return &g_array_index (self->runs, NameRun, run - 1);
}

static void
build_indexes (LodeCallResolver *self)
{
  guint total = 0;

  if (self->indexed)
    return;
  g_hash_table_remove_all (self->by_name);
  g_array_set_size (self->runs, 0);
  g_hash_table_remove_all (self->by_dir);
  g_hash_table_remove_all (self->by_package);
  g_hash_table_remove_all (self->namespaces);
  for (guint f = 0; f < self->files->len; f++)
    {
      File *file = g_ptr_array_index (self->files, f);

      /* A sorted copy, not a hash table per file (a large tree has thousands of files with
       * calls); the calls keep the order their bytes give, which the comparison of a
       * file's two versions reads. */
      g_clear_pointer (&file->local, g_array_unref);
      file->local = g_array_copy (file->calls->file_local);
      g_array_sort (file->local, compare_guints);
      g_clear_pointer (&file->package, g_free);
      for (guint s = 0; s < file->n_symbols; s++)
        {
          const LodeCallSymbol *symbol = &file->symbols[s];

          name_run (self, symbol->name)->n++;
          if (file->package == NULL && symbol->package != NULL)
            file->package = g_strdup (symbol->package);
          if ((file->flags & FLAG_INCLUDES) && symbol->package != NULL)
            g_hash_table_add (self->namespaces,
                              g_strndup (symbol->package, strcspn (symbol->package, ":")));
        }
      append_index (self->by_dir, file->dir, f);
      if (file->package != NULL && (file->flags & FLAG_PACKAGE_DECL))
        append_index (self->by_package, file->package, f);
    }

  /* Each name's run after the runs before it, then filled in the same order. */
  for (guint r = 0; r < self->runs->len; r++)
    {
      NameRun *run = &g_array_index (self->runs, NameRun, r);

      run->start = total;
      total += run->n;
      run->n = 0;
    }
  g_free (self->named);
  self->named = g_new (LodeCallTarget, MAX (total, 1));
  for (guint f = 0; f < self->files->len; f++)
    {
      File *file = g_ptr_array_index (self->files, f);

      for (guint s = 0; s < file->n_symbols; s++)
        {
          NameRun *run = name_run (self, file->symbols[s].name);

          self->named[run->start + run->n++] = (LodeCallTarget) { f, s };
        }
    }
  self->indexed = TRUE;
}

/* A function and a type of one name both fit a call: the call is the function's. */
static void
prefer_functions (LodeCallResolver *self,
                  Found            *found)
{
  gboolean has_function = FALSE;

  for (guint i = 0; i < found_n (found); i++)
    if (!kind_in (symbol_at (self, g_array_index (found->targets, LodeCallTarget, i))->kind,
                  _lode_calls_class_kinds))
      has_function = TRUE;
  for (guint i = found_n (found); has_function && i > 0; i--)
    if (kind_in (symbol_at (self, g_array_index (found->targets, LodeCallTarget, i - 1))->kind,
                 _lode_calls_class_kinds))
      g_array_remove_index (found->targets, i - 1);
}

/* Methods ----------------------------------------------------------------------------- */

static gboolean find_method (LodeCallResolver *self,
                             LodeCallTarget    type,
                             const char       *name,
                             guint             depth,
                             Found            *found);

/* The bases of @type: the files' SUPER bindings of its definition. */
static void
bases_of (LodeCallResolver *self,
          LodeCallTarget    type,
          Found            *bases)
{
  File *file = g_ptr_array_index (self->files, type.file);

  for (guint i = 0; i < file->n_bindings; i++)
    {
      const LodeCallBinding *b = &file->bindings[i];
      g_auto(Found) base = { 0 };

      if (b->kind != LODE_CALL_BINDING_SUPER || b->scope != (gint) type.symbol)
        continue;
      if (_lode_calls_find_type (self, type.file, b->target, &base))
        for (guint j = 0; j < found_n (&base); j++)
          found_add (bases, g_array_index (base.targets, LodeCallTarget, j));
    }
}

/* Methods @name of @type (defined with it or in an impl, extension or partial elsewhere),
 * else of its bases; through an interface without such a method, the methods of the types
 * that implement it. */
static gboolean
find_method (LodeCallResolver *self,
             LodeCallTarget    type,
             const char       *name,
             guint             depth,
             Found            *found)
{
  const LodeCallSymbol *symbol = symbol_at (self, type);
  guint n_list;
  const LodeCallTarget *list = named_all (self, name, &n_list);
  g_auto(Found) bases = { 0 };
  g_auto(Found) near = { 0 };
  g_auto(Found) far = { 0 };
  gboolean defined = FALSE;

  if (depth > MAX_HOPS)
    return FALSE;
  /* C++: a method declared in its class and defined elsewhere (`int A::f () {…}`) is
   * the definition's. */
  for (guint i = 0; i < n_list; i++)
    {
      const LodeCallSymbol *method = symbol_at (self, list[i]);

      if (method->container != NULL && strcmp (method->container, symbol->name) == 0 &&
          kind_in (method->kind, _lode_calls_method_kinds) &&
          strcmp (method->kind, "prototype") != 0)
        defined = TRUE;
    }
  for (guint i = 0; i < n_list; i++)
    {
      LodeCallTarget t = list[i];
      const LodeCallSymbol *method = symbol_at (self, t);
      File *a = g_ptr_array_index (self->files, t.file);
      File *b = g_ptr_array_index (self->files, type.file);

      if (method->container == NULL || strcmp (method->container, symbol->name) != 0 ||
          !kind_in (method->kind, _lode_calls_method_kinds) ||
          (defined && strcmp (method->kind, "prototype") == 0))
        continue;
      if (t.file == type.file || strcmp (a->dir, b->dir) == 0)
        found_add (&near, t);
      else if (a->language == b->language || ((a->flags & FLAG_INCLUDES) &&
                                               (b->flags & FLAG_INCLUDES)))
        found_add (&far, t);
    }
  if (found_n (&near) > 0 || found_n (&far) > 0)
    {
      Found *from = found_n (&near) > 0 ? &near : &far;

      for (guint i = 0; i < from->targets->len; i++)
        found_add (found, g_array_index (from->targets, LodeCallTarget, i));
      return TRUE;
    }

  bases_of (self, type, &bases);
  for (guint i = 0; i < found_n (&bases); i++)
    if (find_method (self, g_array_index (bases.targets, LodeCallTarget, i), name, depth + 1,
                     found))
      return TRUE;
  return FALSE;
}

/* Through an interface, trait or protocol that declares no such method: the methods of
 * that name whose class names it among its bases, or in Go, where nothing names it, every
 * method of that name. */
static void
implementations (LodeCallResolver *self,
                 LodeCallTarget    type,
                 const char       *name,
                 Found            *found)
{
  const LodeCallSymbol *symbol = symbol_at (self, type);
  guint n_list;
  const LodeCallTarget *list = named_all (self, name, &n_list);
  gboolean structural = strcmp (((File *) g_ptr_array_index (self->files,
                                                             type.file))->language,
                                "go") == 0;

  if (!kind_in (symbol->kind, (const char * const []) {
                  "interface", "trait", "protocol", NULL }))
    return;
  for (guint i = 0; i < n_list; i++)
    {
      LodeCallTarget t = list[i];
      const LodeCallSymbol *method = symbol_at (self, t);
      g_auto(Found) owner = { 0 };
      g_auto(Found) bases = { 0 };

      if (method->container == NULL || !kind_in (method->kind, _lode_calls_method_kinds))
        continue;
      if (structural)
        {
          found_add (found, t);
          continue;
        }
      if (!_lode_calls_find_type (self, t.file, method->container, &owner))
        continue;
      for (guint j = 0; j < found_n (&owner); j++)
        bases_of (self, g_array_index (owner.targets, LodeCallTarget, j), &bases);
      for (guint j = 0; j < found_n (&bases); j++)
        {
          LodeCallTarget b = g_array_index (bases.targets, LodeCallTarget, j);

          if (b.file == type.file && b.symbol == type.symbol)
            found_add (found, t);
        }
    }
}

/* Receivers --------------------------------------------------------------------------- */

/* `a.b().c->d::e` → a, b(), c, d, e: balanced parentheses stay with their name. */
static GPtrArray *
split_qualifier (const char *qualifier)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  const char *start = qualifier, *p = qualifier;
  guint depth = 0;

  for (; *p != '\0'; p++)
    {
      if (*p == '(' || *p == '[' || *p == '<')
        depth++;
      else if ((*p == ')' || *p == ']' || *p == '>') && depth > 0 &&
               !(*p == '>' && p > qualifier && p[-1] == '-' && depth == 0))
        depth--;
      if (depth > 0)
        continue;
      if (*p == '.' || *p == '\\' || (*p == ':' && p[1] == ':') ||
          (*p == '-' && p[1] == '>') || (*p == '?' && p[1] == '.'))
        {
          if (p > start)
            g_ptr_array_add (parts, g_strndup (start, p - start));
          p += (*p == '.' || *p == '\\') ? 0 : 1;
          start = p + 1;
        }
    }
  if (p > start)
    g_ptr_array_add (parts, g_strndup (start, p - start));
  return parts;
}

static gboolean resolve_type_of_call (LodeCallResolver *self,
                                      guint             f,
                                      gint              caller,
                                      const char       *callee,
                                      guint             depth,
                                      Found            *type);

/* The class of the caller: the definition its container names. */
static gboolean
caller_class (LodeCallResolver *self,
              guint             f,
              gint              caller,
              Found            *type)
{
  File *file = g_ptr_array_index (self->files, f);
  const LodeCallSymbol *symbol;

  if (caller < 0)
    return FALSE;
  symbol = &file->symbols[caller];
  if (kind_in (symbol->kind, _lode_calls_class_kinds))
    {
      found_add (type, (LodeCallTarget) { f, caller });
      return TRUE;
    }
  if (symbol->container == NULL)
    return FALSE;
  return _lode_calls_find_type (self, f, symbol->container, type);
}

/* The type of field @name of @type, as its class states it. */
static gboolean
field_type (LodeCallResolver *self,
            LodeCallTarget    type,
            const char       *name,
            guint             depth,
            Found            *out)
{
  File *file = g_ptr_array_index (self->files, type.file);
  g_auto(Found) bases = { 0 };

  if (depth > MAX_HOPS)
    return FALSE;
  for (guint i = 0; i < file->n_bindings; i++)
    {
      const LodeCallBinding *b = &file->bindings[i];

      if (b->scope != (gint) type.symbol || strcmp (b->name, name) != 0)
        continue;
      if (b->kind == LODE_CALL_BINDING_FIELD)
        return _lode_calls_find_type (self, type.file, b->target, out);
      if (b->kind == LODE_CALL_BINDING_FIELD_RESULT)
        return resolve_type_of_call (self, type.file, type.symbol, b->target, depth + 1, out);
    }
  bases_of (self, type, &bases);
  for (guint i = 0; i < found_n (&bases); i++)
    if (field_type (self, g_array_index (bases.targets, LodeCallTarget, i), name, depth + 1,
                    out))
      return TRUE;
  return FALSE;
}

static gboolean resolve_named (LodeCallResolver *self,
                               guint             f,
                               gint              caller,
                               const char       *name,
                               const char       *qualifier,
                               LodeCallReceiver  receiver_kind,
                               const char       *receiver,
                               guint             flags,
                               guint             depth,
                               Found            *found);

/* The type a call's result has: a class called as a constructor, a function's declared
 * return type (`Self` is its class). */
static gboolean
resolve_type_of_call (LodeCallResolver *self,
                      guint             f,
                      gint              caller,
                      const char       *callee,
                      guint             depth,
                      Found            *type)
{
  g_autofree char *text = g_strdup (callee);
  const char *last = text;
  g_auto(Found) target = { 0 };
  LodeCallTarget t;
  const LodeCallSymbol *symbol;
  File *file;

  if (depth > MAX_HOPS)
    return FALSE;
  /* `a::b::f` → qualifier `a::b`, name `f`. */
  {
    char *cut = NULL;
    guint width = 0;

    for (char *p = text; *p != '\0'; p++)
      if (*p == '.' || *p == '\\')
        cut = p, width = 1;
      else if ((*p == ':' && p[1] == ':') || (*p == '-' && p[1] == '>'))
        cut = p++, width = 2;
    if (cut != NULL)
      {
        *cut = '\0';
        last = cut + width;
      }
  }
  if (last > text)
    {
      /* Ruby `Foo.new`, Rust `X::new` that the project does not define: the type itself. */
      if (resolve_named (self, f, caller, last, text, LODE_CALL_RECEIVER_UNKNOWN, NULL,
                         LODE_CALL_SCOPED, depth + 1, &target) && found_n (&target) == 1)
        ;
      else if (strcmp (last, "new") == 0)
        return _lode_calls_find_type (self, f, text, type);
      else
        return FALSE;
    }
  else if (!resolve_named (self, f, caller, last, NULL, LODE_CALL_RECEIVER_UNKNOWN, NULL, 0,
                           depth + 1, &target))
    return FALSE;
  if (found_n (&target) != 1)
    return FALSE;
  t = g_array_index (target.targets, LodeCallTarget, 0);
  symbol = symbol_at (self, t);
  if (kind_in (symbol->kind, _lode_calls_class_kinds))
    {
      found_add (type, t);
      return TRUE;
    }
  file = g_ptr_array_index (self->files, t.file);
  for (guint i = 0; i < file->n_bindings; i++)
    {
      const LodeCallBinding *b = &file->bindings[i];

      if (b->kind != LODE_CALL_BINDING_RETURNS || b->scope != (gint) t.symbol)
        continue;
      if ((strcmp (b->target, "Self") == 0 || strcmp (b->target, "self") == 0 ||
           strcmp (b->target, "static") == 0) && symbol->container != NULL)
        return _lode_calls_find_type (self, t.file, symbol->container, type);
      return _lode_calls_find_type (self, t.file, b->target, type);
    }
  /* A constructor method (`__init__`, `initialize`, `new`): its class. */
  if (symbol->container != NULL && strcmp (symbol->kind, "method") == 0 &&
      (strcmp (symbol->name, "new") == 0 || strcmp (symbol->name, "__init__") == 0 ||
       strcmp (symbol->name, "initialize") == 0 || strcmp (symbol->name, symbol->container) == 0))
    return _lode_calls_find_type (self, t.file, symbol->container, type);
  return FALSE;
}

/* The constructor a class stands for in a call. */
static void
constructors (LodeCallResolver *self,
              Found            *found)
{
  for (guint i = 0; i < found_n (found); i++)
    {
      LodeCallTarget *t = &g_array_index (found->targets, LodeCallTarget, i);
      const LodeCallSymbol *symbol = symbol_at (self, *t);
      static const char * const names[] = {
        "__init__", "constructor", "init", "__construct", "initialize", NULL
      };
      g_auto(Found) ctor = { 0 };

      if (!kind_in (symbol->kind, _lode_calls_class_kinds))
        continue;
      for (guint n = 0; names[n] != NULL && found_n (&ctor) == 0; n++)
        find_method (self, *t, names[n], MAX_HOPS, &ctor);
      if (found_n (&ctor) == 0)
        find_method (self, *t, symbol->name, MAX_HOPS, &ctor);
      if (found_n (&ctor) == 1)
        *t = g_array_index (ctor.targets, LodeCallTarget, 0);
    }
}

static void constructors (LodeCallResolver *self,
                          Found            *found);

/* A call of @name on an instance of @types. */
static gboolean
on_types (LodeCallResolver *self,
          Found            *types,
          const char       *name,
          double            confidence,
          Found            *found)
{
  for (guint i = 0; i < found_n (types); i++)
    find_method (self, g_array_index (types->targets, LodeCallTarget, i), name, 0, found);
  /* Ruby `Foo.new`, Rust `Foo::new` the project does not write: the constructor. */
  if (found_n (found) == 0 && strcmp (name, "new") == 0)
    {
      for (guint i = 0; i < found_n (types); i++)
        found_add (found, g_array_index (types->targets, LodeCallTarget, i));
      constructors (self, found);
    }
  if (found_n (found) == 0)
    {
      for (guint i = 0; i < found_n (types); i++)
        implementations (self, g_array_index (types->targets, LodeCallTarget, i), name, found);
      confidence = MIN (confidence, 0.75);
    }
  if (found_n (found) == 0)
    return FALSE;
  found_set (found, LODE_CALL_RULE_RECEIVER, confidence);
  return TRUE;
}

static gboolean
nested_in_caller (LodeCallResolver *self,
                  guint             f,
                  gint              caller,
                  const char       *name,
                  Found            *found)
{
  File *file = g_ptr_array_index (self->files, f);
  guint n;
  const LodeCallTarget *named = _lode_calls_named_in_file (self, f, name, &n);
  const LodeCallSymbol *outer;

  if (caller < 0)
    return FALSE;
  outer = &file->symbols[caller];
  for (guint i = 0; i < n; i++)
    {
      guint s = named[i].symbol;
      const LodeCallSymbol *symbol = &file->symbols[s];

      if ((gint) s != caller && symbol->start_line > outer->start_line &&
          symbol->end_line <= outer->end_line && kind_in (symbol->kind, _lode_calls_method_kinds))
        found_add (found, (LodeCallTarget) { f, s });
    }
  if (found_n (found) == 0)
    return FALSE;
  found_set (found, LODE_CALL_RULE_LOCAL, 1.0);
  return TRUE;
}

static gboolean
resolve_bare (LodeCallResolver *self,
              guint             f,
              gint              caller,
              const char       *name,
              guint             flags,
              Found            *found)
{
  File *file = g_ptr_array_index (self->files, f);
  Want want = (flags & LODE_CALL_NEW) ? WANT_TYPE : WANT_CALLABLE;

  if (nested_in_caller (self, f, caller, name, found))
    return TRUE;
  if (flags & LODE_CALL_LOCAL)
    return FALSE;

  /* A method of the caller's class or its bases, where a bare name reaches it. */
  if ((file->flags & FLAG_IMPLICIT_SELF) && !(flags & LODE_CALL_NEW))
    {
      g_auto(Found) type = { 0 };

      if (caller_class (self, f, caller, &type) && on_types (self, &type, name, 1.0, found))
        {
          LodeCallTarget t = g_array_index (found->targets, LodeCallTarget, 0);

          found_set (found, t.file == f ? LODE_CALL_RULE_LOCAL : LODE_CALL_RULE_RECEIVER,
                     found->confidence);
          return TRUE;
        }
      g_clear_pointer (&found->targets, g_array_unref);
    }

  return _lode_calls_in_scope (self, f, name, want, found);
}

/* C++ `ns::f()`: the `f` the file sees whose namespace ends with `ns`; a namespace the
 * project never declares (`std::`) is a dependency's. */
static gboolean
by_namespace (LodeCallResolver *self,
              guint             f,
              gint              caller,
              const char       *name,
              const char       *qualifier,
              Found            *found)
{
  g_auto(Found) all = { 0 };
  g_autofree char *top = NULL;
  const char *ns = qualifier;
  gsize n;

  while (*ns == ':')
    ns++;
  n = strlen (ns);
  if (resolve_bare (self, f, caller, name, 0, &all))
    for (guint i = 0; i < found_n (&all); i++)
      {
        LodeCallTarget t = g_array_index (all.targets, LodeCallTarget, i);
        const char *package = symbol_at (self, t)->package;
        gsize m = package != NULL ? strlen (package) : 0;

        if (m >= n && strcmp (package + m - n, ns) == 0 &&
            (m == n || (m > n + 1 && package[m - n - 1] == ':')))
          found_add (found, t);
      }
  if (found_n (found) > 0)
    {
      found_set (found, all.rule, all.confidence);
      return TRUE;
    }
  top = g_strndup (ns, strcspn (ns, ":"));
  if (!g_hash_table_contains (self->namespaces, top))
    {
      found->external = TRUE;
      found->package = g_steal_pointer (&top);
      found_set (found, LODE_CALL_RULE_IMPORT, 0.9);
      return TRUE;
    }
  return FALSE;
}

static gboolean
resolve_named (LodeCallResolver *self,
               guint             f,
               gint              caller,
               const char       *name,
               const char       *qualifier,
               LodeCallReceiver  receiver_kind,
               const char       *receiver,
               guint             flags,
               guint             depth,
               Found            *found)
{
  g_autoptr(GPtrArray) parts = NULL;
  g_auto(Found) types = { 0 };
  g_autoptr(GArray) files = NULL;
  g_autofree char *package = NULL;
  double confidence = 0.9;
  const char *first;
  const LodeCallBinding *bound = NULL;
  guint next = 1;

  if (depth > MAX_HOPS)
    return FALSE;
  if (qualifier == NULL)
    return resolve_bare (self, f, caller, name, flags, found);
  if (strcmp (qualifier, "?") == 0)
    return FALSE;

  parts = split_qualifier (qualifier);
  if (parts->len == 0)
    return FALSE;
  first = g_ptr_array_index (parts, 0);

  /* The receiver's type, as the caller states it. */
  if (receiver_kind == LODE_CALL_RECEIVER_SELF || strcmp (first, "self") == 0 ||
      strcmp (first, "this") == 0 || strcmp (first, "$this") == 0 ||
      strcmp (first, "Self") == 0 || strcmp (first, "static") == 0 ||
      strcmp (first, "super") == 0 || strcmp (first, "parent") == 0 ||
      strcmp (first, "cls") == 0 || first[0] == '@')
    {
      g_auto(Found) own = { 0 };

      if (!caller_class (self, f, caller, &own))
        return FALSE;
      if (strcmp (first, "super") == 0 || strcmp (first, "parent") == 0)
        for (guint i = 0; i < found_n (&own); i++)
          bases_of (self, g_array_index (own.targets, LodeCallTarget, i), &types);
      else
        {
          for (guint i = 0; i < found_n (&own); i++)
            found_add (&types, g_array_index (own.targets, LodeCallTarget, i));
          /* `@x.f`: the field x of self. */
          if (first[0] == '@' && first[1] != '\0')
            next = 0;
        }
      confidence = 0.95;
    }
  else if (receiver_kind == LODE_CALL_RECEIVER_TYPE)
    _lode_calls_find_type (self, f, receiver, &types);
  else if (receiver_kind == LODE_CALL_RECEIVER_RESULT)
    {
      resolve_type_of_call (self, f, caller, receiver, depth, &types);
      confidence = 0.85;
      /* `Foo.new(1).area`: the call's parts are the receiver, the rest are fields. */
      for (guint i = 0; i < parts->len; i++)
        if (strchr (g_ptr_array_index (parts, i), '(') != NULL)
          {
            next = i + 1;
            break;
          }
    }
  else
    {
      /* A module or package the file binds, by the longest run of parts. */
      files = g_array_new (FALSE, FALSE, sizeof (guint));
      for (guint n = parts->len; n > 0; n--)
        {
          g_autofree char *joined = NULL;
          GString *s = g_string_new (NULL);

          for (guint i = 0; i < n; i++)
            g_string_append_printf (s, "%s%s", i > 0 ? "." : "",
                                    (char *) g_ptr_array_index (parts, i));
          joined = g_string_free (s, FALSE);
          if (_lode_calls_module_binding (self, f, joined, files, &package, &bound))
            {
              next = n;
              break;
            }
        }
      if (files->len > 0 && next == parts->len)
        {
          for (guint i = 0; i < files->len; i++)
            _lode_calls_find_exported (self, g_array_index (files, guint, i), name, WANT_CALLABLE,
                                       1, found);
          if (found_n (found) > 0)
            {
              if (flags & LODE_CALL_NEW)
                constructors (self, found);
              found_set (found, LODE_CALL_RULE_IMPORT, 0.95);
              return TRUE;
            }
          /* The name bound is a class (`import a.b.C` then `C.m()`, C#'s
           * `using H = A.B.C;`). */
          if (bound != NULL)
            {
              const char *type = bound->target;

              if (type == NULL && bound->path != NULL)
                type = _lode_calls_last_part (bound->path);
              if (type != NULL && strcmp (type, "*") != 0 && strcmp (type, "default") != 0)
                for (guint i = 0; i < files->len; i++)
                  _lode_calls_find_exported (self, g_array_index (files, guint, i), type,
                                             WANT_TYPE, 1, &types);
            }
        }
      else if (files->len > 0 && next < parts->len)
        {
          /* `ns.Type.method`: a type of the module. */
          const char *type = g_ptr_array_index (parts, next);

          for (guint i = 0; i < files->len; i++)
            _lode_calls_find_exported (self, g_array_index (files, guint, i), type, WANT_TYPE, 1,
                                       &types);
          next++;
        }
      else if (package != NULL && files->len == 0)
        {
          found->external = TRUE;
          found->package = g_steal_pointer (&package);
          found_set (found, LODE_CALL_RULE_IMPORT, 0.9);
          return TRUE;
        }
      /* Java, C#, Kotlin, Swift, C++: a field of the caller's class, without `this`. */
      if (found_n (&types) == 0 && files->len == 0 && package == NULL &&
          (((File *) g_ptr_array_index (self->files, f))->flags & FLAG_IMPLICIT_SELF))
        {
          g_auto(Found) own = { 0 };

          if (caller_class (self, f, caller, &own))
            for (guint i = 0; i < found_n (&own); i++)
              field_type (self, g_array_index (own.targets, LodeCallTarget, i), first, 0,
                          &types);
          if (found_n (&types) > 0)
            next = 1;
        }
      if (found_n (&types) == 0 && files->len == 0)
        {
          /* A path to a type (`Foo::bar`, `Foo.create`, `a::b::Foo::new`), or to a
           * module the import graph resolves (Rust `crate::a::f`). */
          if (_lode_calls_find_type (self, f, qualifier, &types))
            next = parts->len;
          else if ((flags & LODE_CALL_SCOPED) &&
                   (((File *) g_ptr_array_index (self->files, f))->flags & FLAG_INCLUDES))
            return by_namespace (self, f, caller, name, qualifier, found);
          else if (self->imports != NULL && (flags & LODE_CALL_SCOPED))
            {
              File *file = g_ptr_array_index (self->files, f);
              g_autoptr(LodeImport) import = lode_import_new (qualifier, NULL,
                                                              LODE_IMPORT_MODULE, 0);
              g_auto(GStrv) paths = lode_import_resolver_resolve_all (self->imports,
                                                                      file->path, import,
                                                                      &package);

              for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
                {
                  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->by_path,
                                                                       paths[i]));

                  if (index > 0)
                    _lode_calls_find_exported (self, index - 1, name, WANT_CALLABLE, 1, found);
                }
              if (found_n (found) > 0)
                {
                  found_set (found, LODE_CALL_RULE_IMPORT, 0.9);
                  return TRUE;
                }
              if ((paths == NULL || paths[0] == NULL) && package != NULL &&
                  (g_str_has_prefix (qualifier, "std") || g_str_has_prefix (qualifier,
                                                                            package)))
                {
                  found->external = TRUE;
                  found->package = g_steal_pointer (&package);
                  found_set (found, LODE_CALL_RULE_IMPORT, 0.9);
                  return TRUE;
                }
            }
        }
    }

  /* The rest of the qualifier walks fields: `self.pool.get()`. */
  for (guint i = next; i < parts->len && found_n (&types) > 0; i++)
    {
      g_auto(Found) inner = { 0 };
      const char *part = g_ptr_array_index (parts, i);

      if (part[0] == '@')
        part++;
      if (strchr (part, '(') != NULL)
        return FALSE;
      for (guint t = 0; t < found_n (&types); t++)
        field_type (self, g_array_index (types.targets, LodeCallTarget, t), part, depth,
                    &inner);
      g_clear_pointer (&types.targets, g_array_unref);
      types.targets = g_steal_pointer (&inner.targets);
    }
  if (found_n (&types) == 0)
    return FALSE;
  if (!on_types (self, &types, name, confidence, found))
    return FALSE;
  return TRUE;
}

/* A function a table or a router names: what was found, if it is a function. */
static void
registered (LodeCallResolver *self,
            LodeCallEdge     *edge,
            Found            *found)
{
  for (guint i = found_n (found); i > 0; i--)
    {
      const char *kind = symbol_at (self, g_array_index (found->targets, LodeCallTarget,
                                                         i - 1))->kind;

      if (!kind_in (kind, _lode_calls_method_kinds))
        g_array_remove_index (found->targets, i - 1);
    }
  edge->status = found_n (found) > 0 && edge->status != LODE_CALL_EXTERNAL
                 ? LODE_CALL_REGISTERED : LODE_CALL_UNRESOLVED;
  edge->confidence = found->confidence / MAX (found_n (found), 1);
}

/**
 * lode_call_resolver_resolve:
 * @self: a #LodeCallResolver
 * @file: a file's index
 *
 * Resolves every call site of @file against every file added.
 *
 * Returns: (transfer container) (element-type LodeCallEdge): one edge per call site
 */
GPtrArray *
lode_call_resolver_resolve (LodeCallResolver *self,
                            guint             file)
{
  g_return_val_if_fail (LODE_IS_CALL_RESOLVER (self), NULL);
  g_return_val_if_fail (file < self->files->len, NULL);

  return lode_call_resolver_resolve_sites (self, file,
                                           ((File *) g_ptr_array_index (self->files,
                                                                        file))->calls->sites);
}

/**
 * lode_call_resolver_resolve_sites:
 * @self: a #LodeCallResolver
 * @file: a file's index
 * @sites: (element-type LodeCallSite): call sites of @file, the ones it was added with or,
 *   after lode_call_resolver_drop_sites(), the same read again
 *
 * Resolves @sites, call sites of @file, against every file added.
 *
 * Returns: (transfer container) (element-type LodeCallEdge): one edge per call site, whose
 *   site is @sites' (they must outlive the edges)
 */
GPtrArray *
lode_call_resolver_resolve_sites (LodeCallResolver *self,
                                  guint             file,
                                  GPtrArray        *sites)
{
  GPtrArray *edges;

  g_return_val_if_fail (LODE_IS_CALL_RESOLVER (self), NULL);
  g_return_val_if_fail (file < self->files->len, NULL);
  g_return_val_if_fail (sites != NULL, NULL);

  build_indexes (self);
  edges = g_ptr_array_new_full (sites->len, (GDestroyNotify) lode_call_edge_free);
  self->scope_file = file;
  self->scope_memo = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) _lode_calls_scope_memo_free);
  for (guint i = 0; i < sites->len; i++)
    {
      const LodeCallSite *site = g_ptr_array_index (sites, i);
      LodeCallEdge *edge = g_new0 (LodeCallEdge, 1);
      g_auto(Found) found = { 0 };

      edge->site = site;
      if (resolve_named (self, file, site->caller, site->name, site->qualifier,
                         site->receiver_kind, site->receiver, site->flags, 0, &found) &&
          (found_n (&found) > 0 || found.external))
        {
          if (!(site->flags & LODE_CALL_NEW))
            prefer_functions (self, &found);
          if (found.external)
            edge->status = LODE_CALL_EXTERNAL;
          else if (found_n (&found) == 1)
            edge->status = LODE_CALL_RESOLVED;
          else
            edge->status = LODE_CALL_AMBIGUOUS;
          /* `new Foo()`, `Foo()`, `Foo.new`: the class's constructor when it writes one. */
          if (edge->status != LODE_CALL_EXTERNAL)
            constructors (self, &found);
          edge->rule = found.rule;
          edge->confidence = found.confidence / MAX (found_n (&found), 1);
          edge->package = g_steal_pointer (&found.package);
        }
      else
        edge->status = LODE_CALL_UNRESOLVED;
      if (site->flags & LODE_CALL_REGISTRATION)
        registered (self, edge, &found);
      edge->targets = found.targets != NULL ? g_steal_pointer (&found.targets)
                                            : g_array_new (FALSE, FALSE,
                                                           sizeof (LodeCallTarget));
      g_ptr_array_add (edges, edge);
    }
  /* Only the file's own calls look through its headers (include_closure()): kept for every
   * file, the closures grew with the project. */
  g_clear_pointer (&((File *) g_ptr_array_index (self->files, file))->closure,
                   g_hash_table_unref);
  g_clear_pointer (&self->scope_memo, g_hash_table_unref);
  return edges;
}

void
lode_call_edge_free (LodeCallEdge *edge)
{
  if (edge == NULL)
    return;
  g_clear_pointer (&edge->targets, g_array_unref);
  g_free (edge->package);
  g_free (edge);
}

const char *
lode_call_status_to_string (LodeCallStatus status)
{
  switch (status)
    {
    case LODE_CALL_RESOLVED:
      return "resolved";
    case LODE_CALL_AMBIGUOUS:
      return "ambiguous";
    case LODE_CALL_EXTERNAL:
      return "external";
    case LODE_CALL_REGISTERED:
      return "registered";
    case LODE_CALL_UNRESOLVED:
    default:
      return "unresolved";
    }
}

const char *
lode_call_rule_to_string (LodeCallRule rule)
{
  switch (rule)
    {
    case LODE_CALL_RULE_LOCAL:
      return "local";
    case LODE_CALL_RULE_IMPORT:
      return "import";
    case LODE_CALL_RULE_RECEIVER:
      return "receiver";
    case LODE_CALL_RULE_PACKAGE:
      return "package";
    case LODE_CALL_RULE_UNIQUE:
      return "unique";
    case LODE_CALL_RULE_NONE:
    default:
      return "none";
    }
}
