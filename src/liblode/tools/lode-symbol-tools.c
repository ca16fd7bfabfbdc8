/* lode-symbol-tools.c — the symbol tools: descriptors of types and functions, a package's
 * exports, references
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-symbol-report.h"
#include "lode-tools-private.h"

/*
 * find_type_definition, get_function_details and list_package_exports are named and shaped
 * like RagCode's tools (snake_case arguments and descriptors), so that prompts written for
 * it keep working; codebase_symbol_references follows the codebase_* naming. The answers
 * and their markdown are lode-symbol-report.c's; this file maps arguments.
 */

#define NULLABLE_STRING "{\"type\": [\"string\", \"null\"]}"
#define STRING "{\"type\": \"string\"}"
#define STRING_ARRAY "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}"
#define COUNT "{\"type\": \"integer\", \"minimum\": 0}"
#define BOOLEAN "{\"type\": \"boolean\"}"

#define SELECTION \
  "{\"type\": [\"object\", \"null\"], \"properties\": {\"start_line\": " COUNT ", " \
  "\"start_column\": " COUNT ", \"end_line\": " COUNT ", \"end_column\": " COUNT "}, " \
  "\"required\": [\"start_line\", \"start_column\", \"end_line\", \"end_column\"]}"

/* SymbolLocation */
#define LOCATION \
  "{\"type\": \"object\", \"properties\": {\"file_path\": " STRING ", \"uri\": " \
  NULLABLE_STRING ", \"start_line\": " COUNT ", \"end_line\": " COUNT ", \"selection\": " \
  SELECTION "}, \"required\": [\"file_path\", \"uri\", \"start_line\", \"end_line\", " \
  "\"selection\"]}"

#define PARAMETER \
  "{\"type\": \"object\", \"properties\": {\"name\": " STRING ", \"type\": " NULLABLE_STRING \
  ", \"default\": " NULLABLE_STRING "}, \"required\": [\"name\", \"type\", \"default\"]}"

#define RETURN \
  "{\"type\": \"object\", \"properties\": {\"type\": " NULLABLE_STRING "}, " \
  "\"required\": [\"type\"]}"

#define FUNCTION_KINDS \
  "\"enum\": [\"function\", \"method\", \"constructor\", \"scope\", \"accessor\", \"mutator\"]"

/* FunctionDescriptor; `code` only from get_function_details. */
#define FUNCTION_DESCRIPTOR_PROPERTIES \
  "\"language\": " STRING ", \"kind\": {\"type\": \"string\", " FUNCTION_KINDS "}, " \
  "\"name\": " STRING ", \"namespace\": " NULLABLE_STRING ", \"class_name\": " \
  NULLABLE_STRING ", \"receiver\": " NULLABLE_STRING ", \"signature\": " NULLABLE_STRING ", " \
  "\"description\": " NULLABLE_STRING ", \"location\": " LOCATION ", " \
  "\"parameters\": {\"type\": \"array\", \"items\": " PARAMETER "}, " \
  "\"returns\": {\"type\": \"array\", \"items\": " RETURN "}, " \
  "\"visibility\": " NULLABLE_STRING ", \"is_static\": " BOOLEAN ", \"is_abstract\": " \
  BOOLEAN ", \"is_final\": " BOOLEAN ", \"tags\": " STRING_ARRAY

#define FUNCTION_DESCRIPTOR_REQUIRED \
  "\"language\", \"kind\", \"name\", \"namespace\", \"class_name\", \"receiver\", " \
  "\"signature\", \"description\", \"location\", \"parameters\", \"returns\", " \
  "\"visibility\", \"is_static\", \"is_abstract\", \"is_final\", \"tags\""

#define METHOD_DESCRIPTOR \
  "{\"type\": \"object\", \"properties\": {" FUNCTION_DESCRIPTOR_PROPERTIES "}, " \
  "\"required\": [" FUNCTION_DESCRIPTOR_REQUIRED "]}"

#define FIELD \
  "{\"type\": \"object\", \"properties\": {\"name\": " STRING ", \"type\": " NULLABLE_STRING \
  ", \"default\": " NULLABLE_STRING ", \"visibility\": " NULLABLE_STRING ", \"description\": " \
  NULLABLE_STRING ", \"is_static\": " BOOLEAN "}, \"required\": [\"name\", \"type\", " \
  "\"default\", \"visibility\", \"description\", \"is_static\"]}"

