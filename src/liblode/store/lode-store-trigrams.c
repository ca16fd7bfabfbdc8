/* lode-store-trigrams.c — the SQLite index's trigrams, for codebase_grep
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

/*
 * Every file's distinct trigrams, case folded character by character as lode_grep_fold()
 * does (a query's trigrams stay aligned), none spanning a line break (no line pattern
 * requires one); the text is the file's chunks', which cover every line. A trigram is a key:
 * its three characters packed into 63 bits, 21 each, plus one (never 0).
 *
 * Postings of our own, not FTS5's: the chunking threads compute each file's keys, sorted,
 * and the writer only copies them. Per batch of the indexer it writes them inverted, one
 * *segment*: `trigram_blocks` rows, each a block of entries in key order (the key's
 * difference from the one before, the count of files, the size of their ids, then the ids,
 * ascending, as differences), about a page each, found by the segment and the block's first
 * key. Through FTS5 (`files_tri`, contentless, `detail=none`) the writer spent two fifths
 * of its time on git v2.47.0 on these pairs, 4.7 million of them pushed one by one through
 * FTS5's pending hash behind a replaying tokenizer, then flushed and merged (bench/README.md,
 * "Lode's own trigram postings").
 *
 * A file's trigrams are valid in one segment, the one `trigram_files` names: the batch that
 * last put it. An edit puts the file into a newer segment and leaves its old entries where
 * they were; a look-up ignores an id found in any other segment than its file's, so a file
 * is never found by trigrams it no longer holds. Folding rewrites segments into one without
 * those entries: all of them at the end of a new index's first run; whenever a run ends with
 * more than MAX_SEGMENTS (a watcher's runs add a small one each), all but the oldest while
 * they are small beside it, else all.
 */

const char _lode_store_trigrams_schema_sql[] =
  "CREATE TABLE IF NOT EXISTS trigram_blocks ("
  "  id INTEGER PRIMARY KEY,"
  "  segment INTEGER NOT NULL,"
  "  first INTEGER NOT NULL,"
  "  data BLOB NOT NULL"
  ");"
  "CREATE INDEX IF NOT EXISTS trigram_blocks_segment ON trigram_blocks (segment, first);"
  "CREATE TABLE IF NOT EXISTS trigram_files ("
  "  file_id INTEGER PRIMARY KEY,"
  "  segment INTEGER NOT NULL"
  ");";

static const char sql_forget_file[] = "DELETE FROM trigram_files WHERE file_id = ?1";
static const char sql_put_file[] =
  "INSERT OR REPLACE INTO trigram_files (file_id, segment) VALUES (?1, ?2)";
static const char sql_last_segment[] = "SELECT coalesce (max (segment), 0) FROM trigram_blocks";
static const char sql_put_block[] =
  "INSERT INTO trigram_blocks (segment, first, data) VALUES (?1, ?2, ?3)";
static const char sql_segments[] =
  "SELECT segment, count (*) FROM trigram_blocks GROUP BY segment ORDER BY segment";
static const char sql_segment_blocks[] =
  "SELECT data FROM trigram_blocks WHERE segment = ?1 ORDER BY first";
static const char sql_file_segments[] = "SELECT file_id, segment FROM trigram_files";
static const char sql_drop_segments[] =
  "DELETE FROM trigram_blocks WHERE segment >= ?1 AND segment < ?2";
static const char sql_fold_files[] = "UPDATE trigram_files SET segment = ?2 WHERE segment >= ?1";

/* A block is closed before it would outgrow a page of 4 KiB (less its headers), so that a
 * look-up reads one page per trigram and segment; an entry larger than that is a block of
 * its own. */
#define BLOCK_BYTES 3900

/* The segments a run may leave unfolded (see above). Each costs a look-up a block read and a
 * block scan per trigram: on git v2.47.0 an identifier took 3.23 ms through lode-mcp with
 * seven segments, 2.80 with two and 2.56 with one. Folding a watcher's small segments
 * without the oldest rewrites only the files edited since the last whole fold. */
#define MAX_SEGMENTS 3

/* A file's keys ------------------------------------------------------------------------ */

/* Keys seen so far: open addressing, at most half full. */
typedef struct
{
  guint64 *keys;
  gsize    mask;
  gsize    n;
} TrigramSet;

