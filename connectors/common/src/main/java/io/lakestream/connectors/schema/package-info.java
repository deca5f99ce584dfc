/**
 * lakestream's one logical schema and type model, shared by every connector.
 *
 * <p>A {@link io.lakestream.connectors.schema.RowSchema} is an ordered list of {@link
 * io.lakestream.connectors.schema.Column}s (name, {@link
 * io.lakestream.connectors.schema.ColumnType}, nullability). The types are Spark's: string,
 * boolean, byte/short/int/long, float/double, decimal(p,s), date, timestamp (an instant, UTC) and
 * timestamp_ntz, binary, a JSON document, and the nested array, map and struct. Sinks turn stream
 * elements into rows with a {@link io.lakestream.connectors.schema.RowFields}; the Java values a
 * row holds per type are listed on {@link io.lakestream.connectors.schema.ColumnType}.
 *
 * <p>Each connector has one converter between this model and its own types: the Delta types of
 * Delta Kernel ({@code io.lakestream.connectors.delta.DeltaTypes}), PostgreSQL column types ({@code
 * io.lakestream.connectors.lakebase.PostgresTypes}), Auto Loader's schema text and inference
 * ({@code io.lakestream.connectors.autoloader.schema.AutoLoaderTypes}). A converter refuses the
 * types its connector cannot take with a {@link io.lakestream.api.error.LakestreamException} of
 * class {@link io.lakestream.connectors.schema.SchemaErrorClass#UNSUPPORTED_DATA_TYPE}; the model
 * itself fails with the other {@link io.lakestream.connectors.schema.SchemaErrorClass}es.
 *
 * <p>This package uses no Flink type, so the Flink-free delta-core can use it; Flink rows are read
 * by {@link io.lakestream.connectors.schema.flink.FlinkRowFields}.
 */
package io.lakestream.connectors.schema;
