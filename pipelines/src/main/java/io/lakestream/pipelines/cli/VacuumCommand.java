package io.lakestream.pipelines.cli;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.maintenance.DeltaVacuum;
import io.lakestream.connectors.delta.maintenance.DeltaVacuumResult;
import io.lakestream.connectors.options.OptionType;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.state.Locations;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lakestream vacuum --table <path> [--retain 168h] [--dry-run] [--force]}: Delta's {@code
 * VACUUM}. Deletes (or with {@code --dry-run} lists) the files no version within the retention
 * needs; a retention below the table's {@code delta.deletedFileRetentionDuration} is refused (exit
 * 2, naming it) unless {@code --force}. Directories starting with {@code _} (checkpoint locations)
 * are never touched.
 */
@Command(
    name = "vacuum",
    mixinStandardHelpOptions = true,
    description =
        "Delete the files of a Delta table that no version within the retention needs (VACUUM).")
final class VacuumCommand implements Callable<Integer> {
  @Option(
      names = "--table",
      required = true,
      paramLabel = "<path>",
      description = "The Delta table (local path, file:// or s3a:// URI).")
  String table;

  @Option(
      names = "--retain",
      paramLabel = "<duration>",
      description =
          "Keep what versions of this age need, e.g. 168h or 7d (default: the table's"
              + " delta.deletedFileRetentionDuration, 7 days unless set).")
  String retain;

  @Option(names = "--dry-run", description = "List the files, delete nothing.")
  boolean dryRun;

  @Option(
      names = "--force",
      description = "Allow a retention below the table's (readers of older versions may fail).")
  boolean force;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Duration retention = null;
    if (retain != null) {
      try {
        retention = OptionType.DURATION.parse(retain);
      } catch (RuntimeException e) {
        throw new LakestreamException(
            PipelineErrorClass.CLI_INVALID_ARGUMENT,
            "--retain '" + retain + "' is not a duration such as 168h or 7d");
      }
    }
    DeltaVacuumResult result =
        DeltaVacuum.of(DeltaTable.forPath(Locations.absolute(table)), retention, dryRun, force)
            .run();
    PrintWriter out = spec.commandLine().getOut();
    if (dryRun) {
      result.files().forEach(out::println);
    }
    out.printf(
        "VACUUM%s: %d files (%d bytes) %s, retention %dh%n",
        dryRun ? " (dry run)" : "",
        result.files().size(),
        result.bytes(),
        dryRun ? "to delete" : "deleted",
        Duration.ofMillis(result.retentionMillis()).toHours());
    out.flush();
    return 0;
  }
}
