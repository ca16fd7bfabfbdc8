/* lode-store-tokenizer.c — FTS5 on the SQLite store's connections: the code tokenizer
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The tokenizer has no options and no state, so every instance is the same static object. */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include "lode-code-tokenizer.h"
#include "lode-error.h"
#include "lode-store-private.h"

typedef struct
{
  void *ctx;
  int (*x_token) (void *, int, const char *, int, int, int);
  int   rc;
} Fts5Closure;

static int fts5_instance;

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

  if (text == NULL || len <= 0)
    return SQLITE_OK;

  /* Queries get whole identifiers only; documents, and the auxiliary functions that must see
   * what documents saw, get the parts too. */
  lode_code_tokenize (text, len,
                      (flags & FTS5_TOKENIZE_QUERY) != 0 ? LODE_TOKENIZE_WHOLE : LODE_TOKENIZE_SPLIT,
                      fts5_token_cb, &closure);

  return closure.rc;
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
