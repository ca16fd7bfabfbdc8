/* lode-calls-bindings.c — what resolving calls needs: locals' types, fields, imports, bases
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-calls"

#include "config.h"

#include <string.h>

#include "lode-calls-private.h"

/*
 * Each declaration node the walk meets comes here with its type name. Inside a function,
 * parameters and locals go into its scope with the type the code states (or the call whose
 * result they hold); in a class, fields become bindings of the class; imports become
 * bindings of the file, one per name they bring in, on the line where the import
 * extractor (lode-imports.c) reads the same import, so that the resolver finds the files
 * the import graph resolved it to. Returns whether the walk should go on into the node
 * (initializers hold calls; parameter lists and imports do not).
 */

static guint
line_of (TSNode node)
{
  return ts_node_start_point (node).row + 1;
}

static char *
squeeze_node (Walk   *w,
              TSNode  node)
{
  if (ts_node_is_null (node))
    return NULL;
  return _lode_calls_squeeze (w, ts_node_start_byte (node), ts_node_end_byte (node));
}

static char *
type_of (Walk   *w,
         TSNode  node)
{
  g_autofree char *text = NULL;

  if (ts_node_is_null (node))
    return NULL;
  /* Python's `x: "Foo"`, TypeScript's `: Foo`. */
  text = text_of (w->x, node);
  return _lode_calls_clean_type (text);
}

static const char * const call_types[] = {
  "call_expression", "call", "method_invocation", "invocation_expression",
  "function_call_expression", "member_call_expression", "scoped_call_expression",
  "nullsafe_member_call_expression", NULL
};

/* The callee of call @node as written, without its arguments: `X::new`, `Foo.new`. */
static char *
callee_text (Walk   *w,
             TSNode  node)
{
  TSNode args = field (node, "arguments");
  guint32 end;
  g_autofree char *text = NULL;
  char *angle;

  if (ts_node_is_null (args))
    args = child_in (node, (const char * const []) {
                       "call_suffix", "value_arguments", "argument_list", "arguments", NULL });
  end = !ts_node_is_null (args) ? ts_node_start_byte (args) : ts_node_end_byte (node);
  text = _lode_calls_squeeze (w, ts_node_start_byte (node), end);
  if (text == NULL)
    return NULL;
  /* `X::new::<T>`, `make<Foo>` */
  angle = strchr (text, '<');
  if (angle != NULL)
    *angle = '\0';
  while (*text != '\0' && strchr (".:", text[strlen (text) - 1]) != NULL)
    text[strlen (text) - 1] = '\0';
  return *text != '\0' ? g_steal_pointer (&text) : NULL;
}

/* What the code states of the value @value: a type (`new Foo()`, `Foo{}`, `&T{}`) or the
 * call whose result it is (`Foo()`, `X::new()`, `NewT()`). */
gboolean
_lode_calls_value_type (Walk             *w,
                        TSNode            value,
                        LodeCallReceiver *kind,
                        char            **type)
{
  for (guint depth = 0; depth < 4 && !ts_node_is_null (value); depth++)
    {
      const char *t = ts_node_type (value);

      if (strcmp (t, "parenthesized_expression") == 0 || strcmp (t, "reference_expression") == 0 ||
          strcmp (t, "await_expression") == 0 || strcmp (t, "try_expression") == 0 ||
          (strcmp (t, "unary_expression") == 0 && n_named (value) == 1) ||
          strcmp (t, "equals_value_clause") == 0)
        {
          TSNode inner = field (value, "value");

          if (ts_node_is_null (inner))
            inner = field (value, "operand");
          if (ts_node_is_null (inner))
            inner = field (value, "argument");
          if (ts_node_is_null (inner))
            inner = nth_named (value, n_named (value) - 1);
          value = inner;
          continue;
        }
      if (strcmp (t, "new_expression") == 0 || strcmp (t, "object_creation_expression") == 0)
        {
          TSNode ctor = field (value, "constructor");

          if (ts_node_is_null (ctor))
            ctor = field (value, "type");
          if (ts_node_is_null (ctor))
            ctor = child_in (value, (const char * const []) {
                               "name", "qualified_name", "identifier", "type_identifier",
                               "generic_type", "scoped_type_identifier", NULL });
          *type = type_of (w, ctor);
          *kind = LODE_CALL_RECEIVER_TYPE;
          return *type != NULL;
        }
      if (strcmp (t, "composite_literal") == 0 || strcmp (t, "struct_expression") == 0)
        {
          TSNode ctor = field (value, "type");

          if (ts_node_is_null (ctor))
            ctor = field (value, "name");
          *type = type_of (w, ctor);
          *kind = LODE_CALL_RECEIVER_TYPE;
          return *type != NULL;
        }
      if (type_in (value, call_types))
        {
          *type = callee_text (w, value);
          *kind = LODE_CALL_RECEIVER_RESULT;
          return *type != NULL;
        }
      return FALSE;
    }
  return FALSE;
}

