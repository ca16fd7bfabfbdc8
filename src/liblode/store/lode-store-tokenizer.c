/* lode-store-tokenizer.c — FTS5 on the SQLite store's connections: the code tokenizer
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The tokenizer has no options and no state, so every instance is the same static object.
 *
 * Tokens can also be prepared ahead, on another thread: the indexer's chunking threads record
 * what the tokenizers give for a file's texts (lode_index_store_prepare_file()), and when the
 * writer inserts those texts the tokenizers replay the record instead of tokenizing again.
 * The writer is the one thread every other waits for; the chunking threads are as many as
 * the machine has cores. A record is a sequence of texts in the order the writer's inserts
 * hand them to FTS5, each with its tokenizer, length and hash, so a text the record does not
 * expect is tokenized as usual (and the rest of the record dropped). The record to replay is
 * the writer thread's own (_lode_store_tokens_begin()): a reader's tokenizer on another
 * thread never sees it. */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <string.h>

#include "lode-code-tokenizer.h"
#include "lode-error.h"
#include "lode-store-private.h"
#include "lode-varint.h"

typedef struct
{
  void *ctx;
  int (*x_token) (void *, int, const char *, int, int, int);
  int   rc;
} Fts5Closure;

static int fts5_instance;

/* Prepared tokens --------------------------------------------------------------------- */

/* What is left of the record this thread's inserts replay, from _lode_store_tokens_begin()
 * to _lode_store_tokens_end(). */
typedef struct
{
  const guint8 *next;
  const guint8 *end;
} Replay;

static GPrivate replay_key = G_PRIVATE_INIT (g_free);

/* A text's header in a record: its tokenizer, length and hash, then the size of its
 * tokens. */
typedef struct
{
  guint32 kind;
  guint32 len;
  guint32 hash;
  guint32 size;
} TextHeader;

static guint32
text_hash (const char *text,
           gsize       len)
{
  guint64 h = len * 0x9E3779B97F4A7C15ull;
  gsize i = 0;

  for (; i + 8 <= len; i += 8)
    {
      guint64 w;

      memcpy (&w, text + i, 8);
      h = (h ^ w) * 0xFF51AFD7ED558CCDull;
      h ^= h >> 32;
    }
  for (; i < len; i++)
    h = (h ^ (guchar) text[i]) * 0x100000001B3ull;

  return (guint32) (h ^ (h >> 32));
}

/* Where record_token() writes: the bytes of @out up to @used are the record, those past it
 * room for the next tokens. */
typedef struct
{
  GByteArray *out;
  guint       used;
} Record;

/* The most a token takes in a record besides its bytes: its flags, then its length, start
 * and end as varints. */
#define TOKEN_OVERHEAD (1 + 3 * 5)

/* An FTS5 token callback that appends the token to a record: its flags, its length, its
 * bytes, its start and end. The trigrams of a file are millions of calls over a tree, so a
 * token is written in place, and the array grows (its length doubled) only when the room
 * left is too small: one call into GLib per token, growing the array and shrinking it back,
 * took 0.27 s of the chunking threads on git v2.47.0, a call appending to it 0.18 s. */
static int
record_token (void       *ctx,
              int         flags,
              const char *token,
              int         len,
              int         start,
              int         end)
{
  Record *record = ctx;
  guint need = TOKEN_OVERHEAD + (guint) len;
  guint8 *p;

  if (record->out->len - record->used < need)
    g_byte_array_set_size (record->out, MAX (2 * record->out->len, record->used + need));
  p = record->out->data + record->used;
  *p++ = (guint8) flags;
  p = lode_varint_put (p, (guint32) len);
  memcpy (p, token, (gsize) len);
  p = lode_varint_put (p + len, (guint32) start);
  p = lode_varint_put (p, (guint32) end);
  record->used = (guint) (p - record->out->data);

  return SQLITE_OK;
}

/* Appends to @out what @tokenize gives for @text as a document; nothing for a NULL text,
 * which FTS5 never hands a tokenizer. Runs on any thread: the tokenizers the store records
 * keep no state. */
