package io.lakestream.state;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import java.io.Serializable;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateChangelogOptions;

/**
 * How a query keeps its state: the state backend, incremental checkpoints, optional changelog,
 * where checkpoints go and the fixed max parallelism.
 *
 * <p>The defaults are the production posture: RocksDB with incremental checkpoints, checkpoints
 * retained on cancellation (so a stopped query can always be resumed), generic types disabled so no
 * state silently falls back to Kryo, and a fixed max parallelism (changing it later makes keyed
 * state unrestorable, so it is part of a query's identity).
 *
 * <p>Instances are immutable; {@link #toConfiguration(URI)} fails with a {@link
 * LakestreamException} ({@code INVALID_STATE_SETTING}) when the checkpoint directory is not an
 * absolute URI.
 */
@PublicEvolving
public final class StateBackendSettings implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Max parallelism used when a query does not set one: room to scale out 8x from 16 slots. */
  public static final int DEFAULT_MAX_PARALLELISM = 128;

  /** The state backends a query may use. */
  public enum Backend {
    /** Embedded RocksDB: state on local disk, incremental checkpoints. */
    ROCKSDB("rocksdb"),
    /** Heap state: small state only (tests, prototypes). */
    HASHMAP("hashmap");

    private final String flinkName;

    Backend(String flinkName) {
      this.flinkName = flinkName;
    }

    /** The value of Flink's {@code state.backend.type}. */
    public String flinkName() {
      return flinkName;
    }

    /** Parses {@code rocksdb} or {@code hashmap}. */
    public static Backend parse(String name) {
      for (Backend b : values()) {
        if (b.flinkName.equalsIgnoreCase(name.trim())) {
          return b;
        }
      }
      throw new LakestreamException(
          StateErrorClass.INVALID_STATE_SETTING,
          "unknown state backend '" + name + "'; valid: rocksdb, hashmap");
    }
  }

  /**
   * flink-dstl-dfs's base path option (not referenced by class to keep it a runtime dependency).
   */
  static final ConfigOption<String> CHANGELOG_BASE_PATH =
      ConfigOptions.key("state.changelog.dstl.dfs.base-path").stringType().noDefaultValue();

  /**
   * RocksDB's native metrics that progress reports as each state operator's {@code customMetrics}:
   * property reads of RocksDB, done only when Flink's metric fetcher asks.
   */
  private static final List<String> ROCKSDB_NATIVE_METRICS =
      List.of(
          "state.backend.rocksdb.metrics.estimate-num-keys",
          "state.backend.rocksdb.metrics.total-sst-files-size",
          "state.backend.rocksdb.metrics.cur-size-all-mem-tables",
          "state.backend.rocksdb.metrics.num-running-flushes",
          "state.backend.rocksdb.metrics.num-running-compactions");

  private final Backend backend;
  private final boolean incremental;
  private final boolean changelog;
  private final int maxParallelism;

  private StateBackendSettings(
      Backend backend, boolean incremental, boolean changelog, int maxParallelism) {
    if (maxParallelism < 1 || maxParallelism > 32768) {
      throw new LakestreamException(
          StateErrorClass.INVALID_STATE_SETTING,
          "max parallelism must be between 1 and 32768, was " + maxParallelism);
    }
    this.backend = Objects.requireNonNull(backend, "backend");
    this.incremental = incremental;
    this.changelog = changelog;
    this.maxParallelism = maxParallelism;
  }

  /** RocksDB, incremental checkpoints, no changelog, max parallelism 128. */
  public static StateBackendSettings defaults() {
    return new StateBackendSettings(Backend.ROCKSDB, true, false, DEFAULT_MAX_PARALLELISM);
  }

  public StateBackendSettings withBackend(Backend newBackend) {
    return new StateBackendSettings(newBackend, incremental, changelog, maxParallelism);
  }

  public StateBackendSettings withChangelog(boolean enabled) {
    return new StateBackendSettings(backend, incremental, enabled, maxParallelism);
  }

  public StateBackendSettings withMaxParallelism(int newMaxParallelism) {
    return new StateBackendSettings(backend, incremental, changelog, newMaxParallelism);
  }

  public Backend backend() {
    return backend;
  }

  public boolean incremental() {
    return incremental;
  }

  public boolean changelog() {
    return changelog;
  }

  public int maxParallelism() {
    return maxParallelism;
  }

  /**
   * The Flink configuration for these settings, with checkpoints (and savepoints, under {@code
   * savepoints/}) stored below {@code checkpointDir}.
   */
  public Configuration toConfiguration(URI checkpointDir) {
    if (checkpointDir == null || !checkpointDir.isAbsolute()) {
      throw new LakestreamException(
          StateErrorClass.INVALID_STATE_SETTING,
          "checkpoint directory must be an absolute URI such as file:///data/chk or"
              + " s3://bucket/chk, was "
              + checkpointDir);
    }
    String base = checkpointDir.toString().replaceAll("/+$", "");
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.STATE_BACKEND, backend.flinkName());
    conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, incremental);
    if (backend == Backend.ROCKSDB) {
      ROCKSDB_NATIVE_METRICS.forEach(metric -> conf.setString(metric, "true"));
    }
    conf.set(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG, changelog);
    if (changelog) {
      // Durable changelog next to the checkpoints (flink-dstl-dfs); "memory" would lose it.
      conf.set(StateChangelogOptions.STATE_CHANGE_LOG_STORAGE, "filesystem");
      conf.set(CHANGELOG_BASE_PATH, base + "/state/changelog");
    }
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, base + "/state");
    conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, base + "/savepoints");
    conf.set(
        CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    conf.set(PipelineOptions.MAX_PARALLELISM, maxParallelism);
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    return conf;
  }

  @Override
  public String toString() {
    return backend.flinkName()
        + (incremental ? " incremental" : "")
        + (changelog ? " +changelog" : "")
        + " maxParallelism="
        + maxParallelism;
  }
}
