package io.lakestream.connectors.lakebase.connect;

import com.fasterxml.jackson.databind.JsonNode;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.connectors.lakebase.CredentialProvider;
import io.lakestream.connectors.lakebase.LakebaseSinkException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves Lakebase endpoint ids through a Databricks workspace's Postgres API (Lakebase
 * autoscaling): {@code GET
 * <workspacehost>/api/2.0/postgres/projects/<p>/branches/<b>/endpoints/<e>} and its {@code
 * status.hosts.host}; without an endpoint id, {@code GET .../branches/<b>/endpoints} and the host
 * of the branch's single endpoint whose {@code endpoint_type} is {@code ENDPOINT_TYPE_READ_WRITE}.
 * Paths and fields as documented in the Databricks REST reference (Postgres API v1, "Endpoint"); a
 * single page of the list is read (a branch has one read-write endpoint). The bearer token is the
 * sink's own credential (with {@code credential=databricks-oauth}, a workspace OAuth token of scope
 * {@code all-apis}).
 *
 * <p>Failures: unreachable API, 429 or 5xx: {@link IOException}. 401/403: {@link
 * LakebaseSinkException} of class {@code JDBC_STREAMING_SINK_AUTHENTICATION_FAILED}. An unknown
 * endpoint, no host yet, or not exactly one read-write endpoint: {@code
 * JDBC_STREAMING_SINK_INVALID_OPTIONS} naming option {@code endpoint}.
 */
@PublicEvolving
public final class DatabricksEndpointResolver implements EndpointResolver {
  private static final long serialVersionUID = 1L;
  private static final String READ_WRITE = "ENDPOINT_TYPE_READ_WRITE";

  private final URI workspace;
  private final CredentialProvider bearer;

  /**
   * @param workspaceHost option workspacehost
   * @param bearer gives the bearer token of the API calls
   * @throws IllegalArgumentException if {@code workspaceHost} is not a workspace URL
   */
  public DatabricksEndpointResolver(String workspaceHost, CredentialProvider bearer) {
    this.workspace = WorkspaceApi.workspace(workspaceHost);
    this.bearer = bearer;
  }

  @Override
  public String resolve(LakebaseEndpointId id) throws IOException {
    if (id.endpoint() != null) {
      JsonNode endpoint = get(id.endpointName(), id);
      String host = host(endpoint);
      if (host == null) {
        throw invalid(id, "the endpoint has no host yet (status.hosts.host is empty)");
      }
      return host;
    }
    JsonNode list = get(id.branchName() + "/endpoints", id);
    List<String> hosts = new ArrayList<>();
    for (JsonNode endpoint : list.path("endpoints")) {
      String type =
          endpoint
              .path("status")
              .path("endpoint_type")
              .asText(endpoint.path("spec").path("endpoint_type").asText(""));
      if (READ_WRITE.equals(type) && host(endpoint) != null) {
        hosts.add(host(endpoint));
      }
    }
    if (hosts.size() != 1) {
      throw invalid(
          id,
          "branch "
              + id.branchName()
              + " has "
              + hosts.size()
              + " read-write endpoints with a host; name one as <project-id>.<branch-id>.<endpoint-id>");
    }
    return hosts.get(0);
  }

  private JsonNode get(String path, LakebaseEndpointId id) throws IOException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(workspace + "/api/2.0/postgres/" + path))
            .header("Authorization", "Bearer " + bearer.password())
            .GET();
    try {
      return WorkspaceApi.send(
          request, "the workspace API " + workspace + "/api/2.0/postgres/" + path);
    } catch (WorkspaceApi.HttpStatusException e) {
      if (e.status() == 401 || e.status() == 403) {
        bearer.invalidate();
        throw new LakebaseSinkException(
            LakebaseSinkException.AUTHENTICATION_FAILED,
            e.getMessage()
                + " while resolving Lakebase endpoint "
                + id
                + "; check "
                + bearer.source()
                + " and that the principal may read the Lakebase project");
      }
      throw invalid(id, e.getMessage());
    }
  }

  private static String host(JsonNode endpoint) {
    String host = endpoint.path("status").path("hosts").path("host").asText("");
    return host.isBlank() ? null : host;
  }

  private LakebaseSinkException invalid(LakebaseEndpointId id, String why) {
    return new LakebaseSinkException(
        LakebaseSinkException.INVALID_OPTIONS,
        "option endpoint '"
            + id
            + "' (a Lakebase endpoint id, resolved through workspace "
            + workspace
            + "): "
            + why);
  }

  @Override
  public String toString() {
    return "DatabricksEndpointResolver[" + workspace + "]";
  }
}
