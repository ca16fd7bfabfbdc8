/* lode-config.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-config"

#include "config.h"

#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>

#include "lode-config.h"
#include "lode-error.h"
#include "lode-secret.h"

#define DEFAULT_MAX_FILE_SIZE (2 * 1024 * 1024)

LodeConfig *
lode_config_new_default (void)
{
  LodeConfig *config = g_new0 (LodeConfig, 1);

  config->max_file_size = DEFAULT_MAX_FILE_SIZE;
  config->chunk_max_tokens = LODE_CHUNKER_DEFAULT_MAX_TOKENS;
  config->parse_time_budget = LODE_CHUNKER_DEFAULT_TIME_BUDGET_MSEC;
  config->index_threads = 0;
  config->watch_debounce_msec = LODE_WATCH_DEFAULT_DEBOUNCE_MSEC;
  config->extra_extensions = g_new0 (char *, 1);
  config->data_dir = g_build_filename (g_get_user_data_dir (), "lode", NULL);
  config->embedding_provider = g_strdup ("builtin");
  config->vector_int8 = TRUE;
  config->store = g_strdup ("sqlite");

  return config;
}

LodeConfig *
lode_config_copy (const LodeConfig *config)
{
  LodeConfig *copy;

  g_return_val_if_fail (config != NULL, NULL);

  copy = g_memdup2 (config, sizeof *config);
  copy->extra_extensions = g_strdupv (config->extra_extensions);
  copy->data_dir = g_strdup (config->data_dir);
  copy->embedding_provider = g_strdup (config->embedding_provider);
  copy->embedding_model = g_strdup (config->embedding_model);
  copy->ollama_url = g_strdup (config->ollama_url);
  copy->openai_url = g_strdup (config->openai_url);
  copy->openai_api_key = g_strdup (config->openai_api_key);
  copy->store = g_strdup (config->store);
  copy->qdrant_url = g_strdup (config->qdrant_url);
  copy->qdrant_api_key = g_strdup (config->qdrant_api_key);
  copy->qdrant_ca_file = g_strdup (config->qdrant_ca_file);
  copy->linked_projects = g_strdupv (config->linked_projects);

  return copy;
}

void
lode_config_free (LodeConfig *config)
{
  if (config == NULL)
    return;

  g_strfreev (config->extra_extensions);
  g_free (config->data_dir);
  g_free (config->embedding_provider);
  g_free (config->embedding_model);
  g_free (config->ollama_url);
  g_free (config->openai_url);
  if (config->openai_api_key != NULL)
    memset (config->openai_api_key, 0, strlen (config->openai_api_key));
  g_free (config->openai_api_key);
  g_free (config->store);
  g_free (config->qdrant_url);
  if (config->qdrant_api_key != NULL)
    memset (config->qdrant_api_key, 0, strlen (config->qdrant_api_key));
  g_free (config->qdrant_api_key);
  g_free (config->qdrant_ca_file);
  g_strfreev (config->linked_projects);
  g_free (config);
}

guint
lode_config_get_threads (const LodeConfig *config)
{
  g_return_val_if_fail (config != NULL, 1);

  if (config->index_threads > 0)
    return config->index_threads;

  return MAX (1, g_get_num_processors ());
}

static void
load_settings (LodeConfig *config)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;

  /* An uninstalled build or a bare container has no compiled schema; the defaults stand. */
  if (source == NULL)
    return;
  schema = g_settings_schema_source_lookup (source, LODE_SCHEMA_ID, TRUE);
  if (schema == NULL)
    return;

  settings = g_settings_new_full (schema, NULL, NULL);
  config->max_file_size = g_settings_get_uint64 (settings, "max-file-size");
  config->chunk_max_tokens = g_settings_get_uint (settings, "chunk-max-tokens");
  config->parse_time_budget = g_settings_get_uint (settings, "parse-time-budget");
  config->index_threads = g_settings_get_uint (settings, "index-threads");
  config->watch_debounce_msec = g_settings_get_uint (settings, "watch-debounce-msec");
  g_strfreev (config->extra_extensions);
  config->extra_extensions = g_settings_get_strv (settings, "extra-extensions");
  g_free (config->embedding_provider);
  config->embedding_provider = g_settings_get_string (settings, "embedding-provider");
  g_free (config->embedding_model);
  config->embedding_model = g_settings_get_string (settings, "embedding-model");
  config->vector_int8 = g_settings_get_boolean (settings, "vector-int8");
  g_free (config->store);
  config->store = g_settings_get_string (settings, "store");
  if (g_settings_schema_has_key (schema, "branch-aware"))
    config->branch_aware = g_settings_get_boolean (settings, "branch-aware");
  g_free (config->qdrant_url);
  config->qdrant_url = g_settings_get_string (settings, "qdrant-url");
  if (*config->qdrant_url == '\0')
    g_clear_pointer (&config->qdrant_url, g_free);
  config->qdrant_shards = g_settings_get_uint (settings, "qdrant-shard-number");
  config->qdrant_replicas = g_settings_get_uint (settings, "qdrant-replication-factor");
}

