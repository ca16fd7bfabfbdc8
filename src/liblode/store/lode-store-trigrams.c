/* lode-store-trigrams.c — the SQLite index's trigrams, for codebase_grep
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
 * `files_tri` indexes every file's text (rowid = the file's id; the text is its chunks',
 * which cover every line) by its trigrams, case folded, `detail=none`: a document list per
 * trigram and nothing else (no positions, no copy of the text, which `chunks_fts` already
 * holds). FTS5 keeps those lists as merged segments, so a file's edit writes only its own
 * entries.
 *
 * The tokenizer is ours, `lode_trigram`, not SQLite's `trigram`: it gives FTS5 each
 * distinct trigram of a text once (as its UTF-8 and a byte of salt, below) and none that
 * spans a line break (no line pattern requires one), so a file's chunks joined in any order
 * give the same set. SQLite's gives every position, and FTS5 then looks each up in its
 * pending terms. Case is folded character by character, as lode_grep_fold() does (a
 * query's trigrams stay aligned). A contentless table forgets a row only when given the
 * text it was indexed with (SQLite 3.40 has no `contentless_delete`): a file is forgotten
 * with its chunks' text from `chunks_fts`, before those rows go.
 *
 * Files and not chunks: on git v2.47.0 one document per chunk cost the indexer twice its
 * CPU time (a trigram common to a file's chunks is written once per chunk); per file, the
 * look-up also needs no join through the chunks.
 *
 * What FTS5 costs the writer per trigram is its pending hash (bench/README.md, "The trigram
 * index's cost"). Each term the tokenizer gives ends with one byte of salt, a hash of its
 * trigram: FTS5's own hash of a term (`fts5HashKey2()`, three bits of shift per byte) spreads
 * three-byte terms over at most 2^17 of its slots, and git's 210,000 distinct trigrams then
 * made chains of 13 entries on average, each a cache miss and a memcmp(); the salt comes last
 * in the term, which that hash shifts furthest. Terms keep their trigram first, so their
 * order and prefix compression in FTS5's segments stay as they were. And the table's pending
 * hash holds 8 MiB instead of 1: at 1 MiB (mostly the entries' headers, 50 bytes per term)
 * FTS5 wrote a segment every twenty files or so and spent as much again merging them; at
 * 8 MiB it writes about one per batch of the indexer.
 */

const char _lode_store_trigrams_schema_sql[] =
  "CREATE VIRTUAL TABLE IF NOT EXISTS files_tri USING fts5 ("
  "  body, tokenize = 'lode_trigram', detail = none, content = '', columnsize = 0"
  ");"
  "INSERT INTO files_tri (files_tri, rank) VALUES ('hashsize', 8388608);";

/* A file without chunks was never put (nor is it forgotten). */
static const char sql_forget_file[] =
  "INSERT INTO files_tri (files_tri, rowid, body) "
  "SELECT 'delete', ?1, group_concat (f.body, char (10)) "
  "FROM chunks c JOIN chunks_fts f ON f.rowid = c.id WHERE c.file_id = ?1 "
  "HAVING count (*) > 0";
static const char sql_put_file[] = "INSERT INTO files_tri (rowid, body) VALUES (?1, ?2)";
static const char sql_find_files[] = "SELECT rowid FROM files_tri WHERE files_tri MATCH ?1";
static const char sql_files_by_path[] = "SELECT id, path, language FROM files ORDER BY path";
static const char sql_count_files[] = "SELECT count (*) FROM files_tri WHERE files_tri MATCH ?1";

/* The trigrams of a literal looked up at most (see append_match()), and the trigrams whose
 * count of files a connection keeps at most. */
#define MAX_LITERAL_TRIGRAMS 4
#define MAX_DOC_COUNTS 65536

/* The tokenizer ----------------------------------------------------------------------- */

/* The trigrams already given for one text, each as its three folded characters packed
 * into 63 bits (21 each, plus one so that no key is 0): open addressing, at most half
 * full. */
typedef struct
{
  guint64 *keys;
  gsize    mask;
  gsize    n;
} TrigramSet;

static gboolean trigram_set_add (TrigramSet *set,
                                 guint64     key);