static void trigram_set_add (TrigramSet *set,
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

static void
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
          return;
        }
      if (set->keys[i] == key)
        return;
    }
}

/* Sorts @n keys ascending by their bytes, least significant first, skipping the bytes every
 * key shares (in ASCII text three of the eight): a file's keys took glibc's qsort() with a
 * comparison function 0.6 s of the chunking threads on git v2.47.0. */
static void
sort_keys (guint64 *keys,
           gsize    n)
{
  gsize counts[8][256] = { { 0 } };
  g_autofree guint64 *scratch = g_new (guint64, n);
  guint64 *from = keys;
  guint64 *to = scratch;

  for (gsize i = 0; i < n; i++)
    for (guint b = 0; b < 8; b++)
      counts[b][(keys[i] >> (8 * b)) & 0xff]++;

  for (guint b = 0; b < 8 && n > 1; b++)
    {
      gsize at = 0;
      guint64 *swap;

      if (counts[b][(keys[0] >> (8 * b)) & 0xff] == n)
        continue;
      for (guint d = 0; d < 256; d++)
        {
          gsize count = counts[b][d];

          counts[b][d] = at;
          at += count;
        }
      for (gsize i = 0; i < n; i++)
        to[counts[b][(from[i] >> (8 * b)) & 0xff]++] = from[i];
      swap = from;
      from = to;
      to = swap;
    }
  if (from != keys)
    memcpy (keys, from, n * sizeof (guint64));
}

/* A file's distinct keys as they are found. A trigram of three ASCII characters, nearly
 * every one of source text, is a bit of a bitmap of 2^21 at c0 << 14 | c1 << 7 | c2, and
 * the bitmap's words that hold one are bits of a summary: read in order, the summary gives
 * the keys ascending, without a hash or a sort (a hash set and a radix sort of every key
 * took 6 % of the chunking threads' time on git v2.47.0). The other keys, with a character
 * past ASCII, go to a hash set and are sorted apart. Each thread keeps its own, cleared as
 * it is read. */
#define ASCII_BITS (1u << 21)

typedef struct
{
  guint64    bits[ASCII_BITS / 64];
  guint64    summary[ASCII_BITS / 64 / 64];
  TrigramSet other;
} KeyCollector;

static void
key_collector_free (gpointer data)
{
  KeyCollector *collector = data;

  g_free (collector->other.keys);
  g_free (collector);
}

static KeyCollector *
get_key_collector (void)
{
  static GPrivate key = G_PRIVATE_INIT (key_collector_free);
  KeyCollector *collector = g_private_get (&key);

  if (collector == NULL)
    {
      collector = g_new0 (KeyCollector, 1);
      g_private_set (&key, collector);
    }
  return collector;
}

/* The characters of a key, 21 bits each, all ASCII. */
#define ASCII_KEY_MASK (G_GUINT64_CONSTANT (0x7f) << 42 | G_GUINT64_CONSTANT (0x7f) << 21 | 0x7f)

G_ALWAYS_INLINE static inline void
collect_any_key (guint64  key,
                 gpointer user_data)
{
  KeyCollector *collector = user_data;
  guint64 chars = key - 1;

  if ((chars & ~ASCII_KEY_MASK) == 0)
    {
      guint32 at = (guint32) (chars >> 42 << 14 | (chars >> 21 & 0x7f) << 7 | (chars & 0x7f));

      collector->bits[at / 64] |= G_GUINT64_CONSTANT (1) << (at % 64);
      collector->summary[at / 4096] |= G_GUINT64_CONSTANT (1) << (at / 64 % 64);
      return;
    }
  if (collector->other.keys == NULL)
    {
      collector->other.mask = 255;
      collector->other.keys = g_new0 (guint64, collector->other.mask + 1);
    }
  trigram_set_add (&collector->other, key);
}