static gboolean
env_uint (const char  *name,
          guint64      min,
          guint64      max,
          guint64     *value,
          GError     **error)
{
  const char *str = g_getenv (name);
  guint64 parsed;
  char *end = NULL;

  if (str == NULL || *str == '\0')
    return TRUE;

  parsed = g_ascii_strtoull (str, &end, 10);
  switch (*end)
    {
    case 'k': case 'K': parsed *= 1024; end++; break;
    case 'm': case 'M': parsed *= 1024 * 1024; end++; break;
    case 'g': case 'G': parsed *= 1024 * 1024 * 1024; end++; break;
    default: break;
    }

  if (end == str || *end != '\0' || parsed < min || parsed > max)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s=“%s” is not a number between %" G_GUINT64_FORMAT " and %"
                   G_GUINT64_FORMAT, name, str, min, max);
      return FALSE;
    }

  *value = parsed;
  return TRUE;
}

/* The first of two variables (@second nullable) that is set and not empty. */
static char *
dup_env (const char *first,
         const char *second)
{
  const char *value = g_getenv (first);

  if ((value == NULL || *value == '\0') && second != NULL)
    value = g_getenv (second);
  return value != NULL && *value != '\0' ? g_strdup (value) : NULL;
}

/* SocratiCode's SOCRATICODE_LINKED_PROJECTS: comma-separated roots, each trimmed, empty ones
 * dropped; %NULL when there are none. */
static char **
linked_projects_env (void)
{
  const char *value = g_getenv ("SOCRATICODE_LINKED_PROJECTS");
  g_auto(GStrv) parts = NULL;
  g_autoptr(GStrvBuilder) roots = g_strv_builder_new ();
  gboolean any = FALSE;

  if (value == NULL)
    return NULL;
  parts = g_strsplit (value, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (*g_strstrip (parts[i]) == '\0')
        continue;
      g_strv_builder_add (roots, parts[i]);
      any = TRUE;
    }
  return any ? g_strv_builder_end (roots) : NULL;
}

/* A boolean from the environment: 1/true or 0/false; unset or empty leaves @value. */
static gboolean
env_bool (const char  *name,
          gboolean    *value,
          GError     **error)
{
  const char *str = g_getenv (name);

  if (str == NULL || *str == '\0')
    return TRUE;
  if (g_str_equal (str, "1") || g_ascii_strcasecmp (str, "true") == 0)
    *value = TRUE;
  else if (g_str_equal (str, "0") || g_ascii_strcasecmp (str, "false") == 0)
    *value = FALSE;
  else
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s=“%s” is not 0 or 1", name, str);
      return FALSE;
    }
  return TRUE;
}

/* Embedding settings (issue #4). An empty model means the provider's default. */
static gboolean
apply_embedding_env (LodeConfig  *config,
                     GError     **error)
{
  static const char *const providers[] = { "builtin", "ollama", "openai", "none", NULL };
  const char *str = g_getenv ("LODE_EMBEDDING_PROVIDER");

  if (str != NULL && *str != '\0')
    {
      g_free (config->embedding_provider);
      config->embedding_provider = g_strdup (str);
    }
  if (!g_strv_contains (providers, config->embedding_provider))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Embedding provider “%s” is not one of builtin, ollama, openai, none",
                   config->embedding_provider);
      return FALSE;
    }

  str = g_getenv ("LODE_EMBEDDING_MODEL");
  if (str != NULL)
    {
      g_free (config->embedding_model);
      config->embedding_model = g_strdup (str);
    }
  if (config->embedding_model != NULL && *config->embedding_model == '\0')
    g_clear_pointer (&config->embedding_model, g_free);

  return env_bool ("LODE_VECTOR_INT8", &config->vector_int8, error);
}

