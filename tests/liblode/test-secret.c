/* test-secret.c — API keys in a real Secret Service (gnome-keyring-daemon, private bus)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "lode.h"
#include "lode-secret.h"
#include "test-helpers.h"

#define KEY_ONE "sk-first-7c1f0e2a9b"
#define KEY_TWO "sk-second-41d5aa03e8"

static gboolean
need_keyring (void)
{
  g_autofree char *daemon = g_find_program_in_path ("gnome-keyring-daemon");

  if (daemon == NULL)
    {
      g_test_skip ("gnome-keyring-daemon is not installed");
      return FALSE;
    }

  /* Installed but not started: the test was run without run-with-keyring.sh. */
  g_assert_cmpstr (g_getenv ("LODE_TEST_SECRET_SERVICE"), ==, "1");
  return TRUE;
}

static void
store (const char *provider,
       const char *key)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  lode_secret_store_async (provider, key, SECRET_COLLECTION_SESSION, NULL, test_result_cb, &result);
  g_assert_true (lode_secret_store_finish (test_wait_result (&result), &error));
  g_assert_no_error (error);
}

static char *
lookup (const char *provider)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *secret;
  char *copy;

  lode_secret_lookup_async (provider, NULL, test_result_cb, &result);
  secret = lode_secret_lookup_finish (test_wait_result (&result), &error);
  g_assert_no_error (error);
  copy = g_strdup (secret);
  secret_password_free (secret);
  return copy;
}

static gboolean
clear (const char *provider)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean removed;

  lode_secret_clear_async (provider, NULL, test_result_cb, &result);
  removed = lode_secret_clear_finish (test_wait_result (&result), &error);
  g_assert_no_error (error);
  return removed;
}

static char *
dup_api_key (const char *provider)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *key;

  lode_secret_dup_api_key_async (provider, NULL, test_result_cb, &result);
  key = lode_secret_dup_api_key_finish (test_wait_result (&result), &error);
  g_assert_no_error (error);
  return key;
}

static void
test_store_lookup_clear (void)
{
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *other = NULL;
  g_autofree char *gone = NULL;
  g_autofree char *missing = NULL;

  if (!need_keyring ())
    return;

  test_logs_clear ();
  missing = lookup ("openai");
  g_assert_null (missing);

  store ("openai", KEY_ONE);
  first = lookup ("openai");
  g_assert_cmpstr (first, ==, KEY_ONE);

  /* Storing again replaces the key; other providers are separate. */
  store ("openai", KEY_TWO);
  store ("qdrant", KEY_ONE);
  second = lookup ("openai");
  g_assert_cmpstr (second, ==, KEY_TWO);

  g_assert_true (clear ("openai"));
  g_assert_false (clear ("openai"));
  gone = lookup ("openai");
  g_assert_null (gone);
  other = lookup ("qdrant");
  g_assert_cmpstr (other, ==, KEY_ONE);
  g_assert_true (clear ("qdrant"));

  g_assert_false (test_logs_contain (KEY_ONE));
  g_assert_false (test_logs_contain (KEY_TWO));
}

static void
test_environment_overrides (void)
{
  g_autofree char *from_keyring = NULL;
  g_autofree char *from_openai_var = NULL;
  g_autofree char *from_lode_var = NULL;

  if (!need_keyring ())
    return;

  g_unsetenv ("OPENAI_API_KEY");
  g_unsetenv ("LODE_OPENAI_API_KEY");
  store ("openai", KEY_ONE);
  from_keyring = dup_api_key ("openai");
  g_assert_cmpstr (from_keyring, ==, KEY_ONE);

  g_setenv ("OPENAI_API_KEY", "sk-from-openai-var", TRUE);
  from_openai_var = dup_api_key ("openai");
  g_assert_cmpstr (from_openai_var, ==, "sk-from-openai-var");

  g_setenv ("LODE_OPENAI_API_KEY", "sk-from-lode-var", TRUE);
  from_lode_var = dup_api_key ("openai");
  g_assert_cmpstr (from_lode_var, ==, "sk-from-lode-var");

  g_unsetenv ("OPENAI_API_KEY");
  g_unsetenv ("LODE_OPENAI_API_KEY");
  g_assert_true (clear ("openai"));
}

static void
test_invalid_provider (void)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  /* Checked before the Secret Service is contacted, so this runs everywhere. */
  g_assert_false (lode_secret_provider_is_valid (""));
  g_assert_false (lode_secret_provider_is_valid ("OpenAI"));
  g_assert_false (lode_secret_provider_is_valid ("open ai"));
  g_assert_true (lode_secret_provider_is_valid ("openai"));

  lode_secret_store_async ("../x", "k", SECRET_COLLECTION_SESSION, NULL, test_result_cb, &result);
  g_assert_false (lode_secret_store_finish (test_wait_result (&result), &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
}

int
main (int   argc,
      char *argv[])
{
  test_capture_logs ();
  /* No G_TEST_OPTION_ISOLATE_DIRS: the keyring daemon was started with this HOME and
   * XDG_RUNTIME_DIR (temporary ones, made by run-with-keyring.sh). */
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lode/secret/store-lookup-clear", test_store_lookup_clear);
  g_test_add_func ("/lode/secret/environment-overrides", test_environment_overrides);
  g_test_add_func ("/lode/secret/invalid-provider", test_invalid_provider);

  return g_test_run ();
}
