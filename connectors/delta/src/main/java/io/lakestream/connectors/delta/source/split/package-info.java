/**
 * The Delta sources' splits: one file and the rows of it a reader has already emitted ({@link
 * io.lakestream.connectors.delta.source.split.DeltaFileSplit}; for data files {@link
 * io.lakestream.connectors.delta.source.split.DeltaSourceSplit}, id {@code v-<version>-<index>}),
 * with versioned serializers for reader and enumerator state ({@link
 * io.lakestream.connectors.delta.source.split.DeltaSourceSplitSerializer}, sharing encodings
 * through {@link io.lakestream.connectors.delta.source.split.DeltaStateSerializer}). Internal to
 * the sources.
 */
package io.lakestream.connectors.delta.source.split;
