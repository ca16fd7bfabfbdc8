/* lode-secret.h — API keys in the Secret Service (libsecret)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libsecret/secret.h>

G_BEGIN_DECLS

const SecretSchema *lode_secret_get_schema         (void);
gboolean            lode_secret_provider_is_valid  (const char           *provider);
char               *lode_secret_dup_env_api_key    (const char           *provider);

void                lode_secret_store_async        (const char           *provider,
                                                    const char           *api_key,
                                                    const char           *collection,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean            lode_secret_store_finish       (GAsyncResult         *result,
                                                    GError              **error);
void                lode_secret_lookup_async       (const char           *provider,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
char               *lode_secret_lookup_finish      (GAsyncResult         *result,
                                                    GError              **error);
void                lode_secret_clear_async        (const char           *provider,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean            lode_secret_clear_finish       (GAsyncResult         *result,
                                                    GError              **error);
void                lode_secret_dup_api_key_async  (const char           *provider,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
char               *lode_secret_dup_api_key_finish (GAsyncResult         *result,
                                                    GError              **error);

G_END_DECLS
