package io.lakestream.connectors.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OptionsReferenceTest {
  @Test
  void aPageListsEveryOptionWithTypeDefaultAllowedValuesAndRules() {
    String page = OptionsReference.render(OptionsCatalogTest.CATALOG);
    assertThat(page)
        .startsWith(OptionsReference.GENERATED + "\n\n# Test source options\n")
        .contains("| Option | Type | Default | Required | Allowed values | Description |")
        .contains("| `maxFilesPerTrigger` | int | `1000` | no | must be >= 1 | Files per epoch. |")
        .contains("| `pollInterval` | duration | `1 s` | no |  |  |")
        .contains("| `dbtable` | string | (none) | yes |  | The table. |")
        .contains("| `password` | string (secret) | (none) | no | must be long |  |")
        .contains("| `mode` | choice | (none) | no | OFF, MOVE |  |")
        .contains("| `moveDestination` (alias `dest`) | string |")
        .contains("- `kafka.*`: passed to the client.")
        .contains("  - `kafka.auto.offset.reset` is refused: use startingOffsets.")
        .contains("- `moveDestination` is only used with `mode=MOVE`.")
        .contains("- `minRows` must not exceed `maxRows`.")
        .endsWith("\n");
  }

  @Test
  void tableCellsEscapePipesAndTags() {
    OptionsCatalog catalog =
        OptionsCatalog.builder("x", "X")
            .options(Option.key("a").stringType().withDescription("a | b at sqs.<region>.com"))
            .build();
    assertThat(OptionsReference.render(catalog)).contains("a \\| b at sqs.&lt;region>.com |");
  }

  @Test
  void theIndexLinksEveryPage() {
    assertThat(OptionsReference.renderIndex(List.of(OptionsCatalogTest.CATALOG)))
        .contains("| [Test source](test.md) | 10 options, `kafka.*` pass-through |")
        .contains("| `UNKNOWN_OPTION` |");
  }
}