static void
trigram_set_grow (TrigramSet *set)
{
  guint64 *old = set->keys;
  gsize old_size = set->mask + 1;

  set->keys = g_new0 (guint64, old_size * 2);
  set->mask = old_size * 2 - 1;
  set->n = 0;
  for (gsize i = 0; i < old_size; i++)
    if (old[i] != 0)
      trigram_set_add (set, old[i]);
  g_free (old);
}

/* Whether @key was not in @set (it is now). */
static gboolean
trigram_set_add (TrigramSet *set,
                 guint64     key)
{
  if (set->n * 2 >= set->mask)
    trigram_set_grow (set);
  for (gsize i = (key * 0x9E3779B97F4A7C15ull) >> 20 & set->mask;; i = (i + 1) & set->mask)
    {
      if (set->keys[i] == 0)
        {
          set->keys[i] = key;
          set->n++;
          return TRUE;
        }
      if (set->keys[i] == key)
        return FALSE;
    }
}

/* The byte that ends the term of trigram @key (see above): never 0, since SQLite 3.40's FTS5
 * reads a pending term up to its first 0 byte. */
static char
trigram_salt (guint64 key)
{
  return (char) (1 + ((key * 0x9E3779B97F4A7C15ull) >> 56) % 255);
}

static int fts5_trigram_instance;

static int
trigram_create (void            *user_data,
                const char     **argv,
                int              argc,
                Fts5Tokenizer  **out)
{
  if (argc > 0)
    return SQLITE_ERROR;
  *out = (Fts5Tokenizer *) &fts5_trigram_instance;
  return SQLITE_OK;
}

static void
trigram_delete (Fts5Tokenizer *tokenizer)
{
}

/* FTS5 hands documents and query terms alike; both get the same trigrams. Text that is
 * not valid UTF-8 gets none past the first bad byte (the indexer stores valid text). */
static int
trigram_tokenize (Fts5Tokenizer *tokenizer,
                  void          *ctx,
                  int            flags,
                  const char    *text,
                  int            len,
                  int          (*x_token) (void *, int, const char *, int, int, int))
{
  const char *end = text + MAX (len, 0);
  gunichar window[3];
  int starts[3];
  guint n = 0;
  TrigramSet set = { NULL, 255, 0 };
  int rc = SQLITE_OK;

  if ((flags & FTS5_TOKENIZE_DOCUMENT) != 0 &&
      _lode_store_tokens_replay (LODE_STORE_TOKENS_TRIGRAMS, text, len, ctx, x_token, &rc))
    return rc;
  if (text == NULL || len < 3)
    return SQLITE_OK;
  /* Sized for a text's usual count of distinct trigrams (a tenth to a quarter of its
   * bytes), so that a long one is not rehashed from 256 keys up. */
  while (set.mask < (gsize) len / 2 && set.mask < 32767)
    set.mask = set.mask * 2 + 1;
  set.keys = g_new0 (guint64, set.mask + 1);

  for (const char *p = text; p < end && rc == SQLITE_OK;)
    {
      const char *start = p;
      gunichar c;
      guint64 key;

      if ((guchar) *p < 0x80)
        {
          /* g_ascii_tolower(), inline: it runs for every byte of the tree. */
          c = (guchar) *p++;
          if (c - 'A' < 26)
            c += 'a' - 'A';
        }
      else
        {
          const char *next = g_utf8_find_next_char (p, end);

          if (next == NULL)
            next = end;
          c = g_utf8_get_char_validated (p, next - p);
          if (c >= 0x110000)
            break;
          c = g_unichar_tolower (c);
          p = next;
        }
      if (c == '\n')
        {
          n = 0;
          continue;
        }
      if (n == 3)
        {
          window[0] = window[1];
          window[1] = window[2];
          starts[0] = starts[1];
          starts[1] = starts[2];
          n = 2;
        }
      window[n] = c;
      starts[n++] = (int) (start - text);
      if (n < 3)
        continue;
      key = ((guint64) window[0] << 42 | (guint64) window[1] << 21 | window[2]) + 1;
      if (trigram_set_add (&set, key))
        {
          char bytes[3 * 4 + 1];
          gint length = 0;

          for (guint i = 0; i < 3; i++)
            length += g_unichar_to_utf8 (window[i], bytes + length);
          bytes[length++] = trigram_salt (key);
          rc = x_token (ctx, 0, bytes, length, starts[0], (int) (p - text));
        }
    }

  g_free (set.keys);
  return rc;
}

