/* lode-call-pass.c — resolves the calls of an index again after files changed (issue #28)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A file's calls depend on other files: what they define, import, re-export, and the types
 * they give their fields. When any file comes, changes or goes, the calls into it and those a
 * new definition could now resolve are not found from its path alone (a new `take` can turn an
 * unresolved call elsewhere into a resolved one, or a unique one into an ambiguous one), so the
 * pass resolves every file's stored call sites (lode_index_store_put_call_sites()) again and
 * writes the calls of the files whose edges changed: the graph is then the one a fresh index
 * would hold.
 *
 * But most edits are made inside bodies: when every file a run changed gives the resolver the
 * same definitions, bindings and imports as before, lines included
 * (lode_call_resolver_same_for_others()), no other file's calls can change, and only the
 * changed files' are resolved (LodeCallPassEdits).
 */

#define G_LOG_DOMAIN "lode-call-pass"

#include "config.h"

#include <malloc.h>

#include "lode-call-graph.h"
#include "lode-call-pass.h"
#include "lode-calls-resolver.h"
#include "lode-imports.h"
#include "lode-memory-limit.h"

static gint
compare_import_ids (gconstpointer a,
                    gconstpointer b)
{
  const LodeStoredImport *ia = *(LodeStoredImport * const *) a;
  const LodeStoredImport *ib = *(LodeStoredImport * const *) b;

  return ia->id < ib->id ? -1 : ia->id > ib->id;
}

/* @stored (LodeStoredImport) as the resolver reads imports, in the order they were
 * stored: the strings are @stored's. */
static GPtrArray *
imports_from_stored (GPtrArray *stored)
{
  GPtrArray *imports = g_ptr_array_new_full (stored->len, g_free);

  g_ptr_array_sort (stored, compare_import_ids);
  for (guint i = 0; i < stored->len; i++)
    {
      const LodeStoredImport *row = g_ptr_array_index (stored, i);
      LodeImport *import = g_new (LodeImport, 1);

      *import = (LodeImport) {
        .specifier = row->specifier,
        .name = row->name,
        .kind = LODE_IMPORT_MODULE,
        .line = row->line,
      };
      lode_import_kind_from_string (row->kind, &import->kind);
      g_ptr_array_add (imports, import);
    }
  return imports;
}

/* A file changed in place, as the index held it before the change. */
typedef struct
{
  char      *language; /* (nullable): as indexed (a `.h` header's text decides it) */
  GBytes    *sites;    /* (nullable): its call sites, none when it had none */
  GPtrArray *imports;  /* LodeStoredImport */
  gboolean   seen;     /* the pass found the file */
} Before;

static void
before_free (Before *before)
{
  g_free (before->language);
  g_clear_pointer (&before->sites, g_bytes_unref);
  g_ptr_array_unref (before->imports);
  g_free (before);
}

/* The files a run changed in place (no file came or went), kept from before the change. */
struct _LodeCallPassEdits
{
  GHashTable *files;      /* path → Before */
  GHashTable *languages;  /* (nullable): path → language of every file, read once */
};

LodeCallPassEdits *
lode_call_pass_edits_new (void)
{
  LodeCallPassEdits *edits = g_new0 (LodeCallPassEdits, 1);

  edits->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) before_free);
  return edits;
}

void
lode_call_pass_edits_free (LodeCallPassEdits *edits)
{
  if (edits == NULL)
    return;
  g_hash_table_unref (edits->files);
  g_clear_pointer (&edits->languages, g_hash_table_unref);
  g_free (edits);
}

/**
 * lode_call_pass_edits_add:
 * @edits: the run's edits
 * @store: the index, before @path changes in it
 * @path: a file about to be stored again
 * @error: return location for a #GError
 *
 * Keeps what resolving calls reads of @path (its language, call sites and imports) as the
 * index holds them now, for lode_call_pass_run() to compare with the file's new version. A
 * file stored twice in a run keeps its first version.
 *
 * Returns: %TRUE, or %FALSE with @error (a store error)
 */
