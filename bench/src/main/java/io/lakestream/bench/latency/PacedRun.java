package io.lakestream.bench.latency;

import io.lakestream.bench.Measurement;

/**
 * One measured run: the latencies, the part of them from send to the job's first operator (null
 * when not measured), how long the paced producer took to send (the rate the table shows is the
 * records over that time, so it shows whether the producer kept its pace), the records sent, and
 * the latencies of a consumer reading the input topic during the run (Kafka alone, null when not
 * measured).
 */
record PacedRun(
    LatencySample sample,
    LatencySample toJob,
    long produceNanos,
    long records,
    LatencySample kafkaAlone) {
  /** Without a measurement of Kafka alone. */
  PacedRun(LatencySample sample, LatencySample toJob, long produceNanos, long records) {
    this(sample, toJob, produceNanos, records, null);
  }

  Measurement measurement(String side) {
    return new Measurement(side, records, produceNanos, -1, -1, -1, sample.summary());
  }

  String line(String variant) {
    return variant
        + ": "
        + sample.summary()
        + " over "
        + sample.count()
        + " records"
        + (toJob == null
            ? ""
            : " (of which send -> the job's first operator: " + toJob.summary() + ")")
        + (kafkaAlone == null
            ? ""
            : "; Kafka alone meanwhile (a consumer of the input topic): " + kafkaAlone.summary());
  }
}
