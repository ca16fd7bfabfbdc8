/* lode-store-trigrams-find.c — the SQLite index's trigrams looked up, for codebase_grep
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lode-error.h"
#include "lode-store-trigrams-private.h"

/* A query's literals are keys as the writer makes them (lode-store-trigrams.c), looked up in
 * each segment's blocks; an id counts only in its file's own segment. */

static const char sql_directory[] =
  "SELECT segment, first, id FROM trigram_blocks ORDER BY segment, first";
static const char sql_block[] = "SELECT data FROM trigram_blocks WHERE id = ?1";
static const char sql_files_by_path[] =
  "SELECT f.id, f.path, f.language, coalesce (t.segment, 0) FROM files f "
  "LEFT JOIN trigram_files t ON t.file_id = f.id ORDER BY f.path";

/* What look-ups learn about the index, per connection, kept until it changes (another
 * connection committed: the data version; or this one wrote: its change count):
 *
 * - the files by path (only their path and language), and each file's place in that order
 *   and its trigrams' segment by its id: a look-up's candidates are ids, and the rows of a
 *   common literal's thousand files took longer to fetch and sort by path (1.1 ms for
 *   `NULL` on git) than the look-up took to find them;
 * - each segment's blocks by their first key. */
typedef struct
{
  const char *path;
  const char *language;
} OrderedFile;

typedef struct
{
  gint64 first;
  gint64 id;
} BlockRef;

/* A segment's blocks: @n of @blocks from @start, by first key. */
typedef struct
{
  gint64 segment;
  guint  start;
  guint  n;
} SegmentBlocks;

struct _LodeStoreTrigramCache
{
  gint64        version;
  gint64        changes;
  GStringChunk *strings;   /* the paths and languages */
  GArray       *files;     /* OrderedFile, by path */
  GArray       *places;    /* guint: a file's id → its place in @files, plus one (0: none) */
  GArray       *segments;  /* gint64: a file's id → its trigrams' segment (0: none) */
  GArray       *blocks;    /* BlockRef, by segment and first key */
  GArray       *segments_blocks; /* SegmentBlocks, by segment */
};

void
_lode_store_trigram_cache_free (LodeStoreTrigramCache *cache)
{
  if (cache == NULL)
    return;
  g_string_chunk_free (cache->strings);
  g_array_unref (cache->files);
  g_array_unref (cache->places);
  g_array_unref (cache->segments);
  g_array_unref (cache->blocks);
  g_array_unref (cache->segments_blocks);
  g_free (cache);
}

static gboolean
read_cache (LodeStore              *self,
            LodeStoreTrigramCache  *cache,
            GError                **error)
{
  sqlite3_stmt *s = _lode_store_statement (self, sql_files_by_path, error);
  int rc;

  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);
      guint place = cache->files->len + 1;
      OrderedFile file = {
        g_string_chunk_insert (cache->strings, (const char *) sqlite3_column_text (s, 1)),
        g_string_chunk_insert_const (cache->strings, (const char *) sqlite3_column_text (s, 2)),
      };

      if (id < 0 || id > G_MAXINT32)
        continue;
      g_array_append_val (cache->files, file);
      if ((guint64) id >= cache->places->len)
        {
          g_array_set_size (cache->places, id + 1);
          g_array_set_size (cache->segments, id + 1);
        }
      g_array_index (cache->places, guint, id) = place;
      g_array_index (cache->segments, gint64, id) = sqlite3_column_int64 (s, 3);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    return _lode_store_set_error (self, rc, error, "Cannot read the files");

  s = _lode_store_statement (self, sql_directory, error);
  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 segment = sqlite3_column_int64 (s, 0);
      BlockRef block = { sqlite3_column_int64 (s, 1), sqlite3_column_int64 (s, 2) };
      guint n = cache->segments_blocks->len;

      if (n == 0 || g_array_index (cache->segments_blocks, SegmentBlocks, n - 1).segment != segment)
        {
          SegmentBlocks blocks = { segment, cache->blocks->len, 0 };

          g_array_append_val (cache->segments_blocks, blocks);
          n++;
        }
      g_array_index (cache->segments_blocks, SegmentBlocks, n - 1).n++;
      g_array_append_val (cache->blocks, block);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    return _lode_store_set_error (self, rc, error, "Cannot read the trigrams' blocks");
  return TRUE;
}

