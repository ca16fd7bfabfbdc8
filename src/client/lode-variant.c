/* lode-variant.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-client"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-variant.h"

#define MAX_FILTER_BYTES 4096

static void
insert_string (GVariantDict *dict,
               const char   *key,
               const char   *value)
{
  if (value != NULL)
    g_variant_dict_insert (dict, key, "s", value);
}

/* Configuration ------------------------------------------------------------------------ */

/**
 * lode_config_to_variant:
 * @config: settings
 *
 * Returns: (transfer floating): @config as `a{sv}`, for lode_config_from_variant()
 */
GVariant *
lode_config_to_variant (const LodeConfig *config)
{
  g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);

  g_return_val_if_fail (config != NULL, NULL);

  g_variant_dict_insert (&dict, "data_dir", "s", config->data_dir);
  g_variant_dict_insert (&dict, "max_file_size", "t", config->max_file_size);
  g_variant_dict_insert (&dict, "chunk_max_tokens", "u", config->chunk_max_tokens);
  g_variant_dict_insert (&dict, "index_threads", "u", config->index_threads);
  g_variant_dict_insert_value (&dict, "extra_extensions",
                               g_variant_new_strv ((const char * const *) config->extra_extensions,
                                                   -1));
  insert_string (&dict, "embedding_provider", config->embedding_provider);
  insert_string (&dict, "embedding_model", config->embedding_model);
  g_variant_dict_insert (&dict, "vector_int8", "b", config->vector_int8);
  insert_string (&dict, "ollama_url", config->ollama_url);
  insert_string (&dict, "openai_url", config->openai_url);
  insert_string (&dict, "openai_api_key", config->openai_api_key);
  insert_string (&dict, "store", config->store);
  insert_string (&dict, "qdrant_url", config->qdrant_url);
  insert_string (&dict, "qdrant_api_key", config->qdrant_api_key);
  insert_string (&dict, "qdrant_ca_file", config->qdrant_ca_file);
  g_variant_dict_insert (&dict, "qdrant_shards", "u", config->qdrant_shards);
  g_variant_dict_insert (&dict, "qdrant_replicas", "u", config->qdrant_replicas);
  /* Always sent: a caller without links must not get the daemon's. */
  g_variant_dict_insert_value (&dict, "linked_projects",
                               g_variant_new_strv ((const char * const *)
                                                   config->linked_projects,
                                                   config->linked_projects != NULL ? -1 : 0));
  /* Only when on, so that a daemon older than the key still serves everyone else. */
  if (config->branch_aware)
    g_variant_dict_insert (&dict, "branch_aware", "b", TRUE);

  return g_variant_dict_end (&dict);
}

static gboolean
take_string (GVariant    *value,
             const char  *key,
             char       **out,
             GError     **error)
{
  if (!g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Configuration key “%s” must be a string, not %s", key,
                   g_variant_get_type_string (value));
      return FALSE;
    }

  g_free (*out);
  *out = g_variant_dup_string (value, NULL);
  return TRUE;
}

static gboolean
check_type (GVariant           *value,
            const char         *key,
            const GVariantType *type,
            GError            **error)
{
  if (g_variant_is_of_type (value, type))
    return TRUE;

  g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
               "Configuration key “%s” must be of type %.*s, not %s", key,
               (int) g_variant_type_get_string_length (type), g_variant_type_peek_string (type),
               g_variant_get_type_string (value));
  return FALSE;
}

/**
 * lode_config_from_variant:
 * @dict: a configuration in the form of lode_config_to_variant()
 * @defaults: what keys missing from @dict stand for (the receiver's own configuration)
 * @error: return location for a #GError
 *
 * The configuration a client sent. A key of the wrong type is %LODE_ERROR_INVALID_ARGUMENT.
 * What this process cannot take on is %LODE_ERROR_UNSUPPORTED: an unknown key (a newer
 * client), or other extra extensions, which are registered for the whole process.
 *
 * Returns: (transfer full) (nullable): the configuration
 */
