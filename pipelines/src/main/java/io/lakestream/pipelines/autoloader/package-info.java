/**
 * Pipeline E1, {@code bronze-files} ({@link
 * io.lakestream.pipelines.autoloader.OrdersBronzeFromFiles}): JSON files landing under a path ->
 * Auto Loader (schema inferred, new columns added) -> the exactly-once Delta table {@code
 * orders_bronze_files} with {@code mergeSchema}, so a column the files gain is added to the table
 * after the query stops with {@code UnknownFieldException} and is restarted.
 */
package io.lakestream.pipelines.autoloader;