/* The keys collected, ascending, into @keys; the collector is left empty. */
static void
key_collector_take (KeyCollector *collector,
                    GArray       *keys)
{
  g_autofree guint64 *other = NULL;
  gsize n_other = 0;
  gsize o = 0;
  gsize n = 0;
  guint64 *out;

  if (collector->other.n > 0)
    {
      other = g_new (guint64, collector->other.n);
      for (gsize i = 0; i <= collector->other.mask; i++)
        if (collector->other.keys[i] != 0)
          other[n_other++] = collector->other.keys[i];
      sort_keys (other, n_other);
    }
  g_clear_pointer (&collector->other.keys, g_free);
  collector->other.n = 0;

  /* Sized first: the keys are millions on a large tree, one call each to append. */
  for (gsize s = 0; s < G_N_ELEMENTS (collector->summary); s++)
    for (guint64 words = collector->summary[s]; words != 0; words &= words - 1)
      n += __builtin_popcountll (collector->bits[s * 64 + __builtin_ctzll (words)]);
  g_array_set_size (keys, keys->len + n + n_other);
  out = &g_array_index (keys, guint64, keys->len - n - n_other);

  for (gsize s = 0; s < G_N_ELEMENTS (collector->summary); s++)
    {
      guint64 words = collector->summary[s];

      collector->summary[s] = 0;
      while (words != 0)
        {
          gsize w = s * 64 + __builtin_ctzll (words);
          guint64 bits = collector->bits[w];

          words &= words - 1;
          collector->bits[w] = 0;
          while (bits != 0)
            {
              guint32 at = w * 64 + __builtin_ctzll (bits);
              guint64 key = ((guint64) (at >> 14) << 42 | (guint64) (at >> 7 & 0x7f) << 21
                             | (at & 0x7f)) + 1;

              bits &= bits - 1;
              while (o < n_other && other[o] < key)
                *out++ = other[o++];
              *out++ = key;
            }
        }
    }
  while (o < n_other)
    *out++ = other[o++];
}

/* The distinct keys of @chunks' texts, ascending. A chunk's trigrams never span its end,
 * as they never span a line break: the same set as the file's lines give. */
static GArray *
chunk_keys (GPtrArray *chunks)
{
  KeyCollector *collector = get_key_collector ();
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; chunks != NULL && i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);

      if (chunk->content != NULL)
        _lode_trigram_foreach_key (chunk->content, strlen (chunk->content), collect_any_key,
                                   collector);
    }
  key_collector_take (collector, keys);
  return keys;
}

/* Appends to @out the keys _lode_store_trigrams_put_file() will take for @chunks (any
 * thread, see _lode_store_tokens_record_raw()). */
void
_lode_store_trigrams_record (GByteArray *out,
                             GPtrArray  *chunks)
{
  g_autoptr(GArray) keys = chunk_keys (chunks);

  _lode_store_tokens_record_raw (out, LODE_STORE_TOKENS_TRIGRAMS, keys->data,
                                 keys->len * sizeof (guint64));
}

/* Writing segments --------------------------------------------------------------------- */

/* The files put in the transaction open now, to be written as one segment when it
 * commits. */
typedef struct
{
  gint64 file_id;  /* 0: forgotten since */
  gsize  offset;   /* its keys in @keys */
  gsize  n;
} PendingFile;

struct _LodeStoreTrigramBatch
{
  gint64  segment;  /* 0 until the first file is put */
  GArray *keys;     /* guint64, each file's ascending */
  GArray *files;    /* PendingFile */
};

void
_lode_store_trigram_batch_free (LodeStoreTrigramBatch *batch)
{
  if (batch == NULL)
    return;
  g_array_unref (batch->keys);
  g_array_unref (batch->files);
  g_free (batch);
}

/* Writes entries into blocks of one segment, in key order. */
typedef struct
{
  LodeStore  *store;
  gint64      segment;
  GByteArray *block;
  guint8     *ids;       /* the entry being made: its ids, as differences, @ids_len bytes */
  gsize       ids_len;
  gsize       ids_size;  /* allocated */
  guint64     n_ids;
  gint64      last_id;
  guint64     first;
  guint64     last;
} BlockWriter;

static void
block_writer_init (BlockWriter *w,
                   LodeStore   *store,
                   gint64       segment)
{
  w->store = store;
  w->segment = segment;
  w->block = g_byte_array_sized_new (BLOCK_BYTES + 64);
  w->ids = NULL;
  w->ids_len = w->ids_size = 0;
  w->n_ids = 0;
  w->last_id = 0;
  w->first = w->last = 0;
}

