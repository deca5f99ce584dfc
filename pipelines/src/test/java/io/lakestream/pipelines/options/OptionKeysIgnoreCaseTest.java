package io.lakestream.pipelines.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceBuilder;
import io.lakestream.connectors.delta.sink.DeltaSinkBuilder;
import io.lakestream.connectors.delta.source.DeltaSourceBuilder;
import io.lakestream.connectors.kafka.sink.KafkaSinkBuilder;
import io.lakestream.connectors.kafka.source.KafkaSourceBuilder;
import io.lakestream.connectors.kafka.source.KafkaSourceConfig;
import io.lakestream.connectors.lakebase.LakebaseSchema;
import io.lakestream.connectors.lakebase.LakebaseSinkBuilder;
import io.lakestream.connectors.lakebase.LakebaseSinkConfig;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.state.query.OutputMode;
import io.lakestream.state.query.QueryContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.Boundedness;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every connector matches option keys ignoring case, as Spark does, and refuses a misspelt key
 * naming the closest valid one: the same typo behaves the same in each. Each positive case checks
 * that the value written in another case really took effect.
 */
class OptionKeysIgnoreCaseTest {
  private static final DeltaTableSchema ID = schema(false);

  @TempDir Path dir;

  private static DeltaTableSchema schema(boolean cdf) {
    DeltaTableSchema.Builder builder =
        DeltaTableSchema.builder().column("id", ColumnType.LONG, false);
    if (cdf) {
      builder.property("delta.enableChangeDataFeed", "true");
    }
    return builder.build();
  }

