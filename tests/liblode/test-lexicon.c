/* test-lexicon.c — the code lexicon Lode ships, and questions asked in other words
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "lode.h"
#include "lode-lexicon.h"
#include "indexed-tree.h"
#include "test-helpers.h"

/*
 * A user asks in their own words ("drop logins that went idle too long") for code that says
 * it in its own (Django's `SessionStore.clear_expired`, which deletes the sessions whose
 * expiry date has passed): the offline default finds the file and says which of its words
 * stand for which of the question's. A question the code already answers in its words is not
 * widened. The shipped lexicon loads, and a damaged one is refused with a reason.
 */

typedef TestIndexedTree Fixture;

static void
write_tree (const char *root)
{
  /* Unrelated code, so that words are rare, as in a real tree. */
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = g_strdup_printf ("reports/chart%u.py", i);
      g_autofree char *text = g_strdup_printf ("def bar_height_%u(value, scale):\n"
                                               "    return value * scale + %u\n", i, i);

      test_write_file (root, name, text);
    }

  /* The shape of django/contrib/sessions/backends/db.py. */
  test_write_file (root, "sessions/backends/db.py",
                   "from django.utils import timezone\n\n\n"
                   "class SessionStore(SessionBase):\n"
                   "    \"\"\"Implement database session store.\"\"\"\n\n"
                   "    @classmethod\n"
                   "    def get_model_class(cls):\n"
                   "        return Session\n\n"
                   "    @classmethod\n"
                   "    def clear_expired(cls):\n"
                   "        cls.get_model_class().objects.filter(\n"
                   "            expire_date__lt=timezone.now()\n"
                   "        ).delete()\n");

  /* Files that share the question's words, and are not what it asks for. */
  test_write_file (root, "accounts/forms.py",
                   "class LoginForm(Form):\n"
                   "    \"\"\"The form a visitor fills in to log in.\"\"\"\n\n"
                   "    def render_login(self, request):\n"
                   "        return render(request, \"login.html\", {\"form\": self})\n");
  test_write_file (root, "utils/text.py",
                   "def shorten(text, width):\n"
                   "    \"\"\"Cuts a line that is too long for the column.\"\"\"\n"
                   "    return text if len(text) <= width else text[: width - 1] + \"…\"\n");
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  test_indexed_tree_setup (fixture, write_tree);
}

static GPtrArray *
search (Fixture    *fixture,
        const char *query)
{
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;

  options.query = query;
  options.limit = 3;
  options.one_per_file = TRUE;
  options.mode = LODE_SEARCH_MODE_LEXICAL;
  results = lode_project_search (fixture->project, &options, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < results->len; i++)
    {
      LodeSearchResult *r = g_ptr_array_index (results, i);
      g_autofree char *terms = r->expanded_terms != NULL
                               ? g_strjoinv (" ", r->expanded_terms) : g_strdup ("");

      g_test_message ("%s: %u. %s [%s]", query, i + 1, r->path, terms);
    }

  return g_steal_pointer (&results);
}

static void
test_default_loads (void)
{
  LodeLexicon *lexicon = lode_lexicon_get_default ();
  g_autoptr(GArray) near = NULL;
  gboolean found = FALSE;

  g_assert_nonnull (lexicon);
  g_assert_cmpuint (lode_lexicon_get_n_words (lexicon), >=, 10000);
  g_assert_true (lode_lexicon_contains (lexicon, "session"));
  g_assert_false (lode_lexicon_contains (lexicon, "the"));

  /* What code says of expired things: the neighbours of a word, most similar first. */
  near = lode_lexicon_neighbours (lexicon, "expired", 10, 0.0);
  g_assert_cmpuint (near->len, ==, 10);
  for (guint i = 0; i < near->len; i++)
    {
      const LodeLexiconTerm *t = &g_array_index (near, LodeLexiconTerm, i);

      g_test_message ("expired: %s %.2f", t->term, t->similarity);
      if (i > 0)
        g_assert_cmpfloat (t->similarity, <=, g_array_index (near, LodeLexiconTerm, i - 1).similarity);
      found |= g_str_equal (t->term, "expire") || g_str_equal (t->term, "expiry") ||
               g_str_equal (t->term, "expiration") || g_str_equal (t->term, "stale");
    }
  g_assert_true (found);
}

static void
test_damaged (void)
{
  static const guint8 header[] = "LODELEX1\x03\x00\x00\x00\x02\x00\x00\x00\x04stop";
  g_autoptr(GBytes) bytes = g_bytes_new_static (header, sizeof header - 1);
  g_autoptr(GBytes) other = g_bytes_new_static ("GGUF", 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeLexicon) lexicon = NULL;

  lexicon = lode_lexicon_new_from_bytes (bytes, &error);
  g_assert_null (lexicon);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "truncated"));
  g_clear_error (&error);

  lexicon = lode_lexicon_new_from_bytes (other, &error);
  g_assert_null (lexicon);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static void
test_question_in_other_words (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(GPtrArray) results = search (fixture, "drop logins that went idle too long");
  const LodeSearchResult *found = NULL;
  g_autofree char *path = g_build_filename (fixture->root, "sessions", "backends", "db.py",
                                            NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < results->len; i++)
    {
      const LodeSearchResult *r = g_ptr_array_index (results, i);

      if (g_str_equal (r->path, "sessions/backends/db.py"))
        found = r;
    }

  g_assert_nonnull (found);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (found->expanded_terms);
  g_assert_cmpuint (g_strv_length (found->expanded_terms), ==,
                    g_strv_length (found->expanded_from));
  for (guint i = 0; found->expanded_terms[i] != NULL; i++)
    {
      const char *from = found->expanded_from[i];

      /* Each added word names the question's word it stands for, and is in the file. */
      g_assert_true (g_str_equal (from, "drop") || g_str_equal (from, "logins") ||
                     g_str_equal (from, "went") || g_str_equal (from, "idle") ||
                     g_str_equal (from, "long"));
      g_assert_false (g_str_equal (found->expanded_terms[i], from));
      g_assert_nonnull (strstr (text, found->expanded_terms[i]));
    }
}

static void
test_own_words_not_widened (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(GPtrArray) results = search (fixture, "render the login form");

  g_assert_cmpuint (results->len, >, 0);
  g_assert_cmpstr (((LodeSearchResult *) g_ptr_array_index (results, 0))->path, ==,
                   "accounts/forms.py");
  for (guint i = 0; i < results->len; i++)
    g_assert_null (((LodeSearchResult *) g_ptr_array_index (results, i))->expanded_terms);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/lexicon/default-loads", test_default_loads);
  g_test_add_func ("/lode/lexicon/damaged", test_damaged);
  g_test_add ("/lode/lexicon/question-in-other-words", Fixture, NULL, fixture_setup,
              test_question_in_other_words, test_indexed_tree_teardown);
  g_test_add ("/lode/lexicon/own-words-not-widened", Fixture, NULL, fixture_setup,
              test_own_words_not_widened, test_indexed_tree_teardown);

  return g_test_run ();
}
