package io.lakestream.connectors.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lakestream.api.annotation.Internal;
import java.io.Serializable;
import java.util.Objects;

/**
 * A deletion vector descriptor, as the {@code deletionVector} field of an {@code add} or {@code
 * remove} action holds it (the Delta protocol's "Deletion Vector Descriptor"): where the set of
 * deleted row indexes of the action's file is ({@link #storageType}: {@code u} a file beside the
 * table's data named by a Z85-encoded UUID with an optional prefix, {@code p} a file at an absolute
 * path, {@code i} inline, Z85-encoded), and how many rows it deletes.
 *
 * @param storageType {@code u}, {@code p} or {@code i}
 * @param pathOrInlineDv the encoded UUID (with prefix), the absolute path, or the inline data
 * @param offset where the vector starts in its file (at its size field); -1 when absent (inline)
 * @param sizeInBytes the size of the serialized vector, without its size field and checksum
 * @param cardinality the number of rows it deletes
 */
@Internal
public record DeltaDeletionVector(
    String storageType, String pathOrInlineDv, int offset, int sizeInBytes, long cardinality)
    implements Serializable {

  public DeltaDeletionVector {
    Objects.requireNonNull(storageType, "storageType");
    Objects.requireNonNull(pathOrInlineDv, "pathOrInlineDv");
  }

  /** Whether the vector is stored inline in the log. */
  public boolean isInline() {
    return storageType.equals("i");
  }

  /**
   * The identity of the vector among those of its file ({@code <storageType><pathOrInlineDv>}, then
   * {@code @<offset>} when there is one): a file re-added with another vector is another logical
   * file.
   */
  public String uniqueId() {
    return storageType + pathOrInlineDv + (offset >= 0 ? "@" + offset : "");
  }

  /** The descriptor as log JSON (offset left out when absent). */
  public ObjectNode toJson(ObjectNode node) {
    node.put("storageType", storageType);
    node.put("pathOrInlineDv", pathOrInlineDv);
    if (offset >= 0) {
      node.put("offset", offset);
    }
    node.put("sizeInBytes", sizeInBytes);
    node.put("cardinality", cardinality);
    return node;
  }

  /** The descriptor of log JSON written by {@link #toJson}, or null for a missing/null node. */
  public static DeltaDeletionVector fromJson(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    return new DeltaDeletionVector(
        node.path("storageType").asText(),
        node.path("pathOrInlineDv").asText(),
        node.has("offset") && !node.get("offset").isNull() ? node.get("offset").asInt() : -1,
        node.path("sizeInBytes").asInt(),
        node.path("cardinality").asLong());
  }
}