/* Inside a read transaction, so that the cache is of the index being looked up. */
static LodeStoreTrigramCache *
trigram_cache_current (LodeStore  *self,
                       GError    **error)
{
  gint64 version = _lode_store_get_data_version (self);
  gint64 changes = sqlite3_total_changes64 (self->db);
  LodeStoreTrigramCache *cache = self->trigram_cache;

  if (cache != NULL && cache->version == version && cache->changes == changes)
    return cache;

  g_clear_pointer (&self->trigram_cache, _lode_store_trigram_cache_free);
  cache = g_new0 (LodeStoreTrigramCache, 1);
  cache->version = version;
  cache->changes = changes;
  cache->strings = g_string_chunk_new (64 * 1024);
  cache->files = g_array_new (FALSE, FALSE, sizeof (OrderedFile));
  cache->places = g_array_new (FALSE, TRUE, sizeof (guint));
  cache->segments = g_array_new (FALSE, TRUE, sizeof (gint64));
  cache->blocks = g_array_new (FALSE, FALSE, sizeof (BlockRef));
  cache->segments_blocks = g_array_new (FALSE, FALSE, sizeof (SegmentBlocks));
  if (!read_cache (self, cache, error))
    {
      _lode_store_trigram_cache_free (cache);
      return NULL;
    }
  self->trigram_cache = cache;
  return cache;
}

/* Appends to @out the files whose trigrams hold @key, in every segment; ascending. */
static gboolean
append_postings (LodeStore              *self,
                 LodeStoreTrigramCache  *cache,
                 guint64                 key,
                 GArray                 *out,
                 GError                **error)
{
  const BlockRef *blocks = (const BlockRef *) (gpointer) cache->blocks->data;

  for (guint i = 0; i < cache->segments_blocks->len; i++)
    {
      const SegmentBlocks *in = &g_array_index (cache->segments_blocks, SegmentBlocks, i);
      gint64 segment = in->segment;
      guint start = in->start;
      guint lo, hi;

      /* The last block of the segment whose first key is at most @key. */
      lo = start;
      hi = start + in->n;
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if ((guint64) blocks[mid].first <= key)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo > start)
        {
          sqlite3_stmt *s = _lode_store_statement (self, sql_block, error);
          LodeTrigramEntryReader r = { NULL, };
          int rc;

          if (s == NULL)
            return FALSE;
          sqlite3_bind_int64 (s, 1, blocks[lo - 1].id);
          rc = sqlite3_step (s);
          if (rc == SQLITE_ROW)
            {
              const guint8 *data = sqlite3_column_blob (s, 0);

              _lode_trigram_entry_reader_init (&r, data, sqlite3_column_bytes (s, 0));
              while (_lode_trigram_entry_reader_next (&r))
                if (r.key >= key)
                  {
                    if (r.key == key)
                      _lode_trigram_entry_reader_append_ids (&r, segment, cache->segments, out);
                    break;
                  }
            }
          sqlite3_reset (s);
          if (r.damaged)
            return _lode_store_trigrams_damaged_error (self, error);
          if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return _lode_store_set_error (self, rc, error, "Cannot look up trigrams");
        }
    }
  return TRUE;
}

/* @a ∩ @b into @a. */
static void
intersect_ids (GArray       *a,
               const GArray *b)
{
  guint i = 0, j = 0, n = 0;

  while (i < a->len && j < b->len)
    {
      gint64 x = g_array_index (a, gint64, i), y = g_array_index (b, gint64, j);

      if (x < y)
        i++;
      else if (y < x)
        j++;
      else
        {
          g_array_index (a, gint64, n++) = x;
          i++;
          j++;
        }
    }
  g_array_set_size (a, n);
}

