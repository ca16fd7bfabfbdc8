/* lode-store.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The index database: one SQLite connection per LodeStore.
 *
 * Threads: a LodeStore may be used from any thread, but by one thread at a time; the
 * connection is opened with SQLITE_OPEN_NOMUTEX and its prepared statements are shared state.
 * The indexer opens its own store to write; searches open another one. WAL lets readers see
 * the last committed batch while the writer goes on.
 *
 * Schema: `files` (one row per indexed file), `chunks` (line ranges and metadata, no text),
 * `symbols` (declarations, each pointing at the chunk that holds its first line) and the FTS5
 * table `chunks_fts` (rowid = chunks.id) holding the searchable text: the symbol name, `sig`
 * (signature, doc comment, container, context), the file path and the content. The content
 * lives only there, so it is stored once.
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "lode-code-tokenizer.h"
#include "lode-error.h"
#include "lode-search-private.h"
#include "lode-index-store.h"
#include "lode-store-private.h"
#include "lode-store.h"

static const char schema_sql[] =
  "CREATE TABLE IF NOT EXISTS meta ("
  "  key TEXT PRIMARY KEY,"
  "  value TEXT"
  ") WITHOUT ROWID;"
  "CREATE TABLE IF NOT EXISTS files ("
  "  id INTEGER PRIMARY KEY,"
  "  path TEXT NOT NULL UNIQUE,"
  "  language TEXT NOT NULL,"
  "  hash TEXT,"
  "  size INTEGER NOT NULL,"
  "  mtime INTEGER NOT NULL,"
  "  n_lines INTEGER NOT NULL"
  ");"
  "CREATE TABLE IF NOT EXISTS chunks ("
  "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  file_id INTEGER NOT NULL,"
  "  start_line INTEGER NOT NULL,"
  "  end_line INTEGER NOT NULL,"
  "  kind TEXT,"
  "  symbol TEXT,"
  "  container TEXT,"
  "  signature TEXT,"
  "  hash TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS chunks_file ON chunks (file_id, start_line);"
  "CREATE TABLE IF NOT EXISTS symbols ("
  "  id INTEGER PRIMARY KEY,"
  "  file_id INTEGER NOT NULL,"
  "  chunk_id INTEGER,"
  "  name TEXT NOT NULL,"
  "  kind TEXT,"
  "  container TEXT,"
  "  start_line INTEGER NOT NULL,"
  "  end_line INTEGER NOT NULL,"
  "  signature TEXT,"
  "  package TEXT,"
  "  detail TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS symbols_name ON symbols (name COLLATE NOCASE);"
  "CREATE INDEX IF NOT EXISTS symbols_file ON symbols (file_id);"
  "CREATE INDEX IF NOT EXISTS symbols_chunk ON symbols (chunk_id);"
  "CREATE INDEX IF NOT EXISTS symbols_package ON symbols (package);"
  "CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5 ("
  "  symbol, sig, path, body,"
  "  tokenize = '" LODE_CODE_TOKENIZER_NAME "'"
  ");";

/* Vectors (issue #4). chunks.hash is the SHA-1 of the chunk's text (NULL for a blank chunk,
 * which is never embedded) and chunk ids are never reused (AUTOINCREMENT), so that an
 * in-memory matrix keyed by chunk id can be brought up to date incrementally. A vector
 * belongs to a text and a model, not to a chunk: identical text is embedded once, a chunk
 * that moves (or a file that is renamed) keeps its vector, and vectors of different models
 * never mix. `seq` grows with every vector stored, for the same incremental loading.
 * Vectors are float32 in host byte order (the index is a local cache). */
static const char vector_schema_sql[] =
  "CREATE INDEX IF NOT EXISTS chunks_hash ON chunks (hash);"
  "CREATE TABLE IF NOT EXISTS vectors ("
  "  seq INTEGER PRIMARY KEY AUTOINCREMENT,"
  "  model TEXT NOT NULL,"
  "  hash TEXT NOT NULL,"
  "  dims INTEGER NOT NULL,"
  "  vector BLOB NOT NULL,"
  "  UNIQUE (model, hash)"
  ");";

/* Import graph (issue #6). `imports` holds what a file's own parse found, so it changes only
 * when the file does; `edges` holds where each import resolves: one row per project file it
 * reaches (a Go package or a wildcard reaches several), or one row with the external package,
 * or one row with neither while unresolved; edges change when files come and go.
 * Targets are paths, not file ids: an import may point at a file stored later in the same
 * run, and a deleted file's id may be reused. `key` is the resolver's candidate key: adding
 * or removing a file re-resolves only the imports whose key that file could satisfy; `name`
 * is what resolution needs besides the specifier (Python's `from a import b`). */
static const char graph_schema_sql[] =
  "CREATE TABLE IF NOT EXISTS imports ("
  "  id INTEGER PRIMARY KEY,"
  "  file_id INTEGER NOT NULL,"
  "  specifier TEXT NOT NULL,"
  "  name TEXT,"
  "  kind TEXT,"
  "  line INTEGER NOT NULL,"
  "  key TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS imports_file ON imports (file_id);"
  "CREATE INDEX IF NOT EXISTS imports_key ON imports (key);"
  "CREATE TABLE IF NOT EXISTS edges ("
  "  id INTEGER PRIMARY KEY,"
  "  import_id INTEGER NOT NULL,"
  "  from_id INTEGER NOT NULL,"
  "  to_path TEXT,"
  "  package TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS edges_import ON edges (import_id);"
  "CREATE INDEX IF NOT EXISTS edges_from ON edges (from_id);"
  "CREATE INDEX IF NOT EXISTS edges_to ON edges (to_path);";

typedef enum
{
  GSTMT_IMPORTS_DELETE_FILE,
  GSTMT_EDGES_DELETE_FILE,
  GSTMT_EDGES_UNLINK_PATH,
  GSTMT_IMPORT_INSERT,
  GSTMT_EDGE_INSERT,
  GSTMT_EDGES_DELETE_IMPORT,
  GSTMT_IMPORT_FILE,
  GSTMT_IMPORTS_BY_KEY,
  GSTMT_IMPORTS_BY_TARGET,
  GSTMT_IMPORTS_OF_FILE,
  GSTMT_IMPORTS_ALL,
  GSTMT_GRAPH_FILES,
  GSTMT_GRAPH_EDGES,
  GSTMT_GRAPH_COUNTS,
  GSTMT_CLEAR_IMPORTS,
  GSTMT_CLEAR_EDGES,
  GSTMT_CLEAR_HASHES,
  N_GRAPH_STMTS
} GraphStmt;

/* One row per edge: the rows of an import are adjacent in every ORDER BY below. */
#define IMPORT_COLUMNS \
  "i.id, f.path, i.specifier, i.name, i.kind, i.line, i.key, e.to_path, e.package " \
  "FROM imports i JOIN files f ON f.id = i.file_id LEFT JOIN edges e ON e.import_id = i.id "

static const char *const graph_stmt_sql[N_GRAPH_STMTS] = {
  [GSTMT_IMPORTS_DELETE_FILE] = "DELETE FROM imports WHERE file_id = ?1",
  [GSTMT_EDGES_DELETE_FILE] = "DELETE FROM edges WHERE from_id = ?1",
  [GSTMT_EDGES_UNLINK_PATH] = "UPDATE edges SET to_path = NULL WHERE to_path = ?1",
  [GSTMT_IMPORT_INSERT] =
    "INSERT INTO imports (file_id, specifier, name, kind, line, key) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  /* VALUES, not INSERT … SELECT: a statement that may write several rows opens a statement
   * savepoint, and FTS5 flushes its pending terms to a new segment at every savepoint. */
  [GSTMT_EDGE_INSERT] =
    "INSERT INTO edges (import_id, from_id, to_path, package) VALUES (?1, ?2, ?3, ?4)",
  [GSTMT_IMPORT_FILE] = "SELECT file_id FROM imports WHERE id = ?1",
  [GSTMT_EDGES_DELETE_IMPORT] = "DELETE FROM edges WHERE import_id = ?1",
  [GSTMT_IMPORTS_BY_KEY] = "SELECT " IMPORT_COLUMNS "WHERE i.key = ?1 ORDER BY i.id, e.id",
  [GSTMT_IMPORTS_BY_TARGET] =
    "SELECT " IMPORT_COLUMNS
    "WHERE i.id IN (SELECT import_id FROM edges WHERE to_path = ?1) ORDER BY i.id, e.id",
  [GSTMT_IMPORTS_OF_FILE] =
    "SELECT " IMPORT_COLUMNS "WHERE f.path = ?1 ORDER BY i.line, i.id, e.id",
  [GSTMT_IMPORTS_ALL] = "SELECT " IMPORT_COLUMNS "ORDER BY i.id, e.id",
  [GSTMT_GRAPH_FILES] = "SELECT id, path, language FROM files ORDER BY path",
  [GSTMT_GRAPH_EDGES] = "SELECT from_id, to_path, package FROM edges "
                        "WHERE to_path IS NOT NULL OR package IS NOT NULL",
  [GSTMT_GRAPH_COUNTS] =
    "SELECT (SELECT count(*) FROM imports), "
    "count(DISTINCT CASE WHEN to_path IS NOT NULL THEN import_id END), "
    "count(DISTINCT CASE WHEN to_path IS NULL AND package IS NOT NULL THEN import_id END) "
    "FROM edges",
  [GSTMT_CLEAR_IMPORTS] = "DELETE FROM imports",
  [GSTMT_CLEAR_EDGES] = "DELETE FROM edges",
  [GSTMT_CLEAR_HASHES] = "UPDATE files SET hash = NULL",
};

typedef enum
{
  VSTMT_READ_BEGIN,
  VSTMT_READ_END,
  VSTMT_DATA_VERSION,
  VSTMT_TODO,
  VSTMT_COUNT_HASH,
  VSTMT_INSERT,
  VSTMT_DIMS,
  VSTMT_COUNT_EMBEDDED,
  VSTMT_COUNT_EMBEDDABLE,
  VSTMT_CURSOR,
  VSTMT_LOAD,
  VSTMT_CHUNK_IDS,
  VSTMT_FILTER_IDS,
  VSTMT_DELETE_OTHER_MODELS,
  VSTMT_COUNT_VECTORS,
  VSTMT_COUNT_ORPHANS,
  VSTMT_DELETE_ORPHANS,
  N_VECTOR_STMTS
} VectorStmt;

static const char *const vector_stmt_sql[N_VECTOR_STMTS] = {
  [VSTMT_READ_BEGIN] = "BEGIN",
  [VSTMT_READ_END] = "COMMIT",
  [VSTMT_DATA_VERSION] = "PRAGMA data_version",
  /* The text is read for the chunks chosen only: a join let SQLite walk chunks_fts first,
   * every row of it for every batch. */
  [VSTMT_TODO] =
    "SELECT c.id, c.hash, (SELECT body FROM chunks_fts WHERE rowid = c.id) FROM chunks c "
    "WHERE c.id > ?2 AND c.hash IS NOT NULL AND NOT EXISTS "
    "(SELECT 1 FROM vectors v WHERE v.model = ?1 AND v.hash = c.hash) ORDER BY c.id LIMIT ?3",
  [VSTMT_COUNT_HASH] = "SELECT count(*) FROM chunks WHERE hash = ?1",
  [VSTMT_INSERT] =
    "INSERT OR IGNORE INTO vectors (model, hash, dims, vector) VALUES (?1, ?2, ?3, ?4)",
  [VSTMT_DIMS] = "SELECT dims FROM vectors WHERE model = ?1 LIMIT 1",
  [VSTMT_COUNT_EMBEDDED] =
    "SELECT count(*) FROM chunks c WHERE c.hash IS NOT NULL AND EXISTS "
    "(SELECT 1 FROM vectors v WHERE v.model = ?1 AND v.hash = c.hash)",
  [VSTMT_COUNT_EMBEDDABLE] = "SELECT count(*) FROM chunks WHERE hash IS NOT NULL",
  [VSTMT_CURSOR] =
    "SELECT (SELECT ifnull (max (id), 0) FROM chunks), "
    "(SELECT ifnull (max (seq), 0) FROM vectors)",
  [VSTMT_LOAD] =
    "SELECT c.id, v.vector FROM chunks c JOIN vectors v ON v.model = ?1 AND v.hash = c.hash "
    "WHERE c.id > ?2 AND c.id <= ?4 AND v.seq <= ?5 "
    "UNION ALL "
    "SELECT c.id, v.vector FROM vectors v JOIN chunks c ON c.hash = v.hash "
    "WHERE v.model = ?1 AND v.seq > ?3 AND v.seq <= ?5 AND c.id <= ?2",
  [VSTMT_CHUNK_IDS] = "SELECT id FROM chunks WHERE hash IS NOT NULL ORDER BY id",
  [VSTMT_FILTER_IDS] =
    "SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id "
    "WHERE (?1 IS NULL OR f.language = ?1 COLLATE NOCASE) "
    "AND (?2 IS NULL OR lode_glob (?2, f.path)) ORDER BY c.id",
  [VSTMT_DELETE_OTHER_MODELS] = "DELETE FROM vectors WHERE model != ?1",
  [VSTMT_COUNT_VECTORS] = "SELECT count(*) FROM vectors WHERE model = ?1",
  [VSTMT_COUNT_ORPHANS] =
    "SELECT count(*) FROM vectors v WHERE v.model = ?1 AND NOT EXISTS "
    "(SELECT 1 FROM chunks c WHERE c.hash = v.hash)",
  [VSTMT_DELETE_ORPHANS] =
    "DELETE FROM vectors WHERE seq IN (SELECT v.seq FROM vectors v WHERE v.model = ?1 AND "
    "NOT EXISTS (SELECT 1 FROM chunks c WHERE c.hash = v.hash) ORDER BY v.seq LIMIT ?2)",
};

