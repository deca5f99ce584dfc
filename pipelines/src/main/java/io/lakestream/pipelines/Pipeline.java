package io.lakestream.pipelines;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.query.IncompatibleRestartException;
import java.util.List;

/** A named, runnable job of {@code lakestream run}. */
@PublicEvolving
public interface Pipeline {

  /** Short name used on the command line. */
  String name();

  /** One line for the help. */
  String description();

  /** Trigger used when the command line gives none. */
  default Trigger defaultTrigger() {
    return Trigger.unspecified();
  }

  /**
   * The dataflow for these options.
   *
   * @throws IllegalArgumentException when an option is invalid, naming it
   */
  Dataflow dataflow(PipelineOptions options);

  /**
   * The queries an embedded {@code lakestream run} starts, one after the other, once this one has
   * ended by itself (availableNow), each with its own default trigger on its own checkpoint
   * location {@code <output>/_checkpoints/<name>}: the demo's silver and gold. A query that fails
   * or is stopped by a signal ends the run there; the next run resumes each query where it stopped.
   * Empty by default; on a cluster only this pipeline's own query runs.
   */
  default List<Pipeline> followedBy() {
    return List.of();
  }

  /**
   * The stages of an embedded run of this pipeline and what they share, opened once this pipeline's
   * query has ended by itself: by default {@link #followedBy()} and {@link #summary}, sharing
   * nothing. The demo starts its PostgreSQL server here (and adds the stage that writes to it, or
   * prints why not). The caller closes the result.
   *
   * @param checkpointLocation this pipeline's query's checkpoint location
   */
  default EmbeddedStages embeddedStages(PipelineOptions options, String checkpointLocation) {
    return EmbeddedStages.of(followedBy(), () -> summary(options, checkpointLocation));
  }

  /**
   * The error to report when this pipeline's query cannot restart on its checkpoint location: by
   * default {@code refused} itself; a pipeline whose tables a new checkpoint location alone would
   * not start over (the demo) adds what to do instead.
   */
  default LakestreamException explain(
      IncompatibleRestartException refused, PipelineOptions options) {
    return refused;
  }

  /**
   * Lines printed at the end of an embedded run, after its last query (the demo's tables); {@code
   * checkpointLocation} is this pipeline's query's. Empty by default.
   */
  default List<String> summary(PipelineOptions options, String checkpointLocation) {
    return List.of();
  }
}
