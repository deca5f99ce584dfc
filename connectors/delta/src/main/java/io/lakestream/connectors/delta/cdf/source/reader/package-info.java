/**
 * The CDF source's reader ({@link
 * io.lakestream.connectors.delta.cdf.source.reader.DeltaCdfSourceReader}): reads its change files
 * one after the other in the task thread and emits their change rows; its checkpoint holds the
 * unfinished files and the rows already emitted of the current one, so no change row is lost or
 * repeated. A read failure fails the task, naming the file. Internal to the source.
 */
package io.lakestream.connectors.delta.cdf.source.reader;
