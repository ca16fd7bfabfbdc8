/* lode.c — the `lode` command-line tool
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-cli"

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lode.h"
#include "lode-dbus-connect.h"
#include "lode-model-pull.h"
#include "lode-models.h"
#include "lode-graph-report.h"
#include "lode-scanner.h"
#include "lode-secret.h"

typedef struct
{
  const char *name;
  const char *summary;
  int       (*run) (LodeEngine *engine, int argc, char **argv);
} Command;

static gboolean opt_json;
static gboolean opt_no_daemon;

/* The daemon, or NULL (see lode_dbus_daemon_connect()): the command then runs the engine
 * in-process. */
static LodeDBusDaemon1 *
connect_daemon (void)
{
  /* Registers the error names, so that daemon errors come back as LODE_ERROR. */
  (void) LODE_ERROR;

  return lode_dbus_daemon_connect (opt_no_daemon);
}

static char *
absolute_path (const char *path)
{
  g_autofree char *cwd = g_get_current_dir ();

  return g_canonicalize_filename (path, cwd);
}

static char *
dup_variant_string (GVariant   *dict,
                    const char *key)
{
  const char *value = NULL;

  return g_variant_lookup (dict, key, "&s", &value) ? g_strdup (value) : NULL;
}

/* Results from the daemon in the engine's own form, so that both paths print the same. */
static GPtrArray *
results_from_variant (GVariant *results)
{
  GPtrArray *array = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_search_result_free);

  for (gsize i = 0; i < g_variant_n_children (results); i++)
    {
      g_autoptr(GVariant) dict = g_variant_get_child_value (results, i);
      LodeSearchResult *r = g_new0 (LodeSearchResult, 1);

      r->path = dup_variant_string (dict, "path");
      g_variant_lookup (dict, "start_line", "u", &r->start_line);
      g_variant_lookup (dict, "end_line", "u", &r->end_line);
      r->language = dup_variant_string (dict, "language");
      r->kind = dup_variant_string (dict, "kind");
      r->symbol = dup_variant_string (dict, "symbol");
      r->container = dup_variant_string (dict, "container");
      g_variant_lookup (dict, "score", "d", &r->score);
      r->snippet = dup_variant_string (dict, "snippet");
      g_ptr_array_add (array, r);
    }

  return array;
}

static LodeSearchResponse *
response_from_variant (GVariant *results,
                       GVariant *info)
{
  LodeSearchResponse *response = g_new0 (LodeSearchResponse, 1);
  const char *mode;

  response->results = results_from_variant (results);
  if (g_variant_lookup (info, "requested_mode", "&s", &mode))
    lode_search_mode_from_string (mode, &response->requested_mode);
  if (g_variant_lookup (info, "mode", "&s", &mode))
    lode_search_mode_from_string (mode, &response->mode);
  response->notice = dup_variant_string (info, "notice");
  response->model = dup_variant_string (info, "model");
  g_variant_lookup (info, "embedded_chunks", "u", &response->n_embedded);
  g_variant_lookup (info, "chunks", "u", &response->n_chunks);

  return response;
}

static void
print_error (const GError *error)
{
  g_printerr ("lode: %s\n", error->message);
}

static int
usage_error (GOptionContext *context,
             const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  g_printerr ("lode: %s\n\n%s", message, help);
  return 2;
}

static gboolean
parse_options (GOptionContext  *context,
               int             *argc,
               char          ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      usage_error (context, error->message);
      return FALSE;
    }

  return TRUE;
}

static void
print_json_node (JsonNode *root)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

static void
print_json (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  print_json_node (root);
}

/* Progress: a bar that redraws itself on a terminal, a line per phase otherwise. */
typedef struct
{
  gboolean        tty;
  LodeIndexPhase  last_phase;
  gint64          last_draw;
  gboolean        drawn;
  const char     *root;
} ProgressView;

static void
progress_cb (const LodeIndexProgress *progress,
             gpointer                 user_data)
{
  ProgressView *view = user_data;
  const char *phase = lode_index_phase_to_string (progress->phase);
  gint64 now = g_get_monotonic_time ();

  if (opt_json)
    return;

  if (!view->tty)
    {
      if (!view->drawn || progress->phase != view->last_phase)
        g_printerr (_("%s…\n"), phase);
      view->drawn = TRUE;
      view->last_phase = progress->phase;
      return;
    }

  if (view->drawn && progress->phase == view->last_phase && now - view->last_draw < 50000 &&
      progress->done != progress->total)
    return;

  view->drawn = TRUE;
  view->last_phase = progress->phase;
  view->last_draw = now;

  if (progress->total > 0)
    {
      const int width = 30;
      int filled = (int) ((guint64) width * progress->done / progress->total);
      char bar[31];

      memset (bar, '#', filled);
      memset (bar + filled, '-', width - filled);
      bar[width] = '\0';
      g_printerr ("\r\033[K%-9s [%s] %u/%u", phase, bar, progress->done, progress->total);
    }
  else
    g_printerr ("\r\033[K%s…", phase);
}

typedef struct
{
  GMainLoop       *loop;
  LodeIndexReport *report;
  GError          *error;
} IndexRun;

static void
index_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  IndexRun *run = user_data;

  run->report = lode_project_index_finish (LODE_PROJECT (object), result, &run->error);
  g_main_loop_quit (run->loop);
}

static gboolean
interrupt_cb (gpointer user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
  return G_SOURCE_CONTINUE;
}

static void
add_nullable_string (JsonBuilder *builder,
                     const char  *name,
                     const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static LodeSkipReason
skip_reason_from_string (const char *text)
{
  for (LodeSkipReason r = LODE_SKIP_TOO_LARGE; r <= LODE_SKIP_NOT_REGULAR; r++)
    if (strcmp (lode_skip_reason_to_string (r), text) == 0)
      return r;

  return LODE_SKIP_UNREADABLE;
}

/* The daemon's report in the engine's own form, so that both paths print the same. */
static LodeIndexReport *
report_from_variant (GVariant *dict)
{
  LodeIndexReport *report = g_new0 (LodeIndexReport, 1);
  g_autoptr(GVariant) skipped = NULL;

  report->skipped = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_skipped_file_free);
  g_variant_lookup (dict, "files", "u", &report->n_files);
  g_variant_lookup (dict, "added", "u", &report->n_added);
  g_variant_lookup (dict, "updated", "u", &report->n_updated);
  g_variant_lookup (dict, "removed", "u", &report->n_removed);
  g_variant_lookup (dict, "unchanged", "u", &report->n_unchanged);
  g_variant_lookup (dict, "chunks", "u", &report->n_chunks);
  g_variant_lookup (dict, "lines", "t", &report->n_lines);
  g_variant_lookup (dict, "bytes", "t", &report->n_bytes);
  g_variant_lookup (dict, "seconds", "d", &report->elapsed);
  g_variant_lookup (dict, "resumed", "b", &report->resumed);
  g_variant_lookup (dict, "embedded", "u", &report->n_embedded);
  report->embedding_model = dup_variant_string (dict, "embedding_model");
  report->embedding_notice = dup_variant_string (dict, "embedding_notice");

  skipped = g_variant_lookup_value (dict, "skipped_files", G_VARIANT_TYPE ("a(sss)"));
  for (gsize i = 0; skipped != NULL && i < g_variant_n_children (skipped); i++)
    {
      LodeSkippedFile *file = g_new0 (LodeSkippedFile, 1);
      const char *path, *reason, *detail;

      g_variant_get_child (skipped, i, "(&s&s&s)", &path, &reason, &detail);
      file->path = g_strdup (path);
      file->reason = skip_reason_from_string (reason);
      file->detail = *detail != '\0' ? g_strdup (detail) : NULL;
      g_ptr_array_add (report->skipped, file);
    }

  return report;
}

