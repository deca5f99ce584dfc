package io.lakestream.pipelines.msf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lakestream.api.annotation.PublicEvolving;
import io.lakestream.api.error.LakestreamException;
import io.lakestream.pipelines.PipelineErrorClass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The runtime properties Managed Service for Apache Flink gives an application: a JSON array of
 * property groups, {@code [{"PropertyGroupId": "...", "PropertyMap": {"key": "value", ...}}, ...]},
 * in {@code /etc/flink/application_properties.json} on the service. Read with Jackson (the format
 * aws-kinesisanalytics-runtime's {@code KinesisAnalyticsRuntime} reads, without that dependency).
 *
 * <p>Guarantees: groups keep their order; every value is text (JSON numbers and booleans are taken
 * as their text). A missing or unreadable file, a group without {@code PropertyGroupId}, a group
 * given twice, or a value that is an object or array fails with a {@link LakestreamException}
 * ({@code MSF_INVALID_PROPERTIES}) naming the file and what is wrong. Immutable.
 */
@PublicEvolving
public final class MsfProperties {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Path file;
  private final Map<String, Map<String, String>> groups;

  private MsfProperties(Path file, Map<String, Map<String, String>> groups) {
    this.file = file;
    this.groups = Collections.unmodifiableMap(groups);
  }

  /**
   * Reads {@code file}.
   *
   * @throws LakestreamException if it is missing or not property groups
   */
  public static MsfProperties read(Path file) {
    JsonNode root;
    try {
      root = MAPPER.readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      throw invalid(
          file,
          "does not exist. On Managed Service for Apache Flink, add the property groups"
              + " (Runtime properties) to the application; see docs/deploy/msf.md");
    } catch (JsonProcessingException e) {
      throw invalid(file, "is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw invalid(file, "cannot be read: " + e);
    }
    return new MsfProperties(file, groups(file, root));
  }

  private static Map<String, Map<String, String>> groups(Path file, JsonNode root) {
    if (root == null || !root.isArray()) {
      throw invalid(file, "must hold a JSON array of property groups");
    }
    Map<String, Map<String, String>> groups = new LinkedHashMap<>();
    for (JsonNode group : root) {
      String id = group.path("PropertyGroupId").asText("");
      if (id.isBlank()) {
        throw invalid(file, "has a property group without PropertyGroupId: " + group);
      }
      if (groups.put(id, map(file, id, group.path("PropertyMap"))) != null) {
        throw invalid(file, "has property group '" + id + "' twice: give it once");
      }
    }
    return groups;
  }

  private static Map<String, String> map(Path file, String id, JsonNode properties) {
    Map<String, String> map = new LinkedHashMap<>();
    if (properties.isMissingNode() || properties.isNull()) {
      return Collections.unmodifiableMap(map);
    }
    if (!properties.isObject()) {
      throw invalid(file, "property group '" + id + "' has a PropertyMap that is no object");
    }
    properties
        .fields()
        .forEachRemaining(
            entry -> {
              if (entry.getValue().isContainerNode()) {
                throw invalid(
                    file, "property " + id + "." + entry.getKey() + " must be text, was " + entry);
              }
              map.put(entry.getKey(), entry.getValue().asText());
            });
    return Collections.unmodifiableMap(map);
  }

  /** The file the properties came from. */
  public Path file() {
    return file;
  }

  /** The ids of the groups, in file order. */
  public Set<String> groupIds() {
    return groups.keySet();
  }

  /** The properties of group {@code id}, if it is there. */
  public Optional<Map<String, String>> group(String id) {
    return Optional.ofNullable(groups.get(id));
  }

  static LakestreamException invalid(Path file, String what) {
    return new LakestreamException(
        PipelineErrorClass.MSF_INVALID_PROPERTIES, "Runtime properties file " + file + " " + what);
  }
}
