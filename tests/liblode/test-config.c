/* test-config.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "lode.h"

static void
clear_env (void)
{
  g_unsetenv ("LODE_MAX_FILE_SIZE");
  g_unsetenv ("LODE_CHUNK_MAX_TOKENS");
  g_unsetenv ("LODE_INDEX_THREADS");
  g_unsetenv ("LODE_WATCH_DEBOUNCE_MSEC");
  g_unsetenv ("LODE_EXTRA_EXTENSIONS");
  g_unsetenv ("LODE_DATA_DIR");
  g_unsetenv ("LODE_EMBEDDING_PROVIDER");
  g_unsetenv ("LODE_EMBEDDING_MODEL");
  g_unsetenv ("LODE_VECTOR_INT8");
  g_unsetenv ("SOCRATICODE_LINKED_PROJECTS");
  g_unsetenv ("LODE_BRANCH_AWARE");
}

static void
test_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autofree char *expected_dir = g_build_filename (g_get_user_data_dir (), "lode", NULL);

  clear_env ();
  config = lode_config_load (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (config->max_file_size, ==, 2 * 1024 * 1024);
  g_assert_cmpuint (config->chunk_max_tokens, ==, LODE_CHUNKER_DEFAULT_MAX_TOKENS);
  g_assert_cmpuint (config->index_threads, ==, 0);
  g_assert_cmpuint (lode_config_get_threads (config), >=, 1);
  g_assert_cmpstr (config->data_dir, ==, expected_dir);
  g_assert_cmpstr (config->embedding_provider, ==, "builtin");
  g_assert_null (config->embedding_model);
  g_assert_true (config->vector_int8);
  g_assert_false (config->branch_aware);
  /* The schema's watch delay is the one the watcher and the README name. */
  g_assert_cmpuint (config->watch_debounce_msec, ==, LODE_WATCH_DEFAULT_DEBOUNCE_MSEC);
  g_assert_cmpuint (config->watch_debounce_msec, ==, 100);
}

