/* lode-indexer.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-indexer"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lode-call-pass.h"
#include "lode-calls.h"
#include "lode-chunker.h"
#include "lode-error.h"
#include "lode-import-resolver.h"
#include "lode-imports.h"
#include "lode-index-store.h"
#include "lode-indexer.h"
#include "lode-memory-limit.h"
#include "lode-scanner.h"
#include "lode-sha1.h"
#include "lode-watcher.h"

/*
 * One indexing run, synchronous, on whatever thread calls lode_indexer_run() (never the main
 * thread: LodeProject runs it in a GTask thread).
 *
 * The calling thread is the only writer of the store. N chunking threads take files from the
 * scanned list, read and hash them, and chunk the ones whose content hash differs from the
 * stored one; their results come back through a queue and the writer stores them in batches,
 * one transaction per batch. A file's hash is written in the same transaction as its chunks,
 * so after a crash (SIGKILL included) the index holds every file either completely or not at
 * all, and the next run redoes exactly the files that are missing or stale.
 *
 * Results waiting for the writer are bounded so that memory stays flat when chunking is
 * faster than writing. The writer stores them in the order of the list, whichever thread
 * finishes first, so that two runs over one tree give every file and chunk the same id:
 * search results that tie keep one order. A thread takes the next file only when fewer than
 * MAX_IN_FLIGHT are taken and not stored, so the ones waiting for an earlier file fit in a
 * ring of that size, and when those hold less than MAX_IN_FLIGHT_BYTES of the tree or fewer
 * than one per thread (so that files larger than the bound are still chunked side by side).
 * The bound is in bytes because a file's results weigh as its text does, and so that a slow
 * file does not stop the run: while one thread parses it, the other goes on through the
 * small files after it, which a bound of 64 files ran through in the time of one large C
 * file, leaving one core idle and the writer waiting (bench/README.md, "Results waiting for
 * the writer, bounded in bytes").
 *
 * The import graph rides along unless `meta.graph` is "off": the chunking threads take a
 * file's imports from the parse that chunks it, and the writer resolves them (one resolver,
 * created when first needed, knowing every scanned file) and stores them in the file's
 * transaction. An unchanged file is never read again, so its imports stay as stored; but a
 * file that appeared, vanished or changed its declared package may change how imports of
 * other files resolve. After the last batch, only those imports are resolved again: the ones
 * whose candidate key such a file has, and the ones that pointed at it. A changed
 * configuration file (tsconfig, go.mod, …), or a run that resumes an interrupted one (whose
 * own list of such files was lost), resolves every stored import again; none is parsed.
 */

#define MAX_IN_FLIGHT       256
#define MAX_IN_FLIGHT_BYTES (1536 * 1024)
#define BATCH_MAX_FILES    512
#define BATCH_MAX_BYTES    (16 * 1024 * 1024)

typedef enum
{
  RESULT_UNCHANGED,
  RESULT_RESTAMPED,    /* unchanged content, another size or modification time */
  RESULT_CHUNKED,
  RESULT_SKIPPED,
  RESULT_CANCELLED,
  RESULT_WORKER_DONE,
} ResultKind;

typedef struct
{
  ResultKind          kind;
  guint               index;         /* in Shared.files */
  const LodeScanFile *file;
  char               *hash;
  const char         *language;
  GPtrArray          *chunks;
  GPtrArray          *symbols;
  guint              *symbol_chunks; /* lode_indexer_attribute_symbols() */
  GPtrArray          *imports;
  LodeReferences     *references;
  GBytes             *call_sites;  /* lode_calls_to_bytes(), with the graph only */
  GBytes             *prepared;    /* lode_index_store_prepare_file() */
  guint               n_lines;
  gsize               n_bytes;
  guint64             size;          /* of the bytes read */
  gint64              mtime_usec;    /* of the bytes read */
  LodeSkippedFile    *skipped;     /* why it was not indexed, or not fully */
} FileResult;

typedef struct
{
  const char       *root;
  LodeIndexStore   *store;       /* for lode_index_store_prepare_file() only */
  GPtrArray        *files;       /* in the order the chunking threads take them */
  GHashTable       *old_files;   /* path → LodeStoredFile, as the run found them */
  guint             max_tokens;
  guint64           max_file_size;
  guint             time_budget_msec;
  GCancellable     *cancellable;
  GAsyncQueue      *results;
  GMutex            lock;
  GCond             cond;
  guint             in_flight;   /* files taken and not yet stored */
  guint64           in_flight_bytes;  /* their sizes */
  guint             n_threads;   /* chunking threads */
  guint             next;        /* the next file to take */
  gint              n_parsed;
  gboolean          graph;
} Shared;

/* The writer's side of the import graph, for one run. */
typedef struct
{
  const char         *root;
  GPtrArray          *files;       /* LodeScanFile, borrowed */
  LodeImportResolver *resolver;    /* created when first needed */
  GHashTable         *parsed;      /* paths whose imports this run stored, borrowed */
  GHashTable         *touched;     /* paths that came, went or changed their declarations */
  GPtrArray          *stale;       /* LodeStoredImport that pointed at a vanished or changed
                                    * file, read before the change */
  gboolean            everything;  /* resolve every stored import again */
  gboolean            calls_stale; /* a file came, changed or went: resolve the calls again */
  LodeCallPassEdits  *edits;       /* (nullable): the files changed in place, while the calls
                                    * were resolved before the run and no file came or went */
} GraphRun;

/* Past this many changed files (a branch switch), every file's calls are resolved again,
 * without keeping the changed files' old versions. */
#define MAX_CALL_EDITS 64

static void
graph_run_clear (GraphRun *run)
{
  g_clear_object (&run->resolver);
  g_clear_pointer (&run->parsed, g_hash_table_unref);
  g_clear_pointer (&run->touched, g_hash_table_unref);
  g_clear_pointer (&run->stale, g_ptr_array_unref);
  g_clear_pointer (&run->edits, lode_call_pass_edits_free);
}

