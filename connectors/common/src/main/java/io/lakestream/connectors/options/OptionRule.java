package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A check across several options of one catalog, run by {@link OptionsCatalog#validate} after every
 * value has parsed. It fails through {@link OptionValues#catalog()} (so the connector's exception
 * type and error class apply): {@link OptionErrorClass#CONFLICTING_OPTIONS} for options that do not
 * go together, {@link OptionErrorClass#MISSING_OPTION} for one another option needs. Its {@link
 * #description()} is listed in the options reference.
 */
@PublicEvolving
public interface OptionRule {
  /** What the rule requires, for the reference, e.g. {@code Exactly one of `a`, `b`.} */
  String description();

  /** Checks {@code values}; throws the catalog's exception if they break the rule. */
  void check(OptionValues values);

  /** A rule checked by {@code check}, which throws through {@code values.catalog()}. */
  static OptionRule of(String description, Consumer<OptionValues> check) {
    Objects.requireNonNull(check, "check");
    return new OptionRule() {
      @Override
      public String description() {
        return description;
      }

      @Override
      public void check(OptionValues values) {
        check.accept(values);
      }
    };
  }

  /** Exactly one of {@code options} must be given. */
  static OptionRule exactlyOneOf(Option<?>... options) {
    List<Option<?>> all = List.of(options);
    return of(
        "Exactly one of " + codes(all) + ".",
        values -> {
          long given = all.stream().filter(values::contains).count();
          if (given != 1) {
            throw values
                .catalog()
                .failure(
                    given == 0
                        ? OptionErrorClass.MISSING_OPTION
                        : OptionErrorClass.CONFLICTING_OPTIONS,
                    null,
                    "needs exactly one of the options "
                        + keys(all, ", ")
                        + "; "
                        + (given == 0 ? "none was given" : given + " were given"));
          }
        });
  }

  /** At most one of {@code options} may be given. */
  static OptionRule atMostOneOf(Option<?>... options) {
    List<Option<?>> all = List.of(options);
    return of(
        "At most one of " + codes(all) + ".",
        values -> {
          List<Option<?>> given = all.stream().filter(values::contains).toList();
          if (given.size() > 1) {
            throw values
                .catalog()
                .conflict("options " + keys(given, " and ") + " cannot both be set: choose one");
          }
        });
  }

  /** {@code options} are given together or not at all; {@code neither} says what "none" means. */
  static OptionRule together(String neither, Option<?>... options) {
    List<Option<?>> all = List.of(options);
    return of(
        "Give "
            + OptionType.listed(all.stream().map(o -> "`" + o.key() + "`").toList(), " and ")
            + " together, or "
            + (all.size() == 2 ? "neither " : "none of them ")
            + neither
            + ".",
        values -> {
          long given = all.stream().filter(values::contains).count();
          if (given != 0 && given != all.size()) {
            throw values
                .catalog()
                .conflict(
                    "options "
                        + keys(all, " and ")
                        + " go together: give both, or neither "
                        + neither);
          }
        });
  }

  /**
   * {@code dependents} are only used when {@code condition} is {@code value}; {@code when} says so
   * in words, e.g. {@code in file notification mode}.
   */
  static <T> OptionRule onlyWhen(
      Option<T> condition, T value, String when, Option<?>... dependents) {
    List<Option<?>> all = List.of(dependents);
    String setting = condition.key() + "=" + condition.type().format(value);
    return of(
        codes(all) + (all.size() == 1 ? " is" : " are") + " only used with `" + setting + "`.",
        values -> {
          if (Objects.equals(values.get(condition), value)) {
            return;
          }
          for (Option<?> dependent : all) {
            if (values.contains(dependent)) {
              throw values
                  .catalog()
                  .failure(
                      OptionErrorClass.CONFLICTING_OPTIONS,
                      dependent.key(),
                      "option "
                          + dependent.key()
                          + " is only used "
                          + when
                          + ": set "
                          + setting
                          + " or remove it");
            }
          }
        });
  }

  /** {@code required} must be given (and not blank) when {@code condition} is {@code value}. */
  static <T> OptionRule requiredWhen(Option<T> condition, T value, Option<?> required) {
    String setting = condition.key() + "=" + condition.type().format(value);
    return of(
        "`" + required.key() + "` is required with `" + setting + "`.",
        values -> {
          Object given = values.get(required);
          boolean missing = given == null || (given instanceof String text && text.isBlank());
          if (Objects.equals(values.get(condition), value) && missing) {
            throw values
                .catalog()
                .failure(
                    OptionErrorClass.MISSING_OPTION,
                    required.key(),
                    "option "
                        + setting
                        + " needs "
                        + required.key()
                        + ": "
                        + required.description());
          }
        });
  }

  /** When both are given, {@code lower} must not exceed {@code upper}. */
  static <N extends Number> OptionRule notAbove(Option<N> lower, Option<N> upper) {
    return of(
        "`" + lower.key() + "` must not exceed `" + upper.key() + "`.",
        values -> {
          if (values.contains(lower)
              && values.contains(upper)
              && values.get(lower).longValue() > values.get(upper).longValue()) {
            throw values
                .catalog()
                .conflict(
                    "option "
                        + lower.key()
                        + " ("
                        + values.get(lower)
                        + ") must not exceed "
                        + upper.key()
                        + " ("
                        + values.get(upper)
                        + ")");
          }
        });
  }

  private static String keys(List<Option<?>> options, String separator) {
    return options.stream().map(Option::key).collect(Collectors.joining(separator));
  }

  private static String codes(List<Option<?>> options) {
    return options.stream().map(o -> "`" + o.key() + "`").collect(Collectors.joining(", "));
  }
}
