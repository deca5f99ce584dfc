package io.lakestream.testkit.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.testkit.s3.S3Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A query's checkpoint location on the test {@link S3Server}, read straight from its objects, for
 * tests whose query runs where they cannot reach it (a job on a real cluster): the epochs recorded
 * under {@code offsets/}, {@code commits/} and {@code progress/}, the source positions an epoch
 * ended at, the lease; and waits on them instead of sleeping.
 *
 * <p>A commit record {@code commits/N/<sink>} means the sink is done with every epoch up to N, and
 * {@code offsets/N/<source>} holds the positions epoch N ended at: once every sink of a query
 * recorded an epoch whose {@code totalOffset} covers all input, everything produced up to there is
 * committed. Reads fail with the server's exceptions or {@link UncheckedIOException} for a record
 * that is not JSON; waits fail with {@link AssertionError} on timeout.
 */
public final class S3CheckpointLocation {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final S3Server server;
  private final String key;

  private S3CheckpointLocation(S3Server server, String key) {
    this.server = server;
    this.key = key.replaceAll("^/+|/+$", "");
  }

  /** The location at {@code key} (a key prefix, e.g. {@code lake/_checkpoints/bronze}). */
  public static S3CheckpointLocation of(S3Server server, String key) {
    return new S3CheckpointLocation(server, key);
  }

  /** The location's key prefix, without slashes at either end. */
  public String key() {
    return key;
  }

  /** The location as the query is given it: {@code s3://<bucket>/<key>}. */
  public URI uri() {
    return server.uri(key);
  }

  /** The epoch numbers under {@code offsets}, {@code commits} or {@code progress}, ascending. */
  public List<Long> epochs(String directory) {
    String prefix = key + "/" + directory + "/";
    return server.keys(prefix).stream()
        .map(k -> k.substring(prefix.length()).split("/")[0])
        .filter(name -> name.matches("\\d+"))
        .map(Long::parseLong)
        .distinct()
        .sorted()
        .toList();
  }

  /** The newest epoch that every one of {@code sinks} recorded as done; 0 when there is none. */
  public long lastCommittedEpoch(Collection<String> sinks) {
    String prefix = key + "/commits/";
    Map<Long, Set<String>> recorded = new TreeMap<>();
    for (String k : server.keys(prefix)) {
      String[] parts = k.substring(prefix.length()).split("/");
      if (parts.length == 2 && parts[0].matches("\\d+")) {
        recorded.computeIfAbsent(Long.parseLong(parts[0]), e -> new TreeSet<>()).add(parts[1]);
      }
    }
    long last = 0;
    for (Map.Entry<Long, Set<String>> epoch : recorded.entrySet()) {
      if (sinks.stream()
          .map(S3CheckpointLocation::recordName)
          .allMatch(epoch.getValue()::contains)) {
        last = epoch.getKey();
      }
    }
    return last;
  }

  /**
   * The {@code totalOffset} (positions summed over partitions) that epoch {@code epoch} of {@code
   * source} ended at; 0 for epoch 0 or an epoch without a record.
   */
  public long totalOffset(long epoch, String source) {
    String record = key + "/offsets/" + epoch + "/" + recordName(source);
    if (epoch <= 0 || !server.keys(record).contains(record)) {
      return 0;
    }
    try {
      JsonNode offsets = MAPPER.readTree(server.read(record));
      return offsets.path("totalOffset").asLong();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot parse " + record, e);
    }
  }

  /** {@link #totalOffset} of the newest epoch all {@code sinks} committed. */
  public long committedOffset(String source, Collection<String> sinks) {
    return totalOffset(lastCommittedEpoch(sinks), source);
  }

  /**
   * Waits until every sink committed an epoch that ended at {@code totalOffset} of {@code source}
   * or later: all input up to there landed in the sinks.
   *
   * @return that epoch
   * @throws AssertionError on timeout
   */
  public long awaitCommittedOffset(
      String source, Collection<String> sinks, long totalOffset, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long epoch = lastCommittedEpoch(sinks);
      long committed = totalOffset(epoch, source);
      if (committed >= totalOffset) {
        return epoch;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            String.format(
                "%s: sinks %s did not commit offset %d of %s within %s (epoch %d ended at %d)",
                key, sinks, totalOffset, source, timeout, epoch, committed));
      }
      sleep(250);
    }
  }

  /**
   * Whether a run holds the location's lease: the newest generation under {@code lease/} is not
   * released (a {@code lock} of older releases counts while present).
   */
  public boolean leaseHeld() {
    if (server.keys(key + "/lock").contains(key + "/lock")) {
      return true;
    }
    List<String> generations = server.keys(key + "/lease/");
    if (generations.isEmpty()) {
      return false;
    }
    String newest = generations.get(generations.size() - 1);
    try {
      return !MAPPER.readTree(server.read(newest)).path("released").asBoolean(false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot parse " + newest, e);
    }
  }

  /**
   * Waits until no run holds the lease: the last run's final records (its last progress) are
   * written.
   *
   * @throws AssertionError on timeout
   */
  public void awaitLeaseReleased(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (leaseHeld()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(key + "/lease is still held after " + timeout);
      }
      sleep(200);
    }
  }

  /** The file name a sink's or source's record has (as the query's records name them). */
  private static String recordName(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  @Override
  public String toString() {
    return "S3CheckpointLocation[" + uri() + "]";
  }
}
