package io.lakestream.runtime.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryLocationsTest {
  @TempDir Path dir;

  /**
   * A query asked for by key is read alone: a watched location on storage that cannot answer (here
   * a file system no plugin serves) neither hides it nor holds the request up; the list shows what
   * can be read.
   */
  @Test
  void aLocationIsFoundByKeyWithoutAskingTheOthersStorage() throws Exception {
    Path location = dir.resolve("orders");
    Files.createDirectories(location);
    Files.writeString(location.resolve("metadata"), "{}");
    QueryLocations locations = new QueryLocations();
    locations.watch(URI.create("nowhere://gone/_checkpoints/old"));
    locations.watch(location.toUri());

    String key = QueryLocations.key(location.toUri());
    assertThat(locations.byKey(key)).isNotNull();
    assertThat(locations.find()).containsOnlyKeys(key);
    assertThat(locations.byKey("000000000000")).isNull();
  }
}
