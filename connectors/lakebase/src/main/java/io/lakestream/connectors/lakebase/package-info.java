/**
 * The Lakebase sink: streaming upserts into a PostgreSQL table (Databricks Lakebase or any
 * PostgreSQL), with the options and behaviour of Databricks' Lakebase sink.
 *
 * <h2>Options ({@link io.lakestream.connectors.lakebase.LakebaseSinkOptions})</h2>
 *
 * {@code dbtable} (schema.table, schema {@code public} by default), {@code endpoint} (host,
 * host:port or a jdbc:postgresql:// URL without credentials), {@code database} (default {@code
 * databricks_postgres}), {@code user}, {@code password} / {@code passwordfile} or a {@link
 * io.lakestream.connectors.lakebase.CredentialProvider} (asked again on every reconnect), {@code
 * credential} ({@code password}, {@code databricks-oauth} with {@code workspacehost} and {@code
 * oauthclientfile} or the environment, {@code rds-iam} with {@code awsregion}; see {@link
 * io.lakestream.connectors.lakebase.connect}), {@code upsertkey}, {@code batchsize} (1000), {@code
 * batchinterval} (100 ms; 30 ms in a realTime query), {@code checkpointLocation} (required; the
 * query's), {@code maxretries} (10), {@code retrybackoff} (100 ms), {@code tasksPerConnection} (1).
 * Keys ignore case. Anything unrecognized fails with {@code JDBC_STREAMING_SINK_INVALID_OPTIONS},
 * naming the closest valid option and listing them all (the options catalog {@link
 * io.lakestream.connectors.lakebase.LakebaseSinkOptions#CATALOG}; reference: {@code
 * docs/options/lakebase-sink.md}).
 *
 * <h2>Behaviour</h2>
 *
 * <ul>
 *   <li>Schema and table names must be simple identifiers (refused before connecting); column names
 *       are always double-quoted ({@link io.lakestream.connectors.lakebase.PostgresIdentifiers}).
 *   <li>A missing table is created with the type mapping of {@link
 *       io.lakestream.connectors.lakebase.PostgresTypes}; the upsert key becomes its primary key.
 *   <li>The key is option upsertkey or else the table's primary key; it must be a non-empty set of
 *       the stream's columns, of comparable types, equal to the primary key exactly ({@link
 *       io.lakestream.connectors.lakebase.PostgresTable}). With a key: {@code INSERT .. ON CONFLICT
 *       (key) DO UPDATE}; without: plain inserts ({@link
 *       io.lakestream.connectors.lakebase.UpsertStatement}).
 *   <li>Rows are buffered per task and flushed when batchsize rows are buffered, when the oldest
 *       row is batchinterval old, and on every checkpoint; each flush sorts the rows by key, keeps
 *       the last row of each key, and commits them in one transaction. Flushes run in the task
 *       thread, so a slow database backpressures the source.
 *   <li>Transient errors (SQLState class 08, 40P01, 40001, 53300, 53400, 57P01-57P03, a failing
 *       password provider) are retried with exponential backoff on a new connection; then the task
 *       fails with the cause. Other errors fail the task naming the row's key and the column
 *       ({@link io.lakestream.connectors.lakebase.LakebaseWriteException}); no row is dropped.
 *   <li>A changelog stream names its deletes ({@link
 *       io.lakestream.connectors.lakebase.DeleteSelector}): within a batch the last change of a key
 *       wins, and the batch's upserts and deletes by key commit in one transaction (deleting a
 *       missing key does nothing). Deletes need a key; without one the sink is refused when built.
 *   <li>Output modes append and update behave the same; complete is refused. Delivery is
 *       at-least-once, and exactly-once in the final table state when there is a key.
 *   <li>A login the server refuses (SQLState 28P01/28000), as after a token rotation, is retried
 *       once with a fresh credential; a second refusal fails with {@code
 *       JDBC_STREAMING_SINK_AUTHENTICATION_FAILED} naming the option to check.
 *   <li>Passwords and tokens never appear in URLs, logs or exception messages.
 * </ul>
 */
package io.lakestream.connectors.lakebase;
