/* lode-calls-entries.c — where a framework or a command table calls into the code
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-calls"

#include "config.h"

#include <string.h>

#include "lode-calls-private.h"

/*
 * Entry points the code states (issue #28), each an ENTRY binding (#LodeCallBindingKind):
 *
 *   command  a row of a C or C++ table of commands, `{ "add", cmd_add, RUN_SETUP }` in
 *            `struct cmd_struct commands[]` (the table's variable or struct type names
 *            commands: `cmd`, `command`, `builtin`)
 *   route    a handler given to a router with its path: Go `http.HandleFunc("/x", h)`,
 *            `mux.Handle`, Gin, Echo and chi `r.GET("/x", h)`; Express, Koa and Fastify
 *            `app.get('/x', h)`; Django `path('x/', views.x)`; Axum
 *            `.route("/x", get(h).post(g))`; Laravel `Route::get('/x', [C::class, 'm'])`;
 *            or a definition its decorator or annotation routes: Flask and FastAPI
 *            `@app.route('/x')`, `@router.get('/x')`, Spring `@GetMapping("/x")`, Actix
 *            `#[get("/x")]`
 *
 * A handler named in a table or a router call is also a call site flagged
 * %LODE_CALL_REGISTRATION, so that the resolver finds its definition by the same rules as a
 * call's; it is never counted as a call. A router path must start with `/` (or be a Go
 * pattern, `GET /x`): `cache.get("key", fallback)` is not a route.
 */

#define LABEL_MAX 120

static const char * const http_verbs[] = {
  "get", "post", "put", "delete", "patch", "head", "options", "all", "any", NULL
};

static gboolean
is_verb (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return g_strv_contains (http_verbs, lower);
}

/* The text of a string literal without its quotes (and a Python or Rust prefix). */
static char *
string_value (Walk   *w,
              TSNode  node)
{
  static const char * const strings[] = {
    "string_literal", "string", "interpreted_string_literal", "raw_string_literal",
    "template_string", "encapsed_string", NULL
  };
  g_autofree char *text = NULL;
  char *start, *end;

  if (!type_in (node, strings))
    return NULL;
  text = text_range (w->x, ts_node_start_byte (node), ts_node_end_byte (node), LABEL_MAX);
  start = text;
  while (*start != '\0' && strchr ("\"'`", *start) == NULL)
    start++;
  if (*start == '\0')
    return NULL;
  end = strrchr (start + 1, *start);
  if (end == NULL)
    return NULL;
  return g_strndup (start + 1, end - start - 1);
}

static gboolean
is_route_path (const char *path)
{
  const char *space;

  if (path == NULL)
    return FALSE;
  if (path[0] == '/')
    return TRUE;
  /* Go 1.22: "GET /items/{id}". */
  space = strchr (path, ' ');
  return space != NULL && space[1] == '/';
}

static char *
route_label (const char *verb,
             const char *path)
{
  g_autofree char *upper = NULL;

  if (verb == NULL || !is_verb (verb))
    return g_strdup (path);
  upper = g_ascii_strup (verb, -1);
  return g_strdup_printf ("%s %s", upper, path);
}

/* The last name of a callee or a decorator's function (`app.route` → `route`). */
static char *
last_name (Walk   *w,
           TSNode  node)
{
  g_autofree char *text = NULL;
  const char *last;

  if (ts_node_is_null (node))
    return NULL;
  text = _lode_calls_squeeze (w, ts_node_start_byte (node), ts_node_end_byte (node));
  if (text == NULL)
    return NULL;
  last = text + strlen (text);
  while (last > text && (g_ascii_isalnum (last[-1]) || last[-1] == '_'))
    last--;
  return *last != '\0' ? g_strdup (last) : NULL;
}

/* Registers the function @value names (an identifier, `pkg.F`, `h.Method`) under @label. */
static void
register_value (Walk       *w,
                TSNode      value,
                const char *reason,
                const char *label)
{
  guint before = w->calls->sites->len;
  LodeCallSite *site;

  if (ts_node_is_null (value) || label == NULL)
    return;
  _lode_calls_visit_callee (w, value, LODE_CALL_REGISTRATION);
  if (w->calls->sites->len != before + 1)
    return;
  site = g_ptr_array_index (w->calls->sites, before);
  lode_calls_add_binding (w->calls, LODE_CALL_BINDING_ENTRY, -1, label, reason, site->name,
                          site->line);
}

/* A call whose arguments are a path and handlers. */
static TSNode
arguments_of (TSNode call)
{
  TSNode args = field (call, "arguments");

  if (ts_node_is_null (args))
    args = child_in (call, (const char * const []) { "argument_list", "arguments", NULL });
  return args;
}

