/* test-json.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-json.h"

static JsonNode *
parse_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = lode_json_parse (text, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (node);
  return node;
}

static void
parse_refused (const char *text,
               gssize      length,
               const char *why)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = lode_json_parse (text, length, &error);

  g_assert_null (node);
  g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA);
  if (strstr (error->message, why) == NULL)
    g_error ("“%s” does not say “%s”", error->message, why);
}

static const char *
member_string (JsonNode   *node,
               const char *name)
{
  return json_object_get_string_member (json_node_get_object (node), name);
}

/* 100,000 nested arrays or objects (a 100 KB message) crashed every JSON reader of Lode:
 * json-glib recurses once per level. */
static void
test_depth (void)
{
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GString) objects = g_string_new (NULL);
  g_autoptr(GString) limit = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  parse_refused (deep->str, deep->len, "nested deeper than 128 levels");

  for (guint i = 0; i < 100000; i++)
    g_string_append (objects, "{\"a\":");
  parse_refused (objects->str, -1, "nested deeper than 128 levels");

  /* Up to the limit is fine; brackets in strings do not count. */
  for (guint i = 0; i < LODE_JSON_MAX_DEPTH; i++)
    g_string_append_c (limit, '[');
  g_string_append (limit, "\"[[[[{{{{\"");
  for (guint i = 0; i < LODE_JSON_MAX_DEPTH; i++)
    g_string_append_c (limit, ']');
  node = parse_ok (limit->str);
  g_assert_true (JSON_NODE_HOLDS_ARRAY (node));

  g_string_prepend_c (limit, '[');
  g_string_append_c (limit, ']');
  parse_refused (limit->str, -1, "nested deeper");
}

/* "ping\u0000x" was read as "ping": a name or a path is refused rather than cut. */
static void
test_nul (void)
{
  parse_refused ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\\u0000x\"}", -1, "U+0000");
  parse_refused ("{\"a\\u0000b\":1}", -1, "U+0000");
  parse_refused ("{\"method\":\"ping\0x\"}", 19, "NUL byte");

  /* An escaped backslash before u0000 is not an escape of U+0000. */
  {
    g_autoptr(JsonNode) node = parse_ok ("{\"p\":\"C:\\\\u0000\"}");

    g_assert_cmpstr (member_string (node, "p"), ==, "C:\\u0000");
  }
}

/* "\ud800" decoded to bytes that are not UTF-8 (and swallowed the next character). */
static void
test_surrogates (void)
{
  g_autoptr(JsonNode) lone = parse_ok ("{\"a\":\"x\\ud800y\",\"b\":\"\\udc00\",\"c\":\"z\\uDBFF\"}");
  g_autoptr(JsonNode) pair = parse_ok ("{\"a\":\"x\\ud83d\\ude00y\"}");
  g_autoptr(JsonNode) reversed = parse_ok ("{\"a\":\"\\ude00\\ud83d\"}");

  g_assert_cmpstr (member_string (lone, "a"), ==, "x\xef\xbf\xbdy");
  g_assert_cmpstr (member_string (lone, "b"), ==, "\xef\xbf\xbd");
  g_assert_cmpstr (member_string (lone, "c"), ==, "z\xef\xbf\xbd");
  g_assert_cmpstr (member_string (pair, "a"), ==, "x\xf0\x9f\x98\x80y");
  g_assert_cmpstr (member_string (reversed, "a"), ==, "\xef\xbf\xbd\xef\xbf\xbd");
}

