/* test-hybrid.c — embedding pass, semantic and hybrid search through LodeProject (issue #4)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "lode.h"
#include "lode-embed-parts.h"
#include "lode-embedder-config.h"
#include "test-helpers.h"

/* This very program, re-executed as the child of the kill test. */
static const char *self_path;

/* A deterministic embedder: each word of a synonym class adds to that class's dimension,
 * any other word to one of a few hashed "noise" dimensions with a small weight. So "truck"
 * is near "automobile" and far from "banana", whatever the words around them. Model "test-b"
 * uses other dimensions, so that its space is not the one of "test-a". */

#define N_CLASSES 4
#define N_NOISE   8
#define TEST_DIMS (N_CLASSES + N_NOISE)

static const char *const classes[N_CLASSES][6] = {
  { "car", "automobile", "vehicle", "truck", "engine", "wheels" },
  { "fruit", "banana", "apple", "mango", "cherry", "orchard" },
  { "network", "socket", "packet", "tcp", "connection", "router" },
  { "invoice", "payment", "billing", "receipt", "refund", "ledger" },
};

#define TEST_TYPE_EMBEDDER (test_embedder_get_type ())
G_DECLARE_FINAL_TYPE (TestEmbedder, test_embedder, TEST, EMBEDDER, GObject)

struct _TestEmbedder
{
  GObject  parent_instance;
  char    *model;
  guint    max_tokens;
  guint    n_documents;     /* document texts embedded */
  guint    n_queries;
  guint    n_batches;
  guint    fail_after;      /* fail every batch after this many, 0 for never */
  guint    max_words_seen;  /* the most words (and punctuation marks) in one text */
};

static void test_embedder_iface_init (LodeEmbedderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestEmbedder, test_embedder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_EMBEDDER, test_embedder_iface_init))

static void
test_embedder_finalize (GObject *object)
{
  g_free (TEST_EMBEDDER (object)->model);
  G_OBJECT_CLASS (test_embedder_parent_class)->finalize (object);
}

static void
test_embedder_class_init (TestEmbedderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_embedder_finalize;
}

static void
test_embedder_init (TestEmbedder *self)
{
}

static TestEmbedder *
test_embedder_new (const char *model)
{
  TestEmbedder *self = g_object_new (TEST_TYPE_EMBEDDER, NULL);

  self->model = g_strdup (model);
  self->max_tokens = 512;
  return self;
}

static const char *
test_get_model (LodeEmbedder *embedder)
{
  return TEST_EMBEDDER (embedder)->model;
}

static guint
test_get_dims (LodeEmbedder *embedder)
{
  return TEST_DIMS;
}

static guint
test_get_max_tokens (LodeEmbedder *embedder)
{
  return TEST_EMBEDDER (embedder)->max_tokens;
}

static void
embed_text (TestEmbedder *self,
            const char   *text,
            float        *out)
{
  g_autofree char *lower = g_utf8_strdown (text, -1);
  g_auto(GStrv) words = g_regex_split_simple ("[^a-z0-9]+", lower, 0, 0);
  guint shift = g_str_equal (self->model, "test-b") ? 1 : 0;
  guint n_marks = 0;
  guint n_words = 0;
  double norm = 0.0;

  for (const char *p = text; *p != '\0'; p++)
    n_marks += g_ascii_ispunct (*p);

  /* "test-flat" is a model that cannot tell texts apart: every vector is nearly the same,
   * moved a hair by each 'z' of the text. */
  if (g_str_equal (self->model, "test-flat"))
    {
      for (const char *p = lower; *p != '\0'; p++)
        out[1] += *p == 'z' ? 0.01f : 0.0f;
      out[0] = 1.0f;
    }

  for (guint i = 0; words[i] != NULL && out[0] == 0.0f; i++)
    {
      gboolean known = FALSE;

      if (*words[i] == '\0')
        continue;
      n_words++;
      for (guint c = 0; c < N_CLASSES && !known; c++)
        for (guint w = 0; w < G_N_ELEMENTS (classes[c]) && !known; w++)
          if (g_str_equal (words[i], classes[c][w]))
            {
              out[(c + shift) % N_CLASSES] += 1.0f;
              known = TRUE;
            }
      if (!known)
        out[N_CLASSES + g_str_hash (words[i]) % N_NOISE] += 0.05f;
    }

  self->max_words_seen = MAX (self->max_words_seen, n_words + n_marks);
  for (guint d = 0; d < TEST_DIMS; d++)
    norm += (double) out[d] * out[d];
  if (norm == 0.0)
    {
      out[TEST_DIMS - 1] = 1.0f;
      return;
    }
  for (guint d = 0; d < TEST_DIMS; d++)
    out[d] = (float) (out[d] / sqrt (norm));
}

static void
test_embed_async (LodeEmbedder        *embedder,
                  const char * const  *texts,
                  LodeEmbedPurpose     purpose,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  TestEmbedder *self = TEST_EMBEDDER (embedder);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  guint n = g_strv_length ((GStrv) texts);
  LodeEmbeddings *embeddings;

  if (purpose == LODE_EMBED_DOCUMENT)
    {
      self->n_batches++;
      if (self->fail_after > 0 && self->n_batches > self->fail_after)
        {
          g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_EMBEDDER, "test provider is down");
          return;
        }
      self->n_documents += n;
    }
  else
    self->n_queries += n;

  embeddings = lode_embeddings_new (n, TEST_DIMS);
  for (guint i = 0; i < n; i++)
    embed_text (self, texts[i], embeddings->data + (gsize) i * TEST_DIMS);
  g_task_return_pointer (task, embeddings, (GDestroyNotify) lode_embeddings_free);
}

