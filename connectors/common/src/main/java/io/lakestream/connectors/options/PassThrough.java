package io.lakestream.connectors.options;

import io.lakestream.api.annotation.PublicEvolving;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A key prefix whose options go, without the prefix, to a library the connector wraps ({@code
 * kafka.*} to the Kafka client), as Spark passes them. The prefix is matched ignoring case; the
 * rest of the key is kept as given. Two restrictions may be declared:
 *
 * <ul>
 *   <li>{@link #refusing}: a setting the connector owns itself is refused with {@link
 *       OptionErrorClass#UNSUPPORTED_OPTION} and what to use instead;
 *   <li>{@link #closedUnder}: under these sub-prefixes (e.g. {@code kafka.ssl.}) only the catalog's
 *       declared options are accepted, so a misspelt password option fails as {@link
 *       OptionErrorClass#UNKNOWN_OPTION} instead of being passed on and ignored.
 * </ul>
 *
 * <p>Immutable.
 */
@PublicEvolving
public final class PassThrough {
  private final String prefix;
  private final String description;
  private final Map<String, String> refused;
  private final List<String> closedFamilies;

  private PassThrough(
      String prefix, String description, Map<String, String> refused, List<String> closed) {
    this.prefix = prefix;
    this.description = description;
    this.refused = Map.copyOf(refused);
    this.closedFamilies = List.copyOf(closed);
  }

  /**
   * Options starting with {@code prefix} (e.g. {@code kafka.}) pass through; {@code description}
   * says where to, e.g. {@code passed to the Kafka consumer, e.g. kafka.max.poll.records}.
   */
  public static PassThrough prefix(String prefix, String description) {
    return new PassThrough(
        Objects.requireNonNull(prefix, "prefix"),
        Objects.requireNonNull(description, "description"),
        Map.of(),
        List.of());
  }

  /**
   * A copy that refuses {@code setting} (the key without the prefix, matched ignoring case); {@code
   * instead} says what to do, e.g. {@code use startingOffsets}.
   */
  public PassThrough refusing(String setting, String instead) {
    Map<String, String> all = new LinkedHashMap<>(refused);
    all.put(setting.toLowerCase(Locale.ROOT), instead);
    return new PassThrough(prefix, description, all, closedFamilies);
  }

  /**
   * A copy under whose {@code familyPrefixes} (full keys, e.g. {@code kafka.ssl.}) only declared
   * options are valid.
   */
  public PassThrough closedUnder(String... familyPrefixes) {
    List<String> all = new ArrayList<>(closedFamilies);
    for (String family : familyPrefixes) {
      all.add(family.toLowerCase(Locale.ROOT));
    }
    return new PassThrough(prefix, description, refused, all);
  }

  /** The prefix, e.g. {@code kafka.}. */
  public String prefix() {
    return prefix;
  }

  /** Where the options go. */
  public String description() {
    return description;
  }

  /** The refused settings (lower case, without the prefix) and what to do instead. */
  public Map<String, String> refusedSettings() {
    return refused;
  }

  /** The sub-prefixes where only declared options are valid (lower case). */
  public List<String> closedFamilies() {
    return closedFamilies;
  }

  boolean matches(String key) {
    return key.regionMatches(true, 0, prefix, 0, prefix.length());
  }

  boolean isClosed(String key) {
    String lower = key.toLowerCase(Locale.ROOT);
    return closedFamilies.stream().anyMatch(lower::startsWith);
  }

  /** Why the setting of {@code key} is refused, or empty. */
  Optional<String> refusal(String key) {
    return Optional.ofNullable(
        refused.get(key.substring(prefix.length()).toLowerCase(Locale.ROOT)));
  }

  /** {@code key} with the prefix as declared and the rest as given. */
  String canonical(String key) {
    return prefix + key.substring(prefix.length());
  }
}
