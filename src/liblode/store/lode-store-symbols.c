/* lode-store-symbols.c — the store's side of the symbol tools
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-store-private.h"

/*
 * Symbols keep their details in `symbols.detail` (JSON), the package they belong to in
 * `symbols.package` (indexed) and their scope path in `symbols.scope`. References are stored
 * per (file, name): `refs` holds the encoded sites (lode_reference_sites_encode()),
 * `ref_names` interns the names, so that a name used in a thousand files is stored once and a
 * row costs a few integers. `refs` is keyed by file (a file's rows are replaced together) with
 * an index by name (a look-up reads only the rows of that name). The writer keeps the
 * interned ids in memory for the run.
 *
 * `symbol_spans` holds, per file, each declaration's first and last line and name, by first
 * line, in one blob (see _lode_store_put_symbol_spans()): `codebase_grep` names the
 * declaration of every line it shows, and reading one row per file took less than half the
 * time of walking the file's rows of `symbols` up to its last match.
 */

const char _lode_store_symbols_schema_sql[] =
  "CREATE TABLE IF NOT EXISTS ref_names ("
  "  id INTEGER PRIMARY KEY,"
  "  name TEXT NOT NULL UNIQUE"
  ");"
  "CREATE TABLE IF NOT EXISTS refs ("
  "  file_id INTEGER NOT NULL,"
  "  name_id INTEGER NOT NULL,"
  "  sites BLOB NOT NULL,"
  "  PRIMARY KEY (file_id, name_id)"
  ") WITHOUT ROWID;"
  "CREATE TABLE IF NOT EXISTS symbol_spans ("
  "  file_id INTEGER PRIMARY KEY,"
  "  spans BLOB NOT NULL"
  ");";
const char _lode_store_symbols_lookup_sql[] =
  "CREATE INDEX IF NOT EXISTS refs_name ON refs (name_id);";

#define SYMBOL_COLUMNS \
  "f.path, f.language, s.name, s.kind, s.container, s.signature, s.start_line, s.end_line, " \
  "s.package, s.scope, s.detail FROM symbols s JOIN files f ON f.id = s.file_id "

static const char sql_file_id[] = "SELECT id FROM files WHERE path = ?1";
static const char sql_name_id[] = "SELECT id FROM ref_names WHERE name = ?1";
static const char sql_name_insert[] = "INSERT INTO ref_names (name) VALUES (?1)";
static const char sql_refs_delete[] = "DELETE FROM refs WHERE file_id = ?1";
static const char sql_refs_insert[] =
  "INSERT OR REPLACE INTO refs (file_id, name_id, sites) VALUES (?1, ?2, ?3)";
/* symbols_name is case-insensitive: the exact match is a filter on what it finds. */
static const char sql_find[] =
  "SELECT " SYMBOL_COLUMNS "WHERE s.name = ?1 COLLATE NOCASE AND s.name = ?1 "
  "ORDER BY f.path, s.start_line LIMIT ?2";
static const char sql_find_nocase[] =
  "SELECT " SYMBOL_COLUMNS "WHERE s.name = ?1 COLLATE NOCASE ORDER BY f.path, s.start_line "
  "LIMIT ?2";
static const char sql_file_symbols[] =
  "SELECT " SYMBOL_COLUMNS "WHERE f.path = ?1 ORDER BY s.start_line, s.id";
static const char sql_file_symbol_spans[] =
  "SELECT sp.spans FROM symbol_spans sp JOIN files f ON f.id = sp.file_id WHERE f.path = ?1";
static const char sql_spans_insert[] = "INSERT INTO symbol_spans (file_id, spans) VALUES (?1, ?2)";
static const char sql_package_symbols[] =
  "SELECT " SYMBOL_COLUMNS "WHERE s.package = ?1 ORDER BY f.path, s.start_line LIMIT ?2";
static const char sql_path_symbols[] =
  "SELECT " SYMBOL_COLUMNS "WHERE f.path GLOB ?1 ORDER BY f.path, s.start_line LIMIT ?2";
static const char sql_container[] =
  "SELECT " SYMBOL_COLUMNS "WHERE s.container = ?1 ORDER BY f.path, s.start_line LIMIT ?2";
static const char sql_references[] =
  "SELECT f.path, f.language, r.sites FROM refs r JOIN files f ON f.id = r.file_id "
  "WHERE r.name_id = (SELECT id FROM ref_names WHERE name = ?1) ORDER BY f.path";
static const char sql_file_refs[] =
  "SELECT n.name, r.sites FROM refs r JOIN ref_names n ON n.id = r.name_id "
  "WHERE r.file_id = (SELECT id FROM files WHERE path = ?1) ORDER BY n.name";