LodeConfig *
lode_config_from_variant (GVariant          *dict,
                          const LodeConfig  *defaults,
                          GError           **error)
{
  g_autoptr(LodeConfig) config = NULL;
  GVariantIter iter;
  const char *key;
  GVariant *value;

  g_return_val_if_fail (dict != NULL && g_variant_is_of_type (dict, G_VARIANT_TYPE_VARDICT),
                        NULL);
  g_return_val_if_fail (defaults != NULL, NULL);

  config = lode_config_copy (defaults);
  g_variant_iter_init (&iter, dict);
  while (g_variant_iter_loop (&iter, "{&sv}", &key, &value))
    {
      gboolean ok = TRUE;

      if (strcmp (key, "data_dir") == 0)
        ok = take_string (value, key, &config->data_dir, error);
      else if (strcmp (key, "embedding_provider") == 0)
        ok = take_string (value, key, &config->embedding_provider, error);
      else if (strcmp (key, "embedding_model") == 0)
        ok = take_string (value, key, &config->embedding_model, error);
      else if (strcmp (key, "ollama_url") == 0)
        ok = take_string (value, key, &config->ollama_url, error);
      else if (strcmp (key, "openai_url") == 0)
        ok = take_string (value, key, &config->openai_url, error);
      else if (strcmp (key, "openai_api_key") == 0)
        ok = take_string (value, key, &config->openai_api_key, error);
      else if (strcmp (key, "store") == 0)
        ok = take_string (value, key, &config->store, error);
      else if (strcmp (key, "qdrant_url") == 0)
        ok = take_string (value, key, &config->qdrant_url, error);
      else if (strcmp (key, "qdrant_api_key") == 0)
        ok = take_string (value, key, &config->qdrant_api_key, error);
      else if (strcmp (key, "qdrant_ca_file") == 0)
        ok = take_string (value, key, &config->qdrant_ca_file, error);
      else if (strcmp (key, "qdrant_shards") == 0)
        {
          if ((ok = check_type (value, key, G_VARIANT_TYPE_UINT32, error)))
            config->qdrant_shards = g_variant_get_uint32 (value);
        }
      else if (strcmp (key, "qdrant_replicas") == 0)
        {
          if ((ok = check_type (value, key, G_VARIANT_TYPE_UINT32, error)))
            config->qdrant_replicas = g_variant_get_uint32 (value);
        }
      else if (strcmp (key, "max_file_size") == 0)
        {
          if ((ok = check_type (value, key, G_VARIANT_TYPE_UINT64, error)))
            config->max_file_size = g_variant_get_uint64 (value);
        }
      else if (strcmp (key, "chunk_max_tokens") == 0)
        {
          if ((ok = check_type (value, key, G_VARIANT_TYPE_UINT32, error)))
            config->chunk_max_tokens = CLAMP (g_variant_get_uint32 (value), 64, 8192);
        }
      else if (strcmp (key, "index_threads") == 0)
        {
          if ((ok = check_type (value, key, G_VARIANT_TYPE_UINT32, error)))
            config->index_threads = MIN (g_variant_get_uint32 (value), 64);
        }
      else if (strcmp (key, "vector_int8") == 0)
        {
          if ((ok = check_type (value, key, G_VARIANT_TYPE_BOOLEAN, error)))
            config->vector_int8 = g_variant_get_boolean (value);
        }
      else if (strcmp (key, "linked_projects") == 0)
        {
          if ((ok = check_type (value, key, G_VARIANT_TYPE_STRING_ARRAY, error)))
            {
              g_strfreev (config->linked_projects);
              config->linked_projects = g_variant_n_children (value) > 0
                                        ? g_variant_dup_strv (value, NULL) : NULL;
            }
        }
      else if (strcmp (key, "branch_aware") == 0)
        {
          if ((ok = check_type (value, key, G_VARIANT_TYPE_BOOLEAN, error)))
            config->branch_aware = g_variant_get_boolean (value);
        }
      else if (strcmp (key, "extra_extensions") == 0)
        {
          g_autofree const char **extensions = NULL;

          if ((ok = check_type (value, key, G_VARIANT_TYPE_STRING_ARRAY, error)))
            {
              extensions = g_variant_get_strv (value, NULL);
              if (!g_strv_equal (extensions, (const char * const *) defaults->extra_extensions))
                {
                  g_set_error_literal (error, LODE_ERROR, LODE_ERROR_UNSUPPORTED,
                                       "the daemon has other extra extensions "
                                       "(LODE_EXTRA_EXTENSIONS), which hold for its whole "
                                       "process");
                  ok = FALSE;
                }
            }
        }
      else
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_UNSUPPORTED,
                       "the daemon does not know the configuration key “%s”", key);
          ok = FALSE;
        }

      if (!ok)
        {
          g_variant_unref (value);
          return NULL;
        }
    }

  if (config->data_dir == NULL || !g_path_is_absolute (config->data_dir))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                           "Configuration key “data_dir” must be an absolute path");
      return NULL;
    }

  return g_steal_pointer (&config);
}

/* Results of the daemon's typed methods ------------------------------------------------ */

/**
 * lode_index_report_to_variant:
 * @job: a job that succeeded
 * @joined: the caller joined a job that was already there
 *
 * Returns: (transfer floating): the `report` of Index and Update
 */
