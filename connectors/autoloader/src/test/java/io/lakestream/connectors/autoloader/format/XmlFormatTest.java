package io.lakestream.connectors.autoloader.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.connectors.autoloader.AutoLoader;
import io.lakestream.connectors.autoloader.AutoLoaderBuilder;
import io.lakestream.connectors.autoloader.discovery.DiscoveredFile;
import io.lakestream.connectors.autoloader.schema.AutoLoaderSchema;
import io.lakestream.connectors.autoloader.schema.MalformedRecordException;
import io.lakestream.connectors.autoloader.schema.RecordConverter;
import io.lakestream.connectors.autoloader.schema.SchemaEvolutionMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cloudFiles.format=xml}: a row per {@code rowTag} element, attributes with {@code
 * attributePrefix}, text beside attributes in {@code valueTag}, types inferred from text (sampled
 * by {@code samplingRatio}), hints, rescued data for unknown fields and for elements that are not
 * well-formed, and {@code rowTag} required with an error naming it.
 */
class XmlFormatTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String BOOKS =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!-- a <book> in a comment outside the rows is not a row -->
      <catalog xmlns:x="urn:x">
        <book id="1">
          <title>Dune</title>
          <price currency="EUR">9.50</price>
          <author>Frank</author><author>Herbert</author>
          <note/>
        </book>
        <book id="2"><title><![CDATA[<Solaris> & more]]></title><price>12</price></book>
      </catalog>
      """;

  @TempDir Path dir;

  @Test
  void aRowPerRowTagElementWithAttributesValuesAndInferredTypes() throws Exception {
    DiscoveredFile f = write("region=eu/a.xml", BOOKS);
    AutoLoader loader = build(Map.of("cloudFiles.inferColumnTypes", "true"));
    assertThat(loader.schema().ddl())
        .isEqualTo("_id BIGINT, author STRING, note STRING, price STRING, title STRING");
    List<Row> rows = read(loader.schema(), f);
    assertThat(rows).hasSize(2);
    Row dune = rows.get(0);
    assertThat(dune.getField(0)).isEqualTo(1L);
    assertThat(JSON.readTree((String) dune.getField(1)))
        .isEqualTo(JSON.readTree("[\"Frank\",\"Herbert\"]"));
    assertThat(dune.getField(2)).isNull();
    assertThat(JSON.readTree((String) dune.getField(3)))
        .isEqualTo(JSON.readTree("{\"_currency\":\"EUR\",\"_VALUE\":\"9.50\"}"));
    assertThat(dune.getField(4)).isEqualTo("Dune");
    assertThat(dune.getField(5)).isEqualTo("eu");
    assertThat(dune.getField(6)).isNull();
    Row solaris = rows.get(1);
    assertThat(solaris.getField(0)).isEqualTo(2L);
    assertThat(solaris.getField(3)).isEqualTo("12");
    assertThat(solaris.getField(4)).isEqualTo("<Solaris> & more");
  }

  @Test
  void optionsRenameAttributesAndTheValueFieldAndHintsSetTypes() throws Exception {
    DiscoveredFile f =
        write(
            "a.xml",
            "<r><item code=\"A\" qty=\" 3 \">first</item><item code=\"B\" qty=\"4\">second</item>"
                + "</r>");
    AutoLoader loader =
        build(
            Map.of(
                "rowTag", "item",
                "attributePrefix", "attr_",
                "valueTag", "text",
                "cloudFiles.schemaHints", "attr_qty INT"));
    assertThat(loader.schema().ddl()).isEqualTo("attr_code STRING, attr_qty INT, text STRING");
    XmlOptions options = new XmlOptions("item", "attr_", "text", false, false, true, 1);
    assertThat(read(loader.schema(), f, SchemaEvolutionMode.RESCUE, options))
        .containsExactly(Row.of("A", 3, "first", null), Row.of("B", 4, "second", null));
  }

  @Test
  void ignoreNamespaceDropsPrefixesAndExcludeAttributeDropsAttributes() throws Exception {
    String text =
        "<x:feed xmlns:x=\"urn:x\"><book x:id=\"1\" xmlns:b=\"urn:b\"><b:title>t</b:title>"
            + "</book></x:feed>";
    DiscoveredFile f = write("a.xml", text);
    AutoLoader kept = build(Map.of());
    assertThat(kept.schema().ddl()).isEqualTo("_x:id STRING, b:title STRING");
    AutoLoader stripped =
        AutoLoaderBuilder.forPath(dir.resolve("in").toString())
            .name("files")
            .option("cloudFiles.format", "xml")
            .option("rowTag", "book")
            .option("ignoreNamespace", "true")
            .option("excludeAttribute", "true")
            .option("cloudFiles.schemaLocation", dir.resolve("schema-stripped").toString())
            .build();
    assertThat(stripped.schema().ddl()).isEqualTo("title STRING");
    XmlOptions options = new XmlOptions("book", "_", "_VALUE", true, true, true, 1);
    assertThat(read(stripped.schema(), f, SchemaEvolutionMode.NONE, options))
        .containsExactly(Row.of("t", null));
  }

  @Test
  void samplingRatioLooksAtOneRecordInEveryFew() throws Exception {
    StringBuilder xml = new StringBuilder("<rows>");
    for (int i = 1; i <= 10; i++) {
      xml.append("<book><n>").append(i == 2 ? "two" : String.valueOf(i)).append("</n></book>");
    }
    write("a.xml", xml.append("</rows>").toString());
    assertThat(build(Map.of("cloudFiles.inferColumnTypes", "true")).schema().ddl())
        .isEqualTo("n STRING");
    // records 1, 3, 5, 7 and 9: not the second, "two"
    AutoLoader sampled =
        AutoLoaderBuilder.forPath(dir.resolve("in").toString())
            .name("files")
            .option("cloudFiles.format", "xml")
            .option("rowTag", "book")
            .option("cloudFiles.inferColumnTypes", "true")
            .option("samplingRatio", "0.5")
            .option("cloudFiles.schemaLocation", dir.resolve("schema-sampled").toString())
            .build();
    assertThat(sampled.schema().ddl()).isEqualTo("n BIGINT");
  }

  @Test
  void anElementThatIsNotWellFormedOrCutOffIsRescuedAndTheOthersAreRead() throws Exception {
    DiscoveredFile f =
        write(
            "a.xml",
            "<rows>\n<book><title>ok</title></book>\n<book><title>bad</titel></book>\n"
                + "<book><title>also ok</title></book>\n<book><title>cut");
    AutoLoader loader = build(Map.of());
    List<Row> rows = read(loader.schema(), f);
    assertThat(rows).extracting(r -> r.getField(0)).containsExactly("ok", null, "also ok", null);
    JsonNode bad = JSON.readTree((String) rows.get(1).getField(1));
    assertThat(bad.get("_corrupt_record").asText()).isEqualTo("<book><title>bad</titel></book>");
    assertThat(JSON.readTree((String) rows.get(3).getField(1)).get("_corrupt_record").asText())
        .isEqualTo("<book><title>cut");

    AutoLoaderSchema noRescue = new AutoLoaderSchema(loader.schema().columns(), List.of(), false);
    assertThatThrownBy(() -> read(noRescue, f, SchemaEvolutionMode.NONE))
        .isInstanceOf(MalformedRecordException.class)
        .hasMessageContaining("line 3 of");
  }

  @Test
  void xmlNeedsRowTagAndNamesIt() {
    assertThatThrownBy(
            () ->
                AutoLoaderBuilder.forPath(dir.resolve("in").toString())
                    .name("files")
                    .option("cloudFiles.format", "xml")
                    .option("cloudFiles.schemaLocation", dir.resolve("schema").toString())
                    .build())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("rowTag")
        .extracting(e -> ((LakestreamException) e).errorClass())
        .isEqualTo("MISSING_OPTION");
    assertThatThrownBy(
            () ->
                AutoLoaderBuilder.forPath(dir.resolve("in").toString())
                    .name("files")
                    .option("cloudFiles.format", "json")
                    .option("rowTag", "book")
                    .option("cloudFiles.schemaLocation", dir.resolve("schema").toString())
                    .build())
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("rowTag is only used with cloudFiles.format=xml");
    assertThatThrownBy(() -> build(Map.of("rowTag", "<book>")))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("rowTag");
    assertThatThrownBy(() -> build(Map.of("samplingRatio", "0")))
        .isInstanceOf(LakestreamException.class)
        .hasMessageContaining("samplingRatio");
  }

  @Test
  void externalEntitiesAreNotResolved() throws Exception {
    Path secret = dir.resolve("secret.txt");
    Files.writeString(secret, "s3cr3t");
    DiscoveredFile f =
        write(
            "a.xml",
            "<!DOCTYPE book [<!ENTITY x SYSTEM \""
                + secret.toUri()
                + "\">]><book><title>&x;</title></book>\n<book><title>t</title></book>");
    List<Row> rows = read(build(Map.of()).schema(), f);
    assertThat(rows).extracting(r -> r.getField(0)).containsExactly(null, "t");
    assertThat(rows.get(0).toString()).doesNotContain("s3cr3t");
  }

  private DiscoveredFile write(String key, String text) throws Exception {
    Path file = dir.resolve("in").resolve(key);
    Files.createDirectories(file.getParent());
    Files.write(file, text.getBytes(StandardCharsets.UTF_8));
    return new DiscoveredFile(key, Files.size(file), Files.getLastModifiedTime(file).toMillis());
  }

  private AutoLoader build(Map<String, String> more) {
    AutoLoaderBuilder builder =
        AutoLoaderBuilder.forPath(dir.resolve("in").toString())
            .name("files")
            .name("files")
            .option("cloudFiles.format", "xml")
            .option("cloudFiles.schemaLocation", dir.resolve("schema").toString())
            .option("cloudFiles.schemaEvolutionMode", "rescue");
    if (!more.containsKey("rowTag")) {
      builder.option("rowTag", "book");
    }
    more.forEach(builder::option);
    return builder.build();
  }

  private List<Row> read(AutoLoaderSchema schema, DiscoveredFile f) throws Exception {
    return read(schema, f, SchemaEvolutionMode.RESCUE);
  }

  private List<Row> read(AutoLoaderSchema schema, DiscoveredFile f, SchemaEvolutionMode mode)
      throws Exception {
    return read(schema, f, mode, XmlOptions.of("book"));
  }

  private List<Row> read(
      AutoLoaderSchema schema, DiscoveredFile f, SchemaEvolutionMode mode, XmlOptions options)
      throws Exception {
    List<Row> rows = new ArrayList<>();
    new FileRowReader(
            dir.resolve("in").toUri().toString(),
            Map.of(),
            FileFormat.XML,
            new RecordConverter(schema),
            mode,
            null,
            0,
            false,
            false,
            options)
        .read(f, rows::add);
    return rows;
  }
}
