package io.lakestream.pipelines;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.List;
import java.util.function.Supplier;

/**
 * The stages an embedded {@code lakestream run} starts after a pipeline's own query, with what they
 * share for the rest of the run (the demo: its embedded PostgreSQL server): opened by {@link
 * Pipeline#embeddedStages} before the first stage, and closed by the run after the summary is
 * printed, also when a stage fails or a signal ends the run.
 *
 * <p>{@link #close()} must not throw: it releases what the stages used (stops a server) and reports
 * a problem doing so itself.
 */
@PublicEvolving
public interface EmbeddedStages extends AutoCloseable {

  /** The stages to run, in order; a stage whose service could not start is left out. */
  List<Pipeline> stages();

  /** The lines printed after the last stage ended successfully. */
  List<String> summary();

  /** Releases what the stages shared; never throws. */
  @Override
  void close();

  /** Stages that share nothing, with a summary computed when asked. */
  static EmbeddedStages of(List<Pipeline> stages, Supplier<List<String>> summary) {
    List<Pipeline> copy = List.copyOf(stages);
    return new EmbeddedStages() {
      @Override
      public List<Pipeline> stages() {
        return copy;
      }

      @Override
      public List<String> summary() {
        return summary.get();
      }

      @Override
      public void close() {}
    };
  }
}