static const char sql_lines[] =
  "SELECT c.start_line, c.end_line, fts.body FROM chunks c "
  "JOIN chunks_fts fts ON fts.rowid = c.id "
  "WHERE c.file_id = (SELECT id FROM files WHERE path = ?1) AND c.end_line >= ?2 "
  "AND c.start_line <= ?3 ORDER BY c.start_line, c.end_line";

static gint64
lookup_id (LodeStore   *self,
           const char  *sql,
           const char  *key,
           GError     **error)
{
  sqlite3_stmt *s = _lode_store_statement (self, sql, error);
  gint64 id = 0;
  int rc;

  if (s == NULL)
    return -1;
  sqlite3_bind_text (s, 1, key, -1, SQLITE_STATIC);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    id = sqlite3_column_int64 (s, 0);
  sqlite3_reset (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot look up an id");
      return -1;
    }
  return id;
}

static gint64
name_id (LodeStore   *self,
         const char  *name,
         GError     **error)
{
  GHashTable *cache = self->ref_names;
  gpointer cached = g_hash_table_lookup (cache, name);
  gint64 id;
  sqlite3_stmt *s;

  if (cached != NULL)
    return GPOINTER_TO_SIZE (cached);

  id = lookup_id (self, sql_name_id, name, error);
  if (id < 0)
    return -1;
  if (id == 0)
    {
      s = _lode_store_statement (self, sql_name_insert, error);
      if (s == NULL)
        return -1;
      sqlite3_bind_text (s, 1, name, -1, SQLITE_STATIC);
      if (!_lode_store_run (self, s, error, "Cannot store a name"))
        return -1;
      id = sqlite3_last_insert_rowid (self->db);
    }
  /* A rolled-back batch takes its new names along: _lode_store_rollback() empties this. */
  g_hash_table_insert (cache, g_strdup (name), GSIZE_TO_POINTER ((gsize) id));
  return id;
}

typedef struct
{
  LodeStore *self;
  gint64     file_id;
  GError    *error;
} PutRefs;

static void
put_name (const char    *name,
          const guint32 *sites,
          guint          n_sites,
          gpointer       user_data)
{
  PutRefs *put = user_data;
  g_autoptr(GBytes) blob = NULL;
  sqlite3_stmt *s;
  gint64 id;

  if (put->error != NULL)
    return;
  id = name_id (put->self, name, &put->error);
  if (id < 0)
    return;
  s = _lode_store_statement (put->self, sql_refs_insert, &put->error);
  if (s == NULL)
    return;
  blob = lode_reference_sites_encode (sites, n_sites);
  sqlite3_bind_int64 (s, 1, put->file_id);
  sqlite3_bind_int64 (s, 2, id);
  sqlite3_bind_blob (s, 3, g_bytes_get_data (blob, NULL), g_bytes_get_size (blob),
                     SQLITE_STATIC);
  _lode_store_run (put->self, s, &put->error, "Cannot store references");
}

/* Replaces the references of @path. Call it in the transaction that stored the file. */
static gboolean
store_put_references (LodeIndexStore  *store,
                      const char      *path,
                      LodeReferences  *references,
                      GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  PutRefs put = { self, 0, NULL };
  sqlite3_stmt *s;

  g_return_val_if_fail (path != NULL, FALSE);

  put.file_id = lookup_id (self, sql_file_id, path, error);
  if (put.file_id <= 0)
    {
      if (put.file_id == 0)
        g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s is not in the index", path);
      return FALSE;
    }

  s = _lode_store_statement (self, sql_refs_delete, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, put.file_id);
  if (!_lode_store_run (self, s, error, "Cannot delete references"))
    return FALSE;

  if (references != NULL)
    lode_references_foreach (references, put_name, &put);
  if (put.error != NULL)
    {
      g_propagate_prefixed_error (error, put.error, "%s: ", path);
      return FALSE;
    }
  return TRUE;
}

static LodeStoredSymbol *
read_symbol (sqlite3_stmt *s)
{
  LodeStoredSymbol *symbol = g_new0 (LodeStoredSymbol, 1);

  symbol->path = dup_column_text (s, 0);
  symbol->language = dup_column_text (s, 1);
  symbol->name = dup_column_text (s, 2);
  symbol->kind = dup_column_text (s, 3);
  symbol->container = dup_column_text (s, 4);
  symbol->signature = dup_column_text (s, 5);
  symbol->start_line = sqlite3_column_int (s, 6);
  symbol->end_line = sqlite3_column_int (s, 7);
  symbol->package = dup_column_text (s, 8);
  symbol->scope = dup_column_text (s, 9);
  symbol->detail = dup_column_text (s, 10);
  return symbol;
}

static GPtrArray *
read_symbols (LodeStore     *self,
              sqlite3_stmt  *s,
              GError       **error)
{
  g_autoptr(GPtrArray) symbols =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    g_ptr_array_add (symbols, read_symbol (s));
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read symbols");
      return NULL;
    }
  return g_steal_pointer (&symbols);
}

