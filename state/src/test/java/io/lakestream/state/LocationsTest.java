package io.lakestream.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocationsTest {
  @TempDir Path tmp;

  @Test
  void aLocalPathBecomesTheSameAbsoluteUriWhetherOrNotItExists() throws Exception {
    Path dir = tmp.resolve("table");
    String before = Locations.absolute(dir.toString());
    Files.createDirectories(dir);
    assertThat(Locations.absolute(dir.toString()))
        .isEqualTo(before)
        .isEqualTo(Locations.absolute(dir + "/"))
        .isEqualTo("file:" + dir.toAbsolutePath());
  }

  @Test
  void aRelativePathIsResolvedAgainstTheWorkingDirectory() {
    assertThat(Locations.absolute("rel/dir"))
        .isEqualTo(new File("rel/dir").getAbsoluteFile().toURI().toString().replaceAll("/$", ""));
  }

  @Test
  void aLocationWithASchemeIsKeptWithoutTrailingSlash() {
    assertThat(Locations.absolute("s3://bucket/lake/orders/")).isEqualTo("s3://bucket/lake/orders");
    assertThat(Locations.absolute("file:///data/my table")).isEqualTo("file:///data/my%20table");
  }
}