/* Declares @name with the type @type_node states, else with what @value states. */
static void
declare (Walk   *w,
         TSNode  name,
         TSNode  type_node,
         TSNode  value)
{
  g_autofree char *type = NULL;
  LodeCallReceiver kind = LODE_CALL_RECEIVER_TYPE;

  if (ts_node_is_null (name))
    return;
  if (is_type (name, "mut_pattern") || is_type (name, "pattern"))
    name = nth_named (name, 0);
  if (!ts_node_is_null (type_node))
    {
      type = type_of (w, type_node);
      if (type != NULL && (strcmp (type, "var") == 0 || strcmp (type, "auto") == 0 ||
                           strcmp (type, "let") == 0 || strcmp (type, "val") == 0))
        g_clear_pointer (&type, g_free);
    }
  if (type == NULL && !ts_node_is_null (value))
    _lode_calls_value_type (w, value, &kind, &type);
  _lode_calls_declare (w, name, kind, type);
}

/* A field of the class around the walk (or around the method the walk is in). */
static void
add_field (Walk       *w,
           gint        class_def,
           TSNode      name,
           TSNode      type_node,
           TSNode      value)
{
  g_autofree char *text = squeeze_node (w, name);
  g_autofree char *type = NULL;
  LodeCallReceiver kind = LODE_CALL_RECEIVER_TYPE;
  const char *key;

  if (class_def < 0 || text == NULL)
    return;
  key = text;
  while (*key == '$' || *key == '@')
    key++;
  if (!ts_node_is_null (type_node))
    type = type_of (w, type_node);
  if (type == NULL && !ts_node_is_null (value))
    _lode_calls_value_type (w, value, &kind, &type);
  if (type == NULL || *key == '\0')
    return;
  lode_calls_add_binding (w->calls,
                          kind == LODE_CALL_RECEIVER_RESULT ? LODE_CALL_BINDING_FIELD_RESULT
                                                            : LODE_CALL_BINDING_FIELD,
                          class_def, key, type, NULL, line_of (name));
}

/* The class whose method the walk is in: the container of `self.x = …`. */
static gint
class_of_method (Walk *w)
{
  for (guint i = w->frames->len; i > 0; i--)
    {
      guint def = g_array_index (w->frames, Frame, i - 1).def;
      const char *kind = w->kinds[def];

      if (strcmp (kind, "function") != 0 && strcmp (kind, "method") != 0 &&
          strcmp (kind, "constructor") != 0)
        return _lode_calls_class (w) >= 0 ? _lode_calls_class (w) : (gint) def;
    }
  return -1;
}

/* `self.x`, `this.x`, `$this->x`, `@x` → the field's name node, else null. */
static TSNode
self_field (Walk   *w,
            TSNode  left)
{
  TSNode object, name = null_node ();

  if (is_type (left, "instance_variable"))
    return left;
  object = field (left, "object");
  if (ts_node_is_null (object))
    return null_node ();
  name = field (left, "attribute");
  if (ts_node_is_null (name))
    name = field (left, "property");
  if (ts_node_is_null (name))
    name = field (left, "name");
  if (text_equals (w->x, object, "self") || text_equals (w->x, object, "this") ||
      text_equals (w->x, object, "$this"))
    return name;
  return null_node ();
}

static void
assignment (Walk   *w,
            TSNode  node)
{
  TSNode left = field (node, "left");
  TSNode right = field (node, "right");
  TSNode name = self_field (w, left);

  if (!ts_node_is_null (name))
    {
      add_field (w, class_of_method (w), name, field (node, "type"), right);
      return;
    }
  if (is_type (left, "identifier") || is_type (left, "variable_name"))
    declare (w, left, field (node, "type"), right);
}

/* C and C++ declarators: `x`, `*x`, `x = v`, `(*fn)(int)`; a function's own prototype
 * declares no local. */
static void
c_declarators (Walk     *w,
               TSNode    node,
               gboolean  fields)
{
  TSNode type = field (node, "type");
  gboolean is_cpp = w->x->lang == LANG_CPP;

  for (uint32_t i = 0; i < n_named (node); i++)
    {
      TSNode declarator = nth_named (node, i), value = null_node (), name;

      if (ts_node_eq (declarator, type))
        continue;
      if (is_type (declarator, "init_declarator"))
        {
          value = field (declarator, "value");
          declarator = field (declarator, "declarator");
        }
      if (is_type (declarator, "function_declarator") &&
          is_type (field (declarator, "declarator"), "identifier"))
        continue;
      if (!type_in (declarator, (const char * const []) {
                      "identifier", "field_identifier", "pointer_declarator",
                      "reference_declarator", "array_declarator", "function_declarator",
                      "parenthesized_declarator", NULL }))
        continue;
      name = _lode_symbol_declarator_name (declarator);
      if (is_type (name, "parenthesized_declarator") || is_type (name, "pointer_declarator"))
        name = _lode_symbol_declarator_name (nth_named (name, 0));
      if (fields)
        add_field (w, _lode_calls_class (w), name, type, value);
      else
        declare (w, name, is_cpp ? type : null_node (), is_cpp ? value : null_node ());
    }
}

