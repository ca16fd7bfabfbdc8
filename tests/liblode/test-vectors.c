/* test-vectors.c — vector storage and the exact kNN index (issue #4)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <sqlite3.h>

#include "lode-error.h"
#include "lode-index-store.h"
#include "lode-search-backend.h"
#include "lode-store.h"
#include "lode-vector-index.h"

/* Vector index */

static float *
random_vectors (GRand *rand,
                guint  n,
                guint  dims)
{
  float *data = g_new (float, (gsize) n * dims);

  for (guint i = 0; i < n; i++)
    {
      float *v = data + (gsize) i * dims;
      double norm = 0.0;

      for (guint j = 0; j < dims; j++)
        {
          v[j] = (float) g_rand_double_range (rand, -1.0, 1.0);
          norm += (double) v[j] * v[j];
        }
      for (guint j = 0; j < dims; j++)
        v[j] = (float) (v[j] / sqrt (norm));
    }

  return data;
}

/* The exact answer, by brute force in double precision: ids of the k best, best first. */
static GArray *
brute_force (const float  *data,
             guint         n,
             guint         dims,
             const float  *query,
             guint         k,
             gboolean    (*allow) (gint64 id))
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (LodeVectorHit));
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < n; i++)
    {
      LodeVectorHit hit = { (gint64) i * 7 + 1, 0.0f };
      double dot = 0.0;

      if (allow != NULL && !allow (hit.id))
        continue;
      for (guint j = 0; j < dims; j++)
        dot += (double) data[(gsize) i * dims + j] * query[j];
      hit.score = (float) dot;
      g_array_append_val (all, hit);
    }

  for (guint taken = 0; taken < k && all->len > 0; taken++)
    {
      guint best = 0;

      for (guint i = 1; i < all->len; i++)
        if (g_array_index (all, LodeVectorHit, i).score >
            g_array_index (all, LodeVectorHit, best).score)
          best = i;
      g_array_append_val (ids, g_array_index (all, LodeVectorHit, best).id);
      g_array_remove_index_fast (all, best);
    }

  return ids;
}

static gboolean
allow_even (gint64 id)
{
  return id % 2 == 0;
}

#define N_VECTORS 3000
#define DIMS      50     /* not a multiple of the kernels' block: padding is exercised */
#define K         10

static LodeVectorIndex *
make_index (const float *data)
{
  LodeVectorIndex *index = lode_vector_index_new (DIMS);

  for (guint i = 0; i < N_VECTORS; i++)
    lode_vector_index_add (index, (gint64) i * 7 + 1, data + (gsize) i * DIMS);

  return index;
}

static void
assert_same_ids (GArray *hits,
                 GArray *expected)
{
  g_assert_cmpuint (hits->len, ==, expected->len);
  for (guint i = 0; i < hits->len; i++)
    g_assert_cmpint (g_array_index (hits, LodeVectorHit, i).id, ==,
                     g_array_index (expected, gint64, i));
}

static void
check_exact (gboolean quantized)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autofree float *data = random_vectors (rand, N_VECTORS, DIMS);
  g_autofree float *queries = random_vectors (rand, 20, DIMS);
  g_autoptr(LodeVectorIndex) index = make_index (data);
  g_autoptr(GArray) even = g_array_new (FALSE, FALSE, sizeof (gint64));

  lode_vector_index_set_quantized (index, quantized);
  g_assert_cmpuint (lode_vector_index_get_size (index), ==, N_VECTORS);
  for (guint i = 0; i < N_VECTORS; i++)
    {
      gint64 id = (gint64) i * 7 + 1;

      if (allow_even (id))
        g_array_append_val (even, id);
    }

  for (guint q = 0; q < 20; q++)
    {
      const float *query = queries + (gsize) q * DIMS;
      g_autoptr(GArray) hits = lode_vector_index_search (index, query, K, NULL, 0);
      g_autoptr(GArray) expected = brute_force (data, N_VECTORS, DIMS, query, K, NULL);
      g_autoptr(GArray) filtered = lode_vector_index_search (index, query, K,
                                                             (const gint64 *) even->data,
                                                             even->len);
      g_autoptr(GArray) expected_filtered = brute_force (data, N_VECTORS, DIMS, query, K,
                                                         allow_even);

      assert_same_ids (hits, expected);
      assert_same_ids (filtered, expected_filtered);
      /* Scores are the float32 dot products, whatever the scan. */
      for (guint i = 0; i < hits->len; i++)
        {
          const LodeVectorHit *hit = &g_array_index (hits, LodeVectorHit, i);
          gint64 row = (hit->id - 1) / 7;
          double dot = 0.0;

          for (guint j = 0; j < DIMS; j++)
            dot += (double) data[row * DIMS + j] * query[j];
          g_assert_cmpfloat_with_epsilon (hit->score, dot, 1e-5);
        }
    }
}

