package io.lakestream.connectors.autoloader.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.autoloader.LandingZone;
import io.lakestream.testkit.s3.S3ServerExtension;
import io.lakestream.testkit.s3.S3aSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-after listing on the S3 server and on local disk: an incremental listing after the last
 * seen key makes fewer listing calls than a full listing and still returns every new file, in key
 * order; a file written below the cursor is only found by a full listing.
 */
class FileListerITCase {
  @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension("lister-it");

  @TempDir Path dir;

  @Test
  void s3IncrementalListingCostsOneRequestPer1000NewKeys() throws IOException {
    Map<String, String> conf = S3aSettings.of(S3.server());
    String root = S3aSettings.uri(S3.server(), "landing/orders");
    LandingZone landing = new LandingZone(root, conf);
    List<String> keys = new ArrayList<>();
    Map<String, List<String>> files = new java.util.TreeMap<>();
    for (int day = 1; day <= 3; day++) {
      for (int i = 0; i < 400; i++) {
        String key = String.format("date=2026-11-%02d/part-%05d.json", day, i);
        files.put(key, List.of("{}"));
        keys.add(key);
      }
    }
    landing.writeAll(files);
    landing.write("_schemas/0", List.of("{}")); // hidden: never listed
    landing.write("date=2026-11-01/.upload.tmp", List.of("{}"));

    try (FileLister lister = FileLister.open(root, conf)) {
      assertThat(lister).isInstanceOf(S3ObjectLister.class);
      FileListing full = drain(lister, "");
      assertThat(keysOf(full)).containsExactlyElementsOf(keys);
      assertThat(full.calls()).isEqualTo(2); // 1,200 keys (+2 hidden) in pages of 1,000

      List<String> added = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        String key = String.format("date=2026-11-04/part-%05d.json", i);
        landing.write(key, List.of("{}"));
        added.add(key);
      }
      landing.write("date=2026-11-02/part-late.json", List.of("{}")); // below the cursor

      String cursor = full.lastKey("");
      FileListing incremental = drain(lister, cursor);
      assertThat(keysOf(incremental)).containsExactlyElementsOf(added);
      assertThat(incremental.calls()).isEqualTo(1);

      FileListing relisted = drain(lister, "");
      assertThat(relisted.calls()).isEqualTo(2);
      assertThat(keysOf(relisted)).contains("date=2026-11-02/part-late.json").hasSize(1_211);
    }
  }

  @Test
  void treeWalkSkipsDirectoriesBeforeTheCursor() throws IOException {
    String root = dir.resolve("landing").toUri().toString();
    LandingZone landing = new LandingZone(root, Map.of());
    List<String> keys = new ArrayList<>();
    for (int day = 1; day <= 30; day++) {
      for (int hour = 0; hour < 3; hour++) {
        for (int i = 0; i < 2; i++) {
          String key = String.format("date=2026-11-%02d/hour=%02d/f-%d.json", day, hour, i);
          landing.write(key, List.of("{}"));
          keys.add(key);
        }
      }
    }
    landing.write("date=2026-11-30/hour=02/_SUCCESS", List.of());
    try (FileLister lister = FileLister.open(root, Map.of())) {
      assertThat(lister).isInstanceOf(HadoopTreeLister.class);
      FileListing full = drain(lister, "");
      assertThat(keysOf(full)).containsExactlyElementsOf(keys);
      assertThat(full.calls()).isEqualTo(1 + 30 + 90);

      landing.write("date=2026-11-30/hour=03/f-0.json", List.of("{}"));
      landing.write("date=2026-12-01/hour=00/f-0.json", List.of("{}"));
      FileListing incremental = drain(lister, full.lastKey(""));
      assertThat(keysOf(incremental))
          .containsExactly("date=2026-11-30/hour=03/f-0.json", "date=2026-12-01/hour=00/f-0.json");
      // root, the cursor's day and hour, the new hour, the new day and its hour
      assertThat(incremental.calls()).isEqualTo(6);

      // paging: a page stops at maxFiles and the next one continues after its last key
      FileListing first = lister.listAfter("", 7);
      assertThat(first.truncated()).isTrue();
      FileListing second = lister.listAfter(first.lastKey(""), 7);
      assertThat(keysOf(second)).containsExactlyElementsOf(keys.subList(7, 14));
    }
  }

  private static FileListing drain(FileLister lister, String after) throws IOException {
    List<DiscoveredFile> files = new ArrayList<>();
    int calls = 0;
    FileListing page;
    do {
      page = lister.listAfter(after, 100_000);
      files.addAll(page.files());
      calls += page.calls();
      after = page.lastKey(after);
    } while (page.truncated());
    return new FileListing(files, false, calls);
  }

  private static List<String> keysOf(FileListing listing) {
    return listing.files().stream().map(f -> f.key).collect(Collectors.toList());
  }
}
