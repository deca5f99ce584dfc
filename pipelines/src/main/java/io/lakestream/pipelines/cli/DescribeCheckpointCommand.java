package io.lakestream.pipelines.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.state.checkpoint.CheckpointLocation;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.checkpoint.RestorableSnapshot;
import io.lakestream.state.query.QueryMetadata;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code lakestream describe-checkpoint <dir>}: what a checkpoint location holds, for people: query
 * id and name, the last epoch with its offsets and commits, the state size and the snapshot the
 * next run restores.
 */
@Command(
    name = "describe-checkpoint",
    mixinStandardHelpOptions = true,
    description = "Describe a query's checkpoint location (local path or s3://).")
final class DescribeCheckpointCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "<dir>", description = "The checkpoint location.")
  String location;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Configuration conf = new Configuration();
    FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));
    CheckpointLocation loc = new CheckpointLocation(StreamingQueryBuilder.toUri(location));
    PrintWriter out = spec.commandLine().getOut();
    Optional<QueryMetadata> metadata = loc.readMetadata();
    if (metadata.isEmpty()) {
      throw new LakestreamException(
          PipelineErrorClass.CLI_INVALID_ARGUMENT,
          loc + " is not a lakestream checkpoint location (no metadata file)");
    }
    QueryMetadata m = metadata.get();
    out.printf("checkpoint location  %s%n", loc);
    out.printf("query                %s (id %s)%n", m.queryName(), m.queryId());
    out.printf("created              %s%n", m.createdAt());
    out.printf("last run             %s%n", m.lastRunId());
    out.printf(
        "sources              %s%n",
        m.fingerprint().sources().stream().map(s -> s.name() + " (" + s.type() + ")").toList());
    out.printf(
        "stateful operators   %s%n",
        m.fingerprint().statefulOperators().stream().map(o -> o.uid()).toList());
    out.printf(
        "sinks                %s%n",
        m.fingerprint().sinks().stream().map(s -> s.name() + " (" + s.kind() + ")").toList());
    out.printf(
        "state backend        %s, max parallelism %d%n",
        m.fingerprint().stateBackend(), m.fingerprint().maxParallelism());
    out.printf("state size           %,d bytes%n", loc.stateSizeBytes());
    Optional<RestorableSnapshot> snapshot = loc.newestSnapshot();
    out.printf(
        "restorable snapshot  %s%n",
        snapshot
            .map(
                s ->
                    s.kind().name().toLowerCase()
                        + " "
                        + s.path()
                        + " (epoch "
                        + s.checkpointId()
                        + ")")
            .orElse("none (the next run starts from the sources' starting positions)"));
    EpochLog epochs = loc.epochs();
    List<Long> committed = epochs.committedEpochs();
    if (committed.isEmpty()) {
      out.println("last epoch           none committed");
      return 0;
    }
    long last = committed.get(committed.size() - 1);
    out.printf("last epoch           %d%n", last);
    for (Map.Entry<String, JsonNode> e : latestOffsets(epochs, last).entrySet()) {
      out.printf("  offsets  %-20s %s%n", e.getKey(), e.getValue().path("offsets"));
    }
    for (Map.Entry<String, JsonNode> e : epochs.readCommits(last).entrySet()) {
      JsonNode c = e.getValue();
      out.printf(
          "  commit   %-20s %s, %d rows, watermark %s%n",
          e.getKey(),
          c.path("status").asText(),
          c.path("numOutputRows").asLong(),
          c.path("watermark").isNull() ? "-" : c.path("watermark").asText());
    }
    return 0;
  }

  private static Map<String, JsonNode> latestOffsets(EpochLog epochs, long upTo)
      throws java.io.IOException {
    List<Long> withOffsets = epochs.offsetEpochs();
    for (int i = withOffsets.size() - 1; i >= 0; i--) {
      if (withOffsets.get(i) <= upTo) {
        return epochs.readOffsets(withOffsets.get(i));
      }
    }
    return Map.of();
  }
}
