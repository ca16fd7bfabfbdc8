/* test-code-tokenizer.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>
#include <sqlite3.h>

#include "lode-code-tokenizer.h"
#include "lode-store-private.h"

typedef struct
{
  const char *text;
  const char *split;   /* tokens in split mode, space-separated */
  const char *whole;   /* tokens in whole mode */
} Case;

static const Case cases[] = {
  { "parseHttpRequest", "parsehttprequest parse http request", "parsehttprequest" },
  { "HTTPServer", "httpserver http server", "httpserver" },
  { "parseHTTPRequest2", "parsehttprequest2 parse http request", "parsehttprequest2" },
  { "XMLHttpRequest", "xmlhttprequest xml http request", "xmlhttprequest" },
  { "lode_store_open", "lode_store_open lode store open", "lode_store_open" },
  { "MAX_PATH_LEN", "max_path_len max path len", "max_path_len" },
  { "__init__", "__init__ init", "__init__" },
  { "lode-store", "lode-store lode store", "lode-store" },
  { "--no-verify", "no-verify no verify", "no-verify" },
  { "sha256sum", "sha256sum sha 256 sum", "sha256sum" },
  { "int32_t", "int32_t int 32", "int32_t" },
  { "utf-8", "utf", "utf" },
  { "n-1 a - b", "", "" },
  { "foo->bar", "foo bar", "foo bar" },
  { "Foo::bar(baz)", "foo bar baz", "foo bar baz" },
  { "x = y + 1;", "", "" },
  { "return 404;", "return 404", "return 404" },
  { "Grüße", "grüße", "grüße" },
  { "ÄBC", "äbc", "äbc" },
  { "straßeName", "straßename straße name", "straßename" },
  { "ΑλφαΒήτα", "αλφαβήτα αλφα βήτα", "αλφαβήτα" },
  { "日本語のテキスト", "日本語のテキスト", "日本語のテキスト" },
  { "simple", "simple", "simple" },
  { "", "", "" },
  { "   \t\n  ", "", "" },
  { "(){}[];,.!?+-*/=<>&|^~%", "", "" },
};

static char *
join_tokens (const char        *text,
             LodeTokenizeFlags  flags)
{
  g_auto(GStrv) tokens = lode_code_tokenize_to_strv (text, flags);

  return g_strjoinv (" ", tokens);
}

static void
test_split_table (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *split = join_tokens (cases[i].text, LODE_TOKENIZE_SPLIT);
      g_autofree char *whole = join_tokens (cases[i].text, LODE_TOKENIZE_WHOLE);

      g_test_message ("%s", cases[i].text);
      g_assert_cmpstr (split, ==, cases[i].split);
      g_assert_cmpstr (whole, ==, cases[i].whole);
    }
}

typedef struct
{
  gsize     len;
  guint     n_tokens;
  guint     n_colocated;
  gboolean  bad_offsets;
  gboolean  first_colocated;
  gsize     max_token_len;
} Check;

static gboolean
check_cb (const char *token,
          gsize       len,
          gsize       start,
          gsize       end,
          gboolean    colocated,
          gpointer    user_data)
{
  Check *check = user_data;

  if (check->n_tokens == 0 && colocated)
    check->first_colocated = TRUE;
  if (start >= end || end > check->len || len == 0 || !g_utf8_validate (token, len, NULL))
    check->bad_offsets = TRUE;
  check->n_tokens++;
  check->n_colocated += colocated;
  check->max_token_len = MAX (check->max_token_len, len);

  return TRUE;
}

static void
check_text (const char *text,
            gsize       len,
            Check      *check)
{
  memset (check, 0, sizeof *check);
  check->len = len;
  lode_code_tokenize (text, len, LODE_TOKENIZE_SPLIT, check_cb, check);
  g_assert_false (check->bad_offsets);
  g_assert_false (check->first_colocated);
}

typedef struct
{
  const char *text;
  GPtrArray  *spans;
} Spans;

static gboolean
span_cb (const char *token,
         gsize       len,
         gsize       start,
         gsize       end,
         gboolean    colocated,
         gpointer    user_data)
{
  Spans *spans = user_data;

  g_ptr_array_add (spans->spans, g_strndup (spans->text + start, end - start));
  return TRUE;
}

static void
test_offsets (void)
{
  static const char text[] = "  parseHttpRequest(ctx, \"Grüße\") + HTTPServer";
  const char *expected[] = {
    "parseHttpRequest", "parse", "Http", "Request", "ctx", "Grüße", "HTTPServer", "HTTP",
    "Server", NULL,
  };
  g_autoptr(GPtrArray) spans = g_ptr_array_new_with_free_func (g_free);
  Spans closure = { text, spans };
  Check check;

  check_text (text, strlen (text), &check);
  g_assert_cmpuint (check.n_tokens, ==, G_N_ELEMENTS (expected) - 1);
  g_assert_cmpuint (check.n_colocated, ==, 5);

  /* The offsets delimit the source text of each token, parts included. */
  lode_code_tokenize (text, strlen (text), LODE_TOKENIZE_SPLIT, span_cb, &closure);
  g_ptr_array_add (spans, NULL);
  g_assert_cmpstrv ((const char *const *) spans->pdata, expected);
}

