/* test-qdrant-store.c — LodeQdrantStore against the loopback Qdrant (or a real one)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lode.h"
#include "lode-artifact-search.h"
#include "lode-index-store.h"
#include "lode-qdrant-store.h"
#include "lode-store.h"
#include "qdrant-server.h"
#include "test-helpers.h"

#define assert_ok(call) \
  G_STMT_START { gboolean ok_ = (call); g_assert_no_error (error); g_assert_true (ok_); } G_STMT_END

typedef struct
{
  QdrantServer     *server;
  LodeQdrantClient *client;
  char             *collection;
} Fixture;

static void
setup (Fixture       *fixture,
       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->server = qdrant_server_new (NULL);
  fixture->client = lode_qdrant_client_new (fixture->server->url,
                                            g_getenv ("LODE_TEST_QDRANT_API_KEY"), &error);
  g_assert_no_error (error);
  lode_qdrant_client_set_retry (fixture->client, 3, 5);
  fixture->collection = qdrant_server_collection (fixture->server, "store");
  lode_qdrant_store_delete (fixture->client, fixture->collection, NULL, NULL);
}

static void
teardown (Fixture       *fixture,
          gconstpointer  data)
{
  qdrant_server_assert_valid (fixture->server);
  lode_qdrant_store_delete (fixture->client, fixture->collection, NULL, NULL);
  g_clear_object (&fixture->client);
  g_free (fixture->collection);
  qdrant_server_free (fixture->server);
}

static LodeQdrantStore *
open_store (Fixture  *fixture,
            guint     dims,
            gboolean  writer)
{
  LodeQdrantCollectionSpec spec = { .dims = dims };
  g_autoptr(GError) error = NULL;
  LodeQdrantStore *store = lode_qdrant_store_open (fixture->client, fixture->collection, &spec,
                                                   writer, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

static LodeQdrantStore *
open_store_named (Fixture    *fixture,
                  const char *name)
{
  LodeQdrantCollectionSpec spec = { 0 };
  g_autoptr(GError) error = NULL;
  LodeQdrantStore *store = lode_qdrant_store_open (fixture->client, name, &spec, FALSE, NULL,
                                                   &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

static GPtrArray *
make_chunks (const char *name,
             guint       n)
{
  GPtrArray *chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);

  for (guint i = 0; i < n; i++)
    {
      LodeChunk *chunk = lode_chunk_new ();

      chunk->start_line = i * 10 + 1;
      chunk->end_line = i * 10 + 9;
      chunk->kind = "function";
      chunk->symbol = g_strdup_printf ("%s_%u", name, i);
      chunk->signature = g_strdup_printf ("int %s_%u (void)", name, i);
      chunk->content = g_strdup_printf ("int\n%s_%u (void)\n{\n"
                                        "  return parseHttpRequest (%u);\n}\n", name, i, i);
      g_ptr_array_add (chunks, chunk);
    }
  return chunks;
}

static GPtrArray *
make_symbols (const char *name,
              guint       n)
{
  GPtrArray *symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);

  for (guint i = 0; i < n; i++)
    {
      LodeSymbol *symbol = lode_symbol_new ();

      symbol->name = g_strdup_printf ("%s_%u", name, i);
      symbol->kind = "function";
      symbol->start_line = i * 10 + 2;
      symbol->end_line = i * 10 + 9;
      g_ptr_array_add (symbols, symbol);
    }
  return symbols;
}

static void
put (LodeQdrantStore *store,
     const char      *path,
     const char      *hash,
     const char      *name,
     guint            n_chunks)
{
  LodeFileInfo info = { path, "c", hash, 100, 0, n_chunks * 10 };
  g_autoptr(GPtrArray) chunks = make_chunks (name, n_chunks);
  g_autoptr(GPtrArray) symbols = make_symbols (name, n_chunks);
  g_autofree guint *symbol_chunks = lode_indexer_attribute_symbols (chunks, symbols);
  g_autoptr(GError) error = NULL;

  assert_ok (lode_index_store_put_file (LODE_INDEX_STORE (store), &info, chunks, symbols,
                                        symbol_chunks, &error));
}

static GPtrArray *
imports_to (const char *target)
{
  GPtrArray *imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
  LodeStoredImport *import = g_new0 (LodeStoredImport, 1);
  const char *targets[] = { target, NULL };

  import->specifier = g_strdup (target);
  import->kind = g_strdup ("include-local");
  import->line = 1;
  import->key = g_strdup ("b");
  import->targets = g_strdupv ((char **) targets);
  g_ptr_array_add (imports, import);

  import = g_new0 (LodeStoredImport, 1);
  import->specifier = g_strdup ("stdio.h");
  import->kind = g_strdup ("include-system");
  import->line = 2;
  import->package = g_strdup ("stdio.h");
  g_ptr_array_add (imports, import);
  return imports;
}

static guint64
count_chunks (Fixture    *fixture,
              const char *path)
{
  g_autoptr(JsonNode) filter = lode_qdrant_filter_match ("type", "chunk");
  g_autoptr(GError) error = NULL;
  guint64 count = 0;

  if (path != NULL)
    filter = lode_qdrant_filter_and (g_steal_pointer (&filter),
                                     lode_qdrant_filter_match ("path", path));
  assert_ok (lode_qdrant_client_count (fixture->client, fixture->collection, filter, &count, NULL,
                                       &error));
  return count;
}

/* Everything the SQLite store keeps comes back from a new store object (another process or
 * machine): hashes, meta, stats, languages, chunks with their declarations, the graph. */
static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(LodeQdrantStore) store = NULL;
  g_autoptr(LodeQdrantStore) again = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GPtrArray) stored = NULL;
  g_autoptr(GPtrArray) to_b = NULL;
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GHashTable) hashes = NULL;
  g_autoptr(GHashTable) languages = NULL;
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *state = NULL;
  LodeStoreStats stats;
  LodeGraphCounts counts;
  LodeChunk *first;

  store = open_store (fixture, 0, TRUE);
  g_assert_false (lode_index_store_get_was_reset (LODE_INDEX_STORE (store)));
  assert_ok (lode_index_store_begin (LODE_INDEX_STORE (store), &error));
  put (store, "src/a.c", "hash-a", "alpha", 3);
  put (store, "src/b.c", "hash-b", "beta", 2);
  imports = imports_to ("src/b.c");
  assert_ok (lode_index_store_put_imports (LODE_INDEX_STORE (store), "src/a.c", imports, &error));
  assert_ok (lode_index_store_set_meta (LODE_INDEX_STORE (store), "state", "ready", &error));
  assert_ok (lode_index_store_commit (LODE_INDEX_STORE (store), &error));
  g_clear_object (&store);

  again = open_store (fixture, 0, FALSE);
  hashes = lode_index_store_dup_file_hashes (LODE_INDEX_STORE (again), NULL);
  g_assert_cmpuint (g_hash_table_size (hashes), ==, 2);
  g_assert_cmpstr (g_hash_table_lookup (hashes, "src/a.c"), ==, "hash-a");
  state = lode_index_store_dup_meta (LODE_INDEX_STORE (again), "state");
  g_assert_cmpstr (state, ==, "ready");

  g_assert_true (lode_index_store_get_stats (LODE_INDEX_STORE (again), &stats, NULL));
  g_assert_cmpuint (stats.n_files, ==, 2);
  g_assert_cmpuint (stats.n_chunks, ==, 5);
  g_assert_cmpuint (stats.n_symbols, ==, 5);
  g_assert_cmpuint (stats.n_lines, ==, 50);
  languages = lode_index_store_dup_language_counts (LODE_INDEX_STORE (again), NULL);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (languages, "c")), ==, 2);

  chunks = lode_index_store_dup_chunks_for_file (LODE_INDEX_STORE (again), "src/a.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chunks->len, ==, 3);
  first = g_ptr_array_index (chunks, 0);
  g_assert_cmpuint (first->start_line, ==, 1);
  g_assert_cmpstr (first->symbol, ==, "alpha_0");
  g_assert_cmpstr (first->kind, ==, "function");
  g_assert_nonnull (strstr (first->content, "parseHttpRequest"));

  stored = lode_index_store_dup_imports (LODE_INDEX_STORE (again), "src/a.c", NULL);
  g_assert_cmpuint (stored->len, ==, 2);
  g_assert_cmpstr (((LodeStoredImport *) stored->pdata[0])->targets[0], ==, "src/b.c");
  g_assert_cmpstr (((LodeStoredImport *) stored->pdata[1])->package, ==, "stdio.h");
  to_b = lode_index_store_dup_imports_to (LODE_INDEX_STORE (again), "src/b.c", NULL);
  g_assert_cmpuint (to_b->len, ==, 1);
  g_assert_true (lode_index_store_get_graph_counts (LODE_INDEX_STORE (again), &counts, NULL));
  g_assert_cmpuint (counts.n_imports, ==, 2);
  g_assert_cmpuint (counts.n_internal, ==, 1);
  g_assert_cmpuint (counts.n_external, ==, 1);
  graph = lode_index_store_load_graph (LODE_INDEX_STORE (again), NULL);
  g_assert_cmpuint (lode_graph_get_n_files (graph), ==, 2);
}

/* Removing a file takes its chunks and its point, and unlinks the imports that reached it. */
static void
test_remove (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(LodeQdrantStore) store = NULL;
  g_autoptr(LodeQdrantStore) again = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GPtrArray) stored = NULL;
  g_autoptr(GHashTable) hashes = NULL;
  g_autoptr(GError) error = NULL;

  store = open_store (fixture, 0, TRUE);
  put (store, "src/a.c", "hash-a", "alpha", 3);
  put (store, "src/b.c", "hash-b", "beta", 2);
  imports = imports_to ("src/b.c");
  assert_ok (lode_index_store_put_imports (LODE_INDEX_STORE (store), "src/a.c", imports, &error));
  g_assert_cmpuint (count_chunks (fixture, NULL), ==, 5);

  assert_ok (lode_index_store_remove_file (LODE_INDEX_STORE (store), "src/b.c", &error));
  g_assert_cmpuint (count_chunks (fixture, "src/b.c"), ==, 0);
  g_assert_cmpuint (count_chunks (fixture, NULL), ==, 3);

  again = open_store (fixture, 0, FALSE);
  hashes = lode_index_store_dup_file_hashes (LODE_INDEX_STORE (again), NULL);
  g_assert_cmpuint (g_hash_table_size (hashes), ==, 1);
  stored = lode_index_store_dup_imports (LODE_INDEX_STORE (again), "src/a.c", NULL);
  g_assert_true (((LodeStoredImport *) stored->pdata[0])->targets == NULL ||
                 ((LodeStoredImport *) stored->pdata[0])->targets[0] == NULL);
}

/* A commit that breaks between its requests (here the file points never land) is repaired by
 * the next run, as the SQLite store's next run resumes: the file keeps its old hash, so it is
 * chunked again, and no chunk of the broken batch survives beside the new ones. */
