package io.lakestream.connectors.lakebase.sink.writer;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.lakebase.StagingTable;

/**
 * The committable of the exactly-once Lakebase sink: what one writer subtask staged for one epoch
 * ({@link StagingTable.Tag}), how many rows and how many of them deletes. Held in the committer's
 * checkpointed state ({@link StagedEpochSerializer}) until the epoch is applied.
 *
 * @param tag which staged rows are the epoch's
 * @param rows rows staged
 * @param deletes rows among them that delete their key
 */
@Internal
public record StagedEpoch(StagingTable.Tag tag, long rows, long deletes) {}
