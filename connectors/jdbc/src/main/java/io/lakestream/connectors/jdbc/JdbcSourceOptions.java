package io.lakestream.connectors.jdbc;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.jdbc.source.split.JdbcPartitionSplit;
import io.lakestream.connectors.options.Option;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.options.OptionValues;
import io.lakestream.connectors.options.OptionsCatalog;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The JDBC source's options, named as Spark's {@code jdbc} reader names them, declared in {@link
 * #CATALOG} (keys ignore case; reference {@code docs/options/jdbc-source.md}). {@link #parse}
 * validates them all before anything connects: unknown, missing, malformed and conflicting options
 * fail with the catalog's error classes, naming the option. A password is never an option value:
 * option {@code password}, and a {@code url} carrying a password (a {@code password=} parameter or
 * {@code user:password@}), are refused with a message that does not repeat them.
 */
@PublicEvolving
public final class JdbcSourceOptions {

  public static final Option<String> URL =
      Option.key("url")
          .stringType()
          .required()
          .withDescription(
              "The JDBC URL, e.g. jdbc:postgresql://host:5432/db, without credentials: a URL"
                  + " with a password is refused (use passwordFile or passwordEnv).");

  public static final Option<String> DBTABLE =
      Option.key("dbtable")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The table to read (anything valid in a FROM clause). Give dbtable or query, not"
                  + " both.");

  public static final Option<String> QUERY =
      Option.key("query")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "A SELECT whose result is read, as a subquery. Cannot be combined with"
                  + " partitionColumn (as in Spark): use dbtable \"(SELECT ...) t\" for a"
                  + " partitioned read of a query.");

  public static final Option<String> PARTITION_COLUMN =
      Option.key("partitionColumn")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "A numeric column that cuts the read into numPartitions ranges of equal stride"
                  + " between lowerBound and upperBound, read in parallel. The bounds only decide"
                  + " the stride: rows below lowerBound and NULLs are in the first partition, rows"
                  + " above upperBound in the last. Needs lowerBound, upperBound and"
                  + " numPartitions.");

  public static final Option<Long> LOWER_BOUND =
      Option.key("lowerBound")
          .longType()
          .noDefaultValue()
          .withDescription("The lower end of the partition column's stride range.");

  public static final Option<Long> UPPER_BOUND =
      Option.key("upperBound")
          .longType()
          .noDefaultValue()
          .withDescription("The upper end of the partition column's stride range.");

  public static final Option<Integer> NUM_PARTITIONS =
      Option.key("numPartitions")
          .intType()
          .noDefaultValue()
          .atLeast(1)
          .withDescription(
              "How many partitions (splits) a read with partitionColumn has; fewer when the bound"
                  + " range has fewer values. Each partition is committed on its own.");

  public static final Option<Integer> FETCH_SIZE =
      Option.key("fetchsize")
          .intType()
          .defaultValue(1000)
          .atLeast(1)
          .withDescription(
              "Rows fetched per round trip. Spark leaves the default to the driver (PostgreSQL's"
                  + " then holds the whole result in memory); lakestream fetches 1000 at a time,"
                  + " with autocommit off so PostgreSQL uses a cursor.");

  public static final Option<String> USER =
      Option.key("user").stringType().noDefaultValue().withDescription("The database user.");

  public static final Option<String> PASSWORD_FILE =
      Option.key("passwordFile")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "A secret file whose first line is the password, read at every connect (e.g. a"
                  + " mounted Kubernetes secret or one an agent refreshes).");

  public static final Option<String> PASSWORD_ENV =
      Option.key("passwordEnv")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "The name of an environment variable holding the password, read at every connect"
                  + " on the machine that connects.");

  /** Every option. */
  public static final List<Option<?>> ALL =
      List.of(
          URL,
          DBTABLE,
          QUERY,
          PARTITION_COLUMN,
          LOWER_BOUND,
          UPPER_BOUND,
          NUM_PARTITIONS,
          FETCH_SIZE,
          USER,
          PASSWORD_FILE,
          PASSWORD_ENV);

  /** The catalog; errors are {@code InvalidOptionException}s of the catalog's classes. */
  public static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("jdbc-source", "JDBC source")
          .summary(
              "Options of the bounded JDBC pull (`lakestream run jdbc-to-delta -o key=value`),"
                  + " named as Spark's `jdbc` reader names them. The password comes from"
                  + " `passwordFile` or `passwordEnv`; option `password` and URLs with a password"
                  + " are refused.")
          .options(ALL)
          .build();

  private static final Pattern PASSWORD_IN_URL =
      Pattern.compile("(?i)(password\\s*=)|(//[^/@?;]*:[^/@?;]*@)");

  private JdbcSourceOptions() {}

  /**
   * Validates {@code options} and resolves them.
   *
   * @throws io.lakestream.api.error.LakestreamException of an {@link OptionErrorClass} naming the
   *     option
   */
  public static JdbcSourceConfig parse(Map<String, String> options) {
    for (String key : options.keySet()) {
      if (key.trim().equalsIgnoreCase("password")) {
        throw CATALOG.failure(
            OptionErrorClass.INVALID_OPTION_VALUE,
            "password",
            "option password is not accepted: a password in the options ends up in command"
                + " lines and logs. Put it in a secret file (option passwordFile) or an"
                + " environment variable (option passwordEnv).");
      }
    }
    OptionValues values = CATALOG.validate(options);
    String url = values.get(URL);
    if (PASSWORD_IN_URL.matcher(url).find()) {
      throw CATALOG.failure(
          OptionErrorClass.INVALID_OPTION_VALUE,
          URL.key(),
          "option url carries a password (the value is not shown): remove it from the URL and"
              + " give it with option passwordFile or passwordEnv.");
    }
    if (values.contains(DBTABLE) == values.contains(QUERY)) {
      throw CATALOG.conflict("needs exactly one of options dbtable and query");
    }
    return new JdbcSourceConfig(
        url,
        values.get(DBTABLE),
        values.get(QUERY),
        values.get(PARTITION_COLUMN),
        splits(values),
        values.get(FETCH_SIZE),
        values.get(USER),
        credentials(values));
  }

  private static List<JdbcPartitionSplit> splits(OptionValues values) {
    boolean column = values.contains(PARTITION_COLUMN);
    boolean lower = values.contains(LOWER_BOUND);
    boolean upper = values.contains(UPPER_BOUND);
    if (column && values.contains(QUERY)) {
      throw CATALOG.conflict(
          "options query and partitionColumn cannot be used together (as in Spark): give the"
              + " query as dbtable \"(SELECT ...) t\" to partition it");
    }
    if (!column && !lower && !upper) {
      return JdbcPartitionSplit.whole();
    }
    if (!(column && lower && upper && values.contains(NUM_PARTITIONS))) {
      throw CATALOG.failure(
          OptionErrorClass.MISSING_OPTION,
          null,
          "needs all or none of options partitionColumn, lowerBound, upperBound and"
              + " numPartitions for a partitioned read");
    }
    long low = values.get(LOWER_BOUND);
    long high = values.get(UPPER_BOUND);
    if (low > high) {
      throw CATALOG.invalidValue(
          LOWER_BOUND, Long.toString(low), "must not be greater than upperBound (" + high + ")");
    }
    return JdbcPartitionSplit.of(low, high, values.get(NUM_PARTITIONS));
  }

  private static JdbcPassword credentials(OptionValues values) {
    if (values.contains(PASSWORD_FILE) && values.contains(PASSWORD_ENV)) {
      throw CATALOG.conflict(
          "takes the password one way: option passwordFile or option passwordEnv, not both");
    }
    if (values.contains(PASSWORD_FILE)) {
      return JdbcPassword.fromFile(values.get(PASSWORD_FILE));
    }
    if (values.contains(PASSWORD_ENV)) {
      String variable = values.get(PASSWORD_ENV).trim();
      if (!variable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw CATALOG.invalidValue(
            PASSWORD_ENV, variable, "must be an environment variable's name, e.g. PGPASSWORD");
      }
      return JdbcPassword.fromEnvironment(variable);
    }
    return null;
  }
}
