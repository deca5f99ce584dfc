package io.lakestream.state.query;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.StateErrorClass;
import java.util.List;

/**
 * A query cannot restart on its checkpoint location because it changed in a way the checkpoint
 * cannot follow. Thrown before anything runs; the message lists every problem and what to do. Error
 * class {@link StateErrorClass#INCOMPATIBLE_RESTART}.
 */
@PublicEvolving
public class IncompatibleRestartException extends LakestreamException {
  private static final long serialVersionUID = 1L;
  private final List<String> problems;

  public IncompatibleRestartException(List<String> problems) {
    super(
        StateErrorClass.INCOMPATIBLE_RESTART,
        "This query cannot restart from its checkpoint location:\n  - "
            + String.join("\n  - ", problems)
            + "\nUndo these changes to resume the query, or start it as a new query with a new"
            + " checkpoint location (--checkpoint <new dir>), which starts from scratch: sources"
            + " from their starting positions, empty state, a new sink transaction app id.");
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
