/* test-branches.c — branch-aware indexes: one index per git branch (issue #14)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "lode.h"
#include "lode-context.h"
#include "lode-git.h"
#include "lode-json-schema.h"
#include "qdrant-server.h"
#include "test-helpers.h"

/* An embedder that counts the texts it embeds: what a branch switch costs in embedding. */

#define COUNTING_DIMS 4

#define TEST_TYPE_COUNTING_EMBEDDER (test_counting_embedder_get_type ())
G_DECLARE_FINAL_TYPE (TestCountingEmbedder, test_counting_embedder, TEST, COUNTING_EMBEDDER,
                      GObject)

struct _TestCountingEmbedder
{
  GObject parent_instance;
  guint   n_documents;
};

static void test_counting_embedder_iface_init (LodeEmbedderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestCountingEmbedder, test_counting_embedder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_EMBEDDER,
                                                      test_counting_embedder_iface_init))

static void
test_counting_embedder_class_init (TestCountingEmbedderClass *klass)
{
}

static void
test_counting_embedder_init (TestCountingEmbedder *self)
{
}

static const char *
counting_get_model (LodeEmbedder *embedder)
{
  return "test-counting";
}

static guint
counting_get_dims (LodeEmbedder *embedder)
{
  return COUNTING_DIMS;
}

static guint
counting_get_max_tokens (LodeEmbedder *embedder)
{
  return 512;
}

static void
counting_embed_async (LodeEmbedder        *embedder,
                      const char * const  *texts,
                      LodeEmbedPurpose     purpose,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  TestCountingEmbedder *self = TEST_COUNTING_EMBEDDER (embedder);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  guint n = g_strv_length ((GStrv) texts);
  LodeEmbeddings *embeddings = lode_embeddings_new (n, COUNTING_DIMS);

  if (purpose == LODE_EMBED_DOCUMENT)
    self->n_documents += n;
  for (guint i = 0; i < n; i++)
    embeddings->data[(gsize) i * COUNTING_DIMS + strlen (texts[i]) % COUNTING_DIMS] = 1.0f;
  g_task_return_pointer (task, embeddings, (GDestroyNotify) lode_embeddings_free);
}