static void
block_writer_clear (BlockWriter *w)
{
  g_byte_array_unref (w->block);
  g_free (w->ids);
}

static gboolean
block_writer_flush (BlockWriter  *w,
                    GError      **error)
{
  sqlite3_stmt *s;

  if (w->block->len == 0)
    return TRUE;
  s = _lode_store_statement (w->store, sql_put_block, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, w->segment);
  sqlite3_bind_int64 (s, 2, (gint64) w->first);
  sqlite3_bind_blob (s, 3, w->block->data, w->block->len, SQLITE_STATIC);
  if (!_lode_store_run (w->store, s, error, "Cannot write the trigrams"))
    return FALSE;
  g_byte_array_set_size (w->block, 0);
  return TRUE;
}

/* Adds @id, greater than the entry's ids so far, to the entry being made. Written in place:
 * a call into GLib for each id (4.7 million when git v2.47.0 is indexed, as many again when
 * its segments are folded) took 1.2 % of the run's instructions. */
static inline void
block_writer_add_id (BlockWriter *w,
                     gint64       id)
{
  if (w->ids_size - w->ids_len < LODE_VARINT_MAX)
    {
      w->ids_size = MAX (2 * w->ids_size, 256);
      w->ids = g_realloc (w->ids, w->ids_size);
    }
  w->ids_len = lode_varint_put (w->ids + w->ids_len, (guint64) (id - w->last_id)) - w->ids;
  w->last_id = id;
  w->n_ids++;
}

/* Ends the entry of @key, whose ids block_writer_add_id() added (none: no entry). */
static gboolean
block_writer_end_entry (BlockWriter  *w,
                        guint64       key,
                        GError      **error)
{
  guint8 header[3 * LODE_VARINT_MAX];
  guint8 *p = header;

  if (w->n_ids == 0)
    return TRUE;
  if (w->block->len > 0 && w->block->len + w->ids_len + 20 > BLOCK_BYTES &&
      !block_writer_flush (w, error))
    return FALSE;
  if (w->block->len == 0)
    {
      w->first = key;
      p = lode_varint_put (p, key);
    }
  else
    p = lode_varint_put (p, key - w->last);
  p = lode_varint_put (p, w->n_ids);
  p = lode_varint_put (p, w->ids_len);
  g_byte_array_append (w->block, header, (guint) (p - header));
  g_byte_array_append (w->block, w->ids, (guint) w->ids_len);
  w->ids_len = 0;
  w->n_ids = 0;
  w->last_id = 0;
  w->last = key;
  return TRUE;
}

/* The merge of the pending files' keys in _lode_store_trigrams_flush(): a tournament of
 * losers. Each match node holds the file that lost there, tree[0] the overall winner, the
 * file whose key is least (of two files with one key, the one before: the files are in id
 * order). When the winner moves on to its next key, one match per level finds the new one:
 * half the comparisons of a binary heap's sift-down, without branches, since either file
 * wins as often, and without moving the files' cursors. The heap took 0.43 s of the
 * writer's CPU on git v2.47.0 (4.7 million keys, 512 files a batch), this 0.23 s. */
typedef struct
{
  const guint64 *next;     /* the file's keys after its current one */
  const guint64 *end;
  gint64         file_id;
} TournamentFile;

typedef struct
{
  guint32         n;       /* files */
  guint32        *tree;    /* [0] the winner, [m] the loser at match m (1 … n - 1), whose
                            * players come from 2m and 2m + 1; n + i is file i's leaf */
  guint64        *key;     /* each file's current key, apart from @files for the matches'
                            * loads; G_MAXUINT64 once it has none left, which no key is (a
                            * key is at most 63 bits, plus one) */
  TournamentFile *files;
} Tournament;

/* 1 if file @a at @key_a comes before file @b at @key_b (the lesser key; of one key, the
 * lesser file), else 0: a value, not a branch, for tournament_advance()'s masks. */
static inline guint64
tournament_before (guint64 key_a,
                   guint32 a,
                   guint64 key_b,
                   guint32 b)
{
  return (guint64) ((key_a < key_b) | ((key_a == key_b) & (a < b)));
}