static void
test_gsettings (void)
{
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = NULL;

  /* tests/meson.build points GSETTINGS_SCHEMA_DIR at the compiled schema of the build tree
   * and selects the memory backend. */
  clear_env ();
  settings = g_settings_new ("io.github.lode.Lode");
  g_settings_set_uint64 (settings, "max-file-size", 12345);
  g_settings_set_uint (settings, "chunk-max-tokens", 300);
  /* The Preferences window's watch delay. */
  g_settings_set_uint (settings, "watch-debounce-msec", 750);

  config = lode_config_load (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (config->max_file_size, ==, 12345);
  g_assert_cmpuint (config->chunk_max_tokens, ==, 300);
  g_assert_cmpuint (config->watch_debounce_msec, ==, 750);

  /* The environment wins over GSettings. */
  g_setenv ("LODE_MAX_FILE_SIZE", "4k", TRUE);
  g_clear_pointer (&config, lode_config_free);
  config = lode_config_load (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (config->max_file_size, ==, 4096);
  g_assert_cmpuint (config->chunk_max_tokens, ==, 300);

  g_settings_reset (settings, "max-file-size");
  g_settings_reset (settings, "chunk-max-tokens");
  g_settings_reset (settings, "watch-debounce-msec");
  clear_env ();
}

static void
test_env (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = NULL;

  clear_env ();
  g_setenv ("LODE_MAX_FILE_SIZE", "3M", TRUE);
  g_setenv ("LODE_CHUNK_MAX_TOKENS", "256", TRUE);
  g_setenv ("LODE_INDEX_THREADS", "3", TRUE);
  g_setenv ("LODE_DATA_DIR", "/tmp/lode-test-data", TRUE);
  g_setenv ("LODE_EXTRA_EXTENSIONS", ".tpl=html, .pyx=python", TRUE);
  g_setenv ("SOCRATICODE_LINKED_PROJECTS", " ../lib , ,/src/api,", TRUE);

  config = lode_engine_load_config (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (config->max_file_size, ==, 3 * 1024 * 1024);
  g_assert_cmpuint (config->chunk_max_tokens, ==, 256);
  g_assert_cmpuint (lode_config_get_threads (config), ==, 3);
  g_assert_cmpstr (config->data_dir, ==, "/tmp/lode-test-data");
  g_assert_cmpstr (lode_language_for_path ("views/page.tpl")->id, ==, "html");
  g_assert_cmpstr (lode_language_for_path ("fast.pyx")->id, ==, "python");
  g_assert_cmpstrv (config->linked_projects, ((const char *[]) { "../lib", "/src/api", NULL }));
  clear_env ();
}

static void
test_env_invalid (void)
{
  static const struct {
    const char *name;
    const char *value;
  } cases[] = {
    { "LODE_MAX_FILE_SIZE", "lots" },
    { "LODE_MAX_FILE_SIZE", "0" },
    { "LODE_MAX_FILE_SIZE", "12q" },
    { "LODE_CHUNK_MAX_TOKENS", "10" },
    { "LODE_CHUNK_MAX_TOKENS", "-5" },
    { "LODE_INDEX_THREADS", "1000" },
    { "LODE_EXTRA_EXTENSIONS", ".foo=klingon" },
    { "LODE_EXTRA_EXTENSIONS", ".foo" },
    { "LODE_EMBEDDING_PROVIDER", "cohere" },
    { "LODE_VECTOR_INT8", "maybe" },
    { "LODE_BRANCH_AWARE", "yes" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LodeConfig) config = NULL;

      clear_env ();
      g_setenv (cases[i].name, cases[i].value, TRUE);
      config = lode_engine_load_config (&error);
      g_assert_null (config);
      g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
      /* The message names the culprit so that a user can fix it. */
      g_assert_nonnull (strstr (error->message, cases[i].value));
    }
  clear_env ();
}

/* Embedding settings (issue #4): GSettings, then the environment; an empty model is the
 * provider's default. */
static void
test_embedding (void)
{
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeConfig) copy = NULL;

  clear_env ();
  settings = g_settings_new ("io.github.lode.Lode");
  g_settings_set_string (settings, "embedding-provider", "ollama");
  g_settings_set_string (settings, "embedding-model", "nomic-embed-text");
  g_settings_set_boolean (settings, "vector-int8", FALSE);
  config = lode_config_load (&error);
  g_assert_no_error (error);
  g_assert_cmpstr (config->embedding_provider, ==, "ollama");
  g_assert_cmpstr (config->embedding_model, ==, "nomic-embed-text");
  g_assert_false (config->vector_int8);

  g_setenv ("LODE_EMBEDDING_PROVIDER", "none", TRUE);
  g_setenv ("LODE_EMBEDDING_MODEL", "", TRUE);
  g_setenv ("LODE_VECTOR_INT8", "1", TRUE);
  g_setenv ("LODE_BRANCH_AWARE", "1", TRUE);
  g_clear_pointer (&config, lode_config_free);
  config = lode_config_load (&error);
  g_assert_no_error (error);
  g_assert_cmpstr (config->embedding_provider, ==, "none");
  g_assert_null (config->embedding_model);
  g_assert_true (config->vector_int8);
  g_assert_true (config->branch_aware);

  g_setenv ("LODE_EMBEDDING_MODEL", "gte-small", TRUE);
  g_clear_pointer (&config, lode_config_free);
  config = lode_config_load (&error);
  g_assert_no_error (error);
  copy = lode_config_copy (config);
  g_assert_cmpstr (copy->embedding_provider, ==, "none");
  g_assert_cmpstr (copy->embedding_model, ==, "gte-small");

  g_settings_reset (settings, "embedding-provider");
  g_settings_reset (settings, "embedding-model");
  g_settings_reset (settings, "vector-int8");
  clear_env ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/config/defaults", test_defaults);
  g_test_add_func ("/lode/config/gsettings", test_gsettings);
  g_test_add_func ("/lode/config/env", test_env);
  g_test_add_func ("/lode/config/env-invalid", test_env_invalid);
  g_test_add_func ("/lode/config/embedding", test_embedding);

  return g_test_run ();
}
