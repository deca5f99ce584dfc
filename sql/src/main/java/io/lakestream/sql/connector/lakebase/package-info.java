/**
 * {@code 'connector' = 'lakebase'} (alias {@code 'postgresql'}): a PostgreSQL (Lakebase) table as a
 * Flink SQL sink on the DataStream Lakebase sink, with its options ({@link
 * io.lakestream.sql.connector.lakebase.LakebaseSqlOptions}), upserts by key and, for a changelog
 * query, deletes by key ({@link io.lakestream.sql.connector.lakebase.LakebaseTableFactory}).
 */
package io.lakestream.sql.connector.lakebase;