/* 2^64 read as -1 and 1e400 as infinity (written back as "inf.0"). */
static void
test_numbers (void)
{
  g_autoptr(JsonNode) ok = NULL;
  JsonObject *object;

  parse_refused ("{\"id\":18446744073709551616}", -1, "18446744073709551616");
  parse_refused ("{\"id\":9223372036854775808}", -1, "out of range");
  parse_refused ("{\"id\":-9223372036854775809}", -1, "out of range");
  parse_refused ("{\"limit\":1e400}", -1, "1e400");
  parse_refused ("[-1E+400]", -1, "out of range");

  ok = parse_ok ("{\"a\":9223372036854775807,\"b\":-9223372036854775808,\"c\":1e-400,"
                 "\"d\":1.5e308,\"e\":\"99999999999999999999\"}");
  object = json_node_get_object (ok);
  g_assert_cmpint (json_object_get_int_member (object, "a"), ==, G_MAXINT64);
  g_assert_cmpint (json_object_get_int_member (object, "b"), ==, G_MININT64);
  g_assert_cmpfloat (json_object_get_double_member (object, "c"), ==, 0.0);
  g_assert_cmpfloat (json_object_get_double_member (object, "d"), ==, 1.5e308);
}

/* The fuzzer's input: json-glib read "\u\\…" in a key as bytes that are not UTF-8. */
static void
test_escapes (void)
{
  g_autoptr(JsonNode) ok = parse_ok ("{\"a\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"}");

  g_assert_cmpstr (member_string (ok, "a"), ==, "\"\\/\b\f\n\r\t\xc3\xa9");
  parse_refused ("{\"\\R\\u\\\\\\\\\\\\udep]\\\\\\ouslimit\": 7}", -1, "invalid escape");
  parse_refused ("[\"\\u12\"]", -1, "invalid escape");
  parse_refused ("[\"\\x41\"]", -1, "invalid escape");
  parse_refused ("[\"tail\\", -1, "invalid escape");
}

static void
test_malformed (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = lode_json_parse ("{\"a\":", -1, &error);

  g_assert_null (node);
  g_assert_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_PARSE);
  g_clear_error (&error);

  g_assert_null (lode_json_parse ("", 0, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_null (lode_json_parse ("\"unterminated \\u", -1, &error));
  g_assert_nonnull (error);
}

/* json-glib reads C comments, single-quoted strings and hexadecimal numbers. A quote inside
 * a comment hid the 100,000 `[` after it from the depth count, and lode-mcp crashed; a quote
 * in a single-quoted string hid `\u0000`; a hexadecimal id wrapped around to -1. What is not
 * JSON is refused before json-glib sees it. */
static void
test_not_json (void)
{
  g_autoptr(GString) hidden = g_string_new ("/*\"*/");
  g_autoptr(JsonNode) bom = NULL;
  g_autoptr(JsonNode) words = NULL;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (hidden, '[');
  g_string_append (hidden, "/*\"*/");
  parse_refused (hidden->str, hidden->len, "not JSON");

  parse_refused ("{\"id\":1,\"method\":\"ping\"} /* c */", -1, "not JSON");
  parse_refused ("{'method':'ping'}", -1, "not JSON");
  parse_refused ("['\"', \"\\u0000\", '\"']", -1, "not JSON");
  parse_refused ("{\"id\":0x1FFFFFFFFFFFFFFFFFFFF}", -1, "“x1FFFFFFFFFFFFFFFFFFFF”");
  parse_refused ("{\"id\":0x10}", -1, "not JSON");
  parse_refused ("[Infinity]", -1, "“Infinity”");
  parse_refused ("[nan]", -1, "not JSON");
  parse_refused ("[.5]", -1, "not JSON");

  /* What JSON allows still parses: its words, whitespace, and a byte-order mark first. */
  words = parse_ok (" [true,\tfalse,\r\nnull, -1.5e3, \"/* ' 0x \"]\n");
  g_assert_cmpuint (json_array_get_length (json_node_get_array (words)), ==, 5);
  g_assert_cmpstr (json_array_get_string_element (json_node_get_array (words), 4), ==,
                   "/* ' 0x ");
  bom = parse_ok ("\xef\xbb\xbf{\"a\":1}");
  g_assert_true (JSON_NODE_HOLDS_OBJECT (bom));
}

/* Indexed text holding U+001F made --json output and MCP replies unparseable. */
static void
test_output (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) back = NULL;
  g_autofree char *text = NULL;
  g_autofree char *pretty = NULL;
  g_autoptr(GString) controls = g_string_new (NULL);

  for (guint c = 1; c < 0x20; c++)
    g_string_append_c (controls, c);
  g_string_append (controls, "\x7f \"\\ end");

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, controls->str);
  json_builder_set_member_name (builder, "unit");
  json_builder_add_string_value (builder, "a\x1f" "b");
  json_builder_set_member_name (builder, "score");
  json_builder_add_double_value (builder, INFINITY);
  json_builder_set_member_name (builder, "low");
  json_builder_add_double_value (builder, -INFINITY);
  json_builder_set_member_name (builder, "nan");
  json_builder_add_double_value (builder, NAN);
  json_builder_set_member_name (builder, "null");
  json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "invalid");
  json_builder_add_string_value (builder, "bad \xff\xfe bytes");
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  text = lode_json_to_string (root, FALSE);
  g_assert_nonnull (strstr (text, "a\\u001fb"));
  g_assert_true (g_utf8_validate (text, -1, NULL));
  for (const char *p = text; *p != '\0'; p++)
    g_assert_cmpint ((guchar) *p, >=, 0x20);

  /* json-glib itself accepts U+001F raw; a strict reader (like the MCP clients') must too. */
  back = parse_ok (text);
  g_assert_cmpstr (member_string (back, "text"), ==, controls->str);
  g_assert_cmpstr (member_string (back, "unit"), ==, "a\x1f" "b");
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (json_node_get_object (back),
                                                               "score")));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (json_node_get_object (back),
                                                               "low")));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (json_node_get_object (back),
                                                               "nan")));
  g_assert_cmpstr (member_string (back, "invalid"), ==, "bad \xef\xbf\xbd\xef\xbf\xbd bytes");

  pretty = lode_json_to_string (root, TRUE);
  g_clear_pointer (&back, json_node_unref);
  back = parse_ok (pretty);
  g_assert_cmpstr (member_string (back, "unit"), ==, "a\x1f" "b");
}

