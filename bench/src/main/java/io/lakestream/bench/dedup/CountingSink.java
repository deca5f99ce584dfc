package io.lakestream.bench.dedup;

import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A sink that counts what reaches it, for a job on an embedded MiniCluster in this JVM: rows and
 * the sum of a per-row weight (e.g. a window's count), readable by name while the job runs. Not
 * exactly-once (a restarted job would count again); the bench runs without failures and checks the
 * counts against its {@link ReferenceModel}.
 */
public final class CountingSink<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;
  private static final Map<String, LongAdder[]> COUNTS = new ConcurrentHashMap<>();

  /** The weight of a row, summed by the sink. */
  @FunctionalInterface
  public interface Weight<T> extends Serializable {
    long of(T row);
  }

  private final String name;
  private final Weight<T> weight;

  /**
   * @param name the counters' name; reset here, read with {@link #rows(String)}
   * @param weight the weight of each row
   */
  public CountingSink(String name, Weight<T> weight) {
    this.name = name;
    this.weight = weight;
    COUNTS.put(name, new LongAdder[] {new LongAdder(), new LongAdder()});
  }

  /** Rows that reached the sink named {@code name}. */
  public static long rows(String name) {
    return COUNTS.get(name)[0].sum();
  }

  /** Sum of the weights of those rows. */
  public static long weights(String name) {
    return COUNTS.get(name)[1].sum();
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) {
    return writer();
  }

  /** Flink 1.x entry point; Flink 1.19+ calls {@link #createWriter(WriterInitContext)}. */
  @Override
  @SuppressWarnings("deprecation")
  public SinkWriter<T> createWriter(InitContext context) {
    return writer();
  }

  private SinkWriter<T> writer() {
    LongAdder[] counts = COUNTS.get(name);
    return new SinkWriter<>() {
      @Override
      public void write(T row, Context context) {
        counts[0].increment();
        counts[1].add(weight.of(row));
      }

      @Override
      public void flush(boolean endOfInput) {}

      @Override
      public void close() {}
    };
  }
}