static void
test_crash_between_batches (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(LodeQdrantStore) store = NULL;
  g_autoptr(LodeQdrantStore) after = NULL;
  g_autoptr(GHashTable) hashes = NULL;
  g_autoptr(GError) error = NULL;

  if (!qdrant_server_is_loopback (fixture->server))
    {
      g_test_skip ("needs fault injection (the loopback server)");
      return;
    }

  store = open_store (fixture, 0, TRUE);
  put (store, "src/a.c", "hash-a1", "alpha", 3);
  g_assert_cmpuint (count_chunks (fixture, "src/a.c"), ==, 3);

  /* The next commit: counters, delete, chunks, then the file points — which fail for good. */
  assert_ok (lode_index_store_begin (LODE_INDEX_STORE (store), &error));
  put (store, "src/a.c", "hash-a2", "alpha2", 2);
  put (store, "src/b.c", "hash-b1", "beta", 2);
  qdrant_server_add_fault (fixture->server,
                           "[{\"method\": \"PUT\", \"path\": \"/points\", \"skip\": 2,"
                           " \"status\": 500, \"count\": 100}]");
  g_assert_false (lode_index_store_commit (LODE_INDEX_STORE (store), &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_clear_error (&error);
  g_clear_object (&store);
  g_assert_cmpuint (count_chunks (fixture, "src/b.c"), ==, 2);

  /* What the next run finds: the old hash of a.c, no b.c. */
  after = open_store (fixture, 0, TRUE);
  hashes = lode_index_store_dup_file_hashes (LODE_INDEX_STORE (after), NULL);
  g_assert_cmpstr (g_hash_table_lookup (hashes, "src/a.c"), ==, "hash-a1");
  g_assert_false (g_hash_table_contains (hashes, "src/b.c"));
}

/* The second half of the crash test: the server is healthy again and the run repeats. */
static void
test_resume_after_crash (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(LodeQdrantStore) store = NULL;
  g_autoptr(GError) error = NULL;

  if (!qdrant_server_is_loopback (fixture->server))
    {
      g_test_skip ("needs fault injection (the loopback server)");
      return;
    }

  store = open_store (fixture, 0, TRUE);
  put (store, "src/a.c", "hash-a1", "alpha", 3);
  assert_ok (lode_index_store_begin (LODE_INDEX_STORE (store), &error));
  put (store, "src/a.c", "hash-a2", "alpha2", 2);
  put (store, "src/b.c", "hash-b1", "beta", 2);
  qdrant_server_add_fault (fixture->server,
                           "[{\"method\": \"PUT\", \"path\": \"/points\", \"skip\": 2,"
                           " \"status\": 500, \"count\": 1}]");
  g_assert_false (lode_index_store_commit (LODE_INDEX_STORE (store), &error));
  g_clear_error (&error);
  g_clear_object (&store);

  store = open_store (fixture, 0, TRUE);
  assert_ok (lode_index_store_begin (LODE_INDEX_STORE (store), &error));
  put (store, "src/a.c", "hash-a2", "alpha2", 2);
  put (store, "src/b.c", "hash-b1", "beta", 2);
  assert_ok (lode_index_store_commit (LODE_INDEX_STORE (store), &error));
  g_assert_cmpuint (count_chunks (fixture, "src/a.c"), ==, 2);
  g_assert_cmpuint (count_chunks (fixture, "src/b.c"), ==, 2);
  g_assert_cmpuint (count_chunks (fixture, NULL), ==, 4);
}

static LodeReferences *
make_references (const char *name)
{
  LodeReferences *references = lode_references_new ();

  lode_references_add (references, name, strlen (name), 2, LODE_REFERENCE_DEFINITION);
  lode_references_add (references, "helper", 6, 4, LODE_REFERENCE_CALL);
  return references;
}

static guint
n_found (GPtrArray *found)
{
  guint n = found != NULL ? found->len : G_MAXUINT;

  g_clear_pointer (&found, g_ptr_array_unref);
  return n;
}

/* Declarations and references written before a crash that kept the file point from being
 * written are not seen; the next run writes them whole. */
static void
test_symbols_resume_after_crash (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(LodeQdrantStore) store = NULL;
  g_autoptr(LodeQdrantStore) reader = NULL;
  g_autoptr(LodeReferences) references = make_references ("beta_0");
  g_autoptr(GError) error = NULL;
  LodeIndexStore *index;

  if (!qdrant_server_is_loopback (fixture->server))
    {
      g_test_skip ("needs fault injection (the loopback server)");
      return;
    }

  store = open_store (fixture, 0, TRUE);
  index = LODE_INDEX_STORE (store);
  assert_ok (lode_index_store_begin (index, &error));
  put (store, "src/b.c", "hash-b1", "beta", 2);
  assert_ok (lode_index_store_put_references (index, "src/b.c", references, &error));
  /* Counters, chunks and references get through; the file points do not. */
  qdrant_server_add_fault (fixture->server,
                           "[{\"method\": \"PUT\", \"path\": \"/points\", \"skip\": 3,"
                           " \"status\": 500, \"count\": 1}]");
  g_assert_false (lode_index_store_commit (index, &error));
  g_clear_error (&error);
  g_clear_object (&store);
  g_assert_cmpuint (count_chunks (fixture, "src/b.c"), ==, 2);

  reader = open_store (fixture, 0, FALSE);
  index = LODE_INDEX_STORE (reader);
  g_assert_cmpuint (n_found (lode_index_store_find_symbols (index, "beta_0", 10, &error)), ==, 0);
  g_assert_cmpuint (n_found (lode_index_store_find_references (index, "helper", &error)), ==, 0);
  g_assert_no_error (error);
  g_clear_object (&reader);

  store = open_store (fixture, 0, TRUE);
  index = LODE_INDEX_STORE (store);
  assert_ok (lode_index_store_begin (index, &error));
  put (store, "src/b.c", "hash-b1", "beta", 2);
  assert_ok (lode_index_store_put_references (index, "src/b.c", references, &error));
  assert_ok (lode_index_store_commit (index, &error));
  g_assert_cmpuint (count_chunks (fixture, "src/b.c"), ==, 2);
  g_assert_cmpuint (n_found (lode_index_store_find_symbols (index, "beta_0", 10, &error)), ==, 1);
  g_assert_cmpuint (n_found (lode_index_store_find_symbols (index, "BETA_1", 10, &error)), ==, 1);
  g_assert_cmpuint (n_found (lode_index_store_find_references (index, "helper", &error)), ==, 1);
  g_assert_no_error (error);
}

/* A collection written by another schema version is made anew by a writer, with the reason,
 * and refused to a reader. */
static void
test_schema_version (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(LodeQdrantStore) store = NULL;
  g_autoptr(LodeQdrantStore) reader = NULL;
  g_autoptr(LodeQdrantStore) writer = NULL;
  g_autoptr(GError) error = NULL;
  LodeQdrantCollectionSpec spec = { 0 };

  store = open_store (fixture, 0, TRUE);
  put (store, "src/a.c", "hash-a", "alpha", 1);
  assert_ok (lode_index_store_set_meta (LODE_INDEX_STORE (store), "schema", "0", &error));
  g_clear_object (&store);

  reader = lode_qdrant_store_open (fixture->client, fixture->collection, &spec, FALSE, NULL,
                                   &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED);
  g_assert_null (reader);
  g_clear_error (&error);

  writer = open_store (fixture, 0, TRUE);
  g_assert_true (lode_index_store_get_was_reset (LODE_INDEX_STORE (writer)));
  g_assert_nonnull (strstr (lode_index_store_get_reset_reason (LODE_INDEX_STORE (writer)),
                            "schema version 0"));
  g_assert_cmpuint (count_chunks (fixture, NULL), ==, 0);
}

/* The embedding pass's side: chunks without a vector, vectors by text hash, counts. */
static void
test_vectors (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(LodeQdrantStore) store = NULL;
  g_autoptr(GPtrArray) todo = NULL;
  g_autoptr(GPtrArray) rest = NULL;
  g_autoptr(GPtrArray) hashes = g_ptr_array_new ();
  g_autoptr(GArray) vectors = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr(GError) error = NULL;
  guint n_embedded = 0, n_embeddable = 0, n_chunks = 0;

  store = open_store (fixture, 3, TRUE);
  put (store, "src/a.c", "hash-a", "alpha", 3);

  todo = lode_index_store_dup_unembedded (LODE_INDEX_STORE (store), "test-model", 0, 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (todo->len, ==, 3);
  for (guint i = 0; i < todo->len; i++)
    {
      LodeStoreEmbedText *text = g_ptr_array_index (todo, i);
      float v[3] = { i == 0, i == 1, i == 2 };

      g_assert_nonnull (strstr (text->text, "parseHttpRequest"));
      g_ptr_array_add (hashes, text->hash);
      g_array_append_vals (vectors, v, 3);
    }

  /* Wrong dimensions are refused with the remedy. */
  g_assert_false (lode_index_store_put_vectors (LODE_INDEX_STORE (store), "test-model", 2,
                                                 (const char * const *) hashes->pdata,
                                                 (float *) vectors->data, 1, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_clear_error (&error);

  assert_ok (lode_index_store_put_vectors (LODE_INDEX_STORE (store), "test-model", 3,
                                            (const char * const *) hashes->pdata,
                                            (float *) vectors->data, 2, &n_chunks, &error));
  g_assert_cmpuint (n_chunks, ==, 2);
  assert_ok (lode_index_store_count_embedded (LODE_INDEX_STORE (store), "test-model", &n_embedded,
                                              &n_embeddable, &error));
  g_assert_cmpuint (n_embedded, ==, 2);
  g_assert_cmpuint (n_embeddable, ==, 3);
  rest = lode_index_store_dup_unembedded (LODE_INDEX_STORE (store), "test-model", 0, 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rest->len, ==, 1);

}

/* ---- through the engine ------------------------------------------------------------------ */

typedef struct
{
  LodeEngine     *engine;
  LodeProject    *project;
  LodeIndexStore *store;
  LodeConfig     *config;
} Indexed;

/* A Qdrant collection goes with the test (a real server is shared). */
static void
indexed_clear (Indexed *indexed)
{
  if (indexed->config != NULL && indexed->project != NULL)
    lode_index_store_remove (indexed->config, LODE_STORE_KIND_QDRANT,
                             lode_project_get_db_path (indexed->project), NULL);
  g_clear_pointer (&indexed->config, lode_config_free);
  g_clear_object (&indexed->store);
  g_clear_object (&indexed->project);
  g_clear_object (&indexed->engine);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Indexed, indexed_clear)

static LodeIndexReport *
index_corpus (Fixture    *fixture,
              const char *store,
              const char *root,
              Indexed    *indexed)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autoptr(GError) error = NULL;
  LodeStoreKind kind = LODE_STORE_KIND_SQLITE;
  LodeIndexReport *report;

  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), "lode-test", store, NULL);
  g_free (config->store);
  config->store = g_strdup (store);
  config->qdrant_url = g_strdup (fixture->server->url);
  /* One chunking thread: files get their ids in the walk's order in both stores. With more,
   * ids follow which thread finishes first, and the searcher breaks ties of score by file
   * id, so two stores indexed side by side could order equal scores differently. */
  config->index_threads = 1;
  /* The random tiny BERT: real vectors through the real embedding pass, quickly. */
  config->embedding_model = g_test_build_filename (G_TEST_BUILT, "liblode", "fixtures",
                                                   "tiny-bert-random", NULL);

  indexed->engine = lode_engine_new (config);
  indexed->config = lode_config_copy (config);
  indexed->project = lode_engine_open_project (indexed->engine, root, FALSE, &error);
  g_assert_no_error (error);
  report = lode_project_index (indexed->project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
  g_assert_true (lode_project_is_indexed (indexed->project));

  g_assert_true (lode_store_kind_from_string (store, &kind));
  indexed->store = lode_index_store_open (config, kind, lode_project_get_db_path (indexed->project),
                                          0, FALSE, NULL, &error);
  g_assert_no_error (error);
  return report;
}

static gpointer
read_nothing (LodeProject     *project,
              LodeIndexStore  *store,
              gpointer         data,
              GError         **error)
{
  g_assert_true (LODE_IS_INDEX_STORE (store));
  return project;
}

static void
assert_same_imports (GPtrArray *a,
                     GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const LodeStoredImport *x = g_ptr_array_index (a, i);
      const LodeStoredImport *y = g_ptr_array_index (b, i);

      g_assert_cmpstr (x->specifier, ==, y->specifier);
      g_assert_cmpstr (x->kind, ==, y->kind);
      g_assert_cmpuint (x->line, ==, y->line);
      g_assert_cmpstr (x->package, ==, y->package);
      g_assert_cmpuint (x->targets != NULL ? g_strv_length (x->targets) : 0, ==,
                        y->targets != NULL ? g_strv_length (y->targets) : 0);
    }
}

/* The fixture corpus indexed through the engine into SQLite and into Qdrant: the same files
 * and hashes, chunks, declarations, languages and import graph; a second run finds nothing
 * to do in either. */
static void
test_engine_same_as_sqlite (Fixture       *fixture,
                            gconstpointer  data)
{
  const char *root = g_test_get_filename (G_TEST_DIST, "liblode", "fixtures", "corpus", NULL);
  g_auto(Indexed) sqlite = { 0 };
  g_auto(Indexed) qdrant = { 0 };
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) again = NULL;
  g_autoptr(LodeIndexReport) reference = NULL;
  g_autoptr(GHashTable) hashes_a = NULL;
  g_autoptr(GHashTable) hashes_b = NULL;
  g_autoptr(GHashTable) languages_a = NULL;
  g_autoptr(GHashTable) languages_b = NULL;
  g_autoptr(GError) error = NULL;
  LodeStoreStats stats_a, stats_b;
  LodeGraphCounts graph_a, graph_b;
  GHashTableIter iter;
  const char *path;
  const char *hash;

  reference = index_corpus (fixture, "sqlite", root, &sqlite);
  first = index_corpus (fixture, "qdrant", root, &qdrant);
  g_assert_cmpuint (first->n_files, ==, reference->n_files);
  g_assert_cmpuint (first->n_chunks, ==, reference->n_chunks);
  g_assert_cmpstr (first->embedding_model, ==, "tiny-bert-random");
  g_assert_cmpuint (first->n_embedded, ==, reference->n_embedded);
  g_assert_cmpuint (first->n_embedded, >, 0);

  /* The symbol tools read either store. */
  g_assert_nonnull (lode_project_read (sqlite.project, read_nothing, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (lode_project_read (qdrant.project, read_nothing, NULL, &error));
  g_assert_no_error (error);

  hashes_a = lode_index_store_dup_file_hashes (sqlite.store, &error);
  hashes_b = lode_index_store_dup_file_hashes (qdrant.store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (hashes_a), ==, g_hash_table_size (hashes_b));
  g_hash_table_iter_init (&iter, hashes_a);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, (gpointer *) &hash))
    {
      g_autoptr(GPtrArray) imports_a = lode_index_store_dup_imports (sqlite.store, path, NULL);
      g_autoptr(GPtrArray) imports_b = lode_index_store_dup_imports (qdrant.store, path, NULL);
      LodeIndexStore *from = sqlite.store, *to = qdrant.store;
      g_autoptr(GPtrArray) chunks_a = lode_index_store_dup_chunks_for_file (from, path, NULL);
      g_autoptr(GPtrArray) chunks_b = lode_index_store_dup_chunks_for_file (to, path, NULL);
      g_autoptr(GArray) owners_a = NULL;
      g_autoptr(GArray) owners_b = NULL;
      g_autoptr(GPtrArray) symbols_a = lode_index_store_dup_symbols_for_file (from, path,
                                                                              &owners_a, NULL);
      g_autoptr(GPtrArray) symbols_b = lode_index_store_dup_symbols_for_file (to, path,
                                                                              &owners_b, NULL);

      g_assert_cmpstr (g_hash_table_lookup (hashes_b, path), ==, hash);
      assert_same_imports (imports_a, imports_b);
      g_assert_cmpuint (chunks_a->len, ==, chunks_b->len);
      for (guint i = 0; i < chunks_a->len; i++)
        {
          LodeChunk *a = g_ptr_array_index (chunks_a, i);
          LodeChunk *b = g_ptr_array_index (chunks_b, i);

          g_assert_cmpuint (a->start_line, ==, b->start_line);
          g_assert_cmpstr (a->symbol, ==, b->symbol);
          g_assert_cmpstr (a->content, ==, b->content);
        }
      /* Both stores keep the chunk the indexer gave each declaration. */
      g_assert_cmpuint (symbols_a->len, ==, symbols_b->len);
      g_assert_cmpmem (owners_a->data, owners_a->len * sizeof (guint),
                       owners_b->data, owners_b->len * sizeof (guint));
    }

  g_assert_true (lode_index_store_get_stats (sqlite.store, &stats_a, NULL));
  g_assert_true (lode_index_store_get_stats (qdrant.store, &stats_b, NULL));
  g_assert_cmpuint (stats_a.n_files, ==, stats_b.n_files);
  g_assert_cmpuint (stats_a.n_chunks, ==, stats_b.n_chunks);
  g_assert_cmpuint (stats_a.n_symbols, ==, stats_b.n_symbols);
  g_assert_cmpuint (stats_a.n_lines, ==, stats_b.n_lines);
  languages_a = lode_index_store_dup_language_counts (sqlite.store, NULL);
  languages_b = lode_index_store_dup_language_counts (qdrant.store, NULL);
  g_assert_cmpuint (g_hash_table_size (languages_a), ==, g_hash_table_size (languages_b));
  g_assert_true (lode_index_store_get_graph_counts (sqlite.store, &graph_a, NULL));
  g_assert_true (lode_index_store_get_graph_counts (qdrant.store, &graph_b, NULL));
  g_assert_cmpuint (graph_a.n_imports, ==, graph_b.n_imports);
  g_assert_cmpuint (graph_a.n_internal, ==, graph_b.n_internal);
  g_assert_cmpuint (graph_a.n_external, ==, graph_b.n_external);

  again = lode_project_index (qdrant.project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again->n_unchanged, ==, first->n_files);
  g_assert_cmpuint (again->n_added + again->n_updated + again->n_removed, ==, 0);

  /* Removing the project deletes its collection (on a real server too). */
  g_assert_true (lode_engine_remove_project (qdrant.engine, root, &error));
  g_assert_no_error (error);
  g_assert_false (lode_project_is_indexed (qdrant.project));
}

static gboolean
collect_vector_cb (const char  *hash,
                   const float *vector,
                   guint        dims,
                   gpointer     user_data)
{
  GHashTable *vectors = user_data;
  GArray *values = g_array_sized_new (FALSE, FALSE, sizeof (float), dims);

  g_array_append_vals (values, vector, dims);
  g_hash_table_insert (vectors, g_strdup (hash), values);
  return TRUE;
}

static GHashTable *
dup_vectors (LodeIndexStore *store)
{
  GHashTable *vectors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) g_array_unref);
  g_autoptr(GError) error = NULL;

  g_assert_true (lode_index_store_foreach_vector (store, "tiny-bert-random", collect_vector_cb,
                                                  vectors, &error));
  g_assert_no_error (error);
  return vectors;
}

