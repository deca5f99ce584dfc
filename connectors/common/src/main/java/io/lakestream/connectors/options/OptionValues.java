package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A connector's options after {@link OptionsCatalog#validate}: every key under its declared
 * spelling, every declared option's value parsed and checked, pass-through keys kept. Immutable.
 */
@PublicEvolving
public final class OptionValues {
  private final OptionsCatalog catalog;
  private final Map<String, String> given;
  private final Map<Option<?>, Object> parsed;

  OptionValues(OptionsCatalog catalog, Map<String, String> given, Map<Option<?>, Object> parsed) {
    this.catalog = catalog;
    this.given = Collections.unmodifiableMap(new LinkedHashMap<>(given));
    this.parsed = Collections.unmodifiableMap(new LinkedHashMap<>(parsed));
  }

  /** The catalog the options were checked against (to raise further option errors). */
  public OptionsCatalog catalog() {
    return catalog;
  }

  /** Whether the user gave {@code option} (under any case or alias). */
  public boolean contains(Option<?> option) {
    return parsed.containsKey(checked(option));
  }

  /** The given value of {@code option}, else its default, else null. */
  @SuppressWarnings("unchecked")
  public <T> T get(Option<T> option) {
    Object value = parsed.get(checked(option));
    return value != null ? (T) value : option.defaultValue();
  }

  /** {@link #get} as an optional: empty when the option is neither given nor has a default. */
  public <T> Optional<T> getOptional(Option<T> option) {
    return Optional.ofNullable(get(option));
  }

  /**
   * The value of {@code option} turned into an {@code R} by {@code converter}, for values that need
   * more than the option's type to be understood (e.g. Kafka's JSON of starting offsets); an {@link
   * IllegalArgumentException} from the converter becomes an {@link
   * OptionErrorClass#INVALID_OPTION_VALUE} error naming the option and carrying the converter's
   * message as the reason.
   *
   * @return the converted value, or null when the option is neither given nor has a default
   */
  public <T, R> R convert(Option<T> option, Function<? super T, ? extends R> converter) {
    T value = get(option);
    if (value == null) {
      return null;
    }
    try {
      return converter.apply(value);
    } catch (IllegalArgumentException e) {
      throw catalog.invalidValue(option, given.get(option.key()), e.getMessage());
    }
  }

  /** The options under {@code prefix} (declared with {@link PassThrough}), without the prefix. */
  public Map<String, String> passThrough(String prefix) {
    Map<String, String> under = new LinkedHashMap<>();
    given.forEach(
        (key, value) -> {
          if (key.startsWith(prefix)) {
            under.put(key.substring(prefix.length()), value);
          }
        });
    return under;
  }

  /** Every given option as text, under its declared key (for libraries that read raw keys). */
  public Map<String, String> toMap() {
    return given;
  }

  private Option<?> checked(Option<?> option) {
    if (!catalog.options().contains(Objects.requireNonNull(option, "option"))) {
      throw new IllegalArgumentException(
          "option " + option.key() + " is not in the " + catalog.title() + " catalog");
    }
    return option;
  }
}