/* Plays the matches below @node and returns their winner. */
static guint32
tournament_play (Tournament *t,
                 guint32     node)
{
  guint32 a, b;

  if (node >= t->n)
    return node - t->n;
  a = tournament_play (t, 2 * node);
  b = tournament_play (t, 2 * node + 1);
  if (tournament_before (t->key[b], b, t->key[a], a))
    {
      t->tree[node] = a;
      return b;
    }
  t->tree[node] = b;
  return a;
}

/* Sets up the tournament of @batch's files that have keys, @batch->files sorted by id. */
static void
tournament_init (Tournament                  *t,
                 const LodeStoreTrigramBatch *batch)
{
  guint size = batch->files->len;

  t->n = 0;
  t->tree = g_new (guint32, size);
  t->key = g_new (guint64, size);
  t->files = g_new (TournamentFile, size);
  for (guint i = 0; i < size; i++)
    {
      const PendingFile *f = &g_array_index (batch->files, PendingFile, i);
      const guint64 *keys = &g_array_index (batch->keys, guint64, f->offset);

      if (f->file_id == 0 || f->n == 0)
        continue;
      t->key[t->n] = keys[0];
      t->files[t->n] = (TournamentFile) { keys + 1, keys + f->n, f->file_id };
      t->n++;
    }
  if (t->n > 0)
    t->tree[0] = tournament_play (t, 1);
}

static void
tournament_clear (Tournament *t)
{
  g_free (t->tree);
  g_free (t->key);
  g_free (t->files);
}

/* Moves the winner on to its next key and plays its way up to the root again. */
static void
tournament_advance (Tournament *t)
{
  guint32 file = t->tree[0];
  TournamentFile *f = &t->files[file];
  guint64 key = G_MAXUINT64;

  if (f->next < f->end)
    {
      key = *f->next++;
      /* A file's keys are read a few at a time, in turns with hundreds of other files':
       * too many streams for the processor to see. */
      if (f->end - f->next > 8)
        __builtin_prefetch (f->next + 8);
    }
  t->key[file] = key;

  for (guint32 node = (file + t->n) / 2; node > 0; node /= 2)
    {
      guint32 other = t->tree[node];
      guint64 other_key = t->key[other];
      guint64 mask = -tournament_before (other_key, other, key, file);

      t->tree[node] = (guint32) ((file & mask) | (other & ~mask));
      file = (guint32) ((other & mask) | (file & ~mask));
      key = (other_key & mask) | (key & ~mask);
    }
  t->tree[0] = file;
}

static int
compare_pending (gconstpointer a,
                 gconstpointer b)
{
  const PendingFile *x = a, *y = b;

  return x->file_id < y->file_id ? -1 : x->file_id > y->file_id;
}

/* Writes the files put since the transaction began as its segment, before it commits: their
 * keys merged into key order, each key's files ascending. */
gboolean
_lode_store_trigrams_flush (LodeStore  *self,
                            GError    **error)
{
  LodeStoreTrigramBatch *batch = self->trigram_batch;
  Tournament t;
  BlockWriter w;
  guint64 key = 0;
  gboolean ok = TRUE;

  if (batch == NULL || batch->files->len == 0)
    return TRUE;

  g_array_sort (batch->files, compare_pending);
  tournament_init (&t, batch);
  block_writer_init (&w, self, batch->segment);
  while (ok && t.n > 0 && t.key[t.tree[0]] != G_MAXUINT64)
    {
      guint32 winner = t.tree[0];

      if (t.key[winner] != key)
        {
          ok = block_writer_end_entry (&w, key, error);
          key = t.key[winner];
        }
      block_writer_add_id (&w, t.files[winner].file_id);
      tournament_advance (&t);
    }
  if (ok)
    ok = block_writer_end_entry (&w, key, error);
  if (ok)
    ok = block_writer_flush (&w, error);
  block_writer_clear (&w);
  tournament_clear (&t);

  g_array_set_size (batch->keys, 0);
  g_array_set_size (batch->files, 0);
  batch->segment = 0;
  return ok;
}

