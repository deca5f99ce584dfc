/**
 * {@code 'connector' = 'delta'}: a Delta table as a Flink SQL source and sink, on the DataStream
 * Delta connector.
 */
package io.lakestream.sql.connector.delta;
