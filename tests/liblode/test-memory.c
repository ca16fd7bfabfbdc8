/* test-memory.c — the team's memory file, git-mined memories, confidence and search
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "knowledge-helpers.h"
#include "lode-error.h"
#include "lode-memory.h"
#include "test-helpers.h"

typedef struct
{
  char *root;
} MemoryFixture;

static void
memory_setup (MemoryFixture *fixture,
              gconstpointer  data)
{
  fixture->root = g_build_filename (g_get_user_data_dir (), "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->root, 0700), ==, 0);
}

static void
memory_teardown (MemoryFixture *fixture,
                 gconstpointer  data)
{
  test_remove_tree (fixture->root);
  g_free (fixture->root);
}

static LodeMemory *
find (GPtrArray  *memories,
      const char *text)
{
  for (guint i = 0; i < memories->len; i++)
    if (g_str_equal (((LodeMemory *) g_ptr_array_index (memories, i))->memory, text))
      return g_ptr_array_index (memories, i);

  return NULL;
}

static void
add (MemoryFixture *fixture,
     const char    *type,
     const char    *category,
     const char    *text,
     const char    *reason)
{
  g_autoptr(LodeMemory) added = NULL;
  g_autoptr(LodeMemory) existing = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (lode_memory_file_add (fixture->root, type, category, text, reason, NULL,
                                       &added, &existing, &error));
  g_assert_no_error (error);
  g_assert_nonnull (added);
  g_assert_null (existing);
}

static gint64
unix_time (const char *iso)
{
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) time = g_date_time_new_from_iso8601 (iso, utc);

  g_assert_nonnull (time);
  return g_date_time_to_unix (time);
}

/* A memory is recorded once, one per line, sorted, with the union merge asked of git; the
 * same rule written again (other case, a full stop) is refused and the file stays as it is. */
static void
test_add_duplicate (MemoryFixture *fixture,
                    gconstpointer  data)
{
  g_autoptr(LodeMemory) added = NULL;
  g_autoptr(LodeMemory) existing = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *attributes = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *id = NULL;

  add (fixture, "decision", "dependencies", "Use the http wrapper in src/net/http.ts",
       "It retries and logs");
  add (fixture, "gotcha", "testing", "Tests must reset the fake clock",
       "Timers leak between tests");
  before = test_read_file (fixture->root, LODE_MEMORY_FILE);
  lines = g_strsplit (before, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 6);
  g_assert_cmpstr (lines[0], ==, "{");
  /* Sorted by id, each line ends with a comma, the format member closes the object. */
  g_assert_cmpint (strcmp (lines[1], lines[2]), <, 0);
  g_assert_true (g_str_has_suffix (lines[1], ","));
  g_assert_true (g_str_has_suffix (lines[2], ","));
  g_assert_cmpstr (lines[3], ==, "  \"format\": 1");
  g_assert_cmpstr (lines[4], ==, "}");
  g_assert_cmpstr (lines[5], ==, "");
  id = lode_memory_dup_id ("Tests must reset the fake clock");
  g_assert_nonnull (strstr (before, id));
  attributes = test_read_file (fixture->root, ".lode/.gitattributes");
  g_assert_cmpstr (attributes, ==, "memory.json merge=union\n");

  g_assert_true (lode_memory_file_add (fixture->root, "convention", "testing",
                                       "tests MUST reset the fake  clock.", "again", NULL,
                                       &added, &existing, &error));
  g_assert_no_error (error);
  g_assert_null (added);
  g_assert_nonnull (existing);
  g_assert_cmpstr (existing->id, ==, id);
  g_assert_cmpstr (existing->type, ==, "gotcha");
  after = test_read_file (fixture->root, LODE_MEMORY_FILE);
  g_assert_cmpstr (after, ==, before);
}

/* Filters by type and category; a query finds the memories holding its words, the rule's
 * own words first, and forms of a word match (migration, migrate). */
