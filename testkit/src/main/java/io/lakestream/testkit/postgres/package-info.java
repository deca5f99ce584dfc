/**
 * A real PostgreSQL for tests ({@link io.lakestream.testkit.postgres.PostgresServer}, {@link
 * io.lakestream.testkit.postgres.PostgresExtension}): an embedded PostgreSQL 17 on 127.0.0.1, or
 * the server named by an environment variable; each test class or test gets a fresh {@link
 * io.lakestream.testkit.postgres.PostgresDatabase}, dropped on close. An embedded server dies with
 * the test JVM; start failures are {@link IllegalStateException}s naming the URL.
 */
package io.lakestream.testkit.postgres;
