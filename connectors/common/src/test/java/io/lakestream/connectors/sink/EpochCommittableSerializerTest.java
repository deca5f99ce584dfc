package io.lakestream.connectors.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.files.StagedFile;
import io.lakestream.connectors.files.StagedFileSerializer;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class EpochCommittableSerializerTest {
  private final EpochCommittableSerializer<StagedFile> serializer =
      new EpochCommittableSerializer<>(new StagedFileSerializer());

  @Test
  void roundTripsAnEpochWithResults() throws IOException {
    EpochCommittable<StagedFile> epoch =
        new EpochCommittable<>(
            42,
            List.of(
                new StagedFile("s3://b/t/_staging/a", "s3://b/t/a", 10, 100),
                new StagedFile("file:/t/_staging/é b", "file:/t/é b", 0, 0)),
            1_700_000_000_000L);

    byte[] bytes = serializer.serialize(epoch);

    assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(epoch);
  }

  @Test
  void roundTripsAnEmptyEpoch() throws IOException {
    EpochCommittable<StagedFile> epoch = new EpochCommittable<>(7, List.of(), Long.MIN_VALUE);
    assertThat(serializer.deserialize(1, serializer.serialize(epoch))).isEqualTo(epoch);
  }

  @Test
  void unknownVersionFailsWithAnActionableMessage() {
    assertThatThrownBy(() -> serializer.deserialize(99, new byte[0]))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 99")
        .hasMessageContaining("restore with the lakestream version that wrote the checkpoint");
  }
}
