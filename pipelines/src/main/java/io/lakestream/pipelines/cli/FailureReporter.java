package io.lakestream.pipelines.cli;

import picocli.CommandLine;

/**
 * Turns failures into readable output: a configuration mistake prints one line naming what to
 * change (exit 2); a query failure prints the chain of causes, then the stack trace (exit 1).
 */
final class FailureReporter implements CommandLine.IExecutionExceptionHandler {
  static final int USAGE = 2;
  static final int QUERY_FAILED = 1;

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    if (e instanceof IllegalArgumentException || e instanceof UnsupportedOperationException) {
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
