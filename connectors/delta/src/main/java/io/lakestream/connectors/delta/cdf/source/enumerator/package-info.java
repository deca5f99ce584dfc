/**
 * The CDF source's enumerator ({@link
 * io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfSourceEnumerator}): discovers each
 * new version's change files and admits them in {@code (version, index)} order within the epoch's
 * {@code maxFilesPerTrigger} and {@code maxBytesPerTrigger}. Its checkpoint ({@link
 * io.lakestream.connectors.delta.cdf.source.enumerator.DeltaCdfEnumeratorState}, versioned
 * serializer) holds the next position and the admitted files not yet handed out, so a restore
 * neither re-reads nor loses a file. Internal to the source.
 */
package io.lakestream.connectors.delta.cdf.source.enumerator;