void
_lode_store_tokens_record (GByteArray           *out,
                           LodeStoreTokensKind   kind,
                           LodeStoreTokenizeFunc tokenize,
                           const char           *text,
                           gsize                 len)
{
  TextHeader header = { kind, (guint32) len, 0, 0 };
  guint at = out->len;
  Record record = { out, 0 };

  if (text == NULL)
    return;
  header.hash = text_hash (text, len);
  g_byte_array_append (out, (const guint8 *) &header, sizeof header);
  if (len > 0)
    {
      record.used = out->len;
      tokenize (NULL, &record, FTS5_TOKENIZE_DOCUMENT, text, (int) len, record_token);
      g_byte_array_set_size (out, record.used);
    }
  header.size = out->len - at - sizeof header;
  memcpy (out->data + at, &header, sizeof header);
}

/* Appends to @out @size bytes of @data for the writer to take whole
 * (_lode_store_tokens_take()): what it needs of a file besides FTS5's tokens. */
void
_lode_store_tokens_record_raw (GByteArray          *out,
                               LodeStoreTokensKind  kind,
                               gconstpointer        data,
                               gsize                size)
{
  TextHeader header = { kind, 0, 0, (guint32) size };

  g_byte_array_append (out, (const guint8 *) &header, sizeof header);
  if (size > 0)
    g_byte_array_append (out, data, size);
}

/* When the next part of the record this thread replays is the data of @kind: points
 * *@data at it (*@size bytes, not aligned), moves past it and returns TRUE. */
gboolean
_lode_store_tokens_take (LodeStoreTokensKind   kind,
                         gconstpointer        *data,
                         gsize                *size)
{
  Replay *replay = g_private_get (&replay_key);
  TextHeader header;

  if (replay == NULL || replay->next == NULL ||
      (gsize) (replay->end - replay->next) < sizeof header)
    return FALSE;
  memcpy (&header, replay->next, sizeof header);
  if (header.kind != kind || header.size > (gsize) (replay->end - replay->next) - sizeof header)
    {
      replay->next = NULL;
      return FALSE;
    }
  *data = replay->next + sizeof header;
  *size = header.size;
  replay->next += sizeof header + header.size;
  return TRUE;
}

/* Makes this thread's next inserts replay @prepared (nullable: none). */
void
_lode_store_tokens_begin (GBytes *prepared)
{
  Replay *replay = g_private_get (&replay_key);
  gsize size = 0;
  const guint8 *data = prepared != NULL ? g_bytes_get_data (prepared, &size) : NULL;

  if (replay == NULL)
    {
      replay = g_new0 (Replay, 1);
      g_private_set (&replay_key, replay);
    }
  replay->next = data;
  replay->end = data != NULL ? data + size : NULL;
}

/* Ends what _lode_store_tokens_begin() began; @path is the file whose inserts all
 * succeeded, or NULL. A record they did not replay whole was prepared for other texts, or
 * in another order: a defect of the store, not of the file (which was tokenized as
 * usual). */
void
_lode_store_tokens_end (const char *path)
{
  Replay *replay = g_private_get (&replay_key);

  if (replay == NULL)
    return;
  if (path != NULL && replay->next != replay->end)
    g_warning ("%s: its prepared tokens did not match what was stored; it was tokenized again",
               path);
  replay->next = replay->end = NULL;
}

/* When this thread replays a record whose next text is @text for tokenizer @kind: gives
 * FTS5 its tokens through @x_token and returns TRUE (*@rc what FTS5 said). Otherwise the
 * caller tokenizes @text itself. */
gboolean
_lode_store_tokens_replay (LodeStoreTokensKind   kind,
                           const char           *text,
                           int                   len,
                           void                 *ctx,
                           LodeStoreTokenFunc    x_token,
                           int                  *rc)
{
  Replay *replay = g_private_get (&replay_key);
  TextHeader header;
  const guint8 *p;
  const guint8 *end;

  if (replay == NULL || replay->next == NULL || replay->next == replay->end)
    return FALSE;

  memcpy (&header, replay->next, sizeof header);
  if (header.kind != kind || header.len != (guint32) MAX (len, 0) ||
      header.hash != text_hash (text, header.len))
    {
      /* Out of step: nothing more of it is replayed, and _lode_store_tokens_end() says so. */
      replay->next = NULL;
      return FALSE;
    }

  p = replay->next + sizeof header;
  end = p + header.size;
  replay->next = end;
  *rc = SQLITE_OK;
  while (p < end && *rc == SQLITE_OK)
    {
      int flags = *p++;
      guint64 n, start, stop;
      const char *token;

      /* record_token() wrote whole tokens: one that is not is a record out of step too. */
      if (!lode_varint_read (&p, end, &n) || n > (guint64) (end - p))
        {
          replay->next = NULL;
          break;
        }
      token = (const char *) p;
      p += n;
      if (!lode_varint_read (&p, end, &start) || !lode_varint_read (&p, end, &stop))
        {
          replay->next = NULL;
          break;
        }
      *rc = x_token (ctx, flags, token, (int) n, (int) start, (int) stop);
    }

  return TRUE;
}