/* Java/C# declarators under a type: `Foo a = …, b;`. */
static void
typed_declarators (Walk     *w,
                   TSNode    node,
                   TSNode    type,
                   gboolean  fields)
{
  for (uint32_t i = 0; i < n_named (node); i++)
    {
      TSNode declarator = nth_named (node, i);
      TSNode name, value;

      if (!is_type (declarator, "variable_declarator"))
        continue;
      name = field (declarator, "name");
      if (ts_node_is_null (name))
        name = child_of_type (declarator, "identifier");
      value = field (declarator, "value");
      if (ts_node_is_null (value))
        value = nth_named (child_of_type (declarator, "equals_value_clause"), 0);
      if (ts_node_is_null (value) && n_named (declarator) >= 2)
        value = nth_named (declarator, n_named (declarator) - 1);
      if (fields)
        add_field (w, _lode_calls_class (w), name, type, value);
      else
        declare (w, name, type, value);
    }
}

/* Untyped parameters: the identifiers of a parameter list. */
static void
plain_parameters (Walk   *w,
                  TSNode  list)
{
  for (uint32_t i = 0; i < n_named (list); i++)
    {
      TSNode param = nth_named (list, i);

      if (is_type (param, "identifier"))
        declare (w, param, null_node (), null_node ());
      else if (is_type (param, "default_parameter") || is_type (param, "assignment_pattern") ||
               is_type (param, "optional_parameter") || is_type (param, "keyword_parameter"))
        {
          TSNode name = field (param, "name");

          if (ts_node_is_null (name))
            name = field (param, "left");
          if (is_type (name, "identifier"))
            declare (w, name, null_node (), null_node ());
        }
    }
}

static void
parameter (Walk   *w,
           TSNode  node)
{
  TSNode name = field (node, "name"), type = field (node, "type");

  switch (w->x->lang)
    {
    case LANG_C:
    case LANG_CPP:
      if (!is_type (node, "parameter_declaration"))
        return;
      name = _lode_symbol_declarator_name (field (node, "declarator"));
      if (is_type (name, "parenthesized_declarator") || is_type (name, "pointer_declarator"))
        name = _lode_symbol_declarator_name (nth_named (name, 0));
      declare (w, name, w->x->lang == LANG_CPP ? type : null_node (), null_node ());
      return;
    case LANG_GO:
      /* `a, b int`: every name field. */
      for (uint32_t i = 0; i < ts_node_child_count (node); i++)
        {
          const char *f = ts_node_field_name_for_child (node, i);

          if (f != NULL && strcmp (f, "name") == 0)
            declare (w, ts_node_child (node, i), type, null_node ());
        }
      return;
    case LANG_RUST:
      declare (w, field (node, "pattern"), type, null_node ());
      return;
    case LANG_TS:
    case LANG_JS:
      declare (w, field (node, "pattern"), field (node, "type"), null_node ());
      return;
    case LANG_PYTHON:
      if (ts_node_is_null (name))
        name = child_of_type (node, "identifier");
      declare (w, name, type, null_node ());
      return;
    case LANG_KOTLIN:
      name = child_of_type (node, "simple_identifier");
      type = child_in (node, (const char * const []) {
                         "user_type", "nullable_type", NULL });
      if (is_type (node, "class_parameter"))
        add_field (w, _lode_calls_class (w), name, type, null_node ());
      declare (w, name, type, null_node ());
      return;
    case LANG_PHP:
      if (is_type (node, "property_promotion_parameter"))
        add_field (w, class_of_method (w), name, type, null_node ());
      declare (w, name, type, null_node ());
      return;
    case LANG_SWIFT:
    case LANG_JAVA:
    case LANG_CSHARP:
    case LANG_RUBY:
    case LANG_OTHER:
    default:
      if (ts_node_is_null (name))
        name = child_in (node, (const char * const []) {
                           "identifier", "simple_identifier", NULL });
      declare (w, name, type, null_node ());
      return;
    }
}

/* Imports --------------------------------------------------------------------------------- */

static void
import (Walk       *w,
        const char *name,
        const char *target,
        const char *path,
        guint       line)
{
  if (name == NULL || *name == '\0')
    return;
  lode_calls_add_binding (w->calls,
                          w->reexporting ? LODE_CALL_BINDING_REEXPORT : LODE_CALL_BINDING_IMPORT,
                          -1, name, target, path, line);
}

static void
python_import (Walk   *w,
               TSNode  node,
               gboolean from)
{
  TSNode module = field (node, "module_name");
  g_autofree char *path = squeeze_node (w, module);
  guint line = from ? line_of (module) : 0;

  for (uint32_t i = 0; i < ts_node_child_count (node); i++)
    {
      TSNode child = ts_node_child (node, i);
      const char *f = ts_node_field_name_for_child (node, i);
      g_autofree char *name = NULL;
      g_autofree char *alias = NULL;

      if (is_type (child, "wildcard_import"))
        {
          import (w, "*", "*", path, line);
          continue;
        }
      if (f == NULL || strcmp (f, "name") != 0)
        continue;
      if (is_type (child, "aliased_import"))
        {
          name = squeeze_node (w, field (child, "name"));
          alias = squeeze_node (w, field (child, "alias"));
        }
      else
        name = squeeze_node (w, child);
      if (from)
        import (w, alias != NULL ? alias : name, name, path, line);
      else
        import (w, alias != NULL ? alias : name, NULL, name, line_of (child));
    }
}

