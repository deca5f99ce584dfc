package io.lakestream.runtime;

import io.lakestream.api.annotation.PublicEvolving;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether this process runs on Amazon Managed Service for Apache Flink (MSF), where the service
 * owns checkpoint storage and restores its own snapshots. Decided, in this order, by:
 *
 * <ol>
 *   <li>the switch: system property {@value #SWITCH_PROPERTY} or environment variable {@value
 *       #SWITCH_ENV} set to {@code true} or {@code false} (the property wins);
 *   <li>otherwise, whether the service's runtime properties file exists: {@value
 *       #DEFAULT_PROPERTIES_FILE}, or the path in system property {@value #PROPERTIES_PROPERTY} or
 *       environment variable {@value #PROPERTIES_ENV} (for tests and emulations).
 * </ol>
 *
 * A switch with another value than {@code true} or {@code false} fails with an {@link
 * IllegalArgumentException} naming it. Queries started while this is active keep Flink's checkpoint
 * storage and restore as the service configured them (see {@link
 * StreamingQueryBuilder#serviceOwnedSnapshots}).
 */
@PublicEvolving
public final class ManagedService {
  /** System property that forces MSF mode on ({@code true}) or off ({@code false}). */
  public static final String SWITCH_PROPERTY = "lakestream.msf";

  /** Environment variable that forces MSF mode on or off; the system property wins. */
  public static final String SWITCH_ENV = "LAKESTREAM_MSF";

  /** System property naming the runtime properties file instead of the service's path. */
  public static final String PROPERTIES_PROPERTY = "lakestream.msf.properties";

  /** Environment variable naming the runtime properties file; the system property wins. */
  public static final String PROPERTIES_ENV = "LAKESTREAM_MSF_PROPERTIES";

  /**
   * Where MSF puts the application's runtime properties (the path aws-kinesisanalytics-runtime's
   * {@code KinesisAnalyticsRuntime.getApplicationProperties()} reads).
   */
  public static final String DEFAULT_PROPERTIES_FILE = "/etc/flink/application_properties.json";

  private ManagedService() {}

  /**
   * Whether MSF mode is on in this process.
   *
   * @throws IllegalArgumentException if the switch is set to something else than true or false
   */
  public static boolean active() {
    Optional<Boolean> forced = switchValue();
    return forced.orElseGet(() -> Files.isRegularFile(propertiesFile()));
  }

  /** The switch, if set: {@value #SWITCH_PROPERTY}, else {@value #SWITCH_ENV}. */
  public static Optional<Boolean> switchValue() {
    String value = setting(SWITCH_PROPERTY, SWITCH_ENV);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    String normalized = value.trim().toLowerCase(Locale.ROOT);
    if (!normalized.equals("true") && !normalized.equals("false")) {
      throw new IllegalArgumentException(
          SWITCH_PROPERTY
              + " / "
              + SWITCH_ENV
              + " must be true or false (Managed Service for Apache Flink mode), was '"
              + value
              + "'");
    }
    return Optional.of(Boolean.valueOf(normalized));
  }

  /** The runtime properties file: the configured path, else {@value #DEFAULT_PROPERTIES_FILE}. */
  public static Path propertiesFile() {
    String configured = setting(PROPERTIES_PROPERTY, PROPERTIES_ENV);
    return Path.of(
        configured == null || configured.isBlank() ? DEFAULT_PROPERTIES_FILE : configured);
  }

  private static String setting(String property, String env) {
    String value = System.getProperty(property);
    return value != null ? value : System.getenv(env);
  }
}