typedef enum
{
  STMT_BEGIN,
  STMT_COMMIT,
  STMT_ROLLBACK,
  STMT_FILE_ID,
  STMT_FILE_INSERT,
  STMT_FILE_UPDATE,
  STMT_FILE_DELETE,
  STMT_FTS_DELETE_FILE,
  STMT_CHUNKS_DELETE_FILE,
  STMT_SYMBOLS_DELETE_FILE,
  STMT_REFS_DELETE_FILE,
  STMT_CHUNK_INSERT,
  STMT_FTS_INSERT,
  STMT_SYMBOL_INSERT,
  STMT_HASHES,
  STMT_META_GET,
  STMT_META_SET,
  STMT_STATS_FILES,
  STMT_STATS_CHUNKS,
  STMT_STATS_SYMBOLS,
  STMT_LANGUAGES,
  STMT_FILE_CHUNKS,
  STMT_SYMBOL_LOOKUP,
  STMT_CHUNK_SYMBOLS,
  STMT_CHUNK_META,
  STMT_BODY,
  STMT_FIND_PATHS,
  STMT_FILE_PATH,
  N_STMTS
} Stmt;

static const char *const stmt_sql[N_STMTS] = {
  [STMT_BEGIN] = "BEGIN IMMEDIATE",
  [STMT_COMMIT] = "COMMIT",
  [STMT_ROLLBACK] = "ROLLBACK",
  [STMT_FILE_ID] = "SELECT id FROM files WHERE path = ?1",
  [STMT_FILE_INSERT] =
    "INSERT INTO files (path, language, hash, size, mtime, n_lines) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  [STMT_FILE_UPDATE] =
    "UPDATE files SET language = ?2, hash = ?3, size = ?4, mtime = ?5, n_lines = ?6 "
    "WHERE id = ?1",
  [STMT_FILE_DELETE] = "DELETE FROM files WHERE id = ?1",
  [STMT_FTS_DELETE_FILE] =
    "DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE file_id = ?1)",
  [STMT_CHUNKS_DELETE_FILE] = "DELETE FROM chunks WHERE file_id = ?1",
  [STMT_SYMBOLS_DELETE_FILE] = "DELETE FROM symbols WHERE file_id = ?1",
  [STMT_REFS_DELETE_FILE] = "DELETE FROM refs WHERE file_id = ?1",
  [STMT_CHUNK_INSERT] =
    "INSERT INTO chunks (file_id, start_line, end_line, kind, symbol, container, signature, "
    "hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
  [STMT_FTS_INSERT] =
    "INSERT INTO chunks_fts (rowid, symbol, sig, path, body) VALUES (?1, ?2, ?3, ?4, ?5)",
  [STMT_SYMBOL_INSERT] =
    "INSERT INTO symbols (file_id, chunk_id, name, kind, container, start_line, end_line, "
    "signature, package, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
  [STMT_HASHES] = "SELECT path, hash FROM files",
  [STMT_META_GET] = "SELECT value FROM meta WHERE key = ?1",
  [STMT_META_SET] = "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
  [STMT_STATS_FILES] = "SELECT count(*), total(size), total(n_lines) FROM files",
  [STMT_STATS_CHUNKS] = "SELECT count(*) FROM chunks",
  [STMT_STATS_SYMBOLS] = "SELECT count(*) FROM symbols",
  [STMT_LANGUAGES] = "SELECT language, count(*) FROM files GROUP BY language",
  [STMT_FILE_CHUNKS] =
    "SELECT c.start_line, c.end_line, c.kind, c.symbol, c.container, c.signature, fts.body, "
    "fts.sig "
    "FROM chunks c JOIN chunks_fts fts ON fts.rowid = c.id "
    "WHERE c.file_id = (SELECT id FROM files WHERE path = ?1) "
    "ORDER BY c.start_line, c.end_line",
  [STMT_SYMBOL_LOOKUP] =
    "SELECT chunk_id, name, kind, container, signature, start_line, end_line FROM symbols "
    "WHERE name = ?1 COLLATE NOCASE AND chunk_id IS NOT NULL LIMIT ?2",
  [STMT_CHUNK_SYMBOLS] =
    "SELECT chunk_id, name, kind, container, signature, start_line, end_line FROM symbols "
    "WHERE chunk_id = ?1 "
    "ORDER BY start_line, end_line DESC",
  /* The rows of a JSON array of chunk ids, in one statement (a question loads 600). */
  [STMT_CHUNK_META] =
    "SELECT c.start_line, c.end_line, c.kind, c.symbol, c.container, c.file_id, f.path, "
    "f.language, c.signature, c.id FROM json_each (?1) j JOIN chunks c ON c.id = j.value "
    "JOIN files f ON f.id = c.file_id",
  [STMT_BODY] = "SELECT body FROM chunks_fts WHERE rowid = ?1",
  [STMT_FIND_PATHS] =
    "SELECT f.id, f.path, f.language, "
    "(SELECT c.id FROM chunks c WHERE c.file_id = f.id ORDER BY c.start_line LIMIT 1) "
    "FROM files f WHERE f.path LIKE ?1 ESCAPE '\\' "
    "AND (?2 IS NULL OR f.language = ?2 COLLATE NOCASE) "
    "AND (?3 IS NULL OR lode_glob (?3, f.path))",
  [STMT_FILE_PATH] = "SELECT path FROM files WHERE id = ?1",
};

struct _LodeStore
{
  GObject        parent_instance;
  sqlite3       *db;
  char          *filename;
  sqlite3_stmt  *stmts[N_STMTS];
  sqlite3_stmt  *graph_stmts[N_GRAPH_STMTS];
  sqlite3_stmt  *vector_stmts[N_VECTOR_STMTS];
  GString       *sig;            /* scratch buffer for the FTS sig column */
  GHashTable    *extra_stmts;    /* SQL text → sqlite3_stmt, see _lode_store_statement() */
  GHashTable    *ref_names;      /* name → id in ref_names, for the writer */
  GCancellable  *cancellable;    /* (nullable): of the search running now */
  char          *reset_reason;   /* (nullable): why lode_store_open() started a new index */
  LodeStoreRank *rank;           /* the ranking functions' state, see lode-store-rank.c */
  guint          was_reset : 1;
  guint          in_transaction : 1;
  guint          in_read : 1;    /* a search's snapshot, see store_begin_read() */
  guint          read_only : 1;
  guint          damaged : 1;
};

static void lode_store_index_store_init    (LodeIndexStoreInterface    *iface);
static void lode_store_search_backend_init (LodeSearchBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeStore, lode_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_INDEX_STORE,
                                                      lode_store_index_store_init)
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_SEARCH_BACKEND,
                                                      lode_store_search_backend_init))

static void
lode_store_close (LodeStore *self)
{
  for (guint i = 0; i < N_STMTS; i++)
    g_clear_pointer (&self->stmts[i], sqlite3_finalize);
  for (guint i = 0; i < N_GRAPH_STMTS; i++)
    g_clear_pointer (&self->graph_stmts[i], sqlite3_finalize);
  for (guint i = 0; i < N_VECTOR_STMTS; i++)
    g_clear_pointer (&self->vector_stmts[i], sqlite3_finalize);
  g_hash_table_remove_all (self->extra_stmts);
  g_hash_table_remove_all (self->ref_names);
  g_clear_pointer (&self->db, sqlite3_close_v2);
  self->in_transaction = FALSE;
  g_clear_pointer (&self->rank, _lode_store_rank_free);
}

static void
lode_store_finalize (GObject *object)
{
  LodeStore *self = (LodeStore *)object;

  lode_store_close (self);
  g_free (self->reset_reason);
  g_clear_pointer (&self->filename, g_free);
  g_string_free (self->sig, TRUE);
  g_hash_table_unref (self->extra_stmts);
  g_hash_table_unref (self->ref_names);

  G_OBJECT_CLASS (lode_store_parent_class)->finalize (object);
}

static void
lode_store_class_init (LodeStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_store_finalize;
}

static void
finalize_statement (gpointer statement)
{
  sqlite3_finalize (statement);
}

static void
lode_store_init (LodeStore *self)
{
  self->sig = g_string_sized_new (256);
  self->extra_stmts = g_hash_table_new_full (NULL, NULL, NULL, finalize_statement);
  self->ref_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}


static gboolean
is_cancelled (LodeStore *self)
{
  return self->cancellable != NULL && g_cancellable_is_cancelled (self->cancellable);
}

/* SQLite codes that mean the file itself is broken, rather than busy, full or unreadable. */
static gboolean
is_damage (int rc)
{
  return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB;
}

static char *
damage_mark_path (const char *filename)
{
  return g_strconcat (filename, "-damaged", NULL);
}

/* Leaves a mark beside the database saying why it is damaged; best effort. */
static void
mark_damaged (const char *filename,
              const char *message)
{
  g_autofree char *mark = damage_mark_path (filename);
  g_autoptr(GError) error = NULL;

  if (!g_file_test (mark, G_FILE_TEST_EXISTS) &&
      !g_file_set_contents (mark, message, -1, &error))
    g_warning ("Cannot mark %s as damaged: %s", filename, error->message);
}

/* Why the index at @filename was marked damaged, or NULL. */
static char *
dup_damage (const char *filename)
{
  g_autofree char *mark = damage_mark_path (filename);
  char *message = NULL;

  if (!g_file_get_contents (mark, &message, NULL, NULL))
    return NULL;

  return g_strstrip (message);
}

/* Runs `PRAGMA quick_check` on @db: the first few problems it lists, or NULL. *@rc is
 * SQLITE_OK, or the error that stopped the check (SQLITE_CORRUPT on a page it cannot read). */
static char *
dup_quick_check (sqlite3 *db,
                 int     *rc)
{
  g_autoptr(GString) problems = NULL;
  sqlite3_stmt *s = NULL;

  *rc = sqlite3_prepare_v2 (db, "PRAGMA quick_check(4)", -1, &s, NULL);
  while (*rc == SQLITE_OK && (*rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      const char *row = (const char *) sqlite3_column_text (s, 0);
      const char *line;

      *rc = SQLITE_OK;
      if (row == NULL || g_str_equal (row, "ok"))
        continue;
      /* The first problem comes after "*** in database main ***\n". */
      if (g_str_has_prefix (row, "***") && (line = strchr (row, '\n')) != NULL)
        row = line + 1;
      if (problems == NULL)
        problems = g_string_new ("quick_check: ");
      else
        g_string_append (problems, "; ");
      /* One problem a line, and one message on one line. */
      for (; *row != '\0'; row++)
        if (*row == '\n')
          g_string_append (problems, "; ");
        else
          g_string_append_c (problems, *row);
    }
  sqlite3_finalize (s);
  if (*rc == SQLITE_DONE)
    *rc = SQLITE_OK;

  return problems != NULL ? g_string_free (g_steal_pointer (&problems), FALSE) : NULL;
}

/* The errno of the read or write that failed. SQLite turns most into a mere I/O error and
 * keeps the errno in the file it was working on, the index or its journal (the WAL): not in
 * the error, and errno itself is gone by the time the statement returns. */
static int
failed_errno (sqlite3 *db)
{
  sqlite3_file *journal = NULL;
  int found = 0;

  if (sqlite3_file_control (db, "main", SQLITE_FCNTL_LAST_ERRNO, &found) == SQLITE_OK &&
      found != 0)
    return found;
  if (sqlite3_file_control (db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &journal) == SQLITE_OK &&
      journal != NULL && journal->pMethods != NULL &&
      journal->pMethods->xFileControl (journal, SQLITE_FCNTL_LAST_ERRNO, &found) == SQLITE_OK)
    return found;
  return 0;
}

static gboolean
set_db_error (LodeStore   *self,
              int          rc,
              GError     **error,
              const char  *what)
{
  const char *message = self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc);
  int sys_errno = (rc & 0xff) == SQLITE_IOERR && self->db != NULL ? failed_errno (self->db) : 0;

  if (rc == SQLITE_INTERRUPT && is_cancelled (self))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Search cancelled");
  else if ((rc & 0xff) == SQLITE_FULL || sys_errno == ENOSPC)
    {
      g_autofree char *dir = g_path_get_dirname (self->filename);

      /* What was committed before stays whole and searchable; the next run resumes. */
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: the disk is full where the index "
                   "is kept (%s): free some space and index again to complete it", what, dir);
    }
  else if (sys_errno == EDQUOT)
    {
      g_autofree char *dir = g_path_get_dirname (self->filename);

      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: the disk quota is used up where "
                   "the index is kept (%s): free some space or raise the quota, and index "
                   "again to complete it", what, dir);
    }
  else if (sys_errno == EFBIG)
    {
      g_autofree char *dir = g_path_get_dirname (self->filename);

      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: the file-size limit is reached "
                   "where the index is kept (%s): raise it (ulimit -f) and index again to "
                   "complete it", what, dir);
    }
  else if (sys_errno != 0)
    g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: %s (%s)", what, message,
                 g_strerror (sys_errno));
  else if (is_damage (rc))
    {
      /* Whoever opens the index next, reader or writer, learns it from the mark. */
      self->damaged = TRUE;
      mark_damaged (self->filename, message);
      g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED, "%s: the index is damaged (%s)",
                   what, message);
    }
  else
    g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: %s", what, message);
  return FALSE;
}

/* Resets and returns a prepared statement. */
static sqlite3_stmt *
stmt (LodeStore *self,
      Stmt       id)
{
  sqlite3_stmt *s = self->stmts[id];

  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
  return s;
}

/* Runs a statement that returns no rows. */
static gboolean
run (LodeStore     *self,
     sqlite3_stmt  *s,
     GError       **error,
     const char    *what)
{
  int rc = sqlite3_step (s);

  sqlite3_reset (s);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    return set_db_error (self, rc, error, what);

  return TRUE;
}