static LodeEmbeddings *
test_embed_finish (LodeEmbedder  *embedder,
                   GAsyncResult  *result,
                   GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_embedder_iface_init (LodeEmbedderInterface *iface)
{
  iface->get_model = test_get_model;
  iface->get_dims = test_get_dims;
  iface->get_max_tokens = test_get_max_tokens;
  iface->embed_async = test_embed_async;
  iface->embed_finish = test_embed_finish;
}

/* Fixture */

typedef struct
{
  char        *tmp;
  char        *root;
  char        *data_dir;
  LodeConfig  *config;
  LodeEngine  *engine;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->tmp = g_dir_make_tmp ("lode-hybrid-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->root = g_build_filename (fixture->tmp, "tree", NULL);
  fixture->data_dir = g_build_filename (fixture->tmp, "data", NULL);
  g_assert_cmpint (g_mkdir (fixture->root, 0755), ==, 0);
  fixture->config = lode_config_new_default ();
  g_free (fixture->config->data_dir);
  fixture->config->data_dir = g_strdup (fixture->data_dir);
  fixture->engine = lode_engine_new (fixture->config);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->engine);
  g_clear_pointer (&fixture->config, lode_config_free);
  g_free (fixture->root);
  g_free (fixture->data_dir);
  test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
}

static LodeProject *
open_project (Fixture      *fixture,
              TestEmbedder *embedder)
{
  g_autoptr(GError) error = NULL;
  LodeProject *project;

  lode_engine_set_embedder (fixture->engine, LODE_EMBEDDER (embedder));
  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  return project;
}

static LodeIndexReport *
index_project (LodeProject *project)
{
  g_autoptr(GError) error = NULL;
  LodeIndexReport *report = lode_project_index (project, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (report);
  return report;
}

static LodeSearchResponse *
search (LodeProject    *project,
        const char     *query,
        LodeSearchMode  mode,
        guint           limit)
{
  g_autoptr(GError) error = NULL;
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  LodeSearchResponse *response;

  options.query = query;
  options.mode = mode;
  options.limit = limit;
  response = lode_project_search_full (project, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (response);
  return response;
}

static gboolean
has_path (LodeSearchResponse *response,
          const char         *path)
{
  for (guint i = 0; i < response->results->len; i++)
    if (g_str_equal (((LodeSearchResult *) g_ptr_array_index (response->results, i))->path,
                     path))
      return TRUE;

  return FALSE;
}

static guint
count_prefix (LodeSearchResponse *response,
              const char         *prefix)
{
  guint n = 0;

  for (guint i = 0; i < response->results->len; i++)
    n += g_str_has_prefix (((LodeSearchResult *) g_ptr_array_index (response->results, i))->path,
                           prefix);

  return n;
}

static void
assert_status (LodeProject *project,
               const char  *model,
               gboolean     complete)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProjectStatus) status = lode_project_dup_status (project, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (status->embedding_model, ==, model);
  g_assert_cmpuint (status->n_embeddable, ==, status->stats.n_chunks);
  if (complete)
    {
      g_assert_cmpuint (status->n_embedded, ==, status->n_embeddable);
      g_assert_null (status->semantic_notice);
    }
  else
    {
      g_assert_cmpuint (status->n_embedded, <, status->n_embeddable);
      g_assert_nonnull (strstr (status->semantic_notice, "covers"));
    }
}

/* Semantic mode finds text that says the same in other words; lexical mode does not. */
static void
test_semantic_neighbours (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-a");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeSearchResponse) semantic = NULL;
  g_autoptr(LodeSearchResponse) lexical = NULL;
  g_autoptr(LodeSearchResponse) filtered = NULL;
  g_autoptr(GError) error = NULL;
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;

  test_write_file (fixture->root, "garage.py",
              "def service(car):\n    \"\"\"Check the engine and the wheels of the automobile.\"\"\"\n"
              "    return car.engine.ok\n");
  test_write_file (fixture->root, "market.py",
              "def sell(basket):\n    \"\"\"Weigh every banana and mango.\"\"\"\n    return len(basket)\n");
  test_write_file (fixture->root, "net/server.c",
              "int accept_peer (int fd)\n{\n  /* a socket connection for each packet */\n  return fd;\n}\n");

  project = open_project (fixture, embedder);
  report = index_project (project);
  g_assert_cmpstr (report->embedding_model, ==, "test-a");
  g_assert_cmpuint (report->n_embedded, ==, report->n_chunks);
  g_assert_null (report->embedding_notice);
  assert_status (project, "test-a", TRUE);

  semantic = search (project, "vehicle", LODE_SEARCH_MODE_SEMANTIC, 3);
  g_assert_cmpint (semantic->mode, ==, LODE_SEARCH_MODE_SEMANTIC);
  g_assert_cmpuint (semantic->results->len, >, 0);
  g_assert_cmpstr (((LodeSearchResult *) g_ptr_array_index (semantic->results, 0))->path, ==,
                   "garage.py");
  g_assert_cmpfloat (((LodeSearchResult *) g_ptr_array_index (semantic->results, 0))->score, >,
                     0.5);
  g_assert_null (semantic->notice);
  g_assert_cmpstr (semantic->model, ==, "test-a");

  lexical = search (project, "vehicle", LODE_SEARCH_MODE_LEXICAL, 3);
  g_assert_cmpuint (lexical->results->len, ==, 0);

  /* Filters apply to the dense leg. */
  options.query = "router";
  options.mode = LODE_SEARCH_MODE_SEMANTIC;
  options.path_glob = "*.py";
  filtered = lode_project_search_full (project, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (filtered->results->len, >, 0);
  g_assert_false (has_path (filtered, "net/server.c"));
  g_clear_pointer (&filtered, lode_search_response_free);
  options.path_glob = NULL;
  options.language = "c";
  filtered = lode_project_search_full (project, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (filtered->results->len, ==, 1);
  g_assert_true (has_path (filtered, "net/server.c"));
}

#define N_FILLERS 35

/* The legs disagree: the only chunk that says "truck" is about fruit (the dense leg ranks it
 * below the 30 it fetches), and 35 chunks about automobiles never say "truck" (BM25 does not
 * see them). Hybrid shows both kinds. */
static void
test_hybrid_fuses_legs (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-a");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeSearchResponse) hybrid = NULL;
  g_autoptr(LodeSearchResponse) lexical = NULL;
  g_autoptr(LodeSearchResponse) semantic = NULL;
  g_autoptr(GString) fruit = g_string_new ("# the truck delivers\n");

  for (guint i = 0; i < N_FILLERS; i++)
    {
      g_autofree char *path = g_strdup_printf ("cars/model_%02u.txt", i);
      g_autofree char *text = g_strdup_printf ("automobile number %u: engine, wheels, vehicle\n", i);

      test_write_file (fixture->root, path, text);
    }
  for (guint i = 0; i < 10; i++)
    g_string_append (fruit, "banana mango apple cherry fruit orchard\n");
  test_write_file (fixture->root, "market/delivery.txt", fruit->str);

  project = open_project (fixture, embedder);
  report = index_project (project);
  g_assert_cmpuint (report->n_embedded, ==, N_FILLERS + 1);

  lexical = search (project, "truck", LODE_SEARCH_MODE_LEXICAL, 5);
  g_assert_cmpuint (lexical->results->len, ==, 1);
  g_assert_true (has_path (lexical, "market/delivery.txt"));

  semantic = search (project, "truck", LODE_SEARCH_MODE_SEMANTIC, 5);
  g_assert_cmpuint (semantic->results->len, ==, 5);
  g_assert_cmpuint (count_prefix (semantic, "cars/"), ==, 5);

  hybrid = search (project, "truck", LODE_SEARCH_MODE_HYBRID, 5);
  g_assert_cmpint (hybrid->mode, ==, LODE_SEARCH_MODE_HYBRID);
  g_assert_cmpuint (hybrid->results->len, ==, 5);
  g_assert_true (has_path (hybrid, "market/delivery.txt"));
  g_assert_cmpuint (count_prefix (hybrid, "cars/"), ==, 4);
}

static LodeSearchResponse *
search_min_score (LodeProject    *project,
                  const char     *query,
                  LodeSearchMode  mode,
                  double          min_score)
{
  g_autoptr(GError) error = NULL;
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  LodeSearchResponse *response;

  options.query = query;
  options.mode = mode;
  options.limit = 20;
  options.min_score = min_score;
  response = lode_project_search_full (project, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (response->mode, ==, mode);
  return response;
}

/* Scores lie on one 0–1 scale in every mode, so that minScore means the same in each:
 * SocratiCode's documented minScore of 0.1 keeps the good results of a query in words, of
 * an identifier and of a path, lexical, semantic or hybrid, and only drops the weak ones. */
static void
test_min_score (Fixture       *fixture,
                gconstpointer  data)
{
  static const char *const queries[] = {
    "automobile engine wheels", "service_car", "garage/service.py",
  };
  static const LodeSearchMode modes[] = {
    LODE_SEARCH_MODE_LEXICAL, LODE_SEARCH_MODE_SEMANTIC, LODE_SEARCH_MODE_HYBRID,
  };
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-a");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;

  test_write_file (fixture->root, "garage/service.py",
              "def service_car(car):\n    \"\"\"Check the engine and the wheels of the "
              "automobile.\"\"\"\n    return car.engine.ok\n");
  test_write_file (fixture->root, "garage/paint.py",
              "def paint(car, colour):\n    \"\"\"Paint the automobile.\"\"\"\n"
              "    return service_car(car)\n");
  test_write_file (fixture->root, "market.py",
              "def sell(basket):\n    \"\"\"Weigh every banana and mango.\"\"\"\n"
              "    return len(basket)\n");
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *path = g_strdup_printf ("notes/note_%02u.txt", i);

      test_write_file (fixture->root, path, "an orchard of cherry trees, a note about wheels\n");
    }

  project = open_project (fixture, embedder);
  report = index_project (project);

  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
      {
        g_autoptr(LodeSearchResponse) all = NULL;
        g_autoptr(LodeSearchResponse) kept = NULL;
        guint n_above = 0;

        /* The test embedder knows words, not paths. */
        if (modes[m] == LODE_SEARCH_MODE_SEMANTIC && strchr (queries[q], '/') != NULL)
          continue;

        all = search_min_score (project, queries[q], modes[m], 0.0);
        kept = search_min_score (project, queries[q], modes[m], 0.1);
        g_test_message ("%s “%s”: %u results, %u with minScore 0.1",
                        lode_search_mode_to_string (modes[m]), queries[q], all->results->len,
                        kept->results->len);
        g_assert_cmpuint (all->results->len, >, 0);

        for (guint i = 0; i < all->results->len; i++)
          {
            LodeSearchResult *r = g_ptr_array_index (all->results, i);

            g_test_message ("  %s:%u %.3f", r->path, r->start_line, r->score);
            g_assert_cmpfloat (r->score, >=, 0.0);
            g_assert_cmpfloat (r->score, <=, 1.0);
            n_above += r->score >= 0.1;
          }

        /* The best result is a good one in every mode, and minScore keeps exactly the
         * results at or above it, in the same order. */
        g_assert_cmpfloat (((LodeSearchResult *) g_ptr_array_index (all->results, 0))->score,
                           >=, 0.1);
        g_assert_cmpuint (kept->results->len, ==, n_above);
        for (guint i = 0; i < kept->results->len; i++)
          {
            LodeSearchResult *a = g_ptr_array_index (all->results, i);
            LodeSearchResult *k = g_ptr_array_index (kept->results, i);

            g_assert_cmpstr (a->path, ==, k->path);
            g_assert_cmpuint (a->start_line, ==, k->start_line);
            g_assert_cmpfloat (k->score, >=, 0.1);
          }
      }
}

/* A dense leg that cannot tell chunks apart does not reorder a clear lexical ranking. With
 * the legs weighed alike, the chunk the flat model happens to put first (it has no 'z')
 * would pass the chunk that holds both query words. */
static void
test_weak_dense_leg (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-flat");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeSearchResponse) lexical = NULL;
  g_autoptr(LodeSearchResponse) hybrid = NULL;

  test_write_file (fixture->root, "both.txt", "apple banana pizza zzzz\n");
  test_write_file (fixture->root, "one.txt", "apple\n");
  for (guint i = 0; i < N_FILLERS; i++)
    {
      g_autofree char *path = g_strdup_printf ("fill/fill_%02u.txt", i);

      test_write_file (fixture->root, path, "a quiz about nothing\n");
    }

  project = open_project (fixture, embedder);
  report = index_project (project);

  lexical = search (project, "apple banana", LODE_SEARCH_MODE_LEXICAL, 5);
  g_assert_cmpstr (((LodeSearchResult *) g_ptr_array_index (lexical->results, 0))->path, ==,
                   "both.txt");
  hybrid = search (project, "apple banana", LODE_SEARCH_MODE_HYBRID, 5);
  g_assert_cmpint (hybrid->mode, ==, LODE_SEARCH_MODE_HYBRID);
  g_assert_cmpstr (((LodeSearchResult *) g_ptr_array_index (hybrid->results, 0))->path, ==,
                   "both.txt");
  g_assert_cmpstr (((LodeSearchResult *) g_ptr_array_index (hybrid->results, 1))->path, ==,
                   "one.txt");
}

/* A text is embedded once: not again when unchanged, moved or duplicated; a changed chunk
 * is the only one embedded again. */
static void
test_incremental (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-a");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) again = NULL;
  g_autoptr(LodeIndexReport) changed = NULL;
  g_autoptr(LodeIndexReport) moved = NULL;
  g_autofree char *old_path = g_build_filename (fixture->root, "b.py", NULL);
  g_autofree char *lib_dir = g_build_filename (fixture->root, "lib", NULL);
  g_autofree char *new_path = g_build_filename (lib_dir, "b.py", NULL);
  guint n;

  test_write_file (fixture->root, "a.py", "def pay(invoice):\n    return invoice.total\n\n\n"
                                     "def refund(receipt):\n    return -receipt.total\n");
  test_write_file (fixture->root, "b.py", "def route(packet):\n    return packet.dest\n");
  project = open_project (fixture, embedder);
  first = index_project (project);
  g_assert_cmpuint (embedder->n_documents, ==, first->n_chunks);
  g_assert_cmpuint (first->n_embedded, ==, first->n_chunks);

  n = embedder->n_documents;
  again = index_project (project);
  g_assert_cmpuint (embedder->n_documents, ==, n);
  g_assert_cmpuint (again->n_embedded, ==, 0);

  /* One function changes: one text to embed. */
  test_write_file (fixture->root, "a.py", "def pay(invoice):\n    return invoice.total\n\n\n"
                                     "def refund(receipt):\n    return -receipt.total * 2\n");
  changed = index_project (project);
  g_assert_cmpuint (changed->n_updated, ==, 1);
  g_assert_cmpuint (embedder->n_documents, ==, n + 1);
  n = embedder->n_documents;

  /* Moved, and copied: nothing to embed, everything covered. */
  g_assert_cmpint (g_mkdir (lib_dir, 0755), ==, 0);
  g_assert_cmpint (g_rename (old_path, new_path), ==, 0);
  test_write_file (fixture->root, "copy.py", "def route(packet):\n    return packet.dest\n");
  moved = index_project (project);
  g_assert_cmpuint (moved->n_added, ==, 2);
  g_assert_cmpuint (embedder->n_documents, ==, n);
  g_assert_cmpuint (moved->n_embedded, ==, 0);
  assert_status (project, "test-a", TRUE);
}

/* A model change embeds everything again and never mixes the spaces. */
static void
test_switch_model (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(TestEmbedder) a = test_embedder_new ("test-a");
  g_autoptr(TestEmbedder) b = test_embedder_new ("test-b");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeProject) project_b = NULL;
  g_autoptr(LodeIndexReport) report_a = NULL;
  g_autoptr(LodeIndexReport) report_b = NULL;
  g_autoptr(LodeSearchResponse) before = NULL;
  g_autoptr(LodeSearchResponse) stale = NULL;
  g_autoptr(LodeSearchResponse) after = NULL;

  test_write_file (fixture->root, "garage.txt", "the automobile engine\n");
  test_write_file (fixture->root, "market.txt", "banana and mango\n");
  project = open_project (fixture, a);
  report_a = index_project (project);
  g_assert_cmpuint (a->n_documents, ==, 2);
  before = search (project, "car", LODE_SEARCH_MODE_SEMANTIC, 1);
  g_assert_true (has_path (before, "garage.txt"));

  /* Model b's index is empty until it is embedded: nothing of model a is used. */
  project_b = open_project (fixture, b);
  stale = search (project_b, "car", LODE_SEARCH_MODE_SEMANTIC, 1);
  g_assert_cmpuint (stale->results->len, ==, 0);
  g_assert_cmpuint (stale->n_embedded, ==, 0);
  g_assert_nonnull (strstr (stale->notice, "covers 0 of 2"));
  /* Front ends add their own instructions; liblode names no command. */
  g_assert_null (strstr (stale->notice, "lode "));
  assert_status (project_b, "test-b", FALSE);

  report_b = index_project (project_b);
  g_assert_cmpuint (b->n_documents, ==, 2);
  g_assert_cmpuint (report_b->n_embedded, ==, 2);
  assert_status (project_b, "test-b", TRUE);
  after = search (project_b, "car", LODE_SEARCH_MODE_SEMANTIC, 1);
  g_assert_true (has_path (after, "garage.txt"));
  g_assert_cmpstr (after->model, ==, "test-b");

  /* Only one model's vectors are kept: a is embedded again when it comes back. The engine
   * keeps one project object per tree, so this is the same project with provider a again. */
  g_clear_pointer (&report_a, lode_index_report_free);
  g_clear_object (&project);
  project = open_project (fixture, a);
  report_a = index_project (project);
  g_assert_cmpuint (a->n_documents, ==, 4);
}

/* A failing provider leaves the lexical index complete, says so, and the next run embeds
 * only what is missing. */
static void
test_provider_failure (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(TestEmbedder) failing = test_embedder_new ("test-a");
  g_autoptr(TestEmbedder) working = test_embedder_new ("test-a");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeIndexReport) resumed = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(LodeSearchResponse) lexical = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 100; i++)
    {
      g_autofree char *path = g_strdup_printf ("f%03u.txt", i);
      g_autofree char *text = g_strdup_printf ("ledger entry %u\n", i);

      test_write_file (fixture->root, path, text);
    }

  failing->fail_after = 1;
  project = open_project (fixture, failing);
  g_test_expect_message ("lode-project", G_LOG_LEVEL_WARNING, "*test provider is down*");
  report = index_project (project);
  g_test_assert_expected_messages ();
  g_assert_cmpuint (report->n_files, ==, 100);
  g_assert_cmpuint (report->n_embedded, >, 0);
  g_assert_cmpuint (report->n_embedded, <, 100);
  g_assert_nonnull (strstr (report->embedding_notice, "test provider is down"));
  assert_status (project, "test-a", FALSE);

  lexical = search (project, "ledger entry 42", LODE_SEARCH_MODE_LEXICAL, 1);
  g_assert_true (has_path (lexical, "f042.txt"));

  status = lode_project_dup_status (project, &error);
  g_assert_no_error (error);
  g_clear_object (&project);
  project = open_project (fixture, working);
  resumed = index_project (project);
  g_assert_cmpuint (working->n_documents, ==, 100 - status->n_embedded);
  g_assert_cmpuint (resumed->n_embedded, ==, 100 - status->n_embedded);
  assert_status (project, "test-a", TRUE);
}

/* Without an embedding model (the default configuration on a machine where nothing was
 * pulled) search runs BM25 alone and says so everywhere. */
static void
test_no_model (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeSearchResponse) hybrid = NULL;
  g_autoptr(LodeSearchResponse) semantic = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;

  g_assert_cmpstr (fixture->config->embedding_provider, ==, "builtin");
  test_write_file (fixture->root, "main.c", "int main (void) { return parse_args (); }\n");
  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  g_assert_null (lode_project_get_embedder (project));

  report = index_project (project);
  g_assert_cmpuint (report->n_embedded, ==, 0);
  g_assert_null (report->embedding_model);
  g_assert_nonnull (strstr (report->embedding_notice, "lode model pull"));

  hybrid = search (project, "parse_args", LODE_SEARCH_MODE_HYBRID, 5);
  g_assert_cmpint (hybrid->requested_mode, ==, LODE_SEARCH_MODE_HYBRID);
  g_assert_cmpint (hybrid->mode, ==, LODE_SEARCH_MODE_LEXICAL);
  g_assert_true (has_path (hybrid, "main.c"));
  g_assert_cmpstr (hybrid->notice, ==,
                   "semantic search unavailable: no embedding model (run `lode model pull`)");

  options.query = "parse_args";
  options.mode = LODE_SEARCH_MODE_SEMANTIC;
  semantic = lode_project_search_full (project, &options, NULL, &error);
  g_assert_null (semantic);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "lode model pull"));
  g_clear_error (&error);

  status = lode_project_dup_status (project, &error);
  g_assert_no_error (error);
  g_assert_null (status->embedding_model);
  g_assert_cmpuint (status->n_embedded, ==, 0);
  g_assert_cmpstr (status->semantic_notice, ==,
                   "semantic search unavailable: no embedding model (run `lode model pull`)");
}