static void
js_import (Walk   *w,
           TSNode  node)
{
  TSNode source = field (node, "source");
  TSNode clause = child_of_type (node, "import_clause");
  g_autofree char *path = NULL;
  guint line;

  if (ts_node_is_null (source))
    return;
  path = squeeze_node (w, source);
  line = line_of (source);
  if (path != NULL && strlen (path) >= 2)
    {
      memmove (path, path + 1, strlen (path) - 1);
      path[strlen (path) - 2] = '\0';
    }

  /* `export * from './x'`, `export { a as b } from './x'` */
  if (is_type (node, "export_statement"))
    {
      TSNode clause_e = child_of_type (node, "export_clause");

      if (ts_node_is_null (clause_e))
        {
          import (w, "*", "*", path, line);
          return;
        }
      for (uint32_t i = 0; i < n_named (clause_e); i++)
        {
          TSNode spec = nth_named (clause_e, i);
          g_autofree char *name = squeeze_node (w, field (spec, "name"));
          g_autofree char *alias = squeeze_node (w, field (spec, "alias"));

          import (w, alias != NULL ? alias : name, name, path, line);
        }
      return;
    }

  for (uint32_t i = 0; i < n_named (clause); i++)
    {
      TSNode part = nth_named (clause, i);

      if (is_type (part, "identifier"))
        {
          g_autofree char *name = squeeze_node (w, part);

          import (w, name, "default", path, line);
        }
      else if (is_type (part, "namespace_import"))
        {
          g_autofree char *name = squeeze_node (w, nth_named (part, 0));

          import (w, name, NULL, path, line);
        }
      else if (is_type (part, "named_imports"))
        for (uint32_t j = 0; j < n_named (part); j++)
          {
            TSNode spec = nth_named (part, j);
            g_autofree char *name = squeeze_node (w, field (spec, "name"));
            g_autofree char *alias = squeeze_node (w, field (spec, "alias"));

            if (is_type (spec, "import_specifier"))
              import (w, alias != NULL ? alias : name, name, path, line);
          }
    }
}

/* `const x = require('y')`, `const { a, b: c } = require('y')` */
static gboolean
js_require (Walk   *w,
            TSNode  name,
            TSNode  value)
{
  TSNode args, source;
  g_autofree char *path = NULL;
  guint line;

  if (!is_type (value, "call_expression") || !text_equals (w->x, field (value, "function"),
                                                            "require"))
    return FALSE;
  args = field (value, "arguments");
  source = nth_named (args, 0);
  if (!is_type (source, "string"))
    return FALSE;
  path = squeeze_node (w, source);
  line = line_of (source);
  if (path == NULL || strlen (path) < 2)
    return FALSE;
  memmove (path, path + 1, strlen (path) - 1);
  path[strlen (path) - 2] = '\0';
  if (is_type (name, "identifier"))
    {
      g_autofree char *local = squeeze_node (w, name);

      import (w, local, NULL, path, line);
    }
  else if (is_type (name, "object_pattern"))
    for (uint32_t i = 0; i < n_named (name); i++)
      {
        TSNode prop = nth_named (name, i);
        g_autofree char *key = NULL;
        g_autofree char *local = NULL;

        if (is_type (prop, "shorthand_property_identifier_pattern"))
          key = squeeze_node (w, prop);
        else if (is_type (prop, "pair_pattern"))
          {
            key = squeeze_node (w, field (prop, "key"));
            local = squeeze_node (w, field (prop, "value"));
          }
        import (w, local != NULL ? local : key, key, path, line);
      }
  return TRUE;
}

/* Rust use trees: one binding per leaf, on the line of the tree (as lode-imports.c). */
static void
rust_use_tree (Walk       *w,
               TSNode      node,
               const char *prefix,
               guint       line,
               guint       depth)
{
  g_autofree char *text = NULL;
  g_autofree char *path = NULL;

  if (depth > 8 || ts_node_is_null (node))
    return;
  if (is_type (node, "scoped_use_list"))
    {
      g_autofree char *head = squeeze_node (w, field (node, "path"));
      TSNode list = field (node, "list");

      path = prefix != NULL && head != NULL ? g_strconcat (prefix, "::", head, NULL)
                                             : g_strdup (head != NULL ? head : prefix);
      for (uint32_t i = 0; i < n_named (list); i++)
        rust_use_tree (w, nth_named (list, i), path, line, depth + 1);
      return;
    }
  if (is_type (node, "use_list"))
    {
      for (uint32_t i = 0; i < n_named (node); i++)
        rust_use_tree (w, nth_named (node, i), prefix, line, depth + 1);
      return;
    }
  if (is_type (node, "use_as_clause"))
    {
      g_autofree char *alias = squeeze_node (w, field (node, "alias"));
      const char *last;

      text = squeeze_node (w, field (node, "path"));
      if (text == NULL)
        return;
      path = prefix != NULL ? g_strconcat (prefix, "::", text, NULL) : g_strdup (text);
      last = g_strrstr (path, "::");
      import (w, alias, last != NULL ? last + 2 : path, path, line);
      return;
    }
  if (is_type (node, "use_wildcard"))
    {
      text = squeeze_node (w, node);
      if (text != NULL && g_str_has_suffix (text, "::*"))
        text[strlen (text) - 3] = '\0';
      path = prefix != NULL && text != NULL && strcmp (text, "*") != 0
             ? g_strconcat (prefix, "::", text, NULL)
             : g_strdup (text != NULL && strcmp (text, "*") != 0 ? text : prefix);
      import (w, "*", "*", path, line);
      return;
    }
  text = squeeze_node (w, node);
  if (text == NULL)
    return;
  if (strcmp (text, "self") == 0 && prefix != NULL)
    {
      const char *last = g_strrstr (prefix, "::");

      import (w, last != NULL ? last + 2 : prefix, NULL, prefix, line);
      return;
    }
  path = prefix != NULL ? g_strconcat (prefix, "::", text, NULL) : g_strdup (text);
  {
    const char *last = g_strrstr (path, "::");
    const char *name = last != NULL ? last + 2 : path;

    import (w, name, name, path, line);
  }
}

