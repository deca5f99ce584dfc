package io.lakestream.pipelines.silver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Test input of the silver job and its reference model: order events with several versions per
 * order (distinct {@code order_ts} per order, all within 40 minutes so nothing is late by
 * accident), some of them invalid (null order_id, negative or null amount), plus malformed records
 * and late events; the model is what the silver and quarantine tables must hold. Public for the
 * tests of the whole lakehouse (bronze, silver and gold on one input).
 */
public final class OrderEvents {
  /** The earliest event time that is not late. */
  public static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One order event as produced to Kafka. */
  public record Event(
      String eventId,
      String orderId,
      String customerId,
      BigDecimal amount,
      String currency,
      Instant orderTs) {
    public String json() {
      ObjectNode node = JSON.createObjectNode();
      node.put("event_id", eventId);
      node.put("order_id", orderId);
      node.put("customer_id", customerId);
      node.put("amount", amount);
      node.put("currency", currency);
      node.put("order_ts", orderTs.toString());
      return node.toString();
    }

    /** The expected quarantine reason, or null for a valid event. */
    public RejectReason rejectReason() {
      if (orderTs.isBefore(T0)) {
        return RejectReason.LATE_EVENT;
      }
      return OrderValidation.check(orderId, amount).map(Rejection::reason).orElse(null);
    }

    public List<Object> silverRow() {
      return Arrays.asList(orderId, eventId, customerId, amount, currency, orderTs);
    }

    /** Quarantine columns compared: reason, source, raw, event_id .. order_ts. */
    public List<Object> quarantineRow() {
      return Arrays.asList(
          rejectReason().name(),
          null,
          null,
          eventId,
          orderId,
          customerId,
          amount,
          currency,
          orderTs);
    }
  }

  private OrderEvents() {}

  /** All versions of orders {@code 0..orders-1}. */
  public static List<Event> versions(int orders) {
    return versions(orders, T0);
  }

  /**
   * All versions of orders {@code 0..orders-1}, with event times from {@code start} (at or after
   * {@link #T0}, so none is late) to 36 minutes after it.
   */
  public static List<Event> versions(int orders, Instant start) {
    if (start.isBefore(T0)) {
      throw new IllegalArgumentException("versions start at T0 or later, not " + start);
    }
    List<Event> events = new ArrayList<>();
    for (int k = 0; k < orders; k++) {
      int versions = 1 + k % 4;
      for (int v = 0; v < versions; v++) {
        String orderId = k % 17 == 5 && v == 0 ? null : String.format("o-%04d", k);
        BigDecimal amount = new BigDecimal(k + v + ".25");
        if (k % 10 == 3 && v == 1) {
          amount = amount.negate();
        } else if (k % 23 == 7 && v == versions - 1 && versions > 1) {
          amount = null;
        }
        events.add(
            new Event(
                "e-" + k + "-" + v,
                orderId,
                "c-" + (k % 13),
                amount,
                k % 3 == 0 ? "EUR" : "USD",
                start.plusSeconds((k * 37L) % 1800 + v * 120L)));
      }
    }
    return events;
  }

  /** Valid events of existing orders, but 3 hours behind the others: late. */
  public static List<Event> late(int count) {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      events.add(
          new Event(
              "late-" + i,
              String.format("o-%04d", i),
              "c-late",
              new BigDecimal("1.00"),
              "EUR",
              T0.minusSeconds(3 * 3600 + i)));
    }
    return events;
  }

  /** Values that do not parse as orders. */
  public static List<String> malformed(String tag) {
    return List.of(
        "{not json " + tag,
        "[\"" + tag + "\"]",
        "{\"event_id\":\"bad-" + tag + "\"}",
        "{\"event_id\":\"bad2-" + tag + "\",\"order_ts\":\"yesterday\",\"amount\":1}",
        "{\"event_id\":\"bad3-"
            + tag
            + "\",\"order_ts\":\"2026-03-01T10:00:00Z\",\"amount\":\"x\"}");
  }

  /** The silver table the distinct events must produce: per order, the valid newest version. */
  public static Map<String, List<Object>> silverModel(List<Event> distinct) {
    Map<String, Event> newest = new TreeMap<>();
    for (Event e : distinct) {
      if (e.rejectReason() != null) {
        continue;
      }
      newest.merge(e.orderId(), e, (a, b) -> a.orderTs().isAfter(b.orderTs()) ? a : b);
    }
    Map<String, List<Object>> model = new TreeMap<>();
    newest.forEach((id, e) -> model.put(id, e.silverRow()));
    return model;
  }

  /** Quarantine rows of the distinct events, plus the malformed records (raw -> position). */
  public static List<List<Object>> quarantineModel(
      List<Event> distinct, Map<String, String> malformed) {
    List<List<Object>> rows = new ArrayList<>();
    for (Event e : distinct) {
      if (e.rejectReason() != null) {
        rows.add(e.quarantineRow());
      }
    }
    malformed.forEach(
        (position, raw) ->
            rows.add(
                Arrays.asList(
                    RejectReason.MALFORMED_RECORD.name(),
                    position,
                    raw,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null)));
    return sorted(rows);
  }

  /**
   * Produces {@code values} in this order to the topic, round robin over its {@code partitions};
   * returns the position ({@code topic/partition@offset}) of each value, in order.
   */
  public static List<String> produce(
      String bootstrap, String topic, int partitions, List<String> values) throws Exception {
    Properties props = new Properties();
    props.put("bootstrap.servers", bootstrap);
    props.put("linger.ms", "5");
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < values.size(); i++) {
        sent.add(producer.send(new ProducerRecord<>(topic, i % partitions, null, values.get(i))));
      }
      producer.flush();
    }
    List<String> positions = new ArrayList<>();
    for (Future<RecordMetadata> f : sent) {
      RecordMetadata m = f.get();
      positions.add(m.topic() + "/" + m.partition() + "@" + m.offset());
    }
    return positions;
  }

  /** The silver table by order_id (empty if it does not exist yet). */
  public static Map<String, List<Object>> silver(DeltaTable table) throws Exception {
    Map<String, List<Object>> out = new TreeMap<>();
    if (table.latestSnapshot().isEmpty()) {
      return out;
    }
    for (Object[] row : new DeltaTableReader(table).readLatest()) {
      if (out.put((String) row[0], Arrays.asList(row)) != null) {
        throw new AssertionError("order " + row[0] + " twice in the silver table");
      }
    }
    return out;
  }

  /** The quarantine rows without epoch and error, sorted; checks every error is given. */
  public static List<List<Object>> quarantine(DeltaTable table) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    if (table.latestSnapshot().isEmpty()) {
      return rows;
    }
    for (Object[] row : new DeltaTableReader(table).readLatest()) {
      if (row[2] == null || ((String) row[2]).isBlank()) {
        throw new AssertionError("quarantine row without error: " + Arrays.toString(row));
      }
      List<Object> r = new ArrayList<>();
      r.add(row[1]); // reason
      r.addAll(Arrays.asList(row).subList(3, row.length)); // source .. order_ts
      rows.add(r);
    }
    return sorted(rows);
  }

  public static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> copy = new ArrayList<>(rows);
    copy.sort(Comparator.comparing(Object::toString));
    return copy;
  }
}
