/**
 * Turning raw records into typed rows without losing any: {@link
 * io.lakestream.operators.parse.ParseWithDeadLetters} parses text records and {@link
 * io.lakestream.operators.parse.FromJson} (Spark's {@code from_json}) the values of records such as
 * Kafka's, both with a {@link io.lakestream.operators.parse.RecordParser}. A record that does not
 * parse or fails a declared check (the parser throws {@link
 * io.lakestream.operators.parse.RecordParseException}) goes to the {@code DEAD_LETTERS} side output
 * as a {@link io.lakestream.operators.parse.DeadLetter} with the reason and its position; it never
 * fails the query. Any other exception is a parser bug and fails the task. {@link
 * io.lakestream.operators.parse.IsoInstantParser} parses event-time columns fast.
 */
package io.lakestream.operators.parse;
