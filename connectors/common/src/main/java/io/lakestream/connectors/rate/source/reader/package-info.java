/**
 * The rate source's reader ({@link io.lakestream.connectors.rate.source.reader.SequenceReader}):
 * reads its partitions round-robin up to the end available in this run within the per-epoch rate
 * limits, then idles; after a restore from an older snapshot it first replays the committed epochs
 * exactly as they ended. Internal to the source.
 */
package io.lakestream.connectors.rate.source.reader;
