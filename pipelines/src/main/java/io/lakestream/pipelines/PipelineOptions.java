package io.lakestream.pipelines;

import java.net.URI;

/**
 * Options of the example pipelines, from the command line.
 *
 * @param output where the pipeline writes its tables (absolute URI)
 * @param rows for generated sources: rows available in total (0 = the pipeline's default)
 * @param rowsPerSecond for generated sources: the rate (0 = unlimited)
 * @param maxRowsPerTrigger for generated sources: at most this many rows per epoch (0 = no limit)
 */
public record PipelineOptions(URI output, long rows, long rowsPerSecond, long maxRowsPerTrigger) {

  /** {@code output} joined with {@code child}. */
  public String path(String child) {
    return output.toString().replaceAll("/+$", "") + "/" + child;
  }
}