static void
test_index_exact (void)
{
  check_exact (FALSE);
}

/* int8 scan + float32 re-scoring finds the same neighbours on this data. */
static void
test_index_int8 (void)
{
  check_exact (TRUE);
}

static void
test_index_edges (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autofree float *data = random_vectors (rand, 5, 3);
  g_autoptr(LodeVectorIndex) index = lode_vector_index_new (3);
  g_autoptr(GArray) empty = lode_vector_index_search (index, data, 10, NULL, 0);
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) none = NULL;
  g_autoptr(GArray) after = NULL;
  const gint64 keep[] = { 1, 3, 4 };

  g_assert_cmpuint (empty->len, ==, 0);
  for (guint i = 0; i < 5; i++)
    lode_vector_index_add (index, i, data + i * 3);

  /* k larger than the index: everything, best first; the query itself is the best. */
  all = lode_vector_index_search (index, data + 2 * 3, 100, NULL, 0);
  g_assert_cmpuint (all->len, ==, 5);
  g_assert_cmpint (g_array_index (all, LodeVectorHit, 0).id, ==, 2);
  g_assert_cmpfloat_with_epsilon (g_array_index (all, LodeVectorHit, 0).score, 1.0, 1e-5);
  for (guint i = 1; i < all->len; i++)
    g_assert_cmpfloat (g_array_index (all, LodeVectorHit, i - 1).score, >=,
                       g_array_index (all, LodeVectorHit, i).score);

  none = lode_vector_index_search (index, data, 0, NULL, 0);
  g_assert_cmpuint (none->len, ==, 0);

  g_assert_true (lode_vector_index_remove (index, 2));
  g_assert_false (lode_vector_index_remove (index, 2));
  g_assert_cmpuint (lode_vector_index_retain (index, keep, G_N_ELEMENTS (keep)), ==, 1);
  g_assert_cmpuint (lode_vector_index_get_size (index), ==, 3);

  /* Quantising afterwards covers the rows already there. */
  lode_vector_index_set_quantized (index, TRUE);
  after = lode_vector_index_search (index, data + 4 * 3, 10, NULL, 0);
  g_assert_cmpuint (after->len, ==, 3);
  g_assert_cmpint (g_array_index (after, LodeVectorHit, 0).id, ==, 4);
  for (guint i = 0; i < after->len; i++)
    g_assert_cmpint (g_array_index (after, LodeVectorHit, i).id, !=, 2);
}

/* Storage */

typedef struct
{
  char           *db_path;
  LodeIndexStore *store;
} StoreFixture;

static void
store_setup (StoreFixture  *fixture,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->db_path = g_build_filename (g_get_user_data_dir (), "lode", "vectors", "index.db",
                                       NULL);
  fixture->store = LODE_INDEX_STORE (lode_store_open (fixture->db_path, &error));
  g_assert_no_error (error);
}

static void
store_teardown (StoreFixture  *fixture,
                gconstpointer  data)
{
  g_clear_object (&fixture->store);
  g_free (fixture->db_path);
}

/* Stores @path with one chunk per text (one line each). */
static void
put_file (LodeIndexStore     *store,
          const char         *path,
          const char * const *texts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA1, path, -1);
  LodeFileInfo info = { path, "text", hash, 10, 0, 0 };

  for (guint i = 0; texts[i] != NULL; i++)
    {
      LodeChunk *chunk = lode_chunk_new ();

      chunk->start_line = chunk->end_line = i + 1;
      chunk->content = g_strdup (texts[i]);
      g_ptr_array_add (chunks, chunk);
    }
  info.n_lines = chunks->len;
  lode_index_store_put_file (store, &info, chunks, NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
assert_embedded (LodeIndexStore *store,
                 const char     *model,
                 guint           n_embedded,
                 guint           n_embeddable)
{
  g_autoptr(GError) error = NULL;
  guint embedded = 99, embeddable = 99;

  lode_index_store_count_embedded (store, model, &embedded, &embeddable, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embedded, ==, n_embedded);
  g_assert_cmpuint (embeddable, ==, n_embeddable);
}

/* Embeds everything the store lists for @model with vector (i, 0, …) for the i-th distinct
 * text. Returns the number of distinct texts embedded. */
static guint
embed_all (LodeIndexStore *store,
           const char     *model,
           guint           dims,
           guint          *n_chunks)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) todo = lode_index_store_dup_unembedded (store, model, 0, 1000, &error);
  g_autoptr(GPtrArray) hashes = g_ptr_array_new ();
  g_autofree float *vectors = NULL;

  g_assert_no_error (error);
  for (guint i = 0; i < todo->len; i++)
    {
      LodeStoreEmbedText *text = g_ptr_array_index (todo, i);

      if (!g_ptr_array_find_with_equal_func (hashes, text->hash, g_str_equal, NULL))
        g_ptr_array_add (hashes, text->hash);
    }

  vectors = g_new0 (float, (gsize) MAX (hashes->len, 1) * dims);
  for (guint i = 0; i < hashes->len; i++)
    vectors[(gsize) i * dims + i % dims] = 1.0f;
  lode_index_store_put_vectors (store, model, dims, (const char * const *) hashes->pdata, vectors,
                                hashes->len, n_chunks, &error);
  g_assert_no_error (error);

  return hashes->len;
}