/* @a ∪ @b, a new array. */
static GArray *
unite_ids (const GArray *a,
           const GArray *b)
{
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (gint64), a->len + b->len);
  guint i = 0, j = 0;

  while (i < a->len || j < b->len)
    {
      gint64 x = i < a->len ? g_array_index (a, gint64, i) : G_MAXINT64;
      gint64 y = j < b->len ? g_array_index (b, gint64, j) : G_MAXINT64;
      gint64 v = MIN (x, y);

      g_array_append_val (out, v);
      i += x == v;
      j += y == v;
    }
  return out;
}

static void
collect_key (guint64  key,
             gpointer keys)
{
  for (guint i = 0; i < ((GArray *) keys)->len; i++)
    if (g_array_index ((GArray *) keys, guint64, i) == key)
      return;
  g_array_append_val (keys, key);
}

static int
compare_lengths (gconstpointer a,
                 gconstpointer b)
{
  const GArray *x = *(GArray * const *) a, *y = *(GArray * const *) b;

  return x->len < y->len ? -1 : x->len > y->len;
}

/* The ids of the files that hold what @query requires, ascending. A literal's files are
 * intersected from its rarest trigram up. */
static GArray *
find_ids (LodeStore              *self,
          LodeStoreTrigramCache  *cache,
          const LodeGrepQuery    *query,
          GError                **error)
{
  switch (query->kind)
    {
    case LODE_GREP_QUERY_LITERAL:
      {
        g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64));
        g_autoptr(GPtrArray) lists = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
        GArray *ids;

        _lode_trigram_foreach_key (query->literal, strlen (query->literal), collect_key, keys);
        for (guint i = 0; i < keys->len; i++)
          {
            GArray *list = g_array_new (FALSE, FALSE, sizeof (gint64));

            g_ptr_array_add (lists, list);
            if (!append_postings (self, cache, g_array_index (keys, guint64, i), list, error))
              return NULL;
          }
        /* A literal has three characters at least (LodeGrepQuery); one that spans a line
         * break has no key, and no line holds it. */
        if (lists->len == 0)
          return g_array_new (FALSE, FALSE, sizeof (gint64));
        g_ptr_array_sort (lists, compare_lengths);
        ids = g_array_ref (lists->pdata[0]);
        for (guint i = 1; i < lists->len && ids->len > 0; i++)
          intersect_ids (ids, lists->pdata[i]);
        return ids;
      }
    case LODE_GREP_QUERY_AND:
    case LODE_GREP_QUERY_OR:
      {
        GArray *ids = NULL;

        for (guint i = 0; i < query->children->len; i++)
          {
            GArray *child = find_ids (self, cache, query->children->pdata[i], error);

            if (child == NULL)
              {
                g_clear_pointer (&ids, g_array_unref);
                return NULL;
              }
            if (ids == NULL)
              ids = child;
            else if (query->kind == LODE_GREP_QUERY_AND)
              {
                intersect_ids (ids, child);
                g_array_unref (child);
              }
            else
              {
                GArray *both = unite_ids (ids, child);

                g_array_unref (ids);
                g_array_unref (child);
                ids = both;
              }
          }
        return ids;
      }
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
  g_autoptr(GArray) ids = NULL;
  LodeStoreTrigramCache *cache = trigram_cache_current (self, error);

  if (cache == NULL)
    return NULL;
  ids = find_ids (self, cache, query, error);
  if (ids == NULL)
    return NULL;

  for (guint i = 0; i < ids->len; i++)
    {
      /* find_ids() keeps only ids whose file @cache read, with its segment and place. */
      guint place = g_array_index (cache->places, guint, g_array_index (ids, gint64, i)) - 1;

      g_array_append_val (places, place);
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