/* For the store's other modules (lode-store-private.h). */

sqlite3 *
_lode_store_get_db (LodeStore *self)
{
  return self->db;
}

LodeStoreRank *
_lode_store_get_rank (LodeStore *self)
{
  return self->rank;
}

static int
progress_cb (void *user_data)
{
  return is_cancelled (user_data);
}

/* While a search runs, set_db_error() reports SQLITE_INTERRUPT as cancelled once
 * @cancellable is; with @interrupt, the statements under way are interrupted then too.
 * NULL when the search is done. */
void
_lode_store_set_cancellable (LodeStore    *self,
                             GCancellable *cancellable,
                             gboolean      interrupt)
{
  self->cancellable = cancellable;
  if (interrupt)
    sqlite3_progress_handler (self->db, cancellable != NULL ? 1000 : 0,
                              cancellable != NULL ? progress_cb : NULL, self);
}

GHashTable *
_lode_store_get_ref_names (LodeStore *self)
{
  return self->ref_names;
}

gboolean
_lode_store_set_error (LodeStore   *self,
                       int          rc,
                       GError     **error,
                       const char  *what)
{
  return set_db_error (self, rc, error, what);
}

/* A statement of another module, prepared once per connection: @sql must be a constant
 * (its address is the key). Returned reset, bindings cleared. */
sqlite3_stmt *
_lode_store_statement (LodeStore   *self,
                       const char  *sql,
                       GError     **error)
{
  sqlite3_stmt *s = g_hash_table_lookup (self->extra_stmts, sql);
  int rc;

  if (s != NULL)
    {
      sqlite3_reset (s);
      sqlite3_clear_bindings (s);
      return s;
    }

  rc = sqlite3_prepare_v3 (self->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL);
  if (rc != SQLITE_OK)
    {
      set_db_error (self, rc, error, "Cannot prepare a statement");
      return NULL;
    }
  g_hash_table_insert (self->extra_stmts, (gpointer) sql, s);
  return s;
}

static void
glob_func (sqlite3_context  *ctx,
           int               argc,
           sqlite3_value   **argv)
{
  const char *pattern = (const char *) sqlite3_value_text (argv[0]);
  const char *path = (const char *) sqlite3_value_text (argv[1]);

  sqlite3_result_int (ctx, pattern != NULL && path != NULL &&
                           lode_search_path_filter_matches (pattern, path));
}

static void
delete_database_files (const char *filename)
{
  static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *path = g_strconcat (filename, suffixes[i], NULL);

      if (g_unlink (path) != 0 && errno != ENOENT)
        g_warning ("Cannot remove %s: %s", path, g_strerror (errno));
    }
}

/* SQLite codes that mean the file is not a usable Lode index (rather than, say, unreadable). */
static gboolean
is_bad_database (int rc)
{
  switch (rc & 0xff)
    {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
    case SQLITE_ERROR:
    case SQLITE_SCHEMA:
    case SQLITE_FORMAT:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Runs @sql, which yields one integer, on a connection that has no prepared statements yet. */
static int
query_int (sqlite3    *db,
           const char *sql,
           int        *value)
{
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &s, NULL);

  if (rc == SQLITE_OK)
    {
      rc = sqlite3_step (s);
      if (rc == SQLITE_ROW)
        {
          *value = sqlite3_column_int (s, 0);
          rc = SQLITE_OK;
        }
    }
  sqlite3_finalize (s);

  return rc;
}

/* Creates the schema in an empty database. Another connection may be doing the same right
 * now (a search opening the index the indexer is creating), hence the IMMEDIATE transaction
 * and the second look at user_version inside it. */
static int
create_schema (sqlite3  *db,
               gboolean *foreign)
{
  int version = 0;
  int n_tables = 0;
  int rc;
  g_autofree char *set_version = g_strdup_printf ("PRAGMA user_version = %d",
                                                  LODE_STORE_SCHEMA_VERSION);

  rc = sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    return rc;

  if ((rc = query_int (db, "PRAGMA user_version", &version)) == SQLITE_OK &&
      (rc = query_int (db, "SELECT count(*) FROM sqlite_master", &n_tables)) == SQLITE_OK)
    {
      if (version == 0 && n_tables > 0)
        *foreign = TRUE;
      else if (version == 0 &&
               (rc = sqlite3_exec (db, schema_sql, NULL, NULL, NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, graph_schema_sql, NULL, NULL, NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, vector_schema_sql, NULL, NULL, NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, _lode_store_symbols_schema_sql, NULL, NULL,
                                   NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, _lode_store_artifacts_schema_sql, NULL, NULL,
                                   NULL)) == SQLITE_OK)
        rc = sqlite3_exec (db, set_version, NULL, NULL, NULL);
    }

  if (rc == SQLITE_OK && !*foreign)
    return sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);

  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return rc;
}

static gboolean
prepare_statements (LodeStore          *self,
                    const char *const  *sql,
                    sqlite3_stmt      **stmts,
                    guint               n_stmts,
                    gboolean           *bad,
                    GError            **error)
{
  for (guint i = 0; i < n_stmts; i++)
    {
      int rc = sqlite3_prepare_v3 (self->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &stmts[i],
                                   NULL);

      if (rc != SQLITE_OK)
        {
          *bad = is_bad_database (rc);
          return set_db_error (self, rc, error, "Cannot prepare a statement");
        }
    }

  return TRUE;
}

/* Opens and checks the database. Sets *@bad (and returns FALSE) when the file is not a Lode
 * index of this schema version, so that the caller may recreate it. */
static gboolean
lode_store_try_open (LodeStore  *self,
                     gboolean   *bad,
                     GError    **error)
{
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  /* Only the writer sets the journal mode (it stays in the file): a reader that opens an
   * index the writer is still creating would otherwise try to switch it to WAL too, and
   * wait on the writer's lock while the writer waits on its own. */
  static const char writer_pragmas[] =
    "PRAGMA journal_mode = WAL;"
    "PRAGMA synchronous = NORMAL;";
  /* Readers map the file: a search reads pages without copying them. The writer does not:
   * every page it had read through the map would stay in its resident memory, which then
   * grew with the index (an index of five copies of git: 160 of its 253 MB); its reads go
   * through the page cache below, bounded. */
  static const char reader_pragmas[] =
    "PRAGMA mmap_size = 268435456;";
  static const char pragmas[] =
    "PRAGMA temp_store = MEMORY;"
    "PRAGMA cache_size = -32768;";
  int version = 0;
  gboolean foreign = FALSE;
  int rc;

  *bad = FALSE;

  /* A reader never creates an index: a missing one is not indexed, not empty. */
  if (!self->read_only)
    flags |= SQLITE_OPEN_CREATE;
  rc = sqlite3_open_v2 (self->filename, &self->db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      *bad = is_damage (rc);
      return set_db_error (self, rc, error, "Cannot open the index");
    }

  sqlite3_extended_result_codes (self->db, FALSE);
  sqlite3_busy_timeout (self->db, 10000);

  g_clear_pointer (&self->rank, _lode_store_rank_free);
  self->rank = _lode_store_rank_new ();
  if (!lode_code_tokenizer_register (self->db, error) ||
      !_lode_store_register_rank (self, error))
    return FALSE;

  rc = sqlite3_create_function (self->db, "lode_glob", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY,
                                NULL, glob_func, NULL, NULL);
  if (rc != SQLITE_OK)
    return set_db_error (self, rc, error, "Cannot register lode_glob()");

  rc = sqlite3_exec (self->db, self->read_only ? reader_pragmas : writer_pragmas, NULL, NULL,
                     NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec (self->db, pragmas, NULL, NULL, NULL);
  if (rc == SQLITE_OK)
    rc = query_int (self->db, "PRAGMA user_version", &version);
  if (rc == SQLITE_OK && version == 0 && !self->read_only)
    rc = create_schema (self->db, &foreign);
  if (rc == SQLITE_OK && version == 0 && !foreign && !self->read_only)
    rc = query_int (self->db, "PRAGMA user_version", &version);

  if (rc != SQLITE_OK)
    {
      *bad = is_bad_database (rc);
      return set_db_error (self, rc, error, "Cannot read the index");
    }

  /* A writer has created the file but not its tables yet. */
  if (self->read_only && version == 0 && !foreign)
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                           "the index is being created");
      return FALSE;
    }

  if (foreign || version != LODE_STORE_SCHEMA_VERSION)
    {
      *bad = TRUE;
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "%s is not a Lode index of schema version %d", self->filename,
                   LODE_STORE_SCHEMA_VERSION);
      return FALSE;
    }

  if (!prepare_statements (self, stmt_sql, self->stmts, N_STMTS, bad, error) ||
      !prepare_statements (self, vector_stmt_sql, self->vector_stmts, N_VECTOR_STMTS, bad,
                           error) ||
      !prepare_statements (self, graph_stmt_sql, self->graph_stmts, N_GRAPH_STMTS, bad, error))
    return FALSE;

  return TRUE;
}

/* Moves a damaged index and its WAL aside (`index.db.damaged-20261125T041800`), so that what
 * it holds can still be looked at, and clears its mark. Returns the new name. */
static char *
keep_aside (const char  *filename,
            GError     **error)
{
  static const char *const suffixes[] = { "", "-wal" };
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%dT%H%M%S");
  g_autofree char *aside = g_strdup_printf ("%s.damaged-%s", filename, stamp);
  g_autofree char *mark = damage_mark_path (filename);

  /* Another one kept in the same second is not replaced. */
  for (guint n = 2; g_file_test (aside, G_FILE_TEST_EXISTS); n++)
    {
      g_free (aside);
      aside = g_strdup_printf ("%s.damaged-%s-%u", filename, stamp, n);
    }

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *from = g_strconcat (filename, suffixes[i], NULL);
      g_autofree char *to = g_strconcat (aside, suffixes[i], NULL);

      if (g_rename (from, to) != 0 && errno != ENOENT)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Cannot keep the damaged index %s aside: %s", from,
                       g_strerror (saved_errno));
          return NULL;
        }
    }
  delete_database_files (filename);
  g_unlink (mark);

  return g_steal_pointer (&aside);
}

/**
 * lode_store_open:
 * @filename: the database file; its directory is created if needed
 * @error: return location for a #GError
 *
 * Opens the index at @filename for writing, creating it if needed. An index of another
 * schema version (or another program's database) is deleted and created anew; a damaged one
 * (corrupt, truncated, or marked damaged by an earlier failure) is kept aside as
 * `FILENAME.damaged-TIME` and created anew. lode_store_get_was_reset() then returns %TRUE and
 * lode_store_get_reset_reason() says why.
 *
 * The store may be used from any thread, one thread at a time.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL on error
 */
LodeStore *
lode_store_open (const char  *filename,
                 GError     **error)
{
  g_autoptr(LodeStore) self = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *damage = NULL;
  gboolean bad = FALSE;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dir = g_path_get_dirname (filename);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Cannot create %s: %s", dir, g_strerror (saved_errno));
      return NULL;
    }

  self = g_object_new (LODE_TYPE_STORE, NULL);
  self->filename = g_strdup (filename);

  damage = dup_damage (filename);
  if (damage == NULL && lode_store_try_open (self, &bad, &local_error))
    return g_steal_pointer (&self);

  lode_store_close (self);
  if (damage == NULL && !bad)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (damage != NULL ||
      g_error_matches (local_error, LODE_ERROR, LODE_ERROR_DAMAGED))
    {
      g_autofree char *aside = keep_aside (filename, error);

      if (aside == NULL)
        return NULL;
      self->reset_reason = g_strdup_printf ("the index was damaged (%s); it was kept as %s "
                                            "and rebuilt from scratch",
                                            damage != NULL ? damage : local_error->message,
                                            aside);
    }
  else
    {
      delete_database_files (filename);
      self->reset_reason = g_strdup_printf ("the index was rebuilt from scratch: %s",
                                            local_error->message);
    }
  g_message ("%s: %s", filename, self->reset_reason);
  g_clear_error (&local_error);
  self->was_reset = TRUE;

  if (!lode_store_try_open (self, &bad, error))
    {
      g_prefix_error (error, "Cannot recreate the index: ");
      return NULL;
    }

  return g_steal_pointer (&self);
}

/**
 * lode_store_open_reader:
 * @filename: the database file
 * @error: return location for a #GError
 *
 * Opens an existing index for searches and status. Unlike lode_store_open(), it never
 * creates, deletes or rebuilds anything: a missing index is %LODE_ERROR_NOT_INDEXED, one of
 * another schema version %LODE_ERROR_STORE, a damaged one %LODE_ERROR_DAMAGED.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL on error
 */
LodeStore *
lode_store_open_reader (const char  *filename,
                        GError     **error)
{
  g_autoptr(LodeStore) self = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *damage = NULL;
  gboolean bad = FALSE;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  damage = dup_damage (filename);
  if (damage != NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED, "the index is damaged (%s)", damage);
      return NULL;
    }

  if (!g_file_test (filename, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED, "there is no index yet");
      return NULL;
    }

  self = g_object_new (LODE_TYPE_STORE, NULL);
  self->filename = g_strdup (filename);
  self->read_only = TRUE;

  if (!lode_store_try_open (self, &bad, &local_error))
    {
      /* An empty file: a writer was killed before it created the schema. */
      if (bad && !g_error_matches (local_error, LODE_ERROR, LODE_ERROR_DAMAGED))
        g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                     "the index was made by another version of Lode (%s); index the "
                     "project again to rebuild it",
                     local_error->message);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  return g_steal_pointer (&self);
}

