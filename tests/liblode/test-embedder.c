/* test-embedder.c — the LodeEmbedder interface and its sync wrapper, with a fake provider
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "lode.h"

#define FAKE_TYPE_EMBEDDER (fake_embedder_get_type ())
G_DECLARE_FINAL_TYPE (FakeEmbedder, fake_embedder, FAKE, EMBEDDER, GObject)

struct _FakeEmbedder
{
  GObject       parent_instance;
  GMainContext *last_context;
};

static void fake_embedder_iface_init (LodeEmbedderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (FakeEmbedder, fake_embedder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_EMBEDDER, fake_embedder_iface_init))

static void
fake_embedder_class_init (FakeEmbedderClass *klass)
{
}

static void
fake_embedder_init (FakeEmbedder *self)
{
}

static const char *
fake_get_model (LodeEmbedder *embedder)
{
  return "fake";
}

static guint
fake_get_dims (LodeEmbedder *embedder)
{
  return 3;
}

static guint
fake_get_max_tokens (LodeEmbedder *embedder)
{
  return 7;
}

/* Answers from an idle on the caller's context, as a network provider would. */
static gboolean
fake_answer_cb (gpointer user_data)
{
  GTask *task = user_data;
  GStrv texts = g_task_get_task_data (task);
  guint n = g_strv_length (texts);
  LodeEmbeddings *embeddings;

  if (n > 0 && g_str_equal (texts[0], "fail"))
    {
      g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_EMBEDDER, "fake failure");
      return G_SOURCE_REMOVE;
    }

  embeddings = lode_embeddings_new (n, 3);
  for (guint i = 0; i < n; i++)
    embeddings->data[i * 3 + (strlen (texts[i]) % 3)] = 1.0f;
  g_task_return_pointer (task, embeddings, (GDestroyNotify) lode_embeddings_free);
  return G_SOURCE_REMOVE;
}

static void
fake_embed_async (LodeEmbedder        *embedder,
                  const char * const  *texts,
                  LodeEmbedPurpose     purpose,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  FakeEmbedder *self = FAKE_EMBEDDER (embedder);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  GSource *source = g_idle_source_new ();

  self->last_context = g_main_context_get_thread_default ();
  g_task_set_task_data (task, g_strdupv ((GStrv) texts), (GDestroyNotify) g_strfreev);
  g_source_set_callback (source, fake_answer_cb, task, g_object_unref);
  g_source_attach (source, g_task_get_context (task));
  g_source_unref (source);
}

static LodeEmbeddings *
fake_embed_finish (LodeEmbedder  *embedder,
                   GAsyncResult  *result,
                   GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
fake_embedder_iface_init (LodeEmbedderInterface *iface)
{
  iface->get_model = fake_get_model;
  iface->get_dims = fake_get_dims;
  iface->get_max_tokens = fake_get_max_tokens;
  iface->embed_async = fake_embed_async;
  iface->embed_finish = fake_embed_finish;
}

static void
test_wrappers (void)
{
  g_autoptr(LodeEmbedder) embedder = g_object_new (FAKE_TYPE_EMBEDDER, NULL);
  g_autoptr(LodeEmbeddings) empty = lode_embeddings_new (0, 3);

  g_assert_cmpstr (lode_embedder_get_model (embedder), ==, "fake");
  g_assert_cmpuint (lode_embedder_get_dims (embedder), ==, 3);
  g_assert_cmpuint (lode_embedder_get_max_tokens (embedder), ==, 7);
  g_assert_cmpuint (empty->n_vectors, ==, 0);
}

static void
test_sync (void)
{
  g_autoptr(LodeEmbedder) embedder = g_object_new (FAKE_TYPE_EMBEDDER, NULL);
  const char *texts[] = { "abc", "ab", "a", NULL };
  const char *failing[] = { "fail", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(LodeEmbeddings) none = NULL;
  g_autoptr(GError) error = NULL;

  embeddings = lode_embedder_embed_sync (embedder, texts, LODE_EMBED_DOCUMENT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 3);
  g_assert_cmpfloat (embeddings->data[0 * 3 + 0], ==, 1.0f);
  g_assert_cmpfloat (embeddings->data[1 * 3 + 2], ==, 1.0f);
  g_assert_cmpfloat (embeddings->data[2 * 3 + 1], ==, 1.0f);

  /* The provider ran on a private context, not on the default one. */
  g_assert_nonnull (FAKE_EMBEDDER (embedder)->last_context);
  g_assert_true (FAKE_EMBEDDER (embedder)->last_context != g_main_context_default ());
  g_assert_true (g_main_context_get_thread_default () == NULL);

  none = lode_embedder_embed_sync (embedder, failing, LODE_EMBED_QUERY, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
}

static gpointer
embed_thread_func (gpointer data)
{
  const char *texts[] = { "one", "two", NULL };

  return lode_embedder_embed_sync (data, texts, LODE_EMBED_DOCUMENT, NULL, NULL);
}

static void
test_sync_on_threads (void)
{
  g_autoptr(LodeEmbedder) embedder = g_object_new (FAKE_TYPE_EMBEDDER, NULL);
  GThread *threads[4];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("embed", embed_thread_func, embedder);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autoptr(LodeEmbeddings) embeddings = g_thread_join (threads[i]);

      g_assert_nonnull (embeddings);
      g_assert_cmpuint (embeddings->n_vectors, ==, 2);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/embedder/wrappers", test_wrappers);
  g_test_add_func ("/lode/embedder/sync", test_sync);
  g_test_add_func ("/lode/embedder/sync-on-threads", test_sync_on_threads);

  return g_test_run ();
}