static void
daemon_progress_cb (LodeDBusDaemon1 *daemon,
                    const char      *root,
                    const char      *phase,
                    guint            done,
                    guint            total,
                    gpointer         user_data)
{
  ProgressView *view = user_data;
  LodeIndexProgress progress = { LODE_INDEX_PHASE_SCANNING, done, total };

  if (g_strcmp0 (root, view->root) != 0)
    return;

  for (LodeIndexPhase p = LODE_INDEX_PHASE_SCANNING; p <= LODE_INDEX_PHASE_FINISHING; p++)
    if (strcmp (lode_index_phase_to_string (p), phase) == 0)
      progress.phase = p;

  progress_cb (&progress, view);
}

typedef struct
{
  GMainLoop *loop;
  GVariant  *report;
  GError    *error;
  gboolean   update;
} DaemonRun;

static void
daemon_index_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  DaemonRun *run = user_data;

  if (run->update)
    lode_dbus_daemon1_call_update_finish (LODE_DBUS_DAEMON1 (object), &run->report, result,
                                          &run->error);
  else
    lode_dbus_daemon1_call_index_finish (LODE_DBUS_DAEMON1 (object), &run->report, result,
                                         &run->error);
  g_main_loop_quit (run->loop);
}

/* Runs the index through the daemon, the only writer of its projects. An interrupted client
 * leaves the bus, and the daemon then cancels the run unless another client waits for it. */
static LodeIndexReport *
index_through_daemon (LodeDBusDaemon1  *daemon,
                      LodeProject      *project,
                      gboolean          update,
                      gboolean          force,
                      ProgressView     *view,
                      GCancellable     *cancellable,
                      GError          **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GVariant) report = NULL;
  DaemonRun run = { loop, NULL, NULL, update };
  gulong handler;

  view->root = lode_project_get_root (project);
  handler = g_signal_connect (daemon, "progress", G_CALLBACK (daemon_progress_cb), view);
  if (update)
    lode_dbus_daemon1_call_update (daemon, view->root, cancellable, daemon_index_cb, &run);
  else
    lode_dbus_daemon1_call_index (daemon, view->root, force, cancellable, daemon_index_cb, &run);
  g_main_loop_run (loop);
  g_signal_handler_disconnect (daemon, handler);

  if (run.report == NULL)
    {
      g_dbus_error_strip_remote_error (run.error);
      /* Cancelled here or in the daemon: the same message as in-process. */
      if (g_error_matches (run.error, LODE_ERROR, LODE_ERROR_CANCELLED))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, run.error->message);
          g_clear_error (&run.error);
        }
      else
        g_propagate_error (error, run.error);
      return NULL;
    }

  report = run.report;
  return report_from_variant (report);
}