/* A long-lived engine (the daemon's) without a model picks one up once it is installed,
 * without a restart. */
static void
test_model_appears (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autofree char *unavailable = NULL;
  g_autofree char *model_dir = g_build_filename (fixture->root, "model", NULL);
  const char *files[] = { "config.json", "tokenizer.json", "model.safetensors" };
  gint64 deadline;

  g_free (fixture->config->embedding_model);
  fixture->config->embedding_model = g_strdup (model_dir);
  engine = lode_engine_new (fixture->config);
  embedder = lode_engine_dup_embedder (engine, &unavailable);
  g_assert_null (embedder);
  g_assert_nonnull (unavailable);

  g_assert_cmpint (g_mkdir_with_parents (model_dir, 0755), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *from = g_build_filename (test_tiny_bert_dir (), files[i], NULL);
      g_autofree char *to = g_build_filename (model_dir, files[i], NULL);
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (g_file_get_contents (from, &contents, &length, NULL));
      g_assert_true (g_file_set_contents (to, contents, length, NULL));
    }

  /* The engine looks again every few seconds; a minute is a generous bound. */
  deadline = g_get_monotonic_time () + (gint64) test_timeout_seconds (60) * G_USEC_PER_SEC;
  while (embedder == NULL && g_get_monotonic_time () < deadline)
    {
      g_clear_pointer (&unavailable, g_free);
      g_usleep (G_USEC_PER_SEC / 10);
      embedder = lode_engine_dup_embedder (engine, &unavailable);
    }
  g_assert_nonnull (embedder);
  g_assert_cmpstr (lode_embedder_get_model (embedder), ==, "model");
  g_assert_null (unavailable);
}