static void
file_result_free (FileResult *result)
{
  g_free (result->hash);
  g_clear_pointer (&result->chunks, g_ptr_array_unref);
  g_clear_pointer (&result->symbols, g_ptr_array_unref);
  g_free (result->symbol_chunks);
  g_clear_pointer (&result->imports, g_ptr_array_unref);
  g_clear_pointer (&result->references, lode_references_free);
  g_clear_pointer (&result->call_sites, g_bytes_unref);
  g_clear_pointer (&result->prepared, g_bytes_unref);
  g_clear_pointer (&result->skipped, lode_skipped_file_free);
  g_free (result);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FileResult, file_result_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (GraphRun, graph_run_clear)

/* A chunk's place in a file, for attributing symbols. */
typedef struct
{
  guint       start_line;
  guint       end_line;
  guint       index;       /* in the chunks as given */
  const char *symbol;
} ChunkSpan;

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const ChunkSpan *x = a;
  const ChunkSpan *y = b;

  if (x->start_line != y->start_line)
    return x->start_line < y->start_line ? -1 : 1;
  if (x->end_line != y->end_line)
    return x->end_line < y->end_line ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* How far back from the last chunk that starts at or before a line the chunks that may hold
 * it are looked for: chunks overlap a little (line windows), not much. */
#define MAX_SPANS_BACK 64

/* The chunk of a declaration whose first line is @line, see lode_indexer_attribute_symbols(). */
static guint
symbol_chunk (const ChunkSpan *spans,
              guint            n_spans,
              guint            line,
              const char      *name)
{
  guint lo = 0;
  guint hi = n_spans;
  guint best = G_MAXUINT;
  guint best_named = G_MAXUINT;

  /* The first span that starts after @line. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (spans[mid].start_line <= line)
        lo = mid + 1;
      else
        hi = mid;
    }

  /* Backwards, the spans start ever earlier; of those that start together, the shorter come
   * later. */
  for (guint i = lo; i > 0 && lo - i < MAX_SPANS_BACK; i--)
    {
      const ChunkSpan *span = &spans[i - 1];

      if (span->end_line < line)
        continue;
      if (best == G_MAXUINT || span->start_line == spans[best].start_line)
        best = i - 1;
      if (name != NULL && g_strcmp0 (span->symbol, name) == 0 &&
          (best_named == G_MAXUINT || span->start_line == spans[best_named].start_line))
        best_named = i - 1;
    }

  if (best_named != G_MAXUINT)
    return spans[best_named].index;
  if (best != G_MAXUINT)
    return spans[best].index;
  if (n_spans == 0)
    return LODE_INDEX_STORE_NO_CHUNK;
  return spans[lo > 0 ? lo - 1 : 0].index;
}

/**
 * lode_indexer_attribute_symbols:
 * @chunks: (element-type LodeChunk) (nullable): a file's chunks
 * @symbols: (element-type LodeSymbol) (nullable): its declarations
 *
 * Decides which chunk each declaration belongs to, once for every store: the chunk a search
 * for the declaration's name shows, and whose declarations a result lists. Among the chunks
 * that hold the declaration's first line, the one named after it, else the one that starts
 * last, so that the declaration's head is nearest its top and most of it shows (of chunks
 * that start on the same line, the shortest); when no chunk holds that line, the last chunk
 * that starts before it, or the first one: no declaration of a file with chunks is lost.
 *
 * Returns: (transfer full) (nullable): for each of @symbols, the index in @chunks of its
 *   chunk, %LODE_INDEX_STORE_NO_CHUNK when there are no chunks; %NULL without symbols
 */
guint *
lode_indexer_attribute_symbols (GPtrArray *chunks,
                                GPtrArray *symbols)
{
  guint n_spans = chunks != NULL ? chunks->len : 0;
  g_autofree ChunkSpan *spans = g_new (ChunkSpan, MAX (n_spans, 1));
  guint *attribution;

  if (symbols == NULL || symbols->len == 0)
    return NULL;

  for (guint i = 0; i < n_spans; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);

      spans[i] = (ChunkSpan) { chunk->start_line, chunk->end_line, i, chunk->symbol };
    }
  qsort (spans, n_spans, sizeof (ChunkSpan), compare_spans);

  attribution = g_new (guint, symbols->len);
  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeSymbol *symbol = g_ptr_array_index (symbols, i);

      attribution[i] = symbol_chunk (spans, n_spans, symbol->start_line, symbol->name);
    }
  return attribution;
}

void
lode_index_report_free (LodeIndexReport *report)
{
  if (report == NULL)
    return;

  g_clear_pointer (&report->skipped, g_ptr_array_unref);
  g_free (report->reset_reason);
  g_free (report->embedding_model);
  g_free (report->embedding_notice);
  g_free (report->branch);
  g_free (report->branch_seeded_from);
  g_free (report);
}

/**
 * lode_index_report_copy:
 * @report: a #LodeIndexReport
 *
 * Returns: (transfer full): a copy of @report, sharing its list of skipped files
 */
LodeIndexReport *
lode_index_report_copy (const LodeIndexReport *report)
{
  LodeIndexReport *copy;

  g_return_val_if_fail (report != NULL, NULL);

  copy = g_memdup2 (report, sizeof *report);
  if (report->skipped != NULL)
    copy->skipped = g_ptr_array_ref (report->skipped);
  copy->reset_reason = g_strdup (report->reset_reason);
  copy->embedding_model = g_strdup (report->embedding_model);
  copy->embedding_notice = g_strdup (report->embedding_notice);
  copy->branch = g_strdup (report->branch);
  copy->branch_seeded_from = g_strdup (report->branch_seeded_from);

  return copy;
}

const char *
lode_index_phase_to_string (LodeIndexPhase phase)
{
  switch (phase)
    {
    case LODE_INDEX_PHASE_SCANNING:
      return "scanning";
    case LODE_INDEX_PHASE_INDEXING:
      return "indexing";
    case LODE_INDEX_PHASE_FINISHING:
      return "finishing";
    case LODE_INDEX_PHASE_EMBEDDING:
      return "embedding";
    case LODE_INDEX_PHASE_WAITING:
      return "waiting";
    default:
      g_return_val_if_reached ("unknown");
    }
}

