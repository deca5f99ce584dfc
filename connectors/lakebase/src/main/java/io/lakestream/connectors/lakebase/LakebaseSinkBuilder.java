package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.connect.EndpointResolver;
import io.lakestream.connectors.lakebase.sink.LakebaseSink;
import io.lakestream.connectors.schema.RowFields;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds the Lakebase sink: streaming upserts into a PostgreSQL table (Lakebase or any PostgreSQL),
 * configured with the options of Databricks' Lakebase sink ({@link LakebaseSinkOptions}).
 *
 * <pre>{@code
 * LakebaseSink<Order> sink =
 *     LakebaseSinkBuilder.forSchema(schema, order -> new Object[] {order.id(), order.total()})
 *         .option("endpoint", "instance.example.com")
 *         .option("dbtable", "shop.orders")
 *         .option("user", "app")
 *         .passwordProvider(tokens)
 *         .query(query)
 *         .build();
 * stream.sinkTo(sink).uid("orders-lakebase");
 * }</pre>
 *
 * <p>{@link #sanityCheck()} validates options, identifiers and the output mode without connecting;
 * {@link #build()} runs it, then connects once to create the table if missing and settle the upsert
 * key ({@link PostgresTable#prepare}). Failures are {@link LakebaseSinkException}s whose error
 * class and message say what to change; none contains a password.
 *
 * <p>A changelog stream (Flink SQL's {@code -D} rows, a CDC feed) also gives {@link #deletes}: the
 * elements it selects delete their key. Deletes need a key: a declared one ({@link #declaredKey}),
 * option upsertkey, or the existing table's primary key; without one {@link #build()} fails before
 * it creates anything.
 *
 * @param <T> the stream's element type
 */
@PublicEvolving
public final class LakebaseSinkBuilder<T> {
  private final LakebaseSchema schema;
  private final RowFields<T> fields;
  private final Map<String, String> options = new LinkedHashMap<>();
  private CredentialProvider passwordProvider;
  private EndpointResolver endpointResolver;
  private QueryContext query;
  private OutputMode outputMode;
  private List<String> declaredKey = List.of();
  private String declaredKeyOrigin;
  private DeleteSelector<T> deletes;

  private LakebaseSinkBuilder(LakebaseSchema schema, RowFields<T> fields) {
    this.schema = Objects.requireNonNull(schema, "schema");
    this.fields = Objects.requireNonNull(fields, "fields");
  }

  /** A sink writing the columns of {@code schema}, with values from {@code fields}. */
  public static <T> LakebaseSinkBuilder<T> forSchema(LakebaseSchema schema, RowFields<T> fields) {
    return new LakebaseSinkBuilder<>(schema, fields);
  }

  /** Sets an option (see {@link LakebaseSinkOptions}); keys ignore case. */
  public LakebaseSinkBuilder<T> option(String key, String value) {
    options.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, key));
    return this;
  }

  /** Sets several options. */
  public LakebaseSinkBuilder<T> options(Map<String, String> values) {
    values.forEach(this::option);
    return this;
  }

  /** The password source, asked on every (re)connect; instead of option password/passwordfile. */
  public LakebaseSinkBuilder<T> passwordProvider(PasswordProvider provider) {
    return credentialProvider(provider);
  }

  /**
   * The credential source, asked on every (re)connect (with option credential=password, the
   * default); instead of option password/passwordfile.
   */
  public LakebaseSinkBuilder<T> credentialProvider(CredentialProvider provider) {
    this.passwordProvider = Objects.requireNonNull(provider, "provider");
    return this;
  }

  /**
   * Resolves option endpoint given as a Lakebase endpoint id ({@code
   * <project-id>.<branch-id>[.<endpoint-id>]}); instead of option workspacehost's resolver.
   */
  public LakebaseSinkBuilder<T> endpointResolver(EndpointResolver resolver) {
    this.endpointResolver = Objects.requireNonNull(resolver, "resolver");
    return this;
  }

  /** The query: its checkpoint location and output mode. */
  public LakebaseSinkBuilder<T> query(QueryContext query) {
    this.query = query;
    return this;
  }

  /** The output mode when there is no query context (default append). */
  public LakebaseSinkBuilder<T> outputMode(OutputMode mode) {
    this.outputMode = mode;
    return this;
  }

  /**
   * The key the stream declares (in Flink SQL, the table's {@code PRIMARY KEY ... NOT ENFORCED}):
   * the upsert key, which must name the same columns as option upsertkey when both are given, and
   * the primary key of the table (a missing table is created with it).
   *
   * @param origin where it is declared, for messages, e.g. {@code the PRIMARY KEY of orders}
   */
  public LakebaseSinkBuilder<T> declaredKey(List<String> columns, String origin) {
    this.declaredKey = List.copyOf(columns);
    this.declaredKeyOrigin = Objects.requireNonNull(origin, "origin");
    return this;
  }

  /**
   * The elements that delete their key (a changelog stream's deletes); the others upsert. Per key
   * the last change of a batch wins. The sink must have a key.
   */
  public LakebaseSinkBuilder<T> deletes(DeleteSelector<T> selector) {
    this.deletes = Objects.requireNonNull(selector, "selector");
    return this;
  }

  /**
   * Checks everything that needs no connection: options, identifiers, the upsert key against the
   * stream's columns and the declared key, the output mode.
   *
   * @return the validated options
   * @throws LakebaseSinkException naming the option or mode to change
   */
  public LakebaseSinkConfig sanityCheck() {
    OutputMode mode =
        outputMode != null ? outputMode : query != null ? query.outputMode() : OutputMode.APPEND;
    if (mode == OutputMode.COMPLETE) {
      throw new LakebaseSinkException(
          LakebaseSinkException.UNSUPPORTED_OUTPUT_MODE,
          "the Lakebase sink does not support output mode complete (it would rewrite the whole"
              + " result into the table every epoch); use update or append, which both upsert by"
              + " key");
    }
    LakebaseSinkConfig config =
        LakebaseSinkOptions.parse(
            options,
            passwordProvider,
            endpointResolver,
            query == null ? null : query.checkpointLocation(),
            query != null && query.realTime());
    UpsertStatement.of(config.table(), schema, List.of()); // column names are valid
    for (String column : config.upsertKey()) {
      if (schema.indexOf(column) < 0) {
        throw new LakebaseSinkException(
            LakebaseSinkException.INVALID_UPSERT_KEY,
            "option upsertkey names column '"
                + column
                + "', which the stream does not have; the stream's columns are "
                + schema.columnNames());
      }
    }
    checkDeclaredKey(config.upsertKey());
    return config;
  }

  private void checkDeclaredKey(List<String> upsertKey) {
    if (!declaredKey.isEmpty()
        && !upsertKey.isEmpty()
        && !new HashSet<>(declaredKey).equals(new HashSet<>(upsertKey))) {
      throw new LakebaseSinkException(
          LakebaseSinkException.INVALID_UPSERT_KEY,
          "option upsertkey "
              + upsertKey
              + " differs from "
              + declaredKeyOrigin
              + " "
              + declaredKey
              + "; they must name the same columns. Remove option upsertkey (the declared key is"
              + " used) or make it the same columns.");
    }
  }

  /**
   * The upsert key the sink will have, found without creating or changing anything: the declared
   * key, else option upsertkey, else the existing table's primary key (a connection is opened only
   * for this last case); empty when there is none (then the sink inserts). {@link #build()} checks
   * it against the table.
   *
   * @throws LakebaseSinkException as {@link #sanityCheck()}, or if the table cannot be inspected
   */
  public List<String> upsertKey() {
    LakebaseSinkConfig config = sanityCheck();
    List<String> given = givenKey(config);
    if (!given.isEmpty()) {
      return given;
    }
    try (Connection connection = config.endpoint().connect()) {
      return PostgresTable.describe(connection, config.table())
          .map(PostgresTable::primaryKey)
          .orElse(List.of());
    } catch (SQLException | IOException e) {
      throw setupFailed(config, e);
    }
  }

  private List<String> givenKey(LakebaseSinkConfig config) {
    return declaredKey.isEmpty() ? config.upsertKey() : declaredKey;
  }

  private String givenKeyOrigin() {
    return declaredKey.isEmpty() ? "option upsertkey" : declaredKeyOrigin;
  }

  /**
   * Validates, then connects once to create the table if missing and settle the upsert key.
   *
   * @throws LakebaseSinkException if an option, the key or the table does not fit, if there are
   *     deletes but no key (raised before the table is created), or the table cannot be inspected
   *     or created (cause attached)
   */
  public LakebaseSink<T> build() {
    LakebaseSinkConfig config = sanityCheck();
    List<String> key;
    try (Connection connection = config.endpoint().connect()) {
      connection.setAutoCommit(true);
      List<String> given = givenKey(config);
      if (deletes != null && given.isEmpty()) {
        requireTableKey(connection, config);
      }
      key = PostgresTable.prepare(connection, config.table(), schema, given, givenKeyOrigin());
    } catch (SQLException | IOException e) {
      throw setupFailed(config, e);
    }
    UpsertStatement upsert = versionGuard(config, UpsertStatement.of(config.table(), schema, key));
    if (config.exactlyOnce()) {
      prepareStaging(config, upsert);
    }
    String appId = query != null ? query.appId() : "checkpoint:" + config.checkpointLocation();
    return new LakebaseSink<>(
        config, upsert, fields, deletes, appId, query == null ? null : query.checkpointLocation());
  }

  private static UpsertStatement versionGuard(LakebaseSinkConfig config, UpsertStatement upsert) {
    if (config.versionColumn() == null) {
      return upsert;
    }
    try {
      return upsert.withVersionColumn(config.versionColumn());
    } catch (IllegalArgumentException e) {
      throw new LakebaseSinkException(
          LakebaseSinkException.INVALID_OPTIONS,
          "option versioncolumn: " + e.getMessage() + "; name such a column or leave it out");
    }
  }

  /** Exactly-once mode: creates the staging and commit tables if missing. */
  private static void prepareStaging(LakebaseSinkConfig config, UpsertStatement upsert) {
    try (Connection connection = config.endpoint().connect()) {
      connection.setAutoCommit(true);
      StagingTable.of(upsert).prepare(connection);
    } catch (SQLException | IOException e) {
      throw setupFailed(config, e);
    }
  }

  /** Deletes without a given key need the existing table's primary key. */
  private static void requireTableKey(Connection connection, LakebaseSinkConfig config)
      throws SQLException {
    boolean keyed =
        PostgresTable.describe(connection, config.table())
            .map(table -> !table.primaryKey().isEmpty())
            .orElse(false);
    if (!keyed) {
      throw new LakebaseSinkException(
          LakebaseSinkException.INVALID_UPSERT_KEY,
          "the stream deletes rows by key, but the sink has no key: table "
              + config.table()
              + " has no primary key (or does not exist) and option upsertkey is not given."
              + " Give option upsertkey (created tables get it as their primary key), or write to a"
              + " table with a primary key.");
    }
  }

  private static LakebaseSinkException setupFailed(LakebaseSinkConfig config, Exception e) {
    return new LakebaseSinkException(
        LakebaseSinkException.TABLE_SETUP_FAILED,
        "cannot inspect or create table "
            + config.table()
            + " at "
            + config.endpoint()
            + ": "
            + e.getMessage(),
        e);
  }
}
