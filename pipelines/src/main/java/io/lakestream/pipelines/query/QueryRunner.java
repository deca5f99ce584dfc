package io.lakestream.pipelines.query;

import io.lakestream.pipelines.Pipeline;
import io.lakestream.pipelines.RunSettings;
import io.lakestream.state.StateBackendSettings;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one pipeline: applies the trigger and the state settings, builds the dataflow and executes
 * it, attached, until it ends or fails. Embedded (a MiniCluster) when started with {@code java}; on
 * the cluster when started with {@code flink run}.
 */
public final class QueryRunner {
  private static final Logger LOG = LoggerFactory.getLogger(QueryRunner.class);

  private final Pipeline pipeline;
  private final RunSettings settings;
  private final StateBackendSettings state;

  public QueryRunner(Pipeline pipeline, RunSettings settings) {
    this(pipeline, settings, StateBackendSettings.defaults());
  }

  public QueryRunner(Pipeline pipeline, RunSettings settings, StateBackendSettings state) {
    this.pipeline = pipeline;
    this.settings = settings;
    this.state = state;
  }

  /** The Flink configuration this run uses. */
  public Configuration configuration() {
    Configuration conf = state.toConfiguration(settings.checkpointLocation());
    TriggerSettings.apply(settings.trigger(), conf);
    return conf;
  }

  /** Builds and runs the job; returns when it ends. Failures propagate. */
  public JobExecutionResult run() throws Exception {
    Configuration conf = configuration();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    if (env instanceof LocalStreamEnvironment) {
      // Embedded: nobody else initialises file systems (s3://) with this configuration.
      FileSystem.initialize(conf, PluginUtils.createPluginManagerFromRootFolder(conf));
    }
    pipeline.prepare(settings);
    env.setParallelism(settings.parallelism());
    pipeline.build(env, settings);
    LOG.info(
        "Starting query '{}' (pipeline {}, trigger {}, state {}, checkpoint location {})",
        settings.queryName(),
        pipeline.name(),
        settings.trigger(),
        state,
        settings.checkpointLocation());
    JobExecutionResult result = env.execute(settings.queryName());
    LOG.info("Query '{}' finished in {} ms", settings.queryName(), result.getNetRuntime());
    return result;
  }
}
