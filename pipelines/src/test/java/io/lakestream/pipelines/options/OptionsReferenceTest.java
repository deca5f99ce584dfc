package io.lakestream.pipelines.options;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.connectors.autoloader.AutoLoaderOptions;
import io.lakestream.connectors.delta.cdf.source.DeltaCdfSourceOptions;
import io.lakestream.connectors.delta.sink.DeltaSinkOptions;
import io.lakestream.connectors.delta.source.DeltaSourceOptions;
import io.lakestream.connectors.jdbc.JdbcSourceOptions;
import io.lakestream.connectors.kafka.sink.KafkaSinkOptions;
import io.lakestream.connectors.kafka.source.KafkaSourceOptions;
import io.lakestream.connectors.kinesis.KinesisSourceOptions;
import io.lakestream.connectors.lakebase.LakebaseSinkOptions;
import io.lakestream.connectors.options.OptionsCatalog;
import io.lakestream.connectors.options.OptionsReference;
import io.lakestream.pipelines.jdbc.JdbcToDelta;
import io.lakestream.pipelines.kinesis.KinesisToBronze;
import io.lakestream.sql.SqlQuerySettings;
import io.lakestream.sql.catalog.DeltaCatalogOptions;
import io.lakestream.sql.connector.autoloader.AutoLoaderSqlOptions;
import io.lakestream.sql.connector.delta.DeltaSqlOptions;
import io.lakestream.sql.connector.kafka.KafkaSqlOptions;
import io.lakestream.sql.connector.kinesis.KinesisSqlOptions;
import io.lakestream.sql.connector.lakebase.LakebaseSqlOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The options reference under {@code docs/options/} is generated from the connectors' option
 * catalogs and committed; this test fails when a committed page differs from what the catalogs
 * generate now (an option added, renamed, re-described...). Run it with {@code
 * -Dlakestream.options.regenerate=true} to rewrite the pages, then commit them.
 */
class OptionsReferenceTest {
  /** Every connector catalog; a new connector adds its catalog here. */
  static final List<OptionsCatalog> CATALOGS =
      List.of(
          KafkaSourceOptions.CATALOG,
          KafkaSinkOptions.CATALOG,
          DeltaSourceOptions.CATALOG,
          DeltaCdfSourceOptions.CATALOG,
          DeltaSinkOptions.CATALOG,
          AutoLoaderOptions.CATALOG,
          LakebaseSinkOptions.CATALOG,
          JdbcSourceOptions.CATALOG,
          JdbcToDelta.CATALOG,
          KinesisSourceOptions.CATALOG,
          KinesisToBronze.CATALOG,
          DeltaSqlOptions.CATALOG,
          KafkaSqlOptions.CATALOG,
          KinesisSqlOptions.CATALOG,
          AutoLoaderSqlOptions.CATALOG,
          LakebaseSqlOptions.CATALOG,
          DeltaCatalogOptions.CATALOG,
          SqlQuerySettings.CATALOG);

  private static final String REGENERATE = "lakestream.options.regenerate";
  private static final String HOW =
      "Regenerate it with: mvn -pl pipelines test -Dtest=OptionsReferenceTest -D"
          + REGENERATE
          + "=true (then commit docs/options/)";

  static Stream<OptionsCatalog> catalogs() {
    return CATALOGS.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("catalogs")
  void theCommittedPageIsUpToDate(OptionsCatalog catalog) throws IOException {
    check(docs().resolve(catalog.id() + ".md"), OptionsReference.render(catalog));
  }

  @Test
  void theCommittedIndexIsUpToDate() throws IOException {
    check(docs().resolve("README.md"), OptionsReference.renderIndex(CATALOGS));
  }

  @Test
  void everyPageBelongsToACatalogAndIdsAreUnique() throws IOException {
    Set<String> ids = CATALOGS.stream().map(OptionsCatalog::id).collect(Collectors.toSet());
    assertThat(ids).hasSameSizeAs(CATALOGS);
    Set<String> pages;
    try (Stream<Path> files = Files.list(docs())) {
      pages =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".md") && !n.equals("README.md"))
              .map(n -> n.substring(0, n.length() - 3))
              .collect(Collectors.toCollection(TreeSet::new));
    }
    assertThat(pages)
        .as("pages under docs/options without a catalog: delete them")
        .isEqualTo(new TreeSet<>(ids));
  }

  private static void check(Path page, String generated) throws IOException {
    if (Boolean.getBoolean(REGENERATE)) {
      Files.createDirectories(page.getParent());
      Files.writeString(page, generated);
      return;
    }
    assertThat(Files.exists(page)).as(page + " is missing. " + HOW).isTrue();
    String committed = Files.readString(page);
    assertThat(committed)
        .as(
            page
                + " is out of date with the options catalogs. "
                + HOW
                + firstDifference(committed, generated))
        .isEqualTo(generated);
  }

  private static String firstDifference(String committed, String generated) {
    List<String> a = committed.lines().toList();
    List<String> b = generated.lines().toList();
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      String x = i < a.size() ? a.get(i) : "(end of file)";
      String y = i < b.size() ? b.get(i) : "(end of file)";
      if (!x.equals(y)) {
        return "\nFirst difference at line "
            + (i + 1)
            + ":\n  committed: "
            + x
            + "\n  generated: "
            + y;
      }
    }
    return "";
  }

  /** {@code docs/options} of the checkout (tests run in the module's directory). */
  static Path docs() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("connectors")) && Files.exists(dir.resolve("pom.xml"))) {
        return dir.resolve("docs/options");
      }
    }
    throw new IllegalStateException("no checkout root above " + Path.of("").toAbsolutePath());
  }
}