/* A vector belongs to a text and a model: identical text is embedded once, a moved file
 * keeps its vectors, a blank chunk is never embedded, another model starts from zero. */
static void
test_store_keyed_by_text (StoreFixture  *fixture,
                          gconstpointer  data)
{
  const char *a[] = { "int shared (void);", "int only_a (void);", "   \n", NULL };
  const char *b[] = { "int shared (void);", NULL };
  const char *c[] = { "int only_c (void);", NULL };
  g_autoptr(GError) error = NULL;
  guint n_chunks = 0;

  put_file (fixture->store, "a.c", a);
  put_file (fixture->store, "b.c", b);
  assert_embedded (fixture->store, "m1", 0, 3);

  g_assert_cmpuint (embed_all (fixture->store, "m1", 4, &n_chunks), ==, 2);
  g_assert_cmpuint (n_chunks, ==, 3);
  assert_embedded (fixture->store, "m1", 3, 3);
  g_assert_cmpuint (embed_all (fixture->store, "m1", 4, &n_chunks), ==, 0);

  /* Re-chunked with the same text, and moved: nothing to embed. */
  put_file (fixture->store, "a.c", a);
  lode_index_store_remove_file (fixture->store, "b.c", &error);
  g_assert_no_error (error);
  put_file (fixture->store, "moved/b.c", b);
  assert_embedded (fixture->store, "m1", 3, 3);
  g_assert_cmpuint (embed_all (fixture->store, "m1", 4, &n_chunks), ==, 0);

  /* New text: only it. */
  put_file (fixture->store, "c.c", c);
  assert_embedded (fixture->store, "m1", 3, 4);
  g_assert_cmpuint (embed_all (fixture->store, "m1", 4, &n_chunks), ==, 1);
  g_assert_cmpuint (n_chunks, ==, 1);

  /* Another model shares nothing. */
  assert_embedded (fixture->store, "m2", 0, 4);
  assert_embedded (fixture->store, NULL, 0, 4);
  g_assert_cmpuint (embed_all (fixture->store, "m2", 8, &n_chunks), ==, 3);
  assert_embedded (fixture->store, "m2", 4, 4);
}