/* The store (issue #14): where indexes live, and the Qdrant server's settings. */
static gboolean
apply_store_env (LodeConfig  *config,
                 GError     **error)
{
  static const char *const stores[] = { "sqlite", "qdrant", NULL };
  const char *str = g_getenv ("LODE_STORE");
  char *url;
  guint64 value;

  if (str != NULL && *str != '\0')
    {
      g_free (config->store);
      config->store = g_strdup (str);
    }
  if (!g_strv_contains (stores, config->store))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Store “%s” is not one of sqlite, qdrant", config->store);
      return FALSE;
    }

  url = dup_env ("LODE_QDRANT_URL", NULL);
  if (url != NULL)
    {
      g_free (config->qdrant_url);
      config->qdrant_url = url;
    }
  config->qdrant_api_key = lode_secret_dup_env_api_key ("qdrant");
  config->qdrant_ca_file = dup_env ("LODE_QDRANT_CA_FILE", NULL);

  value = config->qdrant_shards;
  if (!env_uint ("LODE_QDRANT_SHARDS", 0, 1024, &value, error))
    return FALSE;
  config->qdrant_shards = value;
  value = config->qdrant_replicas;
  if (!env_uint ("LODE_QDRANT_REPLICAS", 0, 64, &value, error))
    return FALSE;
  config->qdrant_replicas = value;

  return TRUE;
}

/**
 * lode_config_load:
 * @error: return location for a #GError
 *
 * Reads the GSettings schema (when installed), then the `LODE_MAX_FILE_SIZE`,
 * `LODE_CHUNK_MAX_TOKENS`, `LODE_PARSE_TIME_BUDGET`, `LODE_INDEX_THREADS`,
 * `LODE_EXTRA_EXTENSIONS` (comma-separated
 * ".ext=language"), `LODE_DATA_DIR`, `LODE_EMBEDDING_PROVIDER`, `LODE_EMBEDDING_MODEL`,
 * `LODE_VECTOR_INT8`, the providers' URLs and the OpenAI key, `LODE_STORE`, the Qdrant
 * settings, `LODE_BRANCH_AWARE` and `SOCRATICODE_LINKED_PROJECTS` (see #LodeConfig) from the
 * environment. The extra extensions are the language table's to check and register
 * (lode_engine_load_config()).
 *
 * Returns: (transfer full) (nullable): the configuration, or %NULL if a value is malformed
 */
LodeConfig *
lode_config_load (GError **error)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  guint64 value;
  const char *str;

  load_settings (config);

  value = config->max_file_size;
  if (!env_uint ("LODE_MAX_FILE_SIZE", 1, G_MAXUINT32, &value, error))
    return NULL;
  config->max_file_size = value;

  value = config->chunk_max_tokens;
  if (!env_uint ("LODE_CHUNK_MAX_TOKENS", 64, 8192, &value, error))
    return NULL;
  config->chunk_max_tokens = value;

  value = config->parse_time_budget;
  if (!env_uint ("LODE_PARSE_TIME_BUDGET", 1, 600000, &value, error))
    return NULL;
  config->parse_time_budget = value;

  value = config->index_threads;
  if (!env_uint ("LODE_INDEX_THREADS", 0, 64, &value, error))
    return NULL;
  config->index_threads = value;

  value = config->watch_debounce_msec;
  if (!env_uint ("LODE_WATCH_DEBOUNCE_MSEC", 0, 10000, &value, error))
    return NULL;
  config->watch_debounce_msec = value;

  str = g_getenv ("LODE_EXTRA_EXTENSIONS");
  if (str != NULL && *str != '\0')
    {
      g_strfreev (config->extra_extensions);
      config->extra_extensions = g_strsplit (str, ",", -1);
    }

  str = g_getenv ("LODE_DATA_DIR");
  if (str != NULL && *str != '\0')
    {
      g_free (config->data_dir);
      config->data_dir = g_strdup (str);
    }

  config->ollama_url = dup_env ("LODE_OLLAMA_URL", "OLLAMA_HOST");
  config->openai_url = dup_env ("LODE_OPENAI_BASE_URL", "OPENAI_BASE_URL");
  config->openai_api_key = lode_secret_dup_env_api_key ("openai");
  config->linked_projects = linked_projects_env ();

  if (!apply_embedding_env (config, error) ||
      !apply_store_env (config, error) ||
      !env_bool ("LODE_BRANCH_AWARE", &config->branch_aware, error))
    return NULL;

  return g_steal_pointer (&config);
}