gboolean
lode_call_pass_edits_add (LodeCallPassEdits  *edits,
                          LodeIndexStore     *store,
                          const char         *path,
                          GError            **error)
{
  g_autoptr(GBytes) sites = NULL;
  GPtrArray *imports;
  Before *before;
  GError *local_error = NULL;

  g_return_val_if_fail (edits != NULL && path != NULL, FALSE);

  if (g_hash_table_contains (edits->files, path))
    return TRUE;
  /* Read once for the run's edits: the store has no query for one file's row. */
  if (edits->languages == NULL)
    {
      g_autoptr(GPtrArray) files = lode_index_store_dup_files (store, error);

      if (files == NULL)
        return FALSE;
      edits->languages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (guint i = 0; i < files->len; i++)
        {
          LodeStoredFile *file = g_ptr_array_index (files, i);

          g_hash_table_insert (edits->languages, g_steal_pointer (&file->path),
                               g_steal_pointer (&file->language));
        }
    }
  sites = lode_index_store_dup_file_call_sites (store, path, &local_error);
  if (local_error != NULL)
    {
      g_propagate_prefixed_error (error, local_error, "%s: ", path);
      return FALSE;
    }
  imports = lode_index_store_dup_imports (store, path, error);
  if (imports == NULL)
    return FALSE;
  before = g_new0 (Before, 1);
  before->language = g_strdup (g_hash_table_lookup (edits->languages, path));
  before->sites = g_steal_pointer (&sites);
  before->imports = imports;
  g_hash_table_insert (edits->files, g_strdup (path), before);
  return TRUE;
}

guint
lode_call_pass_edits_get_n_files (LodeCallPassEdits *edits)
{
  g_return_val_if_fail (edits != NULL, 0);

  return g_hash_table_size (edits->files);
}

/* The stored call sites of @path, decoded into @calls and @symbols; @calls %NULL when it
 * has none. */
static gboolean
read_calls (LodeIndexStore  *store,
            const char      *path,
            LodeCalls      **calls,
            GPtrArray      **symbols,
            GError         **error)
{
  g_autoptr(GBytes) bytes = NULL;
  GError *local_error = NULL;

  *calls = NULL;
  bytes = lode_index_store_dup_file_call_sites (store, path, &local_error);
  if (local_error != NULL)
    {
      g_propagate_prefixed_error (error, local_error, "%s: ", path);
      return FALSE;
    }
  if (bytes == NULL)
    return TRUE;
  *calls = lode_calls_new_from_bytes (bytes, symbols, error);
  if (*calls == NULL)
    {
      g_prefix_error (error, "Cannot resolve the calls of %s: ", path);
      return FALSE;
    }
  return TRUE;
}

/* Whether a file's new version (@language, @symbols, @calls, @imports) resolves other
 * files' calls as @before did. A version that cannot be read again is not the same. */
static gboolean
same_as_before (Before     *before,
                const char *language,
                GPtrArray  *symbols,
                LodeCalls  *calls,
                GPtrArray  *imports)
{
  g_autoptr(GPtrArray) old_symbols = NULL;
  g_autoptr(LodeCalls) old_calls = NULL;
  g_autoptr(GPtrArray) old_imports = NULL;

  if (before->sites == NULL || g_strcmp0 (before->language, language) != 0)
    return FALSE;
  old_calls = lode_calls_new_from_bytes (before->sites, &old_symbols, NULL);
  if (old_calls == NULL)
    return FALSE;
  old_imports = imports_from_stored (before->imports);
  return lode_call_resolver_same_for_others (old_symbols, old_calls, old_imports, symbols,
                                             calls, imports);
}

static gboolean
same_call (const LodeStoredCall *a,
           const LodeStoredCall *b)
{
  return g_strcmp0 (a->caller, b->caller) == 0 && a->caller_line == b->caller_line &&
         g_strcmp0 (a->callee, b->callee) == 0 && g_strcmp0 (a->qualifier, b->qualifier) == 0 &&
         a->line == b->line && a->status == b->status && a->rule == b->rule &&
         a->confidence == b->confidence && g_strcmp0 (a->target_path, b->target_path) == 0 &&
         a->target_line == b->target_line && g_strcmp0 (a->package, b->package) == 0;
}

static gboolean
same_calls (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (!same_call (g_ptr_array_index (a, i), g_ptr_array_index (b, i)))
      return FALSE;
  return TRUE;
}

/* A file's call sites on their way through the resolving thread. */
typedef struct
{
  guint      file;   /* in the resolver */
  LodeCalls *calls;  /* (nullable): %NULL asks the thread to end */
  GPtrArray *rows;   /* LodeStoredCall: what the thread resolved them into */
} Job;

static void
job_free (Job *job)
{
  g_clear_pointer (&job->calls, lode_calls_free);
  g_clear_pointer (&job->rows, g_ptr_array_unref);
  g_free (job);
}