gboolean
_lode_store_register_trigrams (sqlite3  *db,
                               GError  **error)
{
  static fts5_tokenizer tokenizer = { trigram_create, trigram_delete, trigram_tokenize };
  fts5_api *api = _lode_store_get_fts5 (db, error);
  int rc;

  if (api == NULL)
    return FALSE;
  rc = api->xCreateTokenizer (api, "lode_trigram", NULL, &tokenizer, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "Cannot register the lode_trigram tokenizer: %s", sqlite3_errstr (rc));
      return FALSE;
    }
  return TRUE;
}

/* The table ---------------------------------------------------------------------------- */

/* Runs on the writer's thread, inside its batch, before the chunks of @file_id go. */
gboolean
_lode_store_trigrams_forget_file (LodeStore  *self,
                                  gint64      file_id,
                                  GError    **error)
{
  sqlite3_stmt *s = _lode_store_statement (self, sql_forget_file, error);

  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, file_id);
  return _lode_store_run (self, s, error, "Cannot forget a file's trigrams");
}

/* The text a file's row holds: its chunks' joined by line breaks; NULL without chunks (the
 * file is not put). */
static GString *
join_chunks (GPtrArray *chunks)
{
  GString *text;

  if (chunks == NULL || chunks->len == 0)
    return NULL;
  text = g_string_new (NULL);
  for (guint i = 0; i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);

      if (i > 0)
        g_string_append_c (text, '\n');
      if (chunk->content != NULL)
        g_string_append (text, chunk->content);
    }
  return text;
}

/* Appends to @out the trigrams _lode_store_trigrams_put_file() will give FTS5 for
 * @chunks (any thread, see _lode_store_tokens_record()). */
void
_lode_store_trigrams_record (GByteArray *out,
                             GPtrArray  *chunks)
{
  g_autoptr(GString) text = join_chunks (chunks);

  if (text != NULL)
    _lode_store_tokens_record (out, LODE_STORE_TOKENS_TRIGRAMS, trigram_tokenize, text->str,
                               text->len);
}

/* Runs on the writer's thread, inside its batch, after the chunks of @file_id. */
gboolean
_lode_store_trigrams_put_file (LodeStore   *self,
                               gint64       file_id,
                               GPtrArray   *chunks,
                               GError     **error)
{
  g_autoptr(GString) text = join_chunks (chunks);
  sqlite3_stmt *s;

  if (text == NULL)
    return TRUE;
  s = _lode_store_statement (self, sql_put_file, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, file_id);
  sqlite3_bind_text (s, 2, text->str, text->len, SQLITE_STATIC);
  return _lode_store_run (self, s, error, "Cannot index a file's trigrams");
}

/* Merges files_tri's segments into one. A first run leaves what FTS5's automerge made of a
 * segment per batch (seven on git v2.47.0), and a look-up seeks each of its trigrams in each
 * segment: on git, 0.25 -> 0.17 ms per look-up (the median of grep-bench.py's identifiers
 * and literals), for 0.24 s at the end of the first run. Later runs add a small segment per
 * batch, which automerge folds in. */
gboolean
_lode_store_trigrams_merge (LodeStore  *self,
                            GError    **error)
{
  int rc = sqlite3_exec (self->db, "INSERT INTO files_tri (files_tri) VALUES ('optimize')",
                         NULL, NULL, NULL);

  if (rc != SQLITE_OK)
    return _lode_store_set_error (self, rc, error, "Cannot merge the trigrams' segments");
  return TRUE;
}

/* What look-ups learn about the index, per connection, kept until it changes (another
 * connection committed: the data version; or this one wrote: its change count):
 *
 * - the files by path (only their path and language), and each file's place in that order
 *   by its id: a look-up's candidates come out of FTS5 as ids, and the rows of a common
 *   literal's thousand files took longer to fetch and sort by path (1.1 ms for `NULL` on
 *   git) than FTS5 took to find them;
 * - how many files hold each trigram looked up so far (see append_match()). */
typedef struct
{
  gint64      id;
  const char *path;
  const char *language;
} OrderedFile;

