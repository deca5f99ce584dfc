/**
 * A query as the restart checks see it. {@link io.lakestream.state.query.QueryContext} is what the
 * sources and sinks of a running query know about it; {@link
 * io.lakestream.state.query.QueryFingerprint} (sources, stateful operators with their state schema,
 * sinks, state backend, max parallelism) is stored in the location's {@link
 * io.lakestream.state.query.QueryMetadata}, and {@link
 * io.lakestream.state.query.RestartCompatibility} compares it before every restart, refusing with
 * an {@link io.lakestream.state.query.IncompatibleRestartException} that lists every problem before
 * anything runs. Sources, sinks and stateful operators describe themselves through {@link
 * io.lakestream.state.query.DescribedSource}, {@link io.lakestream.state.query.DescribedSink} and
 * {@link io.lakestream.state.query.DeclaresStateSchema}.
 */
package io.lakestream.state.query;
