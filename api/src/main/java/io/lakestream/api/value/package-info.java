/**
 * Rules for values every parser of the project applies alike: which bytes are UTF-8 ({@link
 * io.lakestream.api.value.StrictUtf8}) and which dates and timestamps a Delta table can hold
 * ({@link io.lakestream.api.value.TimestampRange}). Flink-free, no I/O.
 */
package io.lakestream.api.value;
