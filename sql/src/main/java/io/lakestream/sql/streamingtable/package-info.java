/**
 * Databricks SQL's streaming tables on lakestream: {@code CREATE OR REFRESH STREAMING TABLE name
 * [SCHEDULE EVERY ... | TRIGGER ON UPDATE ...] AS SELECT ...} in a SQL script is a Delta table of
 * the script's Delta catalog, filled by availableNow refreshes whose checkpoint location lives
 * under the table ({@link io.lakestream.sql.streamingtable.StreamingTableRefresh}), once or on the
 * statement's schedule ({@link io.lakestream.sql.streamingtable.ScheduledRefresh}).
 */
package io.lakestream.sql.streamingtable;
