/* lode-store-private.h — what the parts of the SQLite store share
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

/*
 * The SQLite store in parts, each calling only those below it:
 *
 *   lode-store.c            the object: opening (schema, damage, versions), the file's life
 *                           (install, copy, remove, check), the interfaces wired to the parts
 *   lode-store-files.c      files, chunks and declarations, meta, counts
 *   lode-store-graph.c      imports and their resolution, the import graph
 *   lode-store-calls.c      call sites and their resolution, the call graph
 *   lode-store-backend.c    the searcher's rows (LodeSearchBackend), over -rank and -vectors
 *   lode-store-rank.c       the lexical leg: MATCH expressions, BM25 functions, their caches
 *   lode-store-vectors.c    vectors by text and model
 *   lode-store-symbols.c    what the symbol tools read, references
 *   lode-store-artifacts.c  context artifacts
 *   lode-store-trigrams.c   the files' trigrams (codebase_grep): their keys, segments, folds
 *   lode-store-trigrams-find.c  their look-ups (-private.h: what the two share)
 *   lode-store-tokenizer.c  FTS5: the code tokenizer; what the chunking threads prepare
 *   lode-store-db.c         the connection: errors and damage, statements, transactions
 */

/* The name the code tokenizer is registered under on each connection (lode-store-tokenizer.c):
 * `tokenize = 'lode_code'`. */
#define LODE_STORE_TOKENIZER "lode_code"

typedef struct _LodeStoreRank LodeStoreRank;
typedef struct _LodeStoreTrigramCache LodeStoreTrigramCache;
typedef struct _LodeStoreTrigramBatch LodeStoreTrigramBatch;

struct _LodeStore
{
  GObject        parent_instance;
  sqlite3       *db;
  char          *filename;
  GHashTable    *statements;     /* SQL text (its address) → sqlite3_stmt */
  GString       *sig;            /* scratch buffer for the FTS sig column */
  GHashTable    *ref_names;      /* name → id in ref_names, for the writer */
  GCancellable  *cancellable;    /* (nullable): of the search running now */
  char          *reset_reason;   /* (nullable): why lode_store_open() started a new index */
  LodeStoreRank *rank;           /* the ranking functions' state, see lode-store-rank.c */
  LodeStoreTrigramCache *trigram_cache; /* (nullable): what look-ups learnt, see
                                         * lode-store-trigrams.c */
  LodeStoreTrigramBatch *trigram_batch; /* (nullable): the files put in the open
                                         * transaction, see lode-store-trigrams.c */
  guint          was_reset : 1;
  guint          in_transaction : 1;
  guint          in_read : 1;    /* a search's snapshot, see backend_begin_read() */
  guint          read_only : 1;
  guint          damaged : 1;
  guint          unjournaled : 1; /* lode_store_open_aside() until lode_store_end_aside() */
};

/* The schema, in the parts that own the tables; lode-store.c creates it. */
extern const char _lode_store_files_schema_sql[];
extern const char _lode_store_graph_schema_sql[];
extern const char _lode_store_calls_schema_sql[];
extern const char _lode_store_vectors_schema_sql[];
extern const char _lode_store_symbols_schema_sql[];
extern const char _lode_store_artifacts_schema_sql[];
extern const char _lode_store_trigrams_schema_sql[];

/* The indexes only look-ups need, which a new index gets when its first run ends
 * (_lode_store_create_lookup_indexes()). */
extern const char _lode_store_files_lookup_sql[];
extern const char _lode_store_graph_lookup_sql[];
extern const char _lode_store_symbols_lookup_sql[];
extern const char _lode_store_vectors_lookup_sql[];

/* The statements each part prepares when the store opens, for _lode_store_stmt(). */
extern const char * const _lode_store_db_sql[];
extern const char * const _lode_store_files_sql[];
extern const char * const _lode_store_graph_sql[];
extern const char * const _lode_store_calls_sql[];
extern const char * const _lode_store_vectors_sql[];
extern const char * const _lode_store_backend_sql[];

/* Each part wires its functions into the interfaces. */
void          _lode_store_files_init     (LodeIndexStoreInterface    *iface);
gboolean      _lode_store_files_set_meta (LodeStore                  *self,
                                          const char                 *key,
                                          const char                 *value,
                                          GError                    **error);