static void
report_to_json (JsonBuilder           *builder,
                LodeProject           *project,
                const LodeIndexReport *report)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "project");
  json_builder_add_string_value (builder, lode_project_get_root (project));
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, lode_project_get_id (project));
  json_builder_set_member_name (builder, "files");
  json_builder_add_int_value (builder, report->n_files);
  json_builder_set_member_name (builder, "added");
  json_builder_add_int_value (builder, report->n_added);
  json_builder_set_member_name (builder, "updated");
  json_builder_add_int_value (builder, report->n_updated);
  json_builder_set_member_name (builder, "removed");
  json_builder_add_int_value (builder, report->n_removed);
  json_builder_set_member_name (builder, "unchanged");
  json_builder_add_int_value (builder, report->n_unchanged);
  json_builder_set_member_name (builder, "chunks");
  json_builder_add_int_value (builder, report->n_chunks);
  json_builder_set_member_name (builder, "lines");
  json_builder_add_int_value (builder, report->n_lines);
  json_builder_set_member_name (builder, "bytes");
  json_builder_add_int_value (builder, report->n_bytes);
  json_builder_set_member_name (builder, "resumed");
  json_builder_add_boolean_value (builder, report->resumed);
  json_builder_set_member_name (builder, "embedded");
  json_builder_add_int_value (builder, report->n_embedded);
  add_nullable_string (builder, "embedding_model", report->embedding_model);
  add_nullable_string (builder, "embedding_notice", report->embedding_notice);
  json_builder_set_member_name (builder, "seconds");
  json_builder_add_double_value (builder, report->elapsed);
  json_builder_set_member_name (builder, "skipped");
  json_builder_begin_array (builder);
  for (guint i = 0; i < report->skipped->len; i++)
    {
      const LodeSkippedFile *skipped = g_ptr_array_index (report->skipped, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, skipped->path);
      json_builder_set_member_name (builder, "reason");
      json_builder_add_string_value (builder, lode_skip_reason_to_string (skipped->reason));
      if (skipped->detail != NULL)
        {
          json_builder_set_member_name (builder, "detail");
          json_builder_add_string_value (builder, skipped->detail);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
print_report (LodeProject           *project,
              const LodeIndexReport *report,
              gboolean               verbose)
{
  g_print (_("Indexed %s: %u files (%u new, %u changed, %u removed, %u unchanged), "
             "%u chunks, %" G_GUINT64_FORMAT " lines in %.1f s\n"),
           lode_project_get_root (project), report->n_files, report->n_added,
           report->n_updated, report->n_removed, report->n_unchanged, report->n_chunks,
           report->n_lines, report->elapsed);

  if (report->resumed)
    g_print (_("Resumed an interrupted run.\n"));
  if (report->embedding_model != NULL && report->n_embedded > 0)
    g_print (g_dngettext (GETTEXT_PACKAGE, "Embedded %u chunk with %s.\n",
                          "Embedded %u chunks with %s.\n", report->n_embedded),
             report->n_embedded, report->embedding_model);
  if (report->embedding_notice != NULL)
    g_print (_("Note: %s\n"), report->embedding_notice);

  if (report->skipped->len == 0)
    return;

  g_print (g_dngettext (GETTEXT_PACKAGE, "%u file skipped", "%u files skipped",
                        report->skipped->len), report->skipped->len);
  g_print (verbose ? ":\n" : _(" (--verbose lists them)\n"));
  for (guint i = 0; verbose && i < report->skipped->len; i++)
    {
      const LodeSkippedFile *skipped = g_ptr_array_index (report->skipped, i);

      g_print ("  %s: %s%s%s\n", skipped->path, lode_skip_reason_to_string (skipped->reason),
               skipped->detail != NULL ? " — " : "",
               skipped->detail != NULL ? skipped->detail : "");
    }
}

static int
run_index (LodeEngine *engine,
           const char *path,
           gboolean    must_be_indexed,
           gboolean    force,
           gboolean    verbose)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(LodeDBusDaemon1) daemon = NULL;
  ProgressView view = { isatty (STDERR_FILENO), 0, 0, FALSE, NULL };
  IndexRun run = { loop, NULL, NULL };
  guint sigint_id;
  guint sigterm_id;

  project = lode_engine_open_project (engine, path, must_be_indexed, &error);
  if (project == NULL)
    {
      print_error (error);
      return 1;
    }

  daemon = connect_daemon ();
  if (daemon == NULL && force && lode_project_is_indexed (project) &&
      !lode_engine_remove_project (engine, lode_project_get_root (project), &error))
    {
      print_error (error);
      return 1;
    }

  sigint_id = g_unix_signal_add (SIGINT, interrupt_cb, cancellable);
  sigterm_id = g_unix_signal_add (SIGTERM, interrupt_cb, cancellable);
  if (daemon != NULL)
    run.report = index_through_daemon (daemon, project, must_be_indexed, force, &view,
                                       cancellable, &run.error);
  else
    {
      lode_project_index_async (project, cancellable, progress_cb, &view, NULL, index_cb,
                                &run);
      g_main_loop_run (loop);
    }
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);

  if (view.tty && view.drawn && !opt_json)
    g_printerr ("\r\033[K");

  if (run.report == NULL)
    {
      if (g_error_matches (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_printerr (_("lode: interrupted; what was indexed is kept, run the command again "
                      "to resume\n"));
      else
        print_error (run.error);
      g_clear_error (&run.error);
      return 1;
    }

  if (opt_json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      report_to_json (builder, project, run.report);
      print_json (builder);
    }
  else
    print_report (project, run.report, verbose);

  lode_index_report_free (run.report);
  return 0;
}

static int
cmd_index_or_update (LodeEngine  *engine,
                     int          argc,
                     char       **argv,
                     gboolean     update)
{
  g_autoptr(GOptionContext) context = NULL;
  gboolean force = FALSE;
  gboolean verbose = FALSE;
  GOptionEntry index_entries[] = {
    { "force", 'f', 0, G_OPTION_ARG_NONE, &force, N_("Rebuild the index from scratch"), NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &verbose, N_("List skipped files"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_("Print the report as JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("[PATH]"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                update ? _("Update the index of PATH (default: the current "
                                           "directory): re-chunk new and changed files, "
                                           "drop deleted ones.")
                                       : _("Index PATH (default: the current directory). "
                                           "Files whose content is unchanged are skipped."));
  g_option_context_add_main_entries (context, update ? index_entries + 1 : index_entries,
                                     GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc > 2)
    return usage_error (context, _("Too many arguments"));

  return run_index (engine, argc == 2 ? argv[1] : ".", update, force, verbose);
}

static int
cmd_index (LodeEngine  *engine,
           int          argc,
           char       **argv)
{
  return cmd_index_or_update (engine, argc, argv, FALSE);
}

static int
cmd_update (LodeEngine  *engine,
            int          argc,
            char       **argv)
{
  return cmd_index_or_update (engine, argc, argv, TRUE);
}

static int
cmd_search (LodeEngine  *engine,
            int          argc,
            char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeSearchResponse) response = NULL;
  g_autoptr(LodeDBusDaemon1) daemon = NULL;
  GPtrArray *results;
  g_autofree char *path = NULL;
  g_autofree char *language = NULL;
  g_autofree char *glob = NULL;
  g_autofree char *query = NULL;
  g_autofree char *mode = NULL;
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  int limit = LODE_SEARCH_DEFAULT_LIMIT;
  double min_score = 0.0;
  gboolean per_file = FALSE;
  GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &path,
      N_("The indexed tree to search (default: the current directory)"), N_("PATH") },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit, N_("Number of results, 1–100 (default 10)"),
      N_("N") },
    { "lang", 0, 0, G_OPTION_ARG_STRING, &language, N_("Only this language (e.g. c, python)"),
      N_("LANG") },
    { "path", 0, 0, G_OPTION_ARG_STRING, &glob, N_("Only paths matching GLOB (e.g. src/**/*.c)"),
      N_("GLOB") },
    { "min-score", 0, 0, G_OPTION_ARG_DOUBLE, &min_score, N_("Drop results scoring below S"),
      N_("S") },
    { "per-file", 0, 0, G_OPTION_ARG_NONE, &per_file, N_("At most one result per file"), NULL },
    { "mode", 0, 0, G_OPTION_ARG_STRING, &mode,
      N_("hybrid (BM25 + vectors, the default), lexical (BM25) or semantic (vectors)"),
      N_("MODE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_("Print results as JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("QUERY…"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _("Search an indexed tree. QUERY may be an identifier "
                                  "(lode_store_open), a path (src/cli/lode.c) or words "
                                  "(where are ignore rules parsed)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc < 2)
    return usage_error (context, _("Missing QUERY"));
  if (limit < 1 || limit > LODE_SEARCH_MAX_LIMIT)
    return usage_error (context, _("--limit must be between 1 and 100"));
  if (mode != NULL && !lode_search_mode_from_string (mode, &options.mode))
    return usage_error (context, _("--mode must be hybrid, lexical or semantic"));

  query = g_strjoinv (" ", argv + 1);
  project = lode_engine_open_project (engine, path != NULL ? path : ".", TRUE, &error);
  if (project == NULL)
    {
      print_error (error);
      return 1;
    }

  daemon = connect_daemon ();
  if (daemon != NULL)
    {
      g_autoptr(GVariant) reply = NULL;
      g_autoptr(GVariant) info = NULL;
      GVariantDict dict;

      g_variant_dict_init (&dict, NULL);
      g_variant_dict_insert (&dict, "limit", "u", (guint) limit);
      if (language != NULL)
        g_variant_dict_insert (&dict, "language", "s", language);
      if (glob != NULL)
        g_variant_dict_insert (&dict, "path", "s", glob);
      g_variant_dict_insert (&dict, "min_score", "d", min_score);
      g_variant_dict_insert (&dict, "per_file", "b", per_file);
      g_variant_dict_insert (&dict, "mode", "s", lode_search_mode_to_string (options.mode));
      if (!lode_dbus_daemon1_call_search_sync (daemon, lode_project_get_root (project), query,
                                               g_variant_dict_end (&dict), &reply, &info, NULL,
                                               &error))
        {
          g_dbus_error_strip_remote_error (error);
          print_error (error);
          return 1;
        }
      response = response_from_variant (reply, info);
    }
  else
    {
      options.query = query;
      options.limit = limit;
      options.language = language;
      options.path_glob = glob;
      options.min_score = min_score;
      options.one_per_file = per_file;
      response = lode_project_search_full (project, &options, NULL, &error);
    }
  if (response == NULL)
    {
      print_error (error);
      return 1;
    }
  results = response->results;

  if (opt_json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "query");
      json_builder_add_string_value (builder, query);
      json_builder_set_member_name (builder, "project");
      json_builder_add_string_value (builder, lode_project_get_root (project));
      json_builder_set_member_name (builder, "mode");
      json_builder_add_string_value (builder, lode_search_mode_to_string (response->mode));
      json_builder_set_member_name (builder, "requested_mode");
      json_builder_add_string_value (builder,
                                     lode_search_mode_to_string (response->requested_mode));
      add_nullable_string (builder, "notice", response->notice);
      add_nullable_string (builder, "embedding_model", response->model);
      if (response->model != NULL)
        {
          json_builder_set_member_name (builder, "embedded_chunks");
          json_builder_add_int_value (builder, response->n_embedded);
          json_builder_set_member_name (builder, "chunks");
          json_builder_add_int_value (builder, response->n_chunks);
        }
      json_builder_set_member_name (builder, "results");
      json_builder_begin_array (builder);
      for (guint i = 0; i < results->len; i++)
        {
          const LodeSearchResult *r = g_ptr_array_index (results, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "path");
          json_builder_add_string_value (builder, r->path);
          json_builder_set_member_name (builder, "start_line");
          json_builder_add_int_value (builder, r->start_line);
          json_builder_set_member_name (builder, "end_line");
          json_builder_add_int_value (builder, r->end_line);
          add_nullable_string (builder, "language", r->language);
          add_nullable_string (builder, "kind", r->kind);
          add_nullable_string (builder, "symbol", r->symbol);
          add_nullable_string (builder, "container", r->container);
          json_builder_set_member_name (builder, "score");
          json_builder_add_double_value (builder, r->score);
          add_nullable_string (builder, "snippet", r->snippet);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      print_json (builder);
      return 0;
    }

  /* On stderr, so that the results alone go to a pipe. */
  if (response->notice != NULL)
    g_printerr (_("Note: %s\n"), response->notice);
  if (results->len == 0)
    g_print (_("No results for “%s”.\n"), query);

  for (guint i = 0; i < results->len; i++)
    {
      const LodeSearchResult *r = g_ptr_array_index (results, i);
      g_auto(GStrv) lines = g_strsplit (r->snippet != NULL ? r->snippet : "", "\n", -1);

      g_print ("%s:%u-%u", r->path, r->start_line, r->end_line);
      if (r->symbol != NULL)
        g_print ("  %s%s%s%s%s", r->kind != NULL ? r->kind : "", r->kind != NULL ? " " : "",
                 r->container != NULL ? r->container : "", r->container != NULL ? "::" : "",
                 r->symbol);
      g_print ("  (%.2f)\n", r->score);
      for (guint j = 0; lines[j] != NULL && j < 4; j++)
        g_print ("    %s\n", lines[j]);
    }

  return 0;
}

static void
add_language_counts (JsonBuilder *builder,
                     GHashTable  *languages)
{
  GHashTableIter iter;
  gpointer key, value;

  json_builder_begin_object (builder);
  g_hash_table_iter_init (&iter, languages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      json_builder_set_member_name (builder, key);
      json_builder_add_int_value (builder, GPOINTER_TO_UINT (value));
    }
  json_builder_end_object (builder);
}

static LodeProjectStatus *
status_through_daemon (LodeDBusDaemon1  *daemon,
                       LodeProject      *project,
                       GError          **error)
{
  g_autoptr(GVariant) dict = NULL;
  g_autoptr(GVariant) languages = NULL;
  LodeProjectStatus *status;
  const char *state = NULL;
  const char *language;
  GVariantIter iter;
  guint count;

  if (!lode_dbus_daemon1_call_status_sync (daemon, lode_project_get_root (project), &dict, NULL,
                                           error))
    {
      g_dbus_error_strip_remote_error (*error);
      return NULL;
    }

  status = g_new0 (LodeProjectStatus, 1);
  g_variant_lookup (dict, "state", "&s", &state);
  for (LodeIndexState s = LODE_INDEX_STATE_NONE; s <= LODE_INDEX_STATE_READY; s++)
    if (g_strcmp0 (lode_index_state_to_string (s), state) == 0)
      status->state = s;
  g_variant_lookup (dict, "indexed_at", "s", &status->indexed_at);
  g_variant_lookup (dict, "files", "u", &status->stats.n_files);
  g_variant_lookup (dict, "chunks", "u", &status->stats.n_chunks);
  g_variant_lookup (dict, "symbols", "u", &status->stats.n_symbols);
  g_variant_lookup (dict, "lines", "t", &status->stats.n_lines);
  g_variant_lookup (dict, "bytes", "t", &status->stats.n_bytes);
  g_variant_lookup (dict, "index_bytes", "t", &status->db_size);
  g_variant_lookup (dict, "embedding_model", "s", &status->embedding_model);
  g_variant_lookup (dict, "embedded_chunks", "u", &status->n_embedded);
  g_variant_lookup (dict, "embeddable_chunks", "u", &status->n_embeddable);
  g_variant_lookup (dict, "semantic_notice", "s", &status->semantic_notice);

  status->languages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  languages = g_variant_lookup_value (dict, "languages", G_VARIANT_TYPE ("a{su}"));
  if (languages != NULL)
    {
      g_variant_iter_init (&iter, languages);
      while (g_variant_iter_next (&iter, "{&su}", &language, &count))
        g_hash_table_insert (status->languages, g_strdup (language), GUINT_TO_POINTER (count));
    }

  return status;
}

static int
cmd_status (LodeEngine  *engine,
            int          argc,
            char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  LodeProjectStatus *status = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_("Print the status as JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("[PATH]"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Show the index state of PATH (default: the "
                                           "current directory)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc > 2)
    return usage_error (context, _("Too many arguments"));

  project = lode_engine_open_project (engine, argc == 2 ? argv[1] : ".", FALSE, &error);
  if (project != NULL)
    {
      g_autoptr(LodeDBusDaemon1) daemon = connect_daemon ();

      status = daemon != NULL ? status_through_daemon (daemon, project, &error)
                              : lode_project_dup_status (project, &error);
    }
  if (project == NULL || status == NULL)
    {
      print_error (error);
      return 1;
    }

  if (opt_json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "project");
      json_builder_add_string_value (builder, lode_project_get_root (project));
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, lode_project_get_id (project));
      json_builder_set_member_name (builder, "state");
      json_builder_add_string_value (builder, lode_index_state_to_string (status->state));
      add_nullable_string (builder, "indexed_at", status->indexed_at);
      json_builder_set_member_name (builder, "files");
      json_builder_add_int_value (builder, status->stats.n_files);
      json_builder_set_member_name (builder, "chunks");
      json_builder_add_int_value (builder, status->stats.n_chunks);
      json_builder_set_member_name (builder, "symbols");
      json_builder_add_int_value (builder, status->stats.n_symbols);
      json_builder_set_member_name (builder, "lines");
      json_builder_add_int_value (builder, status->stats.n_lines);
      json_builder_set_member_name (builder, "bytes");
      json_builder_add_int_value (builder, status->stats.n_bytes);
      json_builder_set_member_name (builder, "index_bytes");
      json_builder_add_int_value (builder, status->db_size);
      json_builder_set_member_name (builder, "languages");
      add_language_counts (builder, status->languages);
      add_nullable_string (builder, "embedding_model", status->embedding_model);
      json_builder_set_member_name (builder, "embedded_chunks");
      json_builder_add_int_value (builder, status->n_embedded);
      json_builder_set_member_name (builder, "embeddable_chunks");
      json_builder_add_int_value (builder, status->n_embeddable);
      json_builder_set_member_name (builder, "semantic_search");
      json_builder_add_boolean_value (builder, status->embedding_model != NULL);
      add_nullable_string (builder, "semantic_notice", status->semantic_notice);
      json_builder_end_object (builder);
      print_json (builder);
    }
  else
    {
      g_autofree char *index_size = g_format_size (status->db_size);

      g_print (_("Project:  %s\n"), lode_project_get_root (project));
      g_print (_("Id:       %s\n"), lode_project_get_id (project));
      g_print (_("State:    %s\n"), lode_index_state_to_string (status->state));
      if (status->state != LODE_INDEX_STATE_NONE)
        {
          g_print (_("Files:    %u (%" G_GUINT64_FORMAT " lines)\n"), status->stats.n_files,
                   status->stats.n_lines);
          g_print (_("Chunks:   %u\n"), status->stats.n_chunks);
          g_print (_("Symbols:  %u\n"), status->stats.n_symbols);
          g_print (_("Index:    %s\n"), index_size);
          if (status->embedding_model != NULL)
            g_print (_("Vectors:  %u of %u chunks embedded (%s)\n"), status->n_embedded,
                     status->n_embeddable, status->embedding_model);
        }
      if (status->indexed_at != NULL)
        g_print (_("Indexed:  %s\n"), status->indexed_at);
      if (status->semantic_notice != NULL)
        g_print (_("Note:     %s\n"), status->semantic_notice);
      if (status->state == LODE_INDEX_STATE_INCOMPLETE)
        g_print (_("The last run was interrupted; “lode index” resumes it.\n"));
    }

  lode_project_status_free (status);
  return 0;
}

static int
cmd_projects (LodeEngine  *engine,
              int          argc,
              char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) projects = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_("Print the list as JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("List the indexed trees."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc > 1)
    return usage_error (context, _("Too many arguments"));

  projects = lode_engine_list_projects (engine, &error);
  if (projects == NULL)
    {
      print_error (error);
      return 1;
    }

  if (opt_json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "projects");
      json_builder_begin_array (builder);
      for (guint i = 0; i < projects->len; i++)
        {
          const LodeProjectInfo *info = g_ptr_array_index (projects, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "id");
          json_builder_add_string_value (builder, info->id);
          json_builder_set_member_name (builder, "path");
          json_builder_add_string_value (builder, info->root);
          json_builder_set_member_name (builder, "exists");
          json_builder_add_boolean_value (builder,
                                          g_file_test (info->root, G_FILE_TEST_IS_DIR));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      print_json (builder);
      return 0;
    }

  if (projects->len == 0)
    g_print (_("No indexed projects. Index one with “lode index PATH”.\n"));
  for (guint i = 0; i < projects->len; i++)
    {
      const LodeProjectInfo *info = g_ptr_array_index (projects, i);

      g_print ("%s  %s%s\n", info->id, info->root,
               g_file_test (info->root, G_FILE_TEST_IS_DIR) ? "" : _("  (missing)"));
    }

  return 0;
}

static int
cmd_remove (LodeEngine  *engine,
            int          argc,
            char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeDBusDaemon1) daemon = NULL;

  context = g_option_context_new (_("PATH"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Delete the index of PATH. The files of PATH are "
                                           "not touched."));
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc != 2)
    return usage_error (context, _("Expected exactly one PATH"));

  daemon = connect_daemon ();
  if (daemon != NULL)
    {
      g_autofree char *absolute = absolute_path (argv[1]);

      /* The daemon stops watching and indexing the tree before its index goes. */
      if (!lode_dbus_daemon1_call_remove_project_sync (daemon, absolute, NULL, &error))
        g_dbus_error_strip_remote_error (error);
    }
  else
    lode_engine_remove_project (engine, argv[1], &error);
  if (error != NULL)
    {
      print_error (error);
      return 1;
    }

  g_print (_("Removed the index of %s.\n"), argv[1]);
  return 0;
}

/* Prints a graph report as JSON or as the markdown every surface shares. */
static int
print_graph_report (JsonObject   *report,
                    char        *(*format) (JsonObject *report),
                    const GError *error)
{
  if (report == NULL)
    {
      print_error (error);
      return 1;
    }

  if (opt_json)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), report);

      print_json_node (node);
    }
  else
    {
      g_autofree char *text = format (report);

      g_print ("%s", text);
    }

  return 0;
}

