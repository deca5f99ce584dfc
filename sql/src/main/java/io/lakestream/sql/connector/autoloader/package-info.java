/**
 * {@code 'connector' = 'cloudFiles'}: Auto Loader as a Flink SQL source, with Databricks' {@code
 * cloudFiles.*} options, the rescued data column and the {@code _metadata} file columns.
 */
package io.lakestream.sql.connector.autoloader;
