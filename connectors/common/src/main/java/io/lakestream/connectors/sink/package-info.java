/**
 * The epoch-commit sink framework: {@link io.lakestream.connectors.sink.EpochSink} (Flink Sink V2)
 * has parallel writers produce results, gathers them per checkpoint (aligned, exactly-once
 * checkpoints required) and commits each epoch as one unit through ONE committer calling an {@link
 * io.lakestream.connectors.sink.EpochCommitAction} once the checkpoint completed. Results become
 * visible exactly once if the action is idempotent per epoch; a failing commit fails the job, which
 * restores and commits again. Users meet it through the sink builders and {@link
 * io.lakestream.connectors.sink.EpochFunction}, the foreachBatch callback (at-least-once per
 * epoch). Each {@link io.lakestream.connectors.sink.EpochCommitOutcome} is recorded in the
 * checkpoint location for progress ({@link io.lakestream.connectors.sink.CommitRecordListener}).
 */
package io.lakestream.connectors.sink;
