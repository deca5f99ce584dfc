package io.lakestream.bench.dedup;

/**
 * One sample of a running dedup-state job.
 *
 * @param seconds since the job was submitted
 * @param processed rows the stateful operator has taken in (all subtasks)
 * @param numRowsTotal the operator's {@code numRowsTotal} (keys or open windows held) as of each
 *     subtask's last epoch end, summed over the subtasks
 * @param stateMemoryBytes the operator's {@code memoryUsedBytes} estimate as of the same epoch ends
 * @param rocksDbBytes RocksDB's estimate-live-data-size + size-all-mem-tables, all column families
 * @param rocksDbKeys RocksDB's estimate-num-keys (state entries and timers), all column families
 * @param heapUsedBytes JVM heap in use now (including garbage)
 * @param heapAfterGcBytes JVM heap in use after the last garbage collection
 * @param watermarkLagMillis how far the operator's input watermark trails the ideal one (the latest
 *     taken-in event's base time - delay), in event-time ms; -1 if not known yet
 */
public record StateSample(
    double seconds,
    long processed,
    long numRowsTotal,
    long stateMemoryBytes,
    long rocksDbBytes,
    long rocksDbKeys,
    long heapUsedBytes,
    long heapAfterGcBytes,
    long watermarkLagMillis) {}
