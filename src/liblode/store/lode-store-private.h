/* lode-store-private.h — what the store's modules share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sqlite3.h>

#include "lode-grep-query.h"
#include "lode-store.h"

G_BEGIN_DECLS

/* Tables of the symbol tools (lode-store-symbols.c), created with the rest of the schema. */
extern const char _lode_store_symbols_schema_sql[];
/* Context artifacts (lode-store-artifacts.c). */
extern const char _lode_store_artifacts_schema_sql[];
/* The chunks' trigrams, for codebase_grep (lode-store-trigrams.c). */
extern const char _lode_store_trigrams_schema_sql[];

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

gboolean      _lode_store_register_trigrams    (sqlite3      *db,
                                                GError      **error);
gboolean      _lode_store_trigrams_forget_file (LodeStore    *self,
                                                gint64        file_id,
                                                GError      **error);
gboolean      _lode_store_trigrams_put_file    (LodeStore    *self,
                                                gint64        file_id,
                                                GPtrArray    *chunks,
                                                GError      **error);
GPtrArray    *_lode_store_find_text_files      (LodeStore            *self,
                                                const LodeGrepQuery  *query,
                                                GError              **error);

/* The lexical leg (lode-store-rank.c): its ranking functions, registered on each
 * connection, and their state. */
typedef struct _LodeStoreRank LodeStoreRank;

LodeStoreRank *_lode_store_rank_new        (void);
void           _lode_store_rank_free       (LodeStoreRank            *rank);
LodeStoreRank *_lode_store_get_rank        (LodeStore                *self);
gboolean       _lode_store_register_rank   (LodeStore                *self,
                                            GError                  **error);
gboolean       _lode_store_lexical         (LodeSearchBackend        *backend,
                                            const LodeLexicalQuery   *query,
                                            const LodeSearchFilter   *filter,
                                            guint                     limit,
                                            GCancellable             *cancellable,
                                            GArray                   *hits,
                                            double                   *weight,
                                            GError                  **error);
gboolean       _lode_store_score_lexical   (LodeSearchBackend        *backend,
                                            const LodeLexicalQuery   *query,
                                            const gint64             *chunk_ids,
                                            guint                     n_chunks,
                                            double                   *scores,
                                            GError                  **error);
gboolean       _lode_store_doc_frequencies (LodeSearchBackend        *backend,
                                            const char *const        *terms,
                                            guint                     n_terms,
                                            guint                    *counts,
                                            guint                    *n_chunks,
                                            GError                  **error);

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
