/**
 * The rate source's splits: one partition and its next offset ({@link
 * io.lakestream.connectors.rate.source.split.SequenceSplit}), held in reader state with a versioned
 * serializer ({@link io.lakestream.connectors.rate.source.split.SequenceSplitSerializer}; version 1
 * splits still read). Internal to the source.
 */
package io.lakestream.connectors.rate.source.split;
