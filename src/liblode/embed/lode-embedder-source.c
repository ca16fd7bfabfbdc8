/* lode-embedder-source.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-embedder-source"

#include "config.h"

#include "lode-embedder-config.h"
#include "lode-embedder-source.h"
#include "lode-error.h"

/*
 * The first look-up makes the provider the settings name (lode_embedder_new_for_config():
 * the built-in model, or a remote server that must answer a short check) and every caller
 * waits for it. When that fails it is tried again later: the built-in provider at most every
 * 2 s, by the caller that finds it due (a model that `lode model pull` installs meanwhile is
 * picked up at once); a remote one after 10 s, then after twice as long each time it fails
 * again, up to 5 min, on a thread of its own, so that no caller waits for a server that is
 * down. Callers meanwhile get the reason of the last failure. The lock is never held while a
 * provider is made.
 */

#define BUILTIN_RETRY_MSEC     2000
#define REMOTE_RETRY_MIN_MSEC  (10 * 1000)
#define REMOTE_RETRY_MAX_MSEC  (5 * 60 * 1000)

struct _LodeEmbedderSource
{
  GObject       parent_instance;

  LodeConfig   *config;

  GMutex        lock;
  GCond         cond;          /* broadcast when a look-up ends */
  LodeEmbedder *embedder;
  char         *notice;        /* why there is no embedder */
  gint64        retry_at;      /* monotonic µs; 0: not again */
  guint         interval;      /* ms until the next look-up after a failure */
  guint         min_interval;
  guint         max_interval;
  guint         generation;    /* bumped by set_embedder(): a look-up in flight is void */
  guint         ready : 1;
  guint         looking : 1;
};

G_DEFINE_FINAL_TYPE (LodeEmbedderSource, lode_embedder_source, G_TYPE_OBJECT)

static void
lode_embedder_source_finalize (GObject *object)
{
  LodeEmbedderSource *self = (LodeEmbedderSource *)object;

  g_clear_pointer (&self->config, lode_config_free);
  g_clear_object (&self->embedder);
  g_free (self->notice);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (lode_embedder_source_parent_class)->finalize (object);
}

static void
lode_embedder_source_class_init (LodeEmbedderSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lode_embedder_source_finalize;
}

static void
lode_embedder_source_init (LodeEmbedderSource *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
}

static gboolean
is_builtin (const LodeConfig *config)
{
  return config->embedding_provider == NULL || g_str_equal (config->embedding_provider, "builtin");
}

/**
 * lode_embedder_source_new:
 * @config: settings: `embedding-provider` and `embedding-model`
 *
 * Returns: (transfer full): a source that makes the provider on first use
 */
LodeEmbedderSource *
lode_embedder_source_new (const LodeConfig *config)
{
  LodeEmbedderSource *self;

  g_return_val_if_fail (config != NULL, NULL);

  self = g_object_new (LODE_TYPE_EMBEDDER_SOURCE, NULL);
  self->config = lode_config_copy (config);
  if (is_builtin (config))
    self->min_interval = self->max_interval = BUILTIN_RETRY_MSEC;
  else
    {
      self->min_interval = REMOTE_RETRY_MIN_MSEC;
      self->max_interval = REMOTE_RETRY_MAX_MSEC;
    }
  self->interval = self->min_interval;

  return self;
}

/**
 * lode_embedder_source_set_retry_interval:
 * @self: a #LodeEmbedderSource
 * @min_msec: the pause after the first failure
 * @max_msec: the longest pause; each failure doubles it up to this
 */
void
lode_embedder_source_set_retry_interval (LodeEmbedderSource *self,
                                         guint               min_msec,
                                         guint               max_msec)
{
  g_return_if_fail (LODE_IS_EMBEDDER_SOURCE (self));
  g_return_if_fail (min_msec > 0 && min_msec <= max_msec);

  g_mutex_lock (&self->lock);
  self->min_interval = self->interval = min_msec;
  self->max_interval = max_msec;
  g_mutex_unlock (&self->lock);
}

/* Makes the provider, without the lock, and keeps what came of it unless set_embedder()
 * came first. */