/* Copies the database @from over @to in one write transaction of @to (SQLite's online
 * backup), so that @to's readers, here or in another process, see the old index until the
 * commit and the new one after it, and a crash before the commit leaves the old one. The
 * file keeps its name, inode, WAL and shared memory: nothing has to be renamed under a
 * connection that pairs them by name. */
static int
copy_database (const char  *from,
               const char  *to,
               char       **message)
{
  sqlite3 *source = NULL;
  sqlite3 *target = NULL;
  sqlite3_backup *backup;
  int rc;

  rc = sqlite3_open_v2 (from, &source, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_open_v2 (to, &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_busy_timeout (target, 10000);
      backup = sqlite3_backup_init (target, "main", source, "main");
      if (backup == NULL)
        rc = sqlite3_errcode (target);
      else
        {
          /* Another writer is kept out by the project's lock; wait ten seconds at most. */
          for (guint tries = 0; tries < 100; tries++)
            {
              rc = sqlite3_backup_step (backup, -1);
              if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
                break;
              sqlite3_sleep (100);
            }
          if (rc == SQLITE_DONE)
            rc = sqlite3_backup_finish (backup);
          else
            sqlite3_backup_finish (backup);
        }
    }
  if (rc == SQLITE_OK)
    sqlite3_wal_checkpoint_v2 (target, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
  else
    *message = g_strdup (target != NULL ? sqlite3_errmsg (target) : sqlite3_errstr (rc));

  sqlite3_close_v2 (target);
  sqlite3_close_v2 (source);
  return rc;
}

/* What `PRAGMA quick_check` finds wrong with the database @filename, or NULL when it finds
 * nothing, or cannot tell (a file it cannot open is left to the caller). */
static char *
dup_file_damage (const char *filename)
{
  sqlite3 *db = NULL;
  char *problems = NULL;
  int rc;

  rc = sqlite3_open_v2 (filename, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_busy_timeout (db, 10000);
      problems = dup_quick_check (db, &rc);
    }
  if (problems == NULL && is_damage (rc))
    problems = g_strdup (sqlite3_errstr (rc));
  sqlite3_close_v2 (db);

  return problems;
}

/**
 * lode_store_install:
 * @from: a complete index, built aside and closed
 * @to: the index to replace, which may be in use by readers
 * @error: return location for a #GError
 *
 * Replaces the index at @to with the one at @from atomically: readers that have @to open
 * answer from the old index until the new one is whole, then from the new one; a crash
 * meanwhile leaves the old one. When @to is missing or damaged (no reader can use it), @from
 * is renamed over it instead of copied; a damaged one (marked so, or found so by `PRAGMA
 * quick_check`) is kept aside as `TO.damaged-TIME` first. @from is deleted afterwards.
 *
 * Returns: %TRUE on success; on failure @to is untouched
 */
gboolean
lode_store_install (const char  *from,
                    const char  *to,
                    GError     **error)
{
  g_autofree char *damage = NULL;
  g_autofree char *message = NULL;
  int rc;

  g_return_val_if_fail (from != NULL && to != NULL, FALSE);

  /* A forced run is how a damaged index is repaired: it is kept aside, as lode_store_open()
   * keeps it, even when no query has come across the damage yet. */
  damage = dup_damage (to);
  if (damage == NULL && g_file_test (to, G_FILE_TEST_IS_REGULAR))
    damage = dup_file_damage (to);
  if (damage == NULL && g_file_test (to, G_FILE_TEST_IS_REGULAR))
    {
      rc = copy_database (from, to, &message);
      if (rc == SQLITE_OK)
        return lode_store_remove_files (from, error);
      if (!is_damage (rc))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                       "Cannot replace the index %s with the one built aside: %s", to, message);
          return FALSE;
        }
      damage = g_steal_pointer (&message);
    }

  if (damage != NULL)
    {
      g_autofree char *aside = keep_aside (to, error);

      if (aside == NULL)
        return FALSE;
      g_message ("%s: the index was damaged (%s); it was kept as %s and replaced by the one "
                 "built aside", to, damage, aside);
    }
  else if (!lode_store_remove_files (to, error))
    return FALSE;
  if (g_rename (from, to) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Cannot move the index built aside to %s: %s", to, g_strerror (saved_errno));
      return FALSE;
    }
  return lode_store_remove_files (from, error);
}

/**
 * lode_store_remove_files:
 * @filename: the database file
 * @error: return location for a #GError
 *
 * Deletes an index (its database, WAL, shared memory and damage mark), to build it anew.
 * Connections still open keep reading the deleted file until they close.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_remove_files (const char  *filename,
                         GError     **error)
{
  static const char *const suffixes[] = { "", "-wal", "-shm", "-journal", "-damaged" };

  g_return_val_if_fail (filename != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *path = g_strconcat (filename, suffixes[i], NULL);

      if (g_unlink (path) != 0 && errno != ENOENT)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Cannot remove %s: %s", path, g_strerror (saved_errno));
          return FALSE;
        }
    }

  return TRUE;
}

/**
 * lode_store_copy_into:
 * @self: a #LodeStore
 * @filename: where the copy goes; replaced if it exists
 * @error: return location for a #GError
 *
 * Copies the index into @filename with `VACUUM INTO`: a consistent snapshot of the last
 * committed state, taken in a read transaction, so a writer of @self may go on meanwhile.
 * The copy is made beside @filename and renamed into place, so that a crash never leaves a
 * half copy that looks like an index. Nothing is chunked or embedded again.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_copy_into (LodeStore   *self,
                      const char  *filename,
                      GError     **error)
{
  g_autofree char *partial = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);

  partial = g_strconcat (filename, ".partial", NULL);
  if (!lode_store_remove_files (partial, error) || !lode_store_remove_files (filename, error))
    return FALSE;

  rc = sqlite3_prepare_v2 (self->db, "VACUUM INTO ?", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, partial, -1, SQLITE_TRANSIENT);
      rc = sqlite3_step (stmt);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_OK && rc != SQLITE_DONE)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Cannot copy %s into %s: %s",
                   self->filename, filename, sqlite3_errmsg (self->db));
      g_unlink (partial);
      return FALSE;
    }

  if (g_rename (partial, filename) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Cannot rename %s to %s: %s", partial, filename, g_strerror (saved_errno));
      g_unlink (partial);
      return FALSE;
    }

  return TRUE;
}

/**
 * lode_store_check:
 * @self: a #LodeStore
 * @error: return location for a #GError
 *
 * Checks the structure of every page of the index (SQLite's `PRAGMA quick_check`), which
 * finds what a query would only find when it reads a broken page: garbled pages of the
 * full-text index, a truncated file. It reads the whole file, and cannot be stopped midway:
 * 0.13 s of CPU for the 110 MB index of git's tree (`PRAGMA integrity_check` takes 0.3 s, and
 * FTS5's 'integrity-check' 1.2 s, which tokenizes every chunk again). A damaged index is
 * marked as when a query finds it (lode_store_is_damaged()): the next lode_store_open() keeps
 * it aside and starts anew.
 *
 * Returns: %TRUE when the index is whole; %FALSE with %LODE_ERROR_DAMAGED when it is not
 */
gboolean
lode_store_check (LodeStore  *self,
                  GError    **error)
{
  g_autofree char *problems = NULL;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);

  /* SQLite 3.40 looks at an interrupt only once the whole file is checked: no cancellable. */
  problems = dup_quick_check (self->db, &rc);
  if (problems == NULL)
    return rc == SQLITE_OK || set_db_error (self, rc, error, "Cannot check the index");

  self->damaged = TRUE;
  mark_damaged (self->filename, problems);
  g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED, "the index is damaged (%s)", problems);
  return FALSE;
}

/**
 * lode_store_is_damaged:
 * @self: a #LodeStore
 *
 * Returns: %TRUE once a query found the database damaged; the connection is of no further use
 */
gboolean
lode_store_is_damaged (LodeStore *self)
{
  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);

  return self->damaged;
}

/**
 * lode_store_get_reset_reason:
 * @self: a #LodeStore
 *
 * Returns: (nullable): why lode_store_open() started a new index, for people; %NULL when it
 *   opened the existing one
 */
const char *
lode_store_get_reset_reason (LodeStore *self)
{
  g_return_val_if_fail (LODE_IS_STORE (self), NULL);

  return self->reset_reason;
}

/**
 * lode_store_get_was_reset:
 * @self: a #LodeStore
 *
 * Returns: %TRUE if lode_store_open() found an unusable index and started a new one
 */
gboolean
lode_store_get_was_reset (LodeStore *self)
{
  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);

  return self->was_reset;
}

/**
 * lode_store_begin:
 * @self: a #LodeStore
 * @error: return location for a #GError
 *
 * Starts a write transaction. Everything up to lode_store_commit() lands at once or, after
 * a crash or lode_store_rollback(), not at all.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_begin (LodeStore  *self,
                  GError    **error)
{
  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (!self->in_transaction, FALSE);

  if (!run (self, stmt (self, STMT_BEGIN), error, "Cannot start a transaction"))
    return FALSE;

  self->in_transaction = TRUE;
  return TRUE;
}

/**
 * lode_store_commit:
 * @self: a #LodeStore
 * @error: return location for a #GError
 *
 * Commits the transaction lode_store_begin() started. On failure it is rolled back.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_commit (LodeStore  *self,
                   GError    **error)
{
  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (self->in_transaction, FALSE);

  if (!run (self, stmt (self, STMT_COMMIT), error, "Cannot commit"))
    {
      lode_store_rollback (self);
      return FALSE;
    }

  self->in_transaction = FALSE;
  return TRUE;
}

/**
 * lode_store_rollback:
 * @self: a #LodeStore
 *
 * Drops everything written since lode_store_begin(). Does nothing outside a transaction.
 */
void
lode_store_rollback (LodeStore *self)
{
  g_return_if_fail (LODE_IS_STORE (self));

  if (!self->in_transaction)
    return;

  /* Fails only when SQLite already rolled back by itself (after an I/O error). */
  if (sqlite3_get_autocommit (self->db) == 0)
    run (self, stmt (self, STMT_ROLLBACK), NULL, NULL);
  self->in_transaction = FALSE;
  /* Names interned in the batch are gone with it. */
  g_hash_table_remove_all (self->ref_names);
}

static gboolean
lookup_file_id (LodeStore  *self,
                const char *path,
                gint64     *id,
                GError    **error)
{
  sqlite3_stmt *s = stmt (self, STMT_FILE_ID);
  int rc;

  bind_text (s, 1, path);
  rc = sqlite3_step (s);
  *id = rc == SQLITE_ROW ? sqlite3_column_int64 (s, 0) : 0;
  sqlite3_reset (s);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return set_db_error (self, rc, error, "Cannot look up a file");

  return TRUE;
}

/* Deletes the chunks, FTS rows and symbols of file @id. */
static gboolean
delete_file_contents (LodeStore  *self,
                      gint64      id,
                      GError    **error)
{
  static const Stmt deletes[] = {
    STMT_FTS_DELETE_FILE, STMT_CHUNKS_DELETE_FILE, STMT_SYMBOLS_DELETE_FILE,
    STMT_REFS_DELETE_FILE
  };

  for (guint i = 0; i < G_N_ELEMENTS (deletes); i++)
    {
      sqlite3_stmt *s = stmt (self, deletes[i]);

      sqlite3_bind_int64 (s, 1, id);
      if (!run (self, s, error, "Cannot delete the old rows of a file"))
        return FALSE;
    }

  return TRUE;
}

typedef struct
{
  guint        start_line;
  guint        end_line;
  gint64       id;
  const char  *symbol;
} ChunkSpan;

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const ChunkSpan *sa = a;
  const ChunkSpan *sb = b;

  if (sa->start_line != sb->start_line)
    return sa->start_line < sb->start_line ? -1 : 1;
  return sa->end_line < sb->end_line ? -1 : sa->end_line > sb->end_line ? 1 : 0;
}

/* The chunk a symbol points at: among the chunks holding @line, the one named after the
 * symbol, else the innermost (latest start). Chunks may overlap a little (line windows), not
 * much, so the backwards walk is short. */
