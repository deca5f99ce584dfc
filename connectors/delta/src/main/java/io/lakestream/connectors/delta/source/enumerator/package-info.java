/**
 * The Delta sources' enumerators: {@link
 * io.lakestream.connectors.delta.source.enumerator.DeltaFileEnumerator} discovers the table's files
 * on a worker thread and admits them in {@code (version, index)} order within each epoch's limits
 * ({@link io.lakestream.connectors.delta.source.enumerator.DeltaSourceLimits}, through {@link
 * io.lakestream.connectors.delta.source.enumerator.FileAdmission}); {@link
 * io.lakestream.connectors.delta.source.enumerator.DeltaSourceEnumerator} does so for data files.
 * The checkpoint holds the next position and the admitted files not yet handed out, so a restore
 * neither re-reads nor loses a file. Internal to the sources.
 */
package io.lakestream.connectors.delta.source.enumerator;
