package io.lakestream.operators;

import java.util.Objects;

/** A test row: key, event time (ms) and a nullable value. A Flink POJO. */
public class TestEvent {
  public String key;
  public long ts;
  public Double value;

  public TestEvent() {}

  public TestEvent(String key, long ts, Double value) {
    this.key = key;
    this.ts = ts;
    this.value = value;
  }

  public static TestEvent of(String key, long ts) {
    return new TestEvent(key, ts, null);
  }

  public static TestEvent of(String key, long ts, double value) {
    return new TestEvent(key, ts, value);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TestEvent
        && ((TestEvent) o).ts == ts
        && Objects.equals(((TestEvent) o).key, key)
        && Objects.equals(((TestEvent) o).value, value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, ts, value);
  }

  @Override
  public String toString() {
    return key + "@" + ts + (value == null ? "" : "=" + value);
  }
}
