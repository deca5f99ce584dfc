/**
 * The rate source's split enumerator ({@link
 * io.lakestream.connectors.rate.source.enumerator.SequenceEnumerator}): hands partition {@code p}
 * to reader {@code p % parallelism}, records each epoch's offsets and signals when an availableNow
 * run has read every partition. Its checkpoint is a {@link
 * io.lakestream.connectors.rate.source.enumerator.SequenceEnumeratorState} with a versioned
 * serializer. Internal to the source.
 */
package io.lakestream.connectors.rate.source.enumerator;
