/**
 * The query runtime, Structured Streaming's query API on Flink. Start from {@link
 * io.lakestream.runtime.StreamingQueryBuilder}: it takes a {@link io.lakestream.runtime.Dataflow},
 * a checkpoint location and a {@link io.lakestream.runtime.Trigger} (one epoch is the work between
 * two completed checkpoints) and returns a {@link io.lakestream.runtime.StreamingQuery}, which
 * reports {@link io.lakestream.runtime.QueryProgress} per committed epoch, a {@link
 * io.lakestream.runtime.QueryStatus}, and tells a {@link io.lakestream.runtime.QueryListener}.
 * Every refusal (settings, checkpoint location in use or nested, restart matrix) happens before the
 * job is submitted, with a {@link io.lakestream.runtime.QueryErrorClass} or the state module's
 * class; a query that fails while running ends in a {@link
 * io.lakestream.runtime.StreamingQueryException} carrying the error class of its cause.
 *
 * <p>The run's work (progress files, the location's lease, the availableNow stop) is done inside
 * the job, by a runner Flink keeps on the JobManager, so detached and application-mode submissions
 * behave as attached ones. {@link io.lakestream.runtime.QueryUpgrade} swaps a running query for a
 * new program through a savepoint after checking it; {@link
 * io.lakestream.runtime.SchemaChangeRestarts} rebuilds a query whose input schema changed.
 */
package io.lakestream.runtime;
