/* lode-symbol-details.c — a declaration's details written as compact JSON text
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include "lode-json.h"
#include "lode-symbol-extract-private.h"

/*
 * Every declaration of every file gets its details, and a JsonBuilder's nodes, then a
 * JsonGenerator's pass over them, cost half of describing it. The writer below calls look
 * like a JsonBuilder's and append the text json_to_string() printed for the tree they built,
 * with the empty lists lode_symbol_extractor_describe() used to drop from the
 * tree (those of the top object and of the objects in its lists; see DetailsLevel.drops)
 * left out as they end:
 *
 * - strings written by lode_json_append_string(), as every JSON Lode writes: they differ from
 *   JSON-GLib's only where JSON-GLib wrote invalid JSON (0x1f raw) or bytes that are not UTF-8,
 *   and in 0x7f, which JSON needs no escape for;
 * - a member set twice keeps its first place and takes its second value, as
 *   json_object_set_member() does (a PHP model's `casts` may come from a property and a
 *   method, and an array literal may repeat a key).
 */

typedef struct
{
  gsize    start;     /* where its member or element begins, before the comma */
  guint    n_items;
  guint    first_key; /* an object's first DetailsKey */
  gboolean is_array;
  gboolean drops;     /* an object: its empty lists are left out; a list: left out if empty,
                       * and the objects in it leave out theirs */
} DetailsLevel;

/* A member of an object being written, by offsets into the text. */
typedef struct
{
  gsize start;        /* before its comma */
  gsize key;          /* its escaped name, between the quotes */
  gsize key_len;
  gsize value;
  gsize end;
} DetailsKey;

void
_lode_details_init (DetailsJson *json)
{
  json->out = g_string_sized_new (256);
  json->levels = g_array_new (FALSE, FALSE, sizeof (DetailsLevel));
  json->keys = g_array_new (FALSE, FALSE, sizeof (DetailsKey));
  json->member = NULL;
}

void
_lode_details_clear (DetailsJson *json)
{
  if (json->out != NULL)
    g_string_free (json->out, TRUE);
  json->out = NULL;
  g_clear_pointer (&json->levels, g_array_unref);
  g_clear_pointer (&json->keys, g_array_unref);
}

/* The text written; @json is cleared. */
char *
_lode_details_steal (DetailsJson *json)
{
  char *text = g_string_free (g_steal_pointer (&json->out), FALSE);

  _lode_details_clear (json);
  return text;
}

static DetailsLevel *
top (DetailsJson *json)
{
  return json->levels->len > 0
         ? &g_array_index (json->levels, DetailsLevel, json->levels->len - 1) : NULL;
}

/* Before a value: its comma, and in an object its member's name. Returns where it began. */
static gsize
begin_value (DetailsJson *json)
{
  DetailsLevel *level = top (json);
  gsize start = json->out->len;

  if (level == NULL)
    return start;
  if (level->n_items++ > 0)
    g_string_append_c (json->out, ',');
  if (!level->is_array)
    {
      DetailsKey key = { start, json->out->len + 1, 0, 0, 0 };

      g_return_val_if_fail (json->member != NULL, start);
      lode_json_append_string (json->out, json->member);
      key.key_len = json->out->len - 1 - key.key;
      g_string_append_c (json->out, ':');
      key.value = json->out->len;
      g_array_append_val (json->keys, key);
      json->member = NULL;
    }
  return start;
}

/* After a value: a member named before in the same object takes it, in its place. */
static void
end_value (DetailsJson *json)
{
  DetailsLevel *level = top (json);
  DetailsKey *last;
  GString *out = json->out;

  if (level == NULL || level->is_array)
    return;
  last = &g_array_index (json->keys, DetailsKey, json->keys->len - 1);
  last->end = out->len;
  for (guint i = level->first_key; i + 1 < json->keys->len; i++)
    {
      DetailsKey *old = &g_array_index (json->keys, DetailsKey, i);
      gsize old_len, new_len;
      g_autofree char *value = NULL;

      if (old->key_len != last->key_len ||
          memcmp (out->str + old->key, out->str + last->key, last->key_len) != 0)
        continue;
      old_len = old->end - old->value;
      new_len = last->end - last->value;
      value = g_strndup (out->str + last->value, new_len);
      g_string_truncate (out, last->start);
      g_string_erase (out, (gssize) old->value, (gssize) old_len);
      g_string_insert_len (out, (gssize) old->value, value, (gssize) new_len);
      old->end = old->value + new_len;
      for (guint j = i + 1; j + 1 < json->keys->len; j++)
        {
          DetailsKey *later = &g_array_index (json->keys, DetailsKey, j);

          later->start = later->start + new_len - old_len;
          later->key = later->key + new_len - old_len;
          later->value = later->value + new_len - old_len;
          later->end = later->end + new_len - old_len;
        }
      g_array_set_size (json->keys, json->keys->len - 1);
      level->n_items--;
      return;
    }
}

static void
begin_container (DetailsJson *json,
                 gboolean     is_array)
{
  DetailsLevel *parent = top (json);
  DetailsLevel level = { 0, 0, 0, is_array, FALSE };

  if (parent == NULL)
    level.drops = !is_array;
  else if (is_array)
    level.drops = !parent->is_array && parent->drops;
  else
    level.drops = parent->is_array && parent->drops;
  level.start = begin_value (json);
  level.first_key = json->keys->len;
  g_string_append_c (json->out, is_array ? '[' : '{');
  g_array_append_val (json->levels, level);
}

void
_lode_details_begin_object (DetailsJson *json)
{
  begin_container (json, FALSE);
}

void
_lode_details_begin_array (DetailsJson *json)
{
  begin_container (json, TRUE);
}

static void
end_container (DetailsJson *json)
{
  DetailsLevel level;
  DetailsLevel *parent;

  g_return_if_fail (json->levels->len > 0);
  level = *top (json);
  g_array_set_size (json->levels, json->levels->len - 1);
  g_array_set_size (json->keys, level.first_key);
  parent = top (json);
  if (level.is_array && level.drops && level.n_items == 0)
    {
      /* Left out, with its name and comma. */
      g_string_truncate (json->out, level.start);
      g_array_set_size (json->keys, json->keys->len - 1);
      parent->n_items--;
      return;
    }
  g_string_append_c (json->out, level.is_array ? ']' : '}');
  end_value (json);
}

void
_lode_details_end_object (DetailsJson *json)
{
  end_container (json);
}

void
_lode_details_end_array (DetailsJson *json)
{
  end_container (json);
}

void
_lode_details_set_member_name (DetailsJson *json,
                               const char  *member)
{
  json->member = member;
}

void
_lode_details_add_string_value (DetailsJson *json,
                                const char  *value)
{
  begin_value (json);
  if (value == NULL)
    g_string_append (json->out, "null");
  else
    lode_json_append_string (json->out, value);
  end_value (json);
}

void
_lode_details_add_int_value (DetailsJson *json,
                             gint64       value)
{
  begin_value (json);
  g_string_append_printf (json->out, "%" G_GINT64_FORMAT, value);
  end_value (json);
}

void
_lode_details_add_boolean_value (DetailsJson *json,
                                 gboolean     value)
{
  begin_value (json);
  g_string_append (json->out, value ? "true" : "false");
  end_value (json);
}

/* Appends @text, the JSON another writer wrote, as a value. */
void
_lode_details_add_json (DetailsJson *json,
                        const char  *text)
{
  begin_value (json);
  g_string_append (json->out, text);
  end_value (json);
}
