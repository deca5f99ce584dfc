package io.lakestream.connectors.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.testkit.s3.S3ServerExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The commit of staged JSON-lines files on S3 (the test S3 server, through Flink's s3:// file
 * system), where a rename is a copy and then a delete of the source: a TaskManager killed between
 * the two leaves the file in the staging directory and in the table.
 */
class StagedFileCommitS3ITCase {
  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("staged-commit");

  private static final String CONTENT = "{\"x\":1}\n";

  @BeforeAll
  static void fileSystems() {
    S3.initializeFlinkFileSystems();
  }

  @Test
  void aReplayFinishesARenameCutOffBetweenItsCopyAndItsDelete() throws IOException {
    String table = S3.uri("cut-off/dead_letters").toString();
    write(table + "/_staging/a.jsonl", CONTENT);
    write(table + "/a.jsonl", CONTENT); // the copy the killed rename made
    StagedFile a = new StagedFile(table + "/_staging/a.jsonl", table + "/a.jsonl", 1, 8);

    EpochCommitOutcome outcome = new StagedFileCommit(table, "app").commit(3, List.of(a));

    assertThat(outcome.status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
    assertThat(S3.keys("cut-off/dead_letters/"))
        .contains("cut-off/dead_letters/a.jsonl", "cut-off/dead_letters/_commits/3")
        .doesNotContain("cut-off/dead_letters/_staging/a.jsonl");
    assertThat(new String(S3.server().read("cut-off/dead_letters/a.jsonl"), StandardCharsets.UTF_8))
        .isEqualTo(CONTENT);
  }

  @Test
  void anotherFileAtTheTargetIsNeitherOverwrittenNorTakenForTheStagedOne() throws IOException {
    String table = S3.uri("clash/dead_letters").toString();
    write(table + "/_staging/a.jsonl", CONTENT);
    write(table + "/a.jsonl", "{\"other\":true}\n");
    StagedFile a = new StagedFile(table + "/_staging/a.jsonl", table + "/a.jsonl", 1, 8);

    assertThatThrownBy(() -> new StagedFileCommit(table, "app").commit(3, List.of(a)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("exists with 15 bytes, the staged file has 8");
    assertThat(S3.keys("clash/dead_letters/"))
        .containsExactlyInAnyOrder(
            "clash/dead_letters/a.jsonl", "clash/dead_letters/_staging/a.jsonl");
  }

  private static void write(String uri, String content) throws IOException {
    Path path = new Path(uri);
    try (OutputStream out = path.getFileSystem().create(path, FileSystem.WriteMode.OVERWRITE)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }
}
