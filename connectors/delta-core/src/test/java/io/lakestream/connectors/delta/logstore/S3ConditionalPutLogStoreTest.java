package io.lakestream.connectors.delta.logstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.delta.DeltaAppendCommit;
import io.lakestream.connectors.delta.DeltaTable;
import io.lakestream.connectors.delta.DeltaTableReader;
import io.lakestream.connectors.delta.DeltaTableSchema;
import io.lakestream.connectors.delta.DeltaTableWriter;
import io.lakestream.connectors.schema.ColumnType;
import io.lakestream.connectors.sink.EpochCommitOutcome;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.RemoteFileChangedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** {@link S3ConditionalPutLogStore} against a real S3 server (S3Proxy answers 412 as S3 does). */
class S3ConditionalPutLogStoreTest {
  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("logstore-test");

  @TempDir java.nio.file.Path dir;

  private static Configuration conf() {
    Configuration conf = new Configuration();
    S3aSettings.of(S3.service()).forEach(conf::set);
    return conf;
  }

  private static Path commitFile(String table, long version) {
    return new Path(
        S3aSettings.uri(
            S3.service(), table + "/_delta_log/" + String.format("%020d.json", version)));
  }

  private static String stored(String table, long version) {
    return new String(
        S3.service().read(table + "/_delta_log/" + String.format("%020d.json", version)),
        StandardCharsets.UTF_8);
  }

  @Test
  void writesACommitFileOnceAndRefusesASecondWriteOfTheSameVersion() throws IOException {
    Configuration conf = conf();
    S3ConditionalPutLogStore store = new S3ConditionalPutLogStore(conf);
    Path file = commitFile("once", 0);

    store.write(file, List.of("{\"a\":1}", "{\"b\":2}").iterator(), false, conf);
    assertThat(stored("once", 0)).isEqualTo("{\"a\":1}\n{\"b\":2}\n");

    assertThatThrownBy(
            () ->
                new S3ConditionalPutLogStore(conf)
                    .write(file, List.of("{\"c\":3}").iterator(), false, conf))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining(file.toString());
    assertThat(stored("once", 0)).isEqualTo("{\"a\":1}\n{\"b\":2}\n");

    // The same bytes again (S3A retrying a PUT whose response was lost) count as written.
    store.write(file, List.of("{\"a\":1}", "{\"b\":2}").iterator(), false, conf);
    assertThatThrownBy(() -> store.write(file, List.of("{\"a\":1}").iterator(), false, conf))
        .isInstanceOf(FileAlreadyExistsException.class);

    // overwrite=true (Kernel's _last_checkpoint) replaces the object
    store.write(file, List.of("{\"d\":4}").iterator(), true, conf);
    assertThat(stored("once", 0)).isEqualTo("{\"d\":4}\n");
    assertThat(store.isPartialWriteVisible(file, conf)).isFalse();
  }

  @Test
  void aWriterThatLosesTheRaceAtThePutGetsFileAlreadyExists() throws IOException {
    Configuration conf = conf();
    Path file = commitFile("race", 7);
    // The loser's stream is open (S3A's existence check passed) while the winner writes the file;
    // only the conditional PUT at close can refuse the loser now.
    Iterator<String> loserActions =
        new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            if (next == 1) {
              try {
                new S3ConditionalPutLogStore(conf)
                    .write(file, List.of("{\"winner\":true}").iterator(), false, conf);
              } catch (IOException e) {
                throw new AssertionError("the winner's write failed", e);
              }
            }
            return next < 1;
          }