static GPtrArray *
store_find_symbols (LodeIndexStore  *store,
                    const char      *name,
                    gboolean         ignore_case,
                    guint            limit,
                    GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s = _lode_store_statement (self, ignore_case ? sql_find_nocase : sql_find,
                                           error);

  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, name, -1, SQLITE_STATIC);
  sqlite3_bind_int (s, 2, limit);
  return read_symbols (self, s, error);
}

static GPtrArray *
store_dup_file_symbols (LodeIndexStore  *store,
                        const char      *path,
                        GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;

  g_return_val_if_fail (path != NULL, NULL);

  s = _lode_store_statement (self, sql_file_symbols, error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, path, -1, SQLITE_STATIC);
  return read_symbols (self, s, error);
}

/* A declaration in a `symbol_spans` blob: its first line, last line and the length of its
 * name, 32-bit little-endian each, then the name's bytes. */
#define SPAN_HEADER_SIZE (3 * sizeof (guint32))

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const LodeSymbol *x = *(const LodeSymbol * const *) a;
  const LodeSymbol *y = *(const LodeSymbol * const *) b;

  return (x->start_line > y->start_line) - (x->start_line < y->start_line);
}

static void
append_uint32 (GByteArray *out,
               guint32     value)
{
  guint32 le = GUINT32_TO_LE (value);

  g_byte_array_append (out, (const guint8 *) &le, sizeof le);
}

/**
 * _lode_store_put_symbol_spans:
 * @self: the store, in a write
 * @file_id: the file
 * @symbols: (element-type LodeSymbol): the declarations stored for it, in the order of their
 *   ids
 * @error: a store failure
 *
 * Stores @symbols' lines and names as one `symbol_spans` row, by first line (declarations
 * that start on one line keep the order of their ids, as `symbols_file` has them); a file
 * without declarations gets none.
 */
gboolean
_lode_store_put_symbol_spans (LodeStore  *self,
                              gint64      file_id,
                              GPtrArray  *symbols,
                              GError    **error)
{
  g_autoptr(GPtrArray) by_line = NULL;
  g_autoptr(GByteArray) spans = NULL;
  sqlite3_stmt *s;

  if (symbols->len == 0)
    return TRUE;

  by_line = g_ptr_array_copy (symbols, NULL, NULL);
  /* g_ptr_array_sort() is a merge sort: stable. */
  g_ptr_array_sort (by_line, compare_spans);
  spans = g_byte_array_sized_new (by_line->len * 32);
  for (guint i = 0; i < by_line->len; i++)
    {
      const LodeSymbol *symbol = by_line->pdata[i];
      gsize length = strlen (symbol->name);

      append_uint32 (spans, symbol->start_line);
      append_uint32 (spans, symbol->end_line);
      append_uint32 (spans, length);
      g_byte_array_append (spans, (const guint8 *) symbol->name, length);
    }

  s = _lode_store_statement (self, sql_spans_insert, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, file_id);
  sqlite3_bind_blob (s, 2, spans->data, spans->len, SQLITE_STATIC);
  return _lode_store_run (self, s, error, "Cannot store the lines of a file's declarations");
}

static guint32
read_uint32 (const guint8 *at)
{
  guint32 le;

  memcpy (&le, at, sizeof le);
  return GUINT32_FROM_LE (le);
}

/* The declarations of @spans (a `symbol_spans` blob of @path) that meet @first_line to
 * @last_line; %NULL with %LODE_ERROR_DAMAGED when the blob does not hold whole entries. */
static GPtrArray *
read_symbol_spans (const char    *path,
                   const guint8  *spans,
                   gsize          size,
                   guint          first_line,
                   guint          last_line,
                   GError       **error)
{
  g_autoptr(GPtrArray) symbols =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  gsize at = 0;

  while (at < size)
    {
      guint32 start, end, length;

      if (size - at < SPAN_HEADER_SIZE)
        break;
      start = read_uint32 (spans + at);
      end = read_uint32 (spans + at + 4);
      length = read_uint32 (spans + at + 8);
      if (size - at - SPAN_HEADER_SIZE < length)
        break;
      /* By first line: none after this one starts soon enough. */
      if (start > last_line)
        return g_steal_pointer (&symbols);
      if (end >= first_line)
        {
          LodeStoredSymbol *symbol = g_new0 (LodeStoredSymbol, 1);

          symbol->name = g_strndup ((const char *) spans + at + SPAN_HEADER_SIZE, length);
          symbol->start_line = start;
          symbol->end_line = end;
          g_ptr_array_add (symbols, symbol);
        }
      at += SPAN_HEADER_SIZE + length;
    }
  if (at == size)
    return g_steal_pointer (&symbols);

  g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED,
               "the declarations stored for %s are damaged: the one at byte %" G_GSIZE_FORMAT
               " of %" G_GSIZE_FORMAT " is cut short", path, at, size);
  return NULL;
}

