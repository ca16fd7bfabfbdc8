/* lode-cli-local.c — the commands that work on this computer alone: models, embeddings,
 * secrets
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lode.h"
#include "lode-cli-common.h"
#include "lode-cli-local.h"
#include "lode-model-pull.h"
#include "lode-models.h"
#include "lode-secret.h"

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
  g_autofree char *summary = NULL;
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
  /* Translators: %s is the default model's name. */
  summary = g_strdup_printf (_("Download an embedding model from Hugging Face (default %s). An "
                               "interrupted download resumes where it stopped."),
                             LODE_MODEL_DEFAULT);
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!lode_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc > 2)
    return lode_cli_usage_error (context, _("Too many arguments"));

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
      lode_cli_print_error (error);
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
    { "json", 0, 0, G_OPTION_ARG_NONE, &lode_cli_json, N_("Print the list as JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("List the embedding models on this computer: Lode’s "
                                           "own and those in the Hugging Face cache."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!lode_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc > 1)
    return lode_cli_usage_error (context, _("Too many arguments"));

  models = lode_models_list_installed ();
  if (lode_cli_json)
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
      lode_cli_print_json (builder);
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

int
lode_cli_model (int    argc,
                char **argv)
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

int
lode_cli_embed (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(GPtrArray) ids = NULL;
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autofree char *model = NULL;
  g_autofree char *model_dir = NULL;
  g_autofree char *pooling = NULL;
  /* Translators: %s is the default model's name. */
  g_autofree char *model_help = g_strdup_printf (_("A known model (default %s)"),
                                                 LODE_MODEL_DEFAULT);
  gboolean query = FALSE;
  GOptionEntry entries[] = {
    { "model", 'm', 0, G_OPTION_ARG_STRING, &model, model_help, N_("NAME") },
    { "model-dir", 0, 0, G_OPTION_ARG_FILENAME, &model_dir,
      N_("A model folder in Hugging Face layout"), N_("DIR") },
    { "pooling", 0, 0, G_OPTION_ARG_STRING, &pooling,
      N_("Override the model’s pooling: mean or cls"), N_("POOLING") },
    { "query", 'q', 0, G_OPTION_ARG_NONE, &query,
      N_("Embed the texts as search queries (with the model’s query prefix)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &lode_cli_json, N_("Print ids and vectors as JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("TEXT…"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Embed texts with the built-in encoder and print "
                                           "their token ids and vectors. Texts longer than the "
                                           "model’s limit are cut, as Hugging Face tokenizers "
                                           "do."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!lode_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc < 2)
    return lode_cli_usage_error (context, _("No text given"));
  if (model != NULL && model_dir != NULL)
    return lode_cli_usage_error (context, _("--model and --model-dir exclude each other"));
  if (pooling != NULL && strcmp (pooling, "mean") != 0 && strcmp (pooling, "cls") != 0)
    return lode_cli_usage_error (context, _("--pooling is “mean” or “cls”"));

  embedder = lode_builtin_embedder_new (model_dir != NULL ? model_dir :
                                        model != NULL ? model : LODE_MODEL_DEFAULT, &error);
  if (embedder == NULL)
    {
      lode_cli_print_error (error);
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
      lode_cli_print_error (error);
      return 1;
    }

  if (lode_cli_json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      add_embed_json (builder, embedder, ids, embeddings);
      lode_cli_print_json (builder);
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

int
lode_cli_secret (int    argc,
                 char **argv)
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
  if (!lode_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 3)
    return lode_cli_usage_error (context, _("Expected “set PROVIDER” or “clear PROVIDER”"));

  action = argv[1];
  provider = argv[2];
  if (!lode_secret_provider_is_valid (provider))
    return lode_cli_usage_error (context, _("PROVIDER is a lower-case name such as “openai”"));

  if (strcmp (action, "set") == 0)
    {
      g_autofree char *key = read_api_key (provider, &error);
      gboolean ok;

      if (key == NULL)
        {
          lode_cli_print_error (error);
          return 1;
        }

      lode_secret_store_async (provider, key, session ? SECRET_COLLECTION_SESSION : NULL, NULL,
                               wait_cb, &wait);
      explicit_bzero (key, strlen (key));
      ok = lode_secret_store_finish (wait_run (&wait), &error);
      g_clear_object (&wait.result);
      if (!ok)
        {
          lode_cli_print_error (error);
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
          lode_cli_print_error (error);
          return 1;
        }
      g_print (removed ? _("Removed the API key for %s.\n") : _("No API key stored for %s.\n"),
               provider);
      return 0;
    }

  return lode_cli_usage_error (context, _("Expected “set PROVIDER” or “clear PROVIDER”"));
}