static void
test_long_identifiers (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_auto(GStrv) tokens = NULL;
  Check check;

  /* Camel-case humps far beyond any real identifier: one token, cut, and no parts. */
  for (guint i = 0; i < 5000; i++)
    g_string_append (text, "fooBar");
  check_text (text->str, text->len, &check);
  g_assert_cmpuint (check.n_tokens, ==, 1);
  g_assert_cmpuint (check.max_token_len, <=, 64);

  /* A long but plausible name is still split. */
  tokens = lode_code_tokenize_to_strv ("thisIsAVeryLongJavaStyleIdentifierNameForAFactoryBean",
                                       LODE_TOKENIZE_SPLIT);
  g_assert_cmpstr (tokens[0], ==, "thisisaverylongjavastyleidentifiernameforafactorybean");
  g_assert_true (g_strv_contains ((const char *const *) tokens, "factory"));
  g_assert_true (g_strv_contains ((const char *const *) tokens, "bean"));

  /* Non-ASCII runs are cut at a character boundary. */
  g_string_truncate (text, 0);
  for (guint i = 0; i < 200; i++)
    g_string_append (text, "ä");
  check_text (text->str, text->len, &check);
  g_assert_cmpuint (check.n_tokens, ==, 1);
  g_assert_cmpuint (check.max_token_len, <=, 64);
}

static void
test_bad_input (void)
{
  static const char invalid[] = "ab\xff" "cd \xc3 \xe2\x82 ok\xf0\x9f\x98";
  g_auto(GStrv) tokens = lode_code_tokenize_to_strv (invalid, LODE_TOKENIZE_SPLIT);
  const char *expected[] = { "ab", "cd", "ok", NULL };
  g_autofree char *binary = g_malloc (4096);
  Check check;

  g_assert_cmpstrv (tokens, expected);

  /* Binary data, NUL bytes included: any tokens, always within bounds. */
  for (guint i = 0; i < 4096; i++)
    binary[i] = (char) ((i * 7919u) >> 3);
  check_text (binary, 4096, &check);

  /* Every prefix of a multi-byte sequence at the very end. */
  for (gsize len = 0; len <= strlen ("aGrüße😀"); len++)
    check_text ("aGrüße😀", len, &check);
}

static void
exec_ok (sqlite3    *db,
         const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

static int
count_matches (sqlite3    *db,
               const char *match)
{
  sqlite3_stmt *stmt = NULL;
  int n = -1;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM t WHERE t MATCH ?1", -1,
                                       &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, match, -1, SQLITE_STATIC);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);

  return n;
}

static void
test_fts5 (void)
{
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open (":memory:", &db), ==, SQLITE_OK);
  g_assert_true (_lode_store_register_tokenizer (db, &error));
  g_assert_no_error (error);

  exec_ok (db, "CREATE VIRTUAL TABLE t USING fts5 (body, tokenize = 'lode_code')");
  exec_ok (db, "INSERT INTO t (rowid, body) VALUES "
               "(1, 'static int parseHttpRequest (Request *req);'),"
               "(2, 'def parse_http_request(req): pass'),"
               "(3, 'class HTTPServer: serves requests')");

  /* Documents carry the whole identifier and its parts. */
  g_assert_cmpint (count_matches (db, "\"parsehttprequest\""), ==, 1);
  g_assert_cmpint (count_matches (db, "\"parse_http_request\""), ==, 1);
  g_assert_cmpint (count_matches (db, "\"parse\" AND \"http\" AND \"request\""), ==, 2);
  g_assert_cmpint (count_matches (db, "\"server\""), ==, 1);
  /* A query is looked up whole: the phrase is one token, not the parts in a row. */
  g_assert_cmpint (count_matches (db, "\"parseHttpRequest\""), ==, 1);
  g_assert_cmpint (count_matches (db, "\"HTTPServer\""), ==, 1);
  /* Parts share the position of their identifier: they are not a phrase. */
  g_assert_cmpint (count_matches (db, "\"parse http\""), ==, 0);
  g_assert_cmpint (count_matches (db, "\"request\""), ==, 2);

  /* Auxiliary functions see document tokens; a part highlights its whole identifier. */
  {
    sqlite3_stmt *stmt = NULL;

    g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT highlight (t, 0, '[', ']') FROM t "
                                         "WHERE t MATCH '\"server\"'", -1, &stmt, NULL),
                     ==, SQLITE_OK);
    g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
    g_assert_cmpstr ((const char *) sqlite3_column_text (stmt, 0), ==,
                     "class [HTTPServer]: serves requests");
    sqlite3_finalize (stmt);
  }

  sqlite3_close (db);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/code-tokenizer/split-table", test_split_table);
  g_test_add_func ("/lode/code-tokenizer/offsets", test_offsets);
  g_test_add_func ("/lode/code-tokenizer/long-identifiers", test_long_identifiers);
  g_test_add_func ("/lode/code-tokenizer/bad-input", test_bad_input);
  g_test_add_func ("/lode/code-tokenizer/fts5", test_fts5);

  return g_test_run ();
}
