/* test-search-ranking.c — what a new user expects first: the code that emits a pasted
 * message, a type's definition before its impl blocks, where an option is parsed
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

typedef TestIndexedTree Fixture;

/* The shapes that ranked wrong: zstd's table of error strings and the decompressor that
 * returns the error; tokio's runtime handle that panics with a literal, its
 * builder whose docs say "enable IO" and "timers" all over; a `pub struct` with impl blocks
 * of its own and a crate-private namesake; git's `die(_("…"))` with a format string; jq's
 * main(), which parses `--arg`, and usage(), which documents it; and, from
 * fixtures/search-ranking, excerpts of Lode's own ignore code and README. */
static void
write_tree (const char *root)
{
  test_write_file (root, "tokio/src/runtime/driver.rs",
    "//! Abstracts out the entire chain of runtime sub-drivers into common types.\n"
    "\n"
    "use crate::runtime::park::{ParkThread, UnparkThread};\n"
    "\n"
    "#[derive(Debug)]\n"
    "pub(crate) struct Handle {\n"
    "    /// IO driver handle\n"
    "    pub(crate) io: IoHandle,\n"
    "    /// Time driver handle\n"
    "    pub(crate) time: TimeHandle,\n"
    "}\n"
    "\n"
    "impl Handle {\n"
    "    pub(crate) fn unpark(&self) {\n"
    "        self.io.unpark();\n"
    "    }\n"
    "\n"
    "    cfg_io_driver! {\n"
    "        #[track_caller]\n"
    "        pub(crate) fn io(&self) -> &crate::runtime::io::Handle {\n"
    "            self.io\n"
    "                .as_ref()\n"
    "                .expect(\"A Tokio 1.x context was found, but IO is disabled. Call "
    "`enable_io` on the runtime builder to enable IO.\")\n"
    "        }\n"
    "    }\n"
    "\n"
    "    cfg_time! {\n"
    "        #[track_caller]\n"
    "        pub(crate) fn time(&self) -> &crate::runtime::time::Handle {\n"
    "            self.time\n"
    "                .as_ref()\n"
    "                .expect(\"A Tokio 1.x context was found, but timers are disabled. Call "
    "`enable_time` on the runtime builder to enable timers.\")\n"
    "        }\n"
    "    }\n"
    "}\n");
  test_write_file (root, "tokio/src/runtime/builder.rs",
    "/// Builds Tokio Runtime with custom configuration values.\n"
    "///\n"
    "/// The IO and time drivers are disabled until enabled: call `enable_io` for IO,\n"
    "/// `enable_time` for timers, or `enable_all` for both. A runtime with IO disabled\n"
    "/// panics when a task uses IO; one with timers disabled when it sleeps.\n"
    "pub struct Builder {\n"
    "    /// Whether or not to enable the I/O driver\n"
    "    enable_io: bool,\n"
    "    /// Whether or not to enable the time driver\n"
    "    enable_time: bool,\n"
    "    /// The number of worker threads, used by Runtime.\n"
    "    worker_threads: Option<usize>,\n"
    "}\n"
    "\n"
    "impl Builder {\n"
    "    /// Enables both I/O and time drivers: IO is disabled and timers are disabled\n"
    "    /// otherwise, and a Tokio context without them panics.\n"
    "    pub fn enable_all(&mut self) -> &mut Self {\n"
    "        self.enable_io();\n"
    "        self.enable_time();\n"
    "        self\n"
    "    }\n"
    "\n"
    "    /// Enables the I/O driver. IO is disabled by default.\n"
    "    pub fn enable_io(&mut self) -> &mut Self {\n"
    "        self.enable_io = true;\n"
    "        self\n"
    "    }\n"
    "\n"
    "    /// Enables the time driver: timers are disabled by default; a context without\n"
    "    /// timers panics when a task sleeps.\n"
    "    pub fn enable_time(&mut self) -> &mut Self {\n"
    "        self.enable_time = true;\n"
    "        self\n"
    "    }\n"
    "}\n");
  test_write_file (root, "tokio/src/time/sleep.rs",
    "/// Waits until `duration` has elapsed. The runtime must have timers enabled\n"
    "/// (`Builder::enable_time`): a Tokio context whose timers are disabled panics.\n"
    "/// Calling `sleep` from `spawn_blocking` finds no context at all.\n"
    "pub fn sleep(duration: Duration) -> Sleep {\n"
    "    match Instant::now().checked_add(duration) {\n"
    "        Some(deadline) => Sleep::new_timeout(deadline, trace::caller_location()),\n"
    "        None => Sleep::new_timeout(Instant::far_future(), trace::caller_location()),\n"
    "    }\n"
    "}\n");
  test_write_file (root, "tokio/src/task/join_set.rs",
    "use std::fmt;\n"
    "\n"
    "/// A collection of tasks spawned on a Tokio runtime.\n"
    "///\n"
    "/// A `JoinSet` can be used to await the completion of some or all of the tasks\n"
    "/// in the set. The set is not ordered, and the tasks will be returned in the\n"
    "/// order they complete.\n"
    "pub struct JoinSet<T> {\n"
    "    inner: IdleNotifiedSet<JoinHandle<T>>,\n"
    "}\n"
    "\n"
    "impl<T> JoinSet<T> {\n"
    "    /// Create a new `JoinSet`.\n"
    "    pub fn new() -> Self {\n"
    "        Self { inner: IdleNotifiedSet::new() }\n"
    "    }\n"
    "\n"
    "    /// Returns the number of tasks currently in the `JoinSet`.\n"
    "    pub fn len(&self) -> usize {\n"
    "        self.inner.len()\n"
    "    }\n"
    "}\n"
    "\n"
    "impl<T> Drop for JoinSet<T> {\n"
    "    fn drop(&mut self) {\n"
    "        self.inner.drain(|join_handle| join_handle.abort());\n"
    "    }\n"
    "}\n"
    "\n"
    "impl<T> fmt::Debug for JoinSet<T> {\n"
    "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
    "        f.debug_struct(\"JoinSet\").field(\"len\", &self.len()).finish()\n"
    "    }\n"
    "}\n"
    "\n"
    "impl<T> Default for JoinSet<T> {\n"
    "    fn default() -> Self {\n"
    "        Self::new()\n"
    "    }\n"
    "}\n"
    "\n"
    "impl<T, F> std::iter::FromIterator<F> for JoinSet<T>\n"
    "where\n"
    "    F: Future<Output = T>,\n"
    "    F: Send + 'static,\n"
    "    T: Send + 'static,\n"
    "{\n"
    "    fn from_iter<I: IntoIterator<Item = F>>(iter: I) -> Self {\n"
    "        let mut set = Self::new();\n"
    "        iter.into_iter().for_each(|task| {\n"
    "            set.spawn(task);\n"
    "        });\n"
    "        set\n"
    "    }\n"
    "}\n");
  test_write_file (root, "tokio/src/sync/batch_semaphore.rs",
    "/// An asynchronous counting semaphore which permits waiting on multiple permits at once.\n"
    "pub(crate) struct Semaphore {\n"
    "    waiters: Mutex<Waitlist>,\n"
    "    /// The current number of available permits in the semaphore.\n"
    "    permits: AtomicUsize,\n"
    "}\n"
    "\n"
    "impl Semaphore {\n"
    "    /// Creates a new semaphore with the initial number of permits.\n"
    "    pub(crate) fn new(permits: usize) -> Self {\n"
    "        Self { permits: AtomicUsize::new(permits << Self::PERMIT_SHIFT), waiters: "
    "Mutex::new(Waitlist::default()) }\n"
    "    }\n"
    "}\n"
    "\n"
    "impl fmt::Debug for Semaphore {\n"
    "    fn fmt(&self, fmt: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
    "        fmt.debug_struct(\"Semaphore\").field(\"permits\", &self.available_permits())"
    ".finish()\n"
    "    }\n"
    "}\n");
  test_write_file (root, "tokio/src/sync/semaphore.rs",
    "use super::batch_semaphore as ll;\n"
    "\n"
    "/// Counting semaphore performing asynchronous permit acquisition.\n"
    "pub struct Semaphore {\n"
    "    /// The low level semaphore\n"
    "    ll_sem: ll::Semaphore,\n"
    "}\n"
    "\n"
    "impl Semaphore {\n"
    "    /// Creates a new semaphore with the initial number of permits.\n"
    "    pub fn new(permits: usize) -> Self {\n"
    "        Self { ll_sem: ll::Semaphore::new(permits) }\n"
    "    }\n"
    "}\n");
  test_write_file (root, "git/setup.c",
    "#include \"git-compat-util.h\"\n"
    "#include \"gettext.h\"\n"
    "\n"
    "static const char *setup_explicit_git_dir(const char *gitdirenv,\n"
    "\t\t\t\t\t  struct strbuf *cwd,\n"
    "\t\t\t\t\t  struct repository_format *repo_fmt,\n"
    "\t\t\t\t\t  int *nongit_ok)\n"
    "{\n"
    "\tif (!is_git_directory(gitdirenv)) {\n"
    "\t\tif (nongit_ok) {\n"
    "\t\t\t*nongit_ok = 1;\n"
    "\t\t\treturn NULL;\n"
    "\t\t}\n"
    "\t\tdie(_(\"not a git repository: '%s'\"), gitdirenv);\n"
    "\t}\n"
    "\treturn NULL;\n"
    "}\n"
    "\n"
    "const char *setup_git_directory_gently(int *nongit_ok)\n"
    "{\n"
    "\tstatic struct strbuf cwd = STRBUF_INIT;\n"
    "\n"
    "\tswitch (setup_git_directory_gently_1(&dir, &gitdir, &report, 1)) {\n"
    "\tcase GIT_DIR_HIT_CEILING:\n"
    "\t\tif (!nongit_ok)\n"
    "\t\t\tdie(_(\"not a git repository (or any of the parent directories): %s\"),\n"
    "\t\t\t    DEFAULT_GIT_DIR_ENVIRONMENT);\n"
    "\t\t*nongit_ok = 1;\n"
    "\t\tbreak;\n"
    "\tdefault:\n"
    "\t\tBUG(\"unhandled setup_git_directory_gently_1() result\");\n"
    "\t}\n"
    "\treturn NULL;\n"
    "}\n");
  test_write_file (root, "git/Documentation/git.txt",
    "GIT_DIR::\n"
    "\tIf the `GIT_DIR` environment variable is set then it specifies a path to use\n"
    "\tinstead of the default `.git` for the base of the repository; when no\n"
    "\tgit repository is found in the parent directories, git says it is not a git\n"
    "\trepository.\n");
  test_write_file (root, "jq/src/main.c",
    "static void usage(int code, int keep_it_short) {\n"
    "  FILE *f = stderr;\n"
    "\n"
    "  if (code == 0)\n"
    "    f = stdout;\n"
    "\n"
    "  int ret = fprintf(f,\n"
    "    \"Usage:\\t%s [OPTIONS] FILTER [FILES...]\\n\"\n"
    "    \"Command options:\\n\"\n"
    "    \"  -n, --null-input          use `null` as the single input value;\\n\"\n"
    "    \"  -r, --raw-output          output strings without escapes and quotes;\\n\"\n"
    "    \"      --arg name value      set $name to the string value;\\n\"\n"
    "    \"      --argjson name value  set $name to the JSON value;\\n\"\n"
    "    \"      --args                consume remaining arguments as positional\\n\"\n"
    "    \"                            string values;\\n\",\n"
    "    progname);\n"
    "  exit((ret < 0 && code == 0) ? 2 : code);\n"
    "}\n"
    "\n"
    "int main(int argc, char* argv[]) {\n"
    "  jv program_arguments = jv_object();\n"
    "  int further_file_processing = 0;\n"
    "  int short_opts = 0;\n"
    "\n"
    "  for (int i=1; i<argc; i++, short_opts = 0) {\n"
    "    const char* text = argv[i];\n"
    "    if (isoption(&text, 'n', \"null-input\", &short_opts)) {\n"
    "      options |= PROVIDE_NULL;\n"
    "      continue;\n"
    "    }\n"
    "    if (isoption(&text, 0, \"arg\", &short_opts)) {\n"
    "      if (i >= argc - 2) {\n"
    "        fprintf(stderr, \"%s: --arg takes two parameters (e.g. --arg varname value)\\n\",\n"
    "                progname);\n"
    "        die();\n"
    "      }\n"
    "      if (!jv_object_has(jv_copy(program_arguments), jv_string(argv[i+1])))\n"
    "        program_arguments = jv_object_set(program_arguments, jv_string(argv[i+1]),\n"
    "                                          jv_string(argv[i+2]));\n"
    "      i += 2; // skip the next two arguments\n"
    "      continue;\n"
    "    }\n"
    "  }\n"
    "  return 0;\n"
    "}\n");
  test_write_file (root, "zstd/lib/common/error_private.c",
    "/* The purpose of this file is to have a single list of error strings embedded in binary */\n"
    "\n"
    "#include \"error_private.h\"\n"
    "\n"
    "const char* ERR_getErrorString(ERR_enum code)\n"
    "{\n"
    "    static const char* const notErrorCode = \"Unspecified error code\";\n"
    "    switch( code )\n"
    "    {\n"
    "    case PREFIX(no_error): return \"No error detected\";\n"
    "    case PREFIX(GENERIC):  return \"Error (generic)\";\n"
    "    case PREFIX(prefix_unknown): return \"Unknown frame descriptor\";\n"
    "    case PREFIX(corruption_detected): return \"Corrupted block detected\";\n"
    "    case PREFIX(checksum_wrong): return \"Restored data doesn't match checksum\";\n"
    "    case PREFIX(parameter_unsupported): return \"Unsupported parameter\";\n"
    "    case PREFIX(memory_allocation): return \"Allocation error : not enough memory\";\n"
    "    case PREFIX(dictionary_wrong): return \"Dictionary mismatch\";\n"
    "    case PREFIX(dstSize_tooSmall): return \"Destination buffer is too small\";\n"
    "    case PREFIX(srcSize_wrong): return \"Src size is incorrect\";\n"
    "    case PREFIX(maxCode):\n"
    "    default: return notErrorCode;\n"
    "    }\n"
    "}\n");
  test_write_file (root, "zstd/lib/decompress/zstd_decompress.c",
    "static size_t ZSTD_copyRawBlock(void* dst, size_t dstCapacity,\n"
    "                          const void* src, size_t srcSize)\n"
    "{\n"
    "    if (dst == NULL) return ERROR(dstSize_tooSmall);\n"
    "    if (srcSize > dstCapacity) return ERROR(dstSize_tooSmall);\n"
    "    memcpy(dst, src, srcSize);\n"
    "    return srcSize;\n"
    "}\n"
    "\n"
    "size_t ZSTD_decompress(void* dst, size_t dstCapacity, const void* src, size_t srcSize)\n"
    "{\n"
    "    size_t regenSize;\n"
    "    ZSTD_DCtx* const dctx = ZSTD_createDCtx();\n"
    "    if (dctx==NULL) return ERROR(memory_allocation);\n"
    "    regenSize = ZSTD_decompressDCtx(dctx, dst, dstCapacity, src, srcSize);\n"
    "    ZSTD_freeDCtx(dctx);\n"
    "    return regenSize;\n"
    "}\n");
  test_write_file (root, "jq/docs/manual.md",
    "## Invoking jq\n"
    "\n"
    "* `--arg name value`:\n"
    "\n"
    "  This option passes a value to the jq program as a predefined variable. If you run jq\n"
    "  with `--arg foo bar`, then `$foo` is available in the program and has the value\n"
    "  `\"bar\"`. The command line option is handled like every other argument.\n");
  test_copy_tree (g_test_get_filename (G_TEST_DIST, "liblode", "fixtures", "search-ranking",
                                       NULL),
                  root);
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
  options.limit = 10;
  results = lode_project_search (fixture->project, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (results->len, >, 0);
  for (guint i = 1; i < results->len; i++)
    g_assert_cmpfloat (((LodeSearchResult *) results->pdata[i])->score, <=,
                       ((LodeSearchResult *) results->pdata[i - 1])->score);

  return g_steal_pointer (&results);
}

/* Whether result @i lies in @path and spans @line. */
static void
assert_nth (GPtrArray  *results,
            guint       i,
            const char *path,
            guint       line)
{
  const LodeSearchResult *r;

  g_assert_cmpuint (results->len, >, i);
  r = results->pdata[i];
  if (g_strcmp0 (r->path, path) != 0 || r->start_line > line || r->end_line < line)
    g_error ("result %u is %s:%u-%u, expected %s:%u", i + 1, r->path, r->start_line,
             r->end_line, path, line);
}

/* Whether result @i lies in @path, within lines @first … @last. */
static void
assert_nth_within (GPtrArray  *results,
                   guint       i,
                   const char *path,
                   guint       first,
                   guint       last)
{
  const LodeSearchResult *r;

  g_assert_cmpuint (results->len, >, i);
  r = results->pdata[i];
  if (g_strcmp0 (r->path, path) != 0 || r->start_line < first || r->end_line > last)
    g_error ("result %u is %s:%u-%u (%s), expected %s:%u-%u", i + 1, r->path, r->start_line,
             r->end_line, r->symbol, path, first, last);
}

/* A pasted message finds the line that emits it, not the docs that share its words. */
static void
test_error_literal (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) io = search (fixture, "IO is disabled");
  g_autoptr(GPtrArray) timers = search (fixture,
                                        "A Tokio 1.x context was found, but timers are disabled");
  g_autoptr(GPtrArray) report = NULL;

  assert_nth (io, 0, "tokio/src/runtime/driver.rs", 23);
  assert_nth (timers, 0, "tokio/src/runtime/driver.rs", 32);

  /* A bug report: the panic is quoted among words that point at sleep and the builder. */
  report = search (fixture,
                   "Tokio panics when using sleep inside spawn_blocking\n"
                   "\n"
                   "I call `tokio::time::sleep` from a task I start with `spawn_blocking` on a "
                   "runtime made with `Builder::new_multi_thread()`:\n"
                   "\n"
                   "```\n"
                   "thread 'main' panicked at 'A Tokio 1.x context was found, but timers are "
                   "disabled. Call `enable_time` on the runtime builder to enable timers.', "
                   "src/main.rs:12:9\n"
                   "note: run with `RUST_BACKTRACE=1` environment variable to display a "
                   "backtrace\n"
                   "```\n"
                   "\n"
                   "Expected: the sleep works. Tokio 1.38, Linux.\n");
  assert_nth (report, 0, "tokio/src/runtime/driver.rs", 32);
}