gboolean      _lode_store_files_end_first_run (LodeStore             *self,
                                               GError               **error);
void          _lode_store_graph_init     (LodeIndexStoreInterface    *iface);
void          _lode_store_calls_init     (LodeIndexStoreInterface    *iface);
void          _lode_store_vectors_init   (LodeIndexStoreInterface    *iface);
void          _lode_store_symbols_init   (LodeIndexStoreInterface    *iface);
gboolean      _lode_store_put_symbol_spans (LodeStore                *self,
                                            gint64                    file_id,
                                            GPtrArray                *symbols,
                                            GError                  **error);
void          _lode_store_artifacts_init (LodeIndexStoreInterface    *iface);
void          _lode_store_trigrams_init  (LodeIndexStoreInterface    *iface);
void          _lode_store_backend_init   (LodeSearchBackendInterface *iface);
void          _lode_store_rank_init      (LodeSearchBackendInterface *iface);

/* The connection (lode-store-db.c). */
gboolean      _lode_store_set_error      (LodeStore          *self,
                                          int                 rc,
                                          GError            **error,
                                          const char         *what);
gboolean      _lode_store_is_damage      (int                 rc);
gboolean      _lode_store_is_bad_database (int                rc);
char         *_lode_store_damage_mark_path (const char        *filename);
void          _lode_store_mark_damaged   (const char         *filename,
                                          const char         *message);
char         *_lode_store_dup_damage     (const char         *filename);
char         *_lode_store_dup_quick_check (sqlite3           *db,
                                          int                *rc);
gboolean      _lode_store_prepare        (LodeStore          *self,
                                          const char * const *sql,
                                          gboolean           *bad,
                                          GError            **error);
sqlite3_stmt *_lode_store_stmt           (LodeStore          *self,
                                          const char         *sql);
sqlite3_stmt *_lode_store_statement      (LodeStore          *self,
                                          const char         *sql,
                                          GError            **error);
gboolean      _lode_store_run            (LodeStore          *self,
                                          sqlite3_stmt       *s,
                                          GError            **error,
                                          const char         *what);
void          _lode_store_append_fts5_string (GString        *query,
                                              const char     *text);
gboolean      _lode_store_step_count     (LodeStore          *self,
                                          sqlite3_stmt       *s,
                                          guint              *count,
                                          GError            **error);
void          _lode_store_set_cancellable (LodeStore         *self,
                                           GCancellable      *cancellable,
                                           gboolean           interrupt);
gboolean      _lode_store_begin          (LodeStore          *self,
                                          GError            **error);
gboolean      _lode_store_commit         (LodeStore          *self,
                                          GError            **error);
void          _lode_store_rollback       (LodeStore          *self);
gboolean      _lode_store_read_begin     (LodeStore          *self,
                                          gboolean           *own,
                                          GError            **error);
gboolean      _lode_store_read_end       (LodeStore          *self,
                                          gboolean            own,
                                          GError            **error);
gboolean      _lode_store_lookup_file_id (LodeStore          *self,
                                          const char         *path,
                                          gint64             *id,
                                          GError            **error);

gboolean      _lode_store_create_lookup_indexes (LodeStore   *self,
                                                 GError     **error);

typedef gboolean (*LodeStoreWrite) (LodeStore      *self,
                                    gconstpointer   data,
                                    GError        **error);

gboolean      _lode_store_write_alone    (LodeStore          *self,
                                          LodeStoreWrite      func,
                                          gconstpointer       data,
                                          GError            **error);

/* The import graph's rows of a file that goes (lode-store-graph.c). */
gboolean      _lode_store_delete_file_graph (LodeStore       *self,
                                             gint64           id,
                                             GError         **error);

/* The call graph's rows of a file that goes or is put again, and of every file
 * (lode-store-calls.c). */
gboolean      _lode_store_delete_file_calls (LodeStore       *self,
                                             gint64           id,
                                             GError         **error);
gboolean      _lode_store_clear_calls    (LodeStore          *self,
                                          GError            **error);
/* A file's trigrams (lode-store-trigrams.c): forgotten before its chunks go, put after
 * its chunks; those put in a transaction are written when it commits, or discarded. */
