/**
 * Auto Loader's schema: {@link io.lakestream.connectors.autoloader.schema.AutoLoaderSchema} (data
 * columns, partition columns, optional {@code _rescued_data}), its history under {@code
 * cloudFiles.schemaLocation} ({@link io.lakestream.connectors.autoloader.schema.SchemaHistory}:
 * {@code _schemas/N}, read on restart instead of inferring again), the types and their DDL text
 * ({@link io.lakestream.connectors.autoloader.schema.AutoLoaderTypes}) and turning records into
 * rows ({@link io.lakestream.connectors.autoloader.schema.RecordConverter}). Failures: {@link
 * io.lakestream.connectors.autoloader.schema.UnknownFieldException} (new columns; rebuild the query
 * to continue), {@link io.lakestream.connectors.autoloader.schema.MalformedRecordException} (a
 * record with nowhere to go) and {@link
 * io.lakestream.connectors.autoloader.schema.SchemaInferenceException}.
 */
package io.lakestream.connectors.autoloader.schema;
