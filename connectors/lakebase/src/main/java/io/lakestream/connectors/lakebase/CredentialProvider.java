package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.PublicEvolving;
import java.io.IOException;
import java.io.Serializable;

/**
 * Supplies the password of each new PostgreSQL connection: a fixed password, a secret file, or a
 * short-lived token (Databricks OAuth for Lakebase, an Amazon RDS/Aurora IAM token). Chosen by
 * option {@code credential} ({@link LakebaseSinkOptions#CREDENTIAL}) or set in code on {@link
 * LakebaseSinkBuilder#credentialProvider}.
 *
 * <p>Guarantees asked of implementations: {@link #password()} returns a credential valid for at
 * least the time a connection takes to open (a token provider refreshes before expiry); it is
 * serializable (the sink travels to the TaskManagers) and carries no secret in its serialized form
 * when it can fetch it again; neither {@link #toString()} nor any message it throws or logs
 * contains the secret.
 *
 * <p>Failures: an {@link IOException} is transient (the endpoint's server unreachable, a 5xx): the
 * sink retries the connection with backoff, then fails the task with it. A credential that can
 * never work (refused client secret, missing configuration) is a {@link LakebaseSinkException} of
 * class {@code JDBC_STREAMING_SINK_AUTHENTICATION_FAILED} and fails at once. When the database
 * refuses a password (SQLState 28P01 or 28000) the sink calls {@link #invalidate()} and reconnects
 * once; a second refusal fails with that error class.
 */
@PublicEvolving
public interface CredentialProvider extends Serializable {

  /** The password (or token) for the next connection; {@code null} for none. */
  String password() throws IOException;

  /**
   * The database refused the last password: the next {@link #password()} must not return a cached
   * one. Fixed passwords and files have nothing cached; the default does nothing.
   */
  default void invalidate() {}

  /**
   * What to check when the credential is refused, for error messages, e.g. {@code option
   * credential=databricks-oauth (client id from env DATABRICKS_CLIENT_ID)}; never a secret.
   */
  default String source() {
    return "the CredentialProvider set on the builder (" + getClass().getSimpleName() + ")";
  }
}
