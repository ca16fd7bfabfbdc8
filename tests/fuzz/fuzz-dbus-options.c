/* fuzz-dbus-options.c — what loded reads from `a{sv}` dictionaries on the bus: Search's
 * options (lode_search_options_from_variant) and a caller's configuration
 * (lode_config_from_variant)
 *
 * An input is the dictionary as it travels on the bus: GVariant's serialised form of `a{sv}`,
 * read as untrusted data the way GDBus reads a message body. Options that pass must be within
 * the bounds the daemon promises (limit 1…100, a score from 0 to 1, filters of at most 4 KiB),
 * exactly what the MCP tool accepts; a configuration that passes must survive its own trip
 * back through lode_config_to_variant. A refusal is a LODE_ERROR with a readable message.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "fuzz-common.h"
#include "lode-error.h"
#include "lode-variant.h"

static LodeConfig *defaults;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  defaults = lode_config_new_default ();
  g_free (defaults->data_dir);
  defaults->data_dir = g_strdup ("/nonexistent/lode-fuzz");
  return 0;
}

static void
check_refusal (const GError *error)
{
  g_assert_nonnull (error);
  g_assert_true (error->domain == LODE_ERROR);
  g_assert_true (error->code == LODE_ERROR_INVALID_ARGUMENT ||
                 error->code == LODE_ERROR_UNSUPPORTED);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
}

static void
check_search_options (GVariant *dict)
{
  LodeSearchOptions options;
  g_autofree char *language = NULL;
  g_autofree char *path_glob = NULL;
  g_autoptr(GError) error = NULL;

  if (!lode_search_options_from_variant (dict, &options, &language, &path_glob, &error))
    {
      check_refusal (error);
      g_assert_null (language);
      g_assert_null (path_glob);
      return;
    }

  g_assert_no_error (error);
  g_assert_cmpuint (options.limit, >=, 1);
  g_assert_cmpuint (options.limit, <=, LODE_SEARCH_MAX_LIMIT);
  g_assert_true (isfinite (options.min_score));
  g_assert_cmpfloat (options.min_score, >=, 0);
  g_assert_cmpfloat (options.min_score, <=, 1);
  g_assert_true (options.language == language);
  g_assert_true (options.path_glob == path_glob);
  g_assert_true (language == NULL || strlen (language) <= 4096);
  g_assert_true (path_glob == NULL || strlen (path_glob) <= 4096);
  g_assert_true (options.mode == LODE_SEARCH_MODE_HYBRID ||
                 options.mode == LODE_SEARCH_MODE_LEXICAL ||
                 options.mode == LODE_SEARCH_MODE_SEMANTIC);
}

static void
check_config (GVariant *dict)
{
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeConfig) again = NULL;
  g_autoptr(GVariant) back = NULL;
  g_autoptr(GError) error = NULL;

  config = lode_config_from_variant (dict, defaults, &error);
  if (config == NULL)
    {
      check_refusal (error);
      return;
    }

  g_assert_no_error (error);
  g_assert_true (g_path_is_absolute (config->data_dir));
  g_assert_cmpuint (config->chunk_max_tokens, >=, 64);
  g_assert_cmpuint (config->chunk_max_tokens, <=, 8192);
  g_assert_cmpuint (config->index_threads, <=, 64);

  back = g_variant_ref_sink (lode_config_to_variant (config));
  again = lode_config_from_variant (back, defaults, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again->data_dir, ==, config->data_dir);
  g_assert_cmpstr (again->embedding_provider, ==, config->embedding_provider);
  g_assert_cmpstr (again->embedding_model, ==, config->embedding_model);
  g_assert_cmpuint (again->max_file_size, ==, config->max_file_size);
  g_assert_cmpuint (again->chunk_max_tokens, ==, config->chunk_max_tokens);
  g_assert_cmpuint (again->index_threads, ==, config->index_threads);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GVariant) untrusted = NULL;
  g_autoptr(GVariant) dict = NULL;

  /* GDBus hands handlers dictionaries in normal form: so does this harness. */
  untrusted = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE_VARDICT, bytes,
                                                            FALSE));
  dict = g_variant_get_normal_form (untrusted);

  check_search_options (dict);
  check_config (dict);

  return 0;
}
