/* lode-mcp.c — the MCP server: stdio by default, Streamable HTTP with --http
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-mcp"

#include "config.h"

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdlib.h>

#include "lode-client.h"
#include "lode-mcp-http.h"
#include "lode-mcp-stdio.h"

#define DEFAULT_HTTP_PORT 7437

static gboolean opt_http;
static int opt_port = DEFAULT_HTTP_PORT;
static char *opt_token;
static gboolean opt_no_token;
static gboolean opt_version;
static gboolean opt_no_daemon;
static char *opt_profile;
static const LodeToolProfile *profile;

static const GOptionEntry entries[] = {
  { "no-daemon", 0, 0, G_OPTION_ARG_NONE, &opt_no_daemon,
    N_("Run the tools in this process instead of asking loded (also LODE_NO_DAEMON=1)"), NULL },
  { "profile", 0, 0, G_OPTION_ARG_STRING, &opt_profile,
    N_("Show another server's tool names and arguments: codebase-context, semantic-watcher "
       "or ragcode (also LODE_MCP_PROFILE; default: lode)"), N_("NAME") },
  { "http", 0, 0, G_OPTION_ARG_NONE, &opt_http,
    N_("Serve Streamable HTTP on 127.0.0.1 instead of stdio"), NULL },
  { "port", 0, 0, G_OPTION_ARG_INT, &opt_port,
    N_("HTTP port (default 7437; 0 picks a free one)"), N_("PORT") },
  { "token", 0, 0, G_OPTION_ARG_STRING, &opt_token,
    N_("Require “Authorization: Bearer TOKEN” over HTTP (or set LODE_MCP_TOKEN; "
       "without either a random token is made up and printed)"),
    N_("TOKEN") },
  { "no-token", 0, 0, G_OPTION_ARG_NONE, &opt_no_token,
    N_("Accept HTTP requests without a token: every local user can then run the tools as you"),
    NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, &opt_version, N_("Print the version and exit"), NULL },
  { NULL }
};

static gboolean
quit_cb (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_CONTINUE;
}

static void
closed_cb (LodeMcpStdio *stdio,
           GMainLoop    *loop)
{
  g_main_loop_quit (loop);
}

static int
run_stdio (LodeClient *client,
           GMainLoop  *loop)
{
  g_autoptr(GInputStream) input = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  g_autoptr(GOutputStream) output = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  g_autoptr(LodeMcpStdio) stdio = lode_mcp_stdio_new (client, input, output);

  lode_mcp_stdio_set_profile (stdio, profile);
  g_signal_connect (stdio, "closed", G_CALLBACK (closed_cb), loop);
  lode_mcp_stdio_start (stdio);
  g_main_loop_run (loop);

  /* The client is gone or we were told to stop: cancel everything, say what is queued. */
  lode_mcp_stdio_stop (stdio);
  lode_engine_cancel_jobs (lode_client_get_engine (client));
  lode_mcp_stdio_flush (stdio);

  return EXIT_SUCCESS;
}

static int
run_http (LodeClient *client,
          GMainLoop  *loop)
{
  g_autoptr(LodeMcpHttp) http = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *generated = NULL;
  const char *token = opt_token != NULL ? opt_token : g_getenv ("LODE_MCP_TOKEN");

  if (opt_port < 0 || opt_port > 65535)
    {
      g_printerr ("lode-mcp: %s\n", _("--port must be between 0 and 65535"));
      return 2;
    }

  if (opt_no_token)
    token = NULL;
  else if (token == NULL || token[0] == '\0')
    {
      /* Any local user can reach a loopback port: without a token they could read every
       * file this user can, through the tools. */
      generated = lode_mcp_random_hex (16, &error);
      if (generated == NULL)
        {
          g_printerr ("lode-mcp: %s\n", error->message);
          return EXIT_FAILURE;
        }
      token = generated;
    }

  http = lode_mcp_http_new (client, token);
  lode_mcp_http_set_profile (http, profile);
  if (!lode_mcp_http_listen (http, opt_port, &error))
    {
      g_printerr ("lode-mcp: %s\n", error->message);
      return EXIT_FAILURE;
    }

  /* Tests and scripts read the token and the address from here (with --port 0 the address
   * is not known before). The token is printed once, and only when it was made up here. */
  if (generated != NULL)
    g_printerr ("lode-mcp: bearer token: %s\n", generated);
  else if (token == NULL)
    g_printerr ("lode-mcp: %s\n", _("warning: no token is required, any local user can "
                                     "run the tools"));
  g_printerr ("lode-mcp: listening on http://127.0.0.1:%u/mcp\n", lode_mcp_http_get_port (http));
  g_main_loop_run (loop);

  lode_mcp_http_stop (http);
  lode_engine_cancel_jobs (lode_client_get_engine (client));

  return EXIT_SUCCESS;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeClient) client = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  int status;

  /* stdout carries protocol only: GLib's default writer would print info and debug there. */
  g_log_writer_default_set_use_stderr (TRUE);

  lode_locale_init ();

  /* A client that closes its end must not kill us mid-write; the write fails instead. */
  signal (SIGPIPE, SIG_IGN);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Lode's MCP server: code search for AI agents."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("lode-mcp: %s\n", error->message);
      return 2;
    }

  if (opt_version)
    {
      g_printerr ("lode-mcp %s\n", PACKAGE_VERSION);
      return EXIT_SUCCESS;
    }

  /* Hosts that cannot pass flags set the environment instead. */
  if (opt_profile == NULL && g_getenv ("LODE_MCP_PROFILE") != NULL &&
      g_getenv ("LODE_MCP_PROFILE")[0] != '\0')
    opt_profile = g_strdup (g_getenv ("LODE_MCP_PROFILE"));
  profile = lode_tool_profile_lookup (opt_profile != NULL ? opt_profile
                                                          : LODE_TOOL_PROFILE_DEFAULT);
  if (profile == NULL)
    {
      g_autofree char *names = lode_tool_profile_dup_names ();

      g_printerr ("lode-mcp: ");
      g_printerr (_("Unknown profile “%s”; the profiles are %s"), opt_profile, names);
      g_printerr ("\n");
      return 2;
    }

  config = lode_engine_load_config (&error);
  if (config == NULL)
    {
      g_printerr ("lode-mcp: %s\n", error->message);
      return EXIT_FAILURE;
    }

  /* The host's environment is this configuration; the daemon serves the tools with it. */
  client = lode_client_new (config, opt_no_daemon ? LODE_CLIENT_IN_PROCESS : LODE_CLIENT_AUTO,
                            NULL);
  loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGINT, quit_cb, loop);
  g_unix_signal_add (SIGTERM, quit_cb, loop);

  status = opt_http ? run_http (client, loop) : run_stdio (client, loop);
  g_free (opt_token);
  g_free (opt_profile);

  return status;
}