/* An argument as written, without PHP's `argument` and array element wrappers. */
static TSNode
argument_value (TSNode arg)
{
  if (type_in (arg, (const char * const []) { "argument", "array_element_initializer", NULL }) &&
      n_named (arg) > 0)
    return nth_named (arg, n_named (arg) - 1);
  return arg;
}

static void
register_handler (Walk       *w,
                  TSNode      handler,
                  const char *label)
{
  handler = argument_value (handler);
  /* Go `http.HandlerFunc(h)`: the function converted. */
  if (is_type (handler, "call_expression") && n_named (arguments_of (handler)) == 1)
    {
      g_autofree char *name = last_name (w, field (handler, "function"));

      if (g_strcmp0 (name, "HandlerFunc") == 0)
        handler = nth_named (arguments_of (handler), 0);
    }
  /* Laravel `[UserController::class, 'index']`. */
  if (is_type (handler, "array_creation_expression") && n_named (handler) == 2)
    {
      TSNode klass = argument_value (nth_named (handler, 0));
      g_autofree char *method = string_value (w, argument_value (nth_named (handler, 1)));
      TSNode scope = nth_named (klass, 0);

      if (method != NULL && is_type (klass, "class_constant_access_expression") &&
          !ts_node_is_null (scope))
        {
          g_autofree char *qualifier = _lode_calls_squeeze (w, ts_node_start_byte (scope),
                                                            ts_node_end_byte (scope));
          guint line = ts_node_start_point (handler).row + 1;

          _lode_calls_add_site (w->calls, g_strdup (method), g_steal_pointer (&qualifier), line,
                                _lode_calls_caller (w), LODE_CALL_SCOPED | LODE_CALL_REGISTRATION);
          lode_calls_add_binding (w->calls, LODE_CALL_BINDING_ENTRY, -1, label, "route",
                                  method, line);
        }
      return;
    }
  if (type_in (handler, (const char * const []) {
                 "identifier", "selector_expression", "member_expression", "attribute",
                 "field_expression", "scoped_identifier", NULL }))
    register_value (w, handler, "route", label);
}

/* Axum: `.route("/x", get(list).post(create))`. */
static void
register_method_router (Walk       *w,
                        TSNode      value,
                        const char *path)
{
  for (guint depth = 0; depth < 8 && is_type (value, "call_expression"); depth++)
    {
      TSNode function = field (value, "function");
      g_autofree char *verb = last_name (w, function);
      TSNode args = arguments_of (value);

      if (verb != NULL && is_verb (verb) && n_named (args) == 1)
        {
          g_autofree char *label = route_label (verb, path);

          register_handler (w, nth_named (args, 0), label);
        }
      if (!is_type (function, "field_expression"))
        return;
      value = field (function, "value");
    }
}

/**
 * _lode_calls_visit_registration:
 * @w: the walk
 * @call: a call expression
 *
 * Registers the handlers a router call names (see above).
 */
void
_lode_calls_visit_registration (Walk   *w,
                                TSNode  call)
{
  Lang lang = w->x->lang;
  TSNode function, args;
  g_autofree char *method = NULL;
  g_autofree char *path = NULL;
  guint n;

  if (lang != LANG_GO && lang != LANG_JS && lang != LANG_TS && lang != LANG_PHP &&
      lang != LANG_PYTHON && lang != LANG_RUST)
    return;
  function = field (call, "function");
  args = arguments_of (call);
  n = n_named (args);
  if (n < 2)
    return;
  if (ts_node_is_null (function))
    function = field (call, "name");
  method = last_name (w, function);
  if (method == NULL)
    return;
  path = string_value (w, argument_value (nth_named (args, 0)));
  if (path == NULL)
    return;

  switch (lang)
    {
    case LANG_GO:
      if ((strcmp (method, "HandleFunc") == 0 || strcmp (method, "Handle") == 0 ||
           is_verb (method)) && is_route_path (path))
        {
          g_autofree char *label = route_label (method, path);

          register_handler (w, nth_named (args, n - 1), label);
        }
      break;
    case LANG_JS:
    case LANG_TS:
      if (is_verb (method) && is_route_path (path))
        {
          g_autofree char *label = route_label (method, path);

          register_handler (w, nth_named (args, n - 1), label);
        }
      break;
    case LANG_PHP:
      {
        TSNode scope = field (call, "scope");

        if (is_verb (method) && is_route_path (path) && !ts_node_is_null (scope) &&
            text_equals (w->x, scope, "Route"))
          {
            g_autofree char *label = route_label (method, path);

            register_handler (w, nth_named (args, 1), label);
          }
      }
      break;
    case LANG_PYTHON:
      /* Django's URLconf: `path('orders/<int:pk>/', views.order_detail)`. */
      if ((strcmp (method, "path") == 0 || strcmp (method, "re_path") == 0) &&
          is_type (function, "identifier"))
        {
          g_autofree char *label = g_strconcat (path[0] == '/' ? "" : "/", path, NULL);
          TSNode view = argument_value (nth_named (args, 1));

          if (type_in (view, (const char * const []) { "identifier", "attribute", NULL }))
            register_value (w, view, "route", label);
        }
      break;
    case LANG_RUST:
      if (strcmp (method, "route") == 0 && is_route_path (path))
        register_method_router (w, nth_named (args, 1), path);
      break;
    case LANG_OTHER:
    case LANG_C:
    case LANG_CPP:
    case LANG_CSHARP:
    case LANG_JAVA:
    case LANG_RUBY:
    case LANG_KOTLIN:
    case LANG_SWIFT:
    default:
      break;
    }
}

