package io.lakestream.testkit.browser;

import io.lakestream.testkit.debian.DebianPackages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Debian's chromium, headless, for tests that load a page in a real browser. {@link #installed()}
 * finds {@code /usr/bin/chromium} or installs it ({@code apt-get install -y chromium}, as CI does
 * on a fresh Debian machine as root); if it can neither find nor install it, it throws: a browser
 * test fails, it never skips. Each load is a new browser process with a new profile, no sandbox, no
 * GPU, no background networking, and every request that would leave loopback sent to an {@link
 * OutboundGuard} ({@link #outboundRequests()}).
 *
 * <p>Debian's chromium calls a few Google services by itself whatever the flags, on {@code
 * about:blank} too (its updater's time check and update query, connections to the accounts service,
 * to www.google.com and to the device registration service android.clients.google.com, seen with
 * Debian's chromium 150): those exact requests, and connections that sent nothing, are the
 * browser's own ({@link #browserOwnRequests()}); every other request counts as the page's.
 */
public final class HeadlessChromium implements AutoCloseable {
  private static final Path BINARY = Path.of("/usr/bin/chromium");
  private static final Duration LOAD_TIMEOUT = Duration.ofSeconds(120);
  private static final Pattern BROWSER_OWN =
      Pattern.compile(
          "|GET http://clients2\\.google\\.com/time/1/current\\?.*"
              + "|POST http://update\\.googleapis\\.com/service/update2/json\\?.*"
              + "|CONNECT (update\\.googleapis\\.com|accounts\\.google\\.com|www\\.google\\.com"
              + "|android\\.clients\\.google\\.com):443 HTTP/1\\.1");

  private final OutboundGuard guard = new OutboundGuard();

  private HeadlessChromium() {}

  /**
   * A browser ready to use, installing Debian's chromium first when it is missing.
   *
   * @throws IllegalStateException if chromium is missing and cannot be installed (not root, no
   *     apt-get, no network to the Debian mirror), with apt-get's output
   */
  public static synchronized HeadlessChromium installed() {
    DebianPackages.ensure(
        BINARY + " (the tests need a real browser)", () -> Files.isExecutable(BINARY), "chromium");
    return new HeadlessChromium();
  }

  /**
   * Loads {@code url}, lets its scripts run for {@code virtualTime} of virtual time (fetches to its
   * server included) and returns the DOM then, serialized.
   */
  public String dumpDom(String url, Duration virtualTime) {
    return run(url, virtualTime, List.of("--dump-dom"));
  }

  /**
   * Loads {@code url} as {@link #dumpDom} does, in the same browser run saves a PNG screenshot of a
   * {@code width} x {@code height} window to {@code png}, and returns the DOM.
   */
  public String dumpDomAndScreenshot(
      String url, Duration virtualTime, Path png, int width, int height) {
    try {
      Files.createDirectories(png.toAbsolutePath().getParent());
      Files.deleteIfExists(png);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String dom =
        run(
            url,
            virtualTime,
            List.of(
                "--dump-dom",
                "--screenshot=" + png.toAbsolutePath(),
                "--window-size=" + width + "," + height));
    if (!Files.isRegularFile(png)) {
      throw new IllegalStateException("chromium saved no screenshot at " + png);
    }
    return dom;
  }

  /**
   * The request lines of the requests the browser tried to send off loopback so far, but for the
   * browser's own ({@link #browserOwnRequests()}).
   */
  public List<String> outboundRequests() {
    return guard.requests().stream().filter(r -> !BROWSER_OWN.matcher(r).matches()).toList();
  }

  /** The requests off loopback that chromium makes by itself, whatever page it loads. */
  public List<String> browserOwnRequests() {
    return guard.requests().stream().filter(r -> BROWSER_OWN.matcher(r).matches()).toList();
  }

  /**
   * Runs chromium on {@code url}; a run that does not finish in {@link #LOAD_TIMEOUT} (seen once on
   * a machine loaded far beyond its cores: chromium's virtual time stalled) is tried once more in a
   * fresh profile before the test fails.
   */
  private String run(String url, Duration virtualTime, List<String> action) {
    try {
      return runOnce(url, virtualTime, action);
    } catch (LoadTimeout e) {
      System.err.println("HeadlessChromium: " + e.getMessage() + "; trying once more");
      return runOnce(url, virtualTime, action);
    }
  }

  /** Chromium did not finish in time. */
  private static final class LoadTimeout extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    LoadTimeout(String message) {
      super(message);
    }
  }

  private String runOnce(String url, Duration virtualTime, List<String> action) {
    Path profile = null;
    try {
      profile = Files.createTempDirectory("chromium-profile");
      List<String> command =
          new ArrayList<>(
              List.of(
                  BINARY.toString(),
                  "--headless",
                  "--no-sandbox",
                  "--disable-gpu",
                  "--disable-quic",
                  "--no-first-run",
                  "--disable-background-networking",
                  "--disable-component-update",
                  "--disable-sync",
                  "--disable-dev-shm-usage",
                  "--user-data-dir=" + profile,
                  "--proxy-server=" + guard.proxy(),
                  "--virtual-time-budget=" + virtualTime.toMillis()));
      command.addAll(action);
      command.add(url);
      Path stdout = profile.resolve("stdout");
      Path stderr = profile.resolve("stderr");
      Process p =
          new ProcessBuilder(command)
              .redirectOutput(stdout.toFile())
              .redirectError(stderr.toFile())
              .start();
      if (!p.waitFor(LOAD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor();
        throw new LoadTimeout(
            "chromium did not finish loading " + url + " in " + LOAD_TIMEOUT + ": " + tail(stderr));
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            "chromium exited with " + p.exitValue() + " loading " + url + ": " + tail(stderr));
      }
      return Files.readString(stdout, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + BINARY, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while chromium loaded " + url, e);
    } finally {
      delete(profile);
    }
  }

  private static String tail(Path log) throws IOException {
    String text = Files.readString(log, StandardCharsets.UTF_8);
    return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
  }

  private static void delete(Path dir) {
    if (dir == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // a temp directory left behind
    }
  }

  @Override
  public void close() throws IOException {
    guard.close();
  }
}
