package io.lakestream.pipelines;

import io.lakestream.runtime.StreamingQuery;
import io.lakestream.sql.SqlDataflow;
import io.lakestream.state.StateBackendSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;

/**
 * A worked example SQL file of {@code pipelines/sql} (on the classpath under {@code examples/sql},
 * as the jar ships it), run as a test runs it: the file as written, but for its embedded defaults
 * pointed at the test's services. {@link #localized} replaces the base directory {@code
 * lakestream-sql/} by the test's, {@code localhost:9092} by the test broker and the trigger by
 * availableNow; anything else a test changes goes through {@link #replace}, which fails when the
 * file no longer holds the text, so a test never silently runs something else than the file.
 */
public final class SqlExample {
  /** The base directory of every example's tables and checkpoints. */
  public static final String BASE = "lakestream-sql/";

  private static final Pattern TRIGGER = Pattern.compile("SET 'lakestream\\.trigger' = '[^']*'");

  private final String file;
  private final String text;

  private SqlExample(String file, String text) {
    this.file = file;
    this.text = text;
  }

  /** The example file {@code file}, e.g. {@code e2_bronze.sql}. */
  public static SqlExample of(String file) {
    try (InputStream in = SqlExample.class.getResourceAsStream("/examples/sql/" + file)) {
      if (in == null) {
        throw new IllegalArgumentException("no example examples/sql/" + file + " on the classpath");
      }
      return new SqlExample(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The file with its tables and checkpoints under {@code base}, its Kafka tables on {@code
   * bootstrapServers} (null: the file reads no topic) and the availableNow trigger.
   */
  public SqlExample localized(Path base, String bootstrapServers) {
    SqlExample local = replace("'" + BASE, "'" + base.toAbsolutePath() + "/");
    if (bootstrapServers != null) {
      local = local.replace("'localhost:9092'", "'" + bootstrapServers + "'");
    }
    Matcher trigger = TRIGGER.matcher(local.text);
    return trigger.find()
        ? new SqlExample(file, trigger.replaceAll("SET 'lakestream.trigger' = 'availableNow'"))
        : local;
  }

  /** The text with every {@code target} replaced. */
  public SqlExample replace(String target, String replacement) {
    if (!text.contains(target)) {
      throw new IllegalStateException(file + " no longer contains " + target);
    }
    return new SqlExample(file, text.replace(target, replacement));
  }

  public String text() {
    return text;
  }

  /**
   * Runs the file as {@code lakestream sql -f} does, its {@code SET 'lakestream.*'} settings
   * applied (so availableNow, on its checkpoint location), with parallelism 2, RocksDB and up to
   * three in-job restarts, until it ends.
   */
  public StreamingQuery run() throws Exception {
    StreamingQuery query = start();
    query.awaitTermination();
    return query;
  }

  /** Starts the file as {@link #run()} does and returns the running query. */
  public StreamingQuery start() throws Exception {
    Configuration flink = new Configuration();
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    return SqlDataflow.fromFile(file, text)
        .queryBuilder()
        .queryName(file.replace(".sql", ""))
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .flinkConfiguration(flink)
        .start();
  }
}