/* Runs on the writer's thread, inside its batch, before the chunks of @file_id go. */
gboolean
_lode_store_trigrams_forget_file (LodeStore  *self,
                                  gint64      file_id,
                                  GError    **error)
{
  LodeStoreTrigramBatch *batch = self->trigram_batch;
  sqlite3_stmt *s;

  for (guint i = 0; batch != NULL && i < batch->files->len; i++)
    if (g_array_index (batch->files, PendingFile, i).file_id == file_id)
      g_array_index (batch->files, PendingFile, i).file_id = 0;

  s = _lode_store_statement (self, sql_forget_file, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, file_id);
  return _lode_store_run (self, s, error, "Cannot forget a file's trigrams");
}

/* Runs on the writer's thread, inside its batch, after the chunks of @file_id (and inside
 * the replay of its prepared tokens, whose keys it takes when they are there). */
gboolean
_lode_store_trigrams_put_file (LodeStore   *self,
                               gint64       file_id,
                               GPtrArray   *chunks,
                               GError     **error)
{
  LodeStoreTrigramBatch *batch = self->trigram_batch;
  g_autoptr(GArray) computed = NULL;
  gconstpointer data = NULL;
  gsize size = 0;
  PendingFile file = { file_id, 0, 0 };
  sqlite3_stmt *s;

  if (!_lode_store_tokens_take (LODE_STORE_TOKENS_TRIGRAMS, &data, &size))
    {
      computed = chunk_keys (chunks);
      data = computed->data;
      size = computed->len * sizeof (guint64);
    }
  file.n = size / sizeof (guint64);
  if (file.n == 0)
    return TRUE;

  if (batch == NULL)
    {
      batch = self->trigram_batch = g_new0 (LodeStoreTrigramBatch, 1);
      batch->keys = g_array_new (FALSE, FALSE, sizeof (guint64));
      batch->files = g_array_new (FALSE, FALSE, sizeof (PendingFile));
    }
  if (batch->segment == 0)
    {
      s = _lode_store_statement (self, sql_last_segment, error);
      if (s == NULL)
        return FALSE;
      if (sqlite3_step (s) != SQLITE_ROW)
        return _lode_store_set_error (self, sqlite3_reset (s), error,
                                      "Cannot read the trigrams' segments");
      batch->segment = sqlite3_column_int64 (s, 0) + 1;
      sqlite3_reset (s);
    }

  file.offset = batch->keys->len;
  /* Copied: the prepared keys need not be aligned. */
  g_array_set_size (batch->keys, batch->keys->len + file.n);
  memcpy (&g_array_index (batch->keys, guint64, file.offset), data, size);
  g_array_append_val (batch->files, file);

  s = _lode_store_statement (self, sql_put_file, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, file_id);
  sqlite3_bind_int64 (s, 2, batch->segment);
  return _lode_store_run (self, s, error, "Cannot index a file's trigrams");
}

/* Forgets the files put since the transaction began, which rolled back. */
void
_lode_store_trigrams_discard (LodeStore *self)
{
  g_clear_pointer (&self->trigram_batch, _lode_store_trigram_batch_free);
}

/* Reading segments --------------------------------------------------------------------- */

/* Merges the two ascending runs of @ids, before @at and from it, into one. */
static void
merge_runs (GArray *ids,
            guint   at)
{
  gint64 *all = (gint64 *) (gpointer) ids->data;
  g_autofree gint64 *tail = NULL;
  guint i = at, j = ids->len - at, out = ids->len;

  if (at == 0 || at == ids->len || all[at - 1] < all[at])
    return;
  tail = g_memdup2 (all + at, (gsize) j * sizeof (gint64));
  /* From the end: the tail's room is filled before the head's elements are overwritten. */
  while (j > 0)
    all[--out] = i > 0 && all[i - 1] > tail[j - 1] ? all[--i] : tail[--j];
}

/* Appends to @out, kept ascending, the ids of the entry @r is at whose file's trigrams are
 * in @segment (@segments: a file id → its segment, where the array reaches). A file's
 * trigrams are in one segment: the ids appended are not in @out yet. The ids of an entry
 * ascend, and those of several segments are merged as they come: sorting a common
 * trigram's thousands of ids from a watcher's few segments took half of a look-up. */