static void
append_sites (const char    *name,
              const guint32 *sites,
              guint          n_sites,
              gpointer       user_data)
{
  GString *line = g_string_new (name);

  for (guint i = 0; i < n_sites; i++)
    g_string_append_printf (line, " %u", sites[i]);
  g_ptr_array_add (user_data, g_string_free (line, FALSE));
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* A file's references as text, one name a line, by name. */
static char *
references_text (LodeIndexStore *store,
                 const char     *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeReferences) references = NULL;
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  references = lode_index_store_dup_references_for_file (store, path, &error);
  g_assert_no_error (error);
  lode_references_foreach (references, append_sites, lines);
  g_ptr_array_sort (lines, compare_strings);
  g_ptr_array_add (lines, NULL);
  return g_strjoinv ("\n", (char **) lines->pdata);
}

static void
assert_same_index (LodeIndexStore *a,
                   LodeIndexStore *b)
{
  guint n_with_refs = 0;
  guint n_with_detail = 0;
  g_autoptr(GPtrArray) files_a = lode_index_store_dup_files (a, NULL);
  g_autoptr(GPtrArray) files_b = lode_index_store_dup_files (b, NULL);
  g_autoptr(GHashTable) vectors_a = dup_vectors (a);
  g_autoptr(GHashTable) vectors_b = dup_vectors (b);
  GHashTableIter iter;
  const char *hash;
  GArray *values;
  LodeGraphCounts graph_a, graph_b;
  guint n_with_context = 0;

  g_assert_cmpuint (files_a->len, ==, files_b->len);
  for (guint i = 0; i < files_a->len; i++)
    {
      const LodeStoredFile *x = g_ptr_array_index (files_a, i);
      const LodeStoredFile *y = g_ptr_array_index (files_b, i);
      g_autoptr(GPtrArray) chunks_a = lode_index_store_dup_chunks_for_file (a, x->path, NULL);
      g_autoptr(GPtrArray) chunks_b = lode_index_store_dup_chunks_for_file (b, x->path, NULL);
      g_autoptr(GArray) owners_a = NULL;
      g_autoptr(GArray) owners_b = NULL;
      g_autoptr(GPtrArray) symbols_a = lode_index_store_dup_symbols_for_file (a, x->path,
                                                                              &owners_a, NULL);
      g_autoptr(GPtrArray) symbols_b = lode_index_store_dup_symbols_for_file (b, x->path,
                                                                              &owners_b, NULL);
      g_autoptr(GPtrArray) imports_a = lode_index_store_dup_imports (a, x->path, NULL);
      g_autoptr(GPtrArray) imports_b = lode_index_store_dup_imports (b, x->path, NULL);

      g_assert_cmpstr (x->path, ==, y->path);
      g_assert_cmpstr (x->hash, ==, y->hash);
      g_assert_cmpstr (x->language, ==, y->language);
      g_assert_cmpuint (x->size, ==, y->size);
      g_assert_cmpint (x->mtime_usec, ==, y->mtime_usec);
      g_assert_cmpuint (x->n_lines, ==, y->n_lines);
      g_assert_cmpuint (chunks_a->len, ==, chunks_b->len);
      for (guint c = 0; c < chunks_a->len; c++)
        {
          LodeChunk *ca = g_ptr_array_index (chunks_a, c);
          LodeChunk *cb = g_ptr_array_index (chunks_b, c);

          g_assert_cmpuint (ca->end_line, ==, cb->end_line);
          g_assert_cmpstr (ca->kind, ==, cb->kind);
          g_assert_cmpstr (ca->signature, ==, cb->signature);
          g_assert_cmpstr (ca->content, ==, cb->content);
          /* The doc comments and context the lexical leg searches come along. */
          g_assert_cmpstr (ca->context, ==, cb->context);
          n_with_context += ca->context != NULL;
        }
      g_assert_cmpuint (symbols_a->len, ==, symbols_b->len);
      for (guint s = 0; s < symbols_a->len; s++)
        {
          const LodeSymbol *sa = symbols_a->pdata[s];
          const LodeSymbol *sb = symbols_b->pdata[s];

          g_assert_cmpstr (sa->name, ==, sb->name);
          g_assert_cmpstr (sa->package, ==, sb->package);
          g_assert_cmpstr (sa->detail, ==, sb->detail);
          g_assert_cmpuint (g_array_index (owners_a, guint, s), ==,
                            g_array_index (owners_b, guint, s));
          n_with_detail += sa->detail != NULL;
        }
      assert_same_imports (imports_a, imports_b);
      {
        g_autofree char *refs_a = references_text (a, x->path);
        g_autofree char *refs_b = references_text (b, x->path);

        g_assert_cmpstr (refs_a, ==, refs_b);
        n_with_refs += refs_a[0] != '\0';
      }
    }

  /* Symbol details and references come along too (the symbol tools read them). */
  g_assert_cmpuint (n_with_detail, >, 0);
  g_assert_cmpuint (n_with_refs, >, 0);
  g_assert_cmpuint (n_with_context, >, 0);
  g_assert_true (lode_index_store_get_graph_counts (a, &graph_a, NULL));
  g_assert_true (lode_index_store_get_graph_counts (b, &graph_b, NULL));
  g_assert_cmpuint (graph_a.n_internal, ==, graph_b.n_internal);

  /* The vectors come over: no text is embedded again. Qdrant normalises what it stores for
   * cosine distance (so does the loopback server), which may move a component of a vector
   * that was already of length 1 by its last bit. */
  g_assert_cmpuint (g_hash_table_size (vectors_a), >, 0);
  g_assert_cmpuint (g_hash_table_size (vectors_a), ==, g_hash_table_size (vectors_b));
  g_hash_table_iter_init (&iter, vectors_a);
  while (g_hash_table_iter_next (&iter, (gpointer *) &hash, (gpointer *) &values))
    {
      GArray *other = g_hash_table_lookup (vectors_b, hash);

      g_assert_nonnull (other);
      g_assert_cmpuint (other->len, ==, values->len);
      for (guint d = 0; d < values->len; d++)
        g_assert_cmpfloat_with_epsilon (g_array_index (other, float, d),
                                        g_array_index (values, float, d), 1e-6);
    }
}