static void
test_filter_search (MemoryFixture *fixture,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GArray) scores = NULL;
  g_autoptr(GError) error = NULL;

  add (fixture, "decision", "dependencies", "Migrate date handling from moment to dayjs",
       "moment is in maintenance mode");
  add (fixture, "convention", "conventions", "Name React hooks useSomething",
       "The lint rule expects it");
  add (fixture, "gotcha", "testing", "Integration tests need a fresh schema",
       "Apply the migrations first, or tables are missing");
  add (fixture, "failure", "architecture", "Sharing one SQLite connection across threads",
       "It deadlocked under load");

  memories = lode_memories_load (fixture->root, TRUE, NULL, notes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (memories->len, ==, 4);

  found = lode_memories_query (memories, "convention", NULL, NULL, NULL);
  g_assert_cmpuint (found->len, ==, 1);
  g_assert_cmpstr (((LodeMemory *) g_ptr_array_index (found, 0))->memory, ==,
                   "Name React hooks useSomething");
  g_clear_pointer (&found, g_ptr_array_unref);

  found = lode_memories_query (memories, NULL, "testing", NULL, NULL);
  g_assert_cmpuint (found->len, ==, 1);
  g_clear_pointer (&found, g_ptr_array_unref);

  /* "migration": the decision says it in its rule, the gotcha only in its reason. */
  found = lode_memories_query (memories, NULL, NULL, "migration", &scores);
  g_assert_cmpuint (found->len, ==, 2);
  g_assert_cmpstr (((LodeMemory *) g_ptr_array_index (found, 0))->memory, ==,
                   "Migrate date handling from moment to dayjs");
  g_assert_cmpfloat (g_array_index (scores, double, 0), >, g_array_index (scores, double, 1));
  g_clear_pointer (&found, g_ptr_array_unref);

  found = lode_memories_query (memories, NULL, NULL, "kubernetes", NULL);
  g_assert_cmpuint (found->len, ==, 0);
}

/* Confidence halves every half-life of the memory's type; conventions keep theirs; below 0.3
 * a memory is stale. */
static void
test_decay_with_age (MemoryFixture *fixture,
                     gconstpointer  data)
{
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(GError) error = NULL;
  gint64 now = unix_time ("2026-07-01T00:00:00Z");

  test_write_file (fixture->root, LODE_MEMORY_FILE,
                   "{\n"
                   "  \"a\": {\"type\": \"convention\", \"category\": \"conventions\", "
                   "\"memory\": \"Old convention\", \"reason\": \"\", \"date\": \"2025-01-01\"},\n"
                   "  \"b\": {\"type\": \"decision\", \"category\": \"architecture\", "
                   "\"memory\": \"Half-life decision\", \"reason\": \"\", "
                   "\"date\": \"2026-01-02T00:00:00Z\"},\n"
                   "  \"c\": {\"type\": \"gotcha\", \"category\": \"testing\", "
                   "\"memory\": \"Half-life gotcha\", \"reason\": \"\", "
                   "\"date\": \"2026-04-02T00:00:00Z\"},\n"
                   "  \"d\": {\"type\": \"failure\", \"category\": \"tooling\", "
                   "\"memory\": \"Old failure\", \"reason\": \"\", "
                   "\"date\": \"2025-10-04T00:00:00Z\"},\n"
                   "  \"format\": 1\n"
                   "}\n");
  memories = lode_memory_file_read (fixture->root, &error);
  g_assert_no_error (error);
  lode_memories_assess (memories, fixture->root, NULL, now);

  g_assert_cmpfloat (find (memories, "Old convention")->confidence, ==, 1.0);
  g_assert_cmpfloat (find (memories, "Half-life decision")->confidence, ==, 0.5);
  g_assert_cmpfloat (find (memories, "Half-life gotcha")->confidence, ==, 0.5);
  /* 270 days at a half-life of 90: an eighth, stale. */
  g_assert_cmpfloat (find (memories, "Old failure")->confidence, ==, 0.13);
  g_assert_cmpfloat (find (memories, "Old failure")->confidence, <, LODE_MEMORY_STALE_BELOW);
}

