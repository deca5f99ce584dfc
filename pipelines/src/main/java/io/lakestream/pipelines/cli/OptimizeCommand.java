package io.lakestream.pipelines.cli;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.maintenance.DeltaOptimize;
import io.lakestream.connectors.delta.maintenance.DeltaOptimizeResult;
import io.lakestream.connectors.options.OptionType;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.state.Locations;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lakestream optimize --table <path> [--where <partition predicate>] [--target-file-size
 * 128m]}: Delta's {@code OPTIMIZE} (bin-packing) of a table, once. Prints what it replaced; exits 0
 * also when there was nothing to compact or a concurrent commit won (the table is unchanged then,
 * and the line says to run it again). A bad predicate or size is a usage error (exit 2) naming the
 * form.
 */
@Command(
    name = "optimize",
    mixinStandardHelpOptions = true,
    description =
        "Compact a Delta table's small files (OPTIMIZE, bin-packing; dataChange=false: streams and"
            + " the change data feed see no new rows).")
final class OptimizeCommand implements Callable<Integer> {
  @Option(
      names = "--table",
      required = true,
      paramLabel = "<path>",
      description = "The Delta table (local path, file:// or s3a:// URI).")
  String table;

  @Option(
      names = "--where",
      paramLabel = "<predicate>",
      description =
          "Only partitions matching this predicate on partition columns, e.g. \"day >="
              + " '2026-12-01' AND region IN ('eu', 'us')\".")
  String where;

  @Option(
      names = "--target-file-size",
      defaultValue = "128m",
      paramLabel = "<size>",
      description =
          "Files below this size are packed into files of about this size (default:"
              + " ${DEFAULT-VALUE}).")
  String targetFileSize;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    long target;
    try {
      target = OptionType.BYTE_SIZE.parse(targetFileSize);
    } catch (RuntimeException e) {
      throw new LakestreamException(
          PipelineErrorClass.CLI_INVALID_ARGUMENT,
          "--target-file-size '" + targetFileSize + "' is not a size such as 128m or 1g");
    }
    DeltaOptimize.Builder optimize =
        DeltaOptimize.forTable(DeltaTable.forPath(Locations.absolute(table)))
            .targetFileSize(target);
    if (where != null) {
      optimize.where(where);
    }
    DeltaOptimizeResult result = optimize.build().run();
    PrintWriter out = spec.commandLine().getOut();
    out.println(describe(result));
    out.flush();
    return 0;
  }

  private static String describe(DeltaOptimizeResult r) {
    return switch (r.status()) {
      case COMMITTED ->
          String.format(
              "OPTIMIZE committed version %d: %d files (%d bytes) in %d partition(s) replaced by %d"
                  + " files (%d bytes)",
              r.version(),
              r.filesRemoved(),
              r.bytesRemoved(),
              r.partitions(),
              r.filesAdded(),
              r.bytesAdded());
      case NOTHING_TO_COMPACT ->
          "OPTIMIZE: no partition has two or more files below the target size; nothing to do"
              + " (version "
              + r.readVersion()
              + ")";
      case LOST_TO_CONCURRENT_COMMIT ->
          "OPTIMIZE: another writer removed files it was compacting (or changed the table) first;"
              + " nothing was committed. Run it again.";
    };
  }
}