/* lode migrate: SQLite → Qdrant → SQLite without loss and without embedding again. */
static void
test_migrate_round_trip (Fixture       *fixture,
                         gconstpointer  data)
{
  const char *root = g_test_get_filename (G_TEST_DIST, "liblode", "fixtures", "corpus", NULL);
  g_auto(Indexed) sqlite = { 0 };
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeIndexStore) copy = NULL;
  g_autoptr(LodeIndexStore) back = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *model = NULL;
  g_autofree char *original = NULL;
  LodeStoreCopyCounts counts;
  const char *db_path;

  report = index_corpus (fixture, "sqlite", root, &sqlite);
  g_assert_cmpuint (report->n_embedded, >, 0);
  db_path = lode_project_get_db_path (sqlite.project);
  config = lode_config_new_default ();
  config->qdrant_url = g_strdup (fixture->server->url);

  /* Into Qdrant. */
  assert_ok (lode_project_migrate (sqlite.project, LODE_STORE_KIND_QDRANT, NULL, &counts, &model,
                                   &error));
  g_assert_cmpuint (counts.n_files, ==, report->n_files);
  g_assert_cmpuint (counts.n_chunks, ==, report->n_chunks);
  g_assert_cmpuint (counts.n_vectors, >, 0);
  g_assert_cmpuint (counts.n_references, >, 0);
  g_assert_cmpstr (model, ==, "tiny-bert-random");
  copy = lode_index_store_open (config, LODE_STORE_KIND_QDRANT, db_path, 0, FALSE, NULL, &error);
  g_assert_no_error (error);
  assert_same_index (sqlite.store, copy);

  /* Back into a new SQLite index, the original kept aside to compare with. */
  original = g_strconcat (db_path, ".original", NULL);
  g_clear_object (&sqlite.store);
  g_assert_cmpint (g_rename (db_path, original), ==, 0);
  assert_ok (lode_project_migrate (sqlite.project, LODE_STORE_KIND_SQLITE, NULL, &counts, NULL,
                                   &error));
  back = lode_index_store_open (config, LODE_STORE_KIND_SQLITE, db_path, 0, FALSE, NULL, &error);
  g_assert_no_error (error);
  sqlite.store = LODE_INDEX_STORE (lode_store_open_reader (original, &error));
  g_assert_no_error (error);
  assert_same_index (sqlite.store, back);
}

/* Questions in words, identifiers and paths over the fixture corpus (those of
 * tests/liblode/test-search.c and more). */
static const char * const agreement_queries[] = {
  "where do we retry failed http requests",
  "evict the least recently used entry when the cache is full",
  "check the signature and expiry of an access token",
  "split a comma separated line with quoted fields",
  "limit how many requests a client can make per second",
  "how are passwords hashed",
  "render markdown headings and links as html",
  "show a timestamp as minutes ago or yesterday",
  "resize uploaded photos into small previews",
  "is this email address valid",
  "environment variables override values from the config file",
  "run jobs on a fixed number of worker threads",
  "autocomplete search terms by prefix",
  "detect dead websocket connections with ping and pong",
  "build a select query with where conditions and parameters",
  "round currency amounts to cents",
  "dispatch the most urgent task first",
  "subscribe to events and publish them to listeners",
  "when does a cron job run next",
  "make a url friendly slug from an article title",
  "stop calling a payment provider that keeps failing",
  "LruCache",
  "retry_with_backoff",
  "parseArgs",
  "money.py",
  "web/src/validation",
};

static GPtrArray *
top_files (LodeProject    *project,
           const char     *query,
           LodeSearchMode  mode)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(LodeSearchResponse) response = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  options.query = query;
  options.limit = 5;
  options.mode = mode;
  options.one_per_file = TRUE;
  response = lode_project_search_full (project, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (response->mode, ==, mode);
  for (guint i = 0; i < response->results->len; i++)
    g_ptr_array_add (files, g_strdup (((LodeSearchResult *) response->results->pdata[i])->path));
  return files;
}

static gboolean
same_files (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (!g_ptr_array_find_with_equal_func (b, a->pdata[i], g_str_equal, NULL))
      return FALSE;
  return TRUE;
}

/* Lexical, hybrid and semantic searches through the Qdrant store find the same top-5 files
 * as through the SQLite store: the searcher ranks both, the stores only hand it candidates. */
static void
test_search_agrees_with_sqlite (Fixture       *fixture,
                                gconstpointer  data)
{
  const char *root = g_test_get_filename (G_TEST_DIST, "liblode", "fixtures", "corpus", NULL);
  const LodeSearchMode modes[] = {
    LODE_SEARCH_MODE_LEXICAL, LODE_SEARCH_MODE_HYBRID, LODE_SEARCH_MODE_SEMANTIC
  };
  g_auto(Indexed) sqlite = { 0 };
  g_auto(Indexed) qdrant = { 0 };
  g_autoptr(LodeIndexReport) a = NULL;
  g_autoptr(LodeIndexReport) b = NULL;
  guint n_different = 0;

  a = index_corpus (fixture, "sqlite", root, &sqlite);
  b = index_corpus (fixture, "qdrant", root, &qdrant);

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint i = 0; i < G_N_ELEMENTS (agreement_queries); i++)
      {
        g_autoptr(GPtrArray) expected = top_files (sqlite.project, agreement_queries[i], modes[m]);
        g_autoptr(GPtrArray) found = top_files (qdrant.project, agreement_queries[i], modes[m]);
        g_autofree char *joined_a = NULL;
        g_autofree char *joined_b = NULL;

        if (same_files (expected, found))
          continue;
        n_different++;
        g_ptr_array_add (expected, NULL);
        g_ptr_array_add (found, NULL);
        joined_a = g_strjoinv (", ", (char **) expected->pdata);
        joined_b = g_strjoinv (", ", (char **) found->pdata);
        g_test_message ("mode %d, “%s”: SQLite %s; Qdrant %s", modes[m], agreement_queries[i],
                        joined_a, joined_b);
      }

  g_assert_cmpuint (n_different, ==, 0);
}

/* ---- symbol tools ------------------------------------------------------------------------- */

