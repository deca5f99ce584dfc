package io.lakestream.connectors.delta.kernel;

import io.delta.kernel.internal.deletionvectors.Base85Codec;
import io.lakestream.api.annotation.Internal;
import java.util.UUID;

/**
 * The Z85 (Base85) encoding deletion vector descriptors use for their UUIDs and inline data. Wraps
 * Kernel's {@code deletionvectors.Base85Codec}, which Kernel's own deletion vector reader uses, so
 * what lakestream writes decodes exactly as Kernel (and Delta Spark, whose codec Kernel's mirrors)
 * decode it.
 */
@Internal
public final class KernelZ85 {
  private KernelZ85() {}

  /** The number of characters of an encoded UUID. */
  public static final int UUID_LENGTH = Base85Codec.ENCODED_UUID_LENGTH;

  /** {@code uuid} as 20 Z85 characters. */
  public static String encodeUuid(UUID uuid) {
    return Base85Codec.encodeUUID(uuid);
  }

  /** The UUID of 20 Z85 characters. */
  public static UUID decodeUuid(String encoded) {
    return Base85Codec.decodeUUID(encoded);
  }

  /** {@code bytes} Z85-encoded (padded to a multiple of 4 bytes, as Delta writers do). */
  public static String encodeBytes(byte[] bytes) {
    return Base85Codec.encodeBytes(bytes);
  }

  /** The first {@code size} bytes of Z85 text. */
  public static byte[] decodeBytes(String encoded, int size) {
    return Base85Codec.decodeBytes(encoded, size);
  }
}
