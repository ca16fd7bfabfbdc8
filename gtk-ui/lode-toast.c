/* lode-toast.c — messages shown as a toast of the window a widget is in
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "lode-toast.h"

/*
 * A toast is one line: an error says what failed and why, with every URL in it cut to its
 * host and last part and without words the cause repeats, so that the cause is not pushed
 * out of sight by a long address; the whole message is behind the toast's Details button.
 * The window shows them (the "win.show-toast" and "win.show-error" actions) for a few
 * seconds: an error does not stay over the pages the user moves on to.
 */

/**
 * lode_toast_shorten_urls:
 * @text: a message
 *
 * Returns: (transfer full): @text with each URL as its host and last path part
 *   ("huggingface.co/…/config.json")
 */
char *
lode_toast_shorten_urls (const char *text)
{
  GString *out = g_string_new (NULL);
  const char *p = text;

  g_return_val_if_fail (text != NULL, NULL);

  while (*p != '\0')
    {
      const char *scheme = strstr (p, "://");
      const char *start, *host, *end, *slash, *last;

      if (scheme == NULL)
        break;
      for (start = scheme; start > p && g_ascii_isalpha (start[-1]); start--)
        ;
      if (start == scheme)
        {
          g_string_append_len (out, p, scheme + 3 - p);
          p = scheme + 3;
          continue;
        }

      host = scheme + 3;
      for (end = host; *end != '\0' && !g_ascii_isspace (*end) && *end != '"' && *end != '\'';
           end++)
        ;
      /* A sentence's punctuation after the URL is not part of it. */
      while (end > host && strchr (".,;:)”’", end[-1]) != NULL)
        end--;

      g_string_append_len (out, p, start - p);
      slash = memchr (host, '/', end - host);
      last = slash != NULL ? g_strrstr_len (host, end - host, "/") : NULL;
      if (slash == NULL || last == slash || last + 1 >= end)
        g_string_append_len (out, host, end - host);
      else
        {
          g_string_append_len (out, host, slash - host);
          g_string_append (out, "/…");
          g_string_append_len (out, last, end - last);
        }
      p = end;
    }
  g_string_append (out, p);

  return g_string_free (out, FALSE);
}

/* @cause without the words it repeats from @what: "Cannot download the model" and "Cannot
 * download huggingface.co/…: HTTP 404" make "…: huggingface.co/…: HTTP 404". */
static const char *
without_repeat (const char *what,
                const char *cause)
{
  const char *space = strchr (what, ' ');
  gsize n;

  /* The first two words of @what, and the space after them. */
  if (space == NULL || (space = strchr (space + 1, ' ')) == NULL)
    return cause;
  n = space - what + 1;
  return strncmp (cause, what, n) == 0 && cause[n] != '\0' ? cause + n : cause;
}

/**
 * lode_toast_show:
 * @widget: a widget of a window
 * @text: what to tell, for people
 *
 * Shows @text for a few seconds in @widget's window (a widget outside a #LodeWindow shows
 * nothing).
 */
void
lode_toast_show (GtkWidget  *widget,
                 const char *text)
{
  g_autofree char *escaped = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (text != NULL);

  escaped = g_markup_escape_text (text, -1);
  gtk_widget_activate_action (widget, "win.show-toast", "s", escaped);
}

/**
 * lode_toast_show_error:
 * @widget: a widget of a window
 * @what: what failed, for people ("Cannot add the folder")
 * @error: why, in the daemon's words
 *
 * Logs the error and shows it as a toast in @widget's window, through the window's
 * "win.show-error" action, with the whole message behind a Details button when the toast
 * shows less of it (a widget outside a #LodeWindow only logs it).
 */
void
lode_toast_show_error (GtkWidget    *widget,
                       const char   *what,
                       const GError *error)
{
  g_autoptr(GError) copy = NULL;
  g_autofree char *full = NULL;
  g_autofree char *cause = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (what != NULL && error != NULL);

  copy = g_error_copy (error);
  g_dbus_error_strip_remote_error (copy);
  /* Translators: the first %s says what failed, the second why. */
  full = g_strdup_printf (_("%s: %s"), what, copy->message);
  g_message ("%s", full);

  cause = lode_toast_shorten_urls (copy->message);
  title = g_markup_printf_escaped (_("%s: %s"), what, without_repeat (what, cause));
  gtk_widget_activate_action (widget, "win.show-error", "(ss)", title, full);
}
