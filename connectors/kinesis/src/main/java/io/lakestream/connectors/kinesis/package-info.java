/**
 * The Kinesis Data Streams source: options with Databricks' names ({@link
 * io.lakestream.connectors.kinesis.KinesisSourceOptions}), the row of each record ({@link
 * io.lakestream.connectors.kinesis.KinesisRecord}) and the error classes.
 */
package io.lakestream.connectors.kinesis;