static void
look_up (LodeEmbedderSource *self,
         guint               generation)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeEmbedder) embedder = lode_embedder_new_for_config (self->config, &error);
  gboolean settled;

  if (embedder == NULL)
    g_debug ("No embedder: %s", error->message);

  g_mutex_lock (&self->lock);
  if (generation == self->generation)
    {
      g_set_object (&self->embedder, embedder);
      g_free (self->notice);
      self->notice = embedder == NULL ? g_strdup (error->message) : NULL;
      /* Settings that name no provider, or an unknown one, stay as they are. */
      settled = embedder != NULL ||
                g_strcmp0 (self->config->embedding_provider, "none") == 0 ||
                g_error_matches (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
      if (settled)
        {
          self->retry_at = 0;
          self->interval = self->min_interval;
        }
      else
        {
          self->retry_at = g_get_monotonic_time () + (gint64) self->interval * 1000;
          self->interval = MIN (self->interval * 2, self->max_interval);
        }
      self->ready = TRUE;
    }
  self->looking = FALSE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

typedef struct
{
  LodeEmbedderSource *self;
  guint               generation;
} LookUp;

static gpointer
look_up_thread_func (gpointer user_data)
{
  LookUp *job = user_data;

  look_up (job->self, job->generation);
  g_object_unref (job->self);
  g_free (job);

  return NULL;
}

/**
 * lode_embedder_source_dup:
 * @self: a #LodeEmbedderSource
 * @unavailable: (out) (optional) (transfer full): without a provider, why there is none
 *
 * The provider. The first call makes it and may block (a remote server gets a few seconds
 * to answer); later calls do not wait for a server, and look again when the last look-up
 * failed long enough ago.
 *
 * Returns: (transfer full) (nullable): the provider
 */
LodeEmbedder *
lode_embedder_source_dup (LodeEmbedderSource  *self,
                          char               **unavailable)
{
  LodeEmbedder *embedder;

  g_return_val_if_fail (LODE_IS_EMBEDDER_SOURCE (self), NULL);

  g_mutex_lock (&self->lock);
  while (!self->ready && self->looking)
    g_cond_wait (&self->cond, &self->lock);

  if (!self->ready)
    {
      guint generation = self->generation;

      self->looking = TRUE;
      g_mutex_unlock (&self->lock);
      look_up (self, generation);
      g_mutex_lock (&self->lock);
    }
  else if (self->retry_at != 0 && !self->looking && g_get_monotonic_time () >= self->retry_at)
    {
      guint generation = self->generation;

      self->looking = TRUE;
      if (is_builtin (self->config))
        {
          /* A file check: this caller may as well see what it finds. */
          g_mutex_unlock (&self->lock);
          look_up (self, generation);
          g_mutex_lock (&self->lock);
        }
      else
        {
          LookUp *job = g_new0 (LookUp, 1);

          job->self = g_object_ref (self);
          job->generation = generation;
          g_thread_unref (g_thread_new ("lode-embedder", look_up_thread_func, job));
        }
    }

  embedder = self->embedder != NULL ? g_object_ref (self->embedder) : NULL;
  if (unavailable != NULL)
    *unavailable = g_strdup (self->notice);
  g_mutex_unlock (&self->lock);

  return embedder;
}

/**
 * lode_embedder_source_set_embedder:
 * @self: a #LodeEmbedderSource
 * @embedder: (nullable): the provider from now on, instead of the one of the settings; %NULL
 *   turns semantic search off
 */
void
lode_embedder_source_set_embedder (LodeEmbedderSource *self,
                                   LodeEmbedder       *embedder)
{
  g_return_if_fail (LODE_IS_EMBEDDER_SOURCE (self));
  g_return_if_fail (embedder == NULL || LODE_IS_EMBEDDER (embedder));

  g_mutex_lock (&self->lock);
  g_set_object (&self->embedder, embedder);
  g_free (self->notice);
  self->notice = embedder == NULL ? g_strdup ("turned off") : NULL;
  self->retry_at = 0;
  self->generation++;
  self->ready = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}
