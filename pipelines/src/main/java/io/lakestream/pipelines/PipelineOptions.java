package io.lakestream.pipelines;

import io.lakestream.api.annotation.PublicEvolving;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;

/**
 * Options of the example pipelines, from the command line.
 *
 * @param output where the pipeline writes its tables (absolute URI)
 * @param rows for generated sources: rows available in total (0 = the pipeline's default)
 * @param rowsPerSecond for generated sources: the rate (0 = unlimited)
 * @param maxRowsPerTrigger for generated sources: at most this many rows per epoch (0 = no limit)
 * @param sourceOptions options of the pipeline's external source, named as in Spark's {@code
 *     .option(key, value)} (e.g. {@code kafka.bootstrap.servers}, {@code maxOffsetsPerTrigger})
 */
@PublicEvolving
public record PipelineOptions(
    URI output,
    long rows,
    long rowsPerSecond,
    long maxRowsPerTrigger,
    Map<String, String> sourceOptions) {

  public PipelineOptions {
    sourceOptions = java.util.Collections.unmodifiableMap(new TreeMap<>(sourceOptions));
  }

  /** Options without source options. */
  public PipelineOptions(URI output, long rows, long rowsPerSecond, long maxRowsPerTrigger) {
    this(output, rows, rowsPerSecond, maxRowsPerTrigger, Map.of());
  }

  /** {@code output} joined with {@code child}. */
  public String path(String child) {
    return output.toString().replaceAll("/+$", "") + "/" + child;
  }
}
