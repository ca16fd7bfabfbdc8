/* test-file-evidence.c — questions in words rank files by more than their best chunk
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "lode.h"
#include "indexed-tree.h"
#include "test-helpers.h"

/*
 * A user asks in words (or pastes an issue) and checks which file comes first: the
 * hand-written code, not a generated or vendored copy full of the same words; the file
 * named after the question's rare word; the code, not its tests or its documentation,
 * unless the question is about tests.
 */

typedef TestIndexedTree Fixture;

static void
write_tree (const char *root)
{
  g_autoptr(GString) parser = g_string_new ("// Code generated from Api.g4 by ANTLR 4.9. "
                                            "DO NOT EDIT.\n\npackage api\n\n");
  g_autoptr(GString) vendored = g_string_new ("/* A bundled copy of a widget library. */\n");
  g_autoptr(GString) manual = g_string_new ("# Billing\n\n");

  /* Unrelated code, so that the question's words are rare, as in a real tree. */
  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *name = g_strdup_printf ("misc/unit%u.c", i);
      g_autofree char *text = g_strdup_printf ("int\nscale_%u (int value)\n{\n"
                                               "  return value * %u;\n}\n", i, i + 2);

      test_write_file (root, name, text);
    }

  /* A generated parser and a vendored library that repeat every word of the question. */
  for (guint i = 0; i < 12; i++)
    g_string_append_printf (parser,
                            "func (p *ApiParser) Rule%u() {\n"
                            "\tp.enterRule(\"route timeout handler server request\")\n"
                            "\tp.match(\"timeout\", \"handler\", \"route\", \"server\")\n"
                            "}\n\n", i);
  for (guint i = 0; i < 3; i++)
    g_string_append_printf (vendored,
                            "function step%u(carousel, interval) {\n"
                            "  return carousel.autoplay(interval);\n"
                            "}\n", i);
  test_write_file (root, "tools/api/gen/apiparser_parser.go", parser->str);
  test_write_file (root, "web/static/widgets-2.4.1.js", vendored->str);

  /* The hand-written code the question is about. */
  test_write_file (root, "rest/server.go",
                   "package rest\n\n"
                   "func (s *Server) Start() {\n"
                   "\tfor _, route := range s.routes {\n"
                   "\t\ts.mux.Handle(route.Path,\n"
                   "\t\t\twithTimeout(route.Handler, s.timeout, s.cancelRequest))\n"
                   "\t}\n"
                   "}\n");

  test_write_file (root, "web/gallery.js",
                   "export function startCarousel(gallery, interval) {\n"
                   "  return gallery.carousel.autoplay(interval);\n"
                   "}\n");

  /* A file named after a rare word, and others that say it more often in their bodies. */
  test_write_file (root, "builders/linkcheck.py",
                   "class CheckExternalLinksBuilder:\n"
                   "    def check_anchor(self, response, anchor):\n"
                   "        \"\"\"Report an anchor missing from the page.\"\"\"\n"
                   "        return anchor in response.text\n");
  test_write_file (root, "builders/html.py",
                   "def write_anchors(out, anchors):\n"
                   "    # the linkcheck builder reads these anchors later\n"
                   "    for anchor in anchors:\n"
                   "        out.write(anchor)\n");
  test_write_file (root, "config.py",
                   "linkcheck_anchors = True\n");

  /* A family of near-duplicate copies, and the file the question is about. */
  for (guint i = 1; i <= 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("lib/legacy/codec_v0%u.c", i);
      g_autofree char *text = g_strdup_printf ("size_t\nwindow_v0%u (size_t window_log)\n{\n"
                                               "  /* the dictionary window of this format */\n"
                                               "  return dictionary_window (window_log);\n}\n",
                                               i);

      test_write_file (root, name, text);
    }
  test_write_file (root, "lib/compress/codec_compress.c",
                   "size_t\nwindow_size (size_t log)\n{\n"
                   "  return dictionary_window (log);\n}\n");

  /* A file whose first chunks hold a question's common words, and a later one all of them. */
  test_write_file (root, "cache/lru.c",
                   "/* lru.c: a cache of fixed size that drops the entry used least recently. */\n"
                   "\n"
                   "void\n"
                   "lru_cache_free (LruCache *cache)\n"
                   "{\n"
                   "  if (cache == NULL)\n"
                   "    return;\n"
                   "\n"
                   "  for (guint i = 0; i < cache->n_slots; i++)\n"
                   "    g_free (cache->slots[i].key);\n"
                   "  g_free (cache->slots);\n"
                   "  g_free (cache);\n"
                   "}\n"
                   "\n"
                   "guint\n"
                   "lru_cache_size (LruCache *cache)\n"
                   "{\n"
                   "  guint n = 0;\n"
                   "\n"
                   "  for (guint i = 0; i < cache->n_slots; i++)\n"
                   "    if (cache->slots[i].key != NULL)\n"
                   "      n++;\n"
                   "\n"
                   "  return n;\n"
                   "}\n"
                   "\n"
                   "/* When the cache is full, the entry used least recently is evicted: the tail\n"
                   " * of the recency list, whose key and value are freed to make room. */\n"
                   "static void\n"
                   "lru_cache_evict (LruCache *cache)\n"
                   "{\n"
                   "  LruEntry *oldest = cache->tail;\n"
                   "\n"
                   "  cache->tail = oldest->prev;\n"
                   "  g_free (oldest->key);\n"
                   "  g_free (oldest->value);\n"
                   "  oldest->key = NULL;\n"
                   "  cache->n_used--;\n"
                   "}\n");

  /* Code and a test that repeats its words. */
  test_write_file (root, "billing/refund.py",
                   "def refund_order(order, amount):\n"
                   "    \"\"\"Give the amount of an order back to its customer.\"\"\"\n"
                   "    order.customer.balance += amount\n"
                   "    return order\n");
  /* Code that says a question's rare words once, and a manual that says its words in every
   * section, as READMEs do. */
  test_write_file (root, "payments/ledger.py",
                   "def post_payout(ledger, payout):\n"
                   "    \"\"\"Adds the sum of a payout to the ledger's total.\"\"\"\n"
                   "    ledger.total += payout.sum\n");
  for (guint i = 0; i < 6; i++)
    g_string_append_printf (manual,
                            "## Payouts, part %u\n\n"
                            "Open the payout screen to send a payout: when it is sent, the "
                            "screen shows it as sent, and the ledger shows its total. "
                            "Expected steps: open, send, look.\n\n", i);
  test_write_file (root, "README.md", manual->str);
  test_write_file (root, "tests/test_refund.py",
                   "def test_refund_order_gives_amount_back():\n"
                   "    order = make_order(amount=5)\n"
                   "    refund_order(order, amount=5)\n"
                   "    assert order.customer.balance == 5  # refund the order amount\n"
                   "    assert refund_order(order, amount=0) is order  # refund order again\n");
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  test_indexed_tree_setup (fixture, write_tree);
}

