/**
 * The example pipelines behind {@code lakestream run <name>}: a {@link
 * io.lakestream.pipelines.Pipeline} is a named job that builds its dataflow from {@link
 * io.lakestream.pipelines.PipelineOptions} (output location, generated-source rates, {@code -o
 * key=value} options); {@link io.lakestream.pipelines.Pipelines} knows them by name. Pipeline
 * option and input refusals are {@code LakestreamException}s with a {@link
 * io.lakestream.pipelines.PipelineErrorClass}, raised before the job starts. The pipelines
 * themselves (demo, E1 to E5) are in the subpackages and the command line in {@link
 * io.lakestream.pipelines.cli}.
 */
package io.lakestream.pipelines;
