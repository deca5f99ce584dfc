package io.lakestream.connectors.avro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.annotation.Internal;
import io.lakestream.api.error.LakestreamException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Fetches writer schemas from a Confluent-compatible schema registry by id ({@code GET
 * /schemas/ids/{id}}, answer {@code {"schema": "<Avro schema JSON>"}}), once per id (ids are
 * immutable in the registry). Not thread-safe: one per decoder.
 *
 * <p>Failures: a 404 or an answer that is not an Avro schema is the record's fault ({@link
 * AvroDecodeException}); no answer, or another status, is {@code AVRO_SCHEMA_REGISTRY_UNAVAILABLE}
 * (the task fails and retries). Messages name the registry URL, which must not carry credentials.
 */
@Internal
final class SchemaRegistryClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final String baseUrl;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final Map<Integer, Schema> byId = new HashMap<>();

  SchemaRegistryClient(String baseUrl) {
    this.baseUrl = baseUrl.replaceAll("/+$", "");
  }

  /** The schema registered under {@code id}. */
  Schema schema(int id) throws AvroDecodeException {
    Schema known = byId.get(id);
    if (known == null) {
      known = fetch(id);
      byId.put(id, known);
    }
    return known;
  }

  private Schema fetch(int id) throws AvroDecodeException {
    String url = baseUrl + "/schemas/ids/" + id;
    HttpResponse<String> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(URI.create(url))
                  .timeout(TIMEOUT)
                  .header("Accept", "application/vnd.schemaregistry.v1+json")
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw unavailable(url, e.toString(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable(url, "interrupted", e);
    }
    if (response.statusCode() == 404) {
      throw new AvroDecodeException(
          "schema id " + id + " is not in the schema registry " + baseUrl);
    }
    if (response.statusCode() != 200) {
      throw unavailable(url, "HTTP " + response.statusCode() + ": " + response.body(), null);
    }
    try {
      JsonNode body = JSON.readTree(response.body());
      String type = body.path("schemaType").asText("AVRO");
      if (!type.equals("AVRO")) {
        throw new AvroDecodeException(
            "schema id " + id + " in " + baseUrl + " is a " + type + " schema, not Avro");
      }
      return new Schema.Parser().parse(body.path("schema").asText());
    } catch (IOException | SchemaParseException e) {
      throw new AvroDecodeException(
          "schema id " + id + " in " + baseUrl + " is not an Avro schema: " + e.getMessage(), e);
    }
  }

  private static LakestreamException unavailable(String url, String why, Throwable cause) {
    return new LakestreamException(
        AvroErrorClass.AVRO_SCHEMA_REGISTRY_UNAVAILABLE,
        "from_avro could not fetch " + url + ": " + why + ". Check the schema registry URL.",
        cause);
  }
}
