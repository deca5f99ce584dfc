/**
 * What lakestream's sources share: the builders' option checking ({@link
 * io.lakestream.connectors.source.CheckedOptionsBuilder}, failing with the options catalog's
 * errors), each epoch's positions recorded in the checkpoint location and the availableNow
 * caught-up signal ({@link io.lakestream.connectors.source.EpochPositions}), per-epoch file limits
 * ({@link io.lakestream.connectors.source.EpochQuota}), split hand-out ({@link
 * io.lakestream.connectors.source.WaitingReaders}, {@link
 * io.lakestream.connectors.source.OnDemandSplitQueue}) and replays after a rewind ({@link
 * io.lakestream.connectors.source.ReplayedEpochs}), which fail with {@link
 * io.lakestream.connectors.source.ReplayAlignmentException} rather than commit rows twice or never.
 */
package io.lakestream.connectors.source;