/* Chunks longer than the model's limit are split, never cut: every text the provider sees
 * fits, and the chunk still gets one vector. */
static void
test_long_chunk (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-a");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeSearchResponse) semantic = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < 60; i++)
    g_string_append_printf (text, "line %u of the orchard report: apple, cherry; mango.\n", i);
  test_write_file (fixture->root, "report.txt", text->str);

  embedder->max_tokens = 32;
  project = open_project (fixture, embedder);
  report = index_project (project);
  g_assert_cmpuint (report->n_embedded, ==, report->n_chunks);
  g_assert_cmpuint (embedder->n_documents, >, report->n_chunks);
  g_assert_cmpuint (embedder->max_words_seen, <=, 32 - 2);

  semantic = search (project, "fruit", LODE_SEARCH_MODE_SEMANTIC, 1);
  g_assert_true (has_path (semantic, "report.txt"));
}

static void
test_split (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) joined = g_string_new (NULL);
  g_autoptr(GPtrArray) parts = NULL;
  g_autoptr(GPtrArray) one = NULL;
  g_autoptr(GPtrArray) word = NULL;
  g_autofree char *long_word = g_strnfill (5000, 'x');

  for (guint i = 0; i < 400; i++)
    g_string_append_printf (text, "int value_%u = compute (%u, \"%s\");\n", i, i,
                            i % 7 == 0 ? "日本語のテキスト" : "text");
  parts = lode_embed_split (text->str, 128, lode_embed_estimate_tokens);
  g_assert_cmpuint (parts->len, >, 10);
  for (guint i = 0; i < parts->len; i++)
    {
      g_assert_cmpuint (lode_embed_estimate_tokens (g_ptr_array_index (parts, i), -1), <=,
                        128 - 128 / 8 - 2);
      g_assert_true (g_utf8_validate (g_ptr_array_index (parts, i), -1, NULL));
      g_string_append (joined, g_ptr_array_index (parts, i));
    }
  /* Nothing cut off or repeated. */
  g_assert_cmpstr (joined->str, ==, text->str);

  one = lode_embed_split ("short text", 512, lode_embed_estimate_tokens);
  g_assert_cmpuint (one->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (one, 0), ==, "short text");

  /* A single word longer than the limit is cut between characters. */
  word = lode_embed_split (long_word, 64, lode_embed_estimate_tokens);
  g_assert_cmpuint (word->len, >, 1);
  for (guint i = 0; i < word->len; i++)
    g_assert_cmpuint (lode_embed_estimate_tokens (g_ptr_array_index (word, i), -1), <=,
                      64 - 64 / 8 - 2);

  g_assert_cmpuint (lode_embed_estimate_tokens ("", -1), ==, 0);
  g_assert_cmpuint (lode_embed_estimate_tokens ("a.b(c)", -1), ==, 6);
  g_assert_cmpuint (lode_embed_estimate_tokens ("hello world", -1), >=, 2);
}