static LodeToolResult *
call_tool (LodeEngine *engine,
           const char *root,
           const char *tool,
           JsonNode   *arguments)
{
  g_autoptr(LodeToolRegistry) registry = lode_tools_new_registry (engine);
  g_autoptr(JsonNode) copy = json_node_copy (arguments);
  g_autoptr(GError) error = NULL;
  LodeToolResult *result;

  json_object_set_string_member (json_node_get_object (copy), "projectPath", root);
  result = lode_tool_registry_call (registry, tool, json_node_get_object (copy), NULL, NULL,
                                    &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static void
assert_same_result (LodeToolResult *a,
                    LodeToolResult *b,
                    const char     *what)
{
  g_autoptr(JsonNode) node_a = NULL;
  g_autoptr(JsonNode) node_b = NULL;
  g_autofree char *json_a = NULL;
  g_autofree char *json_b = NULL;

  g_assert_cmpint (a->is_error, ==, b->is_error);
  if (g_strcmp0 (a->text, b->text) != 0)
    g_error ("%s: SQLite says\n%s\nQdrant says\n%s", what, a->text, b->text);
  if (a->structured == NULL || b->structured == NULL)
    {
      g_assert_true (a->structured == b->structured);
      return;
    }
  node_a = json_node_init_object (json_node_alloc (), a->structured);
  node_b = json_node_init_object (json_node_alloc (), b->structured);
  json_a = json_to_string (node_a, TRUE);
  json_b = json_to_string (node_b, TRUE);
  g_assert_cmpstr (json_a, ==, json_b);
}

/* Every call of the symbol tools' golden files (test-symbols.c), in markdown and in JSON,
 * answers the same through the Qdrant store as through the SQLite store. */
static void
test_symbol_tools_same_as_sqlite (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autofree char *root = g_canonicalize_filename (
    g_test_get_filename (G_TEST_DIST, "liblode", "fixtures", "symbols", NULL), NULL);
  g_autofree char *expected = g_build_filename (root, "expected", NULL);
  g_auto(Indexed) sqlite = { 0 };
  g_auto(Indexed) qdrant = { 0 };
  g_autoptr(LodeIndexReport) a = NULL;
  g_autoptr(LodeIndexReport) b = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  guint n_calls = 0;

  a = index_corpus (fixture, "sqlite", root, &sqlite);
  b = index_corpus (fixture, "qdrant", root, &qdrant);

  dir = g_dir_open (expected, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (expected, name, NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonArray *calls;

      g_assert_true (json_parser_load_from_file (parser, file, &error));
      g_assert_no_error (error);
      calls = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                            "calls");
      for (guint i = 0; i < json_array_get_length (calls); i++)
        {
          JsonObject *entry = json_array_get_object_element (calls, i);
          const char *tool = json_object_get_string_member (entry, "tool");
          JsonNode *arguments = json_object_get_member (entry, "arguments");
          g_autofree char *what = g_strdup_printf ("%s, call %u (%s)", name, i, tool);
          g_autoptr(LodeToolResult) from_sqlite = NULL;
          g_autoptr(LodeToolResult) from_qdrant = NULL;
          g_autoptr(LodeToolResult) markdown_sqlite = NULL;
          g_autoptr(LodeToolResult) markdown_qdrant = NULL;
          g_autoptr(JsonNode) markdown = json_node_copy (arguments);

          from_sqlite = call_tool (sqlite.engine, root, tool, arguments);
          from_qdrant = call_tool (qdrant.engine, root, tool, arguments);
          g_assert_false (from_sqlite->is_error);
          assert_same_result (from_sqlite, from_qdrant, what);

          json_object_set_string_member (json_node_get_object (markdown), "output_format",
                                         "markdown");
          markdown_sqlite = call_tool (sqlite.engine, root, tool, markdown);
          markdown_qdrant = call_tool (qdrant.engine, root, tool, markdown);
          assert_same_result (markdown_sqlite, markdown_qdrant, what);
          n_calls++;
        }
    }
  g_assert_cmpuint (n_calls, >=, 14);
}

static guint
count_symbols (LodeIndexStore *store,
               const char     *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) symbols = lode_index_store_find_symbols (store, name, 50, &error);

  g_assert_no_error (error);
  return symbols->len;
}

static char *
reference_paths (LodeIndexStore *store,
                 const char     *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = lode_index_store_find_references (store, name, &error);
  g_autoptr(GString) out = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < files->len; i++)
    {
      LodeStoredReferences *file = g_ptr_array_index (files, i);

      g_assert_cmpuint (file->sites->len, >, 0);
      g_string_append_printf (out, "%s%s", i > 0 ? " " : "", file->path);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static LodeIndexStore *
reopen (Indexed *indexed)
{
  g_autoptr(GError) error = NULL;
  LodeIndexStore *store = lode_index_store_open (indexed->config, LODE_STORE_KIND_QDRANT,
                                                 lode_project_get_db_path (indexed->project), 0,
                                                 FALSE, NULL, &error);

  g_assert_no_error (error);
  return store;
}

/* The declarations and references of a changed file are replaced, those of a removed file
 * go, in the collection (as another reader sees it). */
static void
test_symbols_follow_changes (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("lode-qdrant-symbols-XXXXXX", &error);
  g_autofree char *root = NULL;
  g_auto(Indexed) qdrant = { 0 };
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) again = NULL;
  g_autoptr(LodeIndexStore) store = NULL;
  g_autofree char *paths = NULL;
  g_autofree char *use = NULL;

  g_assert_no_error (error);
  root = g_canonicalize_filename (tmp, NULL);
  use = g_build_filename (root, "use.go", NULL);
  test_write_file (root, "shapes.go",
                   "package shapes\n\n// Square has four sides.\ntype Square struct {\n"
                   "\tSide int\n}\n\nfunc Area(s Square) int {\n\treturn s.Side * s.Side\n}\n");
  test_write_file (root, "use.go",
                   "package shapes\n\nfunc Twice(s Square) int {\n\treturn 2 * Area(s)\n}\n");

  first = index_corpus (fixture, "qdrant", root, &qdrant);
  g_assert_cmpuint (first->n_files, ==, 2);
  g_assert_cmpuint (count_symbols (qdrant.store, "Square"), ==, 1);
  g_assert_cmpuint (count_symbols (qdrant.store, "Twice"), ==, 1);
  paths = reference_paths (qdrant.store, "Area");
  g_assert_cmpstr (paths, ==, "shapes.go use.go");
  g_clear_pointer (&paths, g_free);

  /* Square becomes Rect; use.go goes. */
  test_write_file (root, "shapes.go",
                   "package shapes\n\ntype Rect struct {\n\tW, H int\n}\n\n"
                   "func Area(r Rect) int {\n\treturn r.W * r.H\n}\n");
  g_assert_cmpint (g_remove (use), ==, 0);
  again = lode_project_index (qdrant.project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again->n_updated, ==, 1);
  g_assert_cmpuint (again->n_removed, ==, 1);

  store = reopen (&qdrant);
  g_assert_cmpuint (count_symbols (store, "Square"), ==, 0);
  g_assert_cmpuint (count_symbols (store, "Twice"), ==, 0);
  g_assert_cmpuint (count_symbols (store, "Rect"), ==, 1);
  paths = reference_paths (store, "Area");
  g_assert_cmpstr (paths, ==, "shapes.go");
  g_clear_pointer (&paths, g_free);
  paths = reference_paths (store, "Square");
  g_assert_cmpstr (paths, ==, "");

  test_remove_tree (root);
}

/* ---- forced runs and migrations build a new generation aside ------------------------------ */

#define ALIAS_TREE_FILES 40

/* A tree in a folder of its own, indexed by an engine with a data folder of its own. */
typedef struct
{
  Fixture     *fixture;
  char        *root;
  char        *data_dir;
  LodeConfig  *config;
  LodeEngine  *engine;
  LodeProject *project;
} Tree;

static void
tree_make_files (Tree  *tree,
                 guint  first,
                 guint  n_files)
{
  for (guint i = first; i < first + n_files; i++)
    {
      g_autofree char *rel = g_strdup_printf ("pkg%02u/module_%04u.py", i % 4, i);
      g_autoptr(GString) text = g_string_new (NULL);

      for (guint f = 0; f < 3; f++)
        g_string_append_printf (text,
                                "def handler_%u_%u(request, retries=3):\n"
                                "    \"\"\"Handle request %u of module %u.\"\"\"\n"
                                "    return retries * %u\n\n", i, f, f, i, f);
      test_write_file (tree->root, rel, text->str);
    }
}

static void
tree_open (Tree       *tree,
           const char *store)
{
  g_autoptr(GError) error = NULL;

  g_clear_object (&tree->project);
  g_clear_object (&tree->engine);
  g_clear_pointer (&tree->config, lode_config_free);
  tree->config = lode_config_new_default ();
  g_free (tree->config->data_dir);
  tree->config->data_dir = g_strdup (tree->data_dir);
  g_free (tree->config->store);
  tree->config->store = g_strdup (store);
  tree->config->qdrant_url = g_strdup (tree->fixture->server->url);
  tree->config->embedding_model = g_strdup (test_tiny_bert_dir ());
  tree->engine = lode_engine_new (tree->config);
  tree->project = lode_engine_open_project (tree->engine, tree->root, FALSE, &error);
  g_assert_no_error (error);
}

static void
tree_init (Tree       *tree,
           Fixture    *fixture,
           const char *store)
{
  g_autoptr(GError) error = NULL;

  tree->fixture = fixture;
  tree->root = g_dir_make_tmp ("lode-qdrant-tree-XXXXXX", &error);
  g_assert_no_error (error);
  tree->data_dir = g_dir_make_tmp ("lode-qdrant-data-XXXXXX", &error);
  g_assert_no_error (error);
  tree_make_files (tree, 0, ALIAS_TREE_FILES);
  tree_open (tree, store);
}

static char *
tree_collection (Tree *tree)
{
  return lode_index_store_dup_collection (lode_project_get_db_path (tree->project));
}

/* Deletes the tree's collections (a real server is shared) and its folders. */
static void
tree_clear (Tree *tree)
{
  if (tree->project != NULL)
    lode_index_store_remove (tree->config, LODE_STORE_KIND_QDRANT,
                             lode_project_get_db_path (tree->project), NULL);
  g_clear_object (&tree->project);
  g_clear_object (&tree->engine);
  g_clear_pointer (&tree->config, lode_config_free);
  if (tree->root != NULL)
    test_remove_tree (tree->root);
  if (tree->data_dir != NULL)
    test_remove_tree (tree->data_dir);
  g_clear_pointer (&tree->root, g_free);
  g_clear_pointer (&tree->data_dir, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Tree, tree_clear)

static LodeIndexReport *
tree_index (Tree           *tree,
            LodeIndexFlags  flags)
{
  g_autoptr(GError) error = NULL;
  LodeIndexReport *report;

  report = lode_project_index_with (tree->project, flags, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);
  return report;
}

static gboolean
tree_finds (LodeProject  *project,
            const char   *query,
            const char   *path,
            GError      **error)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GPtrArray) results = NULL;

  options.query = query;
  options.limit = 50;
  results = lode_project_search (project, &options, NULL, error);
  if (results == NULL)
    return FALSE;
  for (guint i = 0; i < results->len; i++)
    if (g_strcmp0 (((LodeSearchResult *) g_ptr_array_index (results, i))->path, path) == 0)
      return TRUE;
  return FALSE;
}

static void
assert_finds (LodeProject *project,
              const char  *query,
              const char  *path)
{
  g_autoptr(GError) error = NULL;
  gboolean found = tree_finds (project, query, path, &error);

  g_assert_no_error (error);
  g_assert_true (found);
}

/* The collections of @name on the server: the one its alias names (NULL for none), and how
 * many collections there are of it in all (the alias's, other generations, a collection of
 * that very name). */
static char *
dup_alias_target (Fixture    *fixture,
                  const char *name,
                  guint      *n_collections)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) aliases = lode_qdrant_client_list_aliases (fixture->client, NULL, &error);
  g_auto(GStrv) collections = NULL;
  g_autofree char *generations = g_strconcat (name, "_g", NULL);

  g_assert_no_error (error);
  collections = lode_qdrant_client_list_collections (fixture->client, NULL, &error);
  g_assert_no_error (error);
  *n_collections = 0;
  for (guint i = 0; collections[i] != NULL; i++)
    if (g_str_equal (collections[i], name) || g_str_has_prefix (collections[i], generations))
      (*n_collections)++;
  return g_strdup (g_hash_table_lookup (aliases, name));
}

