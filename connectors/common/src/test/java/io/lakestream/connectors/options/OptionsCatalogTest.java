package io.lakestream.connectors.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.api.error.LakestreamException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OptionsCatalogTest {
  static final Option<Integer> MAX_FILES =
      Option.key("maxFilesPerTrigger")
          .intType()
          .defaultValue(1000)
          .atLeast(1)
          .withDescription("Files per epoch.");
  static final Option<Duration> POLL =
      Option.key("pollInterval").durationType().defaultValue(Duration.ofSeconds(1));
  static final Option<String> TABLE =
      Option.key("dbtable").stringType().required().withDescription("The table.");
  static final Option<String> PASSWORD =
      Option.key("password").stringType().secret().check(p -> p.length() > 3, "be long");
  static final Option<String> MODE = Option.key("mode").choiceType("OFF", "MOVE");
  static final Option<String> DEST = Option.key("moveDestination").stringType().withAliases("dest");
  static final Option<Long> LOW = Option.key("minRows").longType();
  static final Option<Long> HIGH = Option.key("maxRows").longType();
  static final Option<String> SERVERS = Option.key("kafka.bootstrap.servers").stringType();
  static final Option<String> TRUSTSTORE = Option.key("kafka.ssl.truststore.location").stringType();

  static final OptionsCatalog CATALOG =
      OptionsCatalog.builder("test", "Test source")
          .options(MAX_FILES, POLL, TABLE, PASSWORD, MODE, DEST, LOW, HIGH, SERVERS, TRUSTSTORE)
          .passThrough(
              PassThrough.prefix("kafka.", "passed to the client")
                  .refusing("auto.offset.reset", "use startingOffsets")
                  .closedUnder("kafka.ssl."))
          .rule(OptionRule.onlyWhen(MODE, "MOVE", "with mode=MOVE", DEST))
          .rule(OptionRule.requiredWhen(MODE, "MOVE", DEST))
          .rule(OptionRule.notAbove(LOW, HIGH))
          .build();

  private static Map<String, String> options(String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("dbtable", "t");
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put(keyValues[i], keyValues[i + 1]);
    }
    return map;
  }

  private static String errorClassOf(Runnable run) {
    try {
      run.run();
    } catch (LakestreamException e) {
      return e.errorClass();
    }
    throw new AssertionError("no LakestreamException");
  }

  @Test
  void keysIgnoreCaseAndAliasesAndDefaultsApply() {
    OptionValues values =
        CATALOG.validate(options("MAXFILESPERTRIGGER", "5", "Mode", "move", "DEST", "/d"));
    assertThat(values.get(MAX_FILES)).isEqualTo(5);
    assertThat(values.get(MODE)).isEqualTo("MOVE");
    assertThat(values.get(DEST)).isEqualTo("/d");
    assertThat(values.get(POLL)).isEqualTo(Duration.ofSeconds(1));
    assertThat(values.contains(POLL)).isFalse();
    assertThat(values.getOptional(LOW)).isEmpty();
    assertThat(values.toMap())
        .containsOnlyKeys("dbtable", "maxFilesPerTrigger", "mode", "moveDestination");
  }

  @Test
  void anUnknownKeyNamesTheClosestValidOneAndListsAll() {
    assertThatThrownBy(() -> CATALOG.validate(options("maxFilesPerTriger", "5"), "for /in"))
        .isInstanceOfSatisfying(
            InvalidOptionException.class,
            e -> {
              assertThat(e.errorClass()).isEqualTo("UNKNOWN_OPTION");
              assertThat(e.option()).isEqualTo("maxFilesPerTriger");
            })
        .hasMessageStartingWith(
            "[UNKNOWN_OPTION] Unknown Test source option 'maxFilesPerTriger' (did you mean"
                + " 'maxFilesPerTrigger'?) for /in. Valid options: [dbtable, kafka.bootstrap.servers,")
        .hasMessageContaining("and kafka.* (passed to the client)")
        .hasMessageEndingWith("unknown keys given: [maxFilesPerTriger]");
    assertThatThrownBy(() -> CATALOG.validate(options("zzz", "1", "MAXROW", "2")))
        .hasMessageContaining(
            "Unknown Test source options 'MAXROW' (did you mean 'maxRows'?) and 'zzz'.");
    assertThatThrownBy(() -> CATALOG.validate(options("bootstrap.servers", "h:1")))
        .hasMessageContaining("(did you mean 'kafka.bootstrap.servers'?)");
  }

  @Test
  void passThroughKeysKeepTheirRestButNotOwnedOrClosedOnes() {
    OptionValues values =
        CATALOG.validate(
            options("KAFKA.max.poll.records", "5", "kafka.SSL.truststore.location", "/ts"));
    assertThat(values.passThrough("kafka."))
        .containsEntry("max.poll.records", "5")
        .containsEntry("ssl.truststore.location", "/ts");
    assertThat(values.get(TRUSTSTORE)).isEqualTo("/ts");
    assertThatThrownBy(() -> CATALOG.validate(options("kafka.Auto.Offset.Reset", "earliest")))
        .hasMessage(
            "[UNSUPPORTED_OPTION] Test source option kafka.Auto.Offset.Reset is not supported:"
                + " use startingOffsets");
    assertThatThrownBy(() -> CATALOG.validate(options("kafka.ssl.truststore.locaton", "/ts")))
        .hasMessageContaining("(did you mean 'kafka.ssl.truststore.location'?)");
  }

  @Test
  void badValuesNameTheOptionWhatIsAllowedAndHideSecrets() {
    assertThatThrownBy(() -> CATALOG.validate(options("maxFilesPerTrigger", "many")))
        .hasMessage(
            "[INVALID_OPTION_VALUE] Test source option maxFilesPerTrigger='many' is invalid: must"
                + " be a whole number (an int). Files per epoch.");
    assertThatThrownBy(() -> CATALOG.validate(options("maxFilesPerTrigger", "0")))
        .hasMessage(
            "[INVALID_OPTION_VALUE] Test source option maxFilesPerTrigger must be >= 1, was '0'");
    assertThatThrownBy(() -> CATALOG.validate(options("mode", "copy")))
        .hasMessage(
            "[INVALID_OPTION_VALUE] Test source option mode='copy' is not supported: mode must be"
                + " OFF or MOVE");
    assertThatThrownBy(() -> CATALOG.validate(options("password", "abc")))
        .hasMessageContaining("password must be long, was '<redacted>'")
        .hasMessageNotContaining("abc");
  }

  @Test
  void requiredDuplicatesAndRulesFailWithTheirErrorClass() {
    assertThatThrownBy(() -> CATALOG.validate(Map.of(), "for /in"))
        .hasMessage("[MISSING_OPTION] Test source option dbtable is required for /in: The table.");
    assertThat(errorClassOf(() -> CATALOG.validate(Map.of("dbtable", " "))))
        .isEqualTo("MISSING_OPTION");
    assertThatThrownBy(
            () -> CATALOG.validate(options("pollInterval", "1 s", "POLLINTERVAL", "2 s")))
        .hasMessageContaining("pollInterval is given twice, as 'POLLINTERVAL' and 'pollInterval'");
    assertThatThrownBy(() -> CATALOG.validate(options("dest", "/d")))
        .hasMessage(
            "[CONFLICTING_OPTIONS] Test source option moveDestination is only used with mode=MOVE:"
                + " set mode=MOVE or remove it");
    assertThat(errorClassOf(() -> CATALOG.validate(options("mode", "MOVE"))))
        .isEqualTo("MISSING_OPTION");
    assertThatThrownBy(() -> CATALOG.validate(options("minRows", "20", "maxRows", "10")))
        .hasMessageContaining("option minRows (20) must not exceed maxRows (10)");
  }

  @Test
  void aConnectorMayUseItsOwnExceptionAndErrorClass() {
    class SinkException extends LakestreamException {
      SinkException(String message) {
        super(() -> "JDBC_STREAMING_SINK_INVALID_OPTIONS", message);
      }
    }
    OptionsCatalog own =
        OptionsCatalog.builder("own", "Own sink")
            .options(TABLE)
            .failures(problem -> new SinkException(problem.message()))
            .build();
    assertThatThrownBy(() -> own.validate(Map.of("dbtabel", "t")))
        .isInstanceOf(SinkException.class)
        .hasMessageStartingWith(
            "[JDBC_STREAMING_SINK_INVALID_OPTIONS] Unknown Own sink option 'dbtabel' (did you mean"
                + " 'dbtable'?)");
  }

  @Test
  void convertTurnsAConverterFailureIntoAnInvalidValue() {
    OptionValues values = CATALOG.validate(options("moveDestination", "x", "mode", "MOVE"));
    assertThat(values.convert(DEST, String::length)).isEqualTo(1);
    assertThatThrownBy(
            () ->
                values.convert(
                    DEST,
                    d -> {
                      throw new IllegalArgumentException("must be absolute");
                    }))
        .hasMessage(
            "[INVALID_OPTION_VALUE] Test source option moveDestination='x' is invalid: must be"
                + " absolute");
  }

  @Test
  void aNameDeclaredTwiceIsRefused() {
    assertThatThrownBy(
            () ->
                OptionsCatalog.builder("dup", "Dup")
                    .options(TABLE, Option.key("DBTable").stringType())
                    .build())
        .hasMessageContaining("declares option name 'DBTable' twice");
  }

  @Test
  void closestKeyNeedsAPlausibleTypo() {
    assertThat(ClosestKey.distance("startingversion", "startingversoin")).isEqualTo(1);
    assertThat(CATALOG.closestKey("overwriteSchema")).isEmpty();
    assertThat(CATALOG.closestKey("POLLINTERVALL")).contains("pollInterval");
  }
}
