/**
 * The events between the Kafka source's enumerator and readers: an epoch's read limits ({@link
 * io.lakestream.connectors.kafka.source.event.EpochGrant}), an availableNow run's end offsets
 * ({@link io.lakestream.connectors.kafka.source.event.RunEnds}, asked for with {@link
 * io.lakestream.connectors.kafka.source.event.RunEndsRequest}) and partitions of deleted topics to
 * stop reading ({@link io.lakestream.connectors.kafka.source.event.SplitsRemoved}). Internal to the
 * source.
 */
package io.lakestream.connectors.kafka.source.event;
