package io.lakestream.bench.latency;

import io.lakestream.bench.Measurement;

/**
 * One measured run: the latencies, where they went hop by hop (text, null when not measured), how
 * long the paced producer took to send (the rate the table shows is the records over that time, so
 * it shows whether the producer kept its pace), the records sent, and the latencies of a consumer
 * reading the input topic during the run with their hops (Kafka alone, null when not measured).
 */
record PacedRun(
    LatencySample sample,
    String hops,
    long produceNanos,
    long records,
    LatencySample kafkaAlone,
    String kafkaAloneHops) {
  /** Without a measurement of Kafka alone. */
  PacedRun(LatencySample sample, String hops, long produceNanos, long records) {
    this(sample, hops, produceNanos, records, null, null);
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
        + (hops == null ? "" : " (" + hops + ")")
        + (kafkaAlone == null
            ? ""
            : "; Kafka alone meanwhile (a consumer of the input topic): "
                + kafkaAlone.summary()
                + (kafkaAloneHops == null ? "" : " (" + kafkaAloneHops + ")"));
  }
}
