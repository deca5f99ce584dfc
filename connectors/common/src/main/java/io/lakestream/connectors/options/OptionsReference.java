package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Renders option catalogs as the Markdown reference kept under {@code docs/options/}: one file per
 * catalog ({@link #render}, a table of every option's name, type, default, whether it is required,
 * allowed values and description, then its pass-through prefixes and rules) and an index ({@link
 * #renderIndex}). The output depends only on the catalogs, so a test can compare it with the
 * committed files.
 */
@PublicEvolving
public final class OptionsReference {
  /** The line every generated file starts with. */
  public static final String GENERATED =
      "<!-- Generated from the options catalogs (io.lakestream.connectors.options); do not edit."
          + " Regenerate: mvn -pl pipelines test -Dtest=OptionsReferenceTest"
          + " -Dlakestream.options.regenerate=true -->";

  private OptionsReference() {}

  /** The reference page of {@code catalog}. */
  public static String render(OptionsCatalog catalog) {
    List<String> lines = new ArrayList<>();
    lines.add(GENERATED);
    lines.add("");
    lines.add("# " + catalog.title() + " options");
    lines.add("");
    if (!catalog.summary().isEmpty()) {
      lines.add(catalog.summary());
      lines.add("");
    }
    lines.add(
        "Keys ignore case. An unknown key fails with `UNKNOWN_OPTION` naming the closest valid"
            + " key; see [the index](README.md) for the error classes.");
    lines.add("");
    lines.add("| Option | Type | Default | Required | Allowed values | Description |");
    lines.add("|---|---|---|---|---|---|");
    catalog.options().forEach(option -> lines.add(row(option)));
    passThroughSection(catalog, lines);
    rulesSection(catalog, lines);
    return String.join("\n", lines) + "\n";
  }

  /** The index page listing {@code catalogs}, each linked to its {@code <id>.md}. */
  public static String renderIndex(List<OptionsCatalog> catalogs) {
    List<String> lines = new ArrayList<>();
    lines.add(GENERATED);
    lines.add("");
    lines.add("# Connector options");
    lines.add("");
    lines.add(
        "Every connector declares its options once, in an options catalog"
            + " (`io.lakestream.connectors.options.OptionsCatalog`), and checks them with the"
            + " same validator: keys ignore case (as Spark's do), an unknown key fails naming the"
            + " closest valid one and listing all of them, every value is parsed to its type and"
            + " checked against its allowed values or range, and cross-field rules run last.");
    lines.add("");
    lines.add("| Connector | Options |");
    lines.add("|---|---|");
    for (OptionsCatalog catalog : catalogs) {
      lines.add(
          "| ["
              + catalog.title()
              + "]("
              + catalog.id()
              + ".md) | "
              + catalog.options().size()
              + (catalog.options().size() == 1 ? " option" : " options")
              + catalog.passThroughs().stream()
                  .map(p -> ", `" + p.prefix() + "*` pass-through")
                  .collect(Collectors.joining())
              + " |");
    }
    lines.add("");
    lines.add("## Errors");
    lines.add("");
    lines.add(
        "Option errors are `io.lakestream.api.error.LakestreamException`s whose message starts"
            + " with the error class in brackets and names the option:");
    lines.add("");
    lines.add("| Error class | When |");
    lines.add("|---|---|");
    lines.add(
        "| `UNKNOWN_OPTION` | A key is no option of the connector (the closest one is named). |");
    lines.add(
        "| `INVALID_OPTION_VALUE` | A value does not parse to the option's type or is not allowed."
            + " |");
    lines.add("| `MISSING_OPTION` | A required option is not given or blank. |");
    lines.add(
        "| `CONFLICTING_OPTIONS` | Options that do not go together, or one key given twice in"
            + " different case. |");
    lines.add(
        "| `UNSUPPORTED_OPTION` | A pass-through setting the connector owns (the message says what"
            + " to use instead). |");
    lines.add("");
    lines.add(
        "The Lakebase sink keeps Databricks' error class for all of them:"
            + " `JDBC_STREAMING_SINK_INVALID_OPTIONS`.");
    return String.join("\n", lines) + "\n";
  }

  private static String row(Option<?> option) {
    String name = "`" + option.key() + "`";
    if (!option.aliases().isEmpty()) {
      name +=
          " (alias "
              + option.aliases().stream().map(a -> "`" + a + "`").collect(Collectors.joining(", "))
              + ")";
    }
    return "| "
        + String.join(
            " | ",
            name,
            option.type().name() + (option.isSecret() ? " (secret)" : ""),
            option.defaultText().map(d -> "`" + d + "`").orElse("(none)"),
            option.isRequired() ? "yes" : "no",
            escape(allowed(option)),
            escape(option.description()))
        + " |";
  }

  private static String allowed(Option<?> option) {
    List<String> parts = new ArrayList<>();
    if (!option.type().choices().isEmpty()) {
      parts.add(option.type().choices().stream().collect(Collectors.joining(", ")));
    }
    option.requirements().forEach(r -> parts.add("must " + r));
    return String.join("; ", parts);
  }

  private static void passThroughSection(OptionsCatalog catalog, List<String> lines) {
    if (catalog.passThroughs().isEmpty()) {
      return;
    }
    lines.add("");
    lines.add("## Pass-through options");
    lines.add("");
    for (PassThrough p : catalog.passThroughs()) {
      StringBuilder line =
          new StringBuilder("- `")
              .append(p.prefix())
              .append("*`: ")
              .append(escape(p.description()));
      line.append(". The prefix ignores case; the rest of the key is passed as written.");
      if (!p.closedFamilies().isEmpty()) {
        line.append(" Under ")
            .append(
                p.closedFamilies().stream()
                    .map(f -> "`" + f + "`")
                    .collect(Collectors.joining(", ")))
            .append(" only the options in the table are accepted.");
      }
      lines.add(line.toString());
      p.refusedSettings().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(
              e ->
                  lines.add(
                      "  - `"
                          + p.prefix()
                          + e.getKey()
                          + "` is refused: "
                          + escape(e.getValue())
                          + "."));
    }
  }

  private static void rulesSection(OptionsCatalog catalog, List<String> lines) {
    if (catalog.rules().isEmpty()) {
      return;
    }
    lines.add("");
    lines.add("## Rules");
    lines.add("");
    catalog.rules().forEach(rule -> lines.add("- " + rule.description()));
  }

  private static String escape(String text) {
    return text.replace("|", "\\|").replace("<", "&lt;").replace("\n", " ");
  }
}
