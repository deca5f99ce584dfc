package io.lakestream.pipelines.soak;

import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.bronze.OrdersBronze;
import io.lakestream.pipelines.gold.OrdersGoldDaily;
import io.lakestream.pipelines.silver.OrdersSilver;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.QueryListener;
import io.lakestream.runtime.QueryProgress;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * One query of the soak in its own JVM: bronze, silver or gold as {@code lakestream run} builds it
 * (the pipeline's dataflow, the query runtime, embedded Flink, a processing-time trigger), with one
 * addition: a pass-through map that fails its task when the soak creates the file {@code
 * <lake>/_soak/fail-<pipeline>}, so the soak can inject a task failure into a running process.
 *
 * <p>Usage: {@code SoakQuery <pipeline> <lake directory> <bootstrap servers> <trigger>}.
 */
public final class SoakQuery {
  private SoakQuery() {}

  /** The file whose creation fails one task of {@code pipeline}'s query. */
  static Path failureFile(Path lake, String pipeline) {
    return lake.resolve("_soak").resolve("fail-" + pipeline);
  }

  public static void main(String[] args) throws Exception {
    String pipeline = args[0];
    Path lake = Path.of(args[1]).toAbsolutePath();
    Map<String, String> source =
        pipeline.equals("gold")
            ? Map.of("maxFilesPerTrigger", "50")
            : Map.of("kafka.bootstrap.servers", args[2], "maxOffsetsPerTrigger", "2000");
    PipelineOptions options = new PipelineOptions(lake.toUri(), 0, 0, 0, source);
    String failure = failureFile(lake, pipeline).toString();
    StreamingQuery query =
        StreamingQueryBuilder.of(dataflow(pipeline, options, failure))
            .queryName(pipeline)
            .checkpointLocation(lake.resolve("_checkpoints").resolve(pipeline).toUri())
            .trigger(Trigger.parse(args[3]))
            .parallelism(2)
            .listener(
                new QueryListener() {
                  @Override
                  public void onQueryProgress(StreamingQuery q, QueryProgress progress) {
                    System.out.println(progress.summary());
                  }
                })
            .start();
    query.awaitTermination();
  }

  private static Dataflow dataflow(String pipeline, PipelineOptions options, String failure) {
    return switch (pipeline) {
      case "bronze" -> OrdersBronze.dataflow(options, tap(failure));
      case "silver" -> OrdersSilver.dataflow(options, tap(failure), UnaryOperator.identity());
      case "gold" -> OrdersGoldDaily.dataflow(options, tap(failure), UnaryOperator.identity());
      default -> throw new IllegalArgumentException("not a soak pipeline: " + pipeline);
    };
  }

  private static <T> UnaryOperator<DataStream<T>> tap(String failure) {
    return stream ->
        stream.map(new FailOnFile<T>(failure)).returns(stream.getType()).uid("soak-failure");
  }

  /**
   * Passes every element on; throws once the file {@code path} exists (and deletes it, so exactly
   * one task fails and the restarted one runs on). Looks for the file at most every 100 ms.
   */
  static final class FailOnFile<T> implements MapFunction<T, T> {
    private static final long CHECK_NANOS = 100_000_000L;
    private final String path;
    private transient long nextCheck;

    FailOnFile(String path) {
      this.path = path;
    }

    @Override
    public T map(T value) {
      long now = System.nanoTime();
      if (now - nextCheck >= 0) {
        nextCheck = now + CHECK_NANOS;
        try {
          if (Files.deleteIfExists(Path.of(path))) {
            throw new IllegalStateException("soak: task failure injected (" + path + ")");
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return value;
    }
  }
}
