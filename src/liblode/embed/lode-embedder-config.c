/* lode-embedder-config.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-embedder-config"

#include "config.h"

#include "lode-builtin-embedder.h"
#include "lode-embedder-config.h"
#include "lode-error.h"
#include "lode-models.h"
#include "lode-remote-embedder.h"
#include "lode-static-embedder.h"

static void
remote_ready_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Builds an Ollama or OpenAI provider, waiting on a private main context: Ollama's
 * reachability check and the keyring look-up are asynchronous. */
static LodeEmbedder *
new_remote (const LodeConfig  *config,
            const char        *provider,
            GError           **error)
{
  const char *model = config->embedding_model;
  const char *url = g_str_equal (provider, "ollama") ? config->ollama_url : config->openai_url;
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *spec = model != NULL ? g_strconcat (provider, ":", model, NULL)
                                        : g_strdup (provider);

  g_main_context_push_thread_default (context);
  lode_remote_embedder_new_async (spec, url, config->openai_api_key, NULL, remote_ready_cb,
                                  &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);

  return lode_remote_embedder_new_finish (result, error);
}

static LodeEmbedder *
new_builtin (const char  *model,
             GError     **error)
{
  const LodeModelInfo *info;
  g_autofree char *dir = NULL;

  if (model == NULL)
    model = LODE_MODEL_DEFAULT;

  /* The common case, said the way every surface repeats it. */
  info = lode_models_lookup (model);
  if (info != NULL && (dir = lode_models_find_installed (model)) == NULL)
    {
      if (g_str_equal (model, LODE_MODEL_DEFAULT))
        g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                             "no embedding model (run `lode model pull`)");
      else
        g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                     "no embedding model (run `lode model pull %s`)", model);
      return NULL;
    }

  /* A folder of a known model counts as that model: its vectors are the same. */
  if (info == NULL && g_file_test (model, G_FILE_TEST_IS_DIR))
    {
      info = lode_models_identify_dir (model);
      dir = g_strdup (model);
    }
  if (info != NULL && info->format == LODE_MODEL_FORMAT_USE_STATIC)
    return lode_static_embedder_new (info->name, dir, error);

  return lode_builtin_embedder_new (model, error);
}

/**
 * lode_embedder_new_for_config:
 * @config: settings: `embedding-provider` and `embedding-model`
 * @error: return location for a #GError
 *
 * The provider the settings name: the built-in encoder over an installed model (the
 * default), an Ollama server, an OpenAI-compatible endpoint, or none. Blocks while a remote
 * provider is checked (Ollama answers, an OpenAI key exists); call it from a worker thread
 * or a command-line tool.
 *
 * Returns: (transfer full): the provider, or %NULL with %LODE_ERROR_EMBEDDER saying why
 *   semantic search is unavailable, in words fit to follow "semantic search unavailable: "
 */
LodeEmbedder *
lode_embedder_new_for_config (const LodeConfig  *config,
                              GError           **error)
{
  const char *provider;

  g_return_val_if_fail (config != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  provider = config->embedding_provider != NULL ? config->embedding_provider : "builtin";

  if (g_str_equal (provider, "none"))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                           "turned off (embedding-provider is “none”)");
      return NULL;
    }

  if (g_str_equal (provider, "builtin"))
    return new_builtin (config->embedding_model, error);

  if (g_str_equal (provider, "ollama") || g_str_equal (provider, "openai"))
    return new_remote (config, provider, error);

  g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
               "unknown embedding provider “%s”", provider);
  return NULL;
}