/* `a.b.C` → `C`; `a\b\C` → `C`. */
static const char *
last_part (const char *path)
{
  const char *dot = strrchr (path, '.');
  const char *backslash = strrchr (path, '\\');
  const char *last = MAX (dot, backslash);

  return last != NULL ? last + 1 : path;
}

static void
dotted_import (Walk       *w,
               TSNode      node,
               TSNode      path_node,
               TSNode      alias_node,
               gboolean    wildcard)
{
  g_autofree char *path = squeeze_node (w, path_node);
  g_autofree char *alias = squeeze_node (w, alias_node);
  guint line = line_of (path_node);

  if (path == NULL)
    return;
  if (g_str_has_prefix (path, "static"))
    memmove (path, path + 6, strlen (path) - 5);
  if (g_str_has_suffix (path, ".*"))
    {
      path[strlen (path) - 2] = '\0';
      wildcard = TRUE;
    }
  if (wildcard)
    import (w, "*", "*", path, line);
  else
    import (w, alias != NULL ? alias : last_part (path), last_part (path), path, line);
  (void) node;
}

static void
import_node (Walk       *w,
             TSNode      node,
             const char *type)
{
  Lang lang = w->x->lang;

  if (strcmp (type, "import_statement") == 0 && lang == LANG_PYTHON)
    python_import (w, node, FALSE);
  else if (strcmp (type, "import_from_statement") == 0)
    python_import (w, node, TRUE);
  else if ((strcmp (type, "import_statement") == 0 || strcmp (type, "export_statement") == 0) &&
           (lang == LANG_JS || lang == LANG_TS))
    {
      w->reexporting = strcmp (type, "export_statement") == 0;
      js_import (w, node);
      w->reexporting = FALSE;
    }
  else if (strcmp (type, "import_spec") == 0)
    {
      TSNode path_node = field (node, "path");
      TSNode name = field (node, "name");
      g_autofree char *path = squeeze_node (w, path_node);
      g_autofree char *alias = squeeze_node (w, name);
      const char *last;

      if (path == NULL || strlen (path) < 2)
        return;
      memmove (path, path + 1, strlen (path) - 1);
      path[strlen (path) - 2] = '\0';
      last = strrchr (path, '/');
      if (alias != NULL && strcmp (alias, ".") == 0)
        import (w, "*", "*", path, line_of (path_node));
      else if (alias == NULL || strcmp (alias, "_") != 0)
        import (w, alias != NULL ? alias : (last != NULL ? last + 1 : path), NULL, path,
                line_of (path_node));
    }
  else if (strcmp (type, "use_declaration") == 0)
    {
      TSNode argument = field (node, "argument");

      /* `pub use`, `pub(crate) use`: the names are the module's too. */
      w->reexporting = !ts_node_is_null (child_of_type (node, "visibility_modifier"));
      rust_use_tree (w, argument, NULL, line_of (argument), 0);
      w->reexporting = FALSE;
    }
  else if (strcmp (type, "mod_item") == 0 && ts_node_is_null (field (node, "body")))
    {
      TSNode name = field (node, "name");
      g_autofree char *text = squeeze_node (w, name);

      import (w, text, NULL, text, line_of (name));
    }
  else if (strcmp (type, "import_declaration") == 0 && lang == LANG_JAVA)
    {
      TSNode path = child_in (node, (const char * const []) {
                                "scoped_identifier", "identifier", NULL });

      dotted_import (w, node, path, null_node (), !ts_node_is_null (child_of_type (node,
                                                                                 "asterisk")));
    }
  else if (strcmp (type, "import_declaration") == 0 && lang == LANG_SWIFT)
    {
      TSNode path = child_of_type (node, "identifier");
      g_autofree char *text = squeeze_node (w, path);

      import (w, "*", "*", text, line_of (node));
    }
  else if (strcmp (type, "import_header") == 0)
    {
      TSNode path = child_of_type (node, "identifier");
      TSNode alias = child_of_type (node, "import_alias");

      dotted_import (w, node, path, nth_named (alias, 0),
                     !ts_node_is_null (child_of_type (node, "wildcard_import")));
    }
  else if (strcmp (type, "using_directive") == 0)
    {
      TSNode alias = field (node, "name");
      TSNode path = child_in (node, (const char * const []) {
                                "qualified_name", "identifier", NULL });

      if (!ts_node_is_null (alias) && ts_node_eq (alias, path))
        path = next_named (alias);
      if (!ts_node_is_null (alias))
        {
          g_autofree char *name = squeeze_node (w, alias);
          g_autofree char *target = squeeze_node (w, path);

          import (w, name, NULL, target, line_of (path));
        }
      else
        dotted_import (w, node, path, null_node (), TRUE);
    }
  else if (strcmp (type, "using_declaration") == 0)
    {
      /* C++: `using namespace a::b;`, `using a::b::f;` */
      TSNode path = nth_named (node, 0);
      g_autofree char *text = squeeze_node (w, path);
      g_autofree char *whole = text_of (w->x, node);
      gboolean ns = whole != NULL && strstr (whole, "namespace") != NULL;
      const char *last;

      if (text == NULL)
        return;
      last = g_strrstr (text, "::");
      if (ns)
        import (w, "*", "*", text, line_of (node));
      else
        import (w, last != NULL ? last + 2 : text, last != NULL ? last + 2 : text, text,
                line_of (node));
    }
  else if (strcmp (type, "namespace_use_declaration") == 0)
    {
      TSNode group = child_of_type (node, "namespace_use_group");
      TSNode prefix = child_of_type (node, "namespace_name");
      g_autofree char *head = squeeze_node (w, prefix);
      TSNode list = !ts_node_is_null (group) ? group : node;

      for (uint32_t i = 0; i < n_named (list); i++)
        {
          TSNode clause = nth_named (list, i);
          TSNode name = child_in (clause, (const char * const []) {
                                    "qualified_name", "name", NULL });
          TSNode alias = field (clause, "alias");
          g_autofree char *text = squeeze_node (w, name);
          g_autofree char *path = NULL;
          g_autofree char *as = squeeze_node (w, alias);

          if (!is_type (clause, "namespace_use_clause") || text == NULL)
            continue;
          if (ts_node_eq (alias, name))
            continue;
          path = head != NULL ? g_strconcat (head, "\\", text, NULL) : g_strdup (text);
          while (path[0] == '\\')
            memmove (path, path + 1, strlen (path));
          import (w, as != NULL ? as : last_part (path), last_part (path), path,
                  line_of (clause));
        }
    }
}

