/* test-utf8.c — lode_utf8_validate_len() answers as g_utf8_validate_len() does
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "lode-utf8.h"

static void
assert_as_glib (const char *text,
                gsize       length)
{
  const char *glib_end = NULL;
  const char *end = NULL;
  gboolean glib_valid = g_utf8_validate_len (text, length, &glib_end);
  gboolean valid = lode_utf8_validate_len (text, length, &end);

  if (valid != glib_valid || end != glib_end)
    {
      g_autofree char *hex = g_malloc (length * 3 + 1);

      for (gsize i = 0; i < length; i++)
        g_snprintf (hex + 3 * i, 4, "%02x ", (guchar) text[i]);
      g_error ("%s: GLib says %s up to %zu, lode_utf8_validate_len() %s up to %zu", hex,
               glib_valid ? "valid" : "invalid", (gsize) (glib_end - text),
               valid ? "valid" : "invalid", (gsize) (end - text));
    }
}

/* The forms the standard's table 3-7 tells apart, each where the sixteen-byte steps through
 * ASCII end: at the start, in the middle of a step, across its last byte, at the end. */
static void
test_edges (void)
{
  static const char *const pieces[] = {
    "\xc2\x80", "\xdf\xbf", "\xc0\x80", "\xc1\xbf", "\xe0\xa0\x80", "\xe0\x9f\xbf",
    "\xed\x9f\xbf", "\xed\xa0\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf0\x8f\xbf\xbf",
    "\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\x80", "\xc3",
    "\xe2\x86", "\xf0\x9f\x98", "\xe2\x86\x92", "é", "不能", "\x7f", "",
  };

  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    for (gsize before = 0; before <= 33; before++)
      for (gsize after = 0; after <= 17; after += 17)
        {
          g_autoptr(GString) text = g_string_new (NULL);

          for (gsize j = 0; j < before; j++)
            g_string_append_c (text, 'a' + j % 26);
          g_string_append (text, pieces[i]);
          for (gsize j = 0; j < after; j++)
            g_string_append_c (text, 'z');
          assert_as_glib (text->str, text->len);
        }

  /* A NUL byte ends the valid text, in a step or alone. */
  assert_as_glib ("abcdefghijklmnop\0rstuvwxyzabcdefgh", 34);
  assert_as_glib ("abcdefgh\0jklmnopqrstuvwxyzabcdefgh", 34);
  assert_as_glib ("ab\0", 3);
}

/* Random texts of source-like bytes: mostly ASCII, some characters, some damage. */
static void
test_random (void)
{
  static const char *const characters[] = { "é", "→", "不", "😀", "ß" };
  GRand *rand = g_rand_new_with_seed (29);

  for (guint round = 0; round < 20000; round++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      guint length = g_rand_int_range (rand, 0, 200);

      while (text->len < length)
        {
          guint roll = g_rand_int_range (rand, 0, 100);

          if (roll < 85)
            g_string_append_c (text, (char) g_rand_int_range (rand, 1, 128));
          else if (roll < 97)
            g_string_append (text, characters[g_rand_int_range (rand, 0, G_N_ELEMENTS (characters))]);
          else
            g_string_append_c (text, (char) g_rand_int_range (rand, 0, 256));
        }
      /* Cut anywhere, a character in two included. */
      assert_as_glib (text->str, g_rand_int_range (rand, 0, text->len + 1));
    }
  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lode/utf8/edges", test_edges);
  g_test_add_func ("/lode/utf8/random", test_random);

  return g_test_run ();
}
