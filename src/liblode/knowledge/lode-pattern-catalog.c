/* lode-pattern-catalog.c — the alternatives Lode recognises for each concern
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <string.h>

#include "lode-patterns.h"

/*
 * Packages are named as the import resolver names external packages (docs/architecture.md,
 * "Imports"): npm names, Python's first module name, Go import paths, Rust crates, the
 * leading lower-case names of a JVM package, PHP's Vendor\Package, C headers (`<check.h>` is
 * `check.h`, `<glib/x.h>` is `glib`). A package matches its name and the names under it
 * (`org.junit` matches `org.junit.runner`); the longest match wins, so JUnit 5's
 * `org.junit.jupiter` is not taken for JUnit 4. Shapes are what code that uses an
 * alternative without an import writes (a global `fetch(`, GLib's `g_test_add`).
 */

#define P LODE_PATTERN_MATCH_PACKAGE
#define S LODE_PATTERN_MATCH_SHAPE

static const LodePatternRule rules[] = {
  /* HTTP clients */
  { "http-client", "axios", "js", P, "axios" },
  { "http-client", "got", "js", P, "got" },
  { "http-client", "node-fetch", "js", P, "node-fetch" },
  { "http-client", "superagent", "js", P, "superagent" },
  { "http-client", "ky", "js", P, "ky" },
  { "http-client", "fetch", "js", S, "await fetch(" },
  { "http-client", "requests", "python", P, "requests" },
  { "http-client", "httpx", "python", P, "httpx" },
  { "http-client", "aiohttp", "python", P, "aiohttp" },
  { "http-client", "urllib", "python", P, "urllib" },
  { "http-client", "urllib3", "python", P, "urllib3" },
  { "http-client", "net/http", "go", P, "net/http" },
  { "http-client", "resty", "go", P, "github.com/go-resty/resty" },
  { "http-client", "reqwest", "rust", P, "reqwest" },
  { "http-client", "hyper", "rust", P, "hyper" },
  { "http-client", "ureq", "rust", P, "ureq" },
  { "http-client", "OkHttp", "jvm", P, "okhttp3" },
  { "http-client", "Apache HttpClient", "jvm", P, "org.apache.http" },
  { "http-client", "Apache HttpClient", "jvm", P, "org.apache.hc" },
  { "http-client", "java.net.http", "jvm", P, "java.net.http" },
  { "http-client", "Retrofit", "jvm", P, "retrofit2" },
  { "http-client", "Guzzle", "php", P, "GuzzleHttp" },
  { "http-client", "Faraday", "ruby", P, "faraday" },
  { "http-client", "HTTParty", "ruby", P, "httparty" },
  { "http-client", "HttpClient", "csharp", P, "System.Net.Http" },
  { "http-client", "RestSharp", "csharp", P, "RestSharp" },
  { "http-client", "libsoup", "c", P, "libsoup" },
  { "http-client", "libcurl", "c", P, "curl" },

  /* State management */
  { "state-management", "Redux", "js", P, "redux" },
  { "state-management", "Redux", "js", P, "react-redux" },
  { "state-management", "Redux Toolkit", "js", P, "@reduxjs/toolkit" },
  { "state-management", "MobX", "js", P, "mobx" },
  { "state-management", "Zustand", "js", P, "zustand" },
  { "state-management", "Recoil", "js", P, "recoil" },
  { "state-management", "Jotai", "js", P, "jotai" },
  { "state-management", "Vuex", "js", P, "vuex" },
  { "state-management", "Pinia", "js", P, "pinia" },
  { "state-management", "NgRx", "js", P, "@ngrx/store" },
  { "state-management", "XState", "js", P, "xstate" },

  /* Test frameworks */
  { "testing", "Jest", "js", P, "@jest/globals" },
  { "testing", "Jest", "js", S, "jest.fn(" },
  { "testing", "Vitest", "js", P, "vitest" },
  { "testing", "Mocha", "js", P, "mocha" },
  { "testing", "node:test", "js", P, "node:test" },
  { "testing", "pytest", "python", P, "pytest" },
  { "testing", "unittest", "python", P, "unittest" },
  { "testing", "Ginkgo", "go", P, "github.com/onsi/ginkgo" },
  { "testing", "JUnit 4", "jvm", P, "org.junit" },
  { "testing", "JUnit 5", "jvm", P, "org.junit.jupiter" },
  { "testing", "TestNG", "jvm", P, "org.testng" },
  { "testing", "GTest (GLib)", "c", S, "g_test_add" },
  { "testing", "Check", "c", P, "check.h" },
  { "testing", "cmocka", "c", P, "cmocka.h" },
  { "testing", "Criterion", "c", P, "criterion" },
  { "testing", "Unity", "c", P, "unity.h" },
  { "testing", "GoogleTest", "c", P, "gtest" },
  { "testing", "Catch2", "c", P, "catch2" },
  { "testing", "RSpec", "ruby", P, "rspec" },
  { "testing", "Minitest", "ruby", P, "minitest" },
  { "testing", "PHPUnit", "php", P, "PHPUnit" },
  { "testing", "Pest", "php", P, "Pest" },
  { "testing", "xUnit", "csharp", P, "Xunit" },
  { "testing", "NUnit", "csharp", P, "NUnit" },
  { "testing", "MSTest", "csharp", P, "Microsoft.VisualStudio.TestTools" },

  /* Mocking */
  { "mocking", "Sinon", "js", P, "sinon" },
  { "mocking", "jest.mock", "js", S, "jest.mock(" },
  { "mocking", "vi.mock", "js", S, "vi.mock(" },
  { "mocking", "unittest.mock", "python", S, "unittest.mock" },
  { "mocking", "unittest.mock", "python", S, "from unittest import mock" },
  { "mocking", "pytest-mock", "python", S, "mocker." },
  { "mocking", "gomock", "go", P, "github.com/golang/mock" },
  { "mocking", "gomock", "go", P, "go.uber.org/mock" },
  { "mocking", "testify/mock", "go", P, "github.com/stretchr/testify/mock" },
  { "mocking", "Mockito", "jvm", P, "org.mockito" },
  { "mocking", "MockK", "jvm", P, "io.mockk" },
  { "mocking", "Moq", "csharp", P, "Moq" },

  /* Logging */
  { "logging", "winston", "js", P, "winston" },
  { "logging", "pino", "js", P, "pino" },
  { "logging", "bunyan", "js", P, "bunyan" },
  { "logging", "console", "js", S, "console.log(" },
  { "logging", "logging", "python", P, "logging" },
  { "logging", "loguru", "python", P, "loguru" },
  { "logging", "structlog", "python", P, "structlog" },
  { "logging", "log", "go", P, "log" },
  { "logging", "slog", "go", P, "log/slog" },
  { "logging", "zap", "go", P, "go.uber.org/zap" },
  { "logging", "logrus", "go", P, "github.com/sirupsen/logrus" },
  { "logging", "zerolog", "go", P, "github.com/rs/zerolog" },
  { "logging", "log", "rust", P, "log" },
  { "logging", "tracing", "rust", P, "tracing" },
  { "logging", "SLF4J", "jvm", P, "org.slf4j" },
  { "logging", "Log4j", "jvm", P, "org.apache.logging.log4j" },
  { "logging", "Log4j", "jvm", P, "org.apache.log4j" },
  { "logging", "java.util.logging", "jvm", P, "java.util.logging" },
  { "logging", "Microsoft.Extensions.Logging", "csharp", P, "Microsoft.Extensions.Logging" },
  { "logging", "Serilog", "csharp", P, "Serilog" },
  { "logging", "NLog", "csharp", P, "NLog" },
  { "logging", "Monolog", "php", P, "Monolog" },
  { "logging", "GLib logging", "c", S, "g_debug (" },
  { "logging", "GLib logging", "c", S, "g_warning (" },
  { "logging", "stdio", "c", S, "fprintf (stderr" },
  { "logging", "stdio", "c", S, "fprintf(stderr" },

  /* Dependency injection */
  { "dependency-injection", "InversifyJS", "js", P, "inversify" },
  { "dependency-injection", "tsyringe", "js", P, "tsyringe" },
  { "dependency-injection", "TypeDI", "js", P, "typedi" },
  { "dependency-injection", "NestJS", "js", P, "@nestjs/common" },
  { "dependency-injection", "Angular inject()", "js", S, "= inject(" },
  { "dependency-injection", "dependency-injector", "python", P, "dependency_injector" },
  { "dependency-injection", "injector", "python", P, "injector" },
  { "dependency-injection", "FastAPI Depends", "python", S, "Depends(" },
  { "dependency-injection", "fx", "go", P, "go.uber.org/fx" },
  { "dependency-injection", "wire", "go", P, "github.com/google/wire" },
  { "dependency-injection", "dig", "go", P, "go.uber.org/dig" },
  { "dependency-injection", "Guice", "jvm", P, "com.google.inject" },
  { "dependency-injection", "Spring", "jvm", S, "@Autowired" },
  { "dependency-injection", "JSR-330", "jvm", P, "javax.inject" },
  { "dependency-injection", "JSR-330", "jvm", P, "jakarta.inject" },
  { "dependency-injection", "Microsoft DI", "csharp", P,
    "Microsoft.Extensions.DependencyInjection" },
  { "dependency-injection", "Autofac", "csharp", P, "Autofac" },

  /* Error handling */
  { "error-handling", "pkg/errors", "go", P, "github.com/pkg/errors" },
  { "error-handling", "errors", "go", P, "errors" },
  { "error-handling", "anyhow", "rust", P, "anyhow" },
  { "error-handling", "thiserror", "rust", P, "thiserror" },
  { "error-handling", "eyre", "rust", P, "eyre" },
  { "error-handling", "eyre", "rust", P, "color_eyre" },
  { "error-handling", "snafu", "rust", P, "snafu" },
  { "error-handling", "neverthrow", "js", P, "neverthrow" },
  { "error-handling", "GError", "c", S, "GError" },

  /* Dates and times */
  { "date-time", "Moment.js", "js", P, "moment" },
  { "date-time", "Day.js", "js", P, "dayjs" },
  { "date-time", "date-fns", "js", P, "date-fns" },
  { "date-time", "Luxon", "js", P, "luxon" },
  { "date-time", "datetime", "python", P, "datetime" },
  { "date-time", "Arrow", "python", P, "arrow" },
  { "date-time", "Pendulum", "python", P, "pendulum" },
  { "date-time", "dateutil", "python", P, "dateutil" },
  { "date-time", "java.time", "jvm", P, "java.time" },
  { "date-time", "Joda-Time", "jvm", P, "org.joda.time" },
  { "date-time", "chrono", "rust", P, "chrono" },
  { "date-time", "time", "rust", P, "time" },
  { "date-time", "NodaTime", "csharp", P, "NodaTime" },
  { "date-time", "Carbon", "php", P, "Carbon" },

  /* Databases */
  { "orm", "SQLAlchemy", "python", P, "sqlalchemy" },
  { "orm", "Django ORM", "python", S, "models.Model" },
  { "orm", "Peewee", "python", P, "peewee" },
  { "orm", "Tortoise ORM", "python", P, "tortoise" },
  { "orm", "sqlite3", "python", P, "sqlite3" },
  { "orm", "psycopg", "python", P, "psycopg2" },
  { "orm", "psycopg", "python", P, "psycopg" },
  { "orm", "TypeORM", "js", P, "typeorm" },
  { "orm", "Sequelize", "js", P, "sequelize" },
  { "orm", "Prisma", "js", P, "@prisma/client" },
  { "orm", "Mongoose", "js", P, "mongoose" },
  { "orm", "Knex", "js", P, "knex" },
  { "orm", "Drizzle", "js", P, "drizzle-orm" },
  { "orm", "Kysely", "js", P, "kysely" },
  { "orm", "GORM", "go", P, "gorm.io/gorm" },
  { "orm", "database/sql", "go", P, "database/sql" },
  { "orm", "sqlx", "go", P, "github.com/jmoiron/sqlx" },
  { "orm", "ent", "go", P, "entgo.io/ent" },
  { "orm", "Diesel", "rust", P, "diesel" },
  { "orm", "SQLx", "rust", P, "sqlx" },
  { "orm", "SeaORM", "rust", P, "sea_orm" },
  { "orm", "rusqlite", "rust", P, "rusqlite" },
  { "orm", "JPA", "jvm", P, "javax.persistence" },
  { "orm", "JPA", "jvm", P, "jakarta.persistence" },
  { "orm", "Hibernate", "jvm", P, "org.hibernate" },
  { "orm", "jOOQ", "jvm", P, "org.jooq" },
  { "orm", "MyBatis", "jvm", P, "org.apache.ibatis" },
  { "orm", "JDBC", "jvm", P, "java.sql" },
  { "orm", "Eloquent", "php", P, "Illuminate\\Database" },
  { "orm", "Doctrine", "php", P, "Doctrine\\ORM" },
  { "orm", "Active Record", "ruby", P, "active_record" },
  { "orm", "Sequel", "ruby", P, "sequel" },
  { "orm", "Entity Framework Core", "csharp", P, "Microsoft.EntityFrameworkCore" },
  { "orm", "Dapper", "csharp", P, "Dapper" },
  { "orm", "SQLite", "c", P, "sqlite3.h" },

  /* Validation */
  { "validation", "Zod", "js", P, "zod" },
  { "validation", "Yup", "js", P, "yup" },
  { "validation", "Joi", "js", P, "joi" },
  { "validation", "class-validator", "js", P, "class-validator" },
  { "validation", "Ajv", "js", P, "ajv" },
  { "validation", "Pydantic", "python", P, "pydantic" },
  { "validation", "marshmallow", "python", P, "marshmallow" },
  { "validation", "Cerberus", "python", P, "cerberus" },

  /* Command lines */
  { "cli", "argparse", "python", P, "argparse" },
  { "cli", "Click", "python", P, "click" },
  { "cli", "Typer", "python", P, "typer" },
  { "cli", "flag", "go", P, "flag" },
  { "cli", "Cobra", "go", P, "github.com/spf13/cobra" },
  { "cli", "urfave/cli", "go", P, "github.com/urfave/cli" },
  { "cli", "clap", "rust", P, "clap" },
  { "cli", "structopt", "rust", P, "structopt" },
  { "cli", "argh", "rust", P, "argh" },
  { "cli", "Commander", "js", P, "commander" },
  { "cli", "yargs", "js", P, "yargs" },
  { "cli", "GOption", "c", S, "GOptionEntry" },
  { "cli", "getopt", "c", P, "getopt.h" },

  /* Async runtimes */
  { "async-runtime", "Tokio", "rust", P, "tokio" },
  { "async-runtime", "async-std", "rust", P, "async_std" },
  { "async-runtime", "smol", "rust", P, "smol" },
};