static guint
count_lines (const char *text,
             gsize       len)
{
  const char *p = text;
  const char *end = text + len;
  guint n = 0;

  if (len == 0)
    return 0;

  while ((p = memchr (p, '\n', end - p)) != NULL)
    {
      n++;
      p++;
    }

  return text[len - 1] == '\n' ? n : n + 1;
}

static LodeSkippedFile *
skipped_new (const char     *path,
             LodeSkipReason  reason,
             const char     *detail)
{
  LodeSkippedFile *skipped = g_new0 (LodeSkippedFile, 1);

  skipped->path = g_strdup (path);
  skipped->reason = reason;
  skipped->detail = g_strdup (detail);

  return skipped;
}

/* Runs on a chunking thread. */
static FileResult *
process_file (Shared             *shared,
              LodeChunker        *chunker,
              const LodeScanFile *file)
{
  g_autoptr(FileResult) result = g_new0 (FileResult, 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *filename = g_build_filename (shared->root, file->path, NULL);
  g_autofree char *contents = NULL;
  g_autofree char *repaired = NULL;
  g_autofree char *degraded = NULL;
  g_autoptr(LodeCalls) calls = NULL;
  LodeFileInfo info = { 0 };
  const LodeLanguage *language;
  const LodeStoredFile *old;
  LodeSkipReason reason;
  const char *text;
  gsize len = 0;

  result->file = file;

  contents = lode_read_file (filename, shared->max_file_size, &len, &result->mtime_usec,
                             &reason, &error);
  if (contents == NULL)
    {
      result->kind = RESULT_SKIPPED;
      result->skipped = skipped_new (file->path, reason, error->message);
      return g_steal_pointer (&result);
    }

  switch (lode_content_check (contents, len, &repaired))
    {
    case LODE_CONTENT_BINARY:
      result->kind = RESULT_SKIPPED;
      result->skipped = skipped_new (file->path, LODE_SKIP_BINARY, NULL);
      return g_steal_pointer (&result);

    case LODE_CONTENT_REPAIRED:
      g_debug ("%s: invalid UTF-8 replaced by U+FFFD", file->path);
      text = repaired;
      break;

    case LODE_CONTENT_TEXT:
    default:
      text = contents;
      break;
    }

  result->size = len;
  result->hash = lode_git_blob_id (contents, len);
  old = g_hash_table_lookup (shared->old_files, file->path);
  if (old != NULL && g_strcmp0 (old->hash, result->hash) == 0)
    {
      /* The stored stamp is the one of the bytes indexed: a file touched since, or copied
       * with its times, gets the new one. */
      result->kind = old->size == result->size && old->mtime_usec == result->mtime_usec
                     ? RESULT_UNCHANGED : RESULT_RESTAMPED;
      return g_steal_pointer (&result);
    }

  len = strlen (text);
  language = lode_language_for_content (file->language, file->path, text, len);
  g_atomic_int_inc (&shared->n_parsed);
  if (!lode_chunker_chunk (chunker, language, file->path, text, len, &result->chunks,
                           &result->symbols, shared->graph ? &result->imports : NULL,
                           &result->references, shared->graph ? &calls : NULL,
                           &degraded, &error))
    {
      /* Only a cancellation stops the chunker; the file stays as it was for the next run. */
      result->kind = RESULT_CANCELLED;
      return g_steal_pointer (&result);
    }

  if (degraded != NULL)
    result->skipped = skipped_new (file->path, LODE_SKIP_OVER_TIME_BUDGET, degraded);
  result->symbol_chunks = lode_indexer_attribute_symbols (result->chunks, result->symbols);
  /* Serialised and tokenized here, not by the writer, which every other thread waits for. */
  if (calls != NULL && lode_calls_supported (language))
    result->call_sites = lode_calls_to_bytes (calls, result->symbols);
  info.path = file->path;
  result->prepared = lode_index_store_prepare_file (shared->store, &info, result->chunks);
  result->kind = RESULT_CHUNKED;
  result->language = language->id;
  result->n_bytes = len;
  result->n_lines = count_lines (text, len);

  return g_steal_pointer (&result);
}

/* The files of one language, in path order, as spread_languages() deals them out. */
typedef struct
{
  const LodeLanguage *language;
  GPtrArray          *files;
  double              total;  /* bytes, each file counting one more */
  double              taken;
  guint               next;
} Kind;

/* The order the chunking threads take @files in (borrowed). Storing a file costs the writer
 * about the same per byte whatever the file, while chunking it costs per byte what its
 * language's parse and queries cost: next to nothing without a grammar (prose, translations),
 * a shell script's a third of a C file's. Taken in path order, the files of a language come
 * in runs (git's `po/`, 14 MB in 22 files, a third of the tree; its `t/`, a thousand shell
 * scripts), and while the writer stores such a run, the chunking threads, MAX_IN_FLIGHT
 * files ahead of it, have nothing to do. Every language's files are spread over the run in
 * proportion to its bytes instead (each language in path order, the one furthest behind
 * next), so that any stretch of the run holds the mix the whole tree does, and the writer's
 * load and the chunking threads' stay even. The order depends on the file list alone:
 * two runs over one tree store the same files under the same ids. */
static GPtrArray *
spread_languages (GPtrArray *files)
{
  g_autoptr(GArray) kinds = g_array_new (FALSE, FALSE, sizeof (Kind));
  GPtrArray *order = g_ptr_array_sized_new (files->len);

  for (guint i = 0; i < files->len; i++)
    {
      LodeScanFile *file = g_ptr_array_index (files, i);
      Kind *kind = NULL;

      for (guint k = 0; k < kinds->len && kind == NULL; k++)
        if (g_array_index (kinds, Kind, k).language == file->language)
          kind = &g_array_index (kinds, Kind, k);
      if (kind == NULL)
        {
          Kind added = { file->language, g_ptr_array_new (), 0, 0, 0 };

          g_array_append_val (kinds, added);
          kind = &g_array_index (kinds, Kind, kinds->len - 1);
        }
      g_ptr_array_add (kind->files, file);
      kind->total += file->size + 1.0;
    }

  while (order->len < files->len)
    {
      Kind *behind = NULL;
      LodeScanFile *file;

      for (guint k = 0; k < kinds->len; k++)
        {
          Kind *kind = &g_array_index (kinds, Kind, k);

          if (kind->next < kind->files->len &&
              (behind == NULL || kind->taken * behind->total < behind->taken * kind->total))
            behind = kind;
        }
      file = g_ptr_array_index (behind->files, behind->next++);
      behind->taken += file->size + 1.0;
      g_ptr_array_add (order, file);
    }

  for (guint k = 0; k < kinds->len; k++)
    g_ptr_array_unref (g_array_index (kinds, Kind, k).files);
  return order;
}

/* Runs on a chunking thread. */
static gpointer
chunk_thread_func (gpointer data)
{
  Shared *shared = data;
  g_autoptr(LodeChunker) chunker = NULL;
  FileResult *done;

  lode_memory_limit_thread_init ();
  chunker = lode_chunker_new (shared->max_tokens);
  lode_chunker_set_time_budget (chunker, shared->time_budget_msec);
  lode_chunker_set_cancellable (chunker, shared->cancellable);

  for (;;)
    {
      const LodeScanFile *file;
      FileResult *result;
      guint i;

      /* Taken and counted at once: the files taken and not stored are then the
       * MAX_IN_FLIGHT after the last stored at most, and the one the writer waits for is
       * always being chunked. The bytes are those of the files already taken: a file
       * larger than MAX_IN_FLIGHT_BYTES is taken too. */
      g_mutex_lock (&shared->lock);
      while (shared->in_flight >= MAX_IN_FLIGHT ||
             (shared->in_flight >= shared->n_threads &&
              shared->in_flight_bytes >= MAX_IN_FLIGHT_BYTES))
        g_cond_wait (&shared->cond, &shared->lock);
      i = shared->next;
      if (i >= shared->files->len || g_cancellable_is_cancelled (shared->cancellable))
        {
          g_mutex_unlock (&shared->lock);
          break;
        }
      file = g_ptr_array_index (shared->files, i);
      shared->next++;
      shared->in_flight++;
      shared->in_flight_bytes += file->size;
      g_mutex_unlock (&shared->lock);

      result = process_file (shared, chunker, file);
      result->index = i;
      g_async_queue_push (shared->results, result);
    }

  done = g_new0 (FileResult, 1);
  done->kind = RESULT_WORKER_DONE;
  g_async_queue_push (shared->results, done);

  return NULL;
}

static void
cancel_cb (GCancellable *cancellable,
           gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static void
report_progress (LodeIndexProgressFunc  progress,
                 gpointer               progress_data,
                 LodeIndexPhase         phase,
                 guint                  done,
                 guint                  total)
{
  LodeIndexProgress p = { phase, done, total };

  if (progress != NULL)
    progress (&p, progress_data);
}

/* Graph ------------------------------------------------------------------------------- */

static LodeImportResolver *
ensure_resolver (GraphRun *graph)
{
  if (graph->resolver == NULL)
    {
      g_autofree const char **paths = g_new (const char *, graph->files->len + 1);

      for (guint i = 0; i < graph->files->len; i++)
        paths[i] = ((LodeScanFile *) g_ptr_array_index (graph->files, i))->path;
      paths[graph->files->len] = NULL;
      graph->resolver = lode_import_resolver_new (graph->root, paths);
    }

  return graph->resolver;
}

/* Where @import of @path leads: every project file but @path itself (a file does not depend
 * on itself), or the external package. */
static void
resolve_import (GraphRun          *graph,
                const char        *path,
                const LodeImport  *import,
                GStrv             *targets,
                char             **package)
{
  g_auto(GStrv) all = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  all = lode_import_resolver_resolve_all (ensure_resolver (graph), path, import, package);
  for (guint i = 0; all[i] != NULL; i++)
    if (strcmp (all[i], path) != 0)
      g_strv_builder_add (builder, all[i]);
  *targets = g_strv_builder_end (builder);
}

/* Keeps what resolving the calls of @result's file needs: its call sites, bindings and
 * symbols (lode-call-pass.c), for the languages whose calls are read. */
static gboolean
store_call_sites (LodeIndexStore  *store,
                  FileResult      *result,
                  GError         **error)
{
  if (result->call_sites == NULL)
    return TRUE;
  return lode_index_store_put_call_sites (store, result->file->path, result->call_sites, error);
}

/* Runs on the writer (calling) thread. */
static gboolean
store_imports (LodeIndexStore *store,
               GraphRun    *graph,
               const char  *path,
               GPtrArray   *imports,
               GError     **error)
{
  g_autoptr(GPtrArray) stored = g_ptr_array_new_with_free_func (
    (GDestroyNotify) lode_stored_import_free);

  for (guint i = 0; imports != NULL && i < imports->len; i++)
    {
      const LodeImport *import = g_ptr_array_index (imports, i);
      LodeStoredImport *row = g_new0 (LodeStoredImport, 1);

      row->specifier = g_strdup (import->specifier);
      row->name = g_strdup (import->name);
      row->kind = g_strdup (lode_import_kind_to_string (import->kind));
      row->line = import->line;
      row->key = lode_import_resolver_dup_key (ensure_resolver (graph), path, import);
      resolve_import (graph, path, import, &row->targets, &row->package);
      g_ptr_array_add (stored, row);
    }

  g_hash_table_add (graph->parsed, (gpointer) path);

  return lode_index_store_put_imports (store, path, stored, error);
}

/* Notes that @path came, went or changed (@changed): the imports of other files it may
 * resolve differently. For a file that goes or changes, those resolved to it are read now,
 * before the change unlinks them. */
static gboolean
graph_touch (LodeIndexStore *store,
             GraphRun    *graph,
             const char  *path,
             gboolean     existed,
             gboolean     changed,
             GError     **error)
{
  g_autoptr(GPtrArray) pointing = NULL;

  /* Said in the index with the change's batch: a run that stops before the calls are
   * resolved leaves them to the next. */
  if (!graph->calls_stale &&
      !lode_index_store_set_meta (store, LODE_CALLS_META_KEY, "stale", error))
    return FALSE;
  graph->calls_stale = TRUE;
  if (lode_import_resolver_is_config_file (path))
    graph->everything = TRUE;
  /* An edit in place may leave every other file's calls as they are; the call pass compares
   * the file's versions. Anything else may change any call. */
  if (graph->edits != NULL &&
      (graph->everything || !changed || lode_import_resolver_reads_declarations (path) ||
       lode_call_pass_edits_get_n_files (graph->edits) >= MAX_CALL_EDITS))
    g_clear_pointer (&graph->edits, lode_call_pass_edits_free);
  if (graph->edits != NULL && !lode_call_pass_edits_add (graph->edits, store, path, error))
    return FALSE;
  if (graph->everything ||
      (changed && !lode_import_resolver_reads_declarations (path)))
    return TRUE;

  g_hash_table_add (graph->touched, g_strdup (path));
  if (!existed)
    return TRUE;

  pointing = lode_index_store_dup_imports_to (store, path, error);
  if (pointing == NULL)
    return FALSE;
  g_ptr_array_extend_and_steal (graph->stale, g_steal_pointer (&pointing));

  return TRUE;
}

static gboolean
same_resolution (const LodeStoredImport *stored,
                 const char * const     *targets,
                 const char             *package)
{
  if (stored->targets == NULL || stored->targets[0] == NULL)
    return targets[0] == NULL && g_strcmp0 (stored->package, package) == 0;

  return g_strv_equal ((const char * const *) stored->targets, targets);
}

/* Resolves @imports again and stores the resolutions that changed. Imports of files parsed in
 * this run were resolved knowing every file already. */
static gboolean
reresolve_imports (LodeIndexStore *store,
                   GraphRun    *graph,
                   GPtrArray   *imports,
                   GHashTable  *done,
                   guint       *n_changed,
                   GError     **error)
{
  for (guint i = 0; i < imports->len; i++)
    {
      const LodeStoredImport *stored = g_ptr_array_index (imports, i);
      g_auto(GStrv) targets = NULL;
      g_autofree char *package = NULL;
      LodeImport import = { 0 };

      if (g_hash_table_contains (graph->parsed, stored->path) ||
          !g_hash_table_add (done, g_memdup2 (&stored->id, sizeof stored->id)) ||
          !lode_import_kind_from_string (stored->kind, &import.kind))
        continue;

      import.specifier = stored->specifier;
      import.name = stored->name;
      import.line = stored->line;
      resolve_import (graph, stored->path, &import, &targets, &package);
      if (same_resolution (stored, (const char * const *) targets, package))
        continue;
      if (!lode_index_store_set_import_targets (store, stored->id, (const char * const *) targets,
                                          package, error))
        return FALSE;
      (*n_changed)++;
    }

  return TRUE;
}

/* Runs on the writer (calling) thread, after the last batch. */
static gboolean
update_graph (LodeIndexStore *store,
              GraphRun   *graph,
              GError    **error)
{
  g_autoptr(GHashTable) done = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                      NULL);
  GHashTableIter iter;
  const char *path;
  guint n_changed = 0;

  if (!graph->everything && g_hash_table_size (graph->touched) == 0 && graph->stale->len == 0)
    return TRUE;

  if (!lode_index_store_begin (store, error))
    return FALSE;

  if (graph->everything)
    {
      g_autoptr(GPtrArray) imports = lode_index_store_dup_imports (store, NULL, error);

      if (imports == NULL || !reresolve_imports (store, graph, imports, done, &n_changed, error))
        goto failed;
    }
  else
    {
      if (!reresolve_imports (store, graph, graph->stale, done, &n_changed, error))
        goto failed;

      g_hash_table_iter_init (&iter, graph->touched);
      while (g_hash_table_iter_next (&iter, (gpointer *) &path, NULL))
        {
          g_auto(GStrv) keys = lode_import_resolver_dup_keys_for_path (ensure_resolver (graph),
                                                                       path);

          for (guint k = 0; keys[k] != NULL; k++)
            {
              g_autoptr(GPtrArray) imports = lode_index_store_dup_imports_for_key (store, keys[k],
                                                                             error);

              if (imports == NULL ||
                  !reresolve_imports (store, graph, imports, done, &n_changed, error))
                goto failed;
            }
        }
    }

  g_debug ("Graph: %u imports resolved again, %u changed", g_hash_table_size (done), n_changed);

  return lode_index_store_commit (store, error);

failed:
  lode_index_store_rollback (store);
  return FALSE;
}

/* Indexing ----------------------------------------------------------------------------- */

static gboolean
remove_stale (LodeIndexStore *store,
              GHashTable  *old_files,
              GPtrArray   *files,
              GraphRun    *graph,
              guint       *n_removed,
              GError     **error)
{
  g_autoptr(GHashTable) present = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  const char *path;

  for (guint i = 0; i < files->len; i++)
    g_hash_table_add (present, ((LodeScanFile *) g_ptr_array_index (files, i))->path);

  if (!lode_index_store_begin (store, error))
    return FALSE;

  g_hash_table_iter_init (&iter, old_files);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, NULL))
    {
      if (g_hash_table_contains (present, path))
        continue;
      if ((graph != NULL && !graph_touch (store, graph, path, TRUE, FALSE, error)) ||
          !lode_index_store_remove_file (store, path, error))
        {
          lode_index_store_rollback (store);
          return FALSE;
        }
      (*n_removed)++;
    }

  return lode_index_store_commit (store, error);
}

