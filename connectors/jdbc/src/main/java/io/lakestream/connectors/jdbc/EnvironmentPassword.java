package io.lakestream.connectors.jdbc;

import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.CredentialProvider;

/**
 * A password read from an environment variable of the process that opens the connection (option
 * {@code passwordEnv}), at every connect. Only the variable's name is serialized, logged or put in
 * messages. An unset or empty variable is {@link JdbcErrorClass#JDBC_SOURCE_CREDENTIAL_MISSING}
 * when the connection is opened.
 */
@PublicEvolving
public final class EnvironmentPassword implements CredentialProvider {
  private static final long serialVersionUID = 1L;
  private final String variable;

  public EnvironmentPassword(String variable) {
    this.variable = variable;
  }

  /** The variable's value, or null when it is unset or empty. */
  @Override
  public String password() {
    String value = System.getenv(variable);
    return value == null || value.isEmpty() ? null : value;
  }

  @Override
  public String source() {
    return "option passwordEnv (environment variable " + variable + ")";
  }

  @Override
  public String toString() {
    return "EnvironmentPassword[" + variable + "]";
  }
}
