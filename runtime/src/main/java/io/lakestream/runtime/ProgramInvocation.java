package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * How to run a query's program again: its main class and arguments, as given to {@code flink run}.
 * A detached query on a session cluster ({@code flink run -d}) has no client left to rebuild it
 * after a schema change; with this, the JobManager runs the program again through Flink's own jar
 * submission ({@code POST /jars/upload}, {@code POST /jars/:id/run}), which rebuilds the query with
 * the recorded schema and restores its checkpoint ({@link StreamingQueryBuilder#programArguments}).
 *
 * <p>The arguments must start the same query again: no one-off flags such as a snapshot to restore.
 * They are sent to the JobManager's REST API on the JobManager itself and not logged.
 *
 * @param entryClass the program's main class
 * @param args its arguments
 */
@PublicEvolving
public record ProgramInvocation(String entryClass, List<String> args) implements Serializable {
  public ProgramInvocation {
    Objects.requireNonNull(entryClass, "entryClass");
    args = List.copyOf(args);
  }
}
