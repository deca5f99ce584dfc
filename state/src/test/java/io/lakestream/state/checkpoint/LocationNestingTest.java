package io.lakestream.state.checkpoint;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocationNestingTest {

  private static void refused(
      String location, List<String> inputs, List<String> tables, String... messageParts) {
    assertThatThrownBy(() -> check(location, inputs, tables))
        .isInstanceOf(CheckpointLocationException.class)
        .hasMessageContainingAll(messageParts)
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("CHECKPOINT_LOCATION_OVERLAPS_DATA");
  }

  private static void allowed(String location, List<String> inputs, List<String> tables) {
    assertThatCode(() -> check(location, inputs, tables)).doesNotThrowAnyException();
  }

  private static void check(String location, List<String> inputs, List<String> tables) {
    LocationNesting.check(
        URI.create(location),
        inputs.stream().map(URI::create).toList(),
        tables.stream().map(URI::create).toList());
  }

  @Test
  void locationInsideInputPathIsRefused() {
    refused(
        "file:///data/landing/orders/_chk/q1",
        List.of("file:///data/landing"),
        List.of(),
        "is inside a source's input path file:///data/landing",
        "Put it outside");
  }

  @Test
  void underscoreDirDeeperThanFirstSegmentInsideInputPathIsRefused() {
    refused(
        "file:///data/landing/orders/_chk",
        List.of("file:///data/landing"),
        List.of(),
        "inside a source's input path");
  }

  @Test
  void locationInsideTableDirIsRefused() {
    refused(
        "s3://lake/tables/orders/chk/q1",
        List.of(),
        List.of("s3://lake/tables/orders"),
        "is inside a table's data directory s3://lake/tables/orders",
        "s3://lake/tables/orders/_checkpoints/<query>");
  }

  @Test
  void locationEqualToTableDirIsRefused() {
    refused(
        "file:///lake/orders",
        List.of(),
        List.of("file:///lake/orders"),
        "is a table's data directory itself");
  }

  @Test
  void locationEqualToInputPathIsRefused() {
    refused(
        "s3://bucket/in", List.of("s3://bucket/in"), List.of(), "is a source's input path itself");
  }

  @Test
  void locationUnderUnderscoreDirOfTableIsAllowed() {
    allowed("file:///lake/orders/_checkpoints/q", List.of(), List.of("file:///lake/orders"));
    allowed("s3://lake/orders/_chk/q", List.of("s3://lake/orders"), List.of());
  }

  @Test
  void siblingWithCommonPrefixIsAllowed() {
    allowed("file:///data/orders2/chk", List.of("file:///data/orders"), List.of());
    allowed("file:///data/orders2/chk", List.of(), List.of("file:///data/orders"));
    allowed("s3://bucket/data/orders_chk", List.of(), List.of("s3://bucket/data/orders"));
  }

  @Test
  void unrelatedLocationsAreAllowed() {
    allowed(
        "s3://bucket/checkpoints/q1",
        List.of("s3://bucket/landing"),
        List.of("s3://bucket/lake/orders", "file:///tmp/out"));
  }

  @Test
  void otherBucketWithSamePathIsAllowed() {
    allowed("s3://other/lake/orders/chk", List.of(), List.of("s3://lake/lake/orders"));
  }

  @Test
  void trailingSlashesAreIgnored() {
    refused(
        "s3://lake/orders/",
        List.of(),
        List.of("s3://lake/orders"),
        "is a table's data directory itself");
    refused(
        "s3://lake/orders/chk/",
        List.of(),
        List.of("s3://lake/orders//"),
        "is inside a table's data directory");
    allowed("s3://lake/orders/_chk/q/", List.of(), List.of("s3://lake/orders/"));
  }

  @Test
  void fileSchemeSpellingsAreTreatedAlike() {
    refused(
        "file:/data/in/chk", List.of("file:///data/in"), List.of(), "inside a source's input path");
    refused(
        "file:///data/in/chk",
        List.of("file:/data/in/"),
        List.of(),
        "inside a source's input path");
  }

  @Test
  void dotSegmentsAreNormalized() {
    refused(
        "s3://lake/x/../orders/chk",
        List.of(),
        List.of("s3://lake/orders"),
        "inside a table's data directory");
  }

  @Test
  void noPathsMeansNothingToCheck() {
    allowed("file:///anywhere", List.of(), List.of());
  }
}