/* The files of a search for @query, best first, one per file. */
static char *
first_files (Fixture    *fixture,
             const char *query,
             guint       n)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  GString *files = g_string_new (NULL);

  options.query = query;
  options.limit = n;
  options.one_per_file = TRUE;
  options.mode = LODE_SEARCH_MODE_LEXICAL;
  results = lode_project_search (fixture->project, &options, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < results->len; i++)
    {
      LodeSearchResult *result = g_ptr_array_index (results, i);

      g_string_append_printf (files, "%s%s", i > 0 ? " " : "", result->path);
    }

  g_test_message ("%s: %s", query, files->str);
  return g_string_free (files, FALSE);
}

static void
test_generated_below_handwritten (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autofree char *files = first_files (fixture,
                                        "the server does not cancel a request when a route "
                                        "handler runs past its timeout", 3);

  g_assert_true (g_str_has_prefix (files, "rest/server.go "));
}

static void
test_vendored_below_handwritten (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autofree char *files = first_files (fixture,
                                        "the carousel's autoplay interval skips a slide",
                                        3);

  g_assert_true (g_str_has_prefix (files, "web/gallery.js "));
}

static void
test_one_of_a_family (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *files = first_files (fixture,
                                        "the dictionary window is too small for this log",
                                        2);

  g_assert_true (g_str_has_prefix (files, "lib/legacy/codec_v0"));
  g_assert_true (g_str_has_suffix (files, " lib/compress/codec_compress.c"));
}

static void
test_name_matches_rare_word (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *files = first_files (fixture,
                                        "linkcheck reports a missing anchor on pages that "
                                        "have it", 3);

  g_assert_true (g_str_has_prefix (files, "builders/linkcheck.py "));
}

static void
test_tests_below_code (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *files = first_files (fixture,
                                        "refunding an order does not give the amount back "
                                        "to the customer", 2);

  g_assert_cmpstr (files, ==, "billing/refund.py tests/test_refund.py");
}

static void
test_prose_below_code (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *files = first_files (fixture,
                                        "Payouts do not reach the ledger. When a payout is "
                                        "sent, the ledger's total stays the same: the sum "
                                        "of the payout is never posted, although the "
                                        "payout screen shows it as sent. Steps: open the "
                                        "payout screen, send a payout, look at the "
                                        "ledger. Expected: the total grows by the sum. "
                                        "Seen: it does not.", 1);

  g_assert_cmpstr (files, ==, "payments/ledger.py");
}

static void
test_question_about_tests (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *files = first_files (fixture, "tests that refund an order", 1);

  g_assert_cmpstr (files, ==, "tests/test_refund.py");
}

/* A file's chunks share its evidence, but the one shown for it is the one that matches the
 * question best, not the first by line. */
static void
test_best_chunk_shown (Fixture       *fixture,
                       gconstpointer  data)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  const LodeSearchResult *first;

  options.query = "which entry is evicted when the cache is full";
  options.limit = 5;
  options.mode = LODE_SEARCH_MODE_LEXICAL;
  results = lode_project_search (fixture->project, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, >, 0);

  first = g_ptr_array_index (results, 0);
  g_assert_cmpstr (first->path, ==, "cache/lru.c");
  g_assert_cmpstr (first->symbol, ==, "lru_cache_evict");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/lode/file-evidence/" path, Fixture, NULL, fixture_setup, func, \
              test_indexed_tree_teardown)
  ADD ("generated-below-handwritten", test_generated_below_handwritten);
  ADD ("vendored-below-handwritten", test_vendored_below_handwritten);
  ADD ("one-of-a-family", test_one_of_a_family);
  ADD ("name-matches-rare-word", test_name_matches_rare_word);
  ADD ("tests-below-code", test_tests_below_code);
  ADD ("prose-below-code", test_prose_below_code);
  ADD ("question-about-tests", test_question_about_tests);
  ADD ("best-chunk-shown", test_best_chunk_shown);
#undef ADD

  return g_test_run ();
}
