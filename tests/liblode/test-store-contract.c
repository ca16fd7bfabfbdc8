/* test-store-contract.c — what LodeIndexStore promises, checked on every store
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One table of cases, run against the SQLite store and against the Qdrant store (the loopback
 * server, or the real one LODE_TEST_QDRANT_URL names): the contract in lode-index-store.h, so
 * that the indexer, the tools and the searcher may take either. The rows are shaped after
 * real code: a piece of git's strbuf.c, a Go file of grpc-go, a Python module.
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lode.h"
#include "lode-artifact-search.h"
#include "lode-calls.h"
#include "lode-index-store-factory.h"
#include "lode-search-backend.h"
#include "qdrant-server.h"
#include "test-helpers.h"
#include "test-text-files.h"

#define assert_ok(call) \
  G_STMT_START { gboolean ok_ = (call); g_assert_no_error (error); g_assert_true (ok_); } G_STMT_END

typedef struct
{
  LodeStoreKind   kind;
  QdrantServer   *server;      /* Qdrant only */
  LodeConfig     *config;
  char           *dir;
  char           *db_path;
  LodeIndexStore *store;       /* a writer */
} Fixture;

static LodeIndexStore *
open_store (Fixture  *fixture,
            gboolean  writer)
{
  g_autoptr(GError) error = NULL;
  LodeIndexStore *store = lode_index_store_open (fixture->config, fixture->kind,
                                                 fixture->db_path, 4, writer, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  return store;
}

static void
setup (Fixture       *fixture,
       gconstpointer  data)
{
  g_autofree char *name = NULL;

  fixture->kind = GPOINTER_TO_UINT (data);
  fixture->config = lode_config_new_default ();
  fixture->dir = g_dir_make_tmp ("lode-contract-XXXXXX", NULL);
  if (fixture->kind == LODE_STORE_KIND_QDRANT)
    {
      fixture->server = qdrant_server_new (NULL);
      fixture->config->qdrant_url = g_strdup (fixture->server->url);
      g_free (fixture->config->qdrant_api_key);
      fixture->config->qdrant_api_key = g_strdup (g_getenv ("LODE_TEST_QDRANT_API_KEY"));
      name = qdrant_server_collection (fixture->server, "contract");
    }
  /* The Qdrant collection is named after the project's folder. */
  fixture->db_path = g_build_filename (fixture->dir, name != NULL ? name : "project",
                                       "index.db", NULL);
  {
    g_autofree char *project = g_path_get_dirname (fixture->db_path);

    g_assert_cmpint (g_mkdir_with_parents (project, 0700), ==, 0);
  }
  fixture->store = open_store (fixture, TRUE);
}

static void
teardown (Fixture       *fixture,
          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_clear_object (&fixture->store);
  lode_index_store_remove (fixture->config, fixture->kind, fixture->db_path, &error);
  g_assert_no_error (error);
  if (fixture->server != NULL)
    {
      qdrant_server_assert_valid (fixture->server);
      qdrant_server_free (fixture->server);
    }
  test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->db_path);
  g_clear_pointer (&fixture->config, lode_config_free);
}

/* Rows shaped after real code --------------------------------------------------------- */

static LodeChunk *
chunk_new (guint       start_line,
           guint       end_line,
           const char *kind,
           const char *symbol,
           const char *signature,
           const char *doc,
           const char *content)
{
  LodeChunk *chunk = lode_chunk_new ();

  chunk->start_line = start_line;
  chunk->end_line = end_line;
  chunk->kind = kind != NULL ? g_intern_string (kind) : NULL;
  chunk->symbol = g_strdup (symbol);
  chunk->signature = g_strdup (signature);
  chunk->doc = g_strdup (doc);
  chunk->content = g_strdup (content);
  return chunk;
}

static LodeSymbol *
symbol_new (const char *name,
            const char *kind,
            const char *container,
            guint       start_line,
            guint       end_line,
            const char *package)
{
  LodeSymbol *symbol = lode_symbol_new ();

  symbol->name = g_strdup (name);
  symbol->kind = kind != NULL ? g_intern_string (kind) : NULL;
  symbol->container = g_strdup (container);
  symbol->signature = name != NULL ? g_strdup_printf ("%s (…)", name) : NULL;
  symbol->start_line = start_line;
  symbol->end_line = end_line;
  symbol->package = g_strdup (package);
  symbol->detail = name != NULL ? g_strdup_printf ("{\"name\": \"%s\"}", name) : NULL;
  return symbol;
}

/* strbuf.c, in three chunks given out of line order. */
static void
strbuf_rows (GPtrArray **chunks,
             GPtrArray **symbols)
{
  *chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  *symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);

  g_ptr_array_add (*chunks, chunk_new (20, 31, "function", "strbuf_grow",
                                       "void strbuf_grow (struct strbuf *sb, size_t extra)",
                                       "/* Makes room for @extra more bytes. */",
                                       "void strbuf_grow(struct strbuf *sb, size_t extra)\n{\n"
                                       "\tint new_buf = !sb->alloc;\n"
                                       "\tif (unsigned_add_overflows(extra, 1) ||\n"
                                       "\t    unsigned_add_overflows(sb->len, extra + 1))\n"
                                       "\t\tdie(\"you want to use way too much memory\");\n"
                                       "\tif (new_buf)\n\t\tsb->buf = NULL;\n"
                                       "\tALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);\n"
                                       "\tif (new_buf)\n\t\tsb->buf[0] = '\\0';\n}"));
  g_ptr_array_add (*chunks, chunk_new (1, 9, NULL, NULL, NULL, NULL,
                                       "#include \"git-compat-util.h\"\n#include \"strbuf.h\"\n\n"
                                       "int starts_with(const char *str, const char *prefix)\n"
                                       "{\n\tfor (; ; str++, prefix++)\n"
                                       "\t\tif (!*prefix)\n\t\t\treturn 1;\n}"));
  g_ptr_array_add (*chunks, chunk_new (10, 19, "function", "strbuf_init",
                                       "void strbuf_init (struct strbuf *sb, size_t hint)", NULL,
                                       "char strbuf_slopbuf[1];\n\n"
                                       "void strbuf_init(struct strbuf *sb, size_t hint)\n{\n"
                                       "\tstruct strbuf blank = STRBUF_INIT;\n"
                                       "\tmemcpy(sb, &blank, sizeof(*sb));\n"
                                       "\tif (hint)\n\t\tstrbuf_grow(sb, hint);\n}\n"));
  g_ptr_array_add (*symbols, symbol_new ("starts_with", "function", NULL, 4, 9, NULL));
  g_ptr_array_add (*symbols, symbol_new ("strbuf_init", "function", NULL, 12, 19, NULL));
  g_ptr_array_add (*symbols, symbol_new ("strbuf_grow", "function", NULL, 20, 31, NULL));
  g_ptr_array_add (*symbols, symbol_new ("strbuf_slopbuf", "variable", NULL, 10, 10, NULL));
  g_ptr_array_add (*symbols, symbol_new (NULL, "function", NULL, 25, 25, NULL));
  g_ptr_array_add (*symbols, symbol_new ("unplaced", "function", NULL, 40, 41, NULL));
}

/* Which chunk each of strbuf_rows()'s symbols belongs to, as an indexer could decide it: the
 * store keeps what it is told, even strbuf_slopbuf in the chunk of the function after it. */
static const guint strbuf_owners[] = { 1, 2, 0, 0, 1, LODE_INDEX_STORE_NO_CHUNK };

static void
put_rows (LodeIndexStore *store,
          const char     *path,
          const char     *language,
          const char     *hash,
          GPtrArray      *chunks,
          GPtrArray      *symbols,
          const guint    *owners)
{
  g_autoptr(GError) error = NULL;
  LodeFileInfo info = { path, language, hash, 0, 1732838400000000, 0 };

  for (guint i = 0; chunks != NULL && i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);

      info.size += strlen (chunk->content);
      info.n_lines = MAX (info.n_lines, chunk->end_line);
    }
  assert_ok (lode_index_store_put_file (store, &info, chunks, symbols, owners, &error));
}

static void
put_strbuf (LodeIndexStore *store)
{
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;

  strbuf_rows (&chunks, &symbols);
  put_rows (store, "strbuf.c", "c", "1111", chunks, symbols, strbuf_owners);
}