static gint64
find_symbol_chunk (const ChunkSpan *spans,
                   guint            n_spans,
                   guint            line,
                   const char      *name)
{
  guint lo = 0;
  guint hi = n_spans;
  gint64 innermost = 0;

  /* First span starting after @line. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (spans[mid].start_line <= line)
        lo = mid + 1;
      else
        hi = mid;
    }

  for (guint i = lo; i > 0 && lo - i < 64; i--)
    {
      const ChunkSpan *span = &spans[i - 1];

      if (span->end_line < line)
        continue;
      if (name != NULL && g_strcmp0 (span->symbol, name) == 0)
        return span->id;
      if (innermost == 0)
        innermost = span->id;
    }

  if (innermost == 0 && n_spans > 0)
    innermost = spans[lo > 0 ? lo - 1 : 0].id;

  return innermost;
}

static gboolean
put_file_rows (LodeStore      *self,
               gconstpointer   data,
               GPtrArray      *chunks,
               GPtrArray      *symbols,
               GError        **error)
{
  const LodeFileInfo *file = data;
  g_autofree ChunkSpan *spans = NULL;
  sqlite3_stmt *s;
  gint64 file_id = 0;

  if (!lookup_file_id (self, file->path, &file_id, error))
    return FALSE;

  if (file_id != 0)
    {
      if (!delete_file_contents (self, file_id, error))
        return FALSE;
      s = stmt (self, STMT_FILE_UPDATE);
      sqlite3_bind_int64 (s, 1, file_id);
    }
  else
    {
      s = stmt (self, STMT_FILE_INSERT);
      bind_text (s, 1, file->path);
    }

  bind_text (s, 2, file->language != NULL ? file->language : "text");
  bind_text (s, 3, file->hash);
  sqlite3_bind_int64 (s, 4, (sqlite3_int64) file->size);
  sqlite3_bind_int64 (s, 5, file->mtime_usec);
  sqlite3_bind_int64 (s, 6, file->n_lines);
  if (!run (self, s, error, "Cannot store a file"))
    return FALSE;
  if (file_id == 0)
    file_id = sqlite3_last_insert_rowid (self->db);

  spans = g_new (ChunkSpan, chunks != NULL ? chunks->len + 1 : 1);

  for (guint i = 0; chunks != NULL && i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);
      g_autofree char *chunk_hash = NULL;
      gint64 chunk_id;

      s = stmt (self, STMT_CHUNK_INSERT);
      sqlite3_bind_int64 (s, 1, file_id);
      sqlite3_bind_int (s, 2, chunk->start_line);
      sqlite3_bind_int (s, 3, chunk->end_line);
      bind_text (s, 4, chunk->kind);
      bind_text (s, 5, chunk->symbol);
      bind_text (s, 6, chunk->container);
      bind_text (s, 7, chunk->signature);
      chunk_hash = lode_index_store_text_hash (chunk->content);
      bind_text (s, 8, chunk_hash);
      if (!run (self, s, error, "Cannot store a chunk"))
        return FALSE;
      chunk_id = sqlite3_last_insert_rowid (self->db);

      g_string_truncate (self->sig, 0);
      lode_chunk_append_search_text (chunk, self->sig);

      s = stmt (self, STMT_FTS_INSERT);
      sqlite3_bind_int64 (s, 1, chunk_id);
      bind_text (s, 2, chunk->symbol);
      sqlite3_bind_text (s, 3, self->sig->str, self->sig->len, SQLITE_STATIC);
      bind_text (s, 4, file->path);
      bind_text (s, 5, chunk->content != NULL ? chunk->content : "");
      if (!run (self, s, error, "Cannot index a chunk"))
        return FALSE;

      spans[i].start_line = chunk->start_line;
      spans[i].end_line = chunk->end_line;
      spans[i].id = chunk_id;
      spans[i].symbol = chunk->symbol;
    }

  if (chunks != NULL)
    qsort (spans, chunks->len, sizeof (ChunkSpan), compare_spans);

  for (guint i = 0; symbols != NULL && i < symbols->len; i++)
    {
      const LodeSymbol *symbol = g_ptr_array_index (symbols, i);
      gint64 chunk_id;

      if (symbol->name == NULL)
        continue;

      chunk_id = find_symbol_chunk (spans, chunks != NULL ? chunks->len : 0,
                                    symbol->start_line, symbol->name);

      s = stmt (self, STMT_SYMBOL_INSERT);
      sqlite3_bind_int64 (s, 1, file_id);
      if (chunk_id != 0)
        sqlite3_bind_int64 (s, 2, chunk_id);
      bind_text (s, 3, symbol->name);
      bind_text (s, 4, symbol->kind);
      bind_text (s, 5, symbol->container);
      sqlite3_bind_int (s, 6, symbol->start_line);
      sqlite3_bind_int (s, 7, symbol->end_line);
      bind_text (s, 8, symbol->signature);
      bind_text (s, 9, symbol->package);
      bind_text (s, 10, symbol->detail);
      if (!run (self, s, error, "Cannot store a symbol"))
        return FALSE;
    }

  return TRUE;
}

typedef gboolean (*WriteFunc) (LodeStore           *self,
                               gconstpointer        data,
                               GPtrArray           *chunks,
                               GPtrArray           *symbols,
                               GError             **error);

/* Runs @func in a transaction of its own. */
static gboolean
write_alone (LodeStore      *self,
             WriteFunc       func,
             gconstpointer   data,
             GPtrArray      *chunks,
             GPtrArray      *symbols,
             GError        **error)
{
  if (!lode_store_begin (self, error))
    return FALSE;

  if (!func (self, data, chunks, symbols, error))
    {
      lode_store_rollback (self);
      return FALSE;
    }

  return lode_store_commit (self, error);
}

static sqlite3_stmt *graph_stmt (LodeStore *self,
                                 GraphStmt  id);

/* Forgets the imports of file @id and points the edges that led to it nowhere, until they
 * are resolved again. */
static gboolean
delete_file_graph (LodeStore  *self,
                   gint64      id,
                   GError    **error)
{
  g_autofree char *path = NULL;
  sqlite3_stmt *s;

  s = stmt (self, STMT_FILE_PATH);
  sqlite3_bind_int64 (s, 1, id);
  if (sqlite3_step (s) == SQLITE_ROW)
    path = dup_column_text (s, 0);
  sqlite3_reset (s);

  s = graph_stmt (self, GSTMT_IMPORTS_DELETE_FILE);
  sqlite3_bind_int64 (s, 1, id);
  if (!run (self, s, error, "Cannot delete the imports of a file"))
    return FALSE;

  s = graph_stmt (self, GSTMT_EDGES_DELETE_FILE);
  sqlite3_bind_int64 (s, 1, id);
  if (!run (self, s, error, "Cannot delete the edges of a file"))
    return FALSE;

  if (path == NULL)
    return TRUE;

  s = graph_stmt (self, GSTMT_EDGES_UNLINK_PATH);
  bind_text (s, 1, path);

  return run (self, s, error, "Cannot unlink the edges to a file");
}

static gboolean
remove_file_rows (LodeStore      *self,
                  gconstpointer   data,
                  GPtrArray      *chunks,
                  GPtrArray      *symbols,
                  GError        **error)
{
  const gint64 *file_id = data;
  sqlite3_stmt *s;

  if (!delete_file_contents (self, *file_id, error) ||
      !delete_file_graph (self, *file_id, error))
    return FALSE;

  s = stmt (self, STMT_FILE_DELETE);
  sqlite3_bind_int64 (s, 1, *file_id);

  return run (self, s, error, "Cannot delete a file");
}

/**
 * lode_store_put_file:
 * @self: a #LodeStore
 * @file: the file
 * @chunks: (element-type LodeChunk): its chunks
 * @symbols: (nullable) (element-type LodeSymbol): its symbols
 * @error: return location for a #GError
 *
 * Replaces everything stored for @file's path by @chunks and @symbols.
 *
 * Between lode_store_begin() and lode_store_commit() it is part of that batch, and a failure
 * may leave the file half written: the caller must roll the batch back. (There is no
 * savepoint per file: FTS5 flushes its pending terms at every savepoint, which made bulk
 * indexing half as fast.) Outside a batch it runs in a transaction of its own.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_put_file (LodeStore           *self,
                     const LodeFileInfo  *file,
                     GPtrArray           *chunks,
                     GPtrArray           *symbols,
                     GError             **error)
{
  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (file != NULL && file->path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->in_transaction)
    return write_alone (self, put_file_rows, file, chunks, symbols, error);

  if (!put_file_rows (self, file, chunks, symbols, error))
    {
      g_prefix_error (error, "%s: ", file->path);
      return FALSE;
    }

  return TRUE;
}

/**
 * lode_store_remove_file:
 * @self: a #LodeStore
 * @path: the file's path relative to the project root
 * @error: return location for a #GError
 *
 * Removes @path and everything indexed from it. Removing a path that is not in the index
 * succeeds. Transactions work as for lode_store_put_file().
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_remove_file (LodeStore   *self,
                        const char  *path,
                        GError     **error)
{
  gint64 file_id = 0;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!lookup_file_id (self, path, &file_id, error))
    return FALSE;
  if (file_id == 0)
    return TRUE;

  if (!self->in_transaction)
    return write_alone (self, remove_file_rows, &file_id, NULL, NULL, error);

  return remove_file_rows (self, &file_id, NULL, NULL, error);
}

/**
 * lode_store_dup_file_hashes:
 * @self: a #LodeStore
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type utf8 utf8): path → content hash of every file
 */
GHashTable *
lode_store_dup_file_hashes (LodeStore  *self,
                            GError    **error)
{
  g_autoptr(GHashTable) hashes = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  hashes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s = stmt (self, STMT_HASHES);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    g_hash_table_insert (hashes, dup_column_text (s, 0), dup_column_text (s, 1));
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read file hashes");
      return NULL;
    }

  return g_steal_pointer (&hashes);
}

/**
 * lode_store_dup_meta:
 * @self: a #LodeStore
 * @key: the key
 *
 * Returns: (transfer full) (nullable): the value stored under @key
 */
char *
lode_store_dup_meta (LodeStore  *self,
                     const char *key)
{
  sqlite3_stmt *s;
  char *value = NULL;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  s = stmt (self, STMT_META_GET);
  bind_text (s, 1, key);
  if (sqlite3_step (s) == SQLITE_ROW)
    value = dup_column_text (s, 0);
  sqlite3_reset (s);

  return value;
}

/**
 * lode_store_set_meta:
 * @self: a #LodeStore
 * @key: the key
 * @value: (nullable): the value
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_set_meta (LodeStore   *self,
                     const char  *key,
                     const char  *value,
                     GError     **error)
{
  sqlite3_stmt *s;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  s = stmt (self, STMT_META_SET);
  bind_text (s, 1, key);
  bind_text (s, 2, value);

  return run (self, s, error, "Cannot store metadata");
}

/* Steps @s, which yields one count. */
static gboolean
step_count (LodeStore     *self,
            sqlite3_stmt  *s,
            guint         *count,
            GError       **error)
{
  int rc = sqlite3_step (s);

  if (rc == SQLITE_ROW)
    *count = sqlite3_column_int64 (s, 0);
  sqlite3_reset (s);

  if (rc != SQLITE_ROW)
    return set_db_error (self, rc, error, "Cannot count rows");

  return TRUE;
}

static gboolean
query_count (LodeStore  *self,
             Stmt        id,
             guint      *count,
             GError    **error)
{
  return step_count (self, stmt (self, id), count, error);
}

/**
 * lode_store_get_stats:
 * @self: a #LodeStore
 * @stats: (out caller-allocates): where to put the figures
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_get_stats (LodeStore       *self,
                      LodeStoreStats  *stats,
                      GError         **error)
{
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (stats, 0, sizeof *stats);

  s = stmt (self, STMT_STATS_FILES);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    {
      stats->n_files = sqlite3_column_int64 (s, 0);
      stats->n_bytes = (guint64) sqlite3_column_double (s, 1);
      stats->n_lines = (guint64) sqlite3_column_double (s, 2);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_ROW)
    return set_db_error (self, rc, error, "Cannot count files");

  return query_count (self, STMT_STATS_CHUNKS, &stats->n_chunks, error) &&
         query_count (self, STMT_STATS_SYMBOLS, &stats->n_symbols, error);
}

/**
 * lode_store_dup_language_counts:
 * @self: a #LodeStore
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type utf8 guint): language id → number of files
 */
GHashTable *
lode_store_dup_language_counts (LodeStore  *self,
                                GError    **error)
{
  g_autoptr(GHashTable) counts = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s = stmt (self, STMT_LANGUAGES);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    g_hash_table_insert (counts, dup_column_text (s, 0),
                         GUINT_TO_POINTER ((guint) sqlite3_column_int64 (s, 1)));
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot count languages");
      return NULL;
    }

  return g_steal_pointer (&counts);
}

/**
 * lode_store_dup_chunks_for_file:
 * @self: a #LodeStore
 * @path: the file's path relative to the project root
 * @error: return location for a #GError
 *
 * The stored chunks of @path, ordered by start line, with their content. The doc comment
 * and context are stored only as part of the searchable text: what it holds besides the
 * signature and container comes back as the context (lode_chunk_set_search_text()).
 *
 * Returns: (transfer full) (element-type LodeChunk): the chunks; empty for an unknown path
 */
GPtrArray *
lode_store_dup_chunks_for_file (LodeStore   *self,
                                const char  *path,
                                GError     **error)
{
  g_autoptr(GPtrArray) chunks = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  s = stmt (self, STMT_FILE_CHUNKS);
  bind_text (s, 1, path);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeChunk *chunk = lode_chunk_new ();

      chunk->start_line = sqlite3_column_int (s, 0);
      chunk->end_line = sqlite3_column_int (s, 1);
      chunk->kind = g_intern_string ((const char *) sqlite3_column_text (s, 2));
      chunk->symbol = dup_column_text (s, 3);
      chunk->container = dup_column_text (s, 4);
      chunk->signature = dup_column_text (s, 5);
      chunk->content = dup_column_text (s, 6);
      lode_chunk_set_search_text (chunk, (const char *) sqlite3_column_text (s, 7));
      g_ptr_array_add (chunks, chunk);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read chunks");
      return NULL;
    }

  return g_steal_pointer (&chunks);
}

/* Search candidates (LodeSearchBackend): rows and statistics only; LodeSearcher ranks. The
 * lexical leg is in lode-store-rank.c. */

static GPtrArray *
read_symbol_rows (LodeStore     *self,
                  sqlite3_stmt  *s,
                  GError       **error)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_row_free);
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeSymbolRow *row = g_new0 (LodeSymbolRow, 1);

      row->chunk_id = sqlite3_column_int64 (s, 0);
      row->name = dup_column_text (s, 1);
      row->kind = dup_column_text (s, 2);
      row->container = dup_column_text (s, 3);
      row->signature = dup_column_text (s, 4);
      row->start_line = sqlite3_column_int (s, 5);
      row->end_line = sqlite3_column_int (s, 6);
      g_ptr_array_add (rows, row);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Symbol look-up failed");
      return NULL;
    }

  return g_steal_pointer (&rows);
}

static GPtrArray *
store_find_symbols (LodeSearchBackend  *backend,
                    const char         *name,
                    guint               limit,
                    GError            **error)
{
  LodeStore *self = LODE_STORE (backend);
  sqlite3_stmt *s = stmt (self, STMT_SYMBOL_LOOKUP);

  bind_text (s, 1, name);
  sqlite3_bind_int (s, 2, limit);
  return read_symbol_rows (self, s, error);
}

