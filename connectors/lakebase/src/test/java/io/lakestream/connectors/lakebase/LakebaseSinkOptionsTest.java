package io.lakestream.connectors.lakebase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LakebaseSinkOptionsTest {
  private static final String SECRET = "s3cr3t-Token-Value";

  private static Map<String, String> minimal() {
    Map<String, String> options = new HashMap<>();
    options.put("endpoint", "db.example.com");
    options.put("dbtable", "orders");
    options.put("user", "app");
    options.put("checkpointLocation", "/chk/q1");
    return options;
  }

  private static LakebaseSinkConfig parse(Map<String, String> options) {
    return LakebaseSinkOptions.parse(options, null, null);
  }

  @Test
  void defaults() {
    LakebaseSinkConfig config = parse(minimal());
    assertThat(config.batchSize()).isEqualTo(1000);
    assertThat(config.batchInterval()).isEqualTo(Duration.ofMillis(100));
    assertThat(config.maxRetries()).isEqualTo(10);
    assertThat(config.retryBackoff()).isEqualTo(Duration.ofMillis(100));
    assertThat(config.upsertKey()).isEmpty();
    assertThat(config.tasksPerConnection()).isEqualTo(1);
    assertThat(config.table()).isEqualTo(new PostgresTableName("public", "orders"));
    assertThat(config.checkpointLocation()).isEqualTo("/chk/q1");
    assertThat(config.endpoint().jdbcUrl())
        .isEqualTo("jdbc:postgresql://db.example.com/databricks_postgres");
    assertThat(config.endpoint().user()).isEqualTo("app");
  }

  @Test
  void aRealTimeQueryFlushesEvery30MillisecondsUnlessBatchIntervalIsGiven() {
    assertThat(LakebaseSinkOptions.parse(minimal(), null, null, true).batchInterval())
        .isEqualTo(Duration.ofMillis(30));
    Map<String, String> options = minimal();
    options.put("BatchInterval", "250 ms");
    assertThat(LakebaseSinkOptions.parse(options, null, null, true).batchInterval())
        .isEqualTo(Duration.ofMillis(250));
    assertThat(LakebaseSinkOptions.parse(minimal(), null, null, false).batchInterval())
        .isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void exactlyOnceIsTheDefaultExceptWithTheRealTimeTriggerAndTheOptionIgnoresCase() {
    assertThat(LakebaseSinkOptions.parse(minimal(), null, null, false).exactlyOnce()).isTrue();
    assertThat(LakebaseSinkOptions.parse(minimal(), null, null, true).exactlyOnce()).isFalse();
    Map<String, String> options = minimal();
    options.put("DELIVERYguarantee", "At-Least-Once");
    assertThat(LakebaseSinkOptions.parse(options, null, null, false).exactlyOnce()).isFalse();
    options.put("DELIVERYguarantee", "EXACTLY-ONCE");
    assertThat(LakebaseSinkOptions.parse(options, null, null, true).exactlyOnce()).isTrue();
  }

  @Test
  void writeMethodIsUnnestUnlessCopyIsGivenInAnyCase() {
    assertThat(parse(minimal()).copy()).isFalse();
    Map<String, String> options = minimal();
    options.put("WRITEMETHOD", "Copy");
    assertThat(parse(options).copy()).isTrue();
    options.put("WRITEMETHOD", "unnest");
    assertThat(parse(options).copy()).isFalse();
  }

  @Test
  void tasksPerConnectionIsAlsoTheSparkConfName() {
    Map<String, String> options = minimal();
    options.put("spark.databricks.sql.streaming.jdbc.tasksPerConnection", "3");
    assertThat(parse(options).tasksPerConnection()).isEqualTo(3);
  }

  @Test
  void everyOptionIsReadAndKeysIgnoreCase() {
    Map<String, String> options = minimal();
    options.remove("dbtable");
    options.put("DBTable", "Sales.Orders");
    options.put("database", "shop");
    options.put("endpoint", "db.example.com:6543");
    options.put("upsertKey", "user_id, event_type");
    options.put("batchSize", "5000");
    options.put("batchinterval", "50 milliseconds");
    options.put("maxretries", "3");
    options.put("retrybackoff", "2 s");
    options.put("password", SECRET);
    options.put("taskspERconnection", "4");
    LakebaseSinkConfig config = parse(options);
    assertThat(config.tasksPerConnection()).isEqualTo(4);
    assertThat(config.table()).isEqualTo(new PostgresTableName("sales", "orders"));
    assertThat(config.endpoint().jdbcUrl()).isEqualTo("jdbc:postgresql://db.example.com:6543/shop");
    assertThat(config.upsertKey()).containsExactly("user_id", "event_type");
    assertThat(config.batchSize()).isEqualTo(5000);
    assertThat(config.batchInterval()).isEqualTo(Duration.ofMillis(50));
    assertThat(config.maxRetries()).isEqualTo(3);
    assertThat(config.retryBackoff()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.toString()).doesNotContain(SECRET);
    assertThat(config.endpoint().jdbcUrl()).doesNotContain(SECRET);
  }

  @Test
  void aJdbcUrlKeepsItsDatabaseAndParametersUnlessDatabaseIsGiven() {
    Map<String, String> options = minimal();
    options.put("endpoint", "jdbc:postgresql://127.0.0.1:5432/app?sslmode=disable");
    assertThat(parse(options).endpoint().jdbcUrl())
        .isEqualTo("jdbc:postgresql://127.0.0.1:5432/app?sslmode=disable");
    options.put("database", "other");
    assertThat(parse(options).endpoint().jdbcUrl())
        .isEqualTo("jdbc:postgresql://127.0.0.1:5432/other?sslmode=disable");
  }

  @Test
  void unknownOptionsFailListingTheValidOnes() {
    Map<String, String> options = minimal();
    options.put("batchsizes", "10");
    options.put("mode", "x");
    assertThatThrownBy(() -> parse(options))
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo("JDBC_STREAMING_SINK_INVALID_OPTIONS"))
        .hasMessageStartingWith("[JDBC_STREAMING_SINK_INVALID_OPTIONS]")
        .hasMessageContaining("[batchsizes, mode]")
        .hasMessageContaining(
            "[awsregion, batchinterval, batchsize, checkpointLocation, credential, database,"
                + " dbtable, deliveryGuarantee, endpoint, maxretries, oauthclientfile, password,"
                + " passwordfile, retrybackoff, tasksPerConnection, upsertkey, user, versioncolumn,"
                + " workspacehost, writeMethod]");
  }

  @ParameterizedTest
  @ValueSource(strings = {"dbtable", "endpoint", "user", "checkpointLocation"})
  void requiredOptions(String option) {
    Map<String, String> options = minimal();
    options.remove(option);
    assertThatThrownBy(() -> parse(options))
        .isInstanceOf(LakebaseSinkException.class)
        .hasMessageContaining("option " + option + " is required");
  }

  @Test
  void checkpointLocationComesFromTheQueryAndMustAgreeWithIt() {
    Map<String, String> options = minimal();
    options.remove("checkpointLocation");
    assertThat(LakebaseSinkOptions.parse(options, null, "/chk/q1").checkpointLocation())
        .isEqualTo("/chk/q1");
    options.put("checkpointlocation", "/chk/q1/");
    assertThat(LakebaseSinkOptions.parse(options, null, "/chk/q1").checkpointLocation())
        .isEqualTo("/chk/q1/");
    assertThatThrownBy(() -> LakebaseSinkOptions.parse(options, null, "/chk/q2"))
        .hasMessageContaining("differs from the query's checkpoint location");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "batchsize=0",
        "batchsize=many",
        "batchinterval=soon",
        "batchinterval=-5 ms",
        "maxretries=-1",
        "retrybackoff=later",
        "tasksPerConnection=0",
        "deliveryGuarantee=twice",
        "writeMethod=insert",
        "database=my-db"
      })
  void badValuesNameTheOption(String assignment) {
    String[] parts = assignment.split("=", 2);
    Map<String, String> options = minimal();
    options.put(parts[0], parts[1]);
    assertThatThrownBy(() -> parse(options))
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_OPTIONS))
        .hasMessageContaining("option " + parts[0]);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "my-table",
        "\"Orders\"",
        "catalog.schema.table",
        "1orders",
        "sales.",
        ".orders",
        "sales.or ders",
        "ordérs",
        ""
      })
  void tableNamesMustBeSimple(String dbtable) {
    Map<String, String> options = minimal();
    options.put("dbtable", dbtable);
    assertThatThrownBy(() -> parse(options))
        .isInstanceOf(LakebaseSinkException.class)
        .hasMessageContaining("dbtable");
  }

  @Test
  void tableNamesFoldToLowerCaseAndMayBe63Long() {
    String longest = "t".repeat(63);
    Map<String, String> options = minimal();
    options.put("dbtable", "_Staging." + longest.toUpperCase());
    assertThat(parse(options).table()).isEqualTo(new PostgresTableName("_staging", longest));
    options.put("dbtable", longest + "t");
    assertThatThrownBy(() -> parse(options)).hasMessageContaining("at most 63");
  }

  @Test
  void upsertKeyMustNotHaveEmptyOrRepeatedColumns() {
    Map<String, String> options = minimal();
    options.put("upsertkey", "id,,b");
    assertThatThrownBy(() -> parse(options))
        .isInstanceOfSatisfying(
            LakebaseSinkException.class,
            e -> assertThat(e.errorClass()).isEqualTo(LakebaseSinkException.INVALID_UPSERT_KEY));
    options.put("upsertkey", "id, id");
    assertThatThrownBy(() -> parse(options)).hasMessageContaining("names a column twice");
  }

  @Test
  void thePasswordIsGivenOneWayOnlyAndNeverInTheUrl() {
    Map<String, String> options = minimal();
    options.put("password", SECRET);
    assertThatThrownBy(() -> LakebaseSinkOptions.parse(options, PasswordProvider.of("x"), null))
        .hasMessageContaining("one way only")
        .hasMessageNotContaining(SECRET);
    options.put("passwordfile", "/run/token");
    assertThatThrownBy(() -> parse(options)).hasMessageNotContaining(SECRET);

    Map<String, String> inUrl = minimal();
    inUrl.put("endpoint", "jdbc:postgresql://h:5432/db?user=app&password=" + SECRET);
    assertThatThrownBy(() -> parse(inUrl))
        .hasMessageContaining("must not carry user or password")
        .hasMessageNotContaining(SECRET);
    inUrl.put("endpoint", "app:" + SECRET + "@h:5432");
    assertThatThrownBy(() -> parse(inUrl)).hasMessageNotContaining(SECRET);
    assertThat(PasswordProvider.of(SECRET).toString()).doesNotContain(SECRET);
  }

  @Test
  void aFixedPasswordAndAFilePasswordReachTheEndpoint(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path file = dir.resolve("token");
    java.nio.file.Files.writeString(file, "first\n");
    Map<String, String> options = minimal();
    options.put("passwordfile", file.toString());
    PasswordProvider provider = PasswordProvider.fromFile(file.toString());
    assertThat(provider.password()).isEqualTo("first");
    java.nio.file.Files.writeString(file, "second");
    assertThat(provider.password()).isEqualTo("second");
    assertThat(parse(options).endpoint().toString()).doesNotContain("second");
  }
}
