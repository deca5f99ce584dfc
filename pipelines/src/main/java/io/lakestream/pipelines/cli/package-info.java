/**
 * The {@code lakestream} command line ({@link io.lakestream.pipelines.cli.LakestreamCli}, the main
 * class for {@code java} and {@code flink run}): {@code run <pipeline>}, {@code describe-checkpoint
 * <dir>}, {@code ui} (the query page) and {@code table-changes}. Exit codes: 0 success, 1 the query
 * failed (its error class and causes are printed), 2 bad usage, including every {@code
 * LakestreamException} raised before the query runs (its message names what to change).
 */
package io.lakestream.pipelines.cli;
