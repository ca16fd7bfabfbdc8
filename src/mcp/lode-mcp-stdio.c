/* lode-mcp-stdio.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-mcp"

#include "config.h"

#include <string.h>

#include "lode-mcp-errors.h"
#include "lode-mcp-session.h"
#include "lode-mcp-stdio.h"

/*
 * The stdio transport: messages are lines. Input is read in chunks on the main loop (never
 * blocking it, so that a notifications/cancelled arrives while a tool runs) and split here
 * rather than with g_data_input_stream_read_line_async(), which would buffer a line of any
 * size: a line longer than MAX_MESSAGE is answered with an error and skipped. Output is a
 * queue of lines written asynchronously, in order.
 */

#define READ_SIZE   (64 * 1024)
#define MAX_MESSAGE (16 * 1024 * 1024)
/* After the end of input, how long requests in flight have to answer before they are
 * cancelled: enough for searches piped in a batch, not for an index run the client
 * stopped waiting for. */
#define DRAIN_SECONDS 5

struct _LodeMcpStdio
{
  GObject         parent_instance;

  LodeMcpSession *session;
  GInputStream   *input;
  GOutputStream  *output;
  GCancellable   *cancellable;

  GByteArray     *line;
  GQueue          pending;       /* GBytes, each a line with its newline */
  guint           drain_timeout;

  guint           discarding : 1;
  guint           writing : 1;
  guint           broken : 1;
  guint           stopped : 1;
};

G_DEFINE_FINAL_TYPE (LodeMcpStdio, lode_mcp_stdio, G_TYPE_OBJECT)

enum {
  CLOSED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void write_next (LodeMcpStdio *self);

static void
lode_mcp_stdio_dispose (GObject *object)
{
  LodeMcpStdio *self = (LodeMcpStdio *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->drain_timeout, g_source_remove);
  if (self->session != NULL)
    lode_mcp_session_close (self->session);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (lode_mcp_stdio_parent_class)->dispose (object);
}

static void
lode_mcp_stdio_finalize (GObject *object)
{
  LodeMcpStdio *self = (LodeMcpStdio *)object;

  g_queue_clear_full (&self->pending, (GDestroyNotify) g_bytes_unref);
  g_clear_pointer (&self->line, g_byte_array_unref);
  g_clear_object (&self->input);
  g_clear_object (&self->output);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (lode_mcp_stdio_parent_class)->finalize (object);
}

static void
lode_mcp_stdio_class_init (LodeMcpStdioClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lode_mcp_stdio_dispose;
  object_class->finalize = lode_mcp_stdio_finalize;

  /**
   * LodeMcpStdio::closed:
   *
   * The client is done with us: its input ended and every request it sent has its answer,
   * or what we write cannot be written.
   */
  signals [CLOSED] =
    g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lode_mcp_stdio_init (LodeMcpStdio *self)
{
  self->line = g_byte_array_new ();
  self->cancellable = g_cancellable_new ();
  g_queue_init (&self->pending);
}

static void
close_input (LodeMcpStdio *self)
{
  g_clear_handle_id (&self->drain_timeout, g_source_remove);
  if (self->stopped)
    return;

  self->stopped = TRUE;
  g_signal_emit (self, signals [CLOSED], 0);
}

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(LodeMcpStdio) self = user_data;
  g_autoptr(GError) error = NULL;

  self->writing = FALSE;
  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, &error))
    {
      /* The client is gone: nobody reads what we would say. */
      g_debug ("Cannot write to the client: %s", error->message);
      self->broken = TRUE;
      g_queue_clear_full (&self->pending, (GDestroyNotify) g_bytes_unref);
      close_input (self);
      return;
    }

  g_bytes_unref (g_queue_pop_head (&self->pending));
  write_next (self);
}

static void
write_next (LodeMcpStdio *self)
{
  GBytes *bytes;

  if (self->writing || self->broken || g_queue_is_empty (&self->pending))
    return;

  bytes = g_queue_peek_head (&self->pending);
  self->writing = TRUE;
  g_output_stream_write_all_async (self->output, g_bytes_get_data (bytes, NULL),
                                   g_bytes_get_size (bytes), G_PRIORITY_DEFAULT, NULL,
                                   write_cb, g_object_ref (self));
}

static void
send_cb (const char *message,
         gpointer    tag,
         gboolean    final,
         gpointer    user_data)
{
  LodeMcpStdio *self = user_data;

  if (message == NULL || self->broken)
    return;

  /* Compact JSON escapes newlines inside strings, so one message is one line. */
  g_queue_push_tail (&self->pending, g_bytes_new_take (g_strconcat (message, "\n", NULL),
                                                       strlen (message) + 1));
  write_next (self);
}

/**
 * lode_mcp_stdio_new:
 * @client: runs the tools
 * @input: where messages come from (stdin)
 * @output: where messages go (stdout)
 *
 * Returns: (transfer full): a transport with its session
 */
