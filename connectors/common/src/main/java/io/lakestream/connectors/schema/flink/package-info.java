/**
 * The Flink side of the schema model ({@link io.lakestream.connectors.schema}): reading Flink rows
 * into sink rows ({@link io.lakestream.connectors.schema.flink.FlinkRowFields}). Kept apart so that
 * the model itself stays Flink-free.
 */
package io.lakestream.connectors.schema.flink;
