package io.lakestream.connectors.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;

/** Readers get splits in the order they asked, one each; failed readers get none. */
class WaitingReadersTest {
  private record Split(String splitId) implements SourceSplit {}

  private final MockSplitEnumeratorContext<Split> context = new MockSplitEnumeratorContext<>(3);
  private final WaitingReaders<Split> readers = new WaitingReaders<>(context);

  private Map<Integer, List<Split>> assigned() {
    return context.getSplitsAssignmentSequence().stream()
        .flatMap(a -> a.assignment().entrySet().stream())
        .collect(
            Collectors.toMap(
                Map.Entry::getKey,
                Map.Entry::getValue,
                (a, b) -> Stream.concat(a.stream(), b.stream()).toList()));
  }

  @Test
  void firstComeFirstServedOneSplitEach() {
    for (int reader : new int[] {0, 1, 2}) {
      context.registerReader(new ReaderInfo(reader, "localhost"));
    }
    readers.add(2);
    readers.add(0);
    Deque<Split> splits = new ArrayDeque<>(List.of(new Split("a")));

    readers.assign(splits::poll);

    assertThat(assigned()).containsExactly(Map.entry(2, List.of(new Split("a"))));
    assertThat(readers.subtasks()).containsExactly(0);
    assertThat(readers.all()).isFalse();
    readers.add(1);
    readers.add(2);
    assertThat(readers.all()).as("3 of 3 subtasks wait").isTrue();
  }

  @Test
  void aReaderThatIsNoLongerRegisteredGetsNothing() {
    context.registerReader(new ReaderInfo(1, "localhost"));
    readers.add(0); // never registered (failed)
    readers.add(1);

    readers.assign(new ArrayDeque<>(List.of(new Split("a"), new Split("b")))::poll);

    assertThat(assigned()).containsExactly(Map.entry(1, List.of(new Split("a"))));
    assertThat(readers.isEmpty()).isTrue();
  }
}