static GPtrArray *
store_find_chunk_symbols (LodeSearchBackend  *backend,
                          gint64              chunk_id,
                          GError            **error)
{
  LodeStore *self = LODE_STORE (backend);
  sqlite3_stmt *s = stmt (self, STMT_CHUNK_SYMBOLS);

  sqlite3_bind_int64 (s, 1, chunk_id);
  return read_symbol_rows (self, s, error);
}

static GPtrArray *
store_fetch_chunks (LodeSearchBackend  *backend,
                    const gint64       *chunk_ids,
                    guint               n_chunks,
                    GError            **error)
{
  LodeStore *self = LODE_STORE (backend);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_full (n_chunks,
                                                    (GDestroyNotify) lode_chunk_row_free);
  g_autoptr(GHashTable) position = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GString) ids = g_string_new ("[");
  sqlite3_stmt *s;
  int rc;

  for (guint i = 0; i < n_chunks; i++)
    {
      g_string_append_printf (ids, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "", chunk_ids[i]);
      g_ptr_array_add (rows, NULL);
      if (!g_hash_table_contains (position, &chunk_ids[i]))
        g_hash_table_insert (position, (gpointer) &chunk_ids[i], GUINT_TO_POINTER (i));
    }
  g_string_append_c (ids, ']');

  s = stmt (self, STMT_CHUNK_META);
  bind_text (s, 1, ids->str);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 9);
      gpointer at;
      LodeChunkRow *row;

      if (!g_hash_table_lookup_extended (position, &id, NULL, &at) ||
          g_ptr_array_index (rows, GPOINTER_TO_UINT (at)) != NULL)
        continue;
      row = g_new0 (LodeChunkRow, 1);
      row->chunk_id = id;
      row->start_line = sqlite3_column_int (s, 0);
      row->end_line = sqlite3_column_int (s, 1);
      row->kind = dup_column_text (s, 2);
      row->symbol = dup_column_text (s, 3);
      row->container = dup_column_text (s, 4);
      row->file_id = sqlite3_column_int64 (s, 5);
      row->path = dup_column_text (s, 6);
      row->language = dup_column_text (s, 7);
      row->signature = dup_column_text (s, 8);
      rows->pdata[GPOINTER_TO_UINT (at)] = row;
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read a chunk");
      return NULL;
    }

  /* An id asked for twice gets its row twice. */
  for (guint i = 0; i < n_chunks; i++)
    {
      guint first = GPOINTER_TO_UINT (g_hash_table_lookup (position, &chunk_ids[i]));
      const LodeChunkRow *row = g_ptr_array_index (rows, first);

      if (first != i && row != NULL)
        {
          LodeChunkRow *copy = g_memdup2 (row, sizeof *row);

          copy->path = g_strdup (row->path);
          copy->language = g_strdup (row->language);
          copy->kind = g_strdup (row->kind);
          copy->symbol = g_strdup (row->symbol);
          copy->container = g_strdup (row->container);
          copy->signature = g_strdup (row->signature);
          rows->pdata[i] = copy;
        }
    }

  return g_steal_pointer (&rows);
}

static char *
store_dup_chunk_text (LodeSearchBackend  *backend,
                      gint64              chunk_id,
                      GError            **error)
{
  LodeStore *self = LODE_STORE (backend);
  sqlite3_stmt *s = stmt (self, STMT_BODY);
  char *body;
  int rc;

  sqlite3_bind_int64 (s, 1, chunk_id);
  rc = sqlite3_step (s);
  body = rc == SQLITE_ROW ? dup_column_text (s, 0) : NULL;
  sqlite3_reset (s);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    set_db_error (self, rc, error, "Cannot read a chunk");

  return body;
}

static GPtrArray *
store_find_paths (LodeSearchBackend       *backend,
                  const char              *needle,
                  const LodeSearchFilter  *filter,
                  GError                 **error)
{
  LodeStore *self = LODE_STORE (backend);
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_path_row_free);
  sqlite3_stmt *s = stmt (self, STMT_FIND_PATHS);
  g_autoptr(GString) pattern = g_string_new ("%");
  int rc;

  /* LIKE ignores ASCII case, as lower() does, without a copy of every path: the needle's
   * own wildcards are escaped. */
  for (const char *p = needle; *p != '\0'; p++)
    {
      if (*p == '%' || *p == '_' || *p == '\\')
        g_string_append_c (pattern, '\\');
      g_string_append_c (pattern, *p);
    }
  g_string_append_c (pattern, '%');
  bind_text (s, 1, pattern->str);
  bind_text (s, 2, filter != NULL ? filter->language : NULL);
  bind_text (s, 3, filter != NULL ? filter->path_glob : NULL);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodePathRow *row = g_new0 (LodePathRow, 1);

      row->file_id = sqlite3_column_int64 (s, 0);
      row->path = dup_column_text (s, 1);
      row->language = dup_column_text (s, 2);
      row->first_chunk = sqlite3_column_int64 (s, 3);
      g_ptr_array_add (rows, row);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read paths");
      return NULL;
    }

  return g_steal_pointer (&rows);
}

static gint64
store_get_version (LodeSearchBackend *backend)
{
  return lode_store_get_data_version (LODE_STORE (backend));
}

static GArray *
store_dup_chunk_ids (LodeSearchBackend       *backend,
                     const LodeSearchFilter  *filter,
                     GError                 **error)
{
  return lode_store_dup_chunk_ids (LODE_STORE (backend),
                                   filter != NULL ? filter->language : NULL,
                                   filter != NULL ? filter->path_glob : NULL, error);
}

static gboolean
store_get_vector_dims (LodeSearchBackend  *backend,
                       const char         *model,
                       guint              *dims,
                       GError            **error)
{
  return lode_store_get_vector_dims (LODE_STORE (backend), model, dims, error);
}

static gboolean
store_load_vectors (LodeSearchBackend  *backend,
                    const char         *model,
                    guint               dims,
                    LodeVectorCursor   *cursor,
                    LodeVectorFunc      func,
                    gpointer            user_data,
                    GError            **error)
{
  return lode_store_load_vectors (LODE_STORE (backend), model, dims, cursor, func, user_data,
                                  error);
}

static sqlite3_stmt *vector_stmt (LodeStore *self,
                                  VectorStmt id);

/* One read transaction for the whole of a search: its statements see one version of the
 * index, and the connection takes its shared lock once instead of at each of them (a
 * question's 600 candidate rows took 600 lock and unlock calls). */
static gboolean
store_begin_read (LodeSearchBackend  *backend,
                  GError            **error)
{
  LodeStore *self = LODE_STORE (backend);

  if (!sqlite3_get_autocommit (self->db))
    return TRUE;
  if (!run (self, vector_stmt (self, VSTMT_READ_BEGIN), error, "Cannot read the index"))
    return FALSE;
  self->in_read = TRUE;

  return TRUE;
}

static void
store_end_read (LodeSearchBackend *backend)
{
  LodeStore *self = LODE_STORE (backend);

  if (!self->in_read)
    return;
  self->in_read = FALSE;
  run (self, vector_stmt (self, VSTMT_READ_END), NULL, NULL);
}

static void
lode_store_search_backend_init (LodeSearchBackendInterface *iface)
{
  iface->lexical = _lode_store_lexical;
  iface->score_lexical = _lode_store_score_lexical;
  iface->find_symbols = store_find_symbols;
  iface->find_chunk_symbols = store_find_chunk_symbols;
  iface->fetch_chunks = store_fetch_chunks;
  iface->dup_chunk_text = store_dup_chunk_text;
  iface->find_paths = store_find_paths;
  iface->get_version = store_get_version;
  iface->dup_chunk_ids = store_dup_chunk_ids;
  iface->get_vector_dims = store_get_vector_dims;
  iface->load_vectors = store_load_vectors;
  iface->doc_frequencies = _lode_store_doc_frequencies;
  iface->begin_read = store_begin_read;
  iface->end_read = store_end_read;
}

/* Vectors and hybrid search (issue #4) */

static sqlite3_stmt *
vector_stmt (LodeStore  *self,
             VectorStmt  id)
{
  sqlite3_stmt *s = self->vector_stmts[id];

  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
  return s;
}

static gboolean
vector_count (LodeStore   *self,
              VectorStmt   id,
              const char  *model,
              guint       *count,
              GError     **error)
{
  sqlite3_stmt *s = vector_stmt (self, id);

  if (model != NULL)
    bind_text (s, 1, model);

  return step_count (self, s, count, error);
}

void
lode_store_embed_text_free (LodeStoreEmbedText *text)
{
  if (text == NULL)
    return;

  g_free (text->hash);
  g_free (text->text);
  g_free (text);
}

/**
 * lode_store_dup_unembedded:
 * @self: a #LodeStore
 * @model: the embedding model
 * @after_chunk: only chunks with a larger id (0 for all): the cursor of a pass
 * @limit: at most this many chunks
 * @error: return location for a #GError
 *
 * The next chunks, by id, whose text has no vector of @model. Several chunks may share a
 * text: each is listed, and the caller embeds their text once.
 *
 * Returns: (transfer full) (element-type LodeStoreEmbedText): the chunks; empty when all
 *   are embedded
 */
GPtrArray *
lode_store_dup_unembedded (LodeStore   *self,
                           const char  *model,
                           gint64       after_chunk,
                           guint        limit,
                           GError     **error)
{
  g_autoptr(GPtrArray) texts = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (model != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  texts = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_store_embed_text_free);
  s = vector_stmt (self, VSTMT_TODO);
  bind_text (s, 1, model);
  sqlite3_bind_int64 (s, 2, after_chunk);
  sqlite3_bind_int (s, 3, (int) MIN (limit, G_MAXINT));
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeStoreEmbedText *text = g_new0 (LodeStoreEmbedText, 1);

      text->chunk_id = sqlite3_column_int64 (s, 0);
      text->hash = dup_column_text (s, 1);
      text->text = dup_column_text (s, 2);
      if (text->text == NULL)
        text->text = g_strdup ("");
      g_ptr_array_add (texts, text);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read the chunks to embed");
      return NULL;
    }

  return g_steal_pointer (&texts);
}

/**
 * lode_store_get_vector_dims:
 * @self: a #LodeStore
 * @model: an embedding model
 * @dims: (out): dimensions of the stored vectors of @model, 0 when there are none
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_get_vector_dims (LodeStore   *self,
                            const char  *model,
                            guint       *dims,
                            GError     **error)
{
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (dims != NULL, FALSE);

  s = vector_stmt (self, VSTMT_DIMS);
  bind_text (s, 1, model);
  rc = sqlite3_step (s);
  *dims = rc == SQLITE_ROW ? (guint) sqlite3_column_int (s, 0) : 0;
  sqlite3_reset (s);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return set_db_error (self, rc, error, "Cannot read vectors");

  return TRUE;
}

/**
 * lode_store_put_vectors:
 * @self: a #LodeStore
 * @model: the embedding model
 * @dims: dimensions of each vector
 * @hashes: (array length=n_vectors): the text hash each vector belongs to
 * @vectors: (array): @n_vectors × @dims floats, row-major, L2-normalised
 * @n_vectors: number of vectors
 * @n_chunks: (out) (optional): chunks that have a vector now and had none before
 * @error: return location for a #GError
 *
 * Stores a batch of vectors in one transaction (so that an interrupted embedding pass loses
 * at most the batch in flight). A vector of a hash that has one already is left alone.
 * Vectors whose dimensions differ from those stored for @model are refused: a provider that
 * changed its output under the same model name must not mix spaces.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_put_vectors (LodeStore          *self,
                        const char         *model,
                        guint               dims,
                        const char * const *hashes,
                        const float        *vectors,
                        guint               n_vectors,
                        guint              *n_chunks,
                        GError            **error)
{
  guint stored_dims = 0;
  guint covered = 0;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (dims > 0, FALSE);
  g_return_val_if_fail (hashes != NULL || n_vectors == 0, FALSE);
  g_return_val_if_fail (vectors != NULL || n_vectors == 0, FALSE);
  g_return_val_if_fail (!self->in_transaction, FALSE);

  if (!lode_store_get_vector_dims (self, model, &stored_dims, error))
    return FALSE;
  if (stored_dims != 0 && stored_dims != dims)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "The model %s gave %u-dimensional vectors; the index holds %u-dimensional "
                   "ones of the same model", model, dims, stored_dims);
      return FALSE;
    }

  if (!lode_store_begin (self, error))
    return FALSE;

  for (guint i = 0; i < n_vectors; i++)
    {
      sqlite3_stmt *s = vector_stmt (self, VSTMT_INSERT);
      guint count = 0;

      bind_text (s, 1, model);
      bind_text (s, 2, hashes[i]);
      sqlite3_bind_int (s, 3, dims);
      sqlite3_bind_blob (s, 4, vectors + (gsize) i * dims, dims * sizeof (float), SQLITE_STATIC);
      if (!run (self, s, error, "Cannot store a vector"))
        {
          lode_store_rollback (self);
          return FALSE;
        }
      if (sqlite3_changes (self->db) == 0)
        continue;

      s = vector_stmt (self, VSTMT_COUNT_HASH);
      bind_text (s, 1, hashes[i]);
      if (sqlite3_step (s) == SQLITE_ROW)
        count = sqlite3_column_int64 (s, 0);
      sqlite3_reset (s);
      covered += count;
    }

  if (!lode_store_commit (self, error))
    return FALSE;

  if (n_chunks != NULL)
    *n_chunks = covered;

  return TRUE;
}

/**
 * lode_store_count_embedded:
 * @self: a #LodeStore
 * @model: (nullable): an embedding model; %NULL counts no chunk as embedded
 * @n_embedded: (out): chunks whose text has a vector of @model
 * @n_embeddable: (out): chunks that can have one (all but blank ones)
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_count_embedded (LodeStore   *self,
                           const char  *model,
                           guint       *n_embedded,
                           guint       *n_embeddable,
                           GError     **error)
{
  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (n_embedded != NULL && n_embeddable != NULL, FALSE);

  *n_embedded = 0;
  if (model != NULL && !vector_count (self, VSTMT_COUNT_EMBEDDED, model, n_embedded, error))
    return FALSE;

  return vector_count (self, VSTMT_COUNT_EMBEDDABLE, NULL, n_embeddable, error);
}

/**
 * lode_store_prune_vectors:
 * @self: a #LodeStore
 * @model: the embedding model in use
 * @error: return location for a #GError
 *
 * Deletes the vectors of every other model, and, when the vectors of @model that no chunk
 * uses any more outnumber those in use, the oldest of them down to that number. Unused
 * vectors are kept up to that bound so that text that comes back (a reverted edit, a
 * branch switch) is not embedded again.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_prune_vectors (LodeStore   *self,
                          const char  *model,
                          GError     **error)
{
  sqlite3_stmt *s;
  guint n_vectors = 0;
  guint n_orphans = 0;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (!self->in_transaction, FALSE);

  if (!vector_count (self, VSTMT_COUNT_VECTORS, model, &n_vectors, error) ||
      !vector_count (self, VSTMT_COUNT_ORPHANS, model, &n_orphans, error))
    return FALSE;

  if (!lode_store_begin (self, error))
    return FALSE;

  s = vector_stmt (self, VSTMT_DELETE_OTHER_MODELS);
  bind_text (s, 1, model);
  if (!run (self, s, error, "Cannot delete vectors"))
    {
      lode_store_rollback (self);
      return FALSE;
    }

  if (n_orphans > n_vectors - n_orphans)
    {
      s = vector_stmt (self, VSTMT_DELETE_ORPHANS);
      bind_text (s, 1, model);
      sqlite3_bind_int64 (s, 2, n_orphans - (n_vectors - n_orphans));
      if (!run (self, s, error, "Cannot delete vectors"))
        {
          lode_store_rollback (self);
          return FALSE;
        }
    }

  return lode_store_commit (self, error);
}

/**
 * lode_store_get_data_version:
 * @self: a #LodeStore
 *
 * Returns: a number that changes whenever another connection commits to the index
 *   (`PRAGMA data_version`)
 */
