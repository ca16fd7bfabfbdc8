/* lode-store-private.h — what the store's modules share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "lode-index-store.h"
#include "lode-search-backend.h"
#include "lode-store.h"

G_BEGIN_DECLS

/* The name the code tokenizer is registered under on each connection (lode-store-tokenizer.c):
 * `tokenize = 'lode_code'`. */
#define LODE_STORE_TOKENIZER "lode_code"

fts5_api     *_lode_store_get_fts5           (sqlite3  *db,
                                              GError  **error);
gboolean      _lode_store_register_tokenizer (sqlite3  *db,
                                              GError  **error);

/* Tables of the symbol tools (lode-store-symbols.c), created with the rest of the schema. */
extern const char _lode_store_symbols_schema_sql[];
/* Context artifacts (lode-store-artifacts.c). */
extern const char _lode_store_artifacts_schema_sql[];

gboolean      _lode_store_begin         (LodeStore   *self,
                                         GError     **error);
gboolean      _lode_store_commit        (LodeStore   *self,
                                         GError     **error);
void          _lode_store_rollback      (LodeStore   *self);
gint64        _lode_store_get_data_version (LodeStore *self);
GArray       *_lode_store_dup_chunk_ids (LodeStore   *self,
                                         const char  *language,
                                         const char  *path_glob,
                                         GError     **error);

/* Each part wires its functions into the interfaces. */
void          _lode_store_symbols_init   (LodeIndexStoreInterface *iface);
void          _lode_store_artifacts_init (LodeIndexStoreInterface *iface);
gboolean      _lode_store_register_artifacts (LodeStore *self,
                                              GError   **error);

sqlite3      *_lode_store_get_db        (LodeStore   *self);
void          _lode_store_set_cancellable (LodeStore    *self,
                                           GCancellable *cancellable,
                                           gboolean      interrupt);
GHashTable   *_lode_store_get_ref_names (LodeStore   *self);
gboolean      _lode_store_set_error     (LodeStore   *self,
                                         int          rc,
                                         GError     **error,
                                         const char  *what);
sqlite3_stmt *_lode_store_statement     (LodeStore   *self,
                                         const char  *sql,
                                         GError     **error);

/* The lexical leg (lode-store-rank.c): its ranking functions, registered on each
 * connection, and their state. */
typedef struct _LodeStoreRank LodeStoreRank;

LodeStoreRank *_lode_store_rank_new        (void);
void           _lode_store_rank_free       (LodeStoreRank            *rank);
LodeStoreRank *_lode_store_get_rank        (LodeStore                *self);
gboolean       _lode_store_register_rank   (LodeStore                *self,
                                            GError                  **error);
void           _lode_store_rank_init       (LodeSearchBackendInterface *iface);

/* Binds @text, or NULL as SQL NULL. */
static inline void
bind_text (sqlite3_stmt *s,
           int           idx,
           const char   *text)
{
  if (text != NULL)
    sqlite3_bind_text (s, idx, text, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null (s, idx);
}

/* A copy of a text column, NULL for SQL NULL. */
static inline char *
dup_column_text (sqlite3_stmt *s,
                 int           col)
{
  return g_strdup ((const char *) sqlite3_column_text (s, col));
}

G_END_DECLS