/* A search sees what a later index run changed: the matrix follows the index. */
static void
test_sync (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-a");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) second = NULL;
  g_autoptr(LodeSearchResponse) before = NULL;
  g_autoptr(LodeSearchResponse) after = NULL;
  g_autoptr(LodeSearchResponse) bills = NULL;
  g_autofree char *garage = g_build_filename (fixture->root, "garage.txt", NULL);

  test_write_file (fixture->root, "garage.txt", "automobile engine\n");
  test_write_file (fixture->root, "market.txt", "banana mango\n");
  project = open_project (fixture, embedder);
  first = index_project (project);
  before = search (project, "truck", LODE_SEARCH_MODE_SEMANTIC, 1);
  g_assert_true (has_path (before, "garage.txt"));

  g_assert_cmpint (g_unlink (garage), ==, 0);
  test_write_file (fixture->root, "billing.txt", "invoice and refund\n");
  second = index_project (project);
  after = search (project, "truck", LODE_SEARCH_MODE_SEMANTIC, 5);
  g_assert_false (has_path (after, "garage.txt"));
  g_assert_cmpuint (after->n_embedded, ==, 2);
  bills = search (project, "payment", LODE_SEARCH_MODE_SEMANTIC, 1);
  g_assert_true (has_path (bills, "billing.txt"));
}

