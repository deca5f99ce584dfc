package io.lakestream.pipelines;

import io.lakestream.pipelines.query.Trigger;
import java.net.URI;

/**
 * What the command line chose for one run of a pipeline.
 *
 * @param queryName the query's name (defaults to the pipeline name)
 * @param trigger when epochs commit
 * @param checkpointLocation the query's checkpoint location (absolute URI)
 * @param outputLocation where the pipeline writes its tables (absolute URI)
 * @param rows for generated sources: how many rows (0 = the pipeline's default)
 * @param rowsPerSecond for generated sources: the rate
 * @param parallelism job parallelism
 */
public record RunSettings(
    String queryName,
    Trigger trigger,
    URI checkpointLocation,
    URI outputLocation,
    long rows,
    long rowsPerSecond,
    int parallelism) {}