void
_lode_trigram_entry_reader_append_ids (const LodeTrigramEntryReader *r,
                                       gint64                        segment,
                                       const GArray                 *segments,
                                       GArray                       *out)
{
  const guint8 *p = r->ids;
  const guint8 *end = r->ids + r->ids_size;
  const gint64 *of = (const gint64 *) (gpointer) segments->data;
  guint at = out->len;
  gint64 *ids;
  gint64 id = 0;
  guint64 delta;
  guint n = 0;

  /* Each id takes a byte at least, whatever the count says. */
  g_array_set_size (out, at + r->ids_size);
  ids = &g_array_index (out, gint64, at);
  /* The ids ascend from 1: a difference of 0, or past any id, is a damaged entry's, whose
   * ids are kept up to there, still ascending. */
  while (p < end && lode_varint_read (&p, end, &delta) && delta > 0 && delta <= G_MAXINT32)
    {
      id += (gint64) delta;
      if ((guint64) id < segments->len && of[id] == segment)
        ids[n++] = id;
    }
  g_array_set_size (out, at + n);
  merge_runs (out, at);
}

/* Folding ------------------------------------------------------------------------------ */

/* Sets @error to say the trigrams of @self are damaged; FALSE. */
gboolean
_lode_store_trigrams_damaged_error (LodeStore  *self,
                                    GError    **error)
{
  g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED,
               "%s: the trigrams are damaged: a block does not hold whole entries",
               self->filename);
  return FALSE;
}

/* One segment's blocks, in key order, during a fold; each block is copied, since the fold
 * writes to the same table while it reads. */
typedef struct
{
  sqlite3_stmt *s;
  gint64        segment;
  GByteArray   *block;
  LodeTrigramEntryReader   entry;
  gboolean      done;
} SegmentCursor;

static gboolean
segment_cursor_next (LodeStore      *self,
                     SegmentCursor  *c,
                     GError        **error)
{
  while (!_lode_trigram_entry_reader_next (&c->entry))
    {
      int rc;
      const guint8 *data;

      if (c->entry.damaged)
        return _lode_store_trigrams_damaged_error (self, error);
      rc = sqlite3_step (c->s);

      if (rc == SQLITE_DONE)
        {
          c->done = TRUE;
          return TRUE;
        }
      if (rc != SQLITE_ROW)
        return _lode_store_set_error (self, rc, error, "Cannot read the trigrams");
      data = sqlite3_column_blob (c->s, 0);
      g_byte_array_set_size (c->block, 0);
      g_byte_array_append (c->block, data, sqlite3_column_bytes (c->s, 0));
      _lode_trigram_entry_reader_init (&c->entry, c->block->data, c->block->len);
    }
  return TRUE;
}

/* A file id → the segment its trigrams are in (0: none), as an array by id. */
static GArray *
read_file_segments (LodeStore  *self,
                    GError    **error)
{
  g_autoptr(GArray) segments = g_array_new (FALSE, TRUE, sizeof (gint64));
  sqlite3_stmt *s = _lode_store_statement (self, sql_file_segments, error);
  int rc;

  if (s == NULL)
    return NULL;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);

      if (id < 0 || id > G_MAXINT32)
        continue;
      if ((guint64) id >= segments->len)
        g_array_set_size (segments, id + 1);
      g_array_index (segments, gint64, id) = sqlite3_column_int64 (s, 1);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read the trigrams' files");
      return NULL;
    }
  return g_steal_pointer (&segments);
}

/* A segment and its count of blocks. */
typedef struct
{
  gint64 number;
  gint64 blocks;
} Segment;

