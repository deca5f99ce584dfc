package io.lakestream.pipelines;

import io.lakestream.operators.parse.RecordParseException;
import io.lakestream.pipelines.demo.OrderJson;
import io.lakestream.pipelines.demo.OrdersDemo;
import io.lakestream.pipelines.gold.SilverOrders;
import io.lakestream.pipelines.silver.OrderEvents;
import io.lakestream.pipelines.silver.OrderEvents.Event;
import io.lakestream.pipelines.silver.OrdersSilverTables;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The input of the whole lakehouse (bronze and silver read the topic, gold reads silver) and the
 * tables it must give: batches of order events, each shuffled with resends and malformed records,
 * produced to a Kafka topic one batch at a time, and the reference models of everything produced so
 * far. For tests that run bronze, silver and gold on one topic.
 */
public final class LakehouseInput {
  private final String bootstrapServers;
  private final String topic;
  private final int partitions;
  private final List<Event> distinct = new ArrayList<>();
  private final List<List<String>> batches = new ArrayList<>();
  private final Set<String> malformed = new HashSet<>();
  private final List<String> produced = new ArrayList<>();
  private final Map<String, String> malformedByPosition = new LinkedHashMap<>();

  public LakehouseInput(String bootstrapServers, String topic, int partitions) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.partitions = partitions;
  }

  /**
   * Queues a batch: {@code events} (each new), {@code resends} (events already added, produced
   * again) and {@code bad} (values that do not parse as orders, each distinct), shuffled.
   *
   * @return the batch's index, for {@link #produce}
   */
  public int add(List<Event> events, List<Event> resends, List<String> bad, Random random) {
    distinct.addAll(events);
    List<String> values = new ArrayList<>();
    events.forEach(e -> values.add(e.json()));
    resends.forEach(e -> values.add(e.json()));
    values.addAll(bad);
    malformed.addAll(bad);
    Collections.shuffle(values, random);
    batches.add(values);
    return batches.size() - 1;
  }

  /**
   * Queues two batches of {@code all} shuffled (versions of an order arrive out of order): (0) two
   * thirds of them with {@code resendsBefore} resends drawn from those and malformed records; (1)
   * the rest with {@code resendsAfter} resends drawn from all of them and other malformed records.
   */
  public void addBeforeAndAfter(
      List<Event> all, int resendsBefore, int resendsAfter, Random random) {
    List<Event> shuffled = new ArrayList<>(all);
    Collections.shuffle(shuffled, random);
    List<Event> before = shuffled.subList(0, shuffled.size() * 2 / 3);
    add(before, sample(before, resendsBefore, random), OrderEvents.malformed("a"), random);
    add(
        shuffled.subList(before.size(), shuffled.size()),
        sample(shuffled, resendsAfter, random),
        OrderEvents.malformed("b"),
        random);
  }

  /** Produces batch {@code batch}; returns the records in the topic after it. */
  public long produce(int batch) throws Exception {
    List<String> values = batches.get(batch);
    List<String> positions = OrderEvents.produce(bootstrapServers, topic, partitions, values);
    for (int i = 0; i < values.size(); i++) {
      if (malformed.contains(values.get(i))) {
        malformedByPosition.put(positions.get(i), values.get(i));
      }
    }
    produced.addAll(values);
    batches.set(batch, List.of()); // produced once; its values are in produced
    return produced.size();
  }

  /** Records produced so far. */
  public int produced() {
    return produced.size();
  }

  /**
   * The tables the records produced so far must give (every batch added must be produced). Bronze
   * parses with every check: a record that fails one is a dead letter each time it is produced (the
   * parser runs before the deduplication), a late event is dropped, and every other event is one
   * row. Silver and its quarantine follow {@link OrderEvents}' model; gold is the daily aggregate
   * of silver.
   */
  public Models models() {
    if (batches.stream().anyMatch(batch -> !batch.isEmpty())) {
      throw new IllegalStateException("a batch is queued but not produced yet");
    }
    OrderJson strict = new OrderJson();
    Set<String> seen = new HashSet<>();
    List<String> bronze = new ArrayList<>();
    List<String> deadLetters = new ArrayList<>();
    for (String raw : produced) {
      try {
        var order = strict.parse(raw);
        boolean late = order.orderTsMillis < OrderEvents.T0.toEpochMilli();
        if (!late && seen.add(order.eventId)) {
          bronze.add(Arrays.toString(OrdersDemo.toDeltaRow(order)));
        }
      } catch (RecordParseException e) {
        deadLetters.add(raw);
      }
    }
    Map<String, List<Object>> silver = OrderEvents.silverModel(distinct);
    List<Object[]> silverRows = silver.values().stream().map(List::toArray).toList();
    return new Models(
        bronze,
        deadLetters,
        silver,
        OrderEvents.quarantineModel(distinct, malformedByPosition),
        SilverOrders.dailyAggregate(silverRows, OrdersSilverTables.SILVER_ORDER_TS, 3));
  }

  /** {@code n} events drawn from {@code from} with replacement: resends. */
  public static List<Event> sample(List<Event> from, int n, Random random) {
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(from.get(random.nextInt(from.size())));
    }
    return out;
  }

  /** What each table of the lakehouse must hold, row for row. */
  public record Models(
      List<String> bronze,
      List<String> bronzeDeadLetters,
      Map<String, List<Object>> silver,
      List<List<Object>> quarantine,
      Map<LocalDate, String> gold) {}
}
