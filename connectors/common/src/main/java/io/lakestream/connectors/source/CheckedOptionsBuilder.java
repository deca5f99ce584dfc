package io.lakestream.connectors.source;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.ConnectorErrorClass;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.state.Locations;
import io.lakestream.state.query.QueryContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The part every source builder shares: a location, a name (the source's uid and its name in
 * offsets records), string options under their Spark or Databricks names, the query the source runs
 * in and Hadoop settings. Setters only record; {@link #checkOptions} (called from a builder's
 * {@code sanityCheck()}) checks the name, then the options against the source's {@link
 * OptionsCatalog}, and fills {@link #options}.
 *
 * <p>Fails with {@code CONNECTOR_NAME_MISSING} for a missing name, and with the catalog's {@link
 * io.lakestream.api.error.LakestreamException} ({@link
 * io.lakestream.connectors.options.OptionErrorClass}) for an unknown option (naming the closest
 * valid one), a value that does not parse or is out of range, or options that conflict.
 *
 * @param <B> the concrete builder, returned by the setters
 */
@PublicEvolving
public abstract class CheckedOptionsBuilder<B extends CheckedOptionsBuilder<B>> {
  /** The location read, made absolute. */
  protected final String path;

  /** The typed options, set by {@link #checkOptions}. */
  protected OptionValues options;

  private final Map<String, String> rawOptions = new LinkedHashMap<>();

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

  /** One option by its Spark (or Databricks) name, in any case; checked in {@code build()}. */
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
   * Checks the name and validates the options against {@code catalog}, setting {@link #options}.
   *
   * @param subject what is built, for the missing-name message, e.g. {@code "Delta source"}
   * @param catalog every option the builder knows
   * @throws LakestreamException ({@code CONNECTOR_NAME_MISSING}) for a missing name
   * @throws io.lakestream.api.error.LakestreamException for a bad option (see {@link
   *     OptionsCatalog#validate})
   */
  protected final OptionValues checkOptions(String subject, OptionsCatalog catalog) {
    if (name == null || name.isBlank()) {
      throw new LakestreamException(
          ConnectorErrorClass.CONNECTOR_NAME_MISSING,
          subject + " for " + path + " needs a name (its uid)");
    }
    options = catalog.validate(rawOptions, "for " + path);
    return options;
  }
}