/* Runs on the writer (calling) thread. @graph is NULL when the graph is off. */
static gboolean
store_result (LodeIndexStore  *store,
              Shared          *shared,
              GraphRun        *graph,
              FileResult      *result,
              LodeIndexReport *report,
              GError         **error)
{
  LodeFileInfo info = { 0 };
  gboolean existed;

  switch (result->kind)
    {
    case RESULT_RESTAMPED:
      if (!lode_index_store_set_file_stamp (store, result->file->path, result->size,
                                            result->mtime_usec, error))
        return FALSE;
      G_GNUC_FALLTHROUGH;
    case RESULT_UNCHANGED:
      report->n_unchanged++;
      report->n_files++;
      return TRUE;

    case RESULT_SKIPPED:
      /* A file that became binary or unreadable leaves the index. */
      if (g_hash_table_contains (shared->old_files, result->file->path) &&
          ((graph != NULL &&
            !graph_touch (store, graph, result->file->path, TRUE, FALSE, error)) ||
           !lode_index_store_remove_file (store, result->file->path, error)))
        return FALSE;
      g_ptr_array_add (report->skipped, g_steal_pointer (&result->skipped));
      return TRUE;

    case RESULT_CANCELLED:
      return TRUE;

    case RESULT_CHUNKED:
      existed = g_hash_table_contains (shared->old_files, result->file->path);
      info.path = result->file->path;
      info.language = result->language;
      info.hash = result->hash;
      info.size = result->size;
      info.mtime_usec = result->mtime_usec;
      info.n_lines = result->n_lines;
      info.prepared = result->prepared;
      if (graph != NULL &&
          !graph_touch (store, graph, result->file->path, existed, existed, error))
        return FALSE;
      if (!lode_index_store_put_file (store, &info, result->chunks, result->symbols,
                                      result->symbol_chunks, error) ||
          !lode_index_store_put_references (store, result->file->path, result->references,
                                            error))
        return FALSE;
      if (graph != NULL &&
          (!store_imports (store, graph, result->file->path, result->imports, error) ||
           !store_call_sites (store, result, error)))
        return FALSE;
      if (existed)
        report->n_updated++;
      else
        report->n_added++;
      report->n_files++;
      report->n_chunks += result->chunks->len;
      report->n_bytes += result->n_bytes;
      report->n_lines += result->n_lines;
      if (result->skipped != NULL)
        g_ptr_array_add (report->skipped, g_steal_pointer (&result->skipped));
      return TRUE;

    case RESULT_WORKER_DONE:
    default:
      g_assert_not_reached ();
    }
}