/* A FILE argument: a path that exists from here is taken as it is, anything else as
 * relative to the project root. */
static char *
graph_file_argument (const char *file)
{
  g_autofree char *cwd = NULL;

  if (g_path_is_absolute (file) || !g_file_test (file, G_FILE_TEST_EXISTS))
    return g_strdup (file);

  cwd = g_get_current_dir ();
  return g_build_filename (cwd, file, NULL);
}

static int
cmd_graph (LodeEngine  *engine,
           int          argc,
           char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autofree char *path = NULL;
  g_autofree char *direction = NULL;
  g_autofree char *file = NULL;
  const char *action;
  int depth = 1;
  int max_nodes = LODE_GRAPH_MERMAID_MAX_NODES;
  int limit = 20;
  LodeGraphDirection dir = LODE_GRAPH_INBOUND;
  GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &path,
      N_("The indexed tree (default: the current directory)"), N_("PATH") },
    { "depth", 'd', 0, G_OPTION_ARG_INT, &depth,
      N_("query, visualize: hops to follow, 1–5 (default 1)"), N_("N") },
    { "direction", 0, 0, G_OPTION_ARG_STRING, &direction,
      N_("query: follow dependents (in, default) or imports (out)"), N_("in|out") },
    { "max-nodes", 0, 0, G_OPTION_ARG_INT, &max_nodes,
      N_("visualize: boxes at most (default 60)"), N_("N") },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit,
      N_("stats, circular: entries to list (default 20)"), N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_("Print JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("build|query FILE|stats|circular|visualize [FILE]|status|"
                                    "remove"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _("The import graph of an indexed tree: what a file imports and "
                                  "what imports it, cycles, statistics, a Mermaid diagram. "
                                  "Indexing keeps it up to date."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc < 2)
    return usage_error (context, _("Missing the action"));
  if (depth < 1 || depth > LODE_GRAPH_MAX_DEPTH)
    return usage_error (context, _("--depth must be between 1 and 5"));
  if (max_nodes < 1 || max_nodes > LODE_GRAPH_REPORT_MAX_ITEMS ||
      limit < 1 || limit > LODE_GRAPH_REPORT_MAX_ITEMS)
    return usage_error (context, _("--max-nodes and --limit must be between 1 and 500"));
  if (direction != NULL && strcmp (direction, "in") != 0 && strcmp (direction, "out") != 0)
    return usage_error (context, _("--direction must be “in” or “out”"));
  if (g_strcmp0 (direction, "out") == 0)
    dir = LODE_GRAPH_OUTBOUND;

  action = argv[1];
  if ((strcmp (action, "query") == 0 && argc != 3) ||
      (strcmp (action, "visualize") == 0 && argc > 3) ||
      (strcmp (action, "query") != 0 && strcmp (action, "visualize") != 0 && argc != 2))
    return usage_error (context, _("Wrong number of arguments"));
  if (argc == 3)
    file = graph_file_argument (argv[2]);

  project = lode_engine_open_project (engine, path != NULL ? path : ".",
                                      strcmp (action, "build") != 0 &&
                                      strcmp (action, "status") != 0, &error);
  if (project == NULL)
    {
      print_error (error);
      return 1;
    }

  if (strcmp (action, "build") == 0)
    {
      report = lode_graph_report_build (project, NULL, &error);
      return print_graph_report (report, lode_graph_format_build, error);
    }
  if (strcmp (action, "query") == 0)
    {
      report = lode_graph_report_query (project, file, dir, depth, &error);
      return print_graph_report (report, lode_graph_format_query, error);
    }
  if (strcmp (action, "stats") == 0)
    {
      report = lode_graph_report_stats (project, limit, &error);
      return print_graph_report (report, lode_graph_format_stats, error);
    }
  if (strcmp (action, "circular") == 0)
    {
      report = lode_graph_report_circular (project, limit, &error);
      return print_graph_report (report, lode_graph_format_circular, error);
    }
  if (strcmp (action, "visualize") == 0)
    {
      report = lode_graph_report_visualize (project, file, depth, max_nodes, &error);
      return print_graph_report (report, lode_graph_format_visualize, error);
    }
  if (strcmp (action, "status") == 0)
    {
      report = lode_graph_report_status (project, &error);
      return print_graph_report (report, lode_graph_format_status, error);
    }
  if (strcmp (action, "remove") == 0)
    {
      report = lode_graph_report_remove (project, &error);
      return print_graph_report (report, lode_graph_format_remove, error);
    }

  return usage_error (context, _("Unknown action"));
}

