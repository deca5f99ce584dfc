package io.lakestream.connectors.jdbc;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the JDBC source's password comes from, asked at every connect: a secret file (option {@code
 * passwordFile}) or an environment variable (option {@code passwordEnv}). Only the file's path or
 * the variable's name is serialized, logged or put in messages ({@link #source()}); the password
 * itself never is.
 *
 * <p>(The Lakebase sink's {@code CredentialProvider} has the same contract; connectors do not
 * depend on each other, so the JDBC source declares its own two sources.)
 */
@PublicEvolving
public sealed interface JdbcPassword extends Serializable {

  /**
   * The password, or null when the source holds none (an unset or empty variable).
   *
   * @throws IOException if the secret file cannot be read
   */
  String password() throws IOException;

  /**
   * What to check when the password is missing or refused, e.g. {@code option passwordFile (...)}.
   */
  String source();

  /** The first line of {@code file}, read at every connect. */
  static JdbcPassword fromFile(String file) {
    return new FromFile(file);
  }

  /** The value of environment variable {@code variable}, read at every connect. */
  static JdbcPassword fromEnvironment(String variable) {
    return new FromEnvironment(variable);
  }

  /** A secret file's first line. */
  record FromFile(String file) implements JdbcPassword {
    @Override
    public String password() throws IOException {
      String text = Files.readString(Path.of(file), StandardCharsets.UTF_8);
      int newline = text.indexOf('\n');
      String password = (newline < 0 ? text : text.substring(0, newline)).strip();
      return password.isEmpty() ? null : password;
    }

    @Override
    public String source() {
      return "option passwordFile (" + file + ")";
    }
  }

  /** An environment variable's value. */
  record FromEnvironment(String variable) implements JdbcPassword {
    @Override
    public String password() {
      String value = System.getenv(variable);
      return value == null || value.isEmpty() ? null : value;
    }

    @Override
    public String source() {
      return "option passwordEnv (environment variable " + variable + ")";
    }
  }
}
