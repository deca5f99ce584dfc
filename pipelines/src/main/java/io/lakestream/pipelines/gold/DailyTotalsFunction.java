package io.lakestream.pipelines.gold;

import io.lakestream.state.query.DeclaresStateSchema;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by day: applies each {@link OrderChange} to the day's {@link DailyTotals} (keyed {@code
 * ValueState}, POJO-serialized, so RocksDB stores it without Kryo) and emits the new absolute
 * totals. The state of a day is kept even when its orders drop to zero, so {@link
 * DailyTotals#changeRows} never goes back and a day that empties and fills again within one epoch
 * ends with its newest totals.
 *
 * <p>Because the emitted totals are absolute, an epoch's rows for a day end with the totals of the
 * checkpoint that closes the epoch, whatever order the change rows of different silver files
 * arrived in (sums are exact and commutative); a replayed epoch gives the same final totals.
 */
public final class DailyTotalsFunction extends KeyedProcessFunction<Long, OrderChange, DailyTotals>
    implements DeclaresStateSchema {
  private static final long serialVersionUID = 1L;

  /** The state's type information: Flink's POJO type (asserted by a test, never generic). */
  public static final TypeInformation<DailyTotals> STATE_TYPE =
      TypeInformation.of(DailyTotals.class);

  private transient ValueState<DailyTotals> totals;

  @Override
  public void open(OpenContext context) {
    totals = getRuntimeContext().getState(new ValueStateDescriptor<>("daily-totals", STATE_TYPE));
  }

  @Override
  public void processElement(OrderChange change, Context ctx, Collector<DailyTotals> out)
      throws Exception {
    DailyTotals current = totals.value();
    if (current == null) {
      current = new DailyTotals();
      current.epochDay = change.epochDay;
    }
    DailyTotals next = current.apply(change);
    totals.update(next);
    out.collect(next);
  }

  @Override
  public String stateSchema() {
    return "daily-totals: ValueState<DailyTotals(epochDay, orders, totalAmount, lastCommitVersion,"
        + " changeRows)>; v1";
  }
}