/* The real path: settings name the built-in encoder over a model folder (the tiny random
 * BERT fixture); chunks are embedded by it, a query that repeats a chunk finds that chunk,
 * hybrid fuses both legs, and a later switch to another model embeds everything again. */
static void
test_tiny_bert (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeEmbedder) bert = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeProject) other = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeIndexReport) switched = NULL;
  g_autoptr(LodeSearchResponse) semantic = NULL;
  g_autoptr(LodeSearchResponse) hybrid = NULL;
  g_autoptr(TestEmbedder) test = test_embedder_new ("test-a");
  const char *ring = "int\nring_push (struct ring *r, int value)\n{\n  r->data[r->head++] = value;\n"
                     "  return 0;\n}\n";
  const LodeSearchResult *top;

  test_write_file (fixture->root, "ring.c", ring);
  test_write_file (fixture->root, "report.py",
              "def render(rows):\n    \"\"\"Render the rows as a table.\"\"\"\n"
              "    return '\\n'.join(str(r) for r in rows)\n");
  test_write_file (fixture->root, "notes.md", "# Notes\n\nThe queue drops the oldest entry when full.\n");

  g_free (fixture->config->embedding_model);
  fixture->config->embedding_model = g_test_build_filename (G_TEST_BUILT, "liblode", "fixtures",
                                                            "tiny-bert-random", NULL);
  bert = lode_embedder_new_for_config (fixture->config, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lode_embedder_get_model (bert), ==, "tiny-bert-random");

  engine = lode_engine_new (fixture->config);
  project = lode_engine_open_project (engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (lode_project_get_embedder (project));
  report = index_project (project);
  g_assert_cmpstr (report->embedding_model, ==, "tiny-bert-random");
  g_assert_cmpuint (report->n_embedded, ==, report->n_chunks);
  assert_status (project, "tiny-bert-random", TRUE);

  semantic = search (project, ring, LODE_SEARCH_MODE_SEMANTIC, 3);
  g_assert_cmpint (semantic->mode, ==, LODE_SEARCH_MODE_SEMANTIC);
  g_assert_cmpuint (semantic->results->len, ==, 3);
  top = g_ptr_array_index (semantic->results, 0);
  g_assert_cmpstr (top->path, ==, "ring.c");
  g_assert_cmpfloat_with_epsilon (top->score, 1.0, 1e-3);

  hybrid = search (project, "ring_push", LODE_SEARCH_MODE_HYBRID, 3);
  g_assert_cmpint (hybrid->mode, ==, LODE_SEARCH_MODE_HYBRID);
  g_assert_cmpstr (hybrid->model, ==, "tiny-bert-random");
  g_assert_cmpuint (hybrid->results->len, ==, 3);
  g_assert_cmpstr (((LodeSearchResult *) g_ptr_array_index (hybrid->results, 0))->path, ==,
                   "ring.c");
  g_assert_null (hybrid->notice);

  other = open_project (fixture, test);
  switched = index_project (other);
  g_assert_cmpuint (test->n_documents, ==, report->n_chunks);
  assert_status (other, "test-a", TRUE);
}

