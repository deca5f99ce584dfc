package io.lakestream.connectors.autoloader.clean;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The cleanSource state entry is a Flink POJO (no Kryo) and round-trips. */
class CleanupEntrySerializerTest {
  @Test
  void pojoSerializerRoundTrips() throws Exception {
    TypeInformation<CleanupEntry> type = TypeInformation.of(CleanupEntry.class);
    assertThat(type).isInstanceOf(PojoTypeInfo.class);
    ExecutionConfig config = new ExecutionConfig();
    config.disableGenericTypes();
    TypeSerializer<CleanupEntry> serializer = type.createSerializer(config.getSerializerConfig());
    CleanupEntry entry = new CleanupEntry("date=2026-11-29/part-001.json", 42, 1_764_000_000_000L);
    DataOutputSerializer out = new DataOutputSerializer(64);
    serializer.serialize(entry, out);
    CleanupEntry back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    assertThat(back).isEqualTo(entry);
  }
}