static void
assert_alias (Fixture    *fixture,
              const char *name,
              guint       generation)
{
  g_autofree char *expected = g_strdup_printf ("%s_g%u", name, generation);
  g_autofree char *target = NULL;
  guint n = 0;

  target = dup_alias_target (fixture, name, &n);
  g_assert_cmpstr (target, ==, expected);
  g_assert_cmpuint (n, ==, 1);
}

/* The index of the first run is the project's, whole: the alias names its collection. */
static void
assert_old_index (Tree       *tree,
                  const char *name)
{
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) error = NULL;

  assert_alias (tree->fixture, name, 1);
  status = lode_project_dup_status (tree->project, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status->state, ==, LODE_INDEX_STATE_READY);
  g_assert_cmpuint (status->stats.n_files, ==, ALIAS_TREE_FILES);
  assert_finds (tree->project, "handler_39_2", "pkg03/module_0039.py");
}

typedef struct
{
  LodeProject  *project;
  guint         at;
  guint         n_searches;
  gboolean      found;
  GError       *error;
  GCancellable *cancellable;
} DuringRun;

/* Halfway through the run: searches for the last file's handler, which the old index has,
 * or cancels the run. */
static void
during_run_cb (const LodeIndexProgress *progress,
               gpointer                 user_data)
{
  DuringRun *during = user_data;

  if (progress->phase != LODE_INDEX_PHASE_INDEXING || progress->done < during->at ||
      during->n_searches > 0)
    return;

  during->n_searches++;
  if (during->cancellable != NULL)
    g_cancellable_cancel (during->cancellable);
  else
    during->found = tree_finds (during->project, "handler_39_2", "pkg03/module_0039.py",
                                &during->error);
}

/* A forced run on Qdrant builds the new index as a new collection: searches made meanwhile
 * answer from the old one, the alias then names the new one and the old one is deleted. */
static void
test_force_search_meanwhile (Fixture       *fixture,
                             gconstpointer  data)
{
  g_auto(Tree) tree = { 0 };
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeProject) reader = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  DuringRun during = { 0 };

  tree_init (&tree, fixture, "qdrant");
  first = tree_index (&tree, LODE_INDEX_FLAGS_NONE);
  name = tree_collection (&tree);
  assert_alias (fixture, name, 1);
  test_write_file (tree.root, "added.py", "def added_after_first_run():\n    return 1\n");

  /* Searches go through another project object, as another process's would. */
  reader = lode_engine_open_project (tree.engine, tree.root, TRUE, &error);
  g_assert_no_error (error);
  assert_finds (reader, "handler_39_2", "pkg03/module_0039.py");
  during.project = reader;
  during.at = ALIAS_TREE_FILES / 2;
  report = lode_project_index_with (tree.project, LODE_INDEX_FORCE, NULL, NULL, during_run_cb,
                                    &during, &error);
  g_assert_no_error (error);
  g_assert_true (report->reset);
  g_assert_cmpuint (report->n_files, ==, ALIAS_TREE_FILES + 1);
  g_assert_cmpuint (during.n_searches, ==, 1);
  g_assert_no_error (during.error);
  g_assert_true (during.found);

  /* The reader follows the alias to the new collection. */
  assert_alias (fixture, name, 2);
  assert_finds (reader, "added_after_first_run", "added.py");
  assert_finds (tree.project, "handler_39_2", "pkg03/module_0039.py");

  /* Removing the project deletes the alias and its collection. */
  g_assert_true (lode_index_store_remove (tree.config, LODE_STORE_KIND_QDRANT,
                                          lode_project_get_db_path (tree.project), &error));
  g_assert_no_error (error);
  g_free (dup_alias_target (fixture, name, &during.n_searches));
  g_assert_cmpuint (during.n_searches, ==, 0);
  g_assert_false (lode_project_is_indexed (tree.project));
}

/* A cancelled forced run deletes its new collection; the old index is as it was. */
static void
test_force_cancelled (Fixture       *fixture,
                      gconstpointer  data)
{
  g_auto(Tree) tree = { 0 };
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  DuringRun during = { 0 };

  tree_init (&tree, fixture, "qdrant");
  first = tree_index (&tree, LODE_INDEX_FLAGS_NONE);
  name = tree_collection (&tree);

  during.at = ALIAS_TREE_FILES / 2;
  during.cancellable = cancellable;
  report = lode_project_index_with (tree.project, LODE_INDEX_FORCE, NULL, cancellable,
                                    during_run_cb, &during, &error);
  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  assert_old_index (&tree, name);
}

/* A forced run whose Qdrant node goes away mid-batch fails with the reason; the old index is
 * as it was, and the next run deletes nothing of it. */
static void
test_force_fails_midway (Fixture       *fixture,
                         gconstpointer  data)
{
  g_auto(Tree) tree = { 0 };
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeIndexReport) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *faults = NULL;

  if (!qdrant_server_is_loopback (fixture->server))
    {
      g_test_skip ("faults are injected by the loopback server only");
      return;
    }

  tree_init (&tree, fixture, "qdrant");
  first = tree_index (&tree, LODE_INDEX_FLAGS_NONE);
  name = tree_collection (&tree);

  /* The fourth upsert into the new collection loses its connection as its node goes away;
   * the retry finds the shard gone (Qdrant answers 500, which is not retried). */
  faults = g_strdup_printf ("[{\"method\": \"PUT\", \"path\": \"%s_g2/points\", \"kind\": \"drop\","
                            " \"skip\": 3, \"count\": 1},"
                            " {\"method\": \"PUT\", \"path\": \"%s_g2/points\","
                            " \"kind\": \"status\", \"status\": 500, \"skip\": 3,"
                            " \"count\": 1}]", name, name);
  qdrant_server_add_fault (fixture->server, faults);
  report = lode_project_index_with (tree.project, LODE_INDEX_FORCE, NULL, NULL, NULL, NULL,
                                    &error);
  g_assert_null (report);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, tree.root));
  g_assert_nonnull (strstr (error->message, "_g2"));
  g_assert_nonnull (strstr (error->message, "HTTP 500"));
  g_clear_error (&error);

  assert_old_index (&tree, name);

  again = tree_index (&tree, LODE_INDEX_FLAGS_NONE);
  g_assert_cmpuint (again->n_unchanged, ==, ALIAS_TREE_FILES);
}

/* What a killed forced run left (a generation the alias does not name) goes with the next
 * run; the index the alias names stays. */
static void
test_force_killed_leftover (Fixture       *fixture,
                            gconstpointer  data)
{
  g_auto(Tree) tree = { 0 };
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *leftover = NULL;
  g_autofree char *target = NULL;
  LodeQdrantCollectionSpec spec = { 0 };
  guint n = 0;

  tree_init (&tree, fixture, "qdrant");
  first = tree_index (&tree, LODE_INDEX_FLAGS_NONE);
  name = tree_collection (&tree);
  leftover = g_strdup_printf ("%s_g2", name);
  assert_ok (lode_qdrant_client_create_collection (fixture->client, leftover, &spec, NULL,
                                                   &error));
  target = dup_alias_target (fixture, name, &n);
  g_assert_cmpuint (n, ==, 2);

  again = tree_index (&tree, LODE_INDEX_FLAGS_NONE);
  g_assert_cmpuint (again->n_unchanged, ==, ALIAS_TREE_FILES);
  assert_old_index (&tree, name);
}

/* Makes @name a collection of its own with the points of the generation it names: the index
 * as Lode made it before aliases. */
static void
make_legacy (Fixture    *fixture,
             const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *target = NULL;
  g_autofree char *scroll = NULL;
  g_autofree char *upsert = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) points = NULL;
  g_autoptr(LodeQdrantStore) store = NULL;
  LodeQdrantCollectionSpec spec = { 0 };
  guint n = 0;

  store = open_store_named (fixture, name);
  spec.dims = lode_qdrant_store_get_dims (store);
  target = dup_alias_target (fixture, name, &n);
  g_assert_nonnull (target);

  json_parser_load_from_data (parser, "{\"limit\": 100000, \"with_payload\": true,"
                              " \"with_vector\": true}", -1, &error);
  g_assert_no_error (error);
  scroll = g_strdup_printf ("/collections/%s/points/scroll", target);
  result = lode_qdrant_client_call (fixture->client, "POST", scroll,
                                    json_parser_get_root (parser), NULL, &error);
  g_assert_no_error (error);
  points = json_node_copy (json_object_get_member (json_node_get_object (result), "points"));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (points)), >, 0);
  /* Meta points have no vector, which an upsert states. */
  for (guint i = 0; i < json_array_get_length (json_node_get_array (points)); i++)
    {
      JsonObject *point = json_array_get_object_element (json_node_get_array (points), i);

      if (!json_object_has_member (point, "vector"))
        json_object_set_object_member (point, "vector", json_object_new ());
    }

  g_assert_true (lode_qdrant_client_delete_collection (fixture->client, target, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (lode_qdrant_client_create_collection (fixture->client, name, &spec, NULL,
                                                       &error));
  g_assert_no_error (error);
  body = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (body, json_object_new ());
  json_object_set_member (json_node_get_object (body), "points", g_steal_pointer (&points));
  upsert = g_strdup_printf ("/collections/%s/points", name);
  g_clear_pointer (&result, json_node_unref);
  result = lode_qdrant_client_call (fixture->client, "PUT", upsert, body, NULL, &error);
  g_assert_no_error (error);
}

/* An index made before aliases (a collection named like the alias) is read and updated as it
 * is; the first forced run replaces it with an alias of a new generation. */
static void
test_legacy_converted (Fixture       *fixture,
                       gconstpointer  data)
{
  g_auto(Tree) tree = { 0 };
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) update = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *target = NULL;
  DuringRun during = { 0 };
  guint n = 0;

  tree_init (&tree, fixture, "qdrant");
  first = tree_index (&tree, LODE_INDEX_FLAGS_NONE);
  name = tree_collection (&tree);
  make_legacy (fixture, name);
  target = dup_alias_target (fixture, name, &n);
  g_assert_null (target);
  g_assert_cmpuint (n, ==, 1);

  /* Read and updated in place, by a new engine (a new process). */
  tree_open (&tree, "qdrant");
  assert_finds (tree.project, "handler_39_2", "pkg03/module_0039.py");
  test_write_file (tree.root, "added.py", "def added_to_the_old_index():\n    return 1\n");
  update = tree_index (&tree, LODE_INDEX_FLAGS_NONE);
  g_assert_cmpuint (update->n_unchanged, ==, ALIAS_TREE_FILES);
  assert_finds (tree.project, "added_to_the_old_index", "added.py");
  g_free (dup_alias_target (fixture, name, &n));
  g_assert_cmpuint (n, ==, 1);

  /* The forced run converts it. */
  during.project = tree.project;
  during.at = ALIAS_TREE_FILES / 2;
  report = lode_project_index_with (tree.project, LODE_INDEX_FORCE, NULL, NULL, during_run_cb,
                                    &during, &error);
  g_assert_no_error (error);
  g_assert_no_error (during.error);
  g_assert_true (during.found);
  assert_alias (fixture, name, 1);
  assert_finds (tree.project, "added_to_the_old_index", "added.py");
  assert_finds (tree.project, "handler_39_2", "pkg03/module_0039.py");
}

