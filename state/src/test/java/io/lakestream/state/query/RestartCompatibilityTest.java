package io.lakestream.state.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RestartCompatibilityTest {

  private static final SourceSpec ORDERS = new SourceSpec("orders-src", "kafka", "orders");
  private static final SourceSpec RATE = new SourceSpec("rate-src", "rate", "rate (2 partitions)");
  private static final OperatorSpec DEDUP = new OperatorSpec("dedup", "seen: ValueState<Long>");
  private static final OperatorSpec WINDOW = new OperatorSpec("window", "agg: ValueState<Sum>");
  private static final SinkSpec FILE_SINK = new SinkSpec("out", SinkKind.FILE, "/data/out");

  private static QueryFingerprint fingerprint(
      List<SourceSpec> sources, List<OperatorSpec> operators, List<SinkSpec> sinks) {
    return new QueryFingerprint(sources, operators, sinks, "rocksdb", 128);
  }

  private static QueryFingerprint base() {
    return fingerprint(List.of(ORDERS), List.of(DEDUP), List.of(FILE_SINK));
  }

  private static QueryFingerprint withSinks(SinkSpec... sinks) {
    return fingerprint(List.of(ORDERS), List.of(DEDUP), List.of(sinks));
  }

  private static IncompatibleRestartException refused(
      QueryFingerprint before, QueryFingerprint after, int parallelism) {
    List<IncompatibleRestartException> thrown = new ArrayList<>();
    assertThatThrownBy(() -> RestartCompatibility.check(before, after, parallelism))
        .isInstanceOfSatisfying(IncompatibleRestartException.class, thrown::add);
    assertThat(thrown.get(0).errorClass()).isEqualTo("INCOMPATIBLE_RESTART");
    return thrown.get(0);
  }

  private static void allowed(QueryFingerprint before, QueryFingerprint after, int parallelism) {
    assertThat(RestartCompatibility.problems(before, after, parallelism)).isEmpty();
    assertThatCode(() -> RestartCompatibility.check(before, after, parallelism))
        .doesNotThrowAnyException();
  }

  @Test
  void identicalFingerprintIsAllowed() {
    allowed(base(), base(), 4);
  }

  @Test
  void equalButSeparatelyBuiltFingerprintIsAllowed() {
    QueryFingerprint copy =
        new QueryFingerprint(
            new ArrayList<>(List.of(new SourceSpec("orders-src", "kafka", "orders"))),
            new ArrayList<>(List.of(new OperatorSpec("dedup", "seen: ValueState<Long>"))),
            new ArrayList<>(List.of(new SinkSpec("out", SinkKind.FILE, "/data/out"))),
            new String("rocksdb"),
            128);
    allowed(base(), copy, 128);
  }

  @Test
  void changedSourceSetIsRefusedListingRemovedAndAddedSources() {
    QueryFingerprint after = fingerprint(List.of(RATE), List.of(DEDUP), List.of(FILE_SINK));

    IncompatibleRestartException e = refused(base(), after, 1);

    assertThat(e.problems()).hasSize(1);
    assertThat(e.problems().get(0))
        .contains("source set changed")
        .contains("removed [orders-src (kafka)]")
        .contains("added [rate-src (rate)]");
    assertThat(e).hasMessageContaining("removed [orders-src (kafka)]");
    assertThat(e).hasMessageContaining("added [rate-src (rate)]");
  }

  @Test
  void addedSourceIsRefusedWithEmptyRemovedList() {
    QueryFingerprint after = fingerprint(List.of(ORDERS, RATE), List.of(DEDUP), List.of(FILE_SINK));

    assertThat(RestartCompatibility.problems(base(), after, 1))
        .singleElement()
        .asString()
        .contains("removed []")
        .contains("added [rate-src (rate)]");
  }

  @Test
  void changedSourceTypeUnderSameNameIsRefused() {
    QueryFingerprint after =
        fingerprint(
            List.of(new SourceSpec("orders-src", "delta", "orders")),
            List.of(DEDUP),
            List.of(FILE_SINK));

    assertThat(refused(base(), after, 1).problems())
        .singleElement()
        .asString()
        .contains("removed [orders-src (kafka)]")
        .contains("added [orders-src (delta)]");
  }

  @Test
  void changedSourceTargetWithSameNameAndTypeIsAllowed() {
    QueryFingerprint after =
        fingerprint(
            List.of(new SourceSpec("orders-src", "kafka", "orders-v2")),
            List.of(DEDUP),
            List.of(FILE_SINK));

    allowed(base(), after, 1);
  }

  @Test
  void reorderedSourcesAreAllowed() {
    QueryFingerprint before =
        fingerprint(List.of(ORDERS, RATE), List.of(DEDUP), List.of(FILE_SINK));
    QueryFingerprint after = fingerprint(List.of(RATE, ORDERS), List.of(DEDUP), List.of(FILE_SINK));

    allowed(before, after, 1);
  }

  @Test
  void changedOperatorStateSchemaIsRefused() {
    QueryFingerprint after =
        fingerprint(
            List.of(ORDERS),
            List.of(new OperatorSpec("dedup", "seen: ValueState<String>")),
            List.of(FILE_SINK));

    assertThat(refused(base(), after, 1).problems())
        .singleElement()
        .asString()
        .contains("state schema of operator 'dedup'")
        .contains("[seen: ValueState<Long>]")
        .contains("[seen: ValueState<String>]");
  }

  private static QueryFingerprint dedupOn(String schema) {
    return fingerprint(
        List.of(ORDERS), List.of(new OperatorSpec("dedup", schema)), List.of(FILE_SINK));
  }

  @Test
  void changedKeyColumnsAreRefused() {
    String byEventId = "seen: ValueState<Long>" + RestartCompatibility.KEY_COLUMNS + "[event_id]";
    String byOrderId = "seen: ValueState<Long>" + RestartCompatibility.KEY_COLUMNS + "[order_id]";

    assertThat(refused(dedupOn(byEventId), dedupOn(byOrderId), 1).problems())
        .singleElement()
        .asString()
        .contains("state schema of operator 'dedup'", "[event_id]", "[order_id]");
    allowed(dedupOn(byEventId), dedupOn(byEventId), 1);
  }

  @Test
  void aFingerprintRecordedWithoutKeyColumnsAcceptsTheSameStateWithThem() {
    String legacy = "seen: ValueState<Long>";
    String now = legacy + RestartCompatibility.KEY_COLUMNS + "[event_id]";

    allowed(dedupOn(legacy), dedupOn(now), 1);
    // only the key columns may be new: another state is refused as before
    refused(
        dedupOn(legacy),
        dedupOn("seen: ValueState<String>" + RestartCompatibility.KEY_COLUMNS + "[event_id]"),
        1);
    // and a recorded schema with key columns never matches one without
    refused(dedupOn(now), dedupOn(legacy), 1);
  }

  @Test
  void addedStatefulOperatorIsRefused() {
    QueryFingerprint after =
        fingerprint(List.of(ORDERS), List.of(DEDUP, WINDOW), List.of(FILE_SINK));

    assertThat(refused(base(), after, 1).problems())
        .singleElement()
        .asString()
        .contains("stateful operator 'window' was added");
  }

  @Test
  void removedStatefulOperatorIsRefused() {
    QueryFingerprint after = fingerprint(List.of(ORDERS), List.of(), List.of(FILE_SINK));

    assertThat(refused(base(), after, 1).problems())
        .singleElement()
        .asString()
        .contains("stateful operator 'dedup' was removed");
  }

  @Test
  void changedStateBackendIsRefused() {
    QueryFingerprint after =
        new QueryFingerprint(List.of(ORDERS), List.of(DEDUP), List.of(FILE_SINK), "hashmap", 128);

    assertThat(refused(base(), after, 1).problems())
        .singleElement()
        .asString()
        .contains("state backend changed from rocksdb to hashmap");
  }

  @Test
  void changedMaxParallelismIsRefused() {
    QueryFingerprint after =
        new QueryFingerprint(List.of(ORDERS), List.of(DEDUP), List.of(FILE_SINK), "rocksdb", 256);

    assertThat(refused(base(), after, 1).problems())
        .singleElement()
        .asString()
        .contains("max parallelism changed from 128 to 256");
  }

  @Test
  void parallelismAboveMaxParallelismIsRefused() {
    assertThat(refused(base(), base(), 129).problems())
        .singleElement()
        .asString()
        .contains("parallelism 129 exceeds the query's max parallelism 128")
        .contains("--parallelism");
  }

  @Test
  void parallelismEqualToMaxParallelismIsAllowed() {
    allowed(base(), base(), 128);
  }

  @Test
  void fileSinkMayBecomeKafka() {
    allowed(withSinks(FILE_SINK), withSinks(new SinkSpec("out", SinkKind.KAFKA, "topic-out")), 1);
  }

  @Test
  void kafkaSinkMayNotBecomeFile() {
    QueryFingerprint before = withSinks(new SinkSpec("out", SinkKind.KAFKA, "topic-out"));
    QueryFingerprint after = withSinks(new SinkSpec("out", SinkKind.FILE, "/data/out"));

    assertThat(refused(before, after, 1).problems())
        .singleElement()
        .asString()
        .contains("sink 'out' changed from KAFKA to FILE")
        .contains("restart matrix does not allow");
  }

  @Test
  void kafkaSinkMayBecomeForeachBatch() {
    allowed(
        withSinks(new SinkSpec("out", SinkKind.KAFKA, "topic-out")),
        withSinks(new SinkSpec("out", SinkKind.FOREACH_BATCH, "handler")),
        1);
  }

  @Test
  void foreachBatchSinkMayBecomeKafka() {
    allowed(
        withSinks(new SinkSpec("out", SinkKind.FOREACH_BATCH, "handler")),
        withSinks(new SinkSpec("out", SinkKind.KAFKA, "topic-out")),
        1);
  }

  @Test
  void deltaSinkMayNotBecomeKafka() {
    QueryFingerprint before = withSinks(new SinkSpec("out", SinkKind.DELTA, "/lake/orders"));
    QueryFingerprint after = withSinks(new SinkSpec("out", SinkKind.KAFKA, "topic-out"));

    assertThat(refused(before, after, 1).problems())
        .singleElement()
        .asString()
        .contains("sink 'out' changed from DELTA to KAFKA");
  }

  @Test
  void fileSinkTargetPathChangeIsRefused() {
    QueryFingerprint after = withSinks(new SinkSpec("out", SinkKind.FILE, "/data/out2"));

    assertThat(refused(base(), after, 1).problems())
        .singleElement()
        .asString()
        .contains("sink 'out' now writes to /data/out2 instead of /data/out")
        .contains("output path cannot change");
  }

  @Test
  void deltaSinkTargetPathChangeIsRefused() {
    QueryFingerprint before = withSinks(new SinkSpec("out", SinkKind.DELTA, "/lake/orders"));
    QueryFingerprint after = withSinks(new SinkSpec("out", SinkKind.DELTA, "/lake/orders_v2"));

    assertThat(refused(before, after, 1).problems())
        .singleElement()
        .asString()
        .contains("now writes to /lake/orders_v2 instead of /lake/orders");
  }

  @Test
  void kafkaSinkTopicChangeIsAllowed() {
    allowed(
        withSinks(new SinkSpec("out", SinkKind.KAFKA, "topic-a")),
        withSinks(new SinkSpec("out", SinkKind.KAFKA, "topic-b")),
        1);
  }

  @Test
  void removedSinkIsRefused() {
    QueryFingerprint before =
        withSinks(FILE_SINK, new SinkSpec("audit", SinkKind.KAFKA, "audit-topic"));
    QueryFingerprint after = withSinks(FILE_SINK);

    assertThat(refused(before, after, 1).problems())
        .singleElement()
        .asString()
        .contains("sink 'audit' (KAFKA) was removed");
  }

  @Test
  void removingTheOnlySinkIsRefused() {
    assertThat(refused(base(), withSinks(), 1).problems())
        .singleElement()
        .asString()
        .contains("sink 'out' (FILE) was removed");
  }

  @Test
  void addedSinkIsAllowed() {
    allowed(
        withSinks(FILE_SINK),
        withSinks(FILE_SINK, new SinkSpec("audit", SinkKind.KAFKA, "audit-topic")),
        1);
  }

  @Test
  void severalProblemsAreAllListedInOneExceptionEndingWithNewCheckpointAdvice() {
    QueryFingerprint after =
        new QueryFingerprint(
            List.of(RATE),
            List.of(new OperatorSpec("dedup", "seen: MapState<String, Long>"), WINDOW),
            List.of(new SinkSpec("out", SinkKind.FILE, "/elsewhere")),
            "hashmap",
            64);

    IncompatibleRestartException e = refused(base(), after, 100);

    assertThat(e.problems())
        .hasSize(7)
        .anySatisfy(p -> assertThat(p).contains("source set changed"))
        .anySatisfy(p -> assertThat(p).contains("state schema of operator 'dedup'"))
        .anySatisfy(p -> assertThat(p).contains("stateful operator 'window' was added"))
        .anySatisfy(p -> assertThat(p).contains("now writes to /elsewhere"))
        .anySatisfy(p -> assertThat(p).contains("state backend changed"))
        .anySatisfy(p -> assertThat(p).contains("max parallelism changed from 128 to 64"))
        .anySatisfy(p -> assertThat(p).contains("parallelism 100 exceeds"));
    String message = e.getMessage();
    for (String problem : e.problems()) {
      assertThat(message).contains("\n  - " + problem);
    }
    assertThat(message)
        .startsWith(
            "[INCOMPATIBLE_RESTART] This query cannot restart from its checkpoint location:")
        .endsWith(
            "or start it as a new query with a new checkpoint location (--checkpoint <new dir>),"
                + " which starts from scratch: sources from their starting positions, empty"
                + " state, a new sink transaction app id.");
  }

  @Test
  void problemsListIsImmutableCopy() {
    List<String> problems = new ArrayList<>(List.of("a", "b"));
    IncompatibleRestartException e = new IncompatibleRestartException(problems);
    problems.add("c");

    assertThat(e.problems()).containsExactly("a", "b");
    assertThatThrownBy(() -> e.problems().add("d"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void sinkKindMatrix() {
    for (SinkKind kind : SinkKind.values()) {
      assertThat(kind.canRestartAs(kind)).as("%s -> %s", kind, kind).isTrue();
      assertThat(SinkKind.CONSOLE.canRestartAs(kind)).as("CONSOLE -> %s", kind).isTrue();
    }
    assertThat(SinkKind.FILE.canRestartAs(SinkKind.KAFKA)).isTrue();
    assertThat(SinkKind.KAFKA.canRestartAs(SinkKind.FILE)).isFalse();
    assertThat(SinkKind.KAFKA.canRestartAs(SinkKind.FOREACH_BATCH)).isTrue();
    assertThat(SinkKind.FOREACH_BATCH.canRestartAs(SinkKind.KAFKA)).isTrue();
    assertThat(SinkKind.DELTA.canRestartAs(SinkKind.KAFKA)).isFalse();
    assertThat(SinkKind.DELTA.canRestartAs(SinkKind.FILE)).isFalse();
    assertThat(SinkKind.FILE.canRestartAs(SinkKind.DELTA)).isFalse();
    assertThat(SinkKind.FILE.canRestartAs(SinkKind.FOREACH_BATCH)).isFalse();
    assertThat(SinkKind.LAKEBASE.canRestartAs(SinkKind.KAFKA)).isFalse();
    assertThat(SinkKind.KAFKA.canRestartAs(SinkKind.CONSOLE)).isFalse();
  }

  @Test
  void fingerprintCopiesItsLists() {
    List<SourceSpec> sources = new ArrayList<>(List.of(ORDERS));
    QueryFingerprint fp = new QueryFingerprint(sources, List.of(), List.of(), "rocksdb", 128);
    sources.add(RATE);

    assertThat(fp.sources()).containsExactly(ORDERS);
  }
}