/* The walk's entry ----------------------------------------------------------------------- */

gboolean
_lode_calls_visit_binding (Walk       *w,
                           TSNode      node,
                           const char *type)
{
  Lang lang = w->x->lang;
  gboolean in_function = _lode_calls_scope (w) != NULL;

  if (strstr (type, "import") != NULL || strstr (type, "use_") != NULL ||
      strcmp (type, "using_directive") == 0 || strcmp (type, "mod_item") == 0 ||
      (strcmp (type, "export_statement") == 0 && !ts_node_is_null (field (node, "source"))))
    {
      import_node (w, node, type);
      /* Go's import_declaration holds its import_specs. */
      return strcmp (type, "mod_item") == 0 || strcmp (type, "export_statement") == 0 ||
             (lang == LANG_GO && strcmp (type, "import_declaration") == 0);
    }
  if (strcmp (type, "export_statement") == 0)
    return TRUE;
  if (strcmp (type, "preproc_def") == 0)
    {
      /* `#define a b`: a call of a is a call of b. */
      g_autofree char *target = squeeze_node (w, field (node, "value"));
      g_autofree char *name = squeeze_node (w, field (node, "name"));
      gint macro = _lode_calls_caller (w);

      if (target != NULL && name != NULL && macro >= 0 &&
          ts_node_eq (w->defs[macro], node) && (g_ascii_isalpha (target[0]) ||
                                                target[0] == '_'))
        {
          for (const char *p = target; *p != '\0'; p++)
            if (!g_ascii_isalnum (*p) && *p != '_')
              return FALSE;
          lode_calls_add_binding (w->calls, LODE_CALL_BINDING_ALIAS, macro, name, target, NULL,
                                  line_of (node));
        }
      return FALSE;
    }

  if (g_str_has_suffix (type, "parameters"))
    {
      if (in_function)
        plain_parameters (w, node);
      return TRUE;
    }
  if (strstr (type, "parameter") != NULL)
    {
      if (in_function || strcmp (type, "class_parameter") == 0)
        parameter (w, node);
      return TRUE;
    }

  if (strcmp (type, "declaration") == 0)
    {
      if (in_function && (lang == LANG_C || lang == LANG_CPP))
        c_declarators (w, node, FALSE);
      return TRUE;
    }
  if (strcmp (type, "field_declaration") == 0)
    {
      switch (lang)
        {
        case LANG_CPP:
          c_declarators (w, node, TRUE);
          break;
        case LANG_JAVA:
          typed_declarators (w, node, field (node, "type"), TRUE);
          break;
        case LANG_GO:
          {
            TSNode ftype = field (node, "type");
            TSNode name = field (node, "name");
            g_autofree char *base = NULL;

            if (!ts_node_is_null (name))
              for (uint32_t i = 0; i < ts_node_child_count (node); i++)
                {
                  const char *f = ts_node_field_name_for_child (node, i);

                  if (f != NULL && strcmp (f, "name") == 0)
                    add_field (w, _lode_calls_class (w), ts_node_child (node, i), ftype,
                               null_node ());
                }
            else if ((base = type_of (w, ftype)) != NULL && _lode_calls_class (w) >= 0)
              lode_calls_add_binding (w->calls, LODE_CALL_BINDING_SUPER, _lode_calls_class (w),
                                      base, base, NULL, line_of (node));
          }
          break;
        case LANG_RUST:
          add_field (w, _lode_calls_class (w), field (node, "name"), field (node, "type"),
                     null_node ());
          break;
        case LANG_C:
        case LANG_CSHARP:
        case LANG_JS:
        case LANG_TS:
        case LANG_PYTHON:
        case LANG_PHP:
        case LANG_RUBY:
        case LANG_KOTLIN:
        case LANG_SWIFT:
        case LANG_OTHER:
        default:
          break;
        }
      return TRUE;
    }
  if (strcmp (type, "public_field_definition") == 0)
    {
      add_field (w, _lode_calls_class (w), field (node, "name"), field (node, "type"),
                 field (node, "value"));
      return TRUE;
    }
  if (strcmp (type, "local_variable_declaration") == 0)
    {
      typed_declarators (w, node, field (node, "type"), FALSE);
      return TRUE;
    }
  if (strcmp (type, "variable_declaration") == 0)
    {
      if (lang == LANG_CSHARP)
        typed_declarators (w, node, field (node, "type"), !in_function);
      return TRUE;
    }
  if (strcmp (type, "enhanced_for_statement") == 0 || strcmp (type, "for_range_loop") == 0)
    {
      TSNode name = field (node, "name");

      if (ts_node_is_null (name))
        name = _lode_symbol_declarator_name (field (node, "declarator"));
      declare (w, name, field (node, "type"), null_node ());
      return TRUE;
    }
  if (strcmp (type, "short_var_declaration") == 0)
    {
      TSNode left = field (node, "left"), right = field (node, "right");

      for (uint32_t i = 0; i < n_named (left); i++)
        declare (w, nth_named (left, i), null_node (),
                 n_named (left) == n_named (right) ? nth_named (right, i)
                                                   : (i == 0 ? nth_named (right, 0)
                                                             : null_node ()));
      return TRUE;
    }
  if (strcmp (type, "var_spec") == 0)
    {
      TSNode value = field (node, "value");

      for (uint32_t i = 0; i < ts_node_child_count (node); i++)
        {
          const char *f = ts_node_field_name_for_child (node, i);

          if (f != NULL && strcmp (f, "name") == 0)
            declare (w, ts_node_child (node, i), field (node, "type"), nth_named (value, 0));
        }
      return TRUE;
    }
  if (strcmp (type, "let_declaration") == 0)
    {
      declare (w, field (node, "pattern"), field (node, "type"), field (node, "value"));
      return TRUE;
    }
  if (strcmp (type, "variable_declarator") == 0)
    {
      TSNode name = field (node, "name"), value = field (node, "value");

      if (lang != LANG_JS && lang != LANG_TS)
        return TRUE;
      /* `const f = () => …` defines a function (a symbol of its own), not a local. */
      if (type_in (value, (const char * const []) {
                     "arrow_function", "function_expression", "function", NULL }))
        return TRUE;
      if (!js_require (w, name, value) && is_type (name, "identifier"))
        declare (w, name, field (node, "type"), value);
      return TRUE;
    }
  if (strcmp (type, "assignment") == 0 || strcmp (type, "assignment_expression") == 0)
    {
      if (lang == LANG_PYTHON || lang == LANG_RUBY || lang == LANG_PHP || lang == LANG_JS ||
          lang == LANG_TS)
        assignment (w, node);
      return TRUE;
    }
  if (strcmp (type, "property_declaration") == 0)
    {
      TSNode name = null_node (), ptype = null_node (), value = null_node ();

      switch (lang)
        {
        case LANG_KOTLIN:
          {
            TSNode decl = child_of_type (node, "variable_declaration");

            name = child_of_type (decl, "simple_identifier");
            ptype = child_in (decl, (const char * const []) {
                                "user_type", "nullable_type", NULL });
            value = nth_named (node, n_named (node) - 1);
            if (ts_node_eq (value, decl))
              value = null_node ();
          }
          break;
        case LANG_SWIFT:
          name = field (node, "name");
          if (is_type (name, "pattern"))
            name = child_of_type (name, "simple_identifier");
          ptype = child_of_type (node, "type_annotation");
          value = field (node, "value");
          break;
        case LANG_CSHARP:
          name = field (node, "name");
          ptype = field (node, "type");
          break;
        case LANG_PHP:
          {
            TSNode element = child_of_type (node, "property_element");

            name = child_of_type (element, "variable_name");
            ptype = field (node, "type");
            value = field (element, "value");
          }
          break;
        case LANG_C:
        case LANG_CPP:
        case LANG_GO:
        case LANG_JAVA:
        case LANG_JS:
        case LANG_TS:
        case LANG_PYTHON:
        case LANG_RUST:
        case LANG_RUBY:
        case LANG_OTHER:
        default:
          return TRUE;
        }
      if (in_function)
        declare (w, name, ptype, value);
      else
        add_field (w, _lode_calls_class (w), name, ptype, value);
      return TRUE;
    }
  return TRUE;
}