static gboolean
names_commands (Walk   *w,
                TSNode  node)
{
  g_autofree char *text = NULL;
  g_autofree char *lower = NULL;

  if (ts_node_is_null (node))
    return FALSE;
  text = _lode_calls_squeeze (w, ts_node_start_byte (node), ts_node_end_byte (node));
  if (text == NULL)
    return FALSE;
  lower = g_ascii_strdown (text, -1);
  return strstr (lower, "cmd") != NULL || strstr (lower, "command") != NULL ||
         strstr (lower, "builtin") != NULL;
}

/* Whether the table @list (an array's initializer) is one of commands: its variable or its
 * element type says so. */
static gboolean
is_command_table (Walk   *w,
                  TSNode  list)
{
  TSNode init = parent (list);
  TSNode declarator, declaration;

  if (!is_type (init, "init_declarator"))
    return FALSE;
  declarator = field (init, "declarator");
  if (!is_type (declarator, "array_declarator"))
    return FALSE;
  declaration = parent (init);
  return names_commands (w, field (declarator, "declarator")) ||
         names_commands (w, field (declaration, "type"));
}

/**
 * _lode_calls_visit_table_row:
 * @w: the walk
 * @row: a C or C++ initializer list
 *
 * Registers the function of a row of a table of commands, `{ "add", cmd_add, RUN_SETUP }`
 * or `{ .name = "add", .fn = cmd_add }`: the first string names the command, the first
 * plain name after it is the function (the resolver keeps it only if it is one).
 */
void
_lode_calls_visit_table_row (Walk   *w,
                             TSNode  row)
{
  g_autofree char *label = NULL;
  TSNode list = parent (row);

  if ((w->x->lang != LANG_C && w->x->lang != LANG_CPP) ||
      !is_type (list, "initializer_list") ||
      !type_in (nth_named (row, 0), (const char * const []) {
                  "string_literal", "initializer_pair", NULL }) ||
      !is_command_table (w, list))
    return;
  for (guint i = 0; i < n_named (row); i++)
    {
      TSNode value = nth_named (row, i);

      if (is_type (value, "initializer_pair"))
        value = field (value, "value");
      if (label == NULL)
        label = string_value (w, value);
      else if (is_type (value, "identifier"))
        {
          register_value (w, value, "command", label);
          return;
        }
    }
}

/* The route a decorator, an annotation or an attribute gives its definition, or NULL:
 * `@app.route("/x")`, `@router.get("/x")`, `@GetMapping("/x")`, `#[get("/x")]`. */
static char *
decorator_route (Walk   *w,
                 TSNode  decorator)
{
  static const char * const mappings[] = {
    "RequestMapping", "GetMapping", "PostMapping", "PutMapping", "DeleteMapping",
    "PatchMapping", NULL
  };
  TSNode call = null_node (), args;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  for (guint i = 0; i < n_named (decorator) && ts_node_is_null (call); i++)
    if (type_in (nth_named (decorator, i), (const char * const []) {
                   "call", "attribute", NULL }))
      call = nth_named (decorator, i);
  if (is_type (decorator, "annotation") || is_type (decorator, "marker_annotation"))
    call = decorator;
  if (ts_node_is_null (call))
    return NULL;

  if (is_type (call, "attribute") && w->x->lang == LANG_RUST)
    {
      /* Rust: (attribute (identifier) arguments: (token_tree (string_literal))). */
      TSNode tokens = field (call, "arguments");

      name = last_name (w, nth_named (call, 0));
      if (!ts_node_is_null (tokens) && n_named (tokens) > 0)
        path = string_value (w, nth_named (tokens, 0));
    }
  else if (is_type (call, "call"))
    {
      name = last_name (w, field (call, "function"));
      args = field (call, "arguments");
      if (n_named (args) > 0)
        path = string_value (w, nth_named (args, 0));
    }
  else if (is_type (call, "annotation") || is_type (call, "marker_annotation"))
    {
      name = last_name (w, field (call, "name"));
      args = field (call, "arguments");
      if (!ts_node_is_null (args) && n_named (args) > 0)
        {
          TSNode first = nth_named (args, 0);

          /* `@GetMapping(value = "/x")`, `@RequestMapping(path = "/x")`. */
          if (is_type (first, "element_value_pair"))
            first = field (first, "value");
          path = string_value (w, first);
        }
      if (name != NULL && g_strv_contains (mappings, name))
        {
          g_autofree char *verb = NULL;

          if (path == NULL)
            path = g_strdup ("/");
          if (strcmp (name, "RequestMapping") == 0)
            return g_steal_pointer (&path);
          verb = g_strndup (name, strlen (name) - strlen ("Mapping"));
          return route_label (verb, path);
        }
      return NULL;
    }
  if (name == NULL || !is_route_path (path))
    return NULL;
  if (strcmp (name, "route") == 0 || strcmp (name, "api_route") == 0)
    return g_steal_pointer (&path);
  return is_verb (name) ? route_label (name, path) : NULL;
}