/* git prints its format strings filled in: the message before and after the path the
 * user's shell put in finds the die() that prints it. */
static void
test_format_string (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) parent = search (fixture,
                                        "fatal: not a git repository (or any of the parent "
                                        "directories): .git");
  g_autoptr(GPtrArray) explicit_dir = search (fixture,
                                              "fatal: not a git repository: '/tmp/x/.git'");
  g_autoptr(GPtrArray) format = search (fixture, "not a git repository: '%s'");

  assert_nth (parent, 0, "git/setup.c", 26);
  assert_nth (explicit_dir, 0, "git/setup.c", 14);
  assert_nth (format, 0, "git/setup.c", 14);
}

/* A message that a table of messages holds (zstd's ERR_getErrorString()) says what the
 * error reads, not where it arises: the code the report is about comes first, the function
 * its title names, then the block that returns the error. */
static void
test_message_table (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) results = NULL;

  results = search (fixture,
                    "ZSTD_decompress(NULL, 0, ...) returns -ZSTD_error_dstSize_tooSmall\n"
                    "\n"
                    "Since 1.3.6 the call to `ZSTD_decompress` with `dstCapacity=0` and "
                    "`dst=NULL` fails:\n"
                    "\n"
                    "```\n"
                    "compressed_size = 9\n"
                    "Error: Destination buffer is too small\n"
                    "```\n"
                    "\n"
                    "All other decompressors handle zero-length output buffers at NULL.\n");
  assert_nth (results, 0, "zstd/lib/decompress/zstd_decompress.c", 11);
  assert_nth (results, 1, "zstd/lib/decompress/zstd_decompress.c", 4);
}

