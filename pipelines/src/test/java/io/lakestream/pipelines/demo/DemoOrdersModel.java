package io.lakestream.pipelines.demo;

import io.lakestream.connectors.rate.OrderEventGenerator;
import io.lakestream.pipelines.silver.OrdersSilverTables;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the demo's generator yields for its first {@code rows} indexes at {@code rowsPerSecond} (the
 * demo's generator takes its event times from the rate, 1,000/s when none is given), and so what
 * each of the demo's tables must hold: bronze ({@code orders}) every order event once (the
 * generator's repeats of an event dropped), the malformed records as dead letters, silver one row
 * per order, gold per order day the orders and their total amount. For tests that run the demo and
 * check its tables by count or row for row.
 *
 * @param bronze the orders bronze holds, in generator order
 * @param duplicates the generated records that repeat an earlier event (dropped by bronze)
 * @param deadLetterRaws the records that do not parse
 */
public record DemoOrdersModel(List<Order> bronze, long duplicates, List<String> deadLetterRaws) {

  public static DemoOrdersModel of(long rows, long rowsPerSecond) {
    OrderEventGenerator generator =
        new OrderEventGenerator(
            OrdersDemo.EVENT_TIME_START.toEpochMilli(),
            rowsPerSecond,
            OrdersDemo.DUPLICATE_EVERY,
            OrdersDemo.MALFORMED_EVERY);
    OrderJson json = new OrderJson();
    List<Order> bronze = new ArrayList<>();
    Set<String> eventIds = new HashSet<>();
    List<String> deadLetters = new ArrayList<>();
    long duplicates = 0;
    for (long i = 0; i < rows; i++) {
      String raw = generator.map(i);
      Order order;
      try {
        order = json.parse(raw);
      } catch (Exception malformed) {
        deadLetters.add(raw);
        continue;
      }
      if (eventIds.add(order.eventId)) {
        bronze.add(order);
      } else {
        duplicates++;
      }
    }
    return new DemoOrdersModel(bronze, duplicates, deadLetters);
  }

  /** Rows of the bronze table {@code orders}. */
  public long orders() {
    return bronze.size();
  }

  /** Lines of {@code orders_dead_letters}. */
  public long deadLetters() {
    return deadLetterRaws.size();
  }

  /** The bronze table's rows, each as {@link Arrays#toString(Object[])}. */
  public List<String> bronzeRows() {
    return bronze.stream().map(o -> Arrays.toString(OrdersDemo.toDeltaRow(o))).toList();
  }

  /**
   * The silver table's rows (its {@link OrdersSilverTables#SILVER} columns), each as {@link
   * Arrays#toString(Object[])}: every bronze order, as each has its own order id and is valid.
   */
  public List<String> silverRows() {
    return bronze.stream()
        .map(
            o -> {
              Object[] row = OrdersDemo.toDeltaRow(o);
              return Arrays.toString(new Object[] {row[1], row[0], row[2], row[3], row[4], row[5]});
            })
        .toList();
  }

  /** Per order day (UTC): {orders, total amount} of the silver rows. */
  public Map<LocalDate, List<Object>> goldTotals() {
    Map<LocalDate, List<Object>> totals = new TreeMap<>();
    for (Order o : bronze) {
      LocalDate day = LocalDate.ofInstant(Instant.ofEpochMilli(o.orderTsMillis), ZoneOffset.UTC);
      List<Object> t = totals.getOrDefault(day, List.of(0L, BigDecimal.ZERO.setScale(2)));
      totals.put(day, List.of((Long) t.get(0) + 1, ((BigDecimal) t.get(1)).add(o.amount)));
    }
    return totals;
  }
}
