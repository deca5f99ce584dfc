/**
 * The row model of the event-time operators.
 *
 * <p>Input rows are the pipeline's own typed POJOs (as {@code pipelines/demo/Order} and the output
 * of {@code operators/parse}), never a generic row: operators read them through small serializable
 * functions. Key columns are named and read by {@link io.lakestream.operators.row.KeyColumns} into
 * an immutable {@link io.lakestream.operators.row.Values} tuple (String, Long, Double, Boolean or
 * null per column), which is the key the keyed operators partition by and store state under; its
 * serializer is explicit ({@link io.lakestream.operators.row.ValuesSerializer}), never Kryo. Event
 * time is the Flink record timestamp set by {@code Watermarks.withWatermark} (epoch millis);
 * windows may read microseconds instead. Outputs are the input POJO (dedup) or {@link
 * io.lakestream.operators.window.WindowAggregate} (windows), which a sink maps to its own row
 * format (for example a {@code RowFields} for the Delta sink).
 */
package io.lakestream.operators.row;