#define RELATION \
  "{\"type\": \"object\", \"properties\": {\"kind\": " STRING ", \"name\": " STRING ", " \
  "\"target\": " NULLABLE_STRING "}, \"required\": [\"kind\", \"name\", \"target\"]}"

#define ATTRIBUTE \
  "{\"type\": \"object\", \"properties\": {\"name\": " STRING ", \"method\": " STRING ", " \
  "\"get\": " BOOLEAN ", \"set\": " BOOLEAN "}, \"required\": [\"name\", \"method\", \"get\", " \
  "\"set\"]}"

/* ClassDescriptor, with the ORM members of models. */
#define CLASS_DESCRIPTOR \
  "{\"type\": [\"object\", \"null\"], \"properties\": {\"language\": " STRING ", " \
  "\"kind\": {\"type\": \"string\", \"enum\": [\"class\", \"interface\", \"trait\", " \
  "\"struct\", \"type\", \"enum\", \"model\"]}, \"name\": " STRING ", \"namespace\": " \
  NULLABLE_STRING ", \"package\": " NULLABLE_STRING ", \"full_name\": " STRING ", " \
  "\"signature\": " NULLABLE_STRING ", \"description\": " NULLABLE_STRING ", " \
  "\"location\": " LOCATION ", \"visibility\": " NULLABLE_STRING ", \"is_abstract\": " \
  BOOLEAN ", \"is_final\": " BOOLEAN ", \"fields\": {\"type\": \"array\", \"items\": " FIELD \
  "}, \"methods\": {\"type\": \"array\", \"items\": " METHOD_DESCRIPTOR "}, " \
  "\"relations\": {\"type\": \"array\", \"items\": " RELATION "}, \"tags\": " STRING_ARRAY \
  ", \"table\": " NULLABLE_STRING ", \"fillable\": " STRING_ARRAY ", \"hidden\": " \
  STRING_ARRAY ", \"visible\": " STRING_ARRAY ", \"appends\": " STRING_ARRAY ", " \
  "\"guarded\": " STRING_ARRAY ", \"scopes\": " STRING_ARRAY ", \"casts\": {\"type\": " \
  "\"object\"}, \"attributes\": {\"type\": \"array\", \"items\": " ATTRIBUTE "}}, " \
  "\"required\": [\"language\", \"kind\", \"name\", \"namespace\", \"package\", " \
  "\"full_name\", \"signature\", \"description\", \"location\", \"fields\", \"methods\", " \
  "\"relations\", \"tags\"]}"

#define SYMBOL_DESCRIPTOR_PROPERTIES \
  "\"language\": " STRING ", \"kind\": " STRING ", \"name\": " STRING ", \"namespace\": " \
  NULLABLE_STRING ", \"package\": " NULLABLE_STRING ", \"signature\": " NULLABLE_STRING ", " \
  "\"description\": " NULLABLE_STRING ", \"location\": " LOCATION

#define SYMBOL_DESCRIPTOR_REQUIRED \
  "\"language\", \"kind\", \"name\", \"namespace\", \"package\", \"signature\", " \
  "\"description\", \"location\""

/* SymbolDescriptor */
#define SYMBOL_DESCRIPTOR \
  "{\"type\": \"object\", \"properties\": {" SYMBOL_DESCRIPTOR_PROPERTIES "}, " \
  "\"required\": [" SYMBOL_DESCRIPTOR_REQUIRED "]}"

#define CANDIDATES \
  "{\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {" \
  SYMBOL_DESCRIPTOR_PROPERTIES ", \"full_name\": " STRING "}, \"required\": [" \
  SYMBOL_DESCRIPTOR_REQUIRED ", \"full_name\"]}}"

#define REPORT_PROPERTIES \
  "\"project\": " STRING ", \"query\": " STRING ", \"count\": " COUNT

static const char *
string_argument (LodeToolCall *call,
                 const char   *name)
{
  return json_object_get_string_member_with_default (lode_tool_call_get_arguments (call), name,
                                                     NULL);
}

