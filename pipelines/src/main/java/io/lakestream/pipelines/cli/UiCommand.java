package io.lakestream.pipelines.cli;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.ui.QueryPage;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lakestream ui [--checkpoints DIR...] [--port N]}: serves the query page ({@link
 * QueryPage}) for the queries under the given checkpoint locations, running or finished, on
 * 127.0.0.1 until the process is stopped (Ctrl-C). Each DIR is a checkpoint location or a directory
 * holding them (two levels deep); local paths or s3://. Prints the page's URL.
 */
@Command(
    name = "ui",
    mixinStandardHelpOptions = true,
    description =
        "Serve the query page (Spark's Streaming tab) for the queries under the given checkpoint"
            + " locations, on 127.0.0.1, until stopped.")
final class UiCommand implements Callable<Integer> {

  @Option(
      names = "--checkpoints",
      arity = "1..*",
      paramLabel = "DIR",
      description =
          "Checkpoint locations, or directories holding them (local paths or s3://). Default: the"
              + " current directory.")
  List<String> checkpoints = new ArrayList<>(List.of("."));

  @Option(
      names = "--port",
      paramLabel = "N",
      description = "Port on 127.0.0.1 (default 0: any free port; the URL is printed).")
  int port;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Counted down to stop serving (tests); otherwise the page serves until the JVM ends. */
  final CountDownLatch stop = new CountDownLatch(1);

  /** The page being served, for tests. */
  volatile QueryPage page;

  @Override
  public Integer call() throws Exception {
    Configuration conf = new Configuration();
    FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));
    List<URI> locations = checkpoints.stream().map(StreamingQueryBuilder::toUri).toList();
    try (QueryPage served = start(locations)) {
      page = served;
      PrintWriter out = spec.commandLine().getOut();
      out.printf("Query page: %s (Ctrl-C to stop)%n", served.url());
      out.flush();
      stop.await();
    }
    return 0;
  }

  private QueryPage start(List<URI> locations) {
    try {
      return QueryPage.start(port, locations);
    } catch (IOException e) {
      throw new LakestreamException(
          PipelineErrorClass.CLI_INVALID_ARGUMENT,
          "cannot serve the query page on 127.0.0.1:"
              + port
              + " ("
              + e.getMessage()
              + "): choose a free port with --port, or --port 0 for any");
    }
  }
}
