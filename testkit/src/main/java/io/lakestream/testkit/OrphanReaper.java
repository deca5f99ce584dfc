package io.lakestream.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small {@code sh} process that kills a server process and deletes its directory once this JVM is
 * gone, for servers that detach from this JVM (such as PostgreSQL started by {@code pg_ctl}) and
 * would otherwise survive a {@code kill -9} of the test JVM.
 *
 * <p>The shell blocks reading a pipe from this JVM. When this JVM dies for any reason the operating
 * system closes the pipe, and the shell sends SIGQUIT (then, after 5 s, SIGKILL) to the process and
 * deletes the directory. {@link #close()} ends the shell without touching the process: call it
 * after stopping the server normally.
 *
 * <p>Needs {@code /bin/sh} (Linux, macOS). Where it cannot be started, {@link #watch} logs a
 * warning and returns a reaper that does nothing: the server then only dies with a normal JVM exit.
 */
public final class OrphanReaper implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OrphanReaper.class);

  private static final String SCRIPT =
      "while read -r _; do :; done; "
          + "kill -QUIT \"$0\" 2>/dev/null; "
          + "i=0; while kill -0 \"$0\" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; "
          + "kill -KILL \"$0\" 2>/dev/null; "
          + "rm -rf \"$1\"";

  private final Process shell;

  private OrphanReaper(Process shell) {
    this.shell = shell;
  }

  /**
   * Starts a reaper that kills {@code pid} and deletes {@code directory} when this JVM dies.
   *
   * @param pid the process to kill
   * @param directory the directory to delete afterwards
   */
  public static OrphanReaper watch(long pid, Path directory) {
    try {
      Process shell =
          new ProcessBuilder(
                  List.of(
                      "/bin/sh",
                      "-c",
                      SCRIPT,
                      Long.toString(pid),
                      directory.toAbsolutePath().toString()))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      return new OrphanReaper(shell);
    } catch (IOException e) {
      LOG.warn(
          "cannot start /bin/sh to guard pid {}: it will survive a crash of this JVM ({})", pid, e);
      return new OrphanReaper(null);
    }
  }

  /** Whether the reaper is still waiting for this JVM to die. */
  public boolean isWatching() {
    return shell != null && shell.isAlive();
  }

  /** Ends the reaper without killing the process or deleting the directory. Idempotent. */
  @Override
  public void close() {
    if (shell == null) {
      return;
    }
    shell.destroyForcibly();
    try {
      shell.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
