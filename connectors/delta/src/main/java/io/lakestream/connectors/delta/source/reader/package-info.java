/**
 * The Delta sources' readers: {@link
 * io.lakestream.connectors.delta.source.reader.DeltaFileSplitReader} reads its one-file splits one
 * after the other, emits their rows as Flink {@code Row}s and asks the enumerator for a file when
 * it has none; its checkpoint holds the unfinished splits and the rows already emitted of the
 * current one, so a restore skips them. {@link
 * io.lakestream.connectors.delta.source.reader.DeltaSourceReader} reads data files. Internal to the
 * sources.
 */
package io.lakestream.connectors.delta.source.reader;
