package io.lakestream.pipelines.demo;

import io.lakestream.connectors.rate.OrderEventGenerator;

/**
 * What the demo's generator yields for its first {@code rows} indexes at {@code rowsPerSecond} (the
 * demo's generator takes its event times from the rate, 1,000/s when none is given): the orders
 * that parse, and the malformed records that become dead letters. For tests that run the demo out
 * of process and check its tables by count.
 */
public record DemoOrdersModel(long orders, long deadLetters) {

  public static DemoOrdersModel of(long rows, long rowsPerSecond) {
    OrderEventGenerator generator =
        new OrderEventGenerator(
            OrdersDemo.EVENT_TIME_START.toEpochMilli(),
            rowsPerSecond,
            OrdersDemo.DUPLICATE_EVERY,
            OrdersDemo.MALFORMED_EVERY);
    OrderJson json = new OrderJson();
    long orders = 0;
    long deadLetters = 0;
    for (long i = 0; i < rows; i++) {
      try {
        json.parse(generator.map(i));
        orders++;
      } catch (Exception malformed) {
        deadLetters++;
      }
    }
    return new DemoOrdersModel(orders, deadLetters);
  }
}