/* A memory loses half the share of each file it names that changed since it was recorded
 * (by git's dates, not the files' times), and the whole share of each file gone; its text
 * names files and identifiers too. */
static void
test_decay_with_code (MemoryFixture *fixture,
                      gconstpointer  data)
{
  const char *files[] = { "src/a.c", "src/b.c", NULL };
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(LodeGitHistory) history = NULL;
  g_autoptr(GError) error = NULL;
  LodeMemory *named;
  LodeMemory *written;
  LodeMemory *untouched;

  test_git (fixture->root, NULL, "init -q");
  test_write_file (fixture->root, "src/a.c", "int store_open (void) { return 0; }\n");
  test_write_file (fixture->root, "src/b.c", "int b (void) { return 1; }\n");
  test_write_file (fixture->root, "src/c.c", "int c (void) { return 2; }\n");
  test_git_commit (fixture->root, "2026-01-01T00:00:00Z", "Add the store");
  test_write_file (fixture->root, LODE_MEMORY_FILE,
                   "{\n"
                   "  \"m1\": {\"type\": \"convention\", \"category\": \"architecture\", "
                   "\"memory\": \"Keep the store's locks in one place\", \"reason\": \"\", "
                   "\"date\": \"2026-02-01T00:00:00Z\", \"files\": [\"src/a.c\", \"src/b.c\"]},\n"
                   "  \"m2\": {\"type\": \"convention\", \"category\": \"architecture\", "
                   "\"memory\": \"Never call `store_open` from the main thread\", "
                   "\"reason\": \"It blocks on src/a.c's lock\", "
                   "\"date\": \"2026-02-01T00:00:00Z\"},\n"
                   "  \"m3\": {\"type\": \"convention\", \"category\": \"architecture\", "
                   "\"memory\": \"src/c.c stays free of I/O\", \"reason\": \"\", "
                   "\"date\": \"2026-02-01T00:00:00Z\"},\n"
                   "  \"format\": 1\n"
                   "}\n");
  test_git_commit (fixture->root, "2026-02-01T00:00:00Z", "docs: record memories");
  test_write_file (fixture->root, "src/a.c", "int store_open (void) { return 1; }\n");
  test_git_commit (fixture->root, "2026-03-01T00:00:00Z", "Change the store");
  test_git (fixture->root, NULL, "rm -q src/b.c");
  test_git_commit (fixture->root, "2026-03-02T00:00:00Z", "Drop b");
  /* Touching a file without committing it changes nothing. */
  test_write_file (fixture->root, "src/c.c", "int c (void) { return 2; }\n");

  history = lode_git_history_get (fixture->root, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (lode_git_history_is_git (history));
  g_assert_cmpint (lode_git_history_get_file_time (history, "src/a.c"), ==,
                   unix_time ("2026-03-01T00:00:00Z"));
  memories = lode_memory_file_read (fixture->root, &error);
  g_assert_no_error (error);
  lode_memories_assess (memories, fixture->root, history, unix_time ("2026-03-03T00:00:00Z"));

  named = find (memories, "Keep the store's locks in one place");
  g_assert_true (g_strv_equal ((const char *const *) named->files, files));
  g_assert_true (g_strv_equal ((const char *const *) named->changed,
                               (const char *const[]) { "src/a.c", NULL }));
  g_assert_true (g_strv_equal ((const char *const *) named->gone,
                               (const char *const[]) { "src/b.c", NULL }));
  /* 1 - (0.5 + 1) / 2 */
  g_assert_cmpfloat (named->confidence, ==, 0.25);

  written = find (memories, "Never call `store_open` from the main thread");
  g_assert_true (g_strv_equal ((const char *const *) written->names,
                               (const char *const[]) { "store_open", NULL }));
  g_assert_true (g_strv_equal ((const char *const *) written->files,
                               (const char *const[]) { "src/a.c", NULL }));
  g_assert_cmpfloat (written->confidence, ==, 0.5);
  g_assert_true (lode_memory_names_symbol (written, "store_open"));
  g_assert_true (lode_memory_names_file (written, "src/a.c"));

  untouched = find (memories, "src/c.c stays free of I/O");
  g_assert_cmpfloat (untouched->confidence, ==, 1.0);
}

/* A file written by hand — pretty-printed, codebase-context's array form, a day without a
 * time, a member Lode does not know — is read, and written back in Lode's form with that
 * member kept when a memory is added. */
static void
test_hand_edited (MemoryFixture *fixture,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  test_write_file (fixture->root, LODE_MEMORY_FILE,
                   "[\n"
                   "  {\n"
                   "    \"id\": \"handwritten\",\n"
                   "    \"type\": \"decision\",\n"
                   "    \"category\": \"tooling\",\n"
                   "    \"memory\": \"Format C with the house style, not clang-format\",\n"
                   "    \"reason\": \"See STYLE.md\",\n"
                   "    \"date\": \"2026-01-05\",\n"
                   "    \"owner\": \"platform team\"\n"
                   "  }\n"
                   "]\n");
  memories = lode_memory_file_read (fixture->root, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (memories->len, ==, 1);
  g_assert_cmpstr (((LodeMemory *) g_ptr_array_index (memories, 0))->id, ==, "handwritten");

  add (fixture, "convention", "testing", "Each test makes its own data directory", "Isolation");
  text = test_read_file (fixture->root, LODE_MEMORY_FILE);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 6);
  g_assert_nonnull (strstr (text, "\"handwritten\": {"));
  g_assert_nonnull (strstr (text, "\"owner\":\"platform team\""));
  g_clear_pointer (&memories, g_ptr_array_unref);
  memories = lode_memory_file_read (fixture->root, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (memories->len, ==, 2);
}

/* Two branches each add a memory; git merges the file without a conflict (one memory per
 * line, a sentinel last, the union merge), and the result has all three. */
static void
test_two_branches (MemoryFixture *fixture,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(GError) error = NULL;

  test_git (fixture->root, NULL, "init -q");
  add (fixture, "decision", "architecture", "One writer per index", "SQLite locks");
  test_git_commit (fixture->root, "2026-01-01T00:00:00Z", "Record a decision");
  test_git (fixture->root, NULL, "checkout -q -b feature");
  add (fixture, "gotcha", "testing", "The watcher test needs inotify", "CI containers lack it");
  test_git_commit (fixture->root, "2026-01-02T00:00:00Z", "Record a gotcha");
  test_git (fixture->root, NULL, "checkout -q main");
  add (fixture, "convention", "conventions", "Errors name the file and the line",
       "Agents act on them");
  test_git_commit (fixture->root, "2026-01-03T00:00:00Z", "Record a convention");
  test_git (fixture->root, "2026-01-04T00:00:00Z", "merge -q --no-edit feature");

  memories = lode_memory_file_read (fixture->root, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (memories->len, ==, 3);
  g_assert_nonnull (find (memories, "The watcher test needs inotify"));
  g_assert_nonnull (find (memories, "Errors name the file and the line"));
}

/* A malformed file is an error that names it and the place; it is never written over. */
static void
test_malformed (MemoryFixture *fixture,
                gconstpointer  data)
{
  const char *broken = "{\n  \"a1\": {\"type\": \"decision\", \"category\": \"tooling\",\n";
  const char *bad_type = "{\"a1\": {\"type\": \"opinion\", \"category\": \"tooling\", "
                         "\"memory\": \"x\", \"reason\": \"\", \"date\": \"2026-01-01\"}}\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(LodeMemory) removed = NULL;
  g_autofree char *after = NULL;
  g_autofree char *path = g_build_filename (fixture->root, LODE_MEMORY_FILE, NULL);

  test_write_file (fixture->root, LODE_MEMORY_FILE, broken);
  memories = lode_memory_file_read (fixture->root, &error);
  g_assert_null (memories);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "not valid JSON"));
  g_assert_nonnull (strstr (error->message, "does not write"));
  g_clear_error (&error);

  g_assert_false (lode_memory_file_add (fixture->root, "decision", "tooling", "New rule", "",
                                        NULL, NULL, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  removed = lode_memory_file_remove (fixture->root, "a1", &error);
  g_assert_null (removed);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  after = test_read_file (fixture->root, LODE_MEMORY_FILE);
  g_assert_cmpstr (after, ==, broken);

  test_write_file (fixture->root, LODE_MEMORY_FILE, bad_type);
  memories = lode_memory_file_read (fixture->root, &error);
  g_assert_null (memories);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "“a1”"));
  g_assert_nonnull (strstr (error->message, "type"));
}

/* codebase-context's file is read (its form: a list with ids), never written; a rule it
 * holds is not recorded again; a malformed one is a note, not an error. */
static void
test_codebase_context (MemoryFixture *fixture,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(LodeMemory) existing = NULL;
  g_autoptr(GError) error = NULL;
  LodeMemory *theirs;

  test_write_file (fixture->root, LODE_MEMORY_CODEBASE_CONTEXT,
                   "[\n  {\n    \"id\": \"3f1c2a9b8d7e\",\n    \"type\": \"convention\",\n"
                   "    \"category\": \"conventions\",\n"
                   "    \"memory\": \"Use signals for component state\",\n"
                   "    \"reason\": \"The team moved off RxJS subjects\",\n"
                   "    \"date\": \"2026-01-10T12:00:00.000Z\"\n  }\n]\n");
  memories = lode_memories_load (fixture->root, TRUE, NULL, notes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (memories->len, ==, 1);
  theirs = g_ptr_array_index (memories, 0);
  g_assert_cmpint (theirs->source, ==, LODE_MEMORY_SOURCE_CODEBASE_CONTEXT);
  g_assert_cmpstr (theirs->id, ==, "3f1c2a9b8d7e");

  g_assert_true (lode_memory_file_add (fixture->root, "convention", "conventions",
                                       "Use signals for component state", "", NULL, NULL,
                                       &existing, &error));
  g_assert_no_error (error);
  g_assert_nonnull (existing);
  g_assert_false (g_file_test (LODE_MEMORY_FILE, G_FILE_TEST_EXISTS));

  test_write_file (fixture->root, LODE_MEMORY_CODEBASE_CONTEXT, "[{");
  g_clear_pointer (&memories, g_ptr_array_unref);
  memories = lode_memories_load (fixture->root, TRUE, NULL, notes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (memories->len, ==, 0);
  g_assert_cmpuint (notes->len, >=, 1);
}

/* A repository with a known history: reverts, migrations, deprecations and never/always
 * rules become memories marked as mined from git, with their commit's files; features and
 * fixes do not. */
static void
test_git_mined (MemoryFixture *fixture,
                gconstpointer  data)
{
  static const struct
  {
    const char *subject;
    const char *file;
    const char *type;      /* NULL: not mined */
    const char *category;
  } commits[] = {
    { "feat: add the login page", "src/login.js", NULL, NULL },
    { "Revert \"feat: use axios for the API client\"", "src/api.js", "failure", "architecture" },
    { "refactor: migrate dates from moment to dayjs", "src/dates.js", "decision", "architecture" },
    { "fix: typo in the README", "README.md", NULL, NULL },
    { "Deprecate the v1 export endpoints", "src/export.js", "decision", "architecture" },
    { "docs: never commit generated files", "CONTRIBUTING.md", "convention", "conventions" },
    { "test: always reset the fake clock in fixtures", "test/clock.js", "convention", "testing" },
    { "build(deps): switch to meson 1.0", "meson.build", "decision", "tooling" },
  };
  g_autoptr(LodeGitHistory) history = NULL;
  g_autoptr(GPtrArray) mined = NULL;
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GError) error = NULL;
  guint expected = 0;

  test_git (fixture->root, NULL, "init -q");
  for (guint i = 0; i < G_N_ELEMENTS (commits); i++)
    {
      g_autofree char *date = g_strdup_printf ("2026-01-%02uT10:00:00Z", i + 1);
      g_autofree char *text = g_strdup_printf ("version %u\n", i);

      test_write_file (fixture->root, commits[i].file, text);
      test_git_commit (fixture->root, date, commits[i].subject);
      expected += commits[i].type != NULL;
    }

  history = lode_git_history_get (fixture->root, NULL, &error);
  g_assert_no_error (error);
  mined = lode_memory_mine_git (history);
  g_assert_cmpuint (mined->len, ==, expected);
  for (guint i = 0; i < G_N_ELEMENTS (commits); i++)
    {
      LodeMemory *memory = find (mined, commits[i].subject);
      g_autofree char *date = g_strdup_printf ("2026-01-%02uT10:00:00Z", i + 1);

      if (commits[i].type == NULL)
        {
          g_assert_null (memory);
          continue;
        }
      g_assert_nonnull (memory);
      g_assert_cmpint (memory->source, ==, LODE_MEMORY_SOURCE_GIT);
      g_assert_cmpstr (memory->type, ==, commits[i].type);
      g_assert_cmpstr (memory->category, ==, commits[i].category);
      g_assert_cmpstr (memory->date, ==, date);
      g_assert_nonnull (memory->commit);
      g_assert_true (g_strv_equal ((const char *const *) memory->files,
                                   (const char *const[]) { commits[i].file, NULL }));
    }

  /* They are among a project's memories, marked. */
  all = lode_memories_load (fixture->root, TRUE, NULL, notes, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->len, ==, expected);
  g_assert_cmpstr (lode_memory_source_to_string (((LodeMemory *) g_ptr_array_index (all,
                                                                                    0))->source),
                   ==, "git");
}

/* A recorded memory is removed by id; unknown ids and memories that are not the file's are
 * errors that say so. */
static void
test_remove (MemoryFixture *fixture,
             gconstpointer  data)
{
  g_autoptr(LodeMemory) removed = NULL;
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = lode_memory_dup_id ("Keep tools under 40 kB");

  add (fixture, "decision", "tooling", "Keep tools under 40 kB", "Agents' context");
  add (fixture, "convention", "conventions", "Describe every parameter", "Agents guess");
  removed = lode_memory_file_remove (fixture->root, id, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (removed->memory, ==, "Keep tools under 40 kB");
  memories = lode_memory_file_read (fixture->root, &error);
  g_assert_cmpuint (memories->len, ==, 1);

  g_clear_pointer (&removed, lode_memory_free);
  removed = lode_memory_file_remove (fixture->root, id, &error);
  g_assert_null (removed);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, MemoryFixture, NULL, memory_setup, func, memory_teardown)
  ADD ("/lode/memory/add-duplicate", test_add_duplicate);
  ADD ("/lode/memory/filter-search", test_filter_search);
  ADD ("/lode/memory/decay-age", test_decay_with_age);
  ADD ("/lode/memory/decay-code", test_decay_with_code);
  ADD ("/lode/memory/hand-edited", test_hand_edited);
  ADD ("/lode/memory/two-branches", test_two_branches);
  ADD ("/lode/memory/malformed", test_malformed);
  ADD ("/lode/memory/codebase-context", test_codebase_context);
  ADD ("/lode/memory/git-mined", test_git_mined);
  ADD ("/lode/memory/remove", test_remove);
#undef ADD

  return g_test_run ();
}
