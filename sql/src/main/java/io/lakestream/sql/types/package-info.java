/**
 * The schema model's types as Flink SQL types and back ({@link
 * io.lakestream.sql.types.FlinkTypes}), and Flink's internal rows as the schema model's values.
 */
package io.lakestream.sql.types;
