/** Pipeline {@code kinesis-to-bronze}: a Kinesis data stream into a Delta bronze table. */
package io.lakestream.pipelines.kinesis;
