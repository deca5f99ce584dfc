package io.lakestream.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.operators.observe.Observe;
import io.lakestream.state.checkpoint.EpochLog;
import io.lakestream.state.query.InputRowCount;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Progress's {@code observedMetrics} of a committed epoch N: the observing operators' shares
 * ({@code observed/E/}, one record per observation, subtask, run and attempt and checkpoint E)
 * merged over the subtasks. Per subtask only the attempt that recorded checkpoint N counts, with
 * its records of the checkpoints after the previously reported epoch up to N: checkpoints aborted
 * in between (their rows went into epoch N) count, records of an attempt that failed and was
 * replayed do not. An observation is left out when not every subtask recorded checkpoint N (a
 * record could not be read): it is never published from part of its rows.
 */
final class ObservedMetrics {
  private ObservedMetrics() {}

  /**
   * {@code observedMetrics} of {@code epoch} reported after {@code after}, for run {@code runId}.
   */
  static ObjectNode read(EpochLog log, String runId, long after, long epoch, ObjectMapper mapper)
      throws IOException {
    Map<Long, Collection<JsonNode>> records = new TreeMap<>();
    for (long e : log.observedEpochs()) {
      if (e > after && e <= epoch) {
        records.put(e, log.readObserved(e).values());
      }
    }
    return merge(records, runId, epoch, mapper);
  }

  /** Merges {@code records} by checkpoint into {@code observedMetrics} of {@code epoch}. */
  static ObjectNode merge(
      Map<Long, Collection<JsonNode>> records, String runId, long epoch, ObjectMapper mapper) {
    Map<String, Integer> attempts = new HashMap<>();
    Map<String, Integer> parallelism = new TreeMap<>();
    Map<String, Integer> subtasks = new HashMap<>();
    for (JsonNode r : records.getOrDefault(epoch, List.of())) {
      if (r.path("runId").asText().equals(runId)) {
        attempts.put(subtaskKey(r), r.path("attempt").asInt());
        parallelism.put(r.path("observation").asText(), r.path("parallelism").asInt());
        subtasks.merge(r.path("observation").asText(), 1, Integer::sum);
      }
    }
    Map<String, Map<String, Share>> merged = new TreeMap<>();
    for (Collection<JsonNode> checkpoint : records.values()) {
      for (JsonNode r : checkpoint) {
        Integer attempt = attempts.get(subtaskKey(r));
        if (r.path("runId").asText().equals(runId)
            && attempt != null
            && attempt == r.path("attempt").asInt()) {
          add(merged.computeIfAbsent(r.path("observation").asText(), o -> new TreeMap<>()), r);
        }
      }
    }
    ObjectNode out = mapper.createObjectNode();
    for (Map.Entry<String, Integer> observation : parallelism.entrySet()) {
      String name = observation.getKey();
      if (subtasks.get(name) >= observation.getValue()) {
        ObjectNode values = out.putObject(name);
        merged.get(name).forEach((aggregate, share) -> share.write(values, aggregate));
        merged.get(name).forEach((aggregate, share) -> share.writeRatio(values, aggregate));
      }
    }
    return out;
  }

  /**
   * Moves the event-time statistics ({@link Observe#eventTimes}, one observation per watermark) out
   * of {@code observed} into {@code eventTime}: {@code min} and {@code max} over them, {@code avg}
   * weighted by their rows, as instants (Structured Streaming's format). Nothing is put when the
   * epoch had no rows with event times.
   */
  static void moveEventTimes(ObjectNode observed, ObjectNode eventTime) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    double sum = 0;
    long rows = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = observed.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> observation = it.next();
      if (observation.getKey().startsWith(Observe.EVENT_TIME_PREFIX)) {
        JsonNode stats = observation.getValue();
        long count = stats.path("rows").asLong();
        if (count > 0) {
          min = Math.min(min, stats.path("min").asDouble());
          max = Math.max(max, stats.path("max").asDouble());
          sum += stats.path("avg").asDouble() * count;
          rows += count;
        }
        it.remove();
      }
    }
    if (rows > 0) {
      eventTime.put("avg", instant(sum / rows));
      eventTime.put("max", instant(max));
      eventTime.put("min", instant(min));
    }
  }

  /**
   * Takes the input rows counted by sources' readers ({@link InputRowCount}, for sources whose
   * positions count files) out of {@code observed}: rows by source name.
   */
  static Map<String, Long> takeInputRows(ObjectNode observed) {
    Map<String, Long> rows = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = observed.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> observation = it.next();
      if (observation.getKey().startsWith(InputRowCount.PREFIX)) {
        rows.put(
            observation.getKey().substring(InputRowCount.PREFIX.length()),
            observation.getValue().path("rows").asLong());
        it.remove();
      }
    }
    return rows;
  }

  private static String instant(double millis) {
    return Instant.ofEpochMilli(Math.round(millis)).toString();
  }

  private static String subtaskKey(JsonNode record) {
    return record.path("observation").asText() + "\u0000" + record.path("subtask").asInt();
  }

  private static void add(Map<String, Share> into, JsonNode record) {
    for (Iterator<Map.Entry<String, JsonNode>> it = record.path("aggregates").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> aggregate = it.next();
      into.computeIfAbsent(aggregate.getKey(), a -> new Share()).add(aggregate.getValue());
    }
  }

  /** One aggregate merged over shares: counts and sums add up, extremes are kept. */
  private static final class Share {
    private String kind;
    private long count;
    private double sum;
    private final List<Double> mins = new ArrayList<>();
    private final List<Double> maxs = new ArrayList<>();

    private String numerator;
    private String denominator;

    void add(JsonNode share) {
      kind = share.path("kind").asText();
      numerator = share.path("numerator").asText(null);
      denominator = share.path("denominator").asText(null);
      count += share.path("count").asLong();
      sum += share.path("sum").asDouble();
      if (share.has("min")) {
        mins.add(share.path("min").asDouble());
        maxs.add(share.path("max").asDouble());
      }
    }

    void write(ObjectNode values, String name) {
      switch (kind) {
        case "COUNT", "COUNT_IF" -> values.put(name, count);
        case "SUM" -> values.put(name, sum);
        case "MIN" ->
            putOrNull(values, name, mins.stream().mapToDouble(d -> d).min().orElse(Double.NaN));
        case "MAX" ->
            putOrNull(values, name, maxs.stream().mapToDouble(d -> d).max().orElse(Double.NaN));
        case "AVG" -> putOrNull(values, name, count == 0 ? Double.NaN : sum / count);
        case "RATIO" -> {} // once the others are written: writeRatio
        default -> values.putNull(name); // a kind of a newer version
      }
    }

    /** A ratio: its numerator's merged value over its denominator's; null if that is 0. */
    void writeRatio(ObjectNode values, String name) {
      if ("RATIO".equals(kind)) {
        JsonNode over = values.path(numerator);
        JsonNode under = values.path(denominator);
        boolean defined = over.isNumber() && under.isNumber() && under.asDouble() != 0;
        putOrNull(values, name, defined ? over.asDouble() / under.asDouble() : Double.NaN);
      }
    }

    private static void putOrNull(ObjectNode values, String name, double value) {
      if (Double.isNaN(value)) {
        values.putNull(name);
      } else {
        values.put(name, value);
      }
    }
  }
}
