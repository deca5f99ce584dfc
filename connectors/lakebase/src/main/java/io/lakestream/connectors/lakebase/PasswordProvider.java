package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link CredentialProvider} written as a lambda, and the two password sources of option {@code
 * credential=password}: a fixed password (option {@code password}) and a secret file (option {@code
 * passwordfile}). The sink asks again on every (re)connect, so a provider of short-lived tokens may
 * return a fresh one each time. Implementations must be serializable (the sink travels to the
 * TaskManagers) and must not put the password in {@link Object#toString()}.
 *
 * <p>Failures: an {@link IOException} is treated as transient: the sink retries the connection with
 * backoff, then fails the task with it.
 */
@PublicEvolving
@FunctionalInterface
public interface PasswordProvider extends CredentialProvider {

  /** The password (or token) for the next connection; {@code null} for none. */
  @Override
  String password() throws IOException;

  /** A fixed password (option {@code password}). */
  static PasswordProvider of(String password) {
    return new Fixed(password);
  }

  /**
   * The first line of {@code file}, read again on every connection (option {@code passwordfile});
   * for a token that an agent refreshes in place.
   */
  static PasswordProvider fromFile(String file) {
    return new FromFile(file);
  }

  /** A fixed password; its {@code toString} hides it. */
  final class Fixed implements PasswordProvider {
    private static final long serialVersionUID = 1L;
    private final String password;

    private Fixed(String password) {
      this.password = password;
    }

    @Override
    public String password() {
      return password;
    }

    @Override
    public String toString() {
      return "PasswordProvider[fixed, *****]";
    }

    @Override
    public String source() {
      return "option password";
    }
  }

  /** Reads the password from a file at every call. */
  final class FromFile implements PasswordProvider {
    private static final long serialVersionUID = 1L;
    private final String file;

    private FromFile(String file) {
      this.file = file;
    }

    @Override
    public String password() throws IOException {
      String text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      int newline = text.indexOf('\n');
      return (newline < 0 ? text : text.substring(0, newline)).strip();
    }

    @Override
    public String toString() {
      return "PasswordProvider[file " + file + "]";
    }

    @Override
    public String source() {
      return "option passwordfile (" + file + ")";
    }
  }
}