/* `lode migrate --to qdrant` over an existing copy builds the new copy aside: a failed copy
 * leaves the old one searchable, a complete one replaces it after it is whole. */
static void
test_migrate_keeps_old_copy (Fixture       *fixture,
                             gconstpointer  data)
{
  g_auto(Tree) tree = { 0 };
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) update = NULL;
  g_autoptr(LodeProject) qdrant = NULL;
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) state = NULL;
  g_autofree char *name = NULL;
  g_autofree char *faults = NULL;
  g_autofree char *old_path = NULL;
  LodeStoreCopyCounts counts;
  JsonArray *requests;
  gint switched = -1;
  gint deleted = -1;

  tree_init (&tree, fixture, "sqlite");
  first = tree_index (&tree, LODE_INDEX_FLAGS_NONE);
  assert_ok (lode_project_migrate (tree.project, LODE_STORE_KIND_QDRANT, NULL, &counts, NULL,
                                   &error));
  name = tree_collection (&tree);
  assert_alias (fixture, name, 1);

  /* The Qdrant copy as a user of the Qdrant store sees it. */
  config = lode_config_copy (tree.config);
  g_free (config->store);
  config->store = g_strdup ("qdrant");
  engine = lode_engine_new (config);
  qdrant = lode_engine_open_project (engine, tree.root, TRUE, &error);
  g_assert_no_error (error);
  assert_finds (qdrant, "handler_39_2", "pkg03/module_0039.py");

  test_write_file (tree.root, "added.py", "def added_after_migration():\n    return 1\n");
  update = tree_index (&tree, LODE_INDEX_FLAGS_NONE);

  if (qdrant_server_is_loopback (fixture->server))
    {
      faults = g_strdup_printf ("[{\"method\": \"PUT\", \"path\": \"%s_g2/points\","
                                " \"kind\": \"status\", \"status\": 500, \"skip\": 2,"
                                " \"count\": 1}]", name);
      qdrant_server_add_fault (fixture->server, faults);
      g_assert_false (lode_project_migrate (tree.project, LODE_STORE_KIND_QDRANT, NULL, &counts,
                                            NULL, &error));
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "HTTP 500"));
      g_clear_error (&error);
      assert_alias (fixture, name, 1);
      assert_finds (qdrant, "handler_39_2", "pkg03/module_0039.py");
    }

  assert_ok (lode_project_migrate (tree.project, LODE_STORE_KIND_QDRANT, NULL, &counts, NULL,
                                   &error));
  g_assert_cmpuint (counts.n_files, ==, ALIAS_TREE_FILES + 1);
  assert_alias (fixture, name, 2);
  assert_finds (qdrant, "added_after_migration", "added.py");

  /* The old copy went only after the alias named the new one. */
  if (!qdrant_server_is_loopback (fixture->server))
    return;
  state = qdrant_server_dup_state (fixture->server);
  requests = json_object_get_array_member (json_node_get_object (state), "requests");
  old_path = g_strdup_printf ("/collections/%s_g1", name);
  for (guint i = 0; i < json_array_get_length (requests); i++)
    {
      JsonObject *request = json_array_get_object_element (requests, i);
      const char *method = json_object_get_string_member (request, "method");
      const char *path = json_object_get_string_member (request, "path");

      if (g_str_equal (method, "POST") && g_str_equal (path, "/collections/aliases"))
        switched = i;
      if (g_str_equal (method, "DELETE") && g_str_equal (path, old_path))
        deleted = i;
    }
  g_assert_cmpint (deleted, >, 0);
  g_assert_cmpint (switched, <, deleted);
}

/* ---- context artifacts -------------------------------------------------------------------- */

/* The shop fixture (tests/liblode/fixtures/context) in a folder of its own, with a glossary
 * the code index leaves out (.lodeignore): an artifact whose words only context search can
 * find. Returns the tree; @tmp gets the folder. */
static char *
make_shop (char **tmp)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *made = g_dir_make_tmp ("lode-qdrant-context-XXXXXX", &error);
  g_autofree char *folder = NULL;
  char *root;

  g_assert_no_error (error);
  folder = g_canonicalize_filename (made, NULL);
  root = g_build_filename (folder, "shop", NULL);
  test_copy_tree (g_test_get_filename (G_TEST_DIST, "liblode", "fixtures", "context", NULL),
                  root);
  test_write_file (root, "shared/glossary.md",
                   "# Glossary\n\nA quiddity is a returned parcel.\n");
  test_write_file (root, ".lodeignore", "shared/\n");
  test_write_file (root, ".lode.json",
                   "{\"contextArtifacts\": [{\"name\": \"database\", \"path\": \"db/schema.sql\"}, "
                   "{\"name\": \"api\", \"path\": \"api/openapi.yaml\"}, "
                   "{\"name\": \"docs\", \"path\": \"docs\"}, "
                   "{\"name\": \"glossary\", \"path\": \"shared/glossary.md\"}]}");
  *tmp = g_steal_pointer (&folder);
  return root;
}

static LodeToolResult *
call_json (Indexed    *indexed,
           const char *tool,
           const char *json)
{
  g_autoptr(JsonNode) arguments = json_from_string (json, NULL);
  LodeToolResult *result = call_tool (indexed->engine,
                                      lode_project_get_root (indexed->project), tool,
                                      arguments);

  if (result->is_error)
    g_error ("%s %s: %s", tool, json, result->text);
  return result;
}

/* "name:state" of each declared artifact. */
static char *
context_states (Indexed *indexed)
{
  g_autoptr(LodeToolResult) list = call_json (indexed, "codebase_context", "{}");

  return test_artifact_states (list->structured);
}

/* "artifact/title@line" of each result of a context search, best first. */
static char *
context_search (Indexed    *indexed,
                const char *query,
                const char *artifact)
{
  g_autoptr(JsonNode) arguments = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(LodeToolResult) search = NULL;
  JsonObject *object = json_object_new ();
  GString *out = g_string_new (NULL);
  JsonArray *results;

  json_object_set_string_member (object, "query", query);
  if (artifact != NULL)
    json_object_set_string_member (object, "artifactName", artifact);
  json_node_take_object (arguments, object);
  search = call_tool (indexed->engine, lode_project_get_root (indexed->project),
                      "codebase_context_search", arguments);
  g_assert_false (search->is_error);
  results = json_object_get_array_member (search->structured, "results");
  for (guint i = 0; i < json_array_get_length (results); i++)
    {
      JsonObject *r = json_array_get_object_element (results, i);

      g_string_append_printf (out, "%s%s/%s@%" G_GINT64_FORMAT, i > 0 ? " | " : "",
                              json_object_get_string_member (r, "artifact"),
                              json_object_get_string_member_with_default (r, "title", "-"),
                              json_object_get_int_member (r, "startLine"));
    }
  return g_string_free (out, FALSE);
}

static guint64
count_type (Indexed    *indexed,
            Fixture    *fixture,
            const char *type)
{
  g_autofree char *collection =
    lode_index_store_dup_collection (lode_project_get_db_path (indexed->project));
  g_autoptr(JsonNode) filter = lode_qdrant_filter_match ("type", type);
  g_autoptr(GError) error = NULL;
  guint64 count = 0;

  assert_ok (lode_qdrant_client_count (fixture->client, collection, filter, &count, NULL,
                                       &error));
  return count;
}

/* The context tools on a Qdrant project, as on SQLite (/lode/context/lifecycle): artifacts
 * indexed into the collection, found by a question, re-indexed when they change, removed when
 * dropped; code search, file counts and stats never see them. */