static int
cmd_impact (LodeEngine  *engine,
            int          argc,
            char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autofree char *path = NULL;
  int depth = 3;
  int limit = 50;
  GOptionEntry entries[] = {
    { "project", 'p', 0, G_OPTION_ARG_FILENAME, &path,
      N_("The indexed tree (default: the current directory)"), N_("PATH") },
    { "depth", 'd', 0, G_OPTION_ARG_INT, &depth, N_("Hops to follow, 1–5 (default 3)"),
      N_("N") },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &limit, N_("Affected files to list (default 50)"),
      N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_("Print JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("[REV-RANGE]"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
                                _("The files a change may affect, most likely first: the "
                                  "uncommitted changes, or those of a git revision range "
                                  "(main..HEAD, HEAD~3)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc > 2)
    return usage_error (context, _("Too many arguments"));
  if (depth < 1 || depth > LODE_GRAPH_MAX_DEPTH)
    return usage_error (context, _("--depth must be between 1 and 5"));
  if (limit < 1 || limit > LODE_GRAPH_REPORT_MAX_ITEMS)
    return usage_error (context, _("--limit must be between 1 and 500"));

  project = lode_engine_open_project (engine, path != NULL ? path : ".", TRUE, &error);
  if (project == NULL)
    {
      print_error (error);
      return 1;
    }

  report = lode_graph_report_impact (project, argc == 2 ? argv[1] : NULL, depth, limit, NULL,
                                     &error);
  return print_graph_report (report, lode_graph_format_impact, error);
}

/* ---- lode model ------------------------------------------------------------------------ */

typedef struct
{
  gboolean      done;
  GAsyncResult *result;
} Wait;

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
  wait->done = TRUE;
}

static GAsyncResult *
wait_run (Wait *wait)
{
  while (!wait->done)
    g_main_context_iteration (NULL, TRUE);
  return wait->result;
}

typedef struct
{
  gboolean  tty;
  char     *file;
  gint64    last_draw;
} PullView;

static void
pull_progress_cb (const char *file,
                  guint64     received,
                  guint64     total,
                  gpointer    user_data)
{
  PullView *view = user_data;
  gint64 now = g_get_monotonic_time ();
  gboolean new_file = g_strcmp0 (view->file, file) != 0;

  if (new_file)
    {
      if (view->file != NULL && view->tty)
        g_printerr ("\n");
      g_free (view->file);
      view->file = g_strdup (file);
      if (!view->tty)
        g_printerr (_("Downloading %s…\n"), file);
    }

  if (!view->tty || (!new_file && now - view->last_draw < 100000 && received != total))
    return;

  view->last_draw = now;
  if (total > 0)
    g_printerr ("\r%-20s %8.1f / %.1f MB  %3d%%", file, received / 1e6, total / 1e6,
                (int) (100 * received / total));
  else
    g_printerr ("\r%-20s %8.1f MB", file, received / 1e6);
}

static int
cmd_model_pull (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  gboolean no_verify = FALSE;
  const LodeModelInfo *info;
  PullView view = { isatty (STDERR_FILENO), NULL, 0 };
  Wait wait = { FALSE, NULL };
  gboolean ok;
  GOptionEntry entries[] = {
    { "no-verify", 0, 0, G_OPTION_ARG_NONE, &no_verify,
      N_("Accept files whose SHA-256 is not pinned or does not match"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("[NAME]"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Download an embedding model from Hugging Face "
                                           "(default " LODE_MODEL_DEFAULT "). An interrupted "
                                           "download resumes where it stopped."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc > 2)
    return usage_error (context, _("Too many arguments"));

  info = lode_models_lookup (argc == 2 ? argv[1] : LODE_MODEL_DEFAULT);
  if (info == NULL)
    {
      g_autoptr(GString) known = g_string_new (NULL);
      guint n;
      const LodeModelInfo *all = lode_models_get_all (&n);

      for (guint i = 0; i < n; i++)
        g_string_append_printf (known, "%s%s", i > 0 ? ", " : "", all[i].name);
      g_printerr (_("lode: unknown model “%s” (known: %s)\n"), argv[1], known->str);
      return 2;
    }

  dir = lode_models_dup_model_dir (info->name);
  lode_model_pull_async (info, dir, no_verify ? LODE_MODEL_PULL_NO_VERIFY : LODE_MODEL_PULL_NONE,
                         pull_progress_cb, &view, NULL, wait_cb, &wait);
  ok = lode_model_pull_finish (wait_run (&wait), &error);
  g_clear_object (&wait.result);
  if (view.tty && view.file != NULL)
    g_printerr ("\n");
  g_free (view.file);

  if (!ok)
    {
      print_error (error);
      return 1;
    }

  g_print (_("%s is installed in %s\n"), info->name, dir);
  return 0;
}

static int
cmd_model_list (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) models = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_("Print the list as JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("List the embedding models on this computer: Lode’s "
                                           "own and those in the Hugging Face cache."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc > 1)
    return usage_error (context, _("Too many arguments"));

  models = lode_models_list_installed ();
  if (opt_json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "models");
      json_builder_begin_array (builder);
      for (guint i = 0; i < models->len; i++)
        {
          const LodeInstalledModel *model = g_ptr_array_index (models, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, model->name);
          json_builder_set_member_name (builder, "source");
          json_builder_add_string_value (builder, model->source);
          json_builder_set_member_name (builder, "path");
          json_builder_add_string_value (builder, model->path);
          json_builder_set_member_name (builder, "size");
          json_builder_add_int_value (builder, (gint64) model->size);
          json_builder_set_member_name (builder, "complete");
          json_builder_add_boolean_value (builder, model->complete);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      print_json (builder);
      return 0;
    }

  if (models->len == 0)
    g_print (_("No models installed. Download one with “lode model pull”.\n"));
  for (guint i = 0; i < models->len; i++)
    {
      const LodeInstalledModel *model = g_ptr_array_index (models, i);
      g_autofree char *size = g_format_size (model->size);

      g_print ("%-40s %-11s %10s  %s%s\n", model->name, model->source, size, model->path,
               model->complete ? "" : _("  (incomplete)"));
    }

  return 0;
}

static int
cmd_model (LodeEngine  *engine,
           int          argc,
           char       **argv)
{
  gboolean help;

  if (argc >= 2 && strcmp (argv[1], "pull") == 0)
    return cmd_model_pull (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "list") == 0)
    return cmd_model_list (argc - 1, argv + 1);

  help = argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0);
  fprintf (help ? stdout : stderr, "%s\n  pull [NAME] [--no-verify]  %s\n  list [--json]              %s\n",
           _("Usage: lode model COMMAND"), _("Download an embedding model"),
           _("List installed models"));
  return help ? 0 : 2;
}

/* ---- lode embed ------------------------------------------------------------------------ */

static void
add_embed_json (JsonBuilder    *builder,
                LodeEmbedder   *embedder,
                GPtrArray      *ids,
                LodeEmbeddings *embeddings)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, lode_embedder_get_model (embedder));
  json_builder_set_member_name (builder, "dims");
  json_builder_add_int_value (builder, embeddings->dims);
  json_builder_set_member_name (builder, "pooling");
  json_builder_add_string_value (builder, lode_pooling_to_string (
    lode_builtin_embedder_get_pooling (LODE_BUILTIN_EMBEDDER (embedder))));
  json_builder_set_member_name (builder, "input_ids");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ids->len; i++)
    {
      GArray *seq = g_ptr_array_index (ids, i);

      json_builder_begin_array (builder);
      for (guint j = 0; j < seq->len; j++)
        json_builder_add_int_value (builder, g_array_index (seq, gint32, j));
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "vectors");
  json_builder_begin_array (builder);
  for (guint i = 0; i < embeddings->n_vectors; i++)
    {
      json_builder_begin_array (builder);
      for (guint d = 0; d < embeddings->dims; d++)
        json_builder_add_double_value (builder, embeddings->data[(gsize) i * embeddings->dims + d]);
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static int
cmd_embed (LodeEngine  *engine,
           int          argc,
           char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autofree char *model = NULL;
  g_autofree char *model_dir = NULL;
  g_autofree char *pooling = NULL;
  gboolean query = FALSE;
  GOptionEntry entries[] = {
    { "model", 'm', 0, G_OPTION_ARG_STRING, &model,
      N_("A known model (default " LODE_MODEL_DEFAULT ")"), N_("NAME") },
    { "model-dir", 0, 0, G_OPTION_ARG_FILENAME, &model_dir,
      N_("A model folder in Hugging Face layout"), N_("DIR") },
    { "pooling", 0, 0, G_OPTION_ARG_STRING, &pooling,
      N_("Override the model’s pooling: mean or cls"), N_("POOLING") },
    { "query", 'q', 0, G_OPTION_ARG_NONE, &query,
      N_("Embed the texts as search queries (with the model’s query prefix)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &opt_json, N_("Print ids and vectors as JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("TEXT…"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Embed texts with the built-in encoder and print "
                                           "their token ids and vectors. Texts longer than the "
                                           "model’s limit are cut, as Hugging Face tokenizers "
                                           "do."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc < 2)
    return usage_error (context, _("No text given"));
  if (model != NULL && model_dir != NULL)
    return usage_error (context, _("--model and --model-dir exclude each other"));
  if (pooling != NULL && strcmp (pooling, "mean") != 0 && strcmp (pooling, "cls") != 0)
    return usage_error (context, _("--pooling is “mean” or “cls”"));

  embedder = lode_builtin_embedder_new (model_dir != NULL ? model_dir :
                                        model != NULL ? model : LODE_MODEL_DEFAULT, &error);
  if (embedder == NULL)
    {
      print_error (error);
      return 1;
    }
  if (pooling != NULL)
    lode_builtin_embedder_set_pooling (LODE_BUILTIN_EMBEDDER (embedder),
                                       strcmp (pooling, "cls") == 0 ? LODE_POOLING_CLS :
                                                                      LODE_POOLING_MEAN);

  ids = lode_builtin_embedder_tokenize (LODE_BUILTIN_EMBEDDER (embedder),
                                        (const char * const *) argv + 1,
                                        query ? LODE_EMBED_QUERY : LODE_EMBED_DOCUMENT, &error);
  if (ids != NULL)
    embeddings = lode_builtin_embedder_embed_ids (LODE_BUILTIN_EMBEDDER (embedder), ids, NULL,
                                                  &error);
  if (embeddings == NULL)
    {
      print_error (error);
      return 1;
    }

  if (opt_json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      add_embed_json (builder, embedder, ids, embeddings);
      print_json (builder);
      return 0;
    }

  g_print (_("%s, %u dimensions, %s pooling\n"), lode_embedder_get_model (embedder),
           embeddings->dims, lode_pooling_to_string (
             lode_builtin_embedder_get_pooling (LODE_BUILTIN_EMBEDDER (embedder))));
  for (guint i = 0; i < embeddings->n_vectors; i++)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      for (guint d = 0; d < embeddings->dims; d++)
        g_string_append_printf (line, "%s%.6f", d > 0 ? " " : "",
                                embeddings->data[(gsize) i * embeddings->dims + d]);
      g_print (_("%u tokens: %s\n"), ((GArray *) g_ptr_array_index (ids, i))->len, line->str);
    }

  return 0;
}

/* ---- lode secret ----------------------------------------------------------------------- */

/* Reads the key: from a terminal without echo, else the first line of stdin. */
static char *
read_api_key (const char  *provider,
              GError     **error)
{
  g_autoptr(GString) line = g_string_new (NULL);
  struct termios saved, quiet;
  gboolean tty = isatty (STDIN_FILENO);
  int c;

  if (tty)
    {
      if (tcgetattr (STDIN_FILENO, &saved) != 0)
        tty = FALSE;
      else
        {
          quiet = saved;
          quiet.c_lflag &= ~ECHO;
          tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet);
          g_printerr (_("API key for %s: "), provider);
        }
    }

  while ((c = getchar ()) != EOF && c != '\n')
    g_string_append_c (line, (char) c);

  if (tty)
    {
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &saved);
      g_printerr ("\n");
    }

  g_strstrip (line->str);
  if (line->str[0] == '\0')
    {
      explicit_bzero (line->str, line->allocated_len);
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                           _("No API key given"));
      return NULL;
    }

  return g_string_free (g_steal_pointer (&line), FALSE);
}

