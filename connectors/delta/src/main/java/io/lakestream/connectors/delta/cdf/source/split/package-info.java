/**
 * The CDF source's splits: one change file and the rows of it already emitted ({@link
 * io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplit}, id {@code
 * cdf-<version>-<index>}), held in reader and enumerator state with a versioned serializer ({@link
 * io.lakestream.connectors.delta.cdf.source.split.DeltaCdfSplitSerializer}). Internal to the
 * source.
 */
package io.lakestream.connectors.delta.cdf.source.split;
