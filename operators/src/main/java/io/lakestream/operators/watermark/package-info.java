/**
 * Structured Streaming's {@code withWatermark} on Flink streams: start from {@link
 * io.lakestream.operators.watermark.Watermarks} ({@code withWatermark}, and {@code union} with a
 * {@link io.lakestream.operators.watermark.MultipleWatermarkPolicy}). The watermark is max event
 * time seen minus the delay and, unlike Flink's, is kept in the checkpoint ({@link
 * io.lakestream.operators.watermark.PersistentWatermarkOperator}), so a resumed query does not
 * start without one. The event-time operators that need a watermark look for one upstream in the
 * job graph ({@link io.lakestream.operators.watermark.UpstreamWatermark}) and refuse a stream
 * without it while the job is built, with a {@link
 * io.lakestream.operators.watermark.MissingWatermarkException}.
 */
package io.lakestream.operators.watermark;