static const char *const categories[] = {
  "http-client", "state-management", "testing", "mocking", "logging", "dependency-injection",
  "error-handling", "date-time", "orm", "validation", "cli", "async-runtime", NULL
};

/**
 * lode_pattern_rules:
 * @n_rules: (out): how many
 *
 * Returns: (array length=n_rules): the catalogue
 */
const LodePatternRule *
lode_pattern_rules (guint *n_rules)
{
  *n_rules = G_N_ELEMENTS (rules);
  return rules;
}

/**
 * lode_pattern_categories:
 *
 * Returns: (transfer none): the concerns, in the order reports list them
 */
const char *const *
lode_pattern_categories (void)
{
  return categories;
}

/**
 * lode_pattern_category_for:
 * @name: a category, or one of codebase-context's: di, state, libraries
 *
 * Returns: (nullable): Lode's category for @name, "all" for all (and libraries), %NULL for
 *   a name that is neither
 */
const char *
lode_pattern_category_for (const char *name)
{
  static const struct { const char *alias; const char *category; } aliases[] = {
    { "di", "dependency-injection" }, { "state", "state-management" },
    { "libraries", "all" }, { "all", "all" },
  };

  for (guint i = 0; categories[i] != NULL; i++)
    if (g_str_equal (categories[i], name))
      return categories[i];
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_str_equal (aliases[i].alias, name))
      return aliases[i].category;

  return NULL;
}

/**
 * lode_pattern_family:
 * @language: a language id
 *
 * Returns: (nullable): the family of languages that share packages: js, python, go, rust,
 *   jvm, csharp, php, ruby or c
 */
const char *
lode_pattern_family (const char *language)
{
  static const struct { const char *language; const char *family; } families[] = {
    { "javascript", "js" }, { "typescript", "js" }, { "tsx", "js" }, { "html", "js" },
    { "python", "python" }, { "go", "go" }, { "rust", "rust" }, { "java", "jvm" },
    { "kotlin", "jvm" }, { "scala", "jvm" }, { "csharp", "csharp" }, { "php", "php" },
    { "ruby", "ruby" }, { "c", "c" }, { "cpp", "c" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (g_str_equal (families[i].language, language))
      return families[i].family;

  return NULL;
}