static LodeProject *
open_indexed (LodeToolCall  *call,
              GError       **error)
{
  g_autofree char *path = lode_tool_call_dup_project_path (call, error);

  return path != NULL ? lode_tool_call_open_indexed (call, path, error) : NULL;
}

/* find_type_definition ------------------------------------------------------------------ */

static JsonObject *
find_type_definition (LodeToolCall  *call,
                      GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);
  const char *package = string_argument (call, "package");

  if (project == NULL)
    return NULL;
  if (package == NULL)
    package = string_argument (call, "namespace");

  return lode_symbol_report_type (project, string_argument (call, "type_name"), package, error);
}

static const LodeTool find_type_definition_tool = {
  .name = "find_type_definition",
  .title = "Describe a type",
  .description =
    "A class, struct, interface, trait, enum or type alias as a descriptor: location, doc comment, "
    "fields, methods (parameters, returns, modifiers), relations, tags; Eloquent models' table, "
    "fillable, casts, scopes, relationships. Several matches: their locations and a hint to narrow "
    "with package.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"type_name\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 512, "
    "\"description\": \"The type's name, plain or qualified (User, App\\\\Models\\\\User, "
    "geo::Circle, com.acme.Account)\"}, "
    "\"package\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Its package, "
    "namespace, module or file, to choose among types of the same name\"}, "
    "\"namespace\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Same as "
    "package\"}, " OUTPUT_FORMAT_PROPERTY "}, "
    "\"required\": [\"type_name\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {" REPORT_PROPERTIES ", \"type\": " CLASS_DESCRIPTOR
    ", \"candidates\": " CANDIDATES ", \"hint\": " NULLABLE_STRING "}, "
    "\"required\": [\"project\", \"query\", \"count\", \"type\", \"candidates\", \"hint\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = find_type_definition,
  .format = lode_symbol_format_type,
};

/* get_function_details ------------------------------------------------------------------ */

static JsonObject *
get_function_details (LodeToolCall  *call,
                      GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);

  if (project == NULL)
    return NULL;

  return lode_symbol_report_function (project, string_argument (call, "function_name"),
                                      string_argument (call, "package"),
                                      string_argument (call, "class_name"), error);
}

static const LodeTool get_function_details_tool = {
  .name = "get_function_details",
  .title = "Describe a function",
  .description =
    "A function or method as a descriptor with its code: parameters, returns, receiver, "
    "visibility, modifiers, doc comment, location (a C declaration and its definition). Several "
    "matches: their locations and a hint to narrow with class_name or package.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"function_name\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 512, "
    "\"description\": \"The function's name, plain or qualified (Store.Get, "
    "Mailer::send)\"}, "
    "\"package\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Its package, "
    "namespace, module or file\"}, "
    "\"class_name\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The class, "
    "struct or type the method belongs to\"}, " OUTPUT_FORMAT_PROPERTY "}, "
    "\"required\": [\"function_name\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {" REPORT_PROPERTIES ", \"function\": "
    "{\"type\": [\"object\", \"null\"], \"properties\": {" FUNCTION_DESCRIPTOR_PROPERTIES ", "
    "\"code\": " STRING ", \"code_truncated\": " BOOLEAN ", \"declaration\": " LOCATION "}, "
    "\"required\": [" FUNCTION_DESCRIPTOR_REQUIRED ", \"code\", \"code_truncated\"]}, "
    "\"candidates\": " CANDIDATES ", \"hint\": " NULLABLE_STRING "}, "
    "\"required\": [\"project\", \"query\", \"count\", \"function\", \"candidates\", \"hint\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = get_function_details,
  .format = lode_symbol_format_function,
};

/* list_package_exports ------------------------------------------------------------------ */

static JsonObject *
list_package_exports (LodeToolCall  *call,
                      GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);
  JsonObject *arguments = lode_tool_call_get_arguments (call);

  if (project == NULL)
    return NULL;

  return lode_symbol_report_exports (project, string_argument (call, "package"),
                                     string_argument (call, "symbol_type"),
                                     json_object_get_int_member_with_default (arguments, "limit",
                                                                              200),
                                     error);
}