/* A type's definition before the blocks that add to it, the exported one before its
 * crate-private namesake. */
static void
test_definition_first (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) join_set = search (fixture, "JoinSet");
  g_autoptr(GPtrArray) semaphore = search (fixture, "Semaphore");
  const LodeSearchResult *r;

  assert_nth (join_set, 0, "tokio/src/task/join_set.rs", 8);
  g_assert_cmpstr (((LodeSearchResult *) join_set->pdata[0])->kind, ==, "struct");
  for (guint i = 1; i < join_set->len; i++)
    {
      r = join_set->pdata[i];
      g_assert_cmpfloat (r->score, <, ((LodeSearchResult *) join_set->pdata[0])->score);
    }

  assert_nth (semaphore, 0, "tokio/src/sync/semaphore.rs", 4);
  assert_nth (semaphore, 1, "tokio/src/sync/batch_semaphore.rs", 2);
  for (guint i = 2; i < semaphore->len; i++)
    {
      r = semaphore->pdata[i];
      g_assert_cmpstr (r->kind, !=, "struct");
    }
}

/* A question about an option finds where it is parsed before where it is documented. */
static void
test_option_parsing (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GPtrArray) results = search (fixture,
                                         "where is the --arg command line option handled");

  assert_nth (results, 0, "jq/src/main.c", 31);
}

/* The README's example answers its own question (fixtures/search-ranking/lode, excerpts of
 * Lode's own code and README): the functions that match a path against the rules
 * (rule_matches … lode_ignore_is_ignored), not another chunk of the file that holds them. A
 * file's chunks share its evidence, and the one shown used to be the first by line
 * (`lode_ignore_unref`, which holds none of the question's words); the question says
 * `matched` where the code names `rule_matches`. */
static void
test_readme_example (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(GPtrArray) results = search (fixture, "where are gitignore rules matched");

  assert_nth_within (results, 0, "lode/src/liblode/discovery/lode-ignore.c", 87, 234);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/lode/search-ranking/" path, Fixture, NULL, fixture_setup, func, \
              test_indexed_tree_teardown)
  ADD ("error-literal", test_error_literal);
  ADD ("format-string", test_format_string);
  ADD ("message-table", test_message_table);
  ADD ("definition-first", test_definition_first);
  ADD ("option-parsing", test_option_parsing);
  ADD ("readme-example", test_readme_example);
#undef ADD

  return g_test_run ();
}