static gboolean
index_files (LodeIndexStore         *store,
             Shared                 *shared,
             GraphRun               *graph,
             guint                   n_threads,
             LodeIndexReport        *report,
             LodeIndexProgressFunc   progress,
             gpointer                progress_data,
             GError                **error)
{
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  g_autoptr(GError) local_error = NULL;
  FileResult *waiting[MAX_IN_FLIGHT] = { NULL };  /* by index, from next_stored on */
  guint next_stored = 0;
  guint n_done_workers = 0;
  guint n_done_files = 0;
  guint batch_files = 0;
  gsize batch_bytes = 0;
  gboolean in_transaction = FALSE;

  /* As many chunking threads as can be started (a memory limit may allow fewer), one at
   * least. */
  shared->n_threads = n_threads;
  for (guint i = 0; i < n_threads; i++)
    {
      g_autoptr(GError) thread_error = NULL;
      GThread *thread = g_thread_try_new ("lode-chunker", chunk_thread_func, shared,
                                          &thread_error);

      if (thread == NULL && threads->len == 0)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                       "Cannot start a thread to read files: %s",
                       lode_memory_limit_exhausted () ? "out of memory"
                                                      : thread_error->message);
          return FALSE;
        }
      if (thread == NULL)
        {
          g_debug ("Chunking with %u threads: %s", threads->len, thread_error->message);
          break;
        }
      g_ptr_array_add (threads, thread);
    }

  /* Drain every result even after a failure, so that the threads can finish. */
  while (n_done_workers < threads->len)
    {
      g_autoptr(FileResult) popped = g_async_queue_pop (shared->results);

      if (popped->kind == RESULT_WORKER_DONE)
        {
          n_done_workers++;
          continue;
        }
      g_assert (popped->index - next_stored < MAX_IN_FLIGHT);
      waiting[popped->index % MAX_IN_FLIGHT] = g_steal_pointer (&popped);

      /* In the list's order: the next one if it came, and those after it that came before. */
      while (waiting[next_stored % MAX_IN_FLIGHT] != NULL)
        {
          g_autoptr(FileResult) result = g_steal_pointer (&waiting[next_stored % MAX_IN_FLIGHT]);

          next_stored++;
          g_mutex_lock (&shared->lock);
          shared->in_flight--;
          shared->in_flight_bytes -= result->file->size;
          /* Every waiting thread looks again: one woken alone may find the list done and
           * leave, and the other would wait for a store that never comes. */
          g_cond_broadcast (&shared->cond);
          g_mutex_unlock (&shared->lock);

          if (local_error != NULL)
            continue;

          if (!in_transaction && result->kind != RESULT_UNCHANGED)
            {
              if (!lode_index_store_begin (store, &local_error))
                {
                  g_cancellable_cancel (shared->cancellable);
                  continue;
                }
              in_transaction = TRUE;
            }

          if (!store_result (store, shared, graph, result, report, &local_error))
            {
              g_cancellable_cancel (shared->cancellable);
              continue;
            }

          batch_files++;
          batch_bytes += result->n_bytes;
          if (in_transaction &&
              (batch_files >= BATCH_MAX_FILES || batch_bytes >= BATCH_MAX_BYTES))
            {
              in_transaction = FALSE;
              batch_files = 0;
              batch_bytes = 0;
              if (!lode_index_store_commit (store, &local_error))
                g_cancellable_cancel (shared->cancellable);
            }

          report_progress (progress, progress_data, LODE_INDEX_PHASE_INDEXING,
                           ++n_done_files, shared->files->len);
        }
    }

  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));

  /* What was chunked before a cancellation is kept: the next run goes on from there. */
  if (in_transaction)
    {
      if (local_error == NULL)
        lode_index_store_commit (store, &local_error);
      else
        lode_index_store_rollback (store);
    }

  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return TRUE;
}