struct _LodeStoreTrigramCache
{
  gint64        version;
  gint64        changes;
  GStringChunk *strings;     /* the paths and languages */
  GArray       *files;       /* OrderedFile, by path */
  GHashTable   *places;      /* a file's id (in @files) → its place in @files */
  GHashTable   *doc_counts;  /* a trigram → how many files hold it */
};

void
_lode_store_trigram_cache_free (LodeStoreTrigramCache *cache)
{
  if (cache == NULL)
    return;
  g_string_chunk_free (cache->strings);
  g_array_unref (cache->files);
  g_clear_pointer (&cache->places, g_hash_table_unref);
  g_hash_table_unref (cache->doc_counts);
  g_free (cache);
}

/* Inside a read transaction, so that the cache is of the index being looked up. */
static LodeStoreTrigramCache *
trigram_cache_current (LodeStore  *self,
                       GError    **error)
{
  gint64 version = _lode_store_get_data_version (self);
  gint64 changes = sqlite3_total_changes64 (self->db);
  LodeStoreTrigramCache *cache = self->trigram_cache;
  sqlite3_stmt *s;
  int rc;

  if (cache != NULL && cache->version == version && cache->changes == changes)
    return cache;

  g_clear_pointer (&self->trigram_cache, _lode_store_trigram_cache_free);
  s = _lode_store_statement (self, sql_files_by_path, error);
  if (s == NULL)
    return NULL;
  cache = g_new0 (LodeStoreTrigramCache, 1);
  cache->version = version;
  cache->changes = changes;
  cache->strings = g_string_chunk_new (64 * 1024);
  cache->files = g_array_new (FALSE, FALSE, sizeof (OrderedFile));
  cache->doc_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->trigram_cache = cache;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      OrderedFile file = {
        sqlite3_column_int64 (s, 0),
        g_string_chunk_insert (cache->strings, (const char *) sqlite3_column_text (s, 1)),
        g_string_chunk_insert_const (cache->strings, (const char *) sqlite3_column_text (s, 2)),
      };

      g_array_append_val (cache->files, file);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      g_clear_pointer (&self->trigram_cache, _lode_store_trigram_cache_free);
      _lode_store_set_error (self, rc, error, "Cannot read the files");
      return NULL;
    }

  cache->places = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint i = 0; i < cache->files->len; i++)
    g_hash_table_insert (cache->places, &g_array_index (cache->files, OrderedFile, i).id,
                         GUINT_TO_POINTER (i));
  return cache;
}

/* The files that hold trigram @t, from FTS5 the first time (one look-up of the trigram
 * alone). A count that cannot be read is G_MAXUINT: the trigram is then taken last, and the
 * look-up itself reports the failure. */
static guint
doc_count (LodeStore             *self,
           LodeStoreTrigramCache *cache,
           const char            *t)
{
  g_autoptr(GString) match = g_string_new (NULL);
  gpointer found;
  sqlite3_stmt *s;
  guint n = G_MAXUINT;

  if (g_hash_table_lookup_extended (cache->doc_counts, t, NULL, &found))
    return GPOINTER_TO_UINT (found);
  _lode_store_append_fts5_string (match, t);
  s = _lode_store_statement (self, sql_count_files, NULL);
  if (s != NULL)
    {
      sqlite3_bind_text (s, 1, match->str, match->len, SQLITE_TRANSIENT);
      if (sqlite3_step (s) == SQLITE_ROW)
        n = sqlite3_column_int (s, 0);
      sqlite3_reset (s);
    }
  /* Bounded: an index of a few thousand files has some 200,000 distinct trigrams. */
  if (g_hash_table_size (cache->doc_counts) >= MAX_DOC_COUNTS)
    g_hash_table_remove_all (cache->doc_counts);
  g_hash_table_insert (cache->doc_counts, g_strdup (t), GUINT_TO_POINTER (n));
  return n;
}

typedef struct
{
  const char *trigram;
  guint       n_files;
} CountedTrigram;

static int
compare_counted (gconstpointer a,
                 gconstpointer b)
{
  const CountedTrigram *x = a, *y = b;

  return x->n_files < y->n_files ? -1 : x->n_files > y->n_files;
}

/* @query as an FTS5 expression over single trigrams (each quoted, so that no character of
 * the user's pattern reaches FTS5's parser as syntax). A literal asks for its rarest
 * MAX_LITERAL_TRIGRAMS trigrams only: FTS5 reads each trigram's whole list of files, and the
 * common ones of a long identifier (`str`, `_re`) cost as much as the rare ones and take
 * away few files (the 50 identifiers and literals of bench/grep-bench.py on git: 4 % more
 * candidates, 0.29 ms less per look-up). The files are still a superset of those holding
 * the literal. */