/* What Lode writes reads back as the same values and types, members in their order:
 * json-glib wrote 1e20 as `1e+20.0`, which no reader accepts. */
static void
test_output_values (void)
{
  static const double doubles[] = { 1.0, 1e20, 0.9339285714285714, -2.5e-7, 5e-324,
                                    1.7976931348623157e308, -0.0, 0.1 };
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "doubles");
  json_builder_begin_array (builder);
  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    json_builder_add_double_value (builder, doubles[i]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "min");
  json_builder_add_int_value (builder, G_MININT64);
  json_builder_set_member_name (builder, "max");
  json_builder_add_int_value (builder, G_MAXINT64);
  json_builder_set_member_name (builder, "z");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_set_member_name (builder, "a");
  json_builder_begin_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "m");
  json_builder_begin_array (builder);
  json_builder_begin_array (builder);
  json_builder_end_array (builder);
  json_builder_add_string_value (builder, "é ✓ 𝄞");
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  for (int pretty = 0; pretty <= 1; pretty++)
    {
      g_autofree char *text = lode_json_to_string (root, pretty);
      g_autoptr(JsonNode) back = parse_ok (text);
      JsonObject *object = json_node_get_object (back);
      JsonArray *values = json_object_get_array_member (object, "doubles");
      JsonArray *mixed = json_object_get_array_member (object, "m");
      g_autoptr(GList) names = json_object_get_members (object);
      const char *order[] = { "doubles", "min", "max", "z", "a", "m" };
      guint i = 0;

      for (GList *l = names; l != NULL; l = l->next)
        g_assert_cmpstr (l->data, ==, order[i++]);
      g_assert_cmpuint (i, ==, G_N_ELEMENTS (order));

      g_assert_cmpuint (json_array_get_length (values), ==, G_N_ELEMENTS (doubles));
      for (i = 0; i < G_N_ELEMENTS (doubles); i++)
        {
          JsonNode *value = json_array_get_element (values, i);

          g_assert_cmpint (json_node_get_value_type (value), ==, G_TYPE_DOUBLE);
          g_assert_true (json_node_get_double (value) == doubles[i]);
        }
      g_assert_cmpint (json_object_get_int_member (object, "min"), ==, G_MININT64);
      g_assert_cmpint (json_object_get_int_member (object, "max"), ==, G_MAXINT64);
      g_assert_false (json_object_get_boolean_member (object, "z"));
      g_assert_cmpuint (json_object_get_size (json_object_get_object_member (object, "a")), ==, 0);
      g_assert_cmpuint (json_array_get_length (json_array_get_array_element (mixed, 0)), ==, 0);
      g_assert_cmpstr (json_array_get_string_element (mixed, 1), ==, "é ✓ 𝄞");
      g_assert_nonnull (strstr (text, "0.9339285714285714"));
    }
}

