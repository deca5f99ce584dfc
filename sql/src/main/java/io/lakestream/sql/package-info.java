/**
 * Flink SQL and the Table API on lakestream: {@link io.lakestream.sql.SqlDataflow} runs statements
 * as one query of the query runtime, and the connectors are table factories Flink finds by its SPI
 * ({@code 'connector' = 'delta'}, ...), which take the query's context from the runtime.
 */
package io.lakestream.sql;
