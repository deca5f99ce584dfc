package io.lakestream.pipelines.clicks;

import io.lakestream.api.annotation.Internal;

/**
 * One ad click. A Flink POJO (public fields, no-arg constructor): serialized without Kryo.
 *
 * <p>{@code eventTimeMillis} is when the click happened (the JSON field {@code event_time}).
 */
@Internal
public class Click {
  public String clickId;
  public String adId;
  public long eventTimeMillis;

  public Click() {}

  public Click(String clickId, String adId, long eventTimeMillis) {
    this.clickId = clickId;
    this.adId = adId;
    this.eventTimeMillis = eventTimeMillis;
  }
}