/* Resolving runs on a thread of its own while the pass reads the next files' call sites
 * and stores the calls resolved before: the two took about the same time one after the
 * other, and nothing else runs at the end of an index (bench/README.md, "The call pass on
 * two threads"). The thread alone uses the resolver until it ends. */
typedef struct
{
  LodeCallResolver *resolver;
  GAsyncQueue      *todo;       /* Job, to resolve */
  GAsyncQueue      *done;       /* Job, resolved, in the order of @todo */
  guint             in_flight;  /* jobs pushed and not popped from @done */
  GThread          *thread;
} Resolving;

/* Files read ahead of the ones stored: enough to keep both threads busy, few enough that
 * the pass still holds one file's call sites at a time, give or take. */
#define MAX_IN_FLIGHT 16

static void
resolve_job (LodeCallResolver *resolver,
             Job              *job)
{
  g_autoptr(GPtrArray) edges = lode_call_resolver_resolve_sites (resolver, job->file,
                                                                 job->calls->sites);

  job->rows = lode_stored_calls_from_edges (resolver, job->file, edges);
}

static gpointer
resolve_thread (gpointer data)
{
  Resolving *r = data;
  Job *job;

  lode_memory_limit_thread_init ();
  while ((job = g_async_queue_pop (r->todo))->calls != NULL)
    {
      resolve_job (r->resolver, job);
      g_async_queue_push (r->done, job);
    }
  job_free (job);
  return NULL;
}

static void
resolving_start (Resolving        *r,
                 LodeCallResolver *resolver)
{
  g_autoptr(GError) error = NULL;

  r->resolver = resolver;
  r->todo = g_async_queue_new ();
  r->done = g_async_queue_new ();
  r->in_flight = 0;
  /* Without a thread (no memory left for its stack), the pass resolves as it reads. */
  r->thread = g_thread_try_new ("lode-call-pass", resolve_thread, r, &error);
  if (r->thread == NULL)
    g_debug ("Resolving calls on the writing thread: %s", error->message);
}

/* Hands @job to the thread, or resolves it at once without one. */
static void
resolving_push (Resolving *r,
                Job       *job)
{
  if (r->thread == NULL)
    resolve_job (r->resolver, job);
  g_async_queue_push (r->thread != NULL ? r->todo : r->done, job);
  r->in_flight++;
}

/* Ends the thread, dropping what it resolved and was not stored (after a failure). */
static void
resolving_stop (Resolving *r)
{
  if (r->thread != NULL)
    {
      g_async_queue_push (r->todo, g_new0 (Job, 1));
      g_thread_join (r->thread);
    }
  for (; r->in_flight > 0; r->in_flight--)
    job_free (g_async_queue_pop (r->done));
  g_async_queue_unref (r->todo);
  g_async_queue_unref (r->done);
}

/**
 * lode_call_pass_run:
 * @store: the index, outside a batch
 * @imports: resolves imports to the project's files (the indexer's, knowing every file)
 * @edits: (nullable): the files the run changed, when it changed nothing else and the calls
 *   were resolved before it; %NULL when files came or went
 * @cancellable: (nullable): stops the pass; nothing of it is kept, and the index still says
 *   the calls are stale (%LODE_CALLS_META_KEY), so the next run resolves them
 * @n_resolved: (out): files whose calls were resolved
 * @n_changed: (out): files whose calls changed
 * @error: return location for a #GError
 *
 * Resolves the stored call sites of every file, or of @edits' files alone when each gives
 * the resolver what it gave before, and stores the calls of those whose edges changed, in
 * one batch with the end of the stale mark.
 *
 * Returns: %TRUE, or %FALSE with @error (a store error, cancellation, or damaged call sites,
 *   %G_IO_ERROR_INVALID_DATA, naming the file)
 */
