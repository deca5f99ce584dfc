/**
 * Auto Loader's discovery splits: discovered files handed to one reader, of which a checkpointed
 * split holds only those not yet emitted ({@link
 * io.lakestream.connectors.autoloader.source.split.FileBatchSplit}, versioned serializer {@link
 * io.lakestream.connectors.autoloader.source.split.FileBatchSplitSerializer}). Internal to Auto
 * Loader.
 */
package io.lakestream.connectors.autoloader.source.split;
