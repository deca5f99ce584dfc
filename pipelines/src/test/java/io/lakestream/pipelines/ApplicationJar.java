package io.lakestream.pipelines;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

/**
 * The application jar {@code mvn package} built ({@code target/lakestream.jar}, or the system
 * property {@code lakestream.applicationJar} that failsafe sets), for the tests that hand it to
 * Flink's {@code flink run}. Fails the test (an {@link AssertionError}) when it was not built.
 */
public final class ApplicationJar {
  private ApplicationJar() {}

  /** The jar's absolute path. */
  public static String path() {
    Path jar = Path.of(System.getProperty("lakestream.applicationJar", "target/lakestream.jar"));
    assertThat(jar).as("application jar (built by mvn package)").isRegularFile();
    return jar.toAbsolutePath().toString();
  }
}