/* One chunk of plain text, no declarations. */
static void
put_text (LodeIndexStore *store,
          const char     *path,
          const char     *language,
          const char     *hash,
          const char     *text)
{
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  guint n_lines = 1;

  for (const char *p = text; *p != '\0'; p++)
    n_lines += *p == '\n' && p[1] != '\0';
  g_ptr_array_add (chunks, chunk_new (1, n_lines, NULL, NULL, NULL, NULL, text));
  put_rows (store, path, language, hash, chunks, NULL, NULL);
}

static LodeStoredImport *
import_new (const char *specifier,
            guint       line,
            const char *key,
            const char *target,
            const char *package)
{
  LodeStoredImport *import = g_new0 (LodeStoredImport, 1);

  import->specifier = g_strdup (specifier);
  import->kind = g_strdup ("include");
  import->line = line;
  import->key = g_strdup (key);
  if (target != NULL)
    import->targets = g_strsplit (target, " ", -1);
  import->package = g_strdup (package);
  return import;
}

static char *
imports_text (GPtrArray *imports)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < imports->len; i++)
    {
      const LodeStoredImport *import = g_ptr_array_index (imports, i);
      g_autofree char *targets = import->targets != NULL ? g_strjoinv (",", import->targets)
                                                          : g_strdup ("");

      g_string_append_printf (out, "%s%s:%u:%s>%s|%s", i > 0 ? " " : "", import->path,
                              import->line, import->specifier, targets,
                              import->package != NULL ? import->package : "");
    }
  return g_string_free (out, FALSE);
}

static char *
stored_symbols_text (GPtrArray *symbols)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeStoredSymbol *symbol = g_ptr_array_index (symbols, i);

      g_string_append_printf (out, "%s%s:%u:%s", i > 0 ? " " : "", symbol->path,
                              symbol->start_line, symbol->name);
    }
  return g_string_free (out, FALSE);
}

/* Files and batches ---------------------------------------------------------------------- */

/* A file is put whole, read back as put (its chunks by line, with their text and search
 * context), counted, replaced whole and removed whole. */