#define KILL_TREE_FILES 400

static void
make_kill_tree (const char *root)
{
  for (guint i = 0; i < KILL_TREE_FILES; i++)
    {
      g_autofree char *path = g_strdup_printf ("pkg%02u/mod_%03u.py", i % 10, i);
      g_autofree char *text = g_strdup_printf ("def handler_%u(payment):\n"
                                               "    return payment.amount * %u\n", i, i);

      test_write_file (root, path, text);
    }
}

static void
child_progress_cb (const LodeIndexProgress *progress,
                   gpointer                 user_data)
{
  /* A real SIGKILL in the middle of the embedding pass, after some batches committed. */
  if (progress->phase == LODE_INDEX_PHASE_EMBEDDING && progress->done >= KILL_TREE_FILES / 3)
    kill (getpid (), SIGKILL);
}

static int
run_child (const char *root,
           const char *data_dir)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-a");
  g_autoptr(GError) error = NULL;

  g_free (config->data_dir);
  config->data_dir = g_strdup (data_dir);
  engine = lode_engine_new (config);
  lode_engine_set_embedder (engine, LODE_EMBEDDER (embedder));
  project = lode_engine_open_project (engine, root, FALSE, &error);
  if (project != NULL)
    report = lode_project_index (project, NULL, child_progress_cb, NULL, &error);
  if (report == NULL)
    g_printerr ("%s\n", error->message);

  return 1;
}