/* The code tokenizer ------------------------------------------------------------------ */

static int
fts5_create (void              *user_data,
             const char       **argv,
             int                argc,
             Fts5Tokenizer    **out)
{
  if (argc > 0)
    return SQLITE_ERROR;

  *out = (Fts5Tokenizer *) &fts5_instance;
  return SQLITE_OK;
}

static void
fts5_delete (Fts5Tokenizer *tokenizer)
{
}

static gboolean
fts5_token_cb (const char *token,
               gsize       len,
               gsize       start,
               gsize       end,
               gboolean    colocated,
               gpointer    user_data)
{
  Fts5Closure *closure = user_data;

  closure->rc = closure->x_token (closure->ctx, colocated ? FTS5_TOKEN_COLOCATED : 0,
                                  token, (int) len, (int) start, (int) end);
  return closure->rc == SQLITE_OK;
}

static int
fts5_tokenize (Fts5Tokenizer *tokenizer,
               void          *ctx,
               int            flags,
               const char    *text,
               int            len,
               int          (*x_token) (void *, int, const char *, int, int, int))
{
  Fts5Closure closure = { ctx, x_token, SQLITE_OK };
  int rc;

  if ((flags & FTS5_TOKENIZE_DOCUMENT) != 0 &&
      _lode_store_tokens_replay (LODE_STORE_TOKENS_CODE, text, len, ctx, x_token, &rc))
    return rc;
  if (text == NULL || len <= 0)
    return SQLITE_OK;

  /* Queries get whole identifiers only; documents, and the auxiliary functions that must see
   * what documents saw, get the parts too. */
  lode_code_tokenize (text, len,
                      (flags & FTS5_TOKENIZE_QUERY) != 0 ? LODE_TOKENIZE_WHOLE : LODE_TOKENIZE_SPLIT,
                      fts5_token_cb, &closure);

  return closure.rc;
}

/* Appends to @out the code tokenizer's tokens of @text (any thread). */
void
_lode_store_tokens_record_code (GByteArray *out,
                                const char *text,
                                gsize       len)
{
  _lode_store_tokens_record (out, LODE_STORE_TOKENS_CODE, fts5_tokenize, text, len);
}

/* FTS5's API on @db, through which tokenizers and auxiliary functions are registered. */
fts5_api *
_lode_store_get_fts5 (sqlite3  *db,
                      GError  **error)
{
  fts5_api *api = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  rc = sqlite3_prepare_v2 (db, "SELECT fts5(?1)", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_pointer (stmt, 1, &api, "fts5_api_ptr", NULL);
      sqlite3_step (stmt);
      rc = sqlite3_finalize (stmt);
    }

  if (rc != SQLITE_OK || api == NULL || api->iVersion < 2)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "SQLite has no usable FTS5: %s", sqlite3_errmsg (db));
      return NULL;
    }
  return api;
}

/* Registers the tokenizer as LODE_STORE_TOKENIZER on @db. Tokenizers belong to a connection,
 * so every connection that touches the FTS tables needs this (the tests' too). */
gboolean
_lode_store_register_tokenizer (sqlite3  *db,
                                GError  **error)
{
  static fts5_tokenizer tokenizer = { fts5_create, fts5_delete, fts5_tokenize };
  fts5_api *api;
  int rc;

  g_return_val_if_fail (db != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  api = _lode_store_get_fts5 (db, error);
  if (api == NULL)
    return FALSE;

  rc = api->xCreateTokenizer (api, LODE_STORE_TOKENIZER, NULL, &tokenizer, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "Cannot register the %s tokenizer: %s", LODE_STORE_TOKENIZER,
                   sqlite3_errstr (rc));
      return FALSE;
    }

  return TRUE;
}
