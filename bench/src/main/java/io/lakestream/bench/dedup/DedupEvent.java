package io.lakestream.bench.dedup;

/**
 * One event of the dedup-state bench: a click-like row with a dedup key ({@code id}), a group key
 * for the E5-style aggregation ({@code adId}) and an event time. A Flink POJO (public fields,
 * no-arg constructor), as a user's event class would be.
 */
public class DedupEvent {
  public long id;
  public long adId;
  public long eventTimeMillis;

  public DedupEvent() {}

  public DedupEvent(long id, long adId, long eventTimeMillis) {
    this.id = id;
    this.adId = adId;
    this.eventTimeMillis = eventTimeMillis;
  }
}