/* Folds @segments (ascending, the newest of the index) into a new one. */
static gboolean
fold_segments (LodeStore     *self,
               const Segment *segments,
               guint          n,
               GError       **error)
{
  gint64 folded = segments[n - 1].number + 1;
  g_autoptr(GArray) file_segments = read_file_segments (self, error);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree SegmentCursor *cursors = g_new0 (SegmentCursor, n);
  BlockWriter w;
  gboolean ok = file_segments != NULL;
  sqlite3_stmt *s;

  for (guint i = 0; ok && i < n; i++)
    {
      SegmentCursor *c = &cursors[i];
      int rc = sqlite3_prepare_v2 (self->db, sql_segment_blocks, -1, &c->s, NULL);

      c->segment = segments[i].number;
      c->block = g_byte_array_new ();
      _lode_trigram_entry_reader_init (&c->entry, NULL, 0);
      if (rc != SQLITE_OK)
        ok = _lode_store_set_error (self, rc, error, "Cannot read the trigrams");
      else
        {
          sqlite3_bind_int64 (c->s, 1, c->segment);
          ok = segment_cursor_next (self, c, error);
        }
    }

  block_writer_init (&w, self, folded);
  while (ok)
    {
      guint64 key = G_MAXUINT64;
      gboolean any = FALSE;

      for (guint i = 0; i < n; i++)
        if (!cursors[i].done && (!any || cursors[i].entry.key < key))
          {
            key = cursors[i].entry.key;
            any = TRUE;
          }
      if (!any)
        break;

      g_array_set_size (ids, 0);
      for (guint i = 0; ok && i < n; i++)
        if (!cursors[i].done && cursors[i].entry.key == key)
          {
            _lode_trigram_entry_reader_append_ids (&cursors[i].entry, cursors[i].segment,
                                                   file_segments, ids);
            ok = segment_cursor_next (self, &cursors[i], error);
          }
      for (guint i = 0; i < ids->len; i++)
        block_writer_add_id (&w, g_array_index (ids, gint64, i));
      if (ok)
        ok = block_writer_end_entry (&w, key, error);
    }
  if (ok)
    ok = block_writer_flush (&w, error);
  block_writer_clear (&w);
  for (guint i = 0; i < n; i++)
    {
      sqlite3_finalize (cursors[i].s);
      if (cursors[i].block != NULL)
        g_byte_array_unref (cursors[i].block);
    }
  if (!ok)
    return FALSE;

  s = _lode_store_statement (self, sql_drop_segments, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, segments[0].number);
  sqlite3_bind_int64 (s, 2, folded);
  if (!_lode_store_run (self, s, error, "Cannot drop the trigrams' old segments"))
    return FALSE;
  s = _lode_store_statement (self, sql_fold_files, error);
  if (s == NULL)
    return FALSE;
  sqlite3_bind_int64 (s, 1, segments[0].number);
  sqlite3_bind_int64 (s, 2, folded);
  return _lode_store_run (self, s, error, "Cannot fold the trigrams' segments");
}

static gboolean
merge_rows (LodeStore      *self,
            gconstpointer   data,
            GError        **error)
{
  guint max_segments = *(const guint *) data;
  g_autoptr(GArray) segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  const Segment *all;
  gint64 later_blocks = 0;
  sqlite3_stmt *s;
  int rc;

  if (!_lode_store_trigrams_flush (self, error))
    return FALSE;
  s = _lode_store_statement (self, sql_segments, error);
  if (s == NULL)
    return FALSE;
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      Segment segment = { sqlite3_column_int64 (s, 0), sqlite3_column_int64 (s, 1) };

      g_array_append_val (segments, segment);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    return _lode_store_set_error (self, rc, error, "Cannot read the trigrams' segments");
  if (segments->len <= max_segments)
    return TRUE;

  /* The segments after the oldest are folded without it while they hold less than a quarter
   * of its blocks: a watcher's edits then rewrite their own, not the whole index (on five
   * copies of git, folding every segment takes 1.1 s). */
  all = (const Segment *) (gpointer) segments->data;
  for (guint i = 1; i < segments->len; i++)
    later_blocks += all[i].blocks;
  if (max_segments > 1 && later_blocks * 4 < all[0].blocks)
    return fold_segments (self, all + 1, segments->len - 1, error);
  return fold_segments (self, all, segments->len, error);
}

/* Folds the trigrams' segments when there are more than @max_segments (a run's end: 1 after
 * a new index's first run, which leaves one per batch, all of them into one; MAX_SEGMENTS
 * after others, the small ones alone while they are small). On git v2.47.0 a look-up then
 * reads one block per trigram and segment. */
gboolean
_lode_store_trigrams_merge (LodeStore  *self,
                            gboolean    all,
                            GError    **error)
{
  guint max_segments = all ? 1 : MAX_SEGMENTS;

  if (self->in_transaction)
    return merge_rows (self, &max_segments, error);
  return _lode_store_write_alone (self, merge_rows, &max_segments, error);
}
