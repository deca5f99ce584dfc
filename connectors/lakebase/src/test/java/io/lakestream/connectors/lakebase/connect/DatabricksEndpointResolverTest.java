package io.lakestream.connectors.lakebase.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lakestream.connectors.lakebase.LakebaseSinkException;
import io.lakestream.connectors.lakebase.PasswordProvider;
import org.junit.jupiter.api.Test;

/** Lakebase endpoint ids resolved through a loopback workspace Postgres API. */
class DatabricksEndpointResolverTest {
  private static final String TOKEN = "workspace-token-" + System.nanoTime();

  private static LoopbackHttp workspace() throws Exception {
    return new LoopbackHttp(
        request -> {
          if (!("Bearer " + TOKEN).equals(request.authorization())) {
            return new LoopbackHttp.Answer(401, "{\"error_code\":\"UNAUTHENTICATED\"}");
          }
          return switch (request.path()) {
            case "/api/2.0/postgres/projects/shop/branches/production/endpoints/primary" ->
                new LoopbackHttp.Answer(
                    200,
                    "{\"name\":\"projects/shop/branches/production/endpoints/primary\",\"status\":"
                        + "{\"endpoint_type\":\"ENDPOINT_TYPE_READ_WRITE\",\"hosts\":{\"host\":"
                        + "\"ep-primary.database.example.com\"}}}");
            case "/api/2.0/postgres/projects/shop/branches/production/endpoints" ->
                new LoopbackHttp.Answer(
                    200,
                    "{\"endpoints\":[{\"status\":{\"endpoint_type\":\"ENDPOINT_TYPE_READ_ONLY\","
                        + "\"hosts\":{\"host\":\"ep-replica.example.com\"}}},{\"status\":"
                        + "{\"endpoint_type\":\"ENDPOINT_TYPE_READ_WRITE\",\"hosts\":{\"host\":"
                        + "\"ep-primary.database.example.com\"}}}]}");
            default ->
                new LoopbackHttp.Answer(
                    404, "{\"error_code\":\"NOT_FOUND\",\"message\":\"Endpoint not found\"}");
          };
        });
  }

  @Test
  void resolvesAnEndpointIdAndABranchsReadWriteEndpoint() throws Exception {
    try (LoopbackHttp api = workspace()) {
      DatabricksEndpointResolver resolver =
          new DatabricksEndpointResolver(api.url(), PasswordProvider.of(TOKEN));
      assertThat(resolver.resolve(LakebaseEndpointId.parse("shop.production.primary").get()))
          .isEqualTo("ep-primary.database.example.com");
      assertThat(resolver.resolve(LakebaseEndpointId.parse("shop.production").get()))
          .isEqualTo("ep-primary.database.example.com");
      assertThatThrownBy(() -> resolver.resolve(LakebaseEndpointId.parse("shop.dev.primary").get()))
          .isInstanceOf(LakebaseSinkException.class)
          .hasMessageStartingWith(
              "[JDBC_STREAMING_SINK_INVALID_OPTIONS] option endpoint 'shop.dev.primary'")
          .hasMessageContaining("HTTP 404")
          .hasMessageContaining("Endpoint not found");
      assertThat(api.requests).allSatisfy(r -> assertThat(r.method()).isEqualTo("GET"));
    }
  }

  @Test
  void aRefusedTokenIsAnAuthenticationErrorWithoutTheToken() throws Exception {
    try (LoopbackHttp api = workspace()) {
      DatabricksEndpointResolver resolver =
          new DatabricksEndpointResolver(api.url(), PasswordProvider.of("stale-" + TOKEN));
      assertThatThrownBy(() -> resolver.resolve(LakebaseEndpointId.parse("shop.production").get()))
          .isInstanceOf(LakebaseSinkException.class)
          .hasMessageStartingWith("[JDBC_STREAMING_SINK_AUTHENTICATION_FAILED]")
          .hasMessageContaining("HTTP 401")
          .hasMessageNotContaining(TOKEN);
    }
  }

  @Test
  void endpointIdsHaveTheSeedsForm() {
    assertThat(LakebaseEndpointId.parse("p1.main.ep-1"))
        .contains(new LakebaseEndpointId("p1", "main", "ep-1"));
    assertThat(LakebaseEndpointId.parse("p1.main"))
        .contains(new LakebaseEndpointId("p1", "main", null));
    assertThat(LakebaseEndpointId.parse("127.0.0.1")).isEmpty();
    assertThat(LakebaseEndpointId.parse("db.example.com:5432")).isEmpty();
    assertThat(LakebaseEndpointId.parse("a.b.c.d")).isEmpty();
    assertThat(LakebaseEndpointId.parse("jdbc:postgresql://h/db")).isEmpty();
  }
}
