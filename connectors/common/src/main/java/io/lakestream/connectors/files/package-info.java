/**
 * The JSON-lines file sink ({@link io.lakestream.connectors.files.JsonLinesFileSink}, rows encoded
 * by a {@link io.lakestream.connectors.files.RowEncoder}): exactly once, committed once per epoch
 * on the epoch-commit sink framework. Data files {@code part-*.jsonl} appear in the directory only
 * when their epoch's checkpoint completed, moved from {@code _staging/} ({@link
 * io.lakestream.connectors.files.StagedFile}s), with one marker per committed epoch in {@code
 * _commits/} naming the query's app id, so a replayed epoch is skipped and a restore never
 * duplicates rows.
 */
package io.lakestream.connectors.files;
