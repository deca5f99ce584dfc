package io.lakestream.bench.autoloader;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.streaming.api.functions.sink.SinkFunction;

/**
 * Counts the ids a side's job emitted (count and sum, per side name, in this JVM): the bench waits
 * on the count and, at the end, checks count and sum against the files written, so a lost or a
 * duplicated file fails the run.
 */
final class IdTally implements SinkFunction<Long> {
  private static final long serialVersionUID = 1L;
  private static final Map<String, LongAdder[]> TALLIES = new ConcurrentHashMap<>();

  private final String side;

  IdTally(String side) {
    this.side = side;
    TALLIES.put(side, new LongAdder[] {new LongAdder(), new LongAdder()});
  }

  @Override
  public void invoke(Long id, Context context) {
    LongAdder[] tally = TALLIES.get(side);
    tally[0].increment();
    tally[1].add(id);
  }

  long count() {
    return TALLIES.get(side)[0].sum();
  }

  long sum() {
    return TALLIES.get(side)[1].sum();
  }

  /**
   * Fails unless exactly the ids {@code 0 .. files-1} arrived once each (by count and sum).
   *
   * @throws IllegalStateException naming the side and what is off
   */
  void check(long files) {
    long expectedSum = files * (files - 1) / 2;
    if (count() != files || sum() != expectedSum) {
      throw new IllegalStateException(
          side
              + ": expected "
              + files
              + " files (id sum "
              + expectedSum
              + "), got "
              + count()
              + " (id sum "
              + sum()
              + ")");
    }
  }
}