LodeMcpStdio *
lode_mcp_stdio_new (LodeClient       *client,
                    GInputStream     *input,
                    GOutputStream    *output)
{
  LodeMcpStdio *self;

  g_return_val_if_fail (LODE_IS_CLIENT (client), NULL);
  g_return_val_if_fail (G_IS_INPUT_STREAM (input), NULL);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (output), NULL);

  self = g_object_new (LODE_TYPE_MCP_STDIO, NULL);
  self->input = g_object_ref (input);
  self->output = g_object_ref (output);
  self->session = lode_mcp_session_new (client, TRUE, send_cb, self);

  return self;
}

/**
 * lode_mcp_stdio_set_profile:
 * @self: a #LodeMcpStdio
 * @profile: the tool names and arguments the client sees
 *
 * Call it before lode_mcp_stdio_start().
 */
void
lode_mcp_stdio_set_profile (LodeMcpStdio          *self,
                            const LodeToolProfile *profile)
{
  g_return_if_fail (LODE_IS_MCP_STDIO (self));

  lode_mcp_session_set_profile (self->session, profile);
}

static gboolean
is_blank (const guint8 *data,
          gsize         length)
{
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isspace (data[i]))
      return FALSE;

  return TRUE;
}

static void
take_line (LodeMcpStdio *self)
{
  gsize length = self->line->len;

  if (length > 0 && self->line->data[length - 1] == '\r')
    length--;
  if (!is_blank (self->line->data, length))
    lode_mcp_session_receive (self->session, (const char *) self->line->data, length, NULL);
  g_byte_array_set_size (self->line, 0);
}

static void
take_data (LodeMcpStdio *self,
           const guint8 *data,
           gsize         length)
{
  while (length > 0 && !self->stopped)
    {
      const guint8 *newline = memchr (data, '\n', length);
      gsize chunk = newline != NULL ? (gsize) (newline - data) : length;

      if (!self->discarding)
        {
          if (self->line->len + chunk > MAX_MESSAGE)
            {
              lode_mcp_session_send_error (self->session, LODE_MCP_INVALID_REQUEST,
                                           "Invalid Request: a message is limited to 16 MiB",
                                           NULL);
              g_byte_array_set_size (self->line, 0);
              self->discarding = TRUE;
            }
          else
            g_byte_array_append (self->line, data, chunk);
        }

      if (newline == NULL)
        return;

      if (self->discarding)
        self->discarding = FALSE;
      else
        take_line (self);
      data += chunk + 1;
      length -= chunk + 1;
    }
}

static void read_next (LodeMcpStdio *self);

static void
drained_cb (LodeMcpSession *session,
            LodeMcpStdio   *self)
{
  close_input (self);
}

static gboolean
drain_timeout_cb (gpointer user_data)
{
  LodeMcpStdio *self = user_data;

  self->drain_timeout = 0;
  g_debug ("Requests still running %d s after the end of input are cancelled", DRAIN_SECONDS);
  lode_mcp_session_abandon (self->session,
                            "Cancelled: the input ended and the request did not finish "
                            "within " G_STRINGIFY (DRAIN_SECONDS) " s");
  close_input (self);
  return G_SOURCE_REMOVE;
}

/* The client sends nothing more: what it sent is answered, for a while, then we close. */
static void
end_input (LodeMcpStdio *self)
{
  if (self->stopped)
    return;
  if (!self->discarding && self->line->len > 0)
    take_line (self);
  self->drain_timeout = g_timeout_add_seconds (DRAIN_SECONDS, drain_timeout_cb, self);
  g_signal_connect_object (self->session, "drained", G_CALLBACK (drained_cb), self, 0);
  lode_mcp_session_end_input (self->session);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(LodeMcpStdio) self = user_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      if (error != NULL)
        g_debug ("Cannot read from the client: %s", error->message);
      end_input (self);
      return;
    }

  take_data (self, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  read_next (self);
}

static void
read_next (LodeMcpStdio *self)
{
  if (self->stopped)
    return;

  g_input_stream_read_bytes_async (self->input, READ_SIZE, G_PRIORITY_DEFAULT,
                                   self->cancellable, read_cb, g_object_ref (self));
}

void
lode_mcp_stdio_start (LodeMcpStdio *self)
{
  g_return_if_fail (LODE_IS_MCP_STDIO (self));

  read_next (self);
}

/**
 * lode_mcp_stdio_stop:
 * @self: a #LodeMcpStdio
 *
 * Stops reading and cancels every request in flight.
 */
void
lode_mcp_stdio_stop (LodeMcpStdio *self)
{
  g_return_if_fail (LODE_IS_MCP_STDIO (self));

  self->stopped = TRUE;
  g_cancellable_cancel (self->cancellable);
  lode_mcp_session_close (self->session);
}

/**
 * lode_mcp_stdio_flush:
 * @self: a #LodeMcpStdio
 *
 * Writes out what is queued, iterating the thread-default main context; for the exit.
 */
void
lode_mcp_stdio_flush (LodeMcpStdio *self)
{
  g_return_if_fail (LODE_IS_MCP_STDIO (self));

  while (self->writing)
    g_main_context_iteration (NULL, TRUE);
}
