/* test-helpers.h — waiting for async results, capturing logs and temporary trees in tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

void          test_result_cb     (GObject       *object,
                                  GAsyncResult  *result,
                                  gpointer       user_data);
GAsyncResult *test_wait_result   (GAsyncResult **result);
guint         test_timeout_seconds          (guint seconds);
void          test_kill_descendants_at_exit (void);
void          test_capture_logs  (void);
void          test_logs_clear    (void);
guint         test_logs_count    (void);
gboolean      test_logs_contain  (const char    *needle);

const char   *test_tiny_bert_dir   (void);
JsonArray    *test_tiny_bert_cases (JsonParser    *parser);
void          test_remove_tree     (const char    *path);
void          test_write_file      (const char    *root,
                                    const char    *relative,
                                    const char    *contents);
void          test_write_bytes     (const char    *root,
                                    const char    *relative,
                                    const char    *contents,
                                    gssize         length);
void          test_copy_tree       (const char    *from,
                                    const char    *to);
char         *test_artifact_states (JsonObject    *list);
char         *test_po_catalog      (guint          n_entries,
                                    guint          every);

G_END_DECLS
