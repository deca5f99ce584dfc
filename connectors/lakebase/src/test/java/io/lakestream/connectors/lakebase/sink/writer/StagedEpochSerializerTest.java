package io.lakestream.connectors.lakebase.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.lakebase.StagingTable;
import java.io.IOException;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The staged-epoch committable round-trips, version 1's bytes stay readable, others fail. */
class StagedEpochSerializerTest {
  private static final StagedEpoch EPOCH =
      new StagedEpoch(new StagingTable.Tag("app-é", 3, -7L, 41L), 1_000L, 12L);

  /** {@link #EPOCH} as version 1 wrote it; a change of the format must keep reading this. */
  private static final String VERSION_1 =
      "AAZhcHAtw6kAAAAD//////////kAAAAAAAAAKQAAAAAAAAPoAAAAAAAAAAw=";

  @Test
  void roundTrips() throws IOException {
    StagedEpochSerializer serializer = new StagedEpochSerializer();
    byte[] bytes = serializer.serialize(EPOCH);
    assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(EPOCH);
    assertThat(EPOCH.tag().epoch()).isEqualTo(42L);
  }

  @Test
  void readsVersionOneBytes() throws IOException {
    StagedEpochSerializer serializer = new StagedEpochSerializer();
    assertThat(serializer.deserialize(1, Base64.getDecoder().decode(VERSION_1))).isEqualTo(EPOCH);
    assertThat(Base64.getEncoder().encodeToString(serializer.serialize(EPOCH)))
        .isEqualTo(VERSION_1);
  }

  @Test
  void anUnknownVersionFailsNamingIt() {
    assertThatThrownBy(() -> new StagedEpochSerializer().deserialize(2, new byte[0]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 2")
        .hasMessageContaining("reads version 1");
  }
}
