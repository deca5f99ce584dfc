package io.lakestream.sql;

import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.state.query.QueryContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Optional;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.TableConfig;

/**
 * Carries the running query's {@link QueryContext} from {@link SqlDataflow} to the table factories
 * the planner calls: the context, serialized, is a table setting the factories read from their
 * {@code Context.getConfiguration()}. A table used outside the runtime finds no context and fails
 * with {@link SqlErrorClass#SQL_QUERY_RUNTIME_REQUIRED} where it needs one (a sink).
 */
@Internal
public final class QueryContextConfig {
  /** The table setting; internal, set only by {@link SqlDataflow}. */
  public static final ConfigOption<String> QUERY_CONTEXT =
      ConfigOptions.key("lakestream.internal.query-context")
          .stringType()
          .noDefaultValue()
          .withDescription("The running query's context (set by the query runtime).");

  private QueryContextConfig() {}

  /** Stores {@code query} in the table settings. */
  public static void write(TableConfig config, QueryContext query) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(query);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    config.set(QUERY_CONTEXT, Base64.getEncoder().encodeToString(bytes.toByteArray()));
  }

  /** The running query's context, if the statements run in one. */
  public static Optional<QueryContext> find(ReadableConfig config) {
    return config.getOptional(QUERY_CONTEXT).map(QueryContextConfig::decode);
  }

  /**
   * The running query's context.
   *
   * @param table the table asking, in the message
   * @throws LakestreamException ({@link SqlErrorClass#SQL_QUERY_RUNTIME_REQUIRED}) outside the
   *     runtime
   */
  public static QueryContext read(ReadableConfig config, String table) {
    String text =
        config
            .getOptional(QUERY_CONTEXT)
            .orElseThrow(
                () ->
                    new LakestreamException(
                        SqlErrorClass.SQL_QUERY_RUNTIME_REQUIRED,
                        "Table "
                            + table
                            + " is a lakestream table: it needs the query runtime (the query's"
                            + " checkpoint location, app id and trigger), which a plain"
                            + " TableEnvironment does not have. Run the statements as a query:"
                            + " StreamingQueryBuilder.of(SqlDataflow.of(statements))."));
    return decode(text);
  }

  private static QueryContext decode(String text) {
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
      return (QueryContext) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("Unreadable " + QUERY_CONTEXT.key(), e);
    }
  }
}
