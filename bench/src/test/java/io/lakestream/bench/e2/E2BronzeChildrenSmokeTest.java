package io.lakestream.bench.e2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.bench.Measurement;
import io.lakestream.testkit.kafka.KafkaBroker;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The e2-bronze sides that need no Spark, on a few thousand records in real child JVMs: the raw
 * consumer and lakestream's E2 pipeline report their records, and a side whose output does not add
 * up fails the bench instead of printing a number. (The Spark side is built only with {@code
 * -Pspark-bench}; {@code bin/bench e2-bronze --records 200k} runs all three.)
 */
class E2BronzeChildrenSmokeTest {
  private static final OrderRecords INPUT = new OrderRecords(3_000);
  private static KafkaBroker broker;

  @TempDir Path dir;

  @BeforeAll
  static void produce() {
    broker = KafkaBroker.start();
    broker.createTopic(E2BronzeBench.TOPIC, 2);
    assertThat(INPUT.produce(broker.bootstrapServers(), E2BronzeBench.TOPIC))
        .isEqualTo(INPUT.records());
  }

  @AfterAll
  static void stop() {
    broker.close();
  }

  private List<String> args(long distinct) {
    return List.of(
        "bootstrap=" + broker.bootstrapServers(),
        "topic=" + E2BronzeBench.TOPIC,
        "parallelism=2",
        "records=" + INPUT.records(),
        "distinct=" + distinct);
  }

  private ChildJvm child(Class<?> main) {
    return new ChildJvm(
        main.getSimpleName(),
        List.of("-Xmx512m"),
        System.getProperty("java.class.path"),
        main.getName(),
        dir.resolve(main.getSimpleName() + ".log"));
  }

  @Test
  void rawConsumerReadsEveryRecord() throws Exception {
    Measurement m = child(RawConsumerMain.class).run(args(INPUT.distinct()));
    assertThat(m.rows()).isEqualTo(INPUT.records());
    assertThat(m.peakRssBytes()).isPositive();
  }

  @Test
  void lakestreamWritesExactlyTheDistinctEventsAndFailsWhenTheyDoNotAddUp() throws Exception {
    List<String> good = new java.util.ArrayList<>(args(INPUT.distinct()));
    good.add("lake=" + dir.resolve("good"));
    Measurement m = child(LakestreamBronzeMain.class).run(good);
    assertThat(m.rows()).isEqualTo(INPUT.records());
    assertThat(m.detail()).contains("table 2,700 rows = distinct events");

    // Same input, but the bench claims one more distinct event than the topic holds.
    List<String> wrong = new java.util.ArrayList<>(args(INPUT.distinct() + 1));
    wrong.add("lake=" + dir.resolve("wrong"));
    assertThatThrownBy(() -> child(LakestreamBronzeMain.class).run(wrong))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exited with 1")
        .hasMessageContaining("orders_bronze holds 2,700 rows (expected 2,701");
  }
}
