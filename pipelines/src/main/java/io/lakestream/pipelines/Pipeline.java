package io.lakestream.pipelines;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;

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
}
