package io.lakestream.connectors.autoloader.notification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.annotation.Internal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses the body of an S3 event notification as S3 sends it to SQS ({@code
 * {"Records":[{"eventName":"ObjectCreated:Put","eventTime":...,"s3":{"bucket":{"name":...},
 * "object":{"key":...,"size":...}}}]}}), also wrapped in an SNS notification ({@code
 * {"Type":"Notification","Message":"<the S3 event as a string>"}}).
 *
 * <p>Object keys arrive URL-encoded ({@code +} for a space, {@code %3D} for {@code =}) and are
 * decoded. Only {@code ObjectCreated:*} records are returned; S3's {@code s3:TestEvent} (sent when
 * the notification is configured) and other events (e.g. {@code ObjectRemoved:*}) give none.
 *
 * <p>Fails with {@link IllegalArgumentException} when the body is not JSON of that shape; the
 * caller logs and drops such a message (it names no file).
 */
@Internal
public final class S3EventMessage {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** An object created in {@code bucket} under {@code key} (decoded). */
  public record ObjectCreated(String bucket, String key, long size, long eventTimeMillis) {}

  private S3EventMessage() {}

  /** The created objects a message body announces; empty for a test event or other events. */
  public static List<ObjectCreated> parse(String body) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    if ("Notification".equals(root.path("Type").asText()) && root.path("Message").isTextual()) {
      return parse(root.get("Message").asText()); // SNS envelope
    }
    if ("s3:TestEvent".equals(root.path("Event").asText())) {
      return List.of();
    }
    JsonNode records = root.get("Records");
    if (records == null || !records.isArray()) {
      throw new IllegalArgumentException("no Records array and not an s3:TestEvent");
    }
    List<ObjectCreated> created = new ArrayList<>();
    for (JsonNode record : records) {
      if (!record.path("eventName").asText().startsWith("ObjectCreated:")) {
        continue;
      }
      JsonNode s3 = record.path("s3");
      String bucket = s3.path("bucket").path("name").asText(null);
      String key = s3.path("object").path("key").asText(null);
      if (bucket == null || key == null) {
        throw new IllegalArgumentException("an ObjectCreated record without s3.bucket.name/key");
      }
      created.add(
          new ObjectCreated(
              bucket,
              URLDecoder.decode(key, StandardCharsets.UTF_8),
              s3.path("object").path("size").asLong(0),
              eventTime(record.path("eventTime").asText(null))));
    }
    return created;
  }

  private static long eventTime(String text) {
    if (text == null) {
      return System.currentTimeMillis();
    }
    try {
      return Instant.parse(text).toEpochMilli();
    } catch (DateTimeParseException e) {
      return System.currentTimeMillis();
    }
  }
}
