package io.lakestream.connectors.kafka;

import static io.lakestream.connectors.kafka.KafkaSourceHarness.await;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.produce;
import static io.lakestream.connectors.kafka.KafkaSourceHarness.source;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.operators.parse.DeadLetter;
import io.lakestream.operators.parse.FromJson;
import io.lakestream.operators.parse.ParseWithDeadLetters;
import io.lakestream.operators.parse.RecordParseException;
import io.lakestream.operators.parse.RecordParser;
import io.lakestream.testkit.flink.FlinkMiniClusterExtension;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** fromJson over real Kafka records: bad values land in the dead-letter output with positions. */
class KafkaFromJsonITCase {
  @RegisterExtension
  @Order(1)
  static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  @RegisterExtension
  @Order(2)
  static final FlinkMiniClusterExtension FLINK = new FlinkMiniClusterExtension();

  static final List<Item> GOOD = Collections.synchronizedList(new ArrayList<>());
  static final List<DeadLetter> DEAD = Collections.synchronizedList(new ArrayList<>());

  /** A parsed row. */
  public static class Item {
    public long id;
    public String name;
  }

  /** A Kafka record's value and position for {@link FromJson}. */
  static final class KafkaValue implements FromJson.RawValue<KafkaRecord> {
    @Override
    public byte[] value(KafkaRecord record) {
      return record.value;
    }

    @Override
    public String position(KafkaRecord record) {
      return record.position();
    }
  }

  /** {"id": number, "name": string}; id must be >= 0 (a declared check). */
  static final class ItemParser implements RecordParser<Item> {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    public Item parse(String raw) throws RecordParseException {
      JsonNode node;
      try {
        node = MAPPER.readTree(raw);
      } catch (Exception e) {
        throw new RecordParseException("not valid JSON");
      }
      if (node == null || !node.path("id").isIntegralNumber()) {
        throw new RecordParseException(
            "field id: expected an integer, got " + (node == null ? null : node.get("id")));
      }
      if (node.path("id").asLong() < 0) {
        throw new RecordParseException("field id: must be >= 0, got " + node.path("id").asLong());
      }
      Item item = new Item();
      item.id = node.path("id").asLong();
      item.name = node.path("name").asText(null);
      return item;
    }
  }

  @Test
  void malformedRecordsGoToDeadLettersAndInputIsGoodPlusDead() throws Exception {
    KAFKA.createTopic("json", 1);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      values.add("{\"id\":" + i + ",\"name\":\"n" + i + "\"}");
    }
    values.add("{not json"); // offset 5
    values.add("{\"id\":\"x\",\"name\":\"b\"}"); // 6: wrong type
    values.add(null); // 7: tombstone
    values.add("{\"id\":-4}"); // 8: fails the declared check
    values.add("{\"id\":9,\"name\":\"n9\"}"); // 9
    produce(KAFKA.broker(), "json", 0, values);

    StreamExecutionEnvironment env = FLINK.environment();
    env.setParallelism(1);
    env.getConfig().disableGenericTypes(); // KafkaRecord, rows and dead letters without Kryo
    DataStream<KafkaRecord> records =
        env.fromSource(
                source(KAFKA.broker(), "json-src", "json")
                    .option("startingOffsets", "earliest")
                    .build(),
                WatermarkStrategy.noWatermarks(),
                "kafka")
            .uid("kafka");
    SingleOutputStreamOperator<Item> parsed =
        FromJson.fromJson(
            records, new KafkaValue(), new ItemParser(), TypeInformation.of(Item.class), "parse");
    parsed
        .map(
            i -> {
              GOOD.add(i);
              return i;
            })
        .uid("good")
        .sinkTo(new DiscardingSink<>());
    parsed
        .getSideOutput(ParseWithDeadLetters.DEAD_LETTERS)
        .map(
            d -> {
              DEAD.add(d);
              return d;
            })
        .uid("dead")
        .sinkTo(new DiscardingSink<>());
    JobID job = FLINK.submit(env);
    try {
      await("all 10 records", Duration.ofSeconds(60), () -> GOOD.size() + DEAD.size() >= 10);
      // two more checkpoints: a record read twice, if any, would have arrived by then
      FLINK.cluster().waitForMoreCheckpoints(job, 2, Duration.ofSeconds(60));
    } finally {
      FLINK.cluster().cancel(job, Duration.ofSeconds(60));
    }
    assertThat(GOOD.size() + DEAD.size()).isEqualTo(values.size());
    assertThat(GOOD).extracting(i -> i.id).containsExactly(0L, 1L, 2L, 3L, 4L, 9L);
    Map<String, DeadLetter> bySource = new java.util.TreeMap<>();
    DEAD.forEach(d -> bySource.put(d.source, d));
    assertThat(bySource).containsOnlyKeys("json/0@5", "json/0@6", "json/0@7", "json/0@8");
    assertThat(bySource.get("json/0@5").raw).isEqualTo("{not json");
    assertThat(bySource.get("json/0@5").error).contains("not valid JSON");
    assertThat(bySource.get("json/0@6").error).contains("field id");
    assertThat(bySource.get("json/0@7").error).contains("no value");
    assertThat(bySource.get("json/0@8").error).contains("must be >= 0");
  }
}
