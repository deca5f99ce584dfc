package io.lakestream.pipelines.gold;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * The gold aggregate's keyed state ({@link DailyTotals}) and stream element ({@link OrderChange})
 * are Flink POJOs: serialized by the PojoSerializer (no Kryo), round-trip exactly, and a state
 * snapshot restores compatibly.
 */
class OrdersGoldStateSerializerTest {

  @Test
  void dailyTotalsStateIsAPojoThatRoundTripsAndRestores() throws Exception {
    assertThat(DailyTotalsOperator.STATE_TYPE).isInstanceOf(PojoTypeInfo.class);
    TypeSerializer<DailyTotals> serializer =
        DailyTotalsOperator.STATE_TYPE.createSerializer(new SerializerConfigImpl());
    assertThat(serializer).isInstanceOf(PojoSerializer.class);
    assertThat(serializer.toString()).doesNotContain("Kryo");

    DailyTotals totals = new DailyTotals(20_513, 42, new BigDecimal("12345.67"), 17, 99);
    DataOutputSerializer out = new DataOutputSerializer(64);
    serializer.serialize(totals, out);
    DailyTotals back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    assertThat(back).isEqualTo(totals);
    assertThat(back.totalAmount.scale()).isEqualTo(2);

    TypeSerializerSnapshot<DailyTotals> snapshot = serializer.snapshotConfiguration();
    DataOutputSerializer snapOut = new DataOutputSerializer(256);
    TypeSerializerSnapshot.writeVersionedSnapshot(snapOut, snapshot);
    TypeSerializerSnapshot<DailyTotals> restored =
        TypeSerializerSnapshot.readVersionedSnapshot(
            new DataInputDeserializer(snapOut.getCopyOfBuffer()), getClass().getClassLoader());
    TypeSerializerSchemaCompatibility<DailyTotals> compatibility =
        serializer.snapshotConfiguration().resolveSchemaCompatibility(restored);
    assertThat(compatibility.isCompatibleAsIs()).isTrue();
  }

  @Test
  void orderChangeIsAPojo() {
    assertThat(org.apache.flink.api.common.typeinfo.TypeInformation.of(OrderChange.class))
        .isInstanceOf(PojoTypeInfo.class);
  }

  @Test
  void applyingChangesMovesCountsAndAmountsAndKeepsTheNewestVersion() {
    DailyTotals t = new DailyTotals();
    t = t.apply(new OrderChange(1, 1, new BigDecimal("10.50"), 3));
    t = t.apply(new OrderChange(1, 1, new BigDecimal("2.25"), 5));
    t = t.apply(new OrderChange(1, -1, new BigDecimal("-10.50"), 4));
    assertThat(t.orders).isEqualTo(1);
    assertThat(t.totalAmount).isEqualByComparingTo("2.25");
    assertThat(t.lastCommitVersion).isEqualTo(5);
    assertThat(t.changeRows).isEqualTo(3);
  }
}