GVariant *
lode_index_report_to_variant (const LodeJobInfo *job,
                              gboolean           joined)
{
  g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);
  g_auto(GVariantBuilder) skipped = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(sss)"));
  const LodeIndexReport *report = job->report;

  g_return_val_if_fail (report != NULL, NULL);

  for (guint i = 0; i < report->skipped->len; i++)
    {
      const LodeSkippedFile *file = g_ptr_array_index (report->skipped, i);

      g_variant_builder_add (&skipped, "(sss)", file->path,
                             lode_skip_reason_to_string (file->reason),
                             file->detail != NULL ? file->detail : "");
    }

  g_variant_dict_insert (&dict, "root", "s", job->root);
  g_variant_dict_insert (&dict, "id", "s", job->project_id);
  g_variant_dict_insert_value (&dict, "skipped_files", g_variant_builder_end (&skipped));
  g_variant_dict_insert (&dict, "files", "u", report->n_files);
  g_variant_dict_insert (&dict, "added", "u", report->n_added);
  g_variant_dict_insert (&dict, "updated", "u", report->n_updated);
  g_variant_dict_insert (&dict, "removed", "u", report->n_removed);
  g_variant_dict_insert (&dict, "unchanged", "u", report->n_unchanged);
  g_variant_dict_insert (&dict, "chunks", "u", report->n_chunks);
  g_variant_dict_insert (&dict, "skipped", "u", report->skipped->len);
  g_variant_dict_insert (&dict, "lines", "t", report->n_lines);
  g_variant_dict_insert (&dict, "bytes", "t", report->n_bytes);
  g_variant_dict_insert (&dict, "seconds", "d", report->elapsed);
  g_variant_dict_insert (&dict, "resumed", "b", report->resumed);
  g_variant_dict_insert (&dict, "incremental", "b", report->incremental);
  g_variant_dict_insert (&dict, "rebuilt", "b", report->reset);
  insert_string (&dict, "rebuilt_because", report->reset_reason);
  g_variant_dict_insert (&dict, "joined", "b", joined);
  g_variant_dict_insert (&dict, "embedded", "u", report->n_embedded);
  insert_string (&dict, "embedding_model", report->embedding_model);
  insert_string (&dict, "embedding_notice", report->embedding_notice);

  return g_variant_dict_end (&dict);
}

/**
 * lode_watch_to_variant:
 * @status: a status from lode_engine_dup_status()
 *
 * Returns: (transfer floating): the `status` of Watch
 */
GVariant *
lode_watch_to_variant (const LodeProjectStatus *status)
{
  g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);

  g_variant_dict_insert (&dict, "root", "s", status->root);
  g_variant_dict_insert (&dict, "watched", "b", status->watched);
  g_variant_dict_insert (&dict, "polling", "b", status->polling);
  g_variant_dict_insert (&dict, "directories", "u", status->n_watches);
  insert_string (&dict, "watch_status", status->watch_status);

  return g_variant_dict_end (&dict);
}

/**
 * lode_project_status_to_variant:
 * @status: a status from lode_engine_dup_status()
 *
 * Returns: (transfer floating): the `status` of Status
 */
GVariant *
lode_project_status_to_variant (const LodeProjectStatus *status)
{
  g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);
  g_auto(GVariantBuilder) languages = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{su}"));
  const LodeJobInfo *job = status->job;
  gboolean indexing = job != NULL && job->state == LODE_JOB_STATE_RUNNING;
  GHashTableIter iter;
  gpointer key, value;

  g_variant_dict_insert (&dict, "root", "s", status->root);
  g_variant_dict_insert (&dict, "id", "s", status->id);
  g_variant_dict_insert (&dict, "state", "s", lode_index_state_to_string (status->state));
  insert_string (&dict, "damage", status->damage);
  insert_string (&dict, "indexed_at", status->indexed_at);
  g_variant_dict_insert (&dict, "files", "u", status->stats.n_files);
  g_variant_dict_insert (&dict, "chunks", "u", status->stats.n_chunks);
  g_variant_dict_insert (&dict, "symbols", "u", status->stats.n_symbols);
  g_variant_dict_insert (&dict, "lines", "t", status->stats.n_lines);
  g_variant_dict_insert (&dict, "bytes", "t", status->stats.n_bytes);
  g_variant_dict_insert (&dict, "index_bytes", "t", status->db_size);
  insert_string (&dict, "branch", status->branch);
  insert_string (&dict, "branch_fallback", status->branch_fallback);
  insert_string (&dict, "embedding_model", status->embedding_model);
  g_variant_dict_insert (&dict, "embedded_chunks", "u", status->n_embedded);
  g_variant_dict_insert (&dict, "embeddable_chunks", "u", status->n_embeddable);
  insert_string (&dict, "semantic_notice", status->semantic_notice);
  g_hash_table_iter_init (&iter, status->languages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_variant_builder_add (&languages, "{su}", (const char *) key, GPOINTER_TO_UINT (value));
  g_variant_dict_insert_value (&dict, "languages", g_variant_builder_end (&languages));
  g_variant_dict_insert (&dict, "indexing", "b", indexing);
  if (indexing)
    {
      g_variant_dict_insert (&dict, "phase", "s", lode_index_phase_to_string (job->progress.phase));
      g_variant_dict_insert (&dict, "done", "u", job->progress.done);
      g_variant_dict_insert (&dict, "total", "u", job->progress.total);
    }
  g_variant_dict_insert (&dict, "watched", "b", status->watched);
  insert_string (&dict, "watch_status", status->watch_status);

  return g_variant_dict_end (&dict);
}