gboolean      _lode_store_trigrams_forget_file (LodeStore    *self,
                                                gint64        file_id,
                                                GError      **error);
void          _lode_store_trigrams_record      (GByteArray   *out,
                                                GPtrArray    *chunks);
gboolean      _lode_store_trigrams_put_file    (LodeStore    *self,
                                                gint64        file_id,
                                                GPtrArray    *chunks,
                                                GError      **error);
gboolean      _lode_store_trigrams_flush       (LodeStore    *self,
                                                GError      **error);
void          _lode_store_trigrams_discard     (LodeStore    *self);
gboolean      _lode_store_trigrams_merge       (LodeStore    *self,
                                                gboolean      all,
                                                GError      **error);
void          _lode_store_trigram_batch_free   (LodeStoreTrigramBatch *batch);
void          _lode_store_trigram_cache_free   (LodeStoreTrigramCache *cache);

/* Vectors (lode-store-vectors.c), for the searcher's rows too. */
GArray       *_lode_store_read_ids       (LodeStore          *self,
                                          sqlite3_stmt       *s,
                                          GError            **error);
gint64        _lode_store_get_data_version (LodeStore        *self);
GArray       *_lode_store_dup_chunk_ids  (LodeStore          *self,
                                          const char         *language,
                                          const char         *path_glob,
                                          GError            **error);
gboolean      _lode_store_get_vector_dims (LodeStore         *self,
                                           const char        *model,
                                           guint             *dims,
                                           GError           **error);
gboolean      _lode_store_load_vectors   (LodeStore          *self,
                                          const char         *model,
                                          guint               dims,
                                          LodeVectorCursor   *cursor,
                                          LodeVectorFunc      func,
                                          gpointer            user_data,
                                          GError            **error);

/* FTS5 (lode-store-tokenizer.c) and the functions registered on each connection. */
fts5_api     *_lode_store_get_fts5       (sqlite3            *db,
                                          GError            **error);
gboolean      _lode_store_register_tokenizer (sqlite3        *db,
                                              GError        **error);
gboolean      _lode_store_rank_may_hold  (LodeStore          *self,
                                          const char         *text);
gboolean      _lode_store_register_rank  (LodeStore          *self,
                                          GError            **error);
gboolean      _lode_store_register_artifacts (LodeStore      *self,
                                              GError        **error);

/* Tokens prepared on another thread and replayed by the writer's inserts
 * (lode-store-tokenizer.c). */
typedef enum
{
  LODE_STORE_TOKENS_CODE = 1,
  LODE_STORE_TOKENS_TRIGRAMS,
} LodeStoreTokensKind;

typedef int (*LodeStoreTokenFunc)    (void          *ctx,
                                      int            flags,
                                      const char    *token,
                                      int            len,
                                      int            start,
                                      int            end);
typedef int (*LodeStoreTokenizeFunc) (Fts5Tokenizer *tokenizer,
                                      void          *ctx,
                                      int            flags,
                                      const char    *text,
                                      int            len,
                                      LodeStoreTokenFunc x_token);

void          _lode_store_tokens_record  (GByteArray         *out,
                                          LodeStoreTokensKind kind,
                                          LodeStoreTokenizeFunc tokenize,
                                          const char         *text,
                                          gsize               len);
void          _lode_store_tokens_record_code (GByteArray     *out,
                                              const char     *text,
                                              gsize           len);
void          _lode_store_tokens_record_raw (GByteArray         *out,
                                             LodeStoreTokensKind kind,
                                             gconstpointer       data,
                                             gsize               size);
gboolean      _lode_store_tokens_take    (LodeStoreTokensKind kind,
                                          gconstpointer      *data,
                                          gsize              *size);
void          _lode_store_tokens_begin   (GBytes             *prepared);
void          _lode_store_tokens_end     (const char         *path);
gboolean      _lode_store_tokens_replay  (LodeStoreTokensKind kind,
                                          const char         *text,
                                          int                 len,
                                          void               *ctx,
                                          LodeStoreTokenFunc  x_token,
                                          int                *rc);

/* The lexical leg's state (lode-store-rank.c), per connection. */
LodeStoreRank *_lode_store_rank_new      (void);
void           _lode_store_rank_free     (LodeStoreRank      *rank);

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