static void
test_store_dims_mismatch (StoreFixture  *fixture,
                          gconstpointer  data)
{
  const char *a[] = { "one", "two", NULL };
  const char *hashes[] = { "x" };
  float vector[3] = { 1.0f, 0.0f, 0.0f };
  g_autoptr(GError) error = NULL;
  guint dims = 0;
  guint n_chunks = 0;

  put_file (fixture->store, "a.txt", a);
  g_assert_cmpuint (embed_all (fixture->store, "m", 4, &n_chunks), ==, 2);
  g_assert_true (lode_search_backend_get_vector_dims (LODE_SEARCH_BACKEND (fixture->store), "m",
                                                      &dims, &error));
  g_assert_cmpuint (dims, ==, 4);

  g_assert_false (lode_index_store_put_vectors (fixture->store, "m", 3, hashes, vector, 1, NULL,
                                                &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  assert_embedded (fixture->store, "m", 2, 2);
}

typedef struct
{
  GArray *ids;
  guint   dims;
  float   first;
} Loaded;

static void
loaded_cb (gint64       chunk_id,
           const float *vector,
           gpointer     user_data)
{
  Loaded *loaded = user_data;

  g_array_append_val (loaded->ids, chunk_id);
  loaded->first = vector[0];
}

static guint
load (LodeIndexStore   *store,
      LodeVectorCursor *cursor)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  Loaded loaded = { ids, 4, 0.0f };

  lode_search_backend_load_vectors (LODE_SEARCH_BACKEND (store), "m", 4, cursor, loaded_cb,
                                    &loaded, &error);
  g_assert_no_error (error);
  return ids->len;
}

/* Loading resumes from a cursor: new chunks with vectors, and old chunks whose text got one. */
static void
test_store_load_incremental (StoreFixture  *fixture,
                             gconstpointer  data)
{
  const char *a[] = { "alpha", "beta", NULL };
  const char *b[] = { "gamma", "alpha", NULL };
  const char *c[] = { "delta", NULL };
  const LodeSearchFilter c_files = { NULL, "c.*" };
  LodeVectorCursor cursor = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = NULL;
  g_autoptr(GArray) filtered = NULL;
  guint n_chunks = 0;

  put_file (fixture->store, "a.txt", a);
  g_assert_cmpuint (load (fixture->store, &cursor), ==, 0);
  embed_all (fixture->store, "m", 4, &n_chunks);
  /* Vectors of chunks seen before come through their sequence numbers. */
  g_assert_cmpuint (load (fixture->store, &cursor), ==, 2);
  g_assert_cmpuint (load (fixture->store, &cursor), ==, 0);

  /* A new chunk whose text is embedded already comes at once; a new text once embedded. */
  put_file (fixture->store, "b.txt", b);
  g_assert_cmpuint (load (fixture->store, &cursor), ==, 1);
  embed_all (fixture->store, "m", 4, &n_chunks);
  g_assert_cmpuint (load (fixture->store, &cursor), ==, 1);

  /* Chunk ids are never reused, so the ids of live chunks tell what to keep. */
  lode_index_store_remove_file (fixture->store, "b.txt", &error);
  g_assert_no_error (error);
  put_file (fixture->store, "c.txt", c);
  all = lode_search_backend_dup_chunk_ids (LODE_SEARCH_BACKEND (fixture->store), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, 3);
  g_assert_cmpint (g_array_index (all, gint64, 2), >, 4);

  filtered = lode_search_backend_dup_chunk_ids (LODE_SEARCH_BACKEND (fixture->store), &c_files,
                                                &error);
  g_assert_no_error (error);
  g_assert_cmpuint (filtered->len, ==, 1);
  g_assert_cmpint (g_array_index (filtered, gint64, 0), ==, g_array_index (all, gint64, 2));
}

static void
test_store_prune (StoreFixture  *fixture,
                  gconstpointer  data)
{
  const char *a[] = { "one", "two", NULL };
  const char *b[] = { "three", "four", "five", NULL };
  g_autoptr(GError) error = NULL;
  guint n_chunks = 0;

  put_file (fixture->store, "a.txt", a);
  put_file (fixture->store, "b.txt", b);
  embed_all (fixture->store, "old", 4, &n_chunks);
  embed_all (fixture->store, "m", 4, &n_chunks);

  /* Unused vectors are kept while they are no more than the used ones. */
  lode_index_store_remove_file (fixture->store, "a.txt", &error);
  g_assert_no_error (error);
  lode_index_store_prune_vectors (fixture->store, "m", &error);
  g_assert_no_error (error);
  assert_embedded (fixture->store, "old", 0, 3);
  put_file (fixture->store, "a.txt", a);
  assert_embedded (fixture->store, "m", 5, 5);

  /* Beyond that the oldest go. */
  lode_index_store_remove_file (fixture->store, "a.txt", &error);
  g_assert_no_error (error);
  lode_index_store_remove_file (fixture->store, "b.txt", &error);
  g_assert_no_error (error);
  put_file (fixture->store, "c.txt", (const char *[]) { "six", NULL });
  embed_all (fixture->store, "m", 4, &n_chunks);
  lode_index_store_prune_vectors (fixture->store, "m", &error);
  g_assert_no_error (error);
  put_file (fixture->store, "b.txt", b);
  assert_embedded (fixture->store, "m", 2, 4);
}

/* An index of the schema before vectors is rebuilt, not used. */
static void
test_store_old_schema (void)
{
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "old.db", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeIndexStore) store = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (g_mkdir_with_parents (g_get_user_data_dir (), 0700), ==, 0);
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "CREATE TABLE chunks (id INTEGER PRIMARY KEY, file_id);"
                                     "PRAGMA user_version = 1;", NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);

  store = LODE_INDEX_STORE (lode_store_open (path, &error));
  g_assert_no_error (error);
  g_assert_true (lode_index_store_get_was_reset (store));
  put_file (store, "a.txt", (const char *[]) { "text", NULL });
  assert_embedded (store, "m", 0, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/vectors/index/exact", test_index_exact);
  g_test_add_func ("/lode/vectors/index/int8", test_index_int8);
  g_test_add_func ("/lode/vectors/index/edges", test_index_edges);
#define ADD(path, func) \
  g_test_add ("/lode/vectors/store/" path, StoreFixture, NULL, store_setup, func, store_teardown)
  ADD ("keyed-by-text", test_store_keyed_by_text);
  ADD ("dims-mismatch", test_store_dims_mismatch);
  ADD ("load-incremental", test_store_load_incremental);
  ADD ("prune", test_store_prune);
#undef ADD
  g_test_add_func ("/lode/vectors/store/old-schema", test_store_old_schema);

  return g_test_run ();
}
