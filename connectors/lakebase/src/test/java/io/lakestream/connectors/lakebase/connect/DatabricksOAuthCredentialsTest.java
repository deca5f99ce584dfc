package io.lakestream.connectors.lakebase.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.lakebase.LakebaseSinkException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OAuth client-credentials flow against a loopback token endpoint that checks the request as
 * Databricks' {@code /oidc/v1/token} does: basic authentication, grant type, scope.
 */
class DatabricksOAuthCredentialsTest {
  private static final String CLIENT_ID = "sp-client-7";
  private static final String CLIENT_SECRET = "dose-Secret-" + System.nanoTime();

  @TempDir Path dir;

  /** A token endpoint issuing token-1, token-2, ... valid for 3600 s to the right client only. */
  private static LoopbackHttp tokenEndpoint(AtomicInteger issued) throws IOException {
    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((CLIENT_ID + ":" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
    return new LoopbackHttp(
        request -> {
          if (!request.path().equals("/oidc/v1/token") || !request.method().equals("POST")) {
            return new LoopbackHttp.Answer(404, "{\"error\":\"not_found\"}");
          }
          if (!expected.equals(request.authorization())) {
            return new LoopbackHttp.Answer(
                401,
                "{\"error\":\"invalid_client\",\"error_description\":\"Client authentication"
                    + " failed\"}");
          }
          if (!request.body().contains("grant_type=client_credentials")
              || !request.body().contains("scope=all-apis")
              || !request.contentType().startsWith("application/x-www-form-urlencoded")) {
            return new LoopbackHttp.Answer(400, "{\"error\":\"invalid_request\"}");
          }
          return new LoopbackHttp.Answer(
              200,
              "{\"access_token\":\"token-"
                  + issued.incrementAndGet()
                  + "\",\"token_type\":\"Bearer\",\"scope\":\"all-apis\",\"expires_in\":3600}");
        });
  }

  private static final class MovableClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneId.of("UTC");
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void fetchesWithBasicAuthAndRefreshesBeforeExpiry() throws Exception {
    AtomicInteger issued = new AtomicInteger();
    MovableClock clock = new MovableClock();
    Map<String, String> env =
        Map.of(
            DatabricksOAuthCredentials.CLIENT_ID_ENV, CLIENT_ID,
            DatabricksOAuthCredentials.CLIENT_SECRET_ENV, CLIENT_SECRET);
    try (LoopbackHttp server = tokenEndpoint(issued)) {
      DatabricksOAuthCredentials tokens =
          new DatabricksOAuthCredentials(URI.create(server.url()), null, env::get, clock);
      assertThat(tokens.password()).isEqualTo("token-1");
      assertThat(server.requests).hasSize(1);

      // reused while valid: 54 minutes into a 60-minute token
      clock.now = clock.now.plus(Duration.ofMinutes(54));
      assertThat(tokens.password()).isEqualTo("token-1");
      // refreshed 5 minutes before expiry, before the server would refuse it
      clock.now = clock.now.plus(Duration.ofMinutes(1));
      assertThat(tokens.password()).isEqualTo("token-2");
      // a refused token is fetched again at once
      tokens.invalidate();
      assertThat(tokens.password()).isEqualTo("token-3");
      assertThat(tokens.fetches()).isEqualTo(3);

      String serialized =
          new String(InstantiationUtil.serializeObject(tokens), StandardCharsets.ISO_8859_1);
      assertThat(serialized).doesNotContain(CLIENT_SECRET, "token-3");
      assertThat(tokens.toString() + tokens.source()).doesNotContain(CLIENT_SECRET, "token-");
    }
  }

  @Test
  void readsTheClientFromAFile() throws Exception {
    Path file = dir.resolve("sp.properties");
    Files.writeString(file, "client_id=" + CLIENT_ID + "\nclient_secret=" + CLIENT_SECRET + "\n");
    try (LoopbackHttp server = tokenEndpoint(new AtomicInteger())) {
      DatabricksOAuthCredentials tokens =
          DatabricksOAuthCredentials.of(server.url(), file.toString());
      assertThat(tokens.password()).isEqualTo("token-1");
    }
  }

  @Test
  void aRefusedClientIsAClearErrorWithoutTheSecret() throws Exception {
    Map<String, String> env =
        Map.of(
            DatabricksOAuthCredentials.CLIENT_ID_ENV,
            CLIENT_ID,
            DatabricksOAuthCredentials.CLIENT_SECRET_ENV,
            "wrong-" + CLIENT_SECRET);
    try (LoopbackHttp server = tokenEndpoint(new AtomicInteger())) {
      DatabricksOAuthCredentials tokens =
          new DatabricksOAuthCredentials(
              URI.create(server.url()), null, env::get, Clock.systemUTC());
      assertThatThrownBy(tokens::password)
          .isInstanceOf(LakebaseSinkException.class)
          .hasMessageStartingWith("[JDBC_STREAMING_SINK_AUTHENTICATION_FAILED]")
          .hasMessageContaining("HTTP 401: invalid_client; Client authentication failed")
          .hasMessageContaining("client id " + CLIENT_ID)
          .hasMessageContaining("DATABRICKS_CLIENT_SECRET")
          .hasMessageNotContaining(CLIENT_SECRET);
    }
  }

  @Test
  void noClientSecretNamesWhatToSet() {
    DatabricksOAuthCredentials tokens =
        new DatabricksOAuthCredentials(
            URI.create("http://127.0.0.1:9"), null, name -> null, Clock.systemUTC());
    assertThatThrownBy(tokens::password)
        .isInstanceOf(LakebaseSinkException.class)
        .hasMessageContaining("DATABRICKS_CLIENT_ID")
        .hasMessageContaining("oauthclientfile");
  }
}