/* Members of an object from outside: the right type gives the value, anything else (missing,
 * null, another type, no object) the default, without criticals. */
static void
test_members (void)
{
  g_autoptr(JsonNode) root = lode_json_parse ("{\"s\": \"text\", \"n\": 42, \"b\": true, "
                                              "\"o\": {}, \"a\": [1], \"z\": null, "
                                              "\"d\": 1.5}", -1, NULL);
  JsonObject *object = json_node_get_object (root);

  g_assert_cmpstr (lode_json_get_string (object, "s"), ==, "text");
  g_assert_null (lode_json_get_string (object, "n"));
  g_assert_null (lode_json_get_string (NULL, "s"));
  g_assert_cmpint (lode_json_get_int (object, "n", -1), ==, 42);
  g_assert_cmpint (lode_json_get_int (object, "d", -1), ==, -1);
  g_assert_cmpint (lode_json_get_int (object, "z", -1), ==, -1);
  g_assert_cmpint (lode_json_get_int (object, "missing", 7), ==, 7);
  g_assert_true (lode_json_get_boolean (object, "b", FALSE));
  g_assert_false (lode_json_get_boolean (object, "s", FALSE));
  g_assert_true (lode_json_get_boolean (NULL, "b", TRUE));
  g_assert_nonnull (lode_json_get_object (object, "o"));
  g_assert_null (lode_json_get_object (object, "a"));
  g_assert_cmpuint (json_array_get_length (lode_json_get_array (object, "a")), ==, 1);
  g_assert_null (lode_json_get_array (object, "o"));
}

/* An object built member by member; a string that is NULL is written as null. */
static void
test_builder (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  lode_json_builder_add_string (builder, "name", "lode");
  lode_json_builder_add_string (builder, "none", NULL);
  lode_json_builder_add_int (builder, "count", -3);
  lode_json_builder_add_boolean (builder, "ok", TRUE);
  json_builder_end_object (builder);
  object = lode_json_builder_steal_object (builder);

  node = json_node_init_object (json_node_alloc (), object);
  text = lode_json_to_string (node, FALSE);
  g_assert_cmpstr (text, ==, "{\"name\":\"lode\",\"none\":null,\"count\":-3,\"ok\":true}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/json/depth", test_depth);
  g_test_add_func ("/lode/json/members", test_members);
  g_test_add_func ("/lode/json/builder", test_builder);
  g_test_add_func ("/lode/json/nul", test_nul);
  g_test_add_func ("/lode/json/surrogates", test_surrogates);
  g_test_add_func ("/lode/json/numbers", test_numbers);
  g_test_add_func ("/lode/json/escapes", test_escapes);
  g_test_add_func ("/lode/json/malformed", test_malformed);
  g_test_add_func ("/lode/json/not-json", test_not_json);
  g_test_add_func ("/lode/json/output", test_output);
  g_test_add_func ("/lode/json/output-values", test_output_values);

  return g_test_run ();
}