gint64
lode_store_get_data_version (LodeStore *self)
{
  sqlite3_stmt *s;
  gint64 version = -1;

  g_return_val_if_fail (LODE_IS_STORE (self), -1);

  s = vector_stmt (self, VSTMT_DATA_VERSION);
  if (sqlite3_step (s) == SQLITE_ROW)
    version = sqlite3_column_int64 (s, 0);
  sqlite3_reset (s);

  return version;
}

static GArray *
read_ids (LodeStore     *self,
          sqlite3_stmt  *s,
          GError       **error)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);

      g_array_append_val (ids, id);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read chunk ids");
      return NULL;
    }

  return g_steal_pointer (&ids);
}

/**
 * lode_store_dup_chunk_ids:
 * @self: a #LodeStore
 * @language: (nullable): only chunks of files in this language
 * @path_glob: (nullable): only chunks of files whose path matches
 * @error: return location for a #GError
 *
 * With both filters %NULL: the ids of all chunks that can have a vector.
 *
 * Returns: (transfer full) (element-type gint64): ids in ascending order
 */
GArray *
lode_store_dup_chunk_ids (LodeStore   *self,
                          const char  *language,
                          const char  *path_glob,
                          GError     **error)
{
  sqlite3_stmt *s;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (language == NULL && path_glob == NULL)
    return read_ids (self, vector_stmt (self, VSTMT_CHUNK_IDS), error);

  s = vector_stmt (self, VSTMT_FILTER_IDS);
  bind_text (s, 1, language);
  bind_text (s, 2, path_glob);
  return read_ids (self, s, error);
}

static gboolean
load_vector_rows (LodeStore              *self,
                  const char             *model,
                  guint                   dims,
                  const LodeVectorCursor *from,
                  const LodeVectorCursor *to,
                  LodeVectorFunc     func,
                  gpointer                user_data,
                  GError                **error)
{
  sqlite3_stmt *s = vector_stmt (self, VSTMT_LOAD);
  int rc;

  bind_text (s, 1, model);
  sqlite3_bind_int64 (s, 2, from->last_chunk);
  sqlite3_bind_int64 (s, 3, from->last_seq);
  sqlite3_bind_int64 (s, 4, to->last_chunk);
  sqlite3_bind_int64 (s, 5, to->last_seq);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      const void *blob = sqlite3_column_blob (s, 1);
      int size = sqlite3_column_bytes (s, 1);

      /* The dims are checked when vectors are stored; a row of another size is damage. */
      if (blob == NULL || size != (int) (dims * sizeof (float)))
        continue;
      func (sqlite3_column_int64 (s, 0), blob, user_data);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_DONE)
    return set_db_error (self, rc, error, "Cannot read vectors");

  return TRUE;
}

/**
 * lode_store_load_vectors:
 * @self: a #LodeStore
 * @model: the embedding model
 * @dims: dimensions of its vectors
 * @cursor: (inout): where the previous load ended; zero-filled for a first load
 * @func: (scope call): called with each chunk id and its vector (@dims floats, valid during
 *   the call only)
 * @user_data: data for @func
 * @error: return location for a #GError
 *
 * Calls @func for every chunk that got a vector of @model since @cursor: new chunks that
 * have one, and older chunks whose text was embedded since. Reads one snapshot of the index
 * and moves @cursor to its end. Chunks never get another vector, and chunk ids are never
 * reused, so a caller that also drops the chunks that are gone (lode_store_dup_chunk_ids())
 * stays exactly in sync.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_load_vectors (LodeStore            *self,
                         const char           *model,
                         guint                 dims,
                         LodeVectorCursor     *cursor,
                         LodeVectorFunc   func,
                         gpointer              user_data,
                         GError              **error)
{
  LodeVectorCursor to = { 0 };
  sqlite3_stmt *s;
  gboolean own;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (model != NULL, FALSE);
  g_return_val_if_fail (cursor != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);
  g_return_val_if_fail (!self->in_transaction, FALSE);

  /* Within a search's snapshot, that one is read. */
  own = sqlite3_get_autocommit (self->db);
  if (own && !run (self, vector_stmt (self, VSTMT_READ_BEGIN), error, "Cannot read vectors"))
    return FALSE;

  s = vector_stmt (self, VSTMT_CURSOR);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    {
      to.last_chunk = sqlite3_column_int64 (s, 0);
      to.last_seq = sqlite3_column_int64 (s, 1);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_ROW)
    set_db_error (self, rc, error, "Cannot read vectors");
  if (rc != SQLITE_ROW ||
      !load_vector_rows (self, model, dims, cursor, &to, func, user_data, error))
    {
      if (own)
        run (self, vector_stmt (self, VSTMT_READ_END), NULL, NULL);
      return FALSE;
    }

  if (own && !run (self, vector_stmt (self, VSTMT_READ_END), error, "Cannot read vectors"))
    return FALSE;

  *cursor = to;
  return TRUE;
}

/* Import graph (issue #6) */

void
lode_stored_import_free (LodeStoredImport *import)
{
  if (import == NULL)
    return;

  g_free (import->path);
  g_free (import->specifier);
  g_free (import->name);
  g_free (import->kind);
  g_free (import->key);
  g_strfreev (import->targets);
  g_free (import->package);
  g_free (import);
}

static sqlite3_stmt *
graph_stmt (LodeStore *self,
            GraphStmt  id)
{
  sqlite3_stmt *s = self->graph_stmts[id];

  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
  return s;
}

/* One edge per target, else one with the package (or with neither: unresolved). */
static gboolean
insert_edges (LodeStore           *self,
              gint64               import_id,
              gint64               file_id,
              const char * const  *targets,
              const char          *package,
              GError             **error)
{
  guint n_targets = targets != NULL ? g_strv_length ((GStrv) targets) : 0;
  sqlite3_stmt *s;

  for (guint i = 0; i < MAX (n_targets, 1); i++)
    {
      s = graph_stmt (self, GSTMT_EDGE_INSERT);
      sqlite3_bind_int64 (s, 1, import_id);
      sqlite3_bind_int64 (s, 2, file_id);
      bind_text (s, 3, n_targets > 0 ? targets[i] : NULL);
      bind_text (s, 4, n_targets > 0 ? NULL : package);
      if (!run (self, s, error, "Cannot store an edge"))
        return FALSE;
    }

  return TRUE;
}

static gboolean
put_import_rows (LodeStore      *self,
                 gconstpointer   data,
                 GPtrArray      *imports,
                 GPtrArray      *unused,
                 GError        **error)
{
  const char *path = data;
  sqlite3_stmt *s;
  gint64 file_id = 0;

  if (!lookup_file_id (self, path, &file_id, error))
    return FALSE;
  if (file_id == 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s is not indexed", path);
      return FALSE;
    }

  s = graph_stmt (self, GSTMT_IMPORTS_DELETE_FILE);
  sqlite3_bind_int64 (s, 1, file_id);
  if (!run (self, s, error, "Cannot delete the imports of a file"))
    return FALSE;
  s = graph_stmt (self, GSTMT_EDGES_DELETE_FILE);
  sqlite3_bind_int64 (s, 1, file_id);
  if (!run (self, s, error, "Cannot delete the edges of a file"))
    return FALSE;

  for (guint i = 0; imports != NULL && i < imports->len; i++)
    {
      const LodeStoredImport *import = g_ptr_array_index (imports, i);
      gint64 import_id;

      s = graph_stmt (self, GSTMT_IMPORT_INSERT);
      sqlite3_bind_int64 (s, 1, file_id);
      bind_text (s, 2, import->specifier != NULL ? import->specifier : "");
      bind_text (s, 3, import->name);
      bind_text (s, 4, import->kind);
      sqlite3_bind_int (s, 5, import->line);
      bind_text (s, 6, import->key);
      if (!run (self, s, error, "Cannot store an import"))
        return FALSE;
      import_id = sqlite3_last_insert_rowid (self->db);

      if (!insert_edges (self, import_id, file_id, (const char * const *) import->targets,
                         import->package, error))
        return FALSE;
    }

  return TRUE;
}

/**
 * lode_store_put_imports:
 * @self: a #LodeStore
 * @path: an indexed file
 * @imports: (element-type LodeStoredImport): its imports, resolved
 * @error: return location for a #GError
 *
 * Replaces the imports and edges of @path. Inside a batch, call it after
 * lode_store_put_file() in the same transaction, so that a file's chunks and imports land
 * together.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_put_imports (LodeStore  *self,
                        const char *path,
                        GPtrArray  *imports,
                        GError    **error)
{
  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->in_transaction)
    return write_alone (self, put_import_rows, path, imports, NULL, error);

  return put_import_rows (self, path, imports, NULL, error);
}

/* Folds the rows of one import (one per edge, adjacent) into one LodeStoredImport. */
static GPtrArray *
read_imports (LodeStore     *self,
              sqlite3_stmt  *s,
              GError       **error)
{
  g_autoptr(GPtrArray) imports = g_ptr_array_new_with_free_func (
    (GDestroyNotify) lode_stored_import_free);
  g_autoptr(GStrvBuilder) targets = NULL;
  LodeStoredImport *import = NULL;
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);
      const char *target = (const char *) sqlite3_column_text (s, 7);

      if (import == NULL || import->id != id)
        {
          if (import != NULL)
            import->targets = g_strv_builder_end (targets);
          g_clear_pointer (&targets, g_strv_builder_unref);
          targets = g_strv_builder_new ();

          import = g_new0 (LodeStoredImport, 1);
          import->id = id;
          import->path = dup_column_text (s, 1);
          import->specifier = dup_column_text (s, 2);
          import->name = dup_column_text (s, 3);
          import->kind = dup_column_text (s, 4);
          import->line = sqlite3_column_int (s, 5);
          import->key = dup_column_text (s, 6);
          g_ptr_array_add (imports, import);
        }

      if (target != NULL)
        g_strv_builder_add (targets, target);
      else if (import->package == NULL)
        import->package = dup_column_text (s, 8);
    }
  sqlite3_reset (s);
  if (import != NULL)
    import->targets = g_strv_builder_end (targets);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read imports");
      return NULL;
    }

  return g_steal_pointer (&imports);
}

/**
 * lode_store_dup_imports:
 * @self: a #LodeStore
 * @path: (nullable): a file, or %NULL for the imports of every file
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeStoredImport): the imports of @path, by line
 */
GPtrArray *
lode_store_dup_imports (LodeStore   *self,
                        const char  *path,
                        GError     **error)
{
  sqlite3_stmt *s;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);

  if (path == NULL)
    return read_imports (self, graph_stmt (self, GSTMT_IMPORTS_ALL), error);

  s = graph_stmt (self, GSTMT_IMPORTS_OF_FILE);
  bind_text (s, 1, path);

  return read_imports (self, s, error);
}

/**
 * lode_store_dup_imports_for_key:
 * @self: a #LodeStore
 * @key: a candidate key
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeStoredImport): the imports whose resolution a
 *   file with candidate key @key could change
 */
GPtrArray *
lode_store_dup_imports_for_key (LodeStore   *self,
                                const char  *key,
                                GError     **error)
{
  sqlite3_stmt *s;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  s = graph_stmt (self, GSTMT_IMPORTS_BY_KEY);
  bind_text (s, 1, key);

  return read_imports (self, s, error);
}