static void
test_files (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) hashes = NULL;
  g_autoptr(GHashTable) languages = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) chunks = NULL;
  LodeStoreStats stats;
  const LodeChunk *chunk;
  const LodeStoredFile *file;

  g_assert_false (lode_index_store_get_was_reset (fixture->store));
  g_assert_null (lode_index_store_get_reset_reason (fixture->store));
  put_strbuf (fixture->store);
  put_text (fixture->store, "README.md", "markdown", "2222",
            "# Git\n\nGit is a fast, scalable, distributed revision control system.\n");

  hashes = lode_index_store_dup_file_hashes (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (hashes), ==, 2);
  g_assert_cmpstr (g_hash_table_lookup (hashes, "strbuf.c"), ==, "1111");
  g_assert_cmpstr (g_hash_table_lookup (hashes, "README.md"), ==, "2222");

  files = lode_index_store_dup_files (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 2);
  file = g_ptr_array_index (files, 1);
  g_assert_cmpstr (((LodeStoredFile *) files->pdata[0])->path, ==, "README.md");
  g_assert_cmpstr (file->path, ==, "strbuf.c");
  g_assert_cmpstr (file->language, ==, "c");
  g_assert_cmpstr (file->hash, ==, "1111");
  g_assert_cmpint (file->mtime_usec, ==, 1732838400000000);
  g_assert_cmpuint (file->n_lines, ==, 31);

  assert_ok (lode_index_store_get_stats (fixture->store, &stats, &error));
  g_assert_cmpuint (stats.n_files, ==, 2);
  g_assert_cmpuint (stats.n_chunks, ==, 4);
  /* The nameless declaration and the one without a chunk are not stored. */
  g_assert_cmpuint (stats.n_symbols, ==, 4);
  g_assert_cmpuint (stats.n_lines, ==, 31 + 3);
  g_assert_cmpuint (stats.n_bytes, ==, file->size + ((LodeStoredFile *) files->pdata[0])->size);

  languages = lode_index_store_dup_language_counts (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (languages), ==, 2);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (languages, "c")), ==, 1);

  chunks = lode_index_store_dup_chunks_for_file (fixture->store, "strbuf.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chunks->len, ==, 3);
  g_assert_cmpuint (((LodeChunk *) chunks->pdata[0])->start_line, ==, 1);
  g_assert_cmpuint (((LodeChunk *) chunks->pdata[1])->start_line, ==, 10);
  chunk = g_ptr_array_index (chunks, 2);
  g_assert_cmpuint (chunk->start_line, ==, 20);
  g_assert_cmpuint (chunk->end_line, ==, 31);
  g_assert_cmpstr (chunk->kind, ==, "function");
  g_assert_cmpstr (chunk->symbol, ==, "strbuf_grow");
  g_assert_cmpstr (chunk->signature, ==, "void strbuf_grow (struct strbuf *sb, size_t extra)");
  g_assert_true (g_str_has_prefix (chunk->content, "void strbuf_grow(struct strbuf *sb"));
  /* The doc comment comes back as the context of the search text. */
  g_assert_nonnull (chunk->context);
  g_assert_nonnull (strstr (chunk->context, "Makes room for @extra more bytes."));
  g_clear_pointer (&chunks, g_ptr_array_unref);

  /* A file touched, its content as stored: its size and time alone change (read back below,
   * by a reader); a path the index does not hold is left alone. */
  assert_ok (lode_index_store_set_file_stamp (fixture->store, "README.md", 77,
                                              1800000000000000, &error));
  assert_ok (lode_index_store_set_file_stamp (fixture->store, "never/indexed.c", 1, 1, &error));

  /* Replacing a file drops its old rows. */
  put_text (fixture->store, "strbuf.c", "c", "3333", "int strbuf_dummy;\n");
  chunks = lode_index_store_dup_chunks_for_file (fixture->store, "strbuf.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chunks->len, ==, 1);
  assert_ok (lode_index_store_get_stats (fixture->store, &stats, &error));
  g_assert_cmpuint (stats.n_chunks, ==, 2);
  g_assert_cmpuint (stats.n_symbols, ==, 0);
  g_clear_pointer (&chunks, g_ptr_array_unref);

  assert_ok (lode_index_store_remove_file (fixture->store, "strbuf.c", &error));
  assert_ok (lode_index_store_remove_file (fixture->store, "never/indexed.c", &error));
  chunks = lode_index_store_dup_chunks_for_file (fixture->store, "strbuf.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chunks->len, ==, 0);
  assert_ok (lode_index_store_get_stats (fixture->store, &stats, &error));
  g_assert_cmpuint (stats.n_files, ==, 1);
  g_assert_cmpuint (stats.n_chunks, ==, 1);

  /* What a writer committed, a reader opened afterwards sees; the index is whole. */
  {
    g_autoptr(LodeIndexStore) reader = open_store (fixture, FALSE);
    g_autoptr(GHashTable) seen = lode_index_store_dup_file_hashes (reader, &error);
    g_autoptr(GPtrArray) stored = NULL;

    g_assert_no_error (error);
    g_assert_cmpuint (g_hash_table_size (seen), ==, 1);
    stored = lode_index_store_dup_files (reader, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (stored->len, ==, 1);
    file = g_ptr_array_index (stored, 0);
    g_assert_cmpstr (file->path, ==, "README.md");
    g_assert_cmpstr (file->hash, ==, "2222");
    g_assert_cmpuint (file->size, ==, 77);
    g_assert_cmpint (file->mtime_usec, ==, 1800000000000000);
    assert_ok (lode_index_store_check (reader, &error));
    g_assert_false (lode_index_store_is_damaged (reader));
  }
}

/* A batch lands whole at commit, or not at all; meta rides along. */
static void
test_batches (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) hashes = NULL;
  g_autofree char *state = NULL;
  g_autofree char *missing = NULL;
  g_autoptr(LodeReferences) references = lode_references_new ();
  g_autoptr(GPtrArray) imports = g_ptr_array_new_with_free_func (
    (GDestroyNotify) lode_stored_import_free);

  assert_ok (lode_index_store_begin (fixture->store, &error));
  put_text (fixture->store, "a.py", "python", "aaaa", "import os\n\nROOT = os.getcwd ()\n");
  assert_ok (lode_index_store_set_meta (fixture->store, "state", "indexing", &error));
  assert_ok (lode_index_store_commit (fixture->store, &error));

  assert_ok (lode_index_store_begin (fixture->store, &error));
  put_text (fixture->store, "b.py", "python", "bbbb", "from a import ROOT\n");
  assert_ok (lode_index_store_remove_file (fixture->store, "a.py", &error));
  assert_ok (lode_index_store_set_meta (fixture->store, "state", "ready", &error));
  lode_index_store_rollback (fixture->store);
  /* Nothing happens outside a batch. */
  lode_index_store_rollback (fixture->store);

  hashes = lode_index_store_dup_file_hashes (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (hashes), ==, 1);
  g_assert_cmpstr (g_hash_table_lookup (hashes, "a.py"), ==, "aaaa");
  state = lode_index_store_dup_meta (fixture->store, "state");
  g_assert_cmpstr (state, ==, "indexing");
  missing = lode_index_store_dup_meta (fixture->store, "no such key");
  g_assert_null (missing);

  /* What follows a file needs the file. */
  lode_references_add (references, "getcwd", 6, 3, LODE_REFERENCE_CALL);
  g_assert_false (lode_index_store_put_references (fixture->store, "b.py", references, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_ptr_array_add (imports, import_new ("a", 1, "a", "a.py", NULL));
  g_assert_false (lode_index_store_put_imports (fixture->store, "b.py", imports, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
}

/* Symbols and their chunks --------------------------------------------------------------- */

/* A declaration is stored with the chunk the indexer gave it, and read back with it: by the
 * symbol tools, by the copy (dup_symbols_for_file) and by the searcher. */
static void
test_symbols (Fixture       *fixture,
              gconstpointer  data)
{
  static const char * const rows_by_chunk[] = { "1-9", "10-19", "20-31" };
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) owners = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) spans = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *text = NULL;
  LodeSearchBackend *backend = LODE_SEARCH_BACKEND (fixture->store);

  put_strbuf (fixture->store);

  chunks = lode_index_store_dup_chunks_for_file (fixture->store, "strbuf.c", &error);
  symbols = lode_index_store_dup_symbols_for_file (fixture->store, "strbuf.c", &owners, &error);
  g_assert_no_error (error);
  /* By line: starts_with 4, strbuf_slopbuf 10, strbuf_init 12, strbuf_grow 20. */
  g_assert_cmpuint (symbols->len, ==, 4);
  g_assert_cmpuint (owners->len, ==, 4);
  g_assert_cmpstr (((LodeSymbol *) symbols->pdata[1])->name, ==, "strbuf_slopbuf");
  g_assert_cmpstr (((LodeSymbol *) symbols->pdata[1])->package, ==, NULL);
  g_assert_cmpstr (((LodeSymbol *) symbols->pdata[3])->detail, ==, "{\"name\": \"strbuf_grow\"}");
  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeSymbol *symbol = g_ptr_array_index (symbols, i);
      const LodeChunk *chunk = g_ptr_array_index (chunks, g_array_index (owners, guint, i));
      g_autofree char *lines = g_strdup_printf ("%u-%u", chunk->start_line, chunk->end_line);
      const char *expected = g_str_equal (symbol->name, "starts_with") ? rows_by_chunk[0]
                             : g_str_equal (symbol->name, "strbuf_init") ? rows_by_chunk[1]
                             : rows_by_chunk[2];

      g_assert_cmpstr (lines, ==, expected);
    }

  /* The searcher finds a declaration in its chunk. */
  rows = lode_search_backend_find_symbols (backend, "STRBUF_SLOPBUF", 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows->len, ==, 1);
  {
    gint64 chunk_id = ((LodeSymbolRow *) rows->pdata[0])->chunk_id;
    g_autoptr(GPtrArray) fetched = lode_search_backend_fetch_chunks (backend, &chunk_id, 1,
                                                                     &error);
    g_autoptr(GPtrArray) held = lode_search_backend_find_chunk_symbols (backend, chunk_id,
                                                                        &error);

    g_assert_no_error (error);
    g_assert_cmpuint (((LodeChunkRow *) fetched->pdata[0])->start_line, ==, 20);
    g_assert_cmpuint (held->len, ==, 2);
    g_assert_cmpstr (((LodeSymbolRow *) held->pdata[0])->name, ==, "strbuf_slopbuf");
    g_assert_cmpstr (((LodeSymbolRow *) held->pdata[1])->name, ==, "strbuf_grow");
  }

  /* The symbol tools: exact case first, else ASCII case only. */
  found = lode_index_store_find_symbols (fixture->store, "strbuf_grow", 10, &error);
  g_assert_no_error (error);
  text = stored_symbols_text (found);
  g_assert_cmpstr (text, ==, "strbuf.c:20:strbuf_grow");
  g_clear_pointer (&found, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);
  found = lode_index_store_find_symbols (fixture->store, "Strbuf_Init", 10, &error);
  g_assert_no_error (error);
  text = stored_symbols_text (found);
  g_assert_cmpstr (text, ==, "strbuf.c:12:strbuf_init");
  g_assert_cmpstr (((LodeStoredSymbol *) found->pdata[0])->language, ==, "c");
  g_clear_pointer (&found, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);

  found = lode_index_store_dup_file_symbols (fixture->store, "strbuf.c", &error);
  g_assert_no_error (error);
  text = stored_symbols_text (found);
  g_assert_cmpstr (text, ==, "strbuf.c:4:starts_with strbuf.c:10:strbuf_slopbuf "
                             "strbuf.c:12:strbuf_init strbuf.c:20:strbuf_grow");

  /* What codebase_grep names a line's declaration with: the same symbols, lines and order. */
  spans = lode_index_store_dup_file_symbol_spans (fixture->store, "strbuf.c", 1, G_MAXUINT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spans->len, ==, found->len);
  for (guint i = 0; i < spans->len; i++)
    {
      const LodeStoredSymbol *span = g_ptr_array_index (spans, i);
      const LodeStoredSymbol *symbol = g_ptr_array_index (found, i);

      g_assert_cmpstr (span->name, ==, symbol->name);
      g_assert_cmpuint (span->start_line, ==, symbol->start_line);
      g_assert_cmpuint (span->end_line, ==, symbol->end_line);
    }
  g_clear_pointer (&spans, g_ptr_array_unref);

  /* The lines a grep reply shows, 9 to 12: the declarations that end or start there only. */
  spans = lode_index_store_dup_file_symbol_spans (fixture->store, "strbuf.c", 9, 12, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spans->len, ==, 3);
  g_assert_cmpstr (((LodeStoredSymbol *) spans->pdata[0])->name, ==, "starts_with");
  g_assert_cmpstr (((LodeStoredSymbol *) spans->pdata[1])->name, ==, "strbuf_slopbuf");
  g_assert_cmpstr (((LodeStoredSymbol *) spans->pdata[2])->name, ==, "strbuf_init");
  g_clear_pointer (&spans, g_ptr_array_unref);
  /* Line 11, between two declarations, and a line past the file: none. */
  spans = lode_index_store_dup_file_symbol_spans (fixture->store, "strbuf.c", 11, 11, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spans->len, ==, 0);
  g_clear_pointer (&spans, g_ptr_array_unref);
  spans = lode_index_store_dup_file_symbol_spans (fixture->store, "strbuf.c", 50, 60, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (spans->len, ==, 0);
}

/* What the symbol tools ask of packages and containers: a Go package of grpc-go (with its
 * members' scope paths) and a Python module given by path. */
static void
test_packages (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  g_autoptr(GPtrArray) symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
  g_autoptr(GPtrArray) found = NULL;
  g_autofree char *text = NULL;
  static const guint go_owners[] = { 0, 0, 1, 1 };

  g_ptr_array_add (chunks, chunk_new (22, 40, "struct", "Server", "type Server struct", NULL,
                                      "// Server is a gRPC server to serve RPC requests.\n"
                                      "type Server struct {\n"
                                      "\topts serverOptions\n\n"
                                      "\tmu  sync.Mutex // guards following\n"
                                      "\tlis map[net.Listener]bool\n}"));
  g_ptr_array_add (chunks, chunk_new (42, 60, "method", "Serve",
                                      "func (s *Server) Serve(lis net.Listener) error", NULL,
                                      "func (s *Server) Serve(lis net.Listener) error {\n"
                                      "\ts.mu.Lock()\n\ts.printf(\"serving\")\n}"));
  g_ptr_array_add (symbols, symbol_new ("Server", "struct", NULL, 23, 40, "grpc"));
  g_ptr_array_add (symbols, symbol_new ("opts", "field", "Server", 24, 24, "grpc"));
  g_ptr_array_add (symbols, symbol_new ("Serve", "method", "Server", 42, 60, "grpc"));
  g_ptr_array_add (symbols, symbol_new ("printf", "method", "Server", 50, 52, "grpc"));
  for (guint i = 1; i < symbols->len; i++)
    ((LodeSymbol *) symbols->pdata[i])->scope = g_strdup ("grpc.Server");
  put_rows (fixture->store, "server.go", "go", "5555", chunks, symbols, go_owners);
  put_text (fixture->store, "pkg/util/paths.py", "python", "6666",
            "def normalize_path(path):\n    return path.replace ('\\\\', '/')\n");
  g_ptr_array_set_size (chunks, 0);
  g_ptr_array_set_size (symbols, 0);
  g_ptr_array_add (chunks, chunk_new (1, 2, "function", "normalize_path",
                                      "def normalize_path(path)", NULL,
                                      "def normalize_path(path):\n    return path\n"));
  g_ptr_array_add (symbols, symbol_new ("normalize_path", "function", NULL, 1, 2, NULL));
  put_rows (fixture->store, "pkg/util/paths.py", "python", "6666", chunks, symbols,
            go_owners);

  found = lode_index_store_dup_package_symbols (fixture->store, "grpc", NULL, 10, &error);
  g_assert_no_error (error);
  text = stored_symbols_text (found);
  g_assert_cmpstr (text, ==, "server.go:23:Server server.go:24:opts server.go:42:Serve "
                             "server.go:50:printf");
  g_clear_pointer (&found, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);

  found = lode_index_store_dup_package_symbols (fixture->store, "grpc", NULL, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (found->len, ==, 2);
  g_clear_pointer (&found, g_ptr_array_unref);

  found = lode_index_store_dup_package_symbols (fixture->store, NULL, "pkg/*.py", 10, &error);
  g_assert_no_error (error);
  text = stored_symbols_text (found);
  g_assert_cmpstr (text, ==, "pkg/util/paths.py:1:normalize_path");
  g_clear_pointer (&found, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);

  found = lode_index_store_find_container_members (fixture->store, "Server", 10, &error);
  g_assert_no_error (error);
  text = stored_symbols_text (found);
  g_assert_cmpstr (text, ==, "server.go:24:opts server.go:42:Serve server.go:50:printf");
  /* Each declaration keeps its scope path (the tools match qualified names with it). */
  g_assert_cmpstr (((LodeStoredSymbol *) found->pdata[1])->scope, ==, "grpc.Server");
  g_clear_pointer (&found, g_ptr_array_unref);
  found = lode_index_store_find_symbols (fixture->store, "Server", 10, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (((LodeStoredSymbol *) found->pdata[0])->scope, ==, NULL);
  g_ptr_array_set_size (symbols, 0);
  g_clear_pointer (&symbols, g_ptr_array_unref);
  symbols = lode_index_store_dup_symbols_for_file (fixture->store, "server.go", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (((LodeSymbol *) symbols->pdata[2])->scope, ==, "grpc.Server");
}

/* A file's references: where names appear, read back by name and by file, gone with it. */
static void
test_references (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeReferences) references = lode_references_new ();
  g_autoptr(LodeReferences) back = NULL;
  g_autoptr(GPtrArray) files = NULL;
  const LodeStoredReferences *file;

  lode_references_add (references, "strbuf_grow", 11, 17, LODE_REFERENCE_CALL);
  lode_references_add (references, "strbuf_grow", 11, 20, LODE_REFERENCE_DEFINITION);
  lode_references_add (references, "STRBUF_INIT", 11, 14, LODE_REFERENCE_USE);
  assert_ok (lode_index_store_begin (fixture->store, &error));
  put_strbuf (fixture->store);
  assert_ok (lode_index_store_put_references (fixture->store, "strbuf.c", references, &error));
  put_text (fixture->store, "README.md", "markdown", "2222", "Call strbuf_grow first.\n");
  assert_ok (lode_index_store_put_references (fixture->store, "README.md", NULL, &error));
  assert_ok (lode_index_store_commit (fixture->store, &error));

  files = lode_index_store_find_references (fixture->store, "strbuf_grow", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 1);
  file = g_ptr_array_index (files, 0);
  g_assert_cmpstr (file->path, ==, "strbuf.c");
  g_assert_cmpstr (file->language, ==, "c");
  g_assert_cmpuint (file->sites->len, ==, 2);
  g_assert_cmpuint (lode_reference_site_line (g_array_index (file->sites, guint32, 0)), ==, 17);
  g_assert_cmpuint (lode_reference_site_kind (g_array_index (file->sites, guint32, 1)), ==,
                    LODE_REFERENCE_DEFINITION);
  g_clear_pointer (&files, g_ptr_array_unref);

  back = lode_index_store_dup_references_for_file (fixture->store, "strbuf.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lode_references_get_n_names (back), ==, 2);
  g_clear_pointer (&back, lode_references_free);
  back = lode_index_store_dup_references_for_file (fixture->store, "README.md", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lode_references_get_n_names (back), ==, 0);

  assert_ok (lode_index_store_remove_file (fixture->store, "strbuf.c", &error));
  files = lode_index_store_find_references (fixture->store, "strbuf_grow", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 0);
}

/* Code lines out of the chunks that hold them, overlapping windows included. */
static void
test_lines (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  g_autofree char *lines = NULL;
  g_autoptr(GPtrArray) texts = NULL;
  const guint wanted[] = { 5, 2, 5, 9 };

  g_ptr_array_add (chunks, chunk_new (1, 4, NULL, NULL, NULL, NULL, "one\ntwo\nthree\nfour"));
  g_ptr_array_add (chunks, chunk_new (3, 6, NULL, NULL, NULL, NULL, "three\nfour\nfive\nsix"));
  put_rows (fixture->store, "notes.txt", "text", "7777", chunks, NULL, NULL);

  lines = lode_index_store_dup_lines (fixture->store, "notes.txt", 2, 5, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lines, ==, "two\nthree\nfour\nfive");
  texts = lode_index_store_dup_line_texts (fixture->store, "notes.txt", wanted, 4, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (texts->pdata[0], ==, "five");
  g_assert_cmpstr (texts->pdata[1], ==, "two");
  g_assert_cmpstr (texts->pdata[2], ==, "five");
  g_assert_cmpstr (texts->pdata[3], ==, "");
}

/* The import graph ------------------------------------------------------------------------ */

static void
test_graph (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) imports = g_ptr_array_new_with_free_func (
    (GDestroyNotify) lode_stored_import_free);
  g_autoptr(GPtrArray) stored = NULL;
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(GHashTable) hashes = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) packages = NULL;
  LodeGraphCounts counts;
  const guint *reached;
  guint n_reached = 0;
  guint from, to;
  gint64 unresolved_id;

  assert_ok (lode_index_store_begin (fixture->store, &error));
  put_strbuf (fixture->store);
  put_text (fixture->store, "strbuf.h", "c", "8888", "struct strbuf { size_t alloc; };\n");
  put_text (fixture->store, "git-compat-util.h", "c", "9999", "#include <stdlib.h>\n");
  g_ptr_array_add (imports, import_new ("strbuf.h", 2, "strbuf.h", "strbuf.h", NULL));
  g_ptr_array_add (imports, import_new ("git-compat-util.h", 1, "git-compat-util.h",
                                        "git-compat-util.h", NULL));
  g_ptr_array_add (imports, import_new ("zlib.h", 3, "zlib.h", NULL, "zlib"));
  g_ptr_array_add (imports, import_new ("gone.h", 4, "gone.h", NULL, NULL));
  assert_ok (lode_index_store_put_imports (fixture->store, "strbuf.c", imports, &error));
  assert_ok (lode_index_store_commit (fixture->store, &error));

  stored = lode_index_store_dup_imports (fixture->store, "strbuf.c", &error);
  g_assert_no_error (error);
  text = imports_text (stored);
  g_assert_cmpstr (text, ==, "strbuf.c:1:git-compat-util.h>git-compat-util.h| "
                             "strbuf.c:2:strbuf.h>strbuf.h| strbuf.c:3:zlib.h>|zlib "
                             "strbuf.c:4:gone.h>|");
  unresolved_id = ((LodeStoredImport *) stored->pdata[3])->id;
  g_clear_pointer (&stored, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);

  stored = lode_index_store_dup_imports (fixture->store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 4);
  g_clear_pointer (&stored, g_ptr_array_unref);
  stored = lode_index_store_dup_imports_for_key (fixture->store, "zlib.h", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 1);
  g_clear_pointer (&stored, g_ptr_array_unref);
  stored = lode_index_store_dup_imports_to (fixture->store, "strbuf.h", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 1);
  g_assert_cmpstr (((LodeStoredImport *) stored->pdata[0])->specifier, ==, "strbuf.h");
  g_clear_pointer (&stored, g_ptr_array_unref);

  assert_ok (lode_index_store_get_graph_counts (fixture->store, &counts, &error));
  g_assert_cmpuint (counts.n_imports, ==, 4);
  g_assert_cmpuint (counts.n_internal, ==, 2);
  g_assert_cmpuint (counts.n_external, ==, 1);

  /* A new resolution, then a file that goes: the imports that reached it lose it. */
  {
    const char *targets[] = { "strbuf.h", NULL };

    assert_ok (lode_index_store_set_import_targets (fixture->store, unresolved_id, targets,
                                                    NULL, &error));
  }
  assert_ok (lode_index_store_remove_file (fixture->store, "git-compat-util.h", &error));
  stored = lode_index_store_dup_imports (fixture->store, "strbuf.c", &error);
  g_assert_no_error (error);
  text = imports_text (stored);
  g_assert_cmpstr (text, ==, "strbuf.c:1:git-compat-util.h>| strbuf.c:2:strbuf.h>strbuf.h| "
                             "strbuf.c:3:zlib.h>|zlib strbuf.c:4:gone.h>strbuf.h|");
  g_clear_pointer (&stored, g_ptr_array_unref);

  graph = lode_index_store_load_graph (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lode_graph_get_n_files (graph), ==, 2);
  g_assert_true (lode_graph_lookup (graph, "strbuf.c", &from));
  g_assert_true (lode_graph_lookup (graph, "strbuf.h", &to));
  reached = lode_graph_get_imports (graph, from, &n_reached);
  g_assert_cmpuint (n_reached, >=, 1);
  g_assert_cmpuint (reached[0], ==, to);
  g_assert_cmpuint (lode_graph_get_imports (graph, to, &n_reached) != NULL ? n_reached : 0, ==,
                    0);
  packages = lode_graph_dup_packages (graph, from);
  g_assert_cmpuint (packages->len, ==, 1);
  g_assert_cmpstr (packages->pdata[0], ==, "zlib");

  /* An import whose file is gone since it was read is left alone. */
  assert_ok (lode_index_store_remove_file (fixture->store, "strbuf.c", &error));
  assert_ok (lode_index_store_set_import_targets (fixture->store, unresolved_id, NULL, NULL,
                                                  &error));

  assert_ok (lode_index_store_clear_graph (fixture->store, TRUE, &error));
  assert_ok (lode_index_store_get_graph_counts (fixture->store, &counts, &error));
  g_assert_cmpuint (counts.n_imports, ==, 0);
  hashes = lode_index_store_dup_file_hashes (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_true (g_hash_table_contains (hashes, "strbuf.h"));
  g_assert_null (g_hash_table_lookup (hashes, "strbuf.h"));
}

/* Vectors ------------------------------------------------------------------------------- */

static gboolean
count_vector_cb (const char  *hash,
                 const float *vector,
                 guint        dims,
                 gpointer     user_data)
{
  GHashTable *seen = user_data;

  g_assert_cmpuint (dims, ==, 4);
  g_assert_true (g_hash_table_add (seen, g_strdup (hash)));
  return TRUE;
}

/* A vector belongs to a text and a model: identical texts share it, a blank chunk has none. */
static void
test_vectors (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) todo = NULL;
  g_autoptr(GPtrArray) hashes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (float));
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  const float wrong[3] = { 1, 0, 0 };
  guint n_chunks = 0, n_embedded = 0, n_embeddable = 0, dims = 0;
  const char *other = "strbuf-other-model";

  put_strbuf (fixture->store);
  put_text (fixture->store, "copy.c", "c", "cccc",
            "char strbuf_slopbuf[1];\n\nvoid strbuf_init(struct strbuf *sb, size_t hint)\n{\n"
            "\tstruct strbuf blank = STRBUF_INIT;\n\tmemcpy(sb, &blank, sizeof(*sb));\n"
            "\tif (hint)\n\t\tstrbuf_grow(sb, hint);\n}\n");
  g_ptr_array_add (chunks, chunk_new (1, 3, NULL, NULL, NULL, NULL, "  \n\t\n"));
  put_rows (fixture->store, "blank.txt", "text", "dddd", chunks, NULL, NULL);

  assert_ok (lode_index_store_count_embedded (fixture->store, NULL, &n_embedded, &n_embeddable,
                                              &error));
  g_assert_cmpuint (n_embedded, ==, 0);
  g_assert_cmpuint (n_embeddable, ==, 4);
  todo = lode_index_store_dup_unembedded (fixture->store, "m", 0, 100, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (todo->len, ==, 4);
  for (guint i = 0; i < todo->len; i++)
    {
      const LodeStoreEmbedText *text = g_ptr_array_index (todo, i);
      g_autofree char *hash = lode_index_store_text_hash (text->text);
      const float vector[4] = { 0.5, 0.5, 0.5, i * 0.1f };

      g_assert_cmpstr (text->hash, ==, hash);
      g_assert_true (i == 0 ||
                     text->chunk_id > ((LodeStoreEmbedText *) todo->pdata[i - 1])->chunk_id);
      if (!g_ptr_array_find_with_equal_func (hashes, text->hash, g_str_equal, NULL))
        {
          g_ptr_array_add (hashes, g_strdup (text->hash));
          g_array_append_vals (values, vector, 4);
        }
    }
  /* copy.c holds strbuf_init's chunk again: three texts for four chunks. */
  g_assert_cmpuint (hashes->len, ==, 3);
  assert_ok (lode_index_store_put_vectors (fixture->store, "m", 4,
                                           (const char * const *) hashes->pdata,
                                           &g_array_index (values, float, 0), hashes->len,
                                           &n_chunks, &error));
  g_assert_cmpuint (n_chunks, ==, 4);
  assert_ok (lode_index_store_count_embedded (fixture->store, "m", &n_embedded, &n_embeddable,
                                              &error));
  g_assert_cmpuint (n_embedded, ==, 4);
  g_clear_pointer (&todo, g_ptr_array_unref);
  todo = lode_index_store_dup_unembedded (fixture->store, "m", 0, 100, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (todo->len, ==, 0);
  assert_ok (lode_search_backend_get_vector_dims (LODE_SEARCH_BACKEND (fixture->store), "m",
                                                  &dims, &error));
  g_assert_cmpuint (dims, ==, 4);

  g_assert_false (lode_index_store_put_vectors (fixture->store, "m", 3,
                                                (const char * const *) hashes->pdata, wrong, 1,
                                                NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  assert_ok (lode_index_store_foreach_vector (fixture->store, "m", count_vector_cb, seen,
                                              &error));
  g_assert_cmpuint (g_hash_table_size (seen), ==, 3);

  /* A model change embeds everything again; pruning then drops the old model's vectors. */
  g_clear_pointer (&todo, g_ptr_array_unref);
  todo = lode_index_store_dup_unembedded (fixture->store, other, 0, 100, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (todo->len, ==, 4);
  assert_ok (lode_index_store_put_vectors (fixture->store, other, 4,
                                           (const char * const *) hashes->pdata,
                                           &g_array_index (values, float, 0), hashes->len,
                                           &n_chunks, &error));
  assert_ok (lode_index_store_prune_vectors (fixture->store, other, &error));
  assert_ok (lode_index_store_count_embedded (fixture->store, "m", &n_embedded, &n_embeddable,
                                              &error));
  g_assert_cmpuint (n_embedded, ==, 0);
  assert_ok (lode_index_store_count_embedded (fixture->store, other, &n_embedded,
                                              &n_embeddable, &error));
  g_assert_cmpuint (n_embedded, ==, 4);
  g_hash_table_remove_all (seen);
  assert_ok (lode_index_store_foreach_vector (fixture->store, "m", count_vector_cb, seen,
                                              &error));
  g_assert_cmpuint (g_hash_table_size (seen), ==, 0);
}

/* Context artifacts ---------------------------------------------------------------------- */

static GPtrArray *
pieces_new (const char * const *rows)
{
  GPtrArray *pieces = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_chunk_free);

  for (guint i = 0; rows[i] != NULL; i += 2)
    {
      LodeArtifactChunk *piece = g_new0 (LodeArtifactChunk, 1);

      piece->path = g_strdup ("db/schema.sql");
      piece->start_line = i * 5 + 1;
      piece->end_line = i * 5 + 4;
      piece->kind = g_strdup ("sql");
      piece->title = g_strdup (rows[i]);
      piece->body = g_strdup (rows[i + 1]);
      g_ptr_array_add (pieces, piece);
    }
  return pieces;
}

static void
put_artifact (LodeIndexStore     *store,
              const char         *name,
              const char * const *rows)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pieces = pieces_new (rows);
  LodeStoredArtifact artifact = { (char *) name, "db/schema.sql", "The shop's schema",
                                  "abcd", 1732838400000000, 1, 99 };

  assert_ok (lode_index_store_put_artifact (store, &artifact, pieces, &error));
}

/* Artifacts live apart from the code, are read back as put, and are found with the statistics
 * their ranking needs; lode_artifact_search() ranks them the same over every store. */
static void
test_artifacts (Fixture       *fixture,
                gconstpointer  data)
{
  static const char * const schema[] = {
    "CREATE TABLE users",
    "CREATE TABLE users (\n  user_id BIGINT PRIMARY KEY,\n  email TEXT NOT NULL\n);",
    "CREATE TABLE orders",
    "CREATE TABLE orders (\n  order_id BIGINT PRIMARY KEY,\n  user_id BIGINT REFERENCES users\n);",
    NULL
  };
  static const char * const api[] = {
    "GET /users/{id}", "GET /users/{id}:\n  summary: Returns one user by id\n", NULL
  };
  const char *words[] = { "user", "order", "email", "zebra", NULL };
  guint64 n_holding[4] = { 0 };
  LodeArtifactStats stats = { 0, 0, n_holding };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) artifacts = NULL;
  g_autoptr(GPtrArray) pieces = NULL;
  g_autoptr(GPtrArray) hits = NULL;
  LodeStoreStats code;
  const LodeStoredArtifact *artifact;

  put_text (fixture->store, "users.py", "python", "eeee", "def create_user(email):\n    pass\n");
  put_artifact (fixture->store, "database", schema);
  put_artifact (fixture->store, "api", api);

  artifacts = lode_index_store_dup_artifacts (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (artifacts->len, ==, 2);
  artifact = g_ptr_array_index (artifacts, 1);
  g_assert_cmpstr (((LodeStoredArtifact *) artifacts->pdata[0])->name, ==, "api");
  g_assert_cmpstr (artifact->name, ==, "database");
  g_assert_cmpstr (artifact->path, ==, "db/schema.sql");
  g_assert_cmpstr (artifact->description, ==, "The shop's schema");
  g_assert_cmpstr (artifact->hash, ==, "abcd");
  g_assert_cmpint (artifact->indexed_at, ==, 1732838400000000);
  g_assert_cmpuint (artifact->n_files, ==, 1);
  g_assert_cmpuint (artifact->n_chunks, ==, 2);

  pieces = lode_index_store_dup_artifact_chunks (fixture->store, "database", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pieces->len, ==, 2);
  g_assert_cmpstr (((LodeArtifactChunk *) pieces->pdata[1])->title, ==, "CREATE TABLE orders");
  g_assert_cmpuint (((LodeArtifactChunk *) pieces->pdata[1])->start_line, ==, 11);
  g_clear_pointer (&pieces, g_ptr_array_unref);

  /* No code query counts them. */
  assert_ok (lode_index_store_get_stats (fixture->store, &code, &error));
  g_assert_cmpuint (code.n_files, ==, 1);
  g_assert_cmpuint (code.n_chunks, ==, 1);

  /* The statistics of all pieces: 3 of 14, 14 and 12 tokens (`user_id` counts once with its
   * parts); the words in 3, 1, 1 and no pieces. */
  hits = lode_index_store_find_artifact_pieces (fixture->store, words, "api", 1000, &stats,
                                                &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stats.n_pieces, ==, 3);
  g_assert_cmpuint (stats.n_tokens, ==, 40);
  g_assert_cmpuint (n_holding[0], ==, 3);
  g_assert_cmpuint (n_holding[1], ==, 1);
  g_assert_cmpuint (n_holding[2], ==, 1);
  g_assert_cmpuint (n_holding[3], ==, 0);
  g_assert_cmpuint (hits->len, ==, 1);
  g_assert_cmpstr (((LodeArtifactHit *) hits->pdata[0])->artifact, ==, "api");
  g_assert_cmpstr (((LodeArtifactHit *) hits->pdata[0])->body, ==, api[1]);
  g_clear_pointer (&hits, g_ptr_array_unref);

  /* Ranked the same over every store: the users table first for its email. */
  {
    const char *question[] = { "email", "user", NULL };

    hits = lode_artifact_search (fixture->store, question, NULL, 10, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (hits->len, ==, 3);
    g_assert_cmpstr (((LodeArtifactHit *) hits->pdata[0])->title, ==, "CREATE TABLE users");
    g_assert_cmpfloat (((LodeArtifactHit *) hits->pdata[0])->relevance, >,
                       ((LodeArtifactHit *) hits->pdata[1])->relevance);
    g_clear_pointer (&hits, g_ptr_array_unref);
  }

  /* Replaced whole, removed whole. */
  put_artifact (fixture->store, "database", schema + 2);
  pieces = lode_index_store_dup_artifact_chunks (fixture->store, "database", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pieces->len, ==, 1);
  g_clear_pointer (&pieces, g_ptr_array_unref);
  assert_ok (lode_index_store_remove_artifact (fixture->store, "database", &error));
  assert_ok (lode_index_store_remove_artifact (fixture->store, "never", &error));
  pieces = lode_index_store_dup_artifact_chunks (fixture->store, "database", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (pieces->len, ==, 0);
  g_clear_pointer (&artifacts, g_ptr_array_unref);
  artifacts = lode_index_store_dup_artifacts (fixture->store, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (artifacts->len, ==, 1);
}

/* Calls ----------------------------------------------------------------------------------- */

static LodeStoredCall *
call_new (const char     *caller,
          guint           caller_line,
          const char     *callee,
          guint           line,
          LodeCallStatus  status,
          LodeCallRule    rule,
          const char     *target_path,
          guint           target_line,
          const char     *package)
{
  LodeStoredCall *call = g_new0 (LodeStoredCall, 1);

  call->caller = g_strdup (caller);
  call->caller_line = caller_line;
  call->callee = g_strdup (callee);
  call->qualifier = g_strcmp0 (callee, "inflate") == 0 ? g_strdup ("zs") : NULL;
  call->line = line;
  call->status = status;
  call->rule = rule;
  call->confidence = status == LODE_CALL_AMBIGUOUS ? 0.425 : status == LODE_CALL_RESOLVED ? 1.0
                                                                                          : 0.0;
  call->target_path = g_strdup (target_path);
  call->target_line = target_line;
  call->package = g_strdup (package);
  return call;
}

/* strbuf_init's calls as the resolver leaves them: one resolved in its file, one ambiguous
 * between two candidates (a row each), one external, one unresolved. */
static GPtrArray *
strbuf_calls (void)
{
  GPtrArray *calls = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_call_free);

  g_ptr_array_add (calls, call_new ("strbuf_init", 12, "strbuf_grow", 18, LODE_CALL_RESOLVED,
                                    LODE_CALL_RULE_LOCAL, "strbuf.c", 20, NULL));
  g_ptr_array_add (calls, call_new ("strbuf_init", 12, "die", 14, LODE_CALL_AMBIGUOUS,
                                    LODE_CALL_RULE_IMPORT, "usage.c", 3, NULL));
  g_ptr_array_add (calls, call_new ("strbuf_init", 12, "die", 14, LODE_CALL_AMBIGUOUS,
                                    LODE_CALL_RULE_IMPORT, "compat/die.c", 8, NULL));
  g_ptr_array_add (calls, call_new ("strbuf_init", 12, "inflate", 15, LODE_CALL_EXTERNAL,
                                    LODE_CALL_RULE_IMPORT, NULL, 0, "zlib"));
  g_ptr_array_add (calls, call_new (NULL, 0, "memcpy", 16, LODE_CALL_UNRESOLVED,
                                    LODE_CALL_RULE_NONE, NULL, 0, NULL));
  return calls;
}

static char *
calls_text (GPtrArray *calls)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < calls->len; i++)
    {
      const LodeStoredCall *call = g_ptr_array_index (calls, i);

      g_string_append_printf (text, "%s%s:%s@%u %s%s%s:%u %s/%s %.3f %s:%u %s", i > 0 ? " | " : "",
                              call->path, call->caller != NULL ? call->caller : "-",
                              call->caller_line, call->qualifier != NULL ? call->qualifier : "",
                              call->qualifier != NULL ? "." : "", call->callee, call->line,
                              lode_call_status_to_string (call->status),
                              lode_call_rule_to_string (call->rule), call->confidence,
                              call->target_path != NULL ? call->target_path : "-",
                              call->target_line, call->package != NULL ? call->package : "-");
    }
  return g_string_free (text, FALSE);
}

#define STRBUF_CALLS \
  "strbuf.c:strbuf_init@12 strbuf_grow:18 resolved/local 1.000 strbuf.c:20 - | " \
  "strbuf.c:strbuf_init@12 die:14 ambiguous/import 0.425 usage.c:3 - | " \
  "strbuf.c:strbuf_init@12 die:14 ambiguous/import 0.425 compat/die.c:8 - | " \
  "strbuf.c:strbuf_init@12 zs.inflate:15 external/import 0.000 -:0 zlib | " \
  "strbuf.c:-@0 memcpy:16 unresolved/none 0.000 -:0 -"

/* strbuf.c's call sites, as lode_calls_to_bytes() keeps them. */
static GBytes *
strbuf_sites (void)
{
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(LodeCalls) sites = lode_calls_new ();

  strbuf_rows (&chunks, &symbols);
  lode_calls_add_binding (sites, LODE_CALL_BINDING_IMPORT, -1, "inflate", NULL, "zlib.h", 2);
  return lode_calls_to_bytes (sites, symbols);
}

/* Each file's call sites and calls as they were put, in their order, across a reopening;
 * putting the file again, removing it or clearing the graph drops them. */
static void
test_calls (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) calls = strbuf_calls ();
  g_autoptr(GBytes) sites = strbuf_sites ();
  g_autoptr(GPtrArray) stored = NULL;
  g_autoptr(GHashTable) stored_sites = NULL;
  g_autoptr(GBytes) file_sites = NULL;
  g_autoptr(LodeIndexStore) reader = NULL;
  g_autofree char *text = NULL;

  assert_ok (lode_index_store_begin (fixture->store, &error));
  put_strbuf (fixture->store);
  put_text (fixture->store, "strbuf.h", "c", "8888", "struct strbuf { size_t alloc; };\n");
  assert_ok (lode_index_store_put_call_sites (fixture->store, "strbuf.c", sites, &error));
  assert_ok (lode_index_store_put_calls (fixture->store, "strbuf.c", calls, &error));
  assert_ok (lode_index_store_commit (fixture->store, &error));

  /* A path the index does not hold. */
  g_assert_false (lode_index_store_put_calls (fixture->store, "gone.c", calls, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (lode_index_store_put_call_sites (fixture->store, "gone.c", sites, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  reader = open_store (fixture, FALSE);
  stored = lode_index_store_dup_calls (reader, "strbuf.c", &error);
  g_assert_no_error (error);
  text = calls_text (stored);
  g_assert_cmpstr (text, ==, STRBUF_CALLS);
  g_clear_pointer (&stored, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);
  stored = lode_index_store_dup_calls (reader, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 5);
  g_clear_pointer (&stored, g_ptr_array_unref);
  stored = lode_index_store_dup_calls (reader, "strbuf.h", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 0);
  g_clear_pointer (&stored, g_ptr_array_unref);
  stored_sites = lode_index_store_dup_call_sites (reader, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (stored_sites), ==, 1);
  g_assert_true (g_bytes_equal (g_hash_table_lookup (stored_sites, "strbuf.c"), sites));
  g_clear_pointer (&stored_sites, g_hash_table_unref);
  file_sites = lode_index_store_dup_file_call_sites (reader, "strbuf.c", &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (file_sites, sites));
  g_clear_pointer (&file_sites, g_bytes_unref);
  g_assert_null (lode_index_store_dup_file_call_sites (reader, "strbuf.h", &error));
  g_assert_no_error (error);
  g_assert_null (lode_index_store_dup_file_call_sites (reader, "missing.c", &error));
  g_assert_no_error (error);
  g_clear_object (&reader);

  /* Put again: what was stored from the file goes with it. */
  put_strbuf (fixture->store);
  stored = lode_index_store_dup_calls (fixture->store, "strbuf.c", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 0);
  g_clear_pointer (&stored, g_ptr_array_unref);
  stored_sites = lode_index_store_dup_call_sites (fixture->store, &error);
  g_assert_cmpuint (g_hash_table_size (stored_sites), ==, 0);
  g_clear_pointer (&stored_sites, g_hash_table_unref);
  g_assert_null (lode_index_store_dup_file_call_sites (fixture->store, "strbuf.c", &error));
  g_assert_no_error (error);

  assert_ok (lode_index_store_put_call_sites (fixture->store, "strbuf.c", sites, &error));
  assert_ok (lode_index_store_put_calls (fixture->store, "strbuf.c", calls, &error));
  assert_ok (lode_index_store_clear_graph (fixture->store, FALSE, &error));
  stored = lode_index_store_dup_calls (fixture->store, NULL, &error);
  g_assert_cmpuint (stored->len, ==, 0);
  g_clear_pointer (&stored, g_ptr_array_unref);
  stored_sites = lode_index_store_dup_call_sites (fixture->store, &error);
  g_assert_cmpuint (g_hash_table_size (stored_sites), ==, 0);
  g_clear_pointer (&stored_sites, g_hash_table_unref);

  assert_ok (lode_index_store_put_call_sites (fixture->store, "strbuf.c", sites, &error));
  assert_ok (lode_index_store_put_calls (fixture->store, "strbuf.c", calls, &error));
  assert_ok (lode_index_store_remove_file (fixture->store, "strbuf.c", &error));
  stored = lode_index_store_dup_calls (fixture->store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stored->len, ==, 0);
  stored_sites = lode_index_store_dup_call_sites (fixture->store, &error);
  g_assert_cmpuint (g_hash_table_size (stored_sites), ==, 0);
}

/* Copying between stores keeps every row and each declaration's chunk. */
static void
test_copy (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeIndexStore) sqlite = NULL;
  g_autofree char *sqlite_path = g_build_filename (fixture->dir, "copy", "index.db", NULL);
  g_autoptr(GArray) owners = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(LodeReferences) references = lode_references_new ();
  g_autoptr(GPtrArray) calls = strbuf_calls ();
  g_autoptr(GBytes) sites = strbuf_sites ();
  g_autoptr(GPtrArray) copied = NULL;
  g_autoptr(GHashTable) copied_sites = NULL;
  g_autofree char *text = NULL;
  LodeStoreCopyCounts counts;

  lode_references_add (references, "strbuf_grow", 11, 17, LODE_REFERENCE_CALL);
  put_strbuf (fixture->store);
  assert_ok (lode_index_store_put_call_sites (fixture->store, "strbuf.c", sites, &error));
  assert_ok (lode_index_store_put_calls (fixture->store, "strbuf.c", calls, &error));
  assert_ok (lode_index_store_put_references (fixture->store, "strbuf.c", references, &error));
  assert_ok (lode_index_store_set_meta (fixture->store, "root", "/src/git", &error));

  sqlite = lode_index_store_open (fixture->config, LODE_STORE_KIND_SQLITE, sqlite_path, 4, TRUE,
                                  NULL, &error);
  g_assert_no_error (error);
  assert_ok (lode_index_store_copy (fixture->store, sqlite, NULL, NULL, &counts, &error));
  g_assert_cmpuint (counts.n_files, ==, 1);
  g_assert_cmpuint (counts.n_chunks, ==, 3);
  g_assert_cmpuint (counts.n_references, ==, 1);

  symbols = lode_index_store_dup_symbols_for_file (sqlite, "strbuf.c", &owners, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (symbols->len, ==, 4);
  /* By line: starts_with, strbuf_slopbuf, strbuf_init, strbuf_grow, in chunks 1-9, 20-31,
   * 10-19, 20-31 (by line, the chunks are 0, 1, 2). */
  g_assert_cmpuint (g_array_index (owners, guint, 0), ==, 0);
  g_assert_cmpuint (g_array_index (owners, guint, 1), ==, 2);
  g_assert_cmpuint (g_array_index (owners, guint, 2), ==, 1);
  g_assert_cmpuint (g_array_index (owners, guint, 3), ==, 2);
  {
    g_autofree char *root = lode_index_store_dup_meta (sqlite, "root");

    g_assert_cmpstr (root, ==, "/src/git");
  }

  copied = lode_index_store_dup_calls (sqlite, NULL, &error);
  g_assert_no_error (error);
  text = calls_text (copied);
  g_assert_cmpstr (text, ==, STRBUF_CALLS);
  copied_sites = lode_index_store_dup_call_sites (sqlite, &error);
  g_assert_no_error (error);
  g_assert_true (g_bytes_equal (g_hash_table_lookup (copied_sites, "strbuf.c"), sites));
}

/* Exact and regex search ------------------------------------------------------------------ */

/* The files that may hold a text: never fewer than those that do (by case-folded trigrams);
 * a store that keeps trigrams names no other, follows a replaced file's text and forgets a
 * removed one. A store without them names every file. */
static void
test_text_files (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  struct
  {
    const char *pattern;
    gboolean    regex;
    const char *holding;
  } cases[] = {
    { "strbuf_grow", FALSE, "strbuf.c" },
    { "STRBUF_GROW", FALSE, "strbuf.c" },
    { "timers are disabled", FALSE, "driver.rs" },
    { "\"quoted\" * (star) AND OR", FALSE, "odd.txt" },
    { "(strbuf_gr|timers a)(ow|re)", TRUE, "driver.rs strbuf.c" },
    { "Ünïcödé", FALSE, "odd.txt" },
  };
  gboolean indexed;

  put_strbuf (fixture->store);
  put_text (fixture->store, "driver.rs", "rust",  "2222",
            "fn time() {\n    panic!(\"A Tokio 1.x context was found, but timers are disabled\");\n}\n");
  put_text (fixture->store, "odd.txt", "text", "3333",
            "a \"quoted\" * (star) AND OR line\nünïcödé\n");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *files = test_dup_text_files (fixture->store, cases[i].pattern,
                                                    cases[i].regex, &indexed);

      if (indexed)
        g_assert_cmpstr (files, ==, cases[i].holding);
      else
        g_assert_cmpstr (files, ==, "driver.rs odd.txt strbuf.c");
    }

  /* A replaced text is found, the old one no longer. */
  put_text (fixture->store, "driver.rs", "rust", "4444", "fn time() { timers_were_enabled (); }\n");
  {
    g_autofree char *old_text = test_dup_text_files (fixture->store, "timers are disabled",
                                                     FALSE, &indexed);
    g_autofree char *new_text = test_dup_text_files (fixture->store, "timers_were_enabled",
                                                     FALSE, &indexed);

    if (indexed)
      {
        g_assert_cmpstr (old_text, ==, "");
        g_assert_cmpstr (new_text, ==, "driver.rs");
      }
  }
  assert_ok (lode_index_store_remove_file (fixture->store, "driver.rs", &error));
  {
    g_autofree char *gone = test_dup_text_files (fixture->store, "timers_were_enabled", FALSE,
                                                 &indexed);

    g_assert_cmpstr (gone, ==, indexed ? "" : "odd.txt strbuf.c");
  }
  /* SQLite keeps trigrams; Qdrant does not yet (TODO(#29)): its callers read every file. */
  g_assert_cmpint (indexed, ==, fixture->kind == LODE_STORE_KIND_SQLITE);
}

/* A long literal is looked up by its rare trigrams: the files that hold only its common ones
 * (here every trigram of `refs_read_ref`, in git's refs code) are not named. */
static void
test_text_files_rare_trigrams (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autofree char *files = NULL;
  gboolean indexed;

  put_text (fixture->store, "refs.c", "c", "5555",
            "int refs_read_ref (struct ref_store *refs, const char *refname,\n"
            "                   struct object_id *oid)\n{\n"
            "  return refs_read_ref_full (refs, refname, RESOLVE_REF_READING, oid, NULL);\n}\n");
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *path = g_strdup_printf ("builtin/cmd-%u.c", i);
      g_autofree char *text = g_strdup_printf ("static int cmd_%u (struct repository *r)\n{\n"
                                               "  if (refs_read_ref (get_main_ref_store (r), "
                                               "\"HEAD\", &oid))\n    return -1;\n}\n", i);

      put_text (fixture->store, path, "c", "6666", text);
    }

  files = test_dup_text_files (fixture->store, "refs_read_ref_full", FALSE, &indexed);
  g_assert_cmpstr (files, ==, indexed ? "refs.c"
                   : "builtin/cmd-0.c builtin/cmd-1.c builtin/cmd-2.c builtin/cmd-3.c "
                     "builtin/cmd-4.c builtin/cmd-5.c refs.c");
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The chunks of a literal's files that hold it, as their first lines (@common set when more
 * than @max_files files may hold it). */
static char *
text_chunks (Fixture    *fixture,
             const char *literal,
             guint       max_files,
             gboolean   *common)
{
  LodeSearchBackend *backend = LODE_SEARCH_BACKEND (fixture->store);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;

  assert_ok (lode_search_backend_find_text (backend, literal, max_files, ids, common, &error));
  rows = lode_search_backend_fetch_chunks (backend, (const gint64 *) ids->data, ids->len, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < rows->len; i++)
    {
      const LodeChunkRow *row = rows->pdata[i];

      g_ptr_array_add (found, g_strdup_printf ("%s:%u", row->path, row->start_line));
    }
  g_ptr_array_sort (found, compare_strings);
  g_ptr_array_add (found, NULL);
  return g_strjoinv (" ", (char **) found->pdata);
}

/* The searcher's literal look-up: the chunks that hold a message (ASCII case ignored), none
 * when more files than allowed may hold it. A store without an index of its text finds
 * none and never calls a literal common. */
static void
test_text_chunks (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  gboolean keeps = fixture->kind == LODE_STORE_KIND_SQLITE;
  gboolean common = TRUE;

  g_ptr_array_add (chunks, chunk_new (1, 4, "function", "io", NULL, NULL,
                                      "fn io(&self) {\n    self.io.expect(\"A Tokio 1.x context "
                                      "was found, but IO is disabled.\");\n}\n"));
  g_ptr_array_add (chunks, chunk_new (5, 8, "function", "time", NULL, NULL,
                                      "fn time(&self) {\n    self.time.expect(\"A Tokio 1.x "
                                      "context was found, but timers are disabled.\");\n}\n"));
  put_rows (fixture->store, "driver.rs", "rust", "1111", chunks, NULL, NULL);
  put_text (fixture->store, "builder.rs", "rust", "2222",
            "/// IO is disabled by default; timers too.\npub struct Builder {}\n");

  {
    g_autofree char *io = text_chunks (fixture, "io IS disabled", 8, &common);
    g_autofree char *context = text_chunks (fixture, "A Tokio 1.x context was found", 8,
                                            &common);
    g_autofree char *none = text_chunks (fixture, "IO is enabled", 8, &common);

    g_assert_cmpstr (io, ==, keeps ? "builder.rs:1 driver.rs:1" : "");
    g_assert_cmpstr (context, ==, keeps ? "driver.rs:1 driver.rs:5" : "");
    g_assert_cmpstr (none, ==, "");
    g_assert_false (common);
  }
  {
    g_autofree char *rare = text_chunks (fixture, "IO is disabled", 1, &common);

    g_assert_cmpstr (rare, ==, "");
    g_assert_cmpint (common, ==, keeps);
  }
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char *name;
    void      (*func) (Fixture *, gconstpointer);
  } cases[] = {
    { "files", test_files },
    { "batches", test_batches },
    { "symbols", test_symbols },
    { "packages", test_packages },
    { "references", test_references },
    { "lines", test_lines },
    { "graph", test_graph },
    { "calls", test_calls },
    { "text-chunks", test_text_chunks },
    { "vectors", test_vectors },
    { "artifacts", test_artifacts },
    { "copy", test_copy },
    { "text-files", test_text_files },
    { "text-files-rare-trigrams", test_text_files_rare_trigrams },
  };
  static const LodeStoreKind kinds[] = { LODE_STORE_KIND_SQLITE, LODE_STORE_KIND_QDRANT };

  /* Isolated XDG dirs hide the desktop schemas the GNOME proxy resolver reads. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
      {
        g_autofree char *path = g_strdup_printf ("/lode/store-contract/%s/%s",
                                                 lode_store_kind_to_string (kinds[k]),
                                                 cases[c].name);

        g_test_add (path, Fixture, GUINT_TO_POINTER (kinds[k]), setup, cases[c].func, teardown);
      }

  return g_test_run ();
}
