/**
 * Pipeline {@code jdbc-to-delta}: the seeds' JDBC pull (a bounded, partitioned read over JDBC)
 * appended idempotently into a Delta table, one Delta version per partition with a txn action per
 * run and partition.
 */
package io.lakestream.pipelines.jdbc;