/**
 * lode_store_dup_imports_to:
 * @self: a #LodeStore
 * @target: a project path
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeStoredImport): the imports resolved to @target
 */
GPtrArray *
lode_store_dup_imports_to (LodeStore   *self,
                           const char  *target,
                           GError     **error)
{
  sqlite3_stmt *s;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (target != NULL, NULL);

  s = graph_stmt (self, GSTMT_IMPORTS_BY_TARGET);
  bind_text (s, 1, target);

  return read_imports (self, s, error);
}

static gboolean
set_import_targets_rows (LodeStore           *self,
                         gint64               import_id,
                         const char * const  *targets,
                         const char          *package,
                         GError             **error)
{
  sqlite3_stmt *s = graph_stmt (self, GSTMT_IMPORT_FILE);
  gint64 file_id;
  int rc;

  sqlite3_bind_int64 (s, 1, import_id);
  rc = sqlite3_step (s);
  file_id = rc == SQLITE_ROW ? sqlite3_column_int64 (s, 0) : 0;
  sqlite3_reset (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return set_db_error (self, rc, error, "Cannot read an import");

  s = graph_stmt (self, GSTMT_EDGES_DELETE_IMPORT);
  sqlite3_bind_int64 (s, 1, import_id);
  if (!run (self, s, error, "Cannot delete the edges of an import"))
    return FALSE;

  /* An import deleted meanwhile (its file was parsed again) has no edges to set. */
  if (file_id == 0)
    return TRUE;

  return insert_edges (self, import_id, file_id, targets, package, error);
}

/**
 * lode_store_set_import_targets:
 * @self: a #LodeStore
 * @import_id: the import's row id
 * @targets: (nullable) (array zero-terminated=1): the project files it now resolves to
 * @package: (nullable): or, when there are none, the external package
 * @error: return location for a #GError
 *
 * Records a new resolution of one import, replacing its edges; inside the current batch, or
 * in a transaction of its own outside one.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_set_import_targets (LodeStore           *self,
                               gint64               import_id,
                               const char * const  *targets,
                               const char          *package,
                               GError             **error)
{
  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->in_transaction)
    return set_import_targets_rows (self, import_id, targets, package, error);

  if (!lode_store_begin (self, error))
    return FALSE;
  if (!set_import_targets_rows (self, import_id, targets, package, error))
    {
      lode_store_rollback (self);
      return FALSE;
    }

  return lode_store_commit (self, error);
}

/**
 * lode_store_load_graph:
 * @self: a #LodeStore
 * @error: return location for a #GError
 *
 * Reads the graph: every indexed file, every resolved edge. Edges to paths that are not
 * indexed (a file that became binary, say) are left out.
 *
 * Returns: (transfer full) (nullable): the frozen graph
 */
LodeGraph *
lode_store_load_graph (LodeStore  *self,
                       GError    **error)
{
  g_autoptr(LodeGraph) graph = lode_graph_new ();
  g_autoptr(GHashTable) by_row = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) row_ids = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  row_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  s = graph_stmt (self, GSTMT_GRAPH_FILES);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 row = sqlite3_column_int64 (s, 0);

      lode_graph_add_file (graph, (const char *) sqlite3_column_text (s, 1),
                           (const char *) sqlite3_column_text (s, 2));
      g_array_append_val (row_ids, row);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read the files of the graph");
      return NULL;
    }
  /* The array no longer grows: pointers into it stay valid as keys. */
  for (guint i = 0; i < row_ids->len; i++)
    g_hash_table_insert (by_row, &g_array_index (row_ids, gint64, i), GUINT_TO_POINTER (i + 1));

  s = graph_stmt (self, GSTMT_GRAPH_EDGES);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 from_row = sqlite3_column_int64 (s, 0);
      guint from = GPOINTER_TO_UINT (g_hash_table_lookup (by_row, &from_row));
      const char *to_path = (const char *) sqlite3_column_text (s, 1);
      const char *package = (const char *) sqlite3_column_text (s, 2);
      guint to;

      if (from == 0)
        continue;
      if (to_path != NULL && lode_graph_lookup (graph, to_path, &to))
        lode_graph_add_edge (graph, from - 1, to);
      else if (to_path == NULL && package != NULL)
        lode_graph_add_external (graph, from - 1, package);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read the edges of the graph");
      return NULL;
    }

  lode_graph_freeze (graph);

  return g_steal_pointer (&graph);
}

/**
 * lode_store_get_graph_counts:
 * @self: a #LodeStore
 * @counts: (out caller-allocates): where to put the figures
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_get_graph_counts (LodeStore        *self,
                             LodeGraphCounts  *counts,
                             GError          **error)
{
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (counts != NULL, FALSE);

  s = graph_stmt (self, GSTMT_GRAPH_COUNTS);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    {
      counts->n_imports = sqlite3_column_int64 (s, 0);
      counts->n_internal = sqlite3_column_int64 (s, 1);
      counts->n_external = sqlite3_column_int64 (s, 2);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_ROW)
    return set_db_error (self, rc, error, "Cannot count imports");

  return TRUE;
}

static gboolean
clear_graph_rows (LodeStore      *self,
                  gconstpointer   data,
                  GPtrArray      *unused1,
                  GPtrArray      *unused2,
                  GError        **error)
{
  const gboolean *forget_hashes = data;

  if (!run (self, graph_stmt (self, GSTMT_CLEAR_IMPORTS), error, "Cannot delete imports") ||
      !run (self, graph_stmt (self, GSTMT_CLEAR_EDGES), error, "Cannot delete edges"))
    return FALSE;

  return !*forget_hashes ||
         run (self, graph_stmt (self, GSTMT_CLEAR_HASHES), error, "Cannot reset file hashes");
}

/**
 * lode_store_clear_graph:
 * @self: a #LodeStore
 * @forget_hashes: also forget the content hashes of the files, so that the next indexing
 *   run parses every file again (and so extracts every file's imports)
 * @error: return location for a #GError
 *
 * Deletes every import and edge, in a transaction of its own.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_clear_graph (LodeStore  *self,
                        gboolean    forget_hashes,
                        GError    **error)
{
  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (!self->in_transaction, FALSE);

  return write_alone (self, clear_graph_rows, &forget_hashes, NULL, NULL, error);
}

/* Copying an index (lode migrate). */

void
lode_stored_file_free (LodeStoredFile *file)
{
  if (file == NULL)
    return;
  g_free (file->path);
  g_free (file->language);
  g_free (file->hash);
  g_free (file);
}

/**
 * lode_store_dup_files:
 * @self: a #LodeStore
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeStoredFile): every file, by path
 */
GPtrArray *
lode_store_dup_files (LodeStore  *self,
                      GError    **error)
{
  g_autoptr(GPtrArray) files = NULL;
  sqlite3_stmt *s = NULL;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);

  files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_file_free);
  rc = sqlite3_prepare_v2 (self->db,
                           "SELECT path, language, hash, size, mtime, n_lines FROM files "
                           "ORDER BY path", -1, &s, NULL);
  while (s != NULL && (rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeStoredFile *file = g_new0 (LodeStoredFile, 1);

      file->path = dup_column_text (s, 0);
      file->language = dup_column_text (s, 1);
      file->hash = dup_column_text (s, 2);
      file->size = sqlite3_column_int64 (s, 3);
      file->mtime_usec = sqlite3_column_int64 (s, 4);
      file->n_lines = sqlite3_column_int (s, 5);
      g_ptr_array_add (files, file);
    }
  sqlite3_finalize (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read files");
      return NULL;
    }
  return g_steal_pointer (&files);
}

/**
 * lode_store_dup_symbols_for_file:
 * @self: a #LodeStore
 * @path: the file's path relative to the project root
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeSymbol): the declarations of @path by line
 */
GPtrArray *
lode_store_dup_symbols_for_file (LodeStore   *self,
                                 const char  *path,
                                 GError     **error)
{
  g_autoptr(GPtrArray) symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
  sqlite3_stmt *s = NULL;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  rc = sqlite3_prepare_v2 (self->db,
                           "SELECT s.name, s.kind, s.container, s.signature, s.start_line, "
                           "s.end_line, s.package, s.detail FROM symbols s "
                           "JOIN files f ON f.id = s.file_id "
                           "WHERE f.path = ?1 ORDER BY s.start_line, s.id", -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      bind_text (s, 1, path);
      while ((rc = sqlite3_step (s)) == SQLITE_ROW)
        {
          LodeSymbol *symbol = lode_symbol_new ();
          const char *kind = (const char *) sqlite3_column_text (s, 1);

          symbol->name = dup_column_text (s, 0);
          symbol->kind = kind != NULL ? g_intern_string (kind) : NULL;
          symbol->container = dup_column_text (s, 2);
          symbol->signature = dup_column_text (s, 3);
          symbol->start_line = sqlite3_column_int (s, 4);
          symbol->end_line = sqlite3_column_int (s, 5);
          symbol->package = dup_column_text (s, 6);
          symbol->detail = dup_column_text (s, 7);
          g_ptr_array_add (symbols, symbol);
        }
    }
  sqlite3_finalize (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read symbols");
      return NULL;
    }
  return g_steal_pointer (&symbols);
}

/**
 * lode_store_foreach_vector:
 * @self: a #LodeStore
 * @model: the embedding model
 * @func: called with each vector of @model and the text hash it belongs to
 * @user_data: data for @func
 * @error: return location for a #GError
 *
 * Returns: %TRUE when every vector was read
 */
gboolean
lode_store_foreach_vector (LodeStore           *self,
                           const char          *model,
                           LodeVectorHashFunc   func,
                           gpointer             user_data,
                           GError             **error)
{
  sqlite3_stmt *s = NULL;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (model != NULL && func != NULL, FALSE);

  rc = sqlite3_prepare_v2 (self->db,
                           "SELECT hash, dims, vector FROM vectors WHERE model = ?1 ORDER BY seq",
                           -1, &s, NULL);
  if (rc == SQLITE_OK)
    {
      bind_text (s, 1, model);
      while ((rc = sqlite3_step (s)) == SQLITE_ROW)
        {
          guint dims = sqlite3_column_int (s, 1);
          const float *vector = sqlite3_column_blob (s, 2);

          if ((gsize) sqlite3_column_bytes (s, 2) != dims * sizeof (float))
            continue;
          if (!func ((const char *) sqlite3_column_text (s, 0), vector, dims, user_data))
            {
              rc = SQLITE_DONE;
              break;
            }
        }
    }
  sqlite3_finalize (s);

  if (rc != SQLITE_DONE)
    {
      set_db_error (self, rc, error, "Cannot read vectors");
      return FALSE;
    }
  return TRUE;
}

/* LodeIndexStore: the functions above under the interface's names (only the type of their
 * first argument differs). */
static void
lode_store_index_store_init (LodeIndexStoreInterface *iface)
{
  iface->get_was_reset = (gpointer) lode_store_get_was_reset;
  iface->get_reset_reason = (gpointer) lode_store_get_reset_reason;
  iface->dup_file_hashes = (gpointer) lode_store_dup_file_hashes;
  iface->dup_files = (gpointer) lode_store_dup_files;
  iface->begin = (gpointer) lode_store_begin;
  iface->commit = (gpointer) lode_store_commit;
  iface->rollback = (gpointer) lode_store_rollback;
  iface->put_file = (gpointer) lode_store_put_file;
  iface->put_references = (gpointer) lode_store_put_references;
  iface->remove_file = (gpointer) lode_store_remove_file;
  iface->dup_meta = (gpointer) lode_store_dup_meta;
  iface->set_meta = (gpointer) lode_store_set_meta;
  iface->get_stats = (gpointer) lode_store_get_stats;
  iface->dup_language_counts = (gpointer) lode_store_dup_language_counts;
  iface->dup_chunks_for_file = (gpointer) lode_store_dup_chunks_for_file;
  iface->dup_symbols_for_file = (gpointer) lode_store_dup_symbols_for_file;
  iface->put_imports = (gpointer) lode_store_put_imports;
  iface->dup_imports = (gpointer) lode_store_dup_imports;
  iface->dup_imports_for_key = (gpointer) lode_store_dup_imports_for_key;
  iface->dup_imports_to = (gpointer) lode_store_dup_imports_to;
  iface->set_import_targets = (gpointer) lode_store_set_import_targets;
  iface->load_graph = (gpointer) lode_store_load_graph;
  iface->get_graph_counts = (gpointer) lode_store_get_graph_counts;
  iface->clear_graph = (gpointer) lode_store_clear_graph;
  iface->dup_unembedded = (gpointer) lode_store_dup_unembedded;
  iface->put_vectors = (gpointer) lode_store_put_vectors;
  iface->count_embedded = (gpointer) lode_store_count_embedded;
  iface->prune_vectors = (gpointer) lode_store_prune_vectors;
  iface->foreach_vector = (gpointer) lode_store_foreach_vector;
  iface->find_symbols = (gpointer) lode_store_find_symbols;
  iface->dup_file_symbols = (gpointer) lode_store_dup_file_symbols;
  iface->dup_package_symbols = (gpointer) lode_store_dup_package_symbols;
  iface->find_container_members = (gpointer) lode_store_find_container_members;
  iface->find_references = (gpointer) lode_store_find_references;
  iface->dup_references_for_file = (gpointer) lode_store_dup_references_for_file;
  iface->dup_line_chunks = (gpointer) lode_store_dup_line_chunks;
  iface->dup_artifacts = (gpointer) lode_store_dup_artifacts;
  iface->dup_artifact_chunks = (gpointer) lode_store_dup_artifact_chunks;
  iface->put_artifact = (gpointer) lode_store_put_artifact;
  iface->remove_artifact = (gpointer) lode_store_remove_artifact;
  iface->search_artifacts = (gpointer) lode_store_search_artifacts;
}