static const LodeTool list_package_exports_tool = {
  .name = "list_package_exports",
  .title = "A package's exports",
  .description =
    "The public symbols of a package as descriptors (kind, signature, doc comment, location): Go "
    "package, PHP or C# namespace, Java/Kotlin package, Python or JS/TS module, Rust module, C "
    "header.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"package\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 1024, "
    "\"description\": \"The package as its language names it (store, App\\\\Models, "
    "com.acme.bank, pkg.sub.models, src/api/client, crate::net, strbuf.h) or its folder\"}, "
    "\"symbol_type\": {\"type\": \"string\", \"enum\": [\"function\", \"method\", \"class\", "
    "\"struct\", \"interface\", \"trait\", \"enum\", \"type\", \"constant\", \"variable\", "
    "\"macro\", \"model\", \"module\"], \"description\": \"Only symbols of this kind\"}, "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 1000, \"default\": 200, "
    "\"description\": \"Symbols to list\"}, "
    OUTPUT_FORMAT_PROPERTY "}, "
    "\"required\": [\"package\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {" REPORT_PROPERTIES ", \"total\": " COUNT ", "
    "\"exports\": {\"type\": \"array\", \"items\": " SYMBOL_DESCRIPTOR "}, "
    "\"hint\": " NULLABLE_STRING "}, "
    "\"required\": [\"project\", \"query\", \"count\", \"total\", \"exports\", \"hint\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = list_package_exports,
  .format = lode_symbol_format_exports,
};

/* codebase_symbol_references ------------------------------------------------------------ */

static JsonObject *
symbol_references (LodeToolCall  *call,
                   GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);
  JsonObject *arguments = lode_tool_call_get_arguments (call);

  if (project == NULL)
    return NULL;

  return lode_symbol_report_references (project, string_argument (call, "symbol"),
                                        json_object_get_int_member_with_default (arguments,
                                                                                 "limit", 100),
                                        error);
}

static const LodeTool symbol_references_tool = {
  .name = "codebase_symbol_references",
  .title = "References to a symbol",
  .description =
    "Where an identifier is defined and used (identifiers only, never comments or strings): path, "
    "line, the line's text, and whether a definition, call, type use or import; counts per file, "
    "definitions first.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"symbol\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 512, "
    "\"description\": \"The identifier (a qualified name is looked up by its last part)\"}, "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 1000, \"default\": 100, "
    "\"description\": \"References to list\"}, " OUTPUT_FORMAT_PROPERTY "}, "
    "\"required\": [\"symbol\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"project\": " STRING ", \"query\": " STRING ", "
    "\"symbol\": " STRING ", \"total\": " COUNT ", \"fileCount\": " COUNT ", "
    "\"files\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"path\": " STRING ", \"language\": " STRING ", \"count\": " COUNT ", \"definitions\": "
    COUNT ", \"calls\": " COUNT ", \"types\": " COUNT ", \"imports\": " COUNT "}, "
    "\"required\": [\"path\", \"language\", \"count\", \"definitions\", \"calls\", \"types\", "
    "\"imports\"]}}, "
    "\"references\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"path\": " STRING ", \"line\": " COUNT ", \"kind\": {\"type\": \"string\", \"enum\": "
    "[\"use\", \"definition\", \"call\", \"type\", \"import\"]}, \"text\": " STRING ", "
    "\"isDefinition\": " BOOLEAN ", \"isCall\": " BOOLEAN ", \"isType\": " BOOLEAN ", "
    "\"isImport\": " BOOLEAN "}, \"required\": [\"path\", \"line\", \"kind\", \"text\", "
    "\"isDefinition\", \"isCall\", \"isType\", \"isImport\"]}}}, "
    "\"required\": [\"project\", \"query\", \"symbol\", \"total\", \"fileCount\", \"files\", "
    "\"references\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = symbol_references,
  .format = lode_symbol_format_references,
};

/**
 * lode_symbol_tools_register:
 * @registry: a #LodeToolRegistry
 *
 * Adds the symbol tools: find_type_definition, get_function_details, list_package_exports
 * and codebase_symbol_references.
 */
void
lode_symbol_tools_register (LodeToolRegistry *registry)
{
  static const LodeTool *tools[] = {
    &find_type_definition_tool,
    &get_function_details_tool,
    &list_package_exports_tool,
    &symbol_references_tool,
  };

  g_return_if_fail (LODE_IS_TOOL_REGISTRY (registry));

  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    lode_tool_registry_add (registry, tools[i]);
}
