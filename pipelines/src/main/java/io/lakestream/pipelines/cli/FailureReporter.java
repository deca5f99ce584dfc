package io.lakestream.pipelines.cli;

import io.lakestream.state.checkpoint.CheckpointLocationException;
import io.lakestream.state.query.IncompatibleRestartException;
import picocli.CommandLine;

/**
 * Turns failures into readable output: a configuration mistake (bad option, unusable or
 * incompatible checkpoint location) prints its message, which names what to change (exit 2); a
 * query failure prints the chain of causes, then the stack trace (exit 1).
 */
final class FailureReporter implements CommandLine.IExecutionExceptionHandler {
  static final int USAGE = 2;
  static final int QUERY_FAILED = 1;

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    if (e instanceof IllegalArgumentException
        || e instanceof UnsupportedOperationException
        || e instanceof CheckpointLocationException
        || e instanceof IncompatibleRestartException) {
      commandLine.getErr().println("lakestream: " + e.getMessage());
      return USAGE;
    }
    commandLine.getErr().println("lakestream: the query failed:");
    for (Throwable t = e; t != null; t = t.getCause()) {
      commandLine.getErr().println("  " + t.getClass().getSimpleName() + ": " + t.getMessage());
      if (t.getCause() == t) {
        break;
      }
    }
    e.printStackTrace(commandLine.getErr());
    return QUERY_FAILED;
  }
}
