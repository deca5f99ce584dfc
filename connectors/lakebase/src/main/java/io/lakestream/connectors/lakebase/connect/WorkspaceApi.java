package io.lakestream.connectors.lakebase.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * Calls to a Databricks workspace's HTTP APIs: the OIDC token endpoint and the REST API. Answers
 * with the parsed JSON body of a 2xx; throws an {@link IOException} for what may pass (connection
 * errors, 429, 5xx) and {@link HttpStatusException} for the other statuses, with the server's
 * {@code error}/{@code error_description}/{@code message} fields but never a request header or the
 * raw body (which could echo a token).
 */
@Internal
public final class WorkspaceApi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private WorkspaceApi() {}

  /** A 4xx other than 429 from a workspace API. */
  public static final class HttpStatusException extends IOException {
    private static final long serialVersionUID = 1L;
    private final int status;

    HttpStatusException(int status, String message) {
      super(message);
      this.status = status;
    }

    /** The HTTP status. */
    public int status() {
      return status;
    }
  }

  /**
   * The workspace's base URI from option workspacehost: {@code https://} is added to a bare host; a
   * trailing slash is dropped.
   *
   * @throws IllegalArgumentException if it is not a URI with a host
   */
  public static URI workspace(String host) {
    String text = host.trim();
    if (!text.contains("://")) {
      text = "https://" + text;
    }
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    URI uri = URI.create(text);
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    if (uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
      throw new IllegalArgumentException(
          "must be a workspace URL such as https://<workspace-host>");
    }
    return uri;
  }

  /** Sends {@code request} and parses the JSON answer, see the class comment. */
  static JsonNode send(HttpRequest.Builder request, String what) throws IOException {
    HttpResponse<String> response;
    try {
      response =
          CLIENT.send(
              request.timeout(TIMEOUT).header("Accept", "application/json").build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(what + " was interrupted", e);
    }
    int status = response.statusCode();
    if (status / 100 == 2) {
      try {
        return JSON.readTree(response.body());
      } catch (IOException e) {
        throw new IOException(what + " answered HTTP " + status + " with a body that is not JSON");
      }
    }
    String message = what + " answered HTTP " + status + errorFields(response.body());
    if (status == 429 || status >= 500) {
      throw new IOException(message);
    }
    throw new HttpStatusException(status, message);
  }

  /**
   * The error fields of a JSON error body, e.g. {@code : invalid_client (Client authentication
   * failed)}.
   */
  private static String errorFields(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      StringBuilder text = new StringBuilder();
      for (String field : new String[] {"error", "error_code", "error_description", "message"}) {
        JsonNode value = node == null ? null : node.get(field);
        if (value != null && value.isTextual()) {
          text.append(text.length() == 0 ? ": " : "; ").append(clip(value.asText()));
        }
      }
      return text.toString();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private static String clip(String text) {
    return text.length() > 200 ? text.substring(0, 200) + "..." : text;
  }
}