static LodeEmbeddings *
counting_embed_finish (LodeEmbedder  *embedder,
                       GAsyncResult  *result,
                       GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_counting_embedder_iface_init (LodeEmbedderInterface *iface)
{
  iface->get_model = counting_get_model;
  iface->get_dims = counting_get_dims;
  iface->get_max_tokens = counting_get_max_tokens;
  iface->embed_async = counting_embed_async;
  iface->embed_finish = counting_embed_finish;
}

/* A git work tree with four files on main ------------------------------------------------ */

/* What a test runs with: whether indexes are branch-aware, in which store. */
typedef struct
{
  gboolean    branch_aware;
  const char *store;
} Setup;

static const Setup aware = { TRUE, "sqlite" };
static const Setup aware_qdrant = { TRUE, "qdrant" };
static const Setup unaware = { FALSE, "sqlite" };

typedef struct
{
  char                 *tmp;
  char                 *root;
  LodeConfig           *config;
  LodeProject          *project;
  TestCountingEmbedder *embedder;
  QdrantServer         *qdrant;   /* (nullable) */
} Fixture;

static void
git (Fixture    *fixture,
     const char *first,
     ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *arg;
  int status = 0;
  va_list args;

  /* No user or system configuration, hooks or fsmonitor may change what git does here. */
  for (const char *const *a = (const char *const[]) { "git", "-c", "user.name=Lode Test",
                                                      "-c", "user.email=test@lode.invalid",
                                                      "-c", "core.fsmonitor=",
                                                      "-c", "commit.gpgsign=false",
                                                      "-c", "init.defaultBranch=main",
                                                      "-c", "core.hooksPath=/dev/null",
                                                      NULL };
       *a != NULL; a++)
    g_ptr_array_add (argv, (gpointer) *a);
  va_start (args, first);
  for (arg = first; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (fixture->root, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH |
                G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("git %s failed: %s", first, err);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *canonical = NULL;

  fixture->tmp = g_dir_make_tmp ("lode-branches-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->root = g_build_filename (fixture->tmp, "tree", NULL);
  g_assert_cmpint (g_mkdir (fixture->root, 0700), ==, 0);
  canonical = realpath (fixture->root, NULL);
  g_free (fixture->root);
  fixture->root = g_steal_pointer (&canonical);

  test_write_file (fixture->root, "src/alpha.c",
                   "int\nalpha_start (void)\n{\n  return 1;\n}\n");
  test_write_file (fixture->root, "src/beta.c",
                   "int\nbeta_value (void)\n{\n  return mainline_marker ();\n}\n");
  test_write_file (fixture->root, "src/gamma.c",
                   "int\ngamma_total (int a, int b)\n{\n  return a + b;\n}\n");
  test_write_file (fixture->root, "tools/delta.py",
                   "def delta_report(rows):\n    return len(rows)\n");
  git (fixture, "init", "-q", NULL);
  git (fixture, "add", ".", NULL);
  git (fixture, "commit", "-q", "-m", "main", NULL);

  fixture->config = lode_config_new_default ();
  g_free (fixture->config->data_dir);
  fixture->config->data_dir = g_build_filename (fixture->tmp, "data", NULL);
  fixture->config->index_threads = 1;
  fixture->config->branch_aware = ((const Setup *) data)->branch_aware;
  g_free (fixture->config->store);
  fixture->config->store = g_strdup (((const Setup *) data)->store);
  if (g_str_equal (fixture->config->store, "qdrant"))
    {
      fixture->qdrant = qdrant_server_new (NULL);
      fixture->config->qdrant_url = g_strdup (fixture->qdrant->url);
    }
  fixture->project = lode_project_new (fixture->root, fixture->config);
  fixture->embedder = g_object_new (TEST_TYPE_COUNTING_EMBEDDER, NULL);
  lode_project_set_embedder (fixture->project, LODE_EMBEDDER (fixture->embedder), NULL);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  /* The collections of every branch go with the project. */
  if (fixture->qdrant != NULL)
    {
      g_autoptr(LodeEngine) engine = lode_engine_new (fixture->config);
      g_autoptr(GError) error = NULL;

      lode_engine_remove_project (engine, fixture->root, &error);
      g_assert_no_error (error);
      qdrant_server_assert_valid (fixture->qdrant);
      g_clear_pointer (&fixture->qdrant, qdrant_server_free);
    }
  g_clear_object (&fixture->project);
  g_clear_object (&fixture->embedder);
  g_clear_pointer (&fixture->config, lode_config_free);
  test_remove_tree (fixture->tmp);
  g_free (fixture->root);
  g_free (fixture->tmp);
}

static LodeIndexReport *
index_tree (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  LodeIndexReport *report = lode_project_index (fixture->project, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (report);
  return report;
}

/* Whether a lexical search for @word finds something in @path. */
static gboolean
finds (Fixture    *fixture,
       const char *word,
       const char *path)
{
  LodeSearchOptions options = { .query = word, .limit = 10, .include_content = TRUE,
                                .mode = LODE_SEARCH_MODE_LEXICAL };
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;

  results = lode_project_search (fixture->project, &options, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < results->len; i++)
    {
      const LodeSearchResult *result = g_ptr_array_index (results, i);

      if (g_str_equal (result->path, path) && strstr (result->content, word) != NULL)
        return TRUE;
    }
  return FALSE;
}

static gboolean
data_file_exists (Fixture    *fixture,
                  const char *name)
{
  g_autofree char *id = lode_project_id_for_path (fixture->root);
  g_autofree char *path = g_build_filename (fixture->config->data_dir, "projects", id, name,
                                            NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* main is indexed; feature/x changes one file: its first run copies main's index and
 * re-reads and re-embeds that file only; each branch answers with its own content, and
 * switching back answers from main's index at once. */
static void
test_switch (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(LodeIndexReport) on_main = NULL;
  g_autoptr(LodeIndexReport) on_feature = NULL;
  g_autoptr(LodeIndexReport) back = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) error = NULL;
  guint embedded_before;

  on_main = index_tree (fixture);
  g_assert_cmpstr (on_main->branch, ==, "main");
  g_assert_null (on_main->branch_seeded_from);
  g_assert_cmpuint (on_main->n_added, ==, 4);
  g_assert_cmpuint (on_main->n_embedded, >, 0);
  g_assert_cmpuint (fixture->embedder->n_documents, ==, on_main->n_embedded);
  g_assert_true (data_file_exists (fixture, fixture->qdrant != NULL ? "branch-main.qdrant"
                                                                    : "branch-main.db"));
  g_assert_false (data_file_exists (fixture, "index.db"));
  g_assert_false (data_file_exists (fixture, "qdrant"));
  g_assert_true (finds (fixture, "mainline_marker", "src/beta.c"));

  git (fixture, "checkout", "-q", "-b", "feature/x", NULL);
  test_write_file (fixture->root, "src/beta.c",
                   "int\nbeta_value (void)\n{\n  return feature_marker ();\n}\n");
  git (fixture, "commit", "-q", "-am", "feature", NULL);

  /* Before its first run, the new branch answers from the index it will start from. */
  status = lode_project_dup_status (fixture->project, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (status->branch, ==, "feature/x");
  g_assert_cmpstr (status->branch_fallback, ==, "main");
  g_clear_pointer (&status, lode_project_status_free);

  embedded_before = fixture->embedder->n_documents;
  on_feature = index_tree (fixture);
  g_assert_cmpstr (on_feature->branch, ==, "feature/x");
  g_assert_cmpstr (on_feature->branch_seeded_from, ==, "main");
  g_assert_true (data_file_exists (fixture, fixture->qdrant != NULL
                                             ? "branch-feature_2Fx.qdrant"
                                             : "branch-feature_2Fx.db"));
  /* Only beta.c was read, chunked and embedded again. */
  g_assert_cmpuint (on_feature->n_added, ==, 0);
  g_assert_cmpuint (on_feature->n_updated, ==, 1);
  g_assert_cmpuint (on_feature->n_unchanged, ==, 3);
  g_assert_cmpuint (on_feature->n_parsed, ==, 1);
  g_assert_cmpuint (fixture->embedder->n_documents - embedded_before, ==,
                    on_feature->n_embedded);
  g_assert_cmpuint (on_feature->n_embedded, >, 0);
  g_assert_cmpuint (on_feature->n_embedded, <, on_main->n_embedded);
  g_assert_true (finds (fixture, "feature_marker", "src/beta.c"));
  g_assert_false (finds (fixture, "mainline_marker", "src/beta.c"));
  g_assert_true (finds (fixture, "alpha_start", "src/alpha.c"));

  status = lode_project_dup_status (fixture->project, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (status->branch, ==, "feature/x");
  g_assert_null (status->branch_fallback);
  g_assert_cmpint (status->state, ==, LODE_INDEX_STATE_READY);
  g_clear_pointer (&status, lode_project_status_free);

  /* Back on main: main's index answers at once, with main's content. */
  git (fixture, "checkout", "-q", "main", NULL);
  g_assert_true (finds (fixture, "mainline_marker", "src/beta.c"));
  g_assert_false (finds (fixture, "feature_marker", "src/beta.c"));

  /* A watcher's change list was made on the other branch: after a switch the whole tree is
   * compared, and nothing differs from main's index. */
  embedded_before = fixture->embedder->n_documents;
  {
    g_autoptr(GPtrArray) changes = g_ptr_array_new ();
    back = lode_project_index_with (fixture->project, LODE_INDEX_FLAGS_NONE, changes, NULL,
                                    NULL, NULL, &error);
  }
  g_assert_no_error (error);
  g_assert_cmpstr (back->branch, ==, "main");
  g_assert_null (back->branch_seeded_from);
  g_assert_false (back->incremental);
  g_assert_cmpuint (back->n_unchanged, ==, 4);
  g_assert_cmpuint (back->n_parsed, ==, 0);
  g_assert_cmpuint (fixture->embedder->n_documents, ==, embedded_before);
}

/* Listing and pruning, through the codebase_branches tool. */
static JsonObject *
call_branches (LodeToolRegistry *registry,
               const char       *root,
               const char       *json)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(LodeToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) instance = NULL;

  node = json_from_string (json, &error);
  g_assert_no_error (error);
  result = lode_tool_registry_call (registry, "codebase_branches", json_node_get_object (node),
                                    root, NULL, &error);
  g_assert_no_error (error);
  if (result->is_error)
    g_error ("codebase_branches failed: %s", result->text);
  instance = json_node_init_object (json_node_alloc (), result->structured);
  lode_json_schema_validate (lode_tool_registry_get_output_schema (registry,
                                                                   "codebase_branches"),
                             instance, "result", &error);
  g_assert_no_error (error);
  return json_object_ref (result->structured);
}

static JsonObject *
find_branch (JsonObject *result,
             const char *branch)
{
  JsonArray *branches = json_object_get_array_member (result, "branches");

  for (guint i = 0; i < json_array_get_length (branches); i++)
    {
      JsonObject *entry = json_array_get_object_element (branches, i);

      if (g_str_equal (json_object_get_string_member (entry, "branch"), branch))
        return entry;
    }
  return NULL;
}

static void
test_prune (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(LodeEngine) engine = lode_engine_new (fixture->config);
  g_autoptr(LodeToolRegistry) registry = lode_tools_new_registry (engine);
  g_autoptr(JsonObject) listed = NULL;
  g_autoptr(JsonObject) pruned = NULL;
  g_autoptr(JsonObject) after = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *entry;

  {
    g_autoptr(LodeIndexReport) on_main = index_tree (fixture);
    g_autoptr(LodeIndexReport) gone = NULL;
    g_autoptr(LodeIndexReport) kept = NULL;

    git (fixture, "checkout", "-q", "-b", "gone", NULL);
    gone = index_tree (fixture);
    git (fixture, "checkout", "-q", "-b", "kept", NULL);
    kept = index_tree (fixture);
    git (fixture, "checkout", "-q", "main", NULL);
    git (fixture, "branch", "-q", "-D", "gone", NULL);
    /* Packed refs count as well as loose ones. */
    git (fixture, "pack-refs", "--all", NULL);
  }

  listed = call_branches (registry, fixture->root, "{}");
  g_assert_true (json_object_get_boolean_member (listed, "branchAware"));
  g_assert_cmpstr (json_object_get_string_member (listed, "current"), ==, "main");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (listed, "branches")),
                    ==, 3);
  entry = find_branch (listed, "gone");
  g_assert_false (json_object_get_boolean_member (entry, "exists"));
  g_assert_cmpint (json_object_get_int_member (entry, "bytes"), >, 0);
  g_assert_nonnull (json_object_get_string_member_with_default (entry, "indexedAt", NULL));
  g_assert_true (json_object_get_boolean_member (find_branch (listed, "kept"), "exists"));
  g_assert_true (json_object_get_boolean_member (find_branch (listed, "main"), "current"));

  pruned = call_branches (registry, fixture->root, "{\"prune\": true}");
  g_assert_true (json_object_get_boolean_member (find_branch (pruned, "gone"), "pruned"));
  g_assert_false (json_object_get_boolean_member (find_branch (pruned, "kept"), "pruned"));
  g_assert_false (json_object_get_boolean_member (find_branch (pruned, "main"), "pruned"));
  g_assert_false (data_file_exists (fixture, "branch-gone.db"));
  g_assert_true (data_file_exists (fixture, "branch-kept.db"));
  g_assert_true (data_file_exists (fixture, "branch-main.db"));

  after = call_branches (registry, fixture->root, "{}");
  g_assert_null (find_branch (after, "gone"));

  /* The branch checked out is never pruned, even by name. */
  g_assert_false (lode_project_remove_branch (fixture->project, "main", NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_true (data_file_exists (fixture, "branch-main.db"));
  g_assert_true (finds (fixture, "mainline_marker", "src/beta.c"));

  /* A name to prune is a branch name, never a path: names that would climb out of the
   * project's index folder, or name a file elsewhere, have no index, and nothing is deleted
   * (the name is escaped into a file name: `/` and a leading `.` never reach the file
   * system). */
  {
    g_autofree char *victim = g_build_filename (fixture->tmp, "victim.db", NULL);
    g_autofree char *beside = g_build_filename (fixture->config->data_dir, "projects",
                                                "victim.db", NULL);
    const char *names[] = {
      "../victim", "../../victim", "../index", "kept/../main", ".", "..", NULL, NULL
    };

    names[6] = victim;
    g_clear_error (&error);
    test_write_file (fixture->tmp, "victim.db", "not an index");
    test_write_file (fixture->config->data_dir, "projects/victim.db", "not an index");
    for (guint i = 0; names[i] != NULL; i++)
      {
        g_autofree char *prune = g_strdup_printf ("{\"prune\": [\"%s\"]}", names[i]);
        g_autoptr(JsonNode) node = json_from_string (prune, NULL);
        g_autoptr(LodeToolResult) result = NULL;

        result = lode_tool_registry_call (registry, "codebase_branches",
                                          json_node_get_object (node), fixture->root, NULL,
                                          &error);
        g_assert_no_error (error);
        g_assert_true (result->is_error);
        g_assert_nonnull (strstr (result->text, "has no index"));
      }
    g_assert_true (g_file_test (victim, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (beside, G_FILE_TEST_EXISTS));
    g_assert_true (data_file_exists (fixture, "branch-kept.db"));
    g_assert_true (data_file_exists (fixture, "branch-main.db"));
  }
}

/* With the setting off, a git work tree has its one index.db, as ever. */
static void
test_off (Fixture       *fixture,
          gconstpointer  data)
{
  g_autoptr(LodeIndexReport) first = index_tree (fixture);
  g_autoptr(LodeIndexReport) second = NULL;

  g_assert_null (first->branch);
  g_assert_true (data_file_exists (fixture, "index.db"));
  git (fixture, "checkout", "-q", "-b", "feature", NULL);
  test_write_file (fixture->root, "src/beta.c", "int\nbeta_value (void)\n{\n  return 2;\n}\n");
  second = index_tree (fixture);
  g_assert_null (second->branch);
  g_assert_cmpuint (second->n_updated, ==, 1);
  g_assert_false (data_file_exists (fixture, "branch-feature.db"));
  g_assert_false (data_file_exists (fixture, "branch"));
  g_assert_cmpstr (lode_project_dup_branch (fixture->project), ==, NULL);
}

/* HEAD as git leaves it: a branch, a detached commit, a linked worktree's `.git` file. */
static void
test_read_head (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(LodeGitHead) head = NULL;
  g_autoptr(LodeGitHead) detached = NULL;
  g_autoptr(LodeGitHead) linked = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *worktree = g_build_filename (fixture->tmp, "linked", NULL);
  g_autofree char *subdir = g_build_filename (worktree, "src", NULL);
  g_autofree char *common = NULL;
  g_autofree char *escaped = lode_git_escape_branch ("feature/ü x");
  g_autofree char *unescaped = lode_git_unescape_branch (escaped);

  g_assert_cmpstr (escaped, ==, "feature_2F_C3_BC_20x");
  g_assert_cmpstr (unescaped, ==, "feature/ü x");
  g_assert_null (lode_git_unescape_branch ("bad_2"));

  head = lode_git_read_head (fixture->root, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (head->name, ==, "main");
  g_assert_false (head->detached);
  g_assert_true (lode_git_branch_exists (head->common_dir, "main"));
  g_assert_false (lode_git_branch_exists (head->common_dir, "nope"));

  git (fixture, "worktree", "add", "-q", "-b", "side", worktree, NULL);
  linked = lode_git_read_head (subdir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (linked->name, ==, "side");
  common = g_build_filename (fixture->root, ".git", NULL);
  g_assert_cmpstr (linked->common_dir, ==, common);
  g_assert_true (lode_git_branch_exists (linked->common_dir, "side"));

  git (fixture, "checkout", "-q", "--detach", NULL);
  detached = lode_git_read_head (fixture->root, &error);
  g_assert_no_error (error);
  g_assert_true (detached->detached);
  g_assert_cmpuint (strlen (detached->name), ==, 40);

  g_assert_null (lode_git_read_head (fixture->tmp, &error));
  g_assert_no_error (error);
}

/* What a project asks at every search comes from the cache, which sees every switch at once,
 * whatever changed: HEAD replaced by git, HEAD written in place, a work tree made where there
 * was none. */
static void
test_head_cache (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(LodeGitHeadCache) cache = lode_git_head_cache_new (fixture->root);
  g_autoptr(LodeGitHeadCache) outside = lode_git_head_cache_new (fixture->tmp);
  g_autofree char *head_path = g_build_filename (fixture->root, ".git", "HEAD", NULL);
  g_autoptr(GError) error = NULL;
  int fd;

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(LodeGitHead) head = lode_git_head_cache_read (cache, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (head->name, ==, "main");
    }

  git (fixture, "checkout", "-q", "-b", "feature", NULL);
  {
    g_autoptr(LodeGitHead) head = lode_git_head_cache_read (cache, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (head->name, ==, "feature");
  }

  fd = open (head_path, O_WRONLY | O_TRUNC | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, "ref: refs/heads/main\n", 21), ==, 21);
  close (fd);
  {
    g_autoptr(LodeGitHead) head = lode_git_head_cache_read (cache, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (head->name, ==, "main");
  }

  git (fixture, "checkout", "-q", "--detach", NULL);
  {
    g_autoptr(LodeGitHead) head = lode_git_head_cache_read (cache, &error);

    g_assert_no_error (error);
    g_assert_true (head->detached);
  }

  g_assert_null (lode_git_head_cache_read (outside, &error));
  g_assert_no_error (error);
  git (fixture, "init", "-q", fixture->tmp, NULL);
  {
    g_autoptr(LodeGitHead) head = lode_git_head_cache_read (outside, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (head->name, ==, "main");
  }
}

/* Context artifacts ------------------------------------------------------------------------ */

static void
declare_schema (Fixture *fixture)
{
  test_write_file (fixture->root, "db/schema.sql",
                   "CREATE TABLE users (\n  id INTEGER PRIMARY KEY,\n  email TEXT\n);\n");
  test_write_file (fixture->root, ".lode.json",
                   "{\"contextArtifacts\": [{\"name\": \"database\", "
                   "\"path\": \"db/schema.sql\"}]}");
}

/* "name:state" of each declared artifact. */
static char *
artifact_states (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) list = lode_context_report_list (fixture->project, &error);

  g_assert_no_error (error);
  return test_artifact_states (list);
}

/* On a branch never indexed, artifacts go into the index reads use (the one the branch comes
 * from): no empty index is made for the branch, whose first run still starts as a copy. */
static void
test_context_new_branch (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(LodeIndexReport) on_main = NULL;
  g_autoptr(LodeIndexReport) on_feature = NULL;
  g_autoptr(JsonObject) indexed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  const char *feature_index = fixture->qdrant != NULL ? "branch-feature.qdrant"
                                                      : "branch-feature.db";

  declare_schema (fixture);
  on_main = index_tree (fixture);
  git (fixture, "checkout", "-q", "-b", "feature", NULL);

  before = artifact_states (fixture);
  g_assert_cmpstr (before, ==, "database:not_indexed");
  indexed = lode_context_report_index (fixture->project, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (indexed);
  after = artifact_states (fixture);
  g_assert_cmpstr (after, ==, "database:indexed");
  g_assert_false (data_file_exists (fixture, feature_index));

  on_feature = index_tree (fixture);
  g_assert_cmpstr (on_feature->branch_seeded_from, ==, "main");
  g_assert_cmpuint (on_feature->n_unchanged, ==, on_main->n_added);
  g_assert_cmpuint (on_feature->n_added + on_feature->n_updated, ==, 0);
  g_free (after);
  after = artifact_states (fixture);
  g_assert_cmpstr (after, ==, "database:indexed");
}

typedef struct
{
  LodeProject *project;
  gint         done;
} ContextIndexRun;

static gpointer
context_index_thread (gpointer data)
{
  ContextIndexRun *run = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) report = lode_context_report_index (run->project, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (report);
  g_atomic_int_set (&run->done, 1);
  return NULL;
}

/* Artifacts are written under the index's writer lock: they wait for the writer that holds it
 * (an index run of another process), and are written once it lets go. */
static void
test_context_waits_for_writer (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(LodeIndexReport) on_main = NULL;
  g_autofree char *id = lode_project_id_for_path (fixture->root);
  g_autofree char *lock_path = NULL;
  g_autofree char *states = NULL;
  ContextIndexRun run = { fixture->project, 0 };
  GThread *thread;
  int fd;

  declare_schema (fixture);
  on_main = index_tree (fixture);
  lock_path = g_build_filename (fixture->config->data_dir, "projects", id, "branch-main.lock",
                                NULL);
  fd = open (lock_path, O_RDWR | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX), ==, 0);

  thread = g_thread_new ("context-index", context_index_thread, &run);
  g_usleep (500 * 1000);
  g_assert_cmpint (g_atomic_int_get (&run.done), ==, 0);
  states = artifact_states (fixture);
  g_assert_cmpstr (states, ==, "database:not_indexed");

  close (fd);
  g_thread_join (thread);
  g_assert_cmpint (g_atomic_int_get (&run.done), ==, 1);
  g_free (states);
  states = artifact_states (fixture);
  g_assert_cmpstr (states, ==, "database:indexed");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  /* Isolated from the desktop proxy settings, for the loopback Qdrant server. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  /* git reads no configuration of the machine or the user. */
  g_setenv ("GIT_CONFIG_NOSYSTEM", "1", TRUE);
  g_setenv ("GIT_CONFIG_GLOBAL", "/dev/null", TRUE);

  g_test_add ("/branches/switch", Fixture, &aware, fixture_set_up, test_switch,
              fixture_tear_down);
  g_test_add ("/branches/qdrant-switch", Fixture, &aware_qdrant, fixture_set_up, test_switch,
              fixture_tear_down);
  g_test_add ("/branches/prune", Fixture, &aware, fixture_set_up, test_prune,
              fixture_tear_down);
  g_test_add ("/branches/off", Fixture, &unaware, fixture_set_up, test_off,
              fixture_tear_down);
  g_test_add ("/branches/head-cache", Fixture, &aware, fixture_set_up, test_head_cache,
              fixture_tear_down);
  g_test_add ("/branches/read-head", Fixture, &aware, fixture_set_up, test_read_head,
              fixture_tear_down);
  g_test_add ("/branches/context-new-branch", Fixture, &aware, fixture_set_up,
              test_context_new_branch, fixture_tear_down);
  g_test_add ("/branches/context-waits-for-writer", Fixture, &aware, fixture_set_up,
              test_context_waits_for_writer, fixture_tear_down);
  g_test_add ("/branches/qdrant-context-new-branch", Fixture, &aware_qdrant, fixture_set_up,
              test_context_new_branch, fixture_tear_down);

  return g_test_run ();
}
