package io.lakestream.connectors.lakebase.connect;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.CredentialProvider;
import io.lakestream.connectors.lakebase.LakebaseSinkException;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * Databricks OAuth machine-to-machine tokens for Lakebase (option {@code
 * credential=databricks-oauth}): a service principal's client id and secret are exchanged at the
 * workspace's OIDC token endpoint ({@code POST <workspacehost>/oidc/v1/token}, {@code
 * grant_type=client_credentials}, {@code scope=all-apis}, the client id and secret as HTTP basic
 * authentication) for an access token, which is the PostgreSQL password (Lakebase accepts workspace
 * OAuth tokens as passwords) and the bearer token of the workspace API.
 *
 * <p>The client id and secret come from a file (option {@code oauthclientfile}: properties {@code
 * client_id} and {@code client_secret}) or the environment variables {@value #CLIENT_ID_ENV} and
 * {@value #CLIENT_SECRET_ENV}, read on the JVM that fetches the token, at every fetch (so a rotated
 * secret is picked up); they are never serialized. A token is kept and reused until a fifth of its
 * lifetime ({@code expires_in}, at most 5 minutes) is left, then fetched again; {@link
 * #invalidate()} forgets it.
 *
 * <p>Failures: the token endpoint unreachable, 429 or 5xx: {@link IOException} (retried by the
 * sink). Refused client credentials (401/400/403), missing client id or secret, or a malformed
 * answer: {@link LakebaseSinkException} of class {@code JDBC_STREAMING_SINK_AUTHENTICATION_FAILED}
 * naming the option or variable to check. No message, log line or {@code toString} holds the secret
 * or the token.
 */
@PublicEvolving
public final class DatabricksOAuthCredentials implements CredentialProvider {
  private static final long serialVersionUID = 1L;

  /**
   * Environment variable with the service principal's client id (Databricks' unified auth name).
   */
  public static final String CLIENT_ID_ENV = "DATABRICKS_CLIENT_ID";

  /** Environment variable with the service principal's OAuth secret. */
  public static final String CLIENT_SECRET_ENV = "DATABRICKS_CLIENT_SECRET";

  private static final Duration MAX_MARGIN = Duration.ofMinutes(5);

  private final URI workspace;
  private final String clientFile;
  private transient Clock clock;
  private transient UnaryOperator<String> environment;
  private transient String token;
  private transient Instant refreshAt;
  private transient long fetches;

  DatabricksOAuthCredentials(
      URI workspace, String clientFile, UnaryOperator<String> environment, Clock clock) {
    this.workspace = workspace;
    this.clientFile = clientFile;
    this.environment = environment;
    this.clock = clock;
  }

  /**
   * Tokens of workspace {@code workspaceHost} for the client id and secret of {@code clientFile},
   * or of the environment when it is null.
   *
   * @throws IllegalArgumentException if {@code workspaceHost} is not a workspace URL
   */
  public static DatabricksOAuthCredentials of(String workspaceHost, String clientFile) {
    return new DatabricksOAuthCredentials(
        WorkspaceApi.workspace(workspaceHost), clientFile, System::getenv, Clock.systemUTC());
  }

  /** The workspace whose token endpoint is asked. */
  public URI workspace() {
    return workspace;
  }

  @Override
  public synchronized String password() throws IOException {
    Instant now = clock().instant();
    if (token == null || !now.isBefore(refreshAt)) {
      fetch(now);
    }
    return token;
  }

  @Override
  public synchronized void invalidate() {
    token = null;
  }

  /** Tokens fetched so far by this instance. */
  public synchronized long fetches() {
    return fetches;
  }

  @Override
  public String source() {
    return "option credential=databricks-oauth (token endpoint "
        + workspace
        + "/oidc/v1/token, client id and secret from "
        + clientSource()
        + ")";
  }

  private void fetch(Instant now) throws IOException {
    String[] client = client();
    String basic =
        Base64.getEncoder()
            .encodeToString((client[0] + ":" + client[1]).getBytes(StandardCharsets.UTF_8));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(workspace + "/oidc/v1/token"))
            .header("Authorization", "Basic " + basic)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "grant_type=client_credentials&scope=all-apis"));
    JsonNode answer;
    try {
      answer =
          WorkspaceApi.send(request, "the OIDC token endpoint " + workspace + "/oidc/v1/token");
    } catch (WorkspaceApi.HttpStatusException e) {
      throw refused(e.getMessage() + " for client id " + client[0]);
    }
    JsonNode accessToken = answer.get("access_token");
    JsonNode expiresIn = answer.get("expires_in");
    if (accessToken == null
        || !accessToken.isTextual()
        || expiresIn == null
        || !expiresIn.canConvertToLong()) {
      throw refused(
          "the OIDC token endpoint "
              + workspace
              + "/oidc/v1/token answered without access_token and expires_in");
    }
    Duration lifetime = Duration.ofSeconds(Math.max(1, expiresIn.asLong()));
    Duration margin = lifetime.dividedBy(5);
    token = accessToken.asText();
    refreshAt = now.plus(lifetime).minus(margin.compareTo(MAX_MARGIN) > 0 ? MAX_MARGIN : margin);
    fetches++;
  }

  /** The client id and secret, from the file or the environment. */
  private String[] client() throws IOException {
    String id;
    String secret;
    if (clientFile != null) {
      Properties properties = new Properties();
      try (Reader in = Files.newBufferedReader(Path.of(clientFile), StandardCharsets.UTF_8)) {
        properties.load(in);
      }
      id = properties.getProperty("client_id");
      secret = properties.getProperty("client_secret");
    } else {
      id = environment().apply(CLIENT_ID_ENV);
      secret = environment().apply(CLIENT_SECRET_ENV);
    }
    if (id == null || id.isBlank() || secret == null || secret.isBlank()) {
      throw refused(
          "no client id and secret in "
              + clientSource()
              + "; set both (or option oauthclientfile to a file with client_id= and"
              + " client_secret= lines)");
    }
    return new String[] {id.strip(), secret.strip()};
  }

  private String clientSource() {
    return clientFile != null
        ? "option oauthclientfile (" + clientFile + ", properties client_id and client_secret)"
        : "env " + CLIENT_ID_ENV + " and " + CLIENT_SECRET_ENV;
  }

  private LakebaseSinkException refused(String why) {
    return new LakebaseSinkException(
        LakebaseSinkException.AUTHENTICATION_FAILED,
        "cannot get a Databricks OAuth token: "
            + why
            + ". Check option workspacehost and the service principal's client id and secret ("
            + clientSource()
            + ").");
  }

  private Clock clock() {
    if (clock == null) {
      clock = Clock.systemUTC();
    }
    return clock;
  }

  private UnaryOperator<String> environment() {
    if (environment == null) {
      environment = System::getenv;
    }
    return environment;
  }

  @Override
  public String toString() {
    return "DatabricksOAuthCredentials[" + workspace + ", client from " + clientSource() + "]";
  }
}
