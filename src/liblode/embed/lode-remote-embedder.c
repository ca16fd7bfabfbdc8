/* lode-remote-embedder.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-remote-embedder"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-ollama-embedder.h"
#include "lode-openai-embedder.h"
#include "lode-remote-embedder.h"
#include "lode-secret.h"

/* Splits "ollama:nomic-embed-text" into provider and model (NULL when absent). */
static gboolean
parse_spec (const char  *spec,
            char       **provider,
            char       **model)
{
  const char *colon = strchr (spec, ':');

  *provider = colon != NULL ? g_strndup (spec, colon - spec) : g_strdup (spec);
  *model = colon != NULL && colon[1] != '\0' ? g_strdup (colon + 1) : NULL;
  return g_str_equal (*provider, "ollama") || g_str_equal (*provider, "openai");
}

/**
 * lode_remote_embedder_spec_is_remote:
 * @spec: a model spec
 *
 * Returns: whether @spec names a remote provider: `ollama`, `ollama:MODEL`, `openai` or
 *   `openai:MODEL` (the same strings lode_embedder_get_model() returns for them)
 */
gboolean
lode_remote_embedder_spec_is_remote (const char *spec)
{
  g_autofree char *provider = NULL;
  g_autofree char *model = NULL;

  g_return_val_if_fail (spec != NULL, FALSE);

  return parse_spec (spec, &provider, &model);
}

static void
ollama_check_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autofree char *version = NULL;
  GError *error = NULL;

  version = lode_ollama_embedder_check_finish (LODE_OLLAMA_EMBEDDER (object), result, &error);
  if (version == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_debug ("Ollama %s answers", version);
  g_task_return_pointer (task, g_object_ref (object), g_object_unref);
}

typedef struct
{
  char *url;
  char *model;
} OpenaiData;

static void
openai_data_free (OpenaiData *data)
{
  g_free (data->url);
  g_free (data->model);
  g_free (data);
}

/* Takes @key, and wipes it before freeing it. */
static LodeEmbedder *
new_openai (OpenaiData *data,
            char       *key)
{
  LodeEmbedder *embedder = LODE_EMBEDDER (lode_openai_embedder_new (data->url, data->model, key));

  if (key != NULL)
    memset (key, 0, strlen (key));
  g_free (key);
  return embedder;
}

static gboolean
is_openai_service (const char *url)
{
  return url == NULL || strstr (url, "api.openai.com") != NULL;
}

static void
openai_key_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpenaiData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *key = NULL;

  key = lode_secret_dup_api_key_finish (result, &error);
  if (key == NULL && is_openai_service (data->url))
    {
      if (error != NULL)
        g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_EMBEDDER,
                                 "No OpenAI API key: %s; set OPENAI_API_KEY", error->message);
      else
        g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_EMBEDDER,
                                 "No OpenAI API key: run “lode secret set openai” or set "
                                 "OPENAI_API_KEY");
      return;
    }

  /* Local OpenAI-compatible servers usually need no key. */
  if (error != NULL)
    g_debug ("No key for %s: %s", data->url, error->message);

  g_task_return_pointer (task, new_openai (data, g_steal_pointer (&key)), g_object_unref);
}

/**
 * lode_remote_embedder_new_async:
 * @spec: `ollama[:MODEL]` or `openai[:MODEL]`
 * @url: (nullable): the server; by default http://localhost:11434 for Ollama and
 *   https://api.openai.com for OpenAI (#LodeConfig reads the environment's choice)
 * @api_key: (nullable): the OpenAI key; without one it is looked up (environment, then
 *   Secret Service)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the provider
 * @user_data: data for @callback
 *
 * Builds the provider a spec names. For Ollama it first checks that the server answers; for
 * OpenAI it finds the API key (environment, then Secret Service).
 */
void
lode_remote_embedder_new_async (const char          *spec,
                                const char          *url,
                                const char          *api_key,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *provider = NULL;
  g_autofree char *model = NULL;

  g_return_if_fail (spec != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_remote_embedder_new_async);

  if (!parse_spec (spec, &provider, &model))
    {
      g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                               "Unknown embedding provider “%s” (expected ollama[:MODEL] or "
                               "openai[:MODEL])", spec);
      return;
    }

  if (g_str_equal (provider, "ollama"))
    {
      g_autofree char *base = g_strdup (url);
      g_autoptr(LodeOllamaEmbedder) embedder = NULL;

      /* OLLAMA_HOST is often "host:port" without a scheme. */
      if (base != NULL && strstr (base, "://") == NULL)
        {
          char *with_scheme = g_strconcat ("http://", base, NULL);

          g_free (base);
          base = with_scheme;
        }

      embedder = lode_ollama_embedder_new (base, model);
      lode_ollama_embedder_check_async (embedder, cancellable, ollama_check_cb,
                                        g_steal_pointer (&task));
    }
  else
    {
      OpenaiData *data = g_new0 (OpenaiData, 1);

      data->url = g_strdup (url);
      data->model = g_steal_pointer (&model);
      g_task_set_task_data (task, data, (GDestroyNotify) openai_data_free);
      if (api_key != NULL)
        g_task_return_pointer (task, new_openai (data, g_strdup (api_key)), g_object_unref);
      else
        lode_secret_dup_api_key_async ("openai", cancellable, openai_key_cb,
                                       g_steal_pointer (&task));
    }
}

/**
 * lode_remote_embedder_new_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the provider, or %NULL with @error set
 */
LodeEmbedder *
lode_remote_embedder_new_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
