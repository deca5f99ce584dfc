package io.lakestream.pipelines.errors;

import static org.assertj.core.api.Assertions.assertThat;

import io.lakestream.api.error.ErrorClass;
import io.lakestream.connectors.ConnectorErrorClass;
import io.lakestream.connectors.autoloader.AutoLoaderErrorClass;
import io.lakestream.connectors.avro.AvroErrorClass;
import io.lakestream.connectors.delta.DeltaErrorClass;
import io.lakestream.connectors.jdbc.JdbcErrorClass;
import io.lakestream.connectors.kafka.KafkaErrorClass;
import io.lakestream.connectors.kinesis.KinesisErrorClass;
import io.lakestream.connectors.lakebase.LakebaseErrorClass;
import io.lakestream.connectors.options.OptionErrorClass;
import io.lakestream.connectors.schema.SchemaErrorClass;
import io.lakestream.operators.OperatorErrorClass;
import io.lakestream.pipelines.PipelineErrorClass;
import io.lakestream.runtime.QueryErrorClass;
import io.lakestream.sql.SqlErrorClass;
import io.lakestream.state.StateErrorClass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/errors.md} lists every error class (module, enum, name, one-line meaning from the
 * constant's javadoc) and is committed; this test fails when it differs from what the enums give
 * now, or when an {@link ErrorClass} enum in the sources is missing from {@link #ENUMS}, or a name
 * is declared twice. Run it with {@code -Dlakestream.errors.regenerate=true} to rewrite the page,
 * then commit it.
 */
class ErrorClassesReferenceTest {
  /** Every error class enum, in module order; a new module adds its enum here. */
  static final List<Class<? extends Enum<? extends ErrorClass>>> ENUMS =
      List.of(
          StateErrorClass.class,
          OperatorErrorClass.class,
          QueryErrorClass.class,
          ConnectorErrorClass.class,
          OptionErrorClass.class,
          SchemaErrorClass.class,
          AvroErrorClass.class,
          DeltaErrorClass.class,
          KafkaErrorClass.class,
          AutoLoaderErrorClass.class,
          LakebaseErrorClass.class,
          JdbcErrorClass.class,
          KinesisErrorClass.class,
          SqlErrorClass.class,
          PipelineErrorClass.class);

  private static final String REGENERATE = "lakestream.errors.regenerate";
  private static final Pattern CONSTANT =
      Pattern.compile(
          "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*([A-Z][A-Z0-9_]*)\\s*[,;(\\n}]", Pattern.DOTALL);

  @Test
  void theCommittedPageIsUpToDate() throws IOException {
    Path page = root().resolve("docs/errors.md");
    String generated = render();
    if (Boolean.getBoolean(REGENERATE)) {
      Files.writeString(page, generated);
      return;
    }
    String how =
        " Regenerate it with: mvn -pl pipelines test -Dtest=ErrorClassesReferenceTest -D"
            + REGENERATE
            + "=true (then commit docs/errors.md)";
    assertThat(Files.exists(page)).as(page + " is missing." + how).isTrue();
    assertThat(Files.readString(page)).as(page + " is out of date." + how).isEqualTo(generated);
  }

  @Test
  void everyErrorClassEnumIsListedAndNamesAreUnique() throws IOException {
    Set<String> declared;
    try (Stream<Path> files = Files.walk(root())) {
      declared =
          files
              .filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/"))
              .filter(ErrorClassesReferenceTest::declaresErrorClassEnum)
              .map(p -> p.getFileName().toString().replace(".java", ""))
              .collect(Collectors.toCollection(TreeSet::new));
    }
    assertThat(declared)
        .as("ErrorClass enums in the sources; add new ones to ENUMS")
        .isEqualTo(
            ENUMS.stream()
                .map(Class::getSimpleName)
                .collect(Collectors.toCollection(TreeSet::new)));
    Map<String, String> seen = new HashMap<>();
    for (Class<? extends Enum<? extends ErrorClass>> type : ENUMS) {
      for (Enum<?> constant : type.getEnumConstants()) {
        assertThat(seen.put(constant.name(), type.getSimpleName()))
            .as(constant.name() + " is declared twice")
            .isNull();
        assertThat(constant.name()).matches("[A-Z][A-Z0-9_]*");
      }
    }
  }

  static String render() throws IOException {
    StringBuilder out =
        new StringBuilder()
            .append("# Error classes\n\n")
            .append(
                "Every error lakestream raises on purpose is an `io.lakestream.api.error."
                    + "LakestreamException` (unchecked) whose message starts with its error class"
                    + " in brackets, e.g. `[QUERY_ALREADY_RUNNING] Query 'orders' is already"
                    + " running ...`. Match on `errorClass()` (or, for a failed query,"
                    + " `StreamingQueryException.errorClass()`), not on the message text.\n\n")
            .append(
                "Generated from the error class enums by `ErrorClassesReferenceTest`"
                    + " (pipelines); do not edit by hand.\n");
    for (Class<? extends Enum<? extends ErrorClass>> type : ENUMS) {
      Path source = source(type);
      Map<String, String> meanings = meanings(Files.readString(source));
      String module = root().relativize(source).toString().split("/src/main/")[0];
      out.append("\n## ")
          .append(module)
          .append(": `")
          .append(type.getName())
          .append("`\n\n| Error class | Meaning |\n| --- | --- |\n");
      for (Enum<?> constant : type.getEnumConstants()) {
        String meaning = meanings.get(constant.name());
        assertThat(meaning)
            .as(type.getSimpleName() + "." + constant.name() + " needs a javadoc")
            .isNotBlank();
        out.append("| `")
            .append(constant.name())
            .append("` | ")
            .append(meaning.replace("|", "\\|"))
            .append(" |\n");
      }
    }
    return out.toString();
  }

  /** The constants' javadoc, as one line without tags' braces. */
  private static Map<String, String> meanings(String source) {
    Map<String, String> out = new HashMap<>();
    Matcher m = CONSTANT.matcher(source);
    while (m.find()) {
      String text =
          m.group(1)
              .replaceAll("(?m)^\\s*\\*\\s?", " ")
              .replaceAll("\\s+", " ")
              .replaceAll("\\{@(?:code|link)\\s+#?([^}]*)}", "`$1`")
              .trim();
      out.put(m.group(2), text);
    }
    return out;
  }

  private static boolean declaresErrorClassEnum(Path file) {
    try {
      return Pattern.compile("\\benum \\w+ implements ErrorClass\\b")
          .matcher(Files.readString(file))
          .find();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path source(Class<?> type) throws IOException {
    String relative = type.getName().replace('.', '/') + ".java";
    List<Path> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root())) {
      files.filter(p -> p.toString().endsWith("/src/main/java/" + relative)).forEach(found::add);
    }
    assertThat(found).as("the source of " + type.getName()).hasSize(1);
    return found.get(0);
  }

  /** The checkout root (tests run in the module's directory). */
  private static Path root() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("connectors")) && Files.exists(dir.resolve("pom.xml"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no checkout root above " + Path.of("").toAbsolutePath());
  }
}
