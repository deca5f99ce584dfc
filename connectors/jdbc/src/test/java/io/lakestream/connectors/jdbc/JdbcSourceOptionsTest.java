package io.lakestream.connectors.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.options.OptionErrorClass;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Options are validated before anything connects, and no password is accepted or shown. */
class JdbcSourceOptionsTest {
  private static final String URL = "jdbc:postgresql://127.0.0.1:5432/shop";

  private static Map<String, String> options(String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("url", URL);
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put(keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  @Test
  void partitionedRead() {
    JdbcSourceConfig config =
        JdbcSourceOptions.parse(
            options(
                "DBTABLE",
                "orders",
                "partitioncolumn",
                "id",
                "lowerBound",
                "0",
                "upperBound",
                "100",
                "numPartitions",
                "4",
                "fetchSize",
                "50",
                "passwordEnv",
                "PGPASSWORD"));
    assertThat(config.splits()).hasSize(4);
    assertThat(config.fetchSize()).isEqualTo(50);
    assertThat(config.select(config.splits().get(1)))
        .isEqualTo("SELECT * FROM orders WHERE id >= 25 AND id < 50");
    assertThat(config.credentials().source()).contains("PGPASSWORD");
    assertThat(config.credentials()).isEqualTo(JdbcPassword.fromEnvironment("PGPASSWORD"));
  }

  @Test
  void queryIsASubquery() {
    JdbcSourceConfig config = JdbcSourceOptions.parse(options("query", "select 1 as x"));
    assertThat(config.select(config.splits().get(0)))
        .isEqualTo("SELECT * FROM (select 1 as x) lakestream_jdbc_query");
  }

  @Test
  void refusesPasswordsWithoutShowingThem() {
    assertThatThrownBy(() -> JdbcSourceOptions.parse(options("dbtable", "t", "password", "s3cr3t")))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("passwordFile")
        .hasMessageNotContaining("s3cr3t");
    for (String url :
        new String[] {
          URL + "?user=u&password=s3cr3t", "jdbc:mysql://u:s3cr3t@host/db", URL + ";Password=s3cr3t"
        }) {
      Map<String, String> given = options("dbtable", "t");
      given.put("url", url);
      assertThatThrownBy(() -> JdbcSourceOptions.parse(given))
          .isInstanceOfSatisfying(
              LakestreamException.class,
              e ->
                  assertThat(e.errorClass())
                      .isEqualTo(OptionErrorClass.INVALID_OPTION_VALUE.name()))
          .hasMessageContaining("url")
          .hasMessageNotContaining("s3cr3t");
    }
  }

  @Test
  void refusesIncompleteOrConflictingOptions() {
    assertThatThrownBy(() -> JdbcSourceOptions.parse(options()))
        .hasMessageContaining("dbtable and query");
    assertThatThrownBy(() -> JdbcSourceOptions.parse(options("dbtable", "t", "query", "q")))
        .hasMessageContaining("exactly one");
    assertThatThrownBy(
            () -> JdbcSourceOptions.parse(options("dbtable", "t", "partitionColumn", "id")))
        .hasMessageContaining("all or none");
    assertThatThrownBy(
            () ->
                JdbcSourceOptions.parse(
                    options("query", "q", "partitionColumn", "id", "lowerBound", "0")))
        .hasMessageContaining("cannot be used together");
    assertThatThrownBy(
            () ->
                JdbcSourceOptions.parse(
                    options(
                        "dbtable",
                        "t",
                        "partitionColumn",
                        "id",
                        "lowerBound",
                        "9",
                        "upperBound",
                        "1",
                        "numPartitions",
                        "2")))
        .hasMessageContaining("lowerBound");
    assertThatThrownBy(
            () ->
                JdbcSourceOptions.parse(
                    options("dbtable", "t", "passwordFile", "/f", "passwordEnv", "X")))
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> JdbcSourceOptions.parse(options("dbtable", "t", "fetchsiz", "1")))
        .hasMessageContaining("fetchsize");
  }
}