/* Definitions: base types, return types, file-local functions ----------------------------- */

static void
add_bases (Walk   *w,
           guint   def,
           TSNode  clause,
           guint   depth)
{
  static const char * const names[] = {
    "type_identifier", "identifier", "constant", "name", "qualified_name", "scoped_identifier",
    "scoped_type_identifier", "qualified_identifier", "user_type", "simple_identifier",
    "attribute", "member_expression", "generic_name", NULL
  };

  if (depth > 4 || ts_node_is_null (clause))
    return;
  if (type_in (clause, names) && depth == 0)
    {
      g_autofree char *text = text_of (w->x, clause);
      g_autofree char *base = _lode_calls_clean_type (text);

      if (base != NULL)
        lode_calls_add_binding (w->calls, LODE_CALL_BINDING_SUPER, def, base, base, NULL,
                                line_of (clause));
      return;
    }
  for (uint32_t i = 0; i < n_named (clause); i++)
    {
      TSNode child = nth_named (clause, i);

      if (type_in (child, names))
        {
          g_autofree char *text = text_of (w->x, child);
          g_autofree char *base = _lode_calls_clean_type (text);

          if (base != NULL && strcmp (base, "object") != 0)
            lode_calls_add_binding (w->calls, LODE_CALL_BINDING_SUPER, def, base, base, NULL,
                                    line_of (child));
        }
      else if (!is_type (child, "type_arguments") && !is_type (child, "keyword_argument") &&
               !is_type (child, "value_arguments"))
        add_bases (w, def, child, depth + 1);
    }
}