static int
cmd_secret (LodeEngine  *engine,
            int          argc,
            char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  gboolean session = FALSE;
  Wait wait = { FALSE, NULL };
  const char *action, *provider;
  GOptionEntry entries[] = {
    { "session", 0, 0, G_OPTION_ARG_NONE, &session,
      N_("Keep the key only until logout (the session keyring)"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("set|clear PROVIDER"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Store or remove an API key (provider “openai”) in "
                                           "the desktop keyring. “set” reads the key from the "
                                           "terminal without echo, or from a pipe. The "
                                           "environment (LODE_OPENAI_API_KEY, OPENAI_API_KEY) "
                                           "overrides the keyring."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc != 3)
    return usage_error (context, _("Expected “set PROVIDER” or “clear PROVIDER”"));

  action = argv[1];
  provider = argv[2];
  if (!lode_secret_provider_is_valid (provider))
    return usage_error (context, _("PROVIDER is a lower-case name such as “openai”"));

  if (strcmp (action, "set") == 0)
    {
      g_autofree char *key = read_api_key (provider, &error);
      gboolean ok;

      if (key == NULL)
        {
          print_error (error);
          return 1;
        }

      lode_secret_store_async (provider, key, session ? SECRET_COLLECTION_SESSION : NULL, NULL,
                               wait_cb, &wait);
      explicit_bzero (key, strlen (key));
      ok = lode_secret_store_finish (wait_run (&wait), &error);
      g_clear_object (&wait.result);
      if (!ok)
        {
          print_error (error);
          /* The login keyring needs an unlock prompt, which needs a display. */
          if (!session)
            {
              g_autofree char *upper = g_ascii_strup (provider, -1);

              g_strdelimit (upper, "-", '_');
              g_printerr (_("lode: without a desktop session, “--session” keeps the key until "
                            "logout; or set LODE_%s_API_KEY\n"), upper);
            }
          return 1;
        }
      g_print (_("Stored the API key for %s.\n"), provider);
      return 0;
    }

  if (strcmp (action, "clear") == 0)
    {
      gboolean removed;

      lode_secret_clear_async (provider, NULL, wait_cb, &wait);
      removed = lode_secret_clear_finish (wait_run (&wait), &error);
      g_clear_object (&wait.result);
      if (error != NULL)
        {
          print_error (error);
          return 1;
        }
      g_print (removed ? _("Removed the API key for %s.\n") : _("No API key stored for %s.\n"),
               provider);
      return 0;
    }

  return usage_error (context, _("Expected “set PROVIDER” or “clear PROVIDER”"));
}

static int
cmd_watch (LodeEngine  *engine,
           int          argc,
           char       **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeDBusDaemon1) daemon = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autofree char *root = NULL;
  const char *message = NULL;
  gboolean stop = FALSE;
  gboolean status = FALSE;
  gboolean watched = FALSE;
  gboolean polling = FALSE;
  GOptionEntry entries[] = {
    { "stop", 0, 0, G_OPTION_ARG_NONE, &stop, N_("Stop watching PATH"), NULL },
    { "status", 0, 0, G_OPTION_ARG_NONE, &status, N_("Show whether PATH is watched"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("[PATH]"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Keep the index of PATH (default: the current "
                                           "directory) up to date as files change. The "
                                           "daemon watches; it remembers watched trees "
                                           "across restarts."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!parse_options (context, &argc, &argv))
    return 2;
  if (argc > 2)
    return usage_error (context, _("Too many arguments"));
  if (stop && status)
    return usage_error (context, _("--stop and --status exclude each other"));

  daemon = connect_daemon ();
  if (daemon == NULL)
    {
      g_printerr (_("lode: watching needs the daemon (loded) on the session bus\n"));
      return 1;
    }

  root = absolute_path (argc == 2 ? argv[1] : ".");
  if (status)
    {
      if (lode_dbus_daemon1_call_status_sync (daemon, root, &reply, NULL, &error))
        g_variant_lookup (reply, "watched", "b", &watched);
    }
  else if (lode_dbus_daemon1_call_watch_sync (daemon, root, !stop, &reply, NULL, &error))
    {
      g_variant_lookup (reply, "watched", "b", &watched);
      g_variant_lookup (reply, "polling", "b", &polling);
    }

  if (reply == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      print_error (error);
      return 1;
    }

  g_variant_lookup (reply, "watch_status", "&s", &message);
  if (watched)
    g_print (_("Watching %s%s%s\n"), root, message != NULL ? ": " : "",
             message != NULL ? message : "");
  else
    g_print (_("Not watching %s\n"), root);

  return 0;
}

static const Command commands[] = {
  { "index",    N_("Index a source tree"),                   cmd_index },
  { "update",   N_("Update the index of a tree"),            cmd_update },
  { "search",   N_("Search an indexed tree"),                cmd_search },
  { "status",   N_("Show the index state of a tree"),        cmd_status },
  { "projects", N_("List indexed trees"),                    cmd_projects },
  { "remove",   N_("Delete the index of a tree"),            cmd_remove },
  { "watch",    N_("Keep the index of a tree up to date"),   cmd_watch },
  { "model",    N_("Download and list embedding models"),    cmd_model },
  { "embed",    N_("Embed texts with the built-in encoder"), cmd_embed },
  { "secret",   N_("Store or remove an API key"),            cmd_secret },
  { "graph",    N_("Import graph: dependencies, cycles, diagrams"), cmd_graph },
  { "impact",   N_("Files a change may affect"),             cmd_impact },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n\n%s\n", _("Usage: lode COMMAND [OPTION…]"), _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n%s\n",
           _("--no-daemon runs the engine in this process instead of asking loded."),
           _("Run “lode COMMAND --help” for the options of a command."));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeEngine) engine = NULL;
  const char *name;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* Logs never mix with --json output on stdout. */
  g_log_writer_default_set_use_stderr (TRUE);

  /* --no-daemon may come anywhere: it forces the in-process engine. */
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--no-daemon") == 0)
      {
        opt_no_daemon = TRUE;
        memmove (argv + i, argv + i + 1, (argc - i) * sizeof *argv);
        argc--;
        i--;
      }

  if (argc < 2)
    {
      print_usage (stderr);
      return 2;
    }

  name = argv[1];
  if (strcmp (name, "--help") == 0 || strcmp (name, "-h") == 0 || strcmp (name, "help") == 0)
    {
      print_usage (stdout);
      return 0;
    }
  if (strcmp (name, "--version") == 0)
    {
      g_print ("lode %s\n", PACKAGE_VERSION);
      return 0;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *prgname = NULL;

      if (strcmp (commands[i].name, name) != 0)
        continue;

      prgname = g_strdup_printf ("lode %s", name);
      g_set_prgname (prgname);

      config = lode_config_load (&error);
      if (config == NULL)
        {
          print_error (error);
          return 1;
        }
      engine = lode_engine_new (config);

      /* The command sees its own name as argv[0]. */
      return commands[i].run (engine, argc - 1, argv + 1);
    }

  g_printerr (_("lode: unknown command “%s”\n\n"), name);
  print_usage (stderr);
  return 2;
}
