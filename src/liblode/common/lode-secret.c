/* lode-secret.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-secret"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-secret.h"

/**
 * lode_secret_get_schema:
 *
 * Returns: the one schema Lode stores its keys under: `io.github.lode.Lode.ApiKey`, with
 *   the attribute `provider` ("openai", "qdrant", …)
 */
const SecretSchema *
lode_secret_get_schema (void)
{
  static const SecretSchema schema = {
    "io.github.lode.Lode.ApiKey", SECRET_SCHEMA_NONE,
    {
      { "provider", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };

  return &schema;
}

/**
 * lode_secret_provider_is_valid:
 * @provider: a provider name
 *
 * Returns: whether @provider is a name Lode stores keys for: 1 to 32 lower-case ASCII
 *   letters, digits and dashes
 */
gboolean
lode_secret_provider_is_valid (const char *provider)
{
  gsize len;

  if (provider == NULL)
    return FALSE;

  len = strlen (provider);
  if (len == 0 || len > 32)
    return FALSE;

  for (gsize i = 0; i < len; i++)
    if (!g_ascii_islower (provider[i]) && !g_ascii_isdigit (provider[i]) && provider[i] != '-')
      return FALSE;

  return TRUE;
}

/**
 * lode_secret_dup_env_api_key:
 * @provider: a provider name
 *
 * The key from the environment, which overrides the Secret Service: `LODE_<PROVIDER>_API_KEY`,
 * then `<PROVIDER>_API_KEY` (so `OPENAI_API_KEY` works as in other tools).
 *
 * Returns: (transfer full) (nullable): the key, or %NULL when neither variable is set
 */
char *
lode_secret_dup_env_api_key (const char *provider)
{
  g_autofree char *upper = NULL;
  g_autofree char *ours = NULL;
  g_autofree char *theirs = NULL;
  const char *value;

  g_return_val_if_fail (provider != NULL, NULL);

  upper = g_ascii_strup (provider, -1);
  g_strdelimit (upper, "-", '_');
  ours = g_strconcat ("LODE_", upper, "_API_KEY", NULL);
  theirs = g_strconcat (upper, "_API_KEY", NULL);

  value = g_getenv (ours);
  if (value == NULL || *value == '\0')
    value = g_getenv (theirs);
  if (value == NULL || *value == '\0')
    return NULL;

  return g_strdup (value);
}

static gboolean
check_provider (GTask      *task,
                const char *provider)
{
  if (lode_secret_provider_is_valid (provider))
    return TRUE;

  g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                           "Invalid provider name “%s” (lower-case letters, digits and dashes)",
                           provider);
  return FALSE;
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!secret_password_store_finish (result, &error))
    {
      g_prefix_error (&error, "Cannot store the API key in the Secret Service: ");
      g_task_return_error (task, error);
    }
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * lode_secret_store_async:
 * @provider: a provider name ("openai")
 * @api_key: the key; it replaces any stored one
 * @collection: (nullable): a collection alias or path; %NULL for the default (login) keyring
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the key is stored
 * @user_data: data for @callback
 */
void
lode_secret_store_async (const char          *provider,
                         const char          *api_key,
                         const char          *collection,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *label = NULL;

  g_return_if_fail (provider != NULL);
  g_return_if_fail (api_key != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_secret_store_async);
  if (!check_provider (task, provider))
    return;

  if (*api_key == '\0' || !g_utf8_validate (api_key, -1, NULL))
    {
      g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                               "The API key is empty or not valid UTF-8");
      return;
    }

  label = g_strdup_printf ("Lode API key for %s", provider);
  secret_password_store (lode_secret_get_schema (), collection, label, api_key, cancellable,
                         store_cb, g_steal_pointer (&task),
                         "provider", provider,
                         NULL);
}

gboolean
lode_secret_store_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  char *secret;

  secret = secret_password_lookup_finish (result, &error);
  if (error != NULL)
    {
      g_prefix_error (&error, "Cannot read the API key from the Secret Service: ");
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, secret, (GDestroyNotify) secret_password_free);
}

/**
 * lode_secret_lookup_async:
 * @provider: a provider name
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * Reads the stored key of @provider from the Secret Service.
 */
void
lode_secret_lookup_async (const char          *provider,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (provider != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_secret_lookup_async);
  if (!check_provider (task, provider))
    return;

  secret_password_lookup (lode_secret_get_schema (), cancellable, lookup_cb,
                          g_steal_pointer (&task),
                          "provider", provider,
                          NULL);
}

/**
 * lode_secret_lookup_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the key (free it with secret_password_free()), or
 *   %NULL: with @error set on failure, without when no key is stored
 */
char *
lode_secret_lookup_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  gboolean removed;

  removed = secret_password_clear_finish (result, &error);
  if (error != NULL)
    {
      g_prefix_error (&error, "Cannot remove the API key from the Secret Service: ");
      g_task_return_error (task, error);
    }
  else
    g_task_return_boolean (task, removed);
}

/**
 * lode_secret_clear_async:
 * @provider: a provider name
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * Removes the stored key of @provider.
 */
void
lode_secret_clear_async (const char          *provider,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (provider != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_secret_clear_async);
  if (!check_provider (task, provider))
    return;

  secret_password_clear (lode_secret_get_schema (), cancellable, clear_cb,
                         g_steal_pointer (&task),
                         "provider", provider,
                         NULL);
}

/**
 * lode_secret_clear_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: %TRUE when a key was removed; %FALSE with @error unset when there was none
 */
gboolean
lode_secret_clear_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
dup_api_key_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  char *secret;

  secret = lode_secret_lookup_finish (result, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    {
      /* Copied into g_malloc memory so that callers free it like any string. */
      char *copy = g_strdup (secret);

      secret_password_free (secret);
      g_task_return_pointer (task, copy, g_free);
    }
}

/**
 * lode_secret_dup_api_key_async:
 * @provider: a provider name
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * Finds the key to use for @provider: the environment (lode_secret_dup_env_api_key()) first,
 * then the Secret Service.
 */
void
lode_secret_dup_api_key_async (const char          *provider,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *from_env = NULL;

  g_return_if_fail (provider != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_secret_dup_api_key_async);
  if (!check_provider (task, provider))
    return;

  from_env = lode_secret_dup_env_api_key (provider);
  if (from_env != NULL)
    {
      g_task_return_pointer (task, g_steal_pointer (&from_env), g_free);
      return;
    }

  lode_secret_lookup_async (provider, cancellable, dup_api_key_cb, g_steal_pointer (&task));
}

/**
 * lode_secret_dup_api_key_finish:
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the key, or %NULL (without @error when none is set)
 */
char *
lode_secret_dup_api_key_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
