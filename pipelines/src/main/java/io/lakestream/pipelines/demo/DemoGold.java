package io.lakestream.pipelines.demo;

import io.lakestream.api.annotation.Internal;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.gold.OrdersGoldDaily;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The demo's gold stage (query {@code demo-gold}): the gold pipeline ({@link OrdersGoldDaily}) on
 * the demo's silver table: silver's change data feed -> orders and total amount per order day
 * (keyed state, uid {@code daily-totals}) -> MERGE into {@code orders_gold_daily}. Its first run
 * reads silver's snapshot, later runs only silver's new versions.
 *
 * <p>Runs after {@link DemoSilver} in an embedded {@code lakestream run demo}; fails naming the
 * table when there is no silver table yet.
 */
@Internal
public final class DemoGold implements Pipeline {
  @Override
  public String name() {
    return "demo-gold";
  }

  @Override
  public String description() {
    return "the demo's silver change feed -> daily totals -> MERGE into orders_gold_daily";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.availableNow();
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    return OrdersGoldDaily.dataflow(
        new PipelineOptions(options.output(), 0, 0, 0, Map.of()),
        UnaryOperator.identity(),
        UnaryOperator.identity());
  }
}
