/**
 * The file formats Auto Loader reads ({@code cloudFiles.format}: json, csv, parquet, avro, orc,
 * text, binaryFile, xml; {@link io.lakestream.connectors.autoloader.format.FileFormat}), reading
 * one file into rows of the stream's schema ({@link
 * io.lakestream.connectors.autoloader.format.FileRowReader}, which applies the schema evolution
 * mode to new columns) and inferring a schema from a sample of the newest files on a stream's first
 * start ({@link io.lakestream.connectors.autoloader.format.SchemaInference}). A file with columns
 * the schema lacks fails in {@code addNewColumns} mode with an {@code UnknownFieldException} after
 * the widened schema is recorded.
 */
package io.lakestream.connectors.autoloader.format;