/* What a run reads: the files to (re)read, and every file the tree holds after the run (for
 * the removal of what is gone and for the import resolver). A full run scans the tree, and
 * both lists are the same; a run over a watcher's change list stats only the changed paths. */
typedef struct
{
  GPtrArray *work;       /* LodeScanFile: read, hashed, chunked when changed */
  GPtrArray *present;    /* LodeScanFile: the tree after the run */
  GPtrArray *skipped;    /* LodeSkippedFile */
} RunFiles;

static void
run_files_clear (RunFiles *files)
{
  g_clear_pointer (&files->work, g_ptr_array_unref);
  g_clear_pointer (&files->present, g_ptr_array_unref);
  g_clear_pointer (&files->skipped, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunFiles, run_files_clear)

static LodeScanFile *
scan_file_for_path (const char *path)
{
  LodeScanFile *file = g_new0 (LodeScanFile, 1);

  file->path = g_strdup (path);
  file->language = lode_language_for_path (path);
  return file;
}

/* Whether @path is gone: listed itself, or below a directory that is. */
static gboolean
is_gone (GHashTable *gone,
         const char *path)
{
  g_autofree char *dir = g_strdup (path);
  char *slash;

  if (g_hash_table_contains (gone, path))
    return TRUE;
  while ((slash = strrchr (dir, '/')) != NULL)
    {
      *slash = '\0';
      if (g_hash_table_contains (gone, dir))
        return TRUE;
    }
  return FALSE;
}

/* The files of a run over @changes, from the stored paths and a stat of each changed path.
 * FALSE when the list cannot be trusted on its own (see lode_scanner_scan_paths()). */
static gboolean
files_from_changes (LodeScanner *scanner,
                    GPtrArray   *changes,
                    GHashTable  *old_files,
                    RunFiles    *out)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) missing = NULL;
  g_autoptr(GHashTable) gone = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) changed = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  const char *path;

  for (guint i = 0; i < changes->len; i++)
    {
      const LodeChange *change = g_ptr_array_index (changes, i);

      if (change->kind == LODE_CHANGE_RENAMED)
        g_hash_table_add (gone, change->old_path);
      if (change->kind == LODE_CHANGE_DELETED)
        g_hash_table_add (gone, change->path);
      else
        g_ptr_array_add (paths, change->path);
    }
  g_ptr_array_add (paths, NULL);

  if (!lode_scanner_scan_paths (scanner, (const char * const *) paths->pdata, &files,
                                &out->skipped, &missing))
    return FALSE;

  for (guint i = 0; i < missing->len; i++)
    g_hash_table_add (gone, g_ptr_array_index (missing, i));
  for (guint i = 0; i < out->skipped->len; i++)
    g_hash_table_add (gone, ((LodeSkippedFile *) g_ptr_array_index (out->skipped, i))->path);
  for (guint i = 0; i < files->len; i++)
    g_hash_table_add (changed, ((LodeScanFile *) g_ptr_array_index (files, i))->path);

  /* A deleted directory is one change: every stored file below it is gone with it. */
  out->present = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_scan_file_free);
  g_hash_table_iter_init (&iter, old_files);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, NULL))
    if (!g_hash_table_contains (changed, path) && !is_gone (gone, path))
      g_ptr_array_add (out->present, scan_file_for_path (path));
  for (guint i = 0; i < files->len; i++)
    {
      const LodeScanFile *file = g_ptr_array_index (files, i);

      g_ptr_array_add (out->present, scan_file_for_path (file->path));
    }

  out->work = g_steal_pointer (&files);
  return TRUE;
}

