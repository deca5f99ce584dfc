package io.lakestream.pipelines.kinesis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.kinesis.KinesisRecord;
import io.lakestream.pipelines.PipelineOptions;
import io.lakestream.runtime.StreamingQuery;
import io.lakestream.runtime.StreamingQueryBuilder;
import io.lakestream.runtime.Trigger;
import io.lakestream.state.StateBackendSettings;
import io.lakestream.testkit.delta.DeltaLogTxns;
import io.lakestream.testkit.kinesis.KinesaliteExtension;
import io.lakestream.testkit.kinesis.KinesisStreams;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.PutRecordResponse;

/**
 * Pipeline {@code kinesis-to-bronze} against kinesalite, with the options given as on {@code -o}: a
 * task failure in the middle of the first availableNow run, and a second run over what arrived
 * since, leave the bronze table equal, row for row, to the records put (partition key, data,
 * stream, and the shard and sequence number PutRecord answered), each epoch one Delta version.
 */
class KinesisToBronzeITCase {
  @RegisterExtension static final KinesaliteExtension KINESIS = new KinesaliteExtension();

  static final AtomicBoolean FAILED = new AtomicBoolean();

  private static KinesisClient client;
  @TempDir Path dir;
  private final List<List<Object>> model = new ArrayList<>();

  @BeforeAll
  static void client() throws InterruptedException {
    client = KINESIS.client();
    KinesisStreams.create(client, "clicks", 2);
  }

  /** Fails the task once, on the record whose data is {@code click-120}. */
  static final class FailOnce implements MapFunction<Row, Row> {
    @Override
    public Row map(Row row) {
      if (new String((byte[]) row.getField(1), StandardCharsets.UTF_8).equals("click-120")
          && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected task failure at click-120");
      }
      return row;
    }
  }

  @Test
  void bronzeHoldsEachRecordOnceAcrossATaskFailureAndASecondRun() throws Exception {
    Instant before = Instant.now().minusSeconds(1);
    put(0, 200);
    StreamingQuery first = run();
    first.awaitTermination();
    assertThat(FAILED).as("the failure was injected").isTrue();
    assertThat(bronze(before)).containsExactlyInAnyOrderElementsOf(model);
    long input = first.recentProgress().stream().mapToLong(p -> p.numInputRows()).sum();
    assertThat(input).as("input rows of the first run").isGreaterThanOrEqualTo(200);

    put(200, 260);
    run().awaitTermination();
    assertThat(bronze(before)).containsExactlyInAnyOrderElementsOf(model);
    DeltaLogTxns.read(dir.resolve("lake/clicks_bronze")).assertEachEpochOnce();
  }

  private void put(int from, int to) {
    for (int i = from; i < to; i++) {
      String key = "user-" + (i % 13);
      String data = "click-" + i;
      PutRecordResponse put =
          client.putRecord(
              r ->
                  r.streamName("clicks")
                      .partitionKey(key)
                      .data(SdkBytes.fromString(data, StandardCharsets.UTF_8)));
      model.add(List.of(key, data, "clicks", put.shardId(), put.sequenceNumber()));
    }
  }

  private StreamingQuery run() throws Exception {
    PipelineOptions options =
        new PipelineOptions(
            dir.resolve("lake").toUri(),
            0,
            0,
            0,
            Map.of(
                "streamName", "clicks",
                "region", "us-east-1",
                "endpoint", KINESIS.endpoint().toString(),
                "awsAccessKey", "test",
                "awsSecretKey", "test",
                "maxRecordsPerEpoch", "40"));
    Configuration flink = new Configuration();
    flink.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    flink.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    return StreamingQueryBuilder.of(
            KinesisToBronze.dataflow(
                options,
                rows ->
                    rows.map(new FailOnce())
                        .returns(KinesisRecord.typeInfo())
                        .uid("fail-once")
                        .name("fail-once")))
        .queryName("kinesis-to-bronze")
        .checkpointLocation(dir.resolve("lake/_checkpoints/kinesis-to-bronze").toString())
        .trigger(Trigger.availableNow())
        .parallelism(2)
        .stateBackend(StateBackendSettings.defaults())
        .flinkConfiguration(flink)
        .start();
  }

  /**
   * The bronze rows as (partitionKey, data, stream, shardId, sequenceNumber), each checked to have
   * arrived between {@code before} and now.
   */
  private List<List<Object>> bronze(Instant before) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    for (Object[] row :
        new DeltaTableReader(
                DeltaTable.forPath(dir.resolve("lake/clicks_bronze").toUri().toString()))
            .readLatest()) {
      assertThat((Instant) row[5]).isBetween(before, Instant.now().plusSeconds(1));
      rows.add(
          List.of(
              row[0], new String((byte[]) row[1], StandardCharsets.UTF_8), row[2], row[3], row[4]));
    }
    return rows;
  }
}