static gboolean
is_static_c (Walk   *w,
             TSNode  node)
{
  for (uint32_t i = 0; i < n_named (node); i++)
    {
      TSNode child = nth_named (node, i);

      if (is_type (child, "storage_class_specifier") && text_equals (w->x, child, "static"))
        return TRUE;
    }
  return FALSE;
}

void
_lode_calls_enter_def (Walk  *w,
                       guint  def)
{
  static const char * const heritage[] = {
    "superclass", "super_interfaces", "base_list", "base_class_clause", "class_heritage",
    "extends_clause", "implements_clause", "delegation_specifier", "delegation_specifiers",
    "inheritance_specifier", "base_clause", "class_interface_clause", "extends_interfaces",
    "type_inheritance_clause", "argument_list", NULL
  };
  TSNode node = w->defs[def];
  const char *kind = w->kinds[def];
  Lang lang = w->x->lang;

  if (strcmp (kind, "function") == 0 || strcmp (kind, "method") == 0 ||
      strcmp (kind, "prototype") == 0)
    {
      TSNode ret = field (node, "return_type");

      if ((lang == LANG_C || lang == LANG_CPP) && is_static_c (w, node))
        g_array_append_val (w->calls->file_local, def);
      _lode_calls_visit_decorated (w, def);
      if (ts_node_is_null (ret))
        ret = field (node, "result");
      if (ts_node_is_null (ret))
        ret = field (node, "returns");
      if (ts_node_is_null (ret) && (lang == LANG_JAVA || lang == LANG_CPP || lang == LANG_C))
        ret = field (node, "type");
      if (!ts_node_is_null (ret))
        {
          g_autofree char *type = type_of (w, ret);

          if (type != NULL)
            lode_calls_add_binding (w->calls, LODE_CALL_BINDING_RETURNS, def, type, type,
                                    NULL, line_of (ret));
        }
      return;
    }
  if (lang == LANG_CPP && strcmp (kind, "namespace") == 0 &&
      ts_node_is_null (field (node, "name")))
    return;
  if (strcmp (kind, "class") == 0 || strcmp (kind, "interface") == 0 ||
      strcmp (kind, "struct") == 0 || strcmp (kind, "object") == 0 ||
      strcmp (kind, "enum") == 0 || strcmp (kind, "protocol") == 0 ||
      strcmp (kind, "extension") == 0 || strcmp (kind, "trait") == 0)
    {
      TSNode inner = node;

      /* Decorators and `export` wrap the class. */
      if (is_type (inner, "decorated_definition") || is_type (inner, "export_statement"))
        inner = field (inner, "definition");
      if (ts_node_is_null (inner))
        inner = field (node, "declaration");
      if (ts_node_is_null (inner))
        inner = node;
      for (uint32_t i = 0; i < ts_node_child_count (inner); i++)
        {
          TSNode child = ts_node_child (inner, i);
          const char *f = ts_node_field_name_for_child (inner, i);
          gboolean wanted = f != NULL && (strcmp (f, "superclass") == 0 ||
                                          strcmp (f, "superclasses") == 0 ||
                                          strcmp (f, "interfaces") == 0 ||
                                          strcmp (f, "bases") == 0);

          if (type_in (child, heritage) && (lang == LANG_PYTHON ||
                                            !is_type (child, "argument_list")))
            wanted = TRUE;
          if (wanted)
            add_bases (w, def, child, 0);
        }
    }
}