static gboolean
files_from_scan (LodeScanner   *scanner,
                 GCancellable  *cancellable,
                 RunFiles      *out,
                 GError       **error)
{
  if (!lode_scanner_scan (scanner, cancellable, &out->work, &out->skipped, error))
    return FALSE;

  out->present = g_ptr_array_ref (out->work);
  return TRUE;
}

/**
 * lode_indexer_run:
 * @root: canonical absolute path of the tree
 * @store: the project's index, open for writing
 * @config: settings (size cap, chunk size, threads)
 * @changes: (nullable) (element-type LodeChange): what changed since the last run, as a
 *   #LodeWatcher reports it; %NULL to scan the whole tree
 * @cancellable: (nullable): a #GCancellable
 * @progress: (nullable) (scope call): progress callback, called on this thread
 * @progress_data: data for @progress
 * @error: return location for a #GError
 *
 * Brings @store up to date with @root: new and changed files are chunked,
 * deleted ones removed, unchanged ones (same content hash) left alone but for their stored
 * size and modification time, which are always those of the bytes read. With @changes only
 * the changed paths are read; the tree is scanned anyway when the list cannot be trusted on
 * its own (a directory or symbolic link among them, an ignore file, an interrupted earlier
 * run). Blocks; call it from a worker thread. A cancelled run keeps what it stored and fails
 * with %G_IO_ERROR_CANCELLED.
 *
 * Returns: (transfer full) (nullable): what the run did, or %NULL on error
 */