static GPtrArray *
store_dup_file_symbol_spans (LodeIndexStore  *store,
                             const char      *path,
                             guint            first_line,
                             guint            last_line,
                             GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  GPtrArray *symbols;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);

  s = _lode_store_statement (self, sql_file_symbol_spans, error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, path, -1, SQLITE_STATIC);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    symbols = read_symbol_spans (path, sqlite3_column_blob (s, 0), sqlite3_column_bytes (s, 0),
                                 first_line, last_line, error);
  else if (rc == SQLITE_DONE)
    symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  else
    symbols = NULL;
  sqlite3_reset (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    _lode_store_set_error (self, rc, error, "Cannot read the lines of a file's declarations");
  return symbols;
}

static GPtrArray *
store_dup_package_symbols (LodeIndexStore  *store,
                           const char      *package,
                           const char      *path_glob,
                           guint            limit,
                           GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;

  g_return_val_if_fail ((package != NULL) != (path_glob != NULL), NULL);

  s = _lode_store_statement (self, package != NULL ? sql_package_symbols : sql_path_symbols,
                             error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, package != NULL ? package : path_glob, -1, SQLITE_STATIC);
  sqlite3_bind_int (s, 2, limit);
  return read_symbols (self, s, error);
}

/* The symbols declared in or on @container anywhere (Go methods, Rust impl blocks). Reads
 * the whole symbols table: call it only for the languages that need it. */
static GPtrArray *
store_find_container_members (LodeIndexStore  *store,
                              const char      *container,
                              guint            limit,
                              GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;

  g_return_val_if_fail (container != NULL, NULL);

  s = _lode_store_statement (self, sql_container, error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, container, -1, SQLITE_STATIC);
  sqlite3_bind_int (s, 2, limit);
  return read_symbols (self, s, error);
}

static GPtrArray *
store_find_references (LodeIndexStore  *store,
                       const char      *name,
                       GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) files =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_references_free);
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (name != NULL, NULL);

  s = _lode_store_statement (self, sql_references, error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, name, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeStoredReferences *file = g_new0 (LodeStoredReferences, 1);

      file->path = dup_column_text (s, 0);
      file->language = dup_column_text (s, 1);
      file->sites = lode_reference_sites_decode (sqlite3_column_blob (s, 2),
                                                 sqlite3_column_bytes (s, 2));
      g_ptr_array_add (files, file);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read references");
      return NULL;
    }
  return g_steal_pointer (&files);
}

static GPtrArray *
store_dup_line_chunks (LodeIndexStore  *store,
                       const char      *path,
                       guint            first,
                       guint            last,
                       GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);

  s = _lode_store_statement (self, sql_lines, error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, path, -1, SQLITE_STATIC);
  sqlite3_bind_int (s, 2, first);
  sqlite3_bind_int (s, 3, last);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeChunk *chunk = lode_chunk_new ();

      chunk->start_line = sqlite3_column_int (s, 0);
      chunk->end_line = sqlite3_column_int (s, 1);
      chunk->content = dup_column_text (s, 2);
      g_ptr_array_add (chunks, chunk);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read lines");
      return NULL;
    }
  return g_steal_pointer (&chunks);
}

static LodeReferences *
store_dup_references_for_file (LodeIndexStore  *store,
                               const char      *path,
                               GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(LodeReferences) references = lode_references_new ();
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (path != NULL, NULL);

  s = _lode_store_statement (self, sql_file_refs, error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, path, -1, SQLITE_STATIC);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      const char *name = (const char *) sqlite3_column_text (s, 0);
      g_autoptr(GArray) sites = lode_reference_sites_decode (sqlite3_column_blob (s, 1),
                                                             sqlite3_column_bytes (s, 1));

      for (guint i = 0; i < sites->len; i++)
        {
          guint32 site = g_array_index (sites, guint32, i);

          lode_references_add (references, name, strlen (name),
                               lode_reference_site_line (site),
                               lode_reference_site_kind (site));
        }
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read references");
      return NULL;
    }
  return g_steal_pointer (&references);
}

void
_lode_store_symbols_init (LodeIndexStoreInterface *iface)
{
  iface->put_references = store_put_references;
  iface->find_symbols = store_find_symbols;
  iface->dup_file_symbols = store_dup_file_symbols;
  iface->dup_file_symbol_spans = store_dup_file_symbol_spans;
  iface->dup_package_symbols = store_dup_package_symbols;
  iface->find_container_members = store_find_container_members;
  iface->find_references = store_find_references;
  iface->dup_references_for_file = store_dup_references_for_file;
  iface->dup_line_chunks = store_dup_line_chunks;
}