static void
append_match (LodeStore             *self,
              LodeStoreTrigramCache *cache,
              GString               *out,
              const LodeGrepQuery   *query)
{
  switch (query->kind)
    {
    case LODE_GREP_QUERY_LITERAL:
      {
        g_autoptr(GPtrArray) trigrams = lode_grep_literal_trigrams (query->literal);
        g_autoptr(GArray) counted = g_array_new (FALSE, FALSE, sizeof (CountedTrigram));

        for (guint i = 0; i < trigrams->len; i++)
          {
            CountedTrigram c = { trigrams->pdata[i], 0 };

            if (trigrams->len > MAX_LITERAL_TRIGRAMS)
              c.n_files = doc_count (self, cache, c.trigram);
            g_array_append_val (counted, c);
          }
        g_array_sort (counted, compare_counted);

        g_string_append_c (out, '(');
        for (guint i = 0; i < MIN (counted->len, MAX_LITERAL_TRIGRAMS); i++)
          {
            if (i > 0)
              g_string_append (out, " AND ");
            _lode_store_append_fts5_string (out, g_array_index (counted, CountedTrigram, i).trigram);
          }
        g_string_append_c (out, ')');
      }
      break;
    case LODE_GREP_QUERY_AND:
    case LODE_GREP_QUERY_OR:
      g_string_append_c (out, '(');
      for (guint i = 0; i < query->children->len; i++)
        {
          if (i > 0)
            g_string_append (out, query->kind == LODE_GREP_QUERY_AND ? " AND " : " OR ");
          append_match (self, cache, out, query->children->pdata[i]);
        }
      g_string_append_c (out, ')');
      break;
    case LODE_GREP_QUERY_ALL:
    default:
      /* ALL is absorbed by the AND and OR above it, and the caller answers a query that is
       * ALL itself without the index. */
      g_assert_not_reached ();
    }
}

static int
compare_places (gconstpointer a,
                gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static GPtrArray *
find_text_files (LodeStore            *self,
                 const LodeGrepQuery  *query,
                 GError              **error)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_file_free);
  g_autoptr(GArray) places = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GString) match = g_string_new (NULL);
  LodeStoreTrigramCache *cache = trigram_cache_current (self, error);
  sqlite3_stmt *s;
  int rc;

  if (cache == NULL)
    return NULL;
  append_match (self, cache, match, query);
  s = _lode_store_statement (self, sql_find_files, error);
  if (s == NULL)
    return NULL;
  sqlite3_bind_text (s, 1, match->str, match->len, SQLITE_TRANSIENT);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);
      gpointer place;

      /* files_tri and files change in one transaction: every id has a file. */
      if (g_hash_table_lookup_extended (cache->places, &id, NULL, &place))
        {
          guint p = GPOINTER_TO_UINT (place);

          g_array_append_val (places, p);
        }
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot look up trigrams");
      return NULL;
    }

  g_array_sort (places, compare_places);
  for (guint i = 0; i < places->len; i++)
    {
      const OrderedFile *f = &g_array_index (cache->files, OrderedFile,
                                             g_array_index (places, guint, i));
      LodeStoredFile *file = g_new0 (LodeStoredFile, 1);

      file->path = g_strdup (f->path);
      file->language = g_strdup (f->language);
      g_ptr_array_add (files, file);
    }
  return g_steal_pointer (&files);
}

static GPtrArray *
store_find_text_files (LodeIndexStore       *store,
                       const LodeGrepQuery  *query,
                       GError              **error)
{
  LodeStore *self = LODE_STORE (store);
  GPtrArray *files;
  gboolean own = FALSE;

  if (!_lode_store_read_begin (self, &own, error))
    return NULL;
  files = find_text_files (self, query, error);
  if (!_lode_store_read_end (self, own, files != NULL ? error : NULL))
    g_clear_pointer (&files, g_ptr_array_unref);
  return files;
}

void
_lode_store_trigrams_init (LodeIndexStoreInterface *iface)
{
  iface->find_text_files = store_find_text_files;
}
