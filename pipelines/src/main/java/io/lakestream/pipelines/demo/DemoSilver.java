package io.lakestream.pipelines.demo;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.sink.ForeachBatchSinkBuilder;
import io.lakestream.connectors.delta.source.DeltaSource;
import io.lakestream.connectors.delta.source.DeltaSourceBuilder;
import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.pipelines.silver.OrdersSilver;
import io.lakestream.pipelines.silver.OrdersSilverTables;
import io.lakestream.pipelines.silver.SilverEpochFunction;
import io.lakestream.pipelines.silver.SilverInput;
import io.lakestream.runtime.Dataflow;
import io.lakestream.runtime.Trigger;
import java.math.BigDecimal;
import java.time.Instant;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.types.Row;

/**
 * The demo's silver stage (query {@code demo-silver}): the bronze table {@code orders} read as a
 * Delta stream -> foreachBatch with the silver pipeline's {@link SilverEpochFunction}: valid orders
 * are MERGEd into {@code orders_silver} (key {@code order_id}, change data feed enabled, a newer
 * {@code order_ts} wins), every other row is appended to {@code orders_silver_quarantine} with its
 * reason. Bronze is already free of duplicates, so this stage keeps no state but its source's
 * position. Exactly once per table, as the silver pipeline ({@code txn(appId, epoch)}).
 *
 * <p>Runs after the bronze query in an embedded {@code lakestream run demo}; fails (naming the
 * table) when there is no bronze table yet.
 */
@Internal
public final class DemoSilver implements Pipeline {
  /** The source's name and uid. */
  static final String SOURCE = "bronze-orders";

  /** The foreachBatch sink's name and uid. */
  static final String SINK = "silver-merge";

  @Override
  public String name() {
    return "demo-silver";
  }

  @Override
  public String description() {
    return "the demo's bronze orders -> MERGE into orders_silver (change data feed), rejects into"
        + " orders_silver_quarantine";
  }

  @Override
  public Trigger defaultTrigger() {
    return Trigger.availableNow();
  }

  @Override
  public Dataflow dataflow(PipelineOptions options) {
    String bronze = options.path("orders");
    DeltaTable silver = DeltaTable.forPath(options.path(OrdersSilver.SILVER_TABLE));
    DeltaTable quarantine = DeltaTable.forPath(options.path(OrdersSilver.QUARANTINE_TABLE));
    return (env, query) -> {
      DeltaSource source =
          DeltaSourceBuilder.forTable(bronze)
              .name(SOURCE)
              .columns(BronzeRow.COLUMNS)
              .query(query)
              .build();
      env.fromSource(source, WatermarkStrategy.noWatermarks(), SOURCE)
          .uid(SOURCE)
          .map(new BronzeRow())
          .returns(SilverInput.class)
          .uid("bronze-to-silver")
          .name("bronze rows to validate")
          .sinkTo(
              ForeachBatchSinkBuilder.forStaging(
                      query.checkpointLocation().replaceAll("/+$", "") + "/foreach-batch/" + SINK,
                      OrdersSilverTables.STAGING,
                      OrdersSilverTables::stagingRow)
                  .function(new SilverEpochFunction(silver, quarantine, query.appId()))
                  .query(query)
                  .sinkName(SINK)
                  .build())
          .uid(SINK)
          .name("MERGE into orders_silver, rejects into orders_silver_quarantine");
    };
  }

  /** A bronze row ({@link #COLUMNS}) as an order still to validate. */
  static final class BronzeRow implements MapFunction<Row, SilverInput> {
    private static final long serialVersionUID = 1L;
    static final String[] COLUMNS = {
      "event_id", "order_id", "customer_id", "amount", "currency", "order_ts"
    };

    @Override
    public SilverInput map(Row row) {
      SilverInput in = new SilverInput();
      in.eventId = (String) row.getField(0);
      in.orderId = (String) row.getField(1);
      in.customerId = (String) row.getField(2);
      in.amount = (BigDecimal) row.getField(3);
      in.currency = (String) row.getField(4);
      Instant ts = (Instant) row.getField(5);
      in.orderTsMillis = ts == null ? null : ts.toEpochMilli();
      return in;
    }
  }
}