          @Override
          public String next() {
            next++;
            return "{\"loser\":true}";
          }
        };

    Throwable thrown =
        org.assertj.core.api.Assertions.catchThrowable(
            () -> new S3ConditionalPutLogStore(conf).write(file, loserActions, false, conf));

    assertThat(thrown).isInstanceOf(FileAlreadyExistsException.class);
    assertThat(thrown.getCause()).isInstanceOf(RemoteFileChangedException.class); // HTTP 412
    assertThat(stored("race", 7)).isEqualTo("{\"winner\":true}\n");
    assertThat(stackTrace(thrown)).doesNotContain(S3.service().secretKey());
  }

  @Test
  void ofManyConcurrentWritersOfOneVersionExactlyOneSucceeds() throws Exception {
    Configuration conf = conf();
    int writers = 6;
    for (long version = 0; version < 5; version++) {
      Path file = commitFile("many", version);
      CyclicBarrier start = new CyclicBarrier(writers);
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        String action = "{\"writer\":" + w + "}";
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    new S3ConditionalPutLogStore(conf)
                        .write(file, List.of(action).iterator(), false, conf);
                    return true;
                  } catch (FileAlreadyExistsException lost) {
                    return false;
                  }
                }));
      }
      List<Integer> winners = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        if (results.get(w).get(1, TimeUnit.MINUTES)) {
          winners.add(w);
        }
      }
      pool.shutdown();
      assertThat(winners).as("winners of version %d", version).hasSize(1);
      assertThat(stored("many", version)).isEqualTo("{\"writer\":" + winners.get(0) + "}\n");
    }
  }

  @Test
  void refusesAFileSystemThatCannotWriteConditionally() {
    Configuration conf = new Configuration();
    Path local = new Path(dir.resolve("_delta_log/00000000000000000000.json").toUri());
    assertThatThrownBy(
            () ->
                new S3ConditionalPutLogStore(conf)
                    .write(local, List.of("{}").iterator(), false, conf))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining(S3ConditionalPutLogStore.CONDITIONAL_CREATE_OPTION)
        .hasMessageContaining("io.delta.kernel.logStore.file.impl");
    assertThat(dir.resolve("_delta_log/00000000000000000000.json")).doesNotExist();
  }

  @Test
  void pathsInMessagesCarryNoUserInfo() {
    assertThat(
            S3ConditionalPutLogStore.display(
                new Path("s3a://AKID:SECRET@bucket/t/_delta_log/00000000000000000001.json")))
        .isEqualTo("s3a://bucket/t/_delta_log/00000000000000000001.json");
  }

  @Test
  void selectsThisLogStoreForS3aAndForS3OnlyWhenItIsS3a() {
    Configuration conf = new Configuration(false);
    LogStoreSelection.applyTo(conf);
    assertThat(conf.get("io.delta.kernel.logStore.s3a.impl"))
        .isEqualTo(S3ConditionalPutLogStore.class.getName());
    assertThat(conf.get("io.delta.kernel.logStore.s3.impl")).isNull();
    assertThat(conf.get("io.delta.kernel.logStore.file.impl"))
        .isEqualTo(LocalLinkLogStore.class.getName());

    Configuration s3IsS3a = new Configuration(false);
    s3IsS3a.set("fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    s3IsS3a.set("io.delta.kernel.logStore.s3a.impl", "com.example.MyLogStore");
    LogStoreSelection.applyTo(s3IsS3a);
    assertThat(s3IsS3a.get("io.delta.kernel.logStore.s3.impl"))
        .isEqualTo(S3ConditionalPutLogStore.class.getName());
    assertThat(s3IsS3a.get("io.delta.kernel.logStore.s3a.impl"))
        .isEqualTo("com.example.MyLogStore");
  }

  @Test
  void aDeltaTableOnS3aCommitsThroughThisLogStore() throws IOException {
    DeltaTableSchema schema =
        DeltaTableSchema.builder()
            .column("id", ColumnType.LONG, false)
            .column("name", ColumnType.STRING)
            .build();
    DeltaTable table =
        DeltaTable.forPath(
            S3aSettings.uri(S3.service(), "tables/t1"), S3aSettings.of(S3.service()));
    DeltaAppendCommit commit = new DeltaAppendCommit(table, schema, "app-s3");
    commit.open();
    DeltaTableWriter writer = new DeltaTableWriter(table, schema);
    for (long epoch = 1; epoch <= 3; epoch++) {
      List<Object[]> rows = new ArrayList<>();
      for (long id = epoch * 10; id < epoch * 10 + 10; id++) {
        rows.add(new Object[] {id, "n" + id});
      }
      EpochCommitOutcome outcome = commit.commit(epoch, writer.write(rows));
      assertThat(outcome.status()).isEqualTo(EpochCommitOutcome.Status.COMMITTED);
      assertThat(outcome.detail()).isEqualTo("version=" + epoch);
    }
    assertThat(table.engine()).isNotNull();
    assertThat(new DeltaTableReader(table).count()).isEqualTo(30);
    assertThat(S3.service().keys("tables/t1/_delta_log/"))
        .contains(
            "tables/t1/_delta_log/00000000000000000000.json",
            "tables/t1/_delta_log/00000000000000000003.json");
    // The commit file a second writer of version 3 would race for is refused.
    Configuration conf = conf();
    assertThatThrownBy(
            () ->
                new S3ConditionalPutLogStore(conf)
                    .write(commitFile("tables/t1", 3), List.of("{}").iterator(), false, conf))
        .isInstanceOf(FileAlreadyExistsException.class);
  }

  @Test
  void aDeltaTableOnS3aNeverFallsBackToUnconditionalCommits() {
    // A bucket of its own, so that S3A builds a client with conditional writes switched off.
    String bucket = "no-conditional-writes";
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(S3.service().endpoint())
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(S3.service().accessKey(), S3.service().secretKey())))
            .build()) {
      s3.createBucket(b -> b.bucket(bucket));
      Map<String, String> conf = new TreeMap<>(S3aSettings.of(S3.service()));
      conf.put("fs.s3a.create.conditional.enabled", "false");
      DeltaTable table = DeltaTable.forPath("s3a://" + bucket + "/t", conf);
      DeltaTableSchema schema =
          DeltaTableSchema.builder().column("id", ColumnType.LONG, false).build();

      // The table's engine uses this log store for s3a (Kernel's default would write version 0).
      assertThatThrownBy(() -> table.ensureExists(schema))
          .hasStackTraceContaining(S3ConditionalPutLogStore.CONDITIONAL_CREATE_OPTION)
          .hasStackTraceContaining("fs.s3a.create.conditional.enabled=true")
          .satisfies(e -> assertThat(stackTrace(e)).doesNotContain(S3.service().secretKey()));
      assertThat(s3.listObjectsV2(b -> b.bucket(bucket)).contents())
          .noneMatch(o -> o.key().endsWith(".json"));
    }
  }

  private static String stackTrace(Throwable t) {
    StringWriter trace = new StringWriter();
    t.printStackTrace(new PrintWriter(trace));
    return trace.toString();
  }
}
