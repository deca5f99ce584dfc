package io.lakestream.pipelines;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.autoloader.OrdersBronzeFromFiles;
import io.lakestream.pipelines.bronze.OrdersBronze;
import io.lakestream.pipelines.clicks.AdClicksPerWindow;
import io.lakestream.pipelines.demo.OrdersDemo;
import io.lakestream.pipelines.gold.GoldToLakebase;
import io.lakestream.pipelines.gold.OrdersGoldDaily;
import io.lakestream.pipelines.jdbc.JdbcToDelta;
import io.lakestream.pipelines.kinesis.KinesisToBronze;
import io.lakestream.pipelines.silver.OrdersSilver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** The pipelines {@code lakestream run} knows, by name. */
@Internal
public final class Pipelines {
  private static final Map<String, Pipeline> ALL = new LinkedHashMap<>();

  static {
    register(new OrdersDemo());
    register(new OrdersBronze());
    register(new OrdersSilver());
    register(new AdClicksPerWindow());
    register(new OrdersGoldDaily());
    register(new OrdersBronzeFromFiles());
    register(new JdbcToDelta());
    register(new GoldToLakebase());
    register(new KinesisToBronze());
  }

  private Pipelines() {}

  private static void register(Pipeline pipeline) {
    ALL.put(pipeline.name(), pipeline);
  }

  /**
   * The pipeline called {@code name}.
   *
   * @throws IllegalArgumentException for an unknown name, listing the known ones
   */
  public static Pipeline byName(String name) {
    Pipeline pipeline = ALL.get(name);
    if (pipeline == null) {
      throw new LakestreamException(
          PipelineErrorClass.PIPELINE_UNKNOWN,
          "unknown pipeline '" + name + "'; known pipelines: " + String.join(", ", ALL.keySet()));
    }
    return pipeline;
  }

  /** Names for CLI completion and help. */
  public static final class Names implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return new ArrayList<>(ALL.keySet()).iterator();
    }
  }
}
