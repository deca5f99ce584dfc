package io.lakestream.testkit.debian;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Installs the Debian packages a test needs when they are missing, as CI's fresh machine lacks
 * them: {@code apt-get install -y --no-install-recommends}, then once more after {@code apt-get
 * update} if the first try did not make the program available. Needs root and the Debian mirror.
 */
public final class DebianPackages {
  private static final Duration TIMEOUT = Duration.ofMinutes(10);

  private DebianPackages() {}

  /**
   * Installs {@code packages} unless {@code present} already holds.
   *
   * @param what what the packages provide, for the message
   * @throws IllegalStateException if {@code present} still does not hold after installing, with
   *     apt-get's output
   */
  public static synchronized void ensure(String what, BooleanSupplier present, String... packages) {
    if (present.getAsBoolean()) {
      return;
    }
    List<String> install = new ArrayList<>(List.of("install", "-y", "--no-install-recommends"));
    install.addAll(List.of(packages));
    String out = apt(install.toArray(new String[0]));
    if (!present.getAsBoolean()) {
      out += apt("update") + apt(install.toArray(new String[0]));
    }
    if (!present.getAsBoolean()) {
      throw new IllegalStateException(
          what
              + " is missing and 'apt-get install -y "
              + String.join(" ", packages)
              + "' did not install it (run the tests as root on Debian, or install it first)."
              + " apt-get said:\n"
              + out);
    }
  }

  /** Whether {@code program} is an executable file in a directory of the {@code PATH}. */
  public static boolean onPath(String program) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }

  private static String apt(String... args) {
    List<String> command = new ArrayList<>(List.of("apt-get", "-o", "DPkg::Lock::Timeout=600"));
    command.addAll(List.of(args));
    try {
      Path log = Files.createTempFile("apt-get", ".log");
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
      pb.environment().put("DEBIAN_FRONTEND", "noninteractive");
      Process p = pb.redirectOutput(log.toFile()).start();
      if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
      }
      String text = Files.readString(log);
      Files.deleteIfExists(log);
      return String.join(" ", command) + ":\n" + text;
    } catch (IOException e) {
      return String.join(" ", command) + ": cannot run (" + e.getMessage() + ")\n";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
  }
}