LodeIndexReport *
lode_indexer_run (const char             *root,
                  LodeIndexStore         *store,
                  const LodeConfig       *config,
                  GPtrArray              *changes,
                  GCancellable           *cancellable,
                  LodeIndexProgressFunc   progress,
                  gpointer                progress_data,
                  GError                **error)
{
  g_autoptr(LodeIndexReport) report = g_new0 (LodeIndexReport, 1);
  g_autoptr(LodeScanner) scanner = NULL;
  g_auto(RunFiles) files = { 0 };
  g_autoptr(GPtrArray) stored = NULL;
  g_autoptr(GHashTable) old_files = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GCancellable) run_cancellable = g_cancellable_new ();
  g_autofree char *state = NULL;
  g_autofree char *now = NULL;
  g_autoptr(GDateTime) date = NULL;
  g_autofree char *graph_state = NULL;
  g_autofree char *calls_state = NULL;
  g_auto(GraphRun) graph = { 0 };
  GraphRun *graph_run = NULL;   /* &graph, or NULL when the graph is off */
  gint64 started = g_get_monotonic_time ();
  gulong cancelled_id = 0;
  Shared shared = { 0 };
  gboolean ok;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (LODE_IS_INDEX_STORE (store), NULL);
  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  report->skipped = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_skipped_file_free);

  report_progress (progress, progress_data, LODE_INDEX_PHASE_SCANNING, 0, 0);

  report->reset = lode_index_store_get_was_reset (store);
  report->reset_reason = g_strdup (lode_index_store_get_reset_reason (store));

  state = lode_index_store_dup_meta (store, "state");
  report->resumed = g_strcmp0 (state, "indexing") == 0;
  stored = lode_index_store_dup_files (store, error);
  if (stored == NULL)
    return NULL;
  for (guint i = 0; i < stored->len; i++)
    {
      LodeStoredFile *file = g_ptr_array_index (stored, i);

      g_hash_table_insert (old_files, file->path, file);
    }

  /* An interrupted run may have left anything half done: only a scan can tell. */
  scanner = lode_scanner_new (root);
  lode_scanner_set_max_file_size (scanner, config->max_file_size);
  if (changes == NULL || report->resumed || report->reset ||
      !files_from_changes (scanner, changes, old_files, &files))
    {
      run_files_clear (&files);
      if (!files_from_scan (scanner, cancellable, &files, error))
        return NULL;
    }
  else
    report->incremental = TRUE;
  g_ptr_array_extend_and_steal (report->skipped, g_steal_pointer (&files.skipped));

  if (!lode_index_store_set_meta (store, "root", root, error) ||
      !lode_index_store_set_meta (store, "state", "indexing", error))
    return NULL;

  graph_state = lode_index_store_dup_meta (store, LODE_GRAPH_META_KEY);
  calls_state = lode_index_store_dup_meta (store, LODE_CALLS_META_KEY);
  shared.graph = g_strcmp0 (graph_state, "off") != 0;
  if (shared.graph)
    {
      graph.root = root;
      graph.files = files.present;
      graph.parsed = g_hash_table_new (g_str_hash, g_str_equal);
      graph.touched = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      graph.stale = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
      graph.everything = report->resumed;
      graph.calls_stale = g_strcmp0 (calls_state, "stale") == 0;
      if (g_strcmp0 (calls_state, "resolved") == 0 && !graph.everything)
        graph.edits = lode_call_pass_edits_new ();
      graph_run = &graph;
    }

  if (!remove_stale (store, old_files, files.present, graph_run, &report->n_removed, error))
    return NULL;

  /* Workers and writer share run_cancellable, so that a store failure also stops chunking. */
  if (cancellable != NULL)
    cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (cancel_cb),
                                          run_cancellable, NULL);

  shared.root = root;
  shared.store = store;
  shared.files = spread_languages (files.work);
  shared.old_files = old_files;
  shared.max_tokens = config->chunk_max_tokens;
  shared.max_file_size = config->max_file_size;
  shared.time_budget_msec = config->parse_time_budget;
  shared.cancellable = run_cancellable;
  shared.results = g_async_queue_new ();
  g_mutex_init (&shared.lock);
  g_cond_init (&shared.cond);

  ok = index_files (store, &shared, graph_run,
                    MIN (lode_config_get_threads (config), MAX (files.work->len, 1)),
                    report, progress, progress_data, error);

  g_cancellable_disconnect (cancellable, cancelled_id);
  report->n_parsed = g_atomic_int_get (&shared.n_parsed);
  g_ptr_array_unref (shared.files);
  g_async_queue_unref (shared.results);
  g_mutex_clear (&shared.lock);
  g_cond_clear (&shared.cond);

  if (!ok)
    return NULL;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  /* Files a change list did not name are as they were. */
  if (files.present != files.work)
    {
      guint untouched = files.present->len - files.work->len;

      report->n_unchanged += untouched;
      report->n_files += untouched;
    }

  report_progress (progress, progress_data, LODE_INDEX_PHASE_FINISHING,
                   files.work->len, files.work->len);
  if (!lode_index_store_end_files (store, error))
    return NULL;

  /* A first run resolved every import knowing every file. */
  if (graph_run != NULL && g_hash_table_size (old_files) > 0 &&
      !update_graph (store, graph_run, error))
    return NULL;
  if (graph_run != NULL && graph_run->calls_stale)
    {
      LodeImportResolver *imports = ensure_resolver (graph_run);
      guint n_changed;

      /* The pass holds every file's definitions and is the peak of a run over a large tree:
       * what the run kept of each file for itself goes first. */
      g_hash_table_remove_all (old_files);
      g_clear_pointer (&stored, g_ptr_array_unref);
      run_files_clear (&files);
      graph_run->files = NULL;
      g_clear_pointer (&graph_run->parsed, g_hash_table_unref);
      g_clear_pointer (&graph_run->touched, g_hash_table_unref);
      g_clear_pointer (&graph_run->stale, g_ptr_array_unref);
      if (!lode_call_pass_run (store, imports, graph_run->edits, cancellable,
                               &report->n_calls_resolved, &n_changed, error))
        return NULL;
    }

  date = g_date_time_new_now_utc ();
  now = g_date_time_format_iso8601 (date);
  if (!lode_index_store_set_meta (store, "indexed_at", now, error) ||
      !lode_index_store_set_meta (store, "state", "ready", error))
    return NULL;

  report->elapsed = (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC;

  return g_steal_pointer (&report);
}