/**
 * lode_project_infos_to_variant:
 * @infos: (element-type LodeProjectInfo): from lode_engine_list_projects()
 *
 * Returns: (transfer floating): the `projects` of ListProjects
 */
GVariant *
lode_project_infos_to_variant (GPtrArray *infos)
{
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("aa{sv}"));

  for (guint i = 0; i < infos->len; i++)
    {
      const LodeProjectInfo *info = g_ptr_array_index (infos, i);
      g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);

      g_variant_dict_insert (&dict, "root", "s", info->root);
      g_variant_dict_insert (&dict, "id", "s", info->id);
      g_variant_dict_insert (&dict, "exists", "b", info->exists);
      g_variant_dict_insert (&dict, "watched", "b", info->watched);
      g_variant_dict_insert (&dict, "indexing", "b", info->indexing);
      g_variant_builder_add_value (&builder, g_variant_dict_end (&dict));
    }

  return g_variant_builder_end (&builder);
}

/**
 * lode_search_response_to_variant:
 * @response: the results of a search
 *
 * Returns: (transfer floating): the `(results, info)` of Search
 */
GVariant *
lode_search_response_to_variant (const LodeSearchResponse *response)
{
  g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("aa{sv}"));
  g_auto(GVariantDict) info = G_VARIANT_DICT_INIT (NULL);

  for (guint i = 0; i < response->results->len; i++)
    {
      const LodeSearchResult *r = g_ptr_array_index (response->results, i);
      g_auto(GVariantDict) dict = G_VARIANT_DICT_INIT (NULL);

      g_variant_dict_insert (&dict, "path", "s", r->path);
      g_variant_dict_insert (&dict, "start_line", "u", r->start_line);
      g_variant_dict_insert (&dict, "end_line", "u", r->end_line);
      insert_string (&dict, "language", r->language);
      insert_string (&dict, "kind", r->kind);
      insert_string (&dict, "symbol", r->symbol);
      insert_string (&dict, "container", r->container);
      insert_string (&dict, "signature", r->signature);
      g_variant_dict_insert (&dict, "symbol_start_line", "u", r->symbol_start_line);
      g_variant_dict_insert (&dict, "symbol_end_line", "u", r->symbol_end_line);
      if (r->symbols != NULL && r->symbols->len > 0)
        {
          g_auto(GVariantBuilder) symbols = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(ssuu)"));

          for (guint j = 0; j < r->symbols->len; j++)
            {
              const LodeSearchSymbol *symbol = g_ptr_array_index (r->symbols, j);

              g_variant_builder_add (&symbols, "(ssuu)", symbol->name,
                                     symbol->kind != NULL ? symbol->kind : "",
                                     symbol->start_line, symbol->end_line);
            }
          g_variant_dict_insert_value (&dict, "symbols", g_variant_builder_end (&symbols));
        }
      g_variant_dict_insert (&dict, "score", "d", r->score);
      insert_string (&dict, "snippet", r->snippet);
      g_variant_dict_insert (&dict, "snippet_start_line", "u", r->snippet_start_line);
      insert_string (&dict, "content", r->content);
      g_variant_builder_add_value (&builder, g_variant_dict_end (&dict));
    }

  g_variant_dict_insert (&info, "requested_mode", "s",
                         lode_search_mode_to_string (response->requested_mode));
  g_variant_dict_insert (&info, "mode", "s", lode_search_mode_to_string (response->mode));
  insert_string (&info, "notice", response->notice);
  insert_string (&info, "model", response->model);
  if (response->model != NULL)
    {
      g_variant_dict_insert (&info, "embedded_chunks", "u", response->n_embedded);
      g_variant_dict_insert (&info, "chunks", "u", response->n_chunks);
    }

  return g_variant_new ("(@aa{sv}@a{sv})", g_variant_builder_end (&builder),
                        g_variant_dict_end (&info));
}