static void
test_kill_resume (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-a");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(LodeIndexReport) report = NULL;

  make_kill_tree (fixture->root);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_setenv (launcher, "LODE_TEST_CHILD_ROOT", fixture->root, TRUE);
  g_subprocess_launcher_setenv (launcher, "LODE_TEST_CHILD_DATA", fixture->data_dir, TRUE);
  child = g_subprocess_launcher_spawn (launcher, &error, self_path, NULL);
  g_assert_no_error (error);
  g_subprocess_wait (child, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (child));
  g_assert_cmpint (g_subprocess_get_term_sig (child), ==, SIGKILL);

  /* The lexical pass was complete; the embedding pass got part of the way. */
  project = open_project (fixture, embedder);
  status = lode_project_dup_status (project, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status->state, ==, LODE_INDEX_STATE_READY);
  g_assert_cmpuint (status->stats.n_files, ==, KILL_TREE_FILES);
  g_assert_cmpuint (status->n_embedded, >=, KILL_TREE_FILES / 3);
  g_assert_cmpuint (status->n_embedded, <, status->n_embeddable);

  /* The next run embeds exactly what is missing (every text here is distinct). */
  report = index_project (project);
  g_assert_cmpuint (report->n_unchanged, ==, KILL_TREE_FILES);
  g_assert_cmpuint (report->n_embedded, ==, status->n_embeddable - status->n_embedded);
  g_assert_cmpuint (embedder->n_documents, ==, status->n_embeddable - status->n_embedded);
  assert_status (project, "test-a", TRUE);
}

static void
cancel_progress_cb (const LodeIndexProgress *progress,
                    gpointer                 user_data)
{
  if (progress->phase == LODE_INDEX_PHASE_EMBEDDING && progress->done >= KILL_TREE_FILES / 3)
    g_cancellable_cancel (user_data);
}

/* Cancelling the embedding pass fails the run with G_IO_ERROR_CANCELLED, keeps the lexical
 * index and the batches embedded so far; the next run embeds the rest. */
static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TestEmbedder) embedder = test_embedder_new ("test-a");
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) cancelled = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) error = NULL;
  guint before;

  make_kill_tree (fixture->root);
  project = open_project (fixture, embedder);
  cancelled = lode_project_index (project, cancellable, cancel_progress_cb, cancellable, &error);
  g_assert_null (cancelled);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  status = lode_project_dup_status (project, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status->state, ==, LODE_INDEX_STATE_READY);
  g_assert_cmpuint (status->n_embedded, >=, KILL_TREE_FILES / 3);
  g_assert_cmpuint (status->n_embedded, <, status->n_embeddable);
  g_assert_cmpuint (embedder->n_documents, <, status->n_embeddable);

  before = embedder->n_documents;
  report = index_project (project);
  g_assert_cmpuint (report->n_embedded, ==, status->n_embeddable - status->n_embedded);
  g_assert_cmpuint (embedder->n_documents - before, ==, status->n_embeddable - status->n_embedded);
  assert_status (project, "test-a", TRUE);
}

int
main (int   argc,
      char *argv[])
{
  const char *child_root = g_getenv ("LODE_TEST_CHILD_ROOT");

  self_path = argv[0];
  if (child_root != NULL)
    return run_child (child_root, g_getenv ("LODE_TEST_CHILD_DATA"));

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/hybrid/split", test_split);
#define ADD(path, func) \
  g_test_add ("/lode/hybrid/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("semantic-neighbours", test_semantic_neighbours);
  ADD ("fuses-legs", test_hybrid_fuses_legs);
  ADD ("min-score", test_min_score);
  ADD ("weak-dense-leg", test_weak_dense_leg);
  ADD ("incremental", test_incremental);
  ADD ("switch-model", test_switch_model);
  ADD ("provider-failure", test_provider_failure);
  ADD ("no-model", test_no_model);
  ADD ("model-appears", test_model_appears);
  ADD ("long-chunk", test_long_chunk);
  ADD ("sync", test_sync);
  ADD ("kill-resume", test_kill_resume);
  ADD ("cancel", test_cancel);
  ADD ("tiny-bert", test_tiny_bert);
#undef ADD

  return g_test_run ();
}
