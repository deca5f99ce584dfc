package io.lakestream.connectors.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.sink.EpochCommitOutcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StagedFileCommitTest {
  @TempDir Path table;

  private StagedFile stage(String name, String content) throws IOException {
    Path staging = table.resolve("_staging");
    Files.createDirectories(staging);
    Path file = staging.resolve(name);
    Files.writeString(file, content);
    return new StagedFile(
        file.toUri().toString(), table.resolve(name).toUri().toString(), 1, content.length());
  }

  @Test
  void commitMovesFilesAndWritesTheMarker() throws IOException {
    StagedFile a = stage("a.jsonl", "{\"x\":1}\n");
    StagedFile b = stage("b.jsonl", "{\"x\":2}\n");
    StagedFileCommit commit = new StagedFileCommit(table.toUri().toString());

    EpochCommitOutcome outcome = commit.commit(5, List.of(a, b));

    assertThat(outcome.status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
    assertThat(outcome.numRows()).isEqualTo(2);
    assertThat(outcome.numFiles()).isEqualTo(2);
    assertThat(table.resolve("a.jsonl")).hasContent("{\"x\":1}");
    assertThat(table.resolve("b.jsonl")).exists();
    assertThat(table.resolve("_staging/a.jsonl")).doesNotExist();
    assertThat(Files.readString(table.resolve("_commits/5"), StandardCharsets.UTF_8))
        .contains("\"epoch\":5");
  }

  @Test
  void replayOfACommittedEpochChangesNothing() throws IOException {
    StagedFile a = stage("a.jsonl", "{\"x\":1}\n");
    StagedFileCommit commit = new StagedFileCommit(table.toUri().toString());
    commit.commit(5, List.of(a));

    EpochCommitOutcome replay = commit.commit(5, List.of(a));

    assertThat(replay.status()).isEqualTo(EpochCommitOutcome.Status.ALREADY_COMMITTED);
    assertThat(table.resolve("a.jsonl")).hasContent("{\"x\":1}");
  }

  @Test
  void replayOfAHalfDoneCommitFinishesIt() throws IOException {
    StagedFile a = stage("a.jsonl", "{\"x\":1}\n");
    StagedFile b = stage("b.jsonl", "{\"x\":2}\n");
    // A crash after moving a but before moving b and writing the marker.
    Files.move(table.resolve("_staging/a.jsonl"), table.resolve("a.jsonl"));

    EpochCommitOutcome outcome =
        new StagedFileCommit(table.toUri().toString()).commit(6, List.of(a, b));

    assertThat(outcome.status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
    assertThat(table.resolve("a.jsonl")).exists();
    assertThat(table.resolve("b.jsonl")).exists();
    assertThat(table.resolve("_commits/6")).exists();
  }

  @Test
  void aLostStagedFileFailsWithAnActionableError() throws IOException {
    StagedFile a = stage("a.jsonl", "{\"x\":1}\n");
    Files.delete(table.resolve("_staging/a.jsonl"));

    assertThatThrownBy(() -> new StagedFileCommit(table.toUri().toString()).commit(7, List.of(a)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Epoch 7 lost its staged file")
        .hasMessageContaining("Restore from an older checkpoint");
  }

  @Test
  void emptyEpochCommitsNothing() throws IOException {
    EpochCommitOutcome outcome =
        new StagedFileCommit(table.toUri().toString()).commit(8, List.of());
    assertThat(outcome.status()).isEqualTo(EpochCommitOutcome.Status.EMPTY);
    assertThat(table.resolve("_commits")).doesNotExist();
  }

  @Test
  void anEpochMarkedByAnotherQueryIsCommittedAndThenSkippedOnReplay() throws IOException {
    String dir = table.toUri().toString();
    new StagedFileCommit(dir, "old-query").commit(1, List.of(stage("a.jsonl", "{\"x\":1}\n")));
    // a new checkpoint location: a new query whose epochs start at 1 again
    StagedFile b = stage("b.jsonl", "{\"x\":2}\n");
    StagedFileCommit newQuery = new StagedFileCommit(dir, "new-query");

    EpochCommitOutcome outcome = newQuery.commit(1, List.of(b));

    assertThat(outcome.status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
    assertThat(table.resolve("a.jsonl")).exists();
    assertThat(table.resolve("b.jsonl")).hasContent("{\"x\":2}");
    assertThat(Files.readString(table.resolve("_commits/1"))).contains("\"appId\":\"new-query\"");
    assertThat(newQuery.commit(1, List.of(b)).status())
        .isEqualTo(EpochCommitOutcome.Status.ALREADY_COMMITTED);
  }

  @Test
  void aMarkerWithoutAnAppIdCountsForEveryQuery() throws IOException {
    Files.createDirectories(table.resolve("_commits"));
    Files.writeString(table.resolve("_commits/3"), "{\"epoch\":3,\"files\":1,\"rows\":1}\n");
    StagedFile a = stage("a.jsonl", "{\"x\":1}\n");

    EpochCommitOutcome outcome =
        new StagedFileCommit(table.toUri().toString(), "some-query").commit(3, List.of(a));

    assertThat(outcome.status()).isEqualTo(EpochCommitOutcome.Status.ALREADY_COMMITTED);
    assertThat(table.resolve("a.jsonl")).doesNotExist();
  }
}
