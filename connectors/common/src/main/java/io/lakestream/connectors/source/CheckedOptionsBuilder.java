package io.lakestream.connectors.source;

import io.lakestream.state.Locations;
import io.lakestream.state.query.QueryContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * The part every source builder shares: a location, a name (the source's uid and its name in
 * offsets records), string options under their Spark or Databricks names, the query the source runs
 * in and Hadoop settings. Setters only record; {@link #checkOptions} (called from a builder's
 * {@code sanityCheck()}) checks the name and the options and fills {@link #options}.
 *
 * <p>Fails with {@link IllegalArgumentException}: for a missing name, for an unknown option (the
 * message lists the valid ones) and for a value its {@link ConfigOption} cannot parse (the message
 * names the option and repeats its description).
 *
 * @param <B> the concrete builder, returned by the setters
 */
public abstract class CheckedOptionsBuilder<B extends CheckedOptionsBuilder<B>> {
  /** The location read, made absolute. */
  protected final String path;

  /** The typed options, filled by {@link #checkOptions}. */
  protected final Configuration options = new Configuration();

  private final Map<String, String> rawOptions = new TreeMap<>();

  /** The name set with {@link #name}, or null. */
  protected String name;

  /** The query set with {@link #query}, or null. */
  protected QueryContext query;

  /** The Hadoop settings set with {@link #hadoopConf}. */
  protected Map<String, String> hadoopConf = Map.of();

  /**
   * A builder for the location {@code path} (local path or URI).
   *
   * @throws NullPointerException if {@code path} is null
   */
  protected CheckedOptionsBuilder(String path) {
    this.path = Locations.absolute(Objects.requireNonNull(path, "path"));
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /** The source's name in offsets records and progress; use the same string as its uid. */
  public B name(String name) {
    this.name = name;
    return self();
  }

  /** One option by its Spark (or Databricks) name; checked in {@code build()}. */
  public B option(String key, String value) {
    rawOptions.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, key));
    return self();
  }

  /** Several options, as {@link #option}. */
  public B options(Map<String, String> options) {
    options.forEach(this::option);
    return self();
  }

  /** The query the source runs in (offsets records, availableNow, once); optional. */
  public B query(QueryContext query) {
    this.query = query;
    return self();
  }

  /** Hadoop settings for the file system read (e.g. fs.s3a.* for S3). */
  public B hadoopConf(Map<String, String> conf) {
    this.hadoopConf = Map.copyOf(conf);
    return self();
  }

  /**
   * Checks the name and that every option is one of {@code valid} with a value it parses, then adds
   * them to {@link #options}.
   *
   * @param subject what is built, for the missing-name message, e.g. {@code "Delta source"}
   * @param label the options' owner in messages, e.g. {@code "Delta source"} gives {@code "Unknown
   *     Delta source option ..."}
   * @param valid every option the builder knows
   * @throws IllegalArgumentException for a missing name, an unknown option or a bad value
   */
  protected final void checkOptions(String subject, String label, List<ConfigOption<?>> valid) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(subject + " for " + path + " needs a name (its uid)");
    }
    TreeSet<String> keys = new TreeSet<>();
    valid.forEach(o -> keys.add(o.key()));
    for (String key : rawOptions.keySet()) {
      if (!keys.contains(key)) {
        throw new IllegalArgumentException(
            "Unknown " + label + " option '" + key + "' for " + path + "; valid options: " + keys);
      }
    }
    Configuration conf = Configuration.fromMap(rawOptions);
    for (ConfigOption<?> option : valid) {
      try {
        conf.get(option);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            label
                + " option "
                + option.key()
                + "='"
                + rawOptions.get(option.key())
                + "' is invalid: "
                + option.description(),
            e);
      }
    }
    options.addAll(conf);
  }
}
