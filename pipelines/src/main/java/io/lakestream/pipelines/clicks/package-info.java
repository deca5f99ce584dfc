/**
 * Pipeline E5 ({@link io.lakestream.pipelines.clicks.AdClicksPerWindow}): Kafka topic {@code
 * clicks} (JSON, parsed by {@link io.lakestream.pipelines.clicks.ClickJson} into {@link
 * io.lakestream.pipelines.clicks.Click}s) -> {@code withWatermark(event_time, 10 minutes)} ->
 * 5-minute tumbling windows by {@code ad_id}, output mode append -> Delta table {@code
 * ad_clicks_5m}, each window written once when the watermark passes its end; malformed clicks go to
 * {@code ad_clicks_dead_letters}.
 */
package io.lakestream.pipelines.clicks;