/* Spring: the path of the `@RequestMapping` of the class around @method, or NULL. */
static char *
class_route (Walk   *w,
             TSNode  method)
{
  TSNode klass = parent (parent (method));
  TSNode modifiers = child_of_type (klass, "modifiers");

  for (guint i = 0; !ts_node_is_null (modifiers) && i < n_named (modifiers); i++)
    {
      TSNode annotation = nth_named (modifiers, i);
      g_autofree char *name = NULL;

      if (!is_type (annotation, "annotation"))
        continue;
      name = last_name (w, field (annotation, "name"));
      if (g_strcmp0 (name, "RequestMapping") == 0)
        return decorator_route (w, annotation);
    }
  return NULL;
}

static void
add_route (Walk       *w,
           guint       def,
           TSNode      decorator,
           const char *route)
{
  g_autofree char *prefix = NULL;
  g_autofree char *label = NULL;

  /* `GET /{id}` in a class mapped to `/api/orders`: `GET /api/orders/{id}`. */
  if (w->x->lang == LANG_JAVA && (prefix = class_route (w, w->defs[def])) != NULL)
    {
      const char *space = strchr (route, ' ');
      const char *path = space != NULL ? space + 1 : route;
      g_autofree char *verb = space != NULL ? g_strndup (route, space - route + 1) : NULL;
      gsize n = strlen (prefix);

      while (n > 0 && prefix[n - 1] == '/')
        n--;
      label = g_strdup_printf ("%s%.*s%s", verb != NULL ? verb : "", (int) n, prefix,
                               strcmp (path, "/") == 0 && n > 0 ? "" : path);
    }
  lode_calls_add_binding (w->calls, LODE_CALL_BINDING_ENTRY, def,
                          label != NULL ? label : route, "route", NULL,
                          ts_node_start_point (decorator).row + 1);
}

/**
 * _lode_calls_visit_decorated:
 * @w: the walk
 * @def: a function or method just entered
 *
 * Registers @def when its decorators, annotations or attributes route it.
 */
void
_lode_calls_visit_decorated (Walk  *w,
                             guint  def)
{
  TSNode node = w->defs[def];
  TSNode holder = null_node ();
  TSNode decorator;
  Lang lang = w->x->lang;

  switch (lang)
    {
    case LANG_PYTHON:
      holder = is_type (node, "decorated_definition") ? node : parent (node);
      if (!is_type (holder, "decorated_definition"))
        return;
      break;
    case LANG_JAVA:
      holder = child_of_type (node, "modifiers");
      break;
    case LANG_RUST:
      /* The attributes are the siblings before the item. */
      for (decorator = prev_named (node); is_type (decorator, "attribute_item");
           decorator = prev_named (decorator))
        {
          g_autofree char *label = decorator_route (w, decorator);

          if (label != NULL)
            {
              add_route (w, def, decorator, label);
              return;
            }
        }
      return;
    case LANG_OTHER:
    case LANG_C:
    case LANG_CPP:
    case LANG_CSHARP:
    case LANG_GO:
    case LANG_JS:
    case LANG_TS:
    case LANG_KOTLIN:
    case LANG_PHP:
    case LANG_RUBY:
    case LANG_SWIFT:
    default:
      return;
    }
  for (guint i = 0; !ts_node_is_null (holder) && i < n_named (holder); i++)
    {
      g_autofree char *label = NULL;

      decorator = nth_named (holder, i);
      if (!type_in (decorator, (const char * const []) {
                      "decorator", "annotation", "marker_annotation", NULL }))
        continue;
      label = decorator_route (w, decorator);
      if (label != NULL)
        {
          add_route (w, def, decorator, label);
          return;
        }
    }
}