  /** A Delta table at {@code name} with one row (version 1). */
  private String table(String name, DeltaTableSchema schema) throws Exception {
    DeltaTable table = DeltaTable.forPath(dir.resolve(name).toUri().toString());
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "w");
    commit.open();
    commit.commit(
        1, new DeltaTableWriter(table, schema).write(List.<Object[]>of(new Object[] {1L})));
    return table.path();
  }

  private static void assertClosest(ThrowingCallable build, String typo, String valid) {
    assertThatThrownBy(build)
        .isInstanceOfSatisfying(
            LakestreamException.class, e -> assertThat(e.errorClass()).isEqualTo("UNKNOWN_OPTION"))
        .hasMessageContaining("option '" + typo + "' (did you mean '" + valid + "'?)");
  }

  @Test
  void kafkaSource() {
    KafkaSourceConfig config =
        KafkaSourceBuilder.kafka("orders")
            .option("KAFKA.BOOTSTRAP.SERVERS", "127.0.0.1:9092")
            .option("Subscribe", "orders")
            .option("MAXOFFSETSPERTRIGGER", "7")
            .option("startingoffsets", "earliest")
            .option("Kafka.max.poll.records", "10")
            .sanityCheck();
    assertThat(config.maxOffsetsPerTrigger()).isEqualTo(7);
    assertThat(config.topics().topics()).containsExactly("orders");
    assertThat(config.startingOffsets().toString()).isEqualTo("startingOffsets=earliest");
    assertThat(config.clientProperties())
        .containsEntry("bootstrap.servers", "127.0.0.1:9092")
        .containsEntry("max.poll.records", "10");
    assertClosest(
        () ->
            KafkaSourceBuilder.kafka("orders")
                .option("kafka.bootstrap.servers", "127.0.0.1:9092")
                .option("subscribe", "orders")
                .option("maxOffsetPerTrigger", "7")
                .sanityCheck(),
        "maxOffsetPerTrigger",
        "maxOffsetsPerTrigger");
  }

  @Test
  void kafkaSink() {
    QueryContext query =
        new QueryContext("q", "n", "r", "n-q", "file:///tmp/chk", false, false, OutputMode.APPEND);
    KafkaSinkBuilder.<String>forQuery(query, "out")
        .options(
            Map.of(
                "TOPIC", "orders",
                "Kafka.Bootstrap.Servers", "127.0.0.1:9092",
                "DeliveryGuarantee", "at-least-once"))
        .valueString(v -> v)
        .checkConnection(false)
        .build();
    assertClosest(
        () ->
            KafkaSinkBuilder.<String>forQuery(query, "out")
                .options(Map.of("topik", "orders", "kafka.bootstrap.servers", "127.0.0.1:9092"))
                .valueString(v -> v)
                .sanityCheck(),
        "topik",
        "topic");
  }

  @Test
  void deltaSink() throws Exception {
    String path = table("sink", ID);
    DeltaTableSchema wider =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("extra", ColumnType.STRING)
            .build();
    QueryContext query =
        new QueryContext("q", "n", "r", "n-q", "file:///tmp/chk", false, false, OutputMode.APPEND);
    assertThatThrownBy(
            () ->
                DeltaSinkBuilder.<Long>forTable(path, wider, id -> new Object[] {id, null})
                    .query(query)
                    .sinkName("s")
                    .build())
        .hasMessageContaining("mergeSchema=true");
    DeltaSinkBuilder.<Long>forTable(path, wider, id -> new Object[] {id, null})
        .query(query)
        .sinkName("s")
        .option("MergeSchema", "TRUE")
        .build();
    assertClosest(
        () ->
            DeltaSinkBuilder.<Long>forTable(path, ID, id -> new Object[] {id})
                .option("mergeSchem", "true"),
        "mergeSchem",
        "mergeSchema");
  }

  @Test
  void deltaSource() throws Exception {
    String path = table("source", ID);
    assertThat(DeltaSourceBuilder.forTable(path).name("s").build().getBoundedness())
        .isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
    assertThat(
            DeltaSourceBuilder.forTable(path)
                .name("s")
                .option("VERSIONASOF", "1")
                .build()
                .getBoundedness())
        .isEqualTo(Boundedness.BOUNDED);
    assertClosest(
        () ->
            DeltaSourceBuilder.forTable(path)
                .name("s")
                .option("skipChangeCommit", "true")
                .sanityCheck(),
        "skipChangeCommit",
        "skipChangeCommits");
  }

  @Test
  void deltaCdfSource() throws Exception {
    String path = table("cdf", schema(true));
    assertThatThrownBy(
            () ->
                DeltaCdfSourceBuilder.forTable(path)
                    .name("c")
                    .option("STARTINGVERSION", "7")
                    .build())
        .hasMessageContaining("startingVersion=7 is past the latest version 1");
    assertThat(
            DeltaCdfSourceBuilder.forTable(path)
                .name("c")
                .option("startingversion", "1")
                .option("MaxFilesPerTrigger", "5")
                .build()
                .sourceType())
        .isEqualTo("delta-cdf");
    assertClosest(
        () ->
            DeltaCdfSourceBuilder.forTable(path)
                .name("c")
                .option("startingVersoin", "1")
                .sanityCheck(),
        "startingVersoin",
        "startingVersion");
  }

  @Test
  void autoLoader() {
    String landing = dir.resolve("landing").toString();
    // cloudFiles.format and cloudFiles.schemaLocation are required: found in any case
    AutoLoaderBuilder.forPath(landing)
        .name("files")
        .option("CLOUDFILES.FORMAT", "JSON")
        .option("cloudfiles.schemalocation", dir.resolve("schema").toString())
        .sanityCheck();
    assertThatThrownBy(
            () ->
                AutoLoaderBuilder.forPath(landing)
                    .name("files")
                    .option("cloudFiles.format", "json")
                    .schema("id BIGINT")
                    .option("CloudFiles.MaxFilesPerTrigger", "0")
                    .sanityCheck())
        .hasMessageContaining("cloudFiles.maxFilesPerTrigger must be >= 1");
    assertClosest(
        () ->
            AutoLoaderBuilder.forPath(landing)
                .name("files")
                .option("cloudFiles.format", "json")
                .option("cloudFiles.schemaLocaton", dir.resolve("schema").toString())
                .sanityCheck(),
        "cloudFiles.schemaLocaton",
        "cloudFiles.schemaLocation");
  }

  @Test
  void lakebaseSink() {
    LakebaseSchema schema = LakebaseSchema.builder().column("id", ColumnType.LONG, false).build();
    LakebaseSinkConfig config =
        LakebaseSinkBuilder.<Long>forSchema(schema, id -> new Object[] {id})
            .options(
                Map.of(
                    "DBTABLE", "sales.orders",
                    "EndPoint", "db.example.com",
                    "USER", "app",
                    "CheckpointLocation", "/chk/q1",
                    "BATCHINTERVAL", "250 ms",
                    "batchSize", "5"))
            .sanityCheck();
    assertThat(config.batchSize()).isEqualTo(5);
    assertThat(config.batchInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(config.checkpointLocation()).isEqualTo("/chk/q1");
    assertThatThrownBy(
            () ->
                LakebaseSinkBuilder.<Long>forSchema(schema, id -> new Object[] {id})
                    .options(
                        Map.of("dbtable", "orders", "endpoint", "h", "user", "u", "batchsise", "5"))
                    .sanityCheck())
        .isInstanceOfSatisfying(
            LakestreamException.class,
            e -> assertThat(e.errorClass()).isEqualTo("JDBC_STREAMING_SINK_INVALID_OPTIONS"))
        .hasMessageContaining("option 'batchsise' (did you mean 'batchsize'?)");
  }
}