/* Search options ----------------------------------------------------------------------- */

static gboolean
option_type_error (const char  *key,
                   const char  *expected,
                   GVariant    *value,
                   GError     **error)
{
  g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
               "Search option “%s” must be %s, not of type %s", key, expected,
               g_variant_get_type_string (value));
  return FALSE;
}

/* Called for each option; FALSE with @error for a bad one. */
static gboolean
parse_option (const char         *key,
              GVariant           *value,
              LodeSearchOptions  *out,
              char              **language,
              char              **path_glob,
              GError            **error)
{
  if (strcmp (key, "limit") == 0)
    {
      if (g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
        out->limit = CLAMP (g_variant_get_uint32 (value), 1, LODE_SEARCH_MAX_LIMIT);
      else if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT32))
        out->limit = CLAMP (g_variant_get_int32 (value), 1, LODE_SEARCH_MAX_LIMIT);
      else
        return option_type_error (key, "an integer (u or i)", value, error);
    }
  else if (strcmp (key, "language") == 0 || strcmp (key, "path") == 0)
    {
      char **target = key[0] == 'l' ? language : path_glob;

      if (!g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
        return option_type_error (key, "a string", value, error);
      if (strlen (g_variant_get_string (value, NULL)) > MAX_FILTER_BYTES)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "Search option “%s” is longer than %d bytes", key, MAX_FILTER_BYTES);
          return FALSE;
        }
      g_free (*target);
      *target = g_variant_dup_string (value, NULL);
    }
  else if (strcmp (key, "min_score") == 0)
    {
      if (!g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
        return option_type_error (key, "a double", value, error);
      out->min_score = g_variant_get_double (value);
      if (!isfinite (out->min_score) || out->min_score < 0 || out->min_score > 1)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "Search option “min_score” must be a number from 0 to 1");
          return FALSE;
        }
    }
  else if (strcmp (key, "per_file") == 0 || strcmp (key, "content") == 0)
    {
      if (!g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
        return option_type_error (key, "a boolean", value, error);
      if (key[0] == 'p')
        out->one_per_file = g_variant_get_boolean (value);
      else
        out->include_content = g_variant_get_boolean (value);
    }
  else if (strcmp (key, "mode") == 0)
    {
      if (!g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
        return option_type_error (key, "a string", value, error);
      if (!lode_search_mode_from_string (g_variant_get_string (value, NULL), &out->mode))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "Unknown search mode “%s”: use hybrid, lexical or semantic",
                       g_variant_get_string (value, NULL));
          return FALSE;
        }
    }
  else
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Unknown search option “%s”", key);
      return FALSE;
    }

  return TRUE;
}

/**
 * lode_search_options_from_variant:
 * @options: the `options` of Search
 * @out: (out caller-allocates): the options; initialised here
 * @language: (out) (transfer full): the language filter, which @out borrows
 * @path_glob: (out) (transfer full): the path filter, which @out borrows
 * @error: return location for a #GError
 *
 * Reads a client's search options: every limit clamped, filters bounded, a key of the wrong
 * type or value (a NaN score) refused with its name and what it must be.
 *
 * Returns: %TRUE when every option is usable
 */
gboolean
lode_search_options_from_variant (GVariant           *options,
                                  LodeSearchOptions  *out,
                                  char              **language,
                                  char              **path_glob,
                                  GError            **error)
{
  LodeSearchOptions defaults = LODE_SEARCH_OPTIONS_INIT;
  GVariantIter iter;
  const char *key;
  GVariant *value;

  g_return_val_if_fail (options != NULL &&
                        g_variant_is_of_type (options, G_VARIANT_TYPE_VARDICT), FALSE);
  g_return_val_if_fail (out != NULL && language != NULL && path_glob != NULL, FALSE);

  *out = defaults;
  *language = NULL;
  *path_glob = NULL;
  g_variant_iter_init (&iter, options);
  while (g_variant_iter_loop (&iter, "{&sv}", &key, &value))
    if (!parse_option (key, value, out, language, path_glob, error))
      {
        g_variant_unref (value);
        g_clear_pointer (language, g_free);
        g_clear_pointer (path_glob, g_free);
        return FALSE;
      }

  out->language = *language;
  out->path_glob = *path_glob;
  return TRUE;
}
