package io.lakestream.pipelines.cli;

import io.lakestream.runtime.QueryListener;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryException;
import java.time.Instant;
import org.apache.flink.runtime.client.JobCancellationException;

/**
 * How a command waits for the query it started, on the console of whoever runs it: one line per
 * epoch, SIGTERM/SIGINT stopping an embedded query with a savepoint ({@link SignalStop}), and the
 * exit code; a detached submission returns at once saying where the job reports.
 */
final class QueryConsole {
  /** Carriage return, then ANSI "erase the line". */
  private static final String CLEAR_LINE = "\r\u001b[2K";

  /**
   * Prints each epoch's one-line summary; for a bounded run on a terminal instead one line redrawn
   * in place with the backlog done and left ({@link BacklogBar}), ended when the query ends.
   */
  static QueryListener progressPrinter(boolean bounded) {
    if (!bounded || System.console() == null) {
      return new QueryListener() {
        @Override
        public void onQueryProgress(StreamingQuery query, QueryProgress progress) {
          System.out.println(progress.summary());
        }
      };
    }
    BacklogBar bar = new BacklogBar();
    return new QueryListener() {
      private String line;

      /**
       * Draws the line with the cursor left at its start: a log line printed next overwrites it.
       */
      @Override
      public synchronized void onQueryProgress(StreamingQuery query, QueryProgress progress) {
        line = bar.add(progress, Instant.now());
        System.out.print(CLEAR_LINE + line + "\r");
        System.out.flush();
      }

      /** Draws the last line again, to stay. */
      @Override
      public synchronized void onQueryTerminated(StreamingQuery query, Throwable error) {
        if (line != null) {
          System.out.println(CLEAR_LINE + line);
        }
      }
    };
  }

  private QueryConsole() {}

  /**
   * Waits for {@code query} to end.
   *
   * @param location its checkpoint location, for the messages
   * @param bounded whether it stops by itself (availableNow, once)
   * @return 0, or 128 + the number of the signal that stopped it
   */
  static int await(StreamingQuery query, String location, boolean bounded) throws Exception {
    if (query.isDetached()) {
      printDetached(query, location, bounded);
      return 0;
    }
    SignalStop signals = LakestreamCli.embedded() ? SignalStop.install(query, System.out) : null;
    try {
      query.awaitTermination();
    } catch (StreamingQueryException e) {
      if (signals == null || signals.signal().isEmpty() || !cancelled(e)) {
        throw e;
      }
      // stopped before it could take a savepoint (its tasks were still starting): cancelled
      System.out.printf(
          "Query '%s' was cancelled on %s before it could take a savepoint. Run the same command"
              + " again to resume it from the last completed checkpoint in %s.%n",
          query.name(), signals.signal().get(), location);
      return signals.exitCode();
    }
    if (signals != null && signals.signal().isPresent()) {
      System.out.printf(
          "Query '%s' stopped on %s. Run the same command again to resume it from %s.%n",
          query.name(), signals.signal().get(), location);
      return signals.exitCode();
    }
    return 0;
  }

  /** Whether {@code e} is the end of a cancelled job. */
  private static boolean cancelled(Throwable e) {
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof JobCancellationException) {
        return true;
      }
    }
    return false;
  }

  /** Where a detached query reports, and how it ends. */
  static void printDetached(StreamingQuery query, String location, boolean bounded) {
    System.out.printf(
        "Query '%s' (run %s) submitted detached; the job writes its progress to %s/progress"
            + " and %s.%n",
        query.name(),
        query.runId(),
        location,
        bounded
            ? "stops by itself with a savepoint once it has read what is available now"
            : "runs until stopped (flink stop --savepointPath <checkpoint>/savepoints <job id>)");
  }
}
