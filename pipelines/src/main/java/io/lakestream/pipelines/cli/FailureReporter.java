package io.lakestream.pipelines.cli;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.runtime.StreamingQueryException;
import picocli.CommandLine;

/**
 * Turns failures into readable output: a configuration mistake (a {@link LakestreamException}
 * raised before the query runs: bad option, unusable or incompatible checkpoint location; or a
 * picocli/JDK {@link IllegalArgumentException}) prints its message, which starts with its error
 * class and names what to change (exit 2); a query failure prints its error class and the chain of
 * causes, then the stack trace (exit 1).
 */
final class FailureReporter implements CommandLine.IExecutionExceptionHandler {
  static final int USAGE = 2;
  static final int QUERY_FAILED = 1;

  private Exception failure;

  /** The failure this reporter last reported, or null. */
  Exception failure() {
    return failure;
  }

  @Override
  public int handleExecutionException(
      Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
    failure = e;
    if (e instanceof LakestreamException
        || e instanceof IllegalArgumentException
        || e instanceof UnsupportedOperationException) {
      commandLine.getErr().println("lakestream: " + e.getMessage());
      return USAGE;
    }
    if (e instanceof StreamingQueryException failed) {
      commandLine.getErr().println("lakestream: the query failed [" + failed.errorClass() + "]:");
    } else {
      commandLine.getErr().println("lakestream: the query failed:");
    }
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
