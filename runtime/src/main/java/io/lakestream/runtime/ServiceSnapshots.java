package io.lakestream.runtime;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.StateBackendSettings;
import java.time.Duration;
import java.util.Optional;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run whose Flink checkpoint storage and restores a managed service owns (Amazon Managed Service
 * for Apache Flink; see {@link StreamingQueryBuilder#serviceOwnedSnapshots}). The query then sets
 * only what the service leaves to the program (max parallelism, generic types) and checks the rest
 * against the configuration the service gave Flink: the epoch cadence is the service's checkpoint
 * interval, checkpoints must be exactly-once and aligned, and the snapshot to restore is the one in
 * {@code execution.savepoint.path} ({@code execution.state-recovery.path}). Every conflict fails
 * with {@code QUERY_MANAGED_SERVICE_CONFLICT} naming the service setting, before anything runs.
 */
final class ServiceSnapshots {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceSnapshots.class);

  /** The checkpoint interval of MSF's DEFAULT checkpoint configuration. */
  static final Duration SERVICE_DEFAULT_INTERVAL = Duration.ofSeconds(60);

  private ServiceSnapshots() {}

  /**
   * The settings to run with: the trigger becomes the service's checkpoint interval when none was
   * given.
   *
   * @param service the configuration the service gave Flink
   * @throws LakestreamException for a restore path, state backend, changelog or trigger the service
   *     decides
   */
  static QueryExecution.Settings settle(QueryExecution.Settings s, ReadableConfig service) {
    if (s.restoreFrom() != null) {
      throw conflict(
          "restoreFrom "
              + s.restoreFrom()
              + ": the service restores its own snapshots. Start or update the application with"
              + " ApplicationRestoreConfiguration (RESTORE_FROM_CUSTOM_SNAPSHOT and the"
              + " snapshot's name) instead");
    }
    if (s.state().backend() != StateBackendSettings.Backend.ROCKSDB || s.state().changelog()) {
      throw conflict(
          "state backend "
              + s.state()
              + ": the service runs RocksDB without the changelog (a program cannot change it),"
              + " so the query's fingerprint must say rocksdb. Drop the state backend setting");
    }
    requireExactlyOnceAligned(service);
    return s.withTrigger(trigger(s.trigger(), interval(service)));
  }

  /**
   * The Flink configuration of the run: the caller's settings plus max parallelism and generic
   * types; no checkpoint, savepoint or changelog directory, interval, restart strategy or restore.
   */
  static Configuration forRun(QueryExecution.Settings s) {
    Configuration conf = new Configuration(s.flinkConfiguration());
    Configuration state = s.state().toConfiguration(s.checkpointLocation());
    conf.set(PipelineOptions.MAX_PARALLELISM, state.get(PipelineOptions.MAX_PARALLELISM));
    conf.set(PipelineOptions.GENERIC_TYPES, state.get(PipelineOptions.GENERIC_TYPES));
    return conf;
  }

  /** The snapshot the service gave Flink to restore, if any. */
  static Optional<String> restorePath(ReadableConfig service) {
    return service.getOptional(StateRecoveryOptions.SAVEPOINT_PATH).filter(p -> !p.isBlank());
  }

  /**
   * A replaced sink's state can only be dropped if the service lets the restore skip state no
   * operator claims.
   *
   * @throws LakestreamException if the service's configuration does not allow non-restored state
   */
  static void requireNonRestoredStateAllowed(ReadableConfig service) {
    if (!service.get(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE)) {
      throw conflict(
          "a sink is replaced, and the restore must drop its old state, which no operator of the"
              + " new program claims. Update the application with AllowNonRestoredState=true"
              + " (FlinkRunConfiguration) for this change");
    }
  }

  private static void requireExactlyOnceAligned(ReadableConfig service) {
    Optional<CheckpointingMode> mode =
        service.getOptional(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE);
    if (mode.isPresent() && mode.get() != CheckpointingMode.EXACTLY_ONCE) {
      throw conflict(
          "the service checkpoints "
              + mode.get()
              + ": every sink commits once per epoch only with exactly-once checkpoints");
    }
    if (service.get(CheckpointingOptions.ENABLE_UNALIGNED)) {
      throw conflict(
          "the service takes unaligned checkpoints (execution.checkpointing.unaligned), but the"
              + " sinks' epoch commits need aligned barriers. Ask for aligned checkpoints");
    }
  }

  private static Optional<Duration> interval(ReadableConfig service) {
    return service.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL);
  }

  /**
   * The trigger of the run: processingTime at the service's checkpoint interval. A processingTime
   * trigger must name that interval (the service's value wins over the program's), others are
   * refused: availableNow and once stop the job, which the service restarts; realTime needs its own
   * buffer timeout.
   */
  static Trigger trigger(Trigger given, Optional<Duration> serviceInterval) {
    if (given instanceof Trigger.Unspecified) {
      Duration interval = serviceInterval.orElse(SERVICE_DEFAULT_INTERVAL);
      LOG.info(
          "The service owns checkpointing: one epoch per checkpoint, every {} ({})",
          text(interval),
          serviceInterval.isPresent()
              ? "execution.checkpointing.interval"
              : "not in the configuration: the service's default CheckpointInterval");
      return Trigger.processingTime(interval);
    }
    if (!(given instanceof Trigger.ProcessingTime p)) {
      throw conflict(
          "trigger "
              + given.getClass().getSimpleName()
              + ": the service owns the job's life cycle and its checkpoints. Use processingTime"
              + " with the application's CheckpointInterval, or leave the trigger out");
    }
    if (serviceInterval.isPresent() && !serviceInterval.get().equals(p.interval())) {
      throw conflict(
          "trigger processingTime="
              + text(p.interval())
              + " asks for an epoch every "
              + text(p.interval())
              + ", but the service checkpoints every "
              + text(serviceInterval.get())
              + ". Set CheckpointConfiguration ConfigurationType=CUSTOM with CheckpointInterval="
              + p.interval().toMillis()
              + ", or leave the trigger out to follow the service");
    }
    if (serviceInterval.isEmpty()) {
      LOG.warn(
          "Trigger processingTime={}: the service's checkpoint interval is not in the configuration; epochs"
              + " follow the application's CheckpointInterval (default {}), which must say the"
              + " same",
          text(p.interval()),
          text(SERVICE_DEFAULT_INTERVAL));
    }
    return p;
  }

  /** {@code 30s} or {@code 500ms}, as the trigger takes it. */
  static String text(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }

  private static LakestreamException conflict(String what) {
    return new LakestreamException(
        QueryErrorClass.QUERY_MANAGED_SERVICE_CONFLICT,
        "On Managed Service for Apache Flink, "
            + what
            + ". (The service owns checkpoint storage and restores; see docs/deploy/msf.md.)");
  }
}
