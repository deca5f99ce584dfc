package io.lakestream.pipelines.listener;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.pipelines.cli.LakestreamCli;
import io.lakestream.testkit.kafka.KafkaBrokerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code lakestream run demo --progress-topic}: every progress event of the run reaches the Kafka
 * topic, keyed by the query's id, equal to the {@code progress/N} file of its epoch.
 */
class KafkaProgressListenerITCase {
  @RegisterExtension static final KafkaBrokerExtension KAFKA = new KafkaBrokerExtension();

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void eachProgressEventOfARunIsOnTheTopicAsItsProgressFileHasIt() throws Exception {
    KAFKA.createTopic("query-progress", 1);
    int code =
        LakestreamCli.execute(
            "run",
            "demo",
            "--rows",
            "3000",
            "--max-rows-per-trigger",
            "1000",
            "--output",
            dir.toString(),
            "--parallelism",
            "1",
            "--progress-topic",
            "query-progress",
            "--progress-kafka",
            "bootstrap.servers=" + KAFKA.bootstrapServers());
    assertThat(code).isZero();

    // the demo's bronze query, then its silver, gold and Lakebase stages, each a query of its own
    Map<String, List<JsonNode>> files = new LinkedHashMap<>();
    for (String query : List.of("demo", "demo-silver", "demo-gold", "demo-lakebase")) {
      files.put(query, progressFiles(dir.resolve("_checkpoints/" + query + "/progress")));
    }
    assertThat(files.get("demo")).hasSizeGreaterThanOrEqualTo(3);
    List<ConsumerRecord<byte[], byte[]>> records =
        consume(files.values().stream().mapToInt(List::size).sum());
    Map<String, List<JsonNode>> events = new LinkedHashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : records) {
      JsonNode event = JSON.readTree(r.value());
      assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(event.path("id").asText());
      events.computeIfAbsent(event.path("name").asText(), q -> new ArrayList<>()).add(event);
    }
    assertThat(events).isEqualTo(files);
  }

  private static List<JsonNode> progressFiles(Path progress) throws Exception {
    try (Stream<Path> files = Files.list(progress)) {
      List<Path> sorted =
          files
              .filter(f -> f.getFileName().toString().matches("\\d+"))
              .sorted((a, b) -> Long.compare(epoch(a), epoch(b)))
              .toList();
      List<JsonNode> out = new ArrayList<>();
      for (Path f : sorted) {
        out.add(JSON.readTree(Files.readString(f)));
      }
      return out;
    }
  }

  private static long epoch(Path file) {
    return Long.parseLong(file.getFileName().toString());
  }

  private static List<ConsumerRecord<byte[], byte[]>> consume(int expected) {
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "progress-reader");
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    config.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(List.of("query-progress"));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (out.size() < expected && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(500)).forEach(out::add);
      }
      consumer.poll(Duration.ofMillis(500)).forEach(out::add); // nothing more may come
    }
    return out;
  }
}
