package io.lakestream.connectors.rate.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.rate.source.split.SequenceSplit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SequenceEnumeratorStateSerializerTest {
  private final SequenceEnumeratorStateSerializer serializer =
      new SequenceEnumeratorStateSerializer();

  private SequenceEnumeratorState roundTrip(SequenceEnumeratorState state) throws IOException {
    return serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
  }

  @Test
  void roundTripsWithUnassignedSplits() throws IOException {
    SequenceEnumeratorState state =
        new SequenceEnumeratorState(
            5,
            List.of(
                new SequenceSplit(0, 0),
                new SequenceSplit(3, 99),
                new SequenceSplit(4, Long.MAX_VALUE)));

    SequenceEnumeratorState copy = roundTrip(state);

    assertThat(copy).isEqualTo(state);
    assertThat(copy.unassigned())
        .containsExactly(
            new SequenceSplit(0, 0),
            new SequenceSplit(3, 99),
            new SequenceSplit(4, Long.MAX_VALUE));
  }

  @Test
  void roundTripsWithoutUnassignedSplits() throws IOException {
    SequenceEnumeratorState state = new SequenceEnumeratorState(8, List.of());

    SequenceEnumeratorState copy = roundTrip(state);

    assertThat(copy.partitions()).isEqualTo(8);
    assertThat(copy.unassigned()).isEmpty();
  }

  @Test
  void stateCopiesItsSplitList() {
    List<SequenceSplit> splits = new ArrayList<>(List.of(new SequenceSplit(0, 1)));
    SequenceEnumeratorState state = new SequenceEnumeratorState(1, splits);
    splits.clear();

    assertThat(state.unassigned()).containsExactly(new SequenceSplit(0, 1));
  }

  @Test
  void unknownVersionIsRefused() throws IOException {
    byte[] bytes = serializer.serialize(new SequenceEnumeratorState(2, List.of()));

    assertThatThrownBy(() -> serializer.deserialize(0, bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Unknown sequence enumerator state version 0")
        .hasMessageContaining("expected 1");
  }
}