static void
test_context_lifecycle (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *tmp = NULL;
  g_autofree char *root = make_shop (&tmp);
  g_auto(Indexed) qdrant = { 0 };
  g_autoptr(LodeIndexReport) report = index_corpus (fixture, "qdrant", root, &qdrant);
  g_autoptr(LodeToolResult) index = NULL;
  g_autoptr(LodeToolResult) code = NULL;
  g_autoptr(LodeToolResult) removed = NULL;
  g_autoptr(LodeIndexStore) store = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *states = context_states (&qdrant);
  g_autofree char *found = NULL;
  g_autofree char *first = NULL;
  LodeStoreStats before, after;

  g_assert_cmpstr (states, ==, "database:not_indexed api:not_indexed docs:not_indexed "
                               "glossary:not_indexed protos:not_indexed");
  assert_ok (lode_index_store_get_stats (qdrant.store, &before, &error));

  index = call_json (&qdrant, "codebase_context_index", "{}");
  g_assert_nonnull (strstr (index->text, "database: indexed, 5 chunks"));
  g_free (states);
  states = context_states (&qdrant);
  g_assert_cmpstr (states, ==, "database:indexed api:indexed docs:indexed glossary:indexed "
                               "protos:indexed");
  g_assert_cmpuint (count_type (&qdrant, fixture, "artifact"), ==, 5);
  g_assert_cmpuint (count_type (&qdrant, fixture, "artifact_piece"), >, 5);

  found = context_search (&qdrant, "Which table stores user email addresses?", NULL);
  first = g_strndup (found, strcspn (found, "|"));
  g_assert_cmpstr (g_strstrip (first), ==, "database/CREATE TABLE users@1");
  g_clear_pointer (&found, g_free);
  found = context_search (&qdrant, "quiddity", NULL);
  g_assert_cmpstr (found, ==, "glossary/Glossary@1");

  /* Code search, the file list and the counts know nothing of them. */
  code = call_json (&qdrant, "codebase_search", "{\"query\": \"quiddity\", "
                                                 "\"mode\": \"lexical\"}");
  g_assert_cmpint (json_object_get_int_member (code->structured, "total"), ==, 0);
  store = reopen (&qdrant);
  assert_ok (lode_index_store_get_stats (store, &after, &error));
  g_assert_cmpuint (after.n_files, ==, before.n_files);
  g_assert_cmpuint (after.n_chunks, ==, before.n_chunks);
  g_assert_cmpuint (after.n_files, ==, report->n_files);
  {
    g_autoptr(GPtrArray) files = lode_index_store_dup_files (store, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (files->len, ==, report->n_files);
  }

  /* A change makes the artifact stale; a search indexes it again first. */
  test_write_file (root, "db/schema.sql", "CREATE TABLE customers (\n  phone_number TEXT\n);\n");
  g_free (states);
  states = context_states (&qdrant);
  g_assert_cmpstr (states, ==, "database:stale api:indexed docs:indexed glossary:indexed "
                               "protos:indexed");
  g_clear_pointer (&found, g_free);
  found = context_search (&qdrant, "phone numbers", "database");
  g_assert_cmpstr (found, ==, "database/CREATE TABLE customers@1");
  g_clear_pointer (&found, g_free);
  found = context_search (&qdrant, "email", "database");
  g_assert_cmpstr (found, ==, "");
  g_free (states);
  states = context_states (&qdrant);
  g_assert_cmpstr (states, ==, "database:indexed api:indexed docs:indexed glossary:indexed "
                               "protos:indexed");

  /* Dropped from the configuration: removed at the next index; then removed by name. */
  test_write_file (root, ".lode.json",
                   "{\"contextArtifacts\": [{\"name\": \"database\", "
                   "\"path\": \"db/schema.sql\"}]}");
  test_write_file (root, ".socraticodecontextartifacts.json",
                   "{\"artifacts\": [{\"name\": \"protos\", \"path\": \"proto\"}]}");
  g_clear_pointer (&index, lode_tool_result_free);
  index = call_json (&qdrant, "codebase_context_index", "{}");
  g_assert_nonnull (strstr (index->text, "api: removed"));
  g_assert_nonnull (strstr (index->text, "glossary: removed"));
  g_free (states);
  states = context_states (&qdrant);
  g_assert_cmpstr (states, ==, "database:indexed protos:indexed");
  g_clear_pointer (&found, g_free);
  found = context_search (&qdrant, "quiddity", NULL);
  g_assert_cmpstr (found, ==, "");

  removed = call_json (&qdrant, "codebase_context_remove", "{}");
  g_assert_nonnull (strstr (removed->text, "database, protos"));
  g_free (states);
  states = context_states (&qdrant);
  g_assert_cmpstr (states, ==, "database:not_indexed protos:not_indexed");
  g_assert_cmpuint (count_type (&qdrant, fixture, "artifact"), ==, 0);
  g_assert_cmpuint (count_type (&qdrant, fixture, "artifact_piece"), ==, 0);

  test_remove_tree (tmp);
}

static const char * const context_queries[] = {
  "Which table stores user email addresses?",
  "orders placed by a customer",
  "price of a product",
  "place an order",
  "close an account",
  "fetch one user",
  "payments",
  "staging deployment",
  "order messages",
  "quiddity",
};

/* The same artifacts searched through either store give the same results, in the same
 * order. */
static void
test_context_same_as_sqlite (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *tmp = NULL;
  g_autofree char *root = make_shop (&tmp);
  g_auto(Indexed) sqlite = { 0 };
  g_auto(Indexed) qdrant = { 0 };
  g_autoptr(LodeIndexReport) a = index_corpus (fixture, "sqlite", root, &sqlite);
  g_autoptr(LodeIndexReport) b = index_corpus (fixture, "qdrant", root, &qdrant);
  g_autoptr(LodeToolResult) index_a = call_json (&sqlite, "codebase_context_index", "{}");
  g_autoptr(LodeToolResult) index_b = call_json (&qdrant, "codebase_context_index", "{}");
  guint n_different = 0;

  g_assert_cmpstr (index_a->text, ==, index_b->text);
  for (guint i = 0; i < G_N_ELEMENTS (context_queries); i++)
    {
      g_autofree char *expected = context_search (&sqlite, context_queries[i], NULL);
      g_autofree char *found = context_search (&qdrant, context_queries[i], NULL);

      g_assert_cmpstr (expected, !=, "");
      if (g_str_equal (expected, found))
        continue;
      n_different++;
      g_test_message ("“%s”: SQLite %s; Qdrant %s", context_queries[i], expected, found);
    }
  g_assert_cmpuint (n_different, ==, 0);

  test_remove_tree (tmp);
}

static void
assert_same_artifacts (LodeIndexStore *a,
                       LodeIndexStore *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) artifacts_a = lode_index_store_dup_artifacts (a, &error);
  g_autoptr(GPtrArray) artifacts_b = lode_index_store_dup_artifacts (b, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (artifacts_a->len, >, 0);
  g_assert_cmpuint (artifacts_a->len, ==, artifacts_b->len);
  for (guint i = 0; i < artifacts_a->len; i++)
    {
      const LodeStoredArtifact *x = g_ptr_array_index (artifacts_a, i);
      const LodeStoredArtifact *y = g_ptr_array_index (artifacts_b, i);
      g_autoptr(GPtrArray) chunks_a = lode_index_store_dup_artifact_chunks (a, x->name, NULL);
      g_autoptr(GPtrArray) chunks_b = lode_index_store_dup_artifact_chunks (b, y->name, NULL);

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpstr (x->path, ==, y->path);
      g_assert_cmpstr (x->description, ==, y->description);
      g_assert_cmpstr (x->hash, ==, y->hash);
      g_assert_cmpint (x->indexed_at, ==, y->indexed_at);
      g_assert_cmpuint (x->n_files, ==, y->n_files);
      g_assert_cmpuint (x->n_chunks, ==, y->n_chunks);
      g_assert_cmpuint (chunks_a->len, ==, x->n_chunks);
      g_assert_cmpuint (chunks_a->len, ==, chunks_b->len);
      for (guint c = 0; c < chunks_a->len; c++)
        {
          const LodeArtifactChunk *ca = g_ptr_array_index (chunks_a, c);
          const LodeArtifactChunk *cb = g_ptr_array_index (chunks_b, c);

          g_assert_cmpstr (ca->path, ==, cb->path);
          g_assert_cmpuint (ca->start_line, ==, cb->start_line);
          g_assert_cmpuint (ca->end_line, ==, cb->end_line);
          g_assert_cmpstr (ca->kind, ==, cb->kind);
          g_assert_cmpstr (ca->title, ==, cb->title);
          g_assert_cmpstr (ca->body, ==, cb->body);
        }
    }
}

/* lode migrate copies the context artifacts both ways, as indexed (not stale after), in the
 * engine that reads the index, as a daemon's does: its reader stays open across both copies
 * and answers after each. */
static void
test_migrate_keeps_artifacts (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autofree char *tmp = NULL;
  g_autofree char *root = make_shop (&tmp);
  g_auto(Indexed) sqlite = { 0 };
  g_autoptr(LodeIndexReport) report = index_corpus (fixture, "sqlite", root, &sqlite);
  g_autoptr(LodeToolResult) index = call_json (&sqlite, "codebase_context_index", "{}");
  g_autofree char *found_before = context_search (&sqlite, "users table", NULL);
  g_autoptr(LodeIndexStore) copy = NULL;
  g_autoptr(LodeIndexStore) back = NULL;
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autoptr(GError) error = NULL;
  g_autofree char *original = NULL;
  g_autofree char *found = NULL;
  g_autoptr(LodeToolResult) migrated = NULL;
  g_autoptr(LodeToolResult) code = NULL;
  const char *prefixes[] = { "table", "user", "email", NULL };
  g_autoptr(GPtrArray) hits = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  const char *db_path;

  config->qdrant_url = g_strdup (fixture->server->url);
  db_path = lode_project_get_db_path (sqlite.project);
  migrated = call_json (&sqlite, "codebase_migrate", "{\"to\": \"qdrant\"}");
  g_assert_cmpint (json_object_get_int_member (migrated->structured, "artifacts"), ==, 5);
  copy = lode_index_store_open (config, LODE_STORE_KIND_QDRANT, db_path, 0, FALSE, NULL, &error);
  g_assert_no_error (error);
  assert_same_artifacts (sqlite.store, copy);
  expected = lode_artifact_search (sqlite.store, prefixes, NULL, 5, &error);
  g_assert_no_error (error);
  hits = lode_artifact_search (copy, prefixes, NULL, 5, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hits->len, ==, expected->len);
  for (guint i = 0; i < hits->len; i++)
    {
      const LodeArtifactHit *x = g_ptr_array_index (expected, i);
      const LodeArtifactHit *y = g_ptr_array_index (hits, i);

      g_assert_cmpstr (x->title, ==, y->title);
      g_assert_cmpfloat_with_epsilon (x->relevance, y->relevance, 1e-6 * x->relevance);
    }
  g_assert_cmpstr (((LodeArtifactHit *) hits->pdata[0])->title, ==, "CREATE TABLE users");
  found = context_search (&sqlite, "users table", NULL);
  g_assert_cmpstr (found, ==, found_before);

  /* Back over the SQLite index the engine reads, a snapshot of it kept to compare with: a
   * copy, not a rename, since this process has the file open and its last commits may still
   * be in its WAL, which a rename leaves behind under the old name (a reader of the renamed
   * file then fails with "disk I/O error", or misses them). */
  original = g_strconcat (db_path, ".original", NULL);
  assert_ok (lode_store_copy_into (LODE_STORE (sqlite.store), original, &error));
  g_clear_pointer (&migrated, lode_tool_result_free);
  migrated = call_json (&sqlite, "codebase_migrate", "{\"to\": \"sqlite\"}");
  g_assert_cmpint (json_object_get_int_member (migrated->structured, "artifacts"), ==, 5);
  back = lode_index_store_open (config, LODE_STORE_KIND_SQLITE, db_path, 0, FALSE, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&sqlite.store);
  sqlite.store = LODE_INDEX_STORE (lode_store_open_reader (original, &error));
  g_assert_no_error (error);
  assert_same_artifacts (sqlite.store, back);

  /* The engine answers from the copy. */
  g_clear_pointer (&found, g_free);
  found = context_search (&sqlite, "users table", NULL);
  g_assert_cmpstr (found, ==, found_before);
  code = call_json (&sqlite, "codebase_search", "{\"query\": \"handler\", "
                                               "\"mode\": \"lexical\"}");
  g_assert_cmpint (json_object_get_int_member (code->structured, "total"), ==, 1);

  test_remove_tree (tmp);
}

int
main (int   argc,
      char *argv[])
{
  /* Isolated XDG dirs hide the desktop schemas the GNOME proxy resolver reads. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/lode/qdrant-store/" path, Fixture, NULL, setup, func, teardown)

  ADD ("round-trip", test_round_trip);
  ADD ("remove", test_remove);
  ADD ("crash-between-batches", test_crash_between_batches);
  ADD ("resume-after-crash", test_resume_after_crash);
  ADD ("symbols-resume-after-crash", test_symbols_resume_after_crash);
  ADD ("schema-version", test_schema_version);
  ADD ("vectors", test_vectors);
  ADD ("engine-same-as-sqlite", test_engine_same_as_sqlite);
  ADD ("migrate-round-trip", test_migrate_round_trip);
  ADD ("search-agrees-with-sqlite", test_search_agrees_with_sqlite);
  ADD ("symbol-tools-same-as-sqlite", test_symbol_tools_same_as_sqlite);
  ADD ("symbols-follow-changes", test_symbols_follow_changes);
  ADD ("force-search-meanwhile", test_force_search_meanwhile);
  ADD ("force-cancelled", test_force_cancelled);
  ADD ("force-fails-midway", test_force_fails_midway);
  ADD ("force-killed-leftover", test_force_killed_leftover);
  ADD ("legacy-converted", test_legacy_converted);
  ADD ("migrate-keeps-old-copy", test_migrate_keeps_old_copy);
  ADD ("context-lifecycle", test_context_lifecycle);
  ADD ("context-same-as-sqlite", test_context_same_as_sqlite);
  ADD ("migrate-keeps-artifacts", test_migrate_keeps_artifacts);

  return g_test_run ();
}