gboolean
lode_call_pass_run (LodeIndexStore      *store,
                    LodeImportResolver  *imports,
                    LodeCallPassEdits   *edits,
                    GCancellable        *cancellable,
                    guint               *n_resolved,
                    guint               *n_changed,
                    GError             **error)
{
  g_autoptr(LodeCallResolver) resolver = lode_call_resolver_new (imports);
  g_autoptr(GPtrArray) files = NULL;
  gboolean everything = edits == NULL;
  Resolving resolving;
  GHashTableIter iter;
  Before *before;
  guint n_files;

  *n_resolved = 0;
  *n_changed = 0;
  /* The indexing threads freed their trees and chunks, but glibc keeps those pages in the
   * threads' arenas, where this thread's tables cannot go: give them back first, so that
   * the pass adds less to the indexing's peak. */
  malloc_trim (0);
  files = lode_index_store_dup_files (store, error);
  if (files == NULL)
    return FALSE;

  /* A call may resolve into any file: the resolver holds every file's definitions, bindings
   * and imports, but the call sites (most of the stored bytes) are read file by file, once
   * here for what resolving needs of them, then again when the file's calls are resolved,
   * so that the pass does not grow with the project's calls. */
  for (guint i = 0; i < files->len; i++)
    {
      LodeStoredFile *file = g_ptr_array_index (files, i);
      g_autoptr(GPtrArray) symbols = NULL;
      g_autoptr(GPtrArray) stored_imports = NULL;
      g_autoptr(GPtrArray) file_imports = NULL;
      LodeCalls *calls;
      guint f;

      if (!read_calls (store, file->path, &calls, &symbols, error))
        return FALSE;
      before = edits != NULL ? g_hash_table_lookup (edits->files, file->path) : NULL;
      if (before != NULL)
        before->seen = TRUE;
      if (calls == NULL)
        {
          everything |= before != NULL && before->sites != NULL;
          continue;
        }
      stored_imports = lode_index_store_dup_imports (store, file->path, error);
      if (stored_imports == NULL)
        {
          lode_calls_free (calls);
          return FALSE;
        }
      file_imports = imports_from_stored (stored_imports);
      if (before != NULL && !everything)
        everything = !same_as_before (before, file->language, symbols, calls, file_imports);
      f = lode_call_resolver_add_file (resolver, file->path, file->language, symbols, calls,
                                       file_imports);
      lode_call_resolver_drop_sites (resolver, f);
    }
  g_clear_pointer (&files, g_ptr_array_unref);
  if (edits != NULL)
    {
      g_hash_table_iter_init (&iter, edits->files);
      while (!everything && g_hash_table_iter_next (&iter, NULL, (gpointer *) &before))
        everything = !before->seen;
    }

  if (!lode_index_store_begin (store, error))
    return FALSE;
  n_files = lode_call_resolver_get_n_files (resolver);
  resolving_start (&resolving, resolver);
  for (guint f = 0; f < n_files || resolving.in_flight > 0;)
    {
      g_autoptr(GPtrArray) old = NULL;
      gboolean changed;
      Job *job;
      const char *path;

      /* Read ahead, then store the oldest file the thread resolved. */
      for (; f < n_files && resolving.in_flight < MAX_IN_FLIGHT; f++)
        {
          g_autoptr(GPtrArray) symbols = NULL;
          LodeCalls *calls;

          path = lode_call_resolver_get_path (resolver, f);
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            goto failed;
          if (!everything && !g_hash_table_contains (edits->files, path))
            continue;
          if (!read_calls (store, path, &calls, &symbols, error))
            goto failed;
          if (calls == NULL)
            continue;
          (*n_resolved)++;
          job = g_new0 (Job, 1);
          job->file = f;
          job->calls = calls;
          resolving_push (&resolving, job);
        }
      if (resolving.in_flight == 0)
        break;

      job = g_async_queue_pop (resolving.done);
      resolving.in_flight--;
      path = lode_call_resolver_get_path (resolver, job->file);
      old = lode_index_store_dup_calls (store, path, error);
      changed = old != NULL && !same_calls (job->rows, old);
      if (old == NULL || (changed && !lode_index_store_put_calls (store, path, job->rows, error)))
        {
          job_free (job);
          goto failed;
        }
      *n_changed += changed;
      job_free (job);
    }
  resolving_stop (&resolving);
  g_debug ("Calls: %u of %u files resolved again, %u changed", *n_resolved,
           lode_call_resolver_get_n_files (resolver), *n_changed);
  /* Its pages back too, before the run sorts its look-up indexes. */
  g_clear_object (&resolver);
  malloc_trim (0);
  if (!lode_index_store_set_meta (store, LODE_CALLS_META_KEY, "resolved", error))
    {
      lode_index_store_rollback (store);
      return FALSE;
    }
  return lode_index_store_commit (store, error);

failed:
  resolving_stop (&resolving);
  lode_index_store_rollback (store);
  return FALSE;
}
