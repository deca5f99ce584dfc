package io.lakestream.connectors.delta.dv;

import io.lakestream.api.annotation.Internal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.TreeMap;
import org.roaringbitmap.RoaringBitmap;

/**
 * A set of row indexes of one data file: what a deletion vector holds. Stored as Delta's {@code
 * RoaringBitmapArray}: 32-bit Roaring bitmaps ("buckets") keyed by the indexes' high 32 bits,
 * serialized in the portable format (magic number {@value #PORTABLE_MAGIC}, then the bucket count,
 * then each key and bucket, little endian). {@link #deserialize} also reads the native format
 * (magic {@value #NATIVE_MAGIC}) older Delta writers used. Not thread-safe.
 */
@Internal
public final class RowIndexBitmap {
  /** The magic number of the portable format, which Delta writers write. */
  public static final int PORTABLE_MAGIC = 1681511377;

  /** The magic number of the native format (a bitmap per key from 0, no keys written). */
  public static final int NATIVE_MAGIC = 1681511376;

  private final TreeMap<Integer, RoaringBitmap> buckets = new TreeMap<>();

  /** A set holding {@code indexes}. */
  public static RowIndexBitmap of(long... indexes) {
    RowIndexBitmap bitmap = new RowIndexBitmap();
    for (long index : indexes) {
      bitmap.add(index);
    }
    return bitmap;
  }

  /**
   * Adds a row index.
   *
   * @throws IllegalArgumentException if it is negative (the format keeps keys' top bit 0)
   */
  public void add(long index) {
    if (index < 0) {
      throw new IllegalArgumentException("row index must be >= 0, was " + index);
    }
    buckets.computeIfAbsent((int) (index >>> 32), k -> new RoaringBitmap()).add((int) index);
  }

  /** Adds every index of {@code other}. */
  public void addAll(RowIndexBitmap other) {
    for (Map.Entry<Integer, RoaringBitmap> e : other.buckets.entrySet()) {
      buckets.computeIfAbsent(e.getKey(), k -> new RoaringBitmap()).or(e.getValue());
    }
  }

  /** Whether {@code index} is in the set. */
  public boolean contains(long index) {
    RoaringBitmap bucket = buckets.get((int) (index >>> 32));
    return bucket != null && bucket.contains((int) index);
  }

  /** The number of indexes in the set. */
  public long cardinality() {
    long n = 0;
    for (RoaringBitmap bucket : buckets.values()) {
      n += bucket.getLongCardinality();
    }
    return n;
  }

  public boolean isEmpty() {
    return cardinality() == 0;
  }

  /** The set in the portable format (magic number first), as deletion vectors store it. */
  public byte[] serialize() {
    int size = 4 + 8;
    for (RoaringBitmap bucket : buckets.values()) {
      bucket.runOptimize();
      size += 4 + bucket.serializedSizeInBytes();
    }
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(PORTABLE_MAGIC);
    out.putLong(buckets.size());
    for (Map.Entry<Integer, RoaringBitmap> e : buckets.entrySet()) {
      out.putInt(e.getKey());
      e.getValue().serialize(out);
    }
    return out.array();
  }

  /**
   * Reads a set written by {@link #serialize} (or in the native format).
   *
   * @throws IOException if the bytes do not start with a known magic number or are cut short
   */
  public static RowIndexBitmap deserialize(byte[] bytes) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    RowIndexBitmap bitmap = new RowIndexBitmap();
    try {
      int magic = in.getInt();
      if (magic == PORTABLE_MAGIC) {
        long count = in.getLong();
        for (long i = 0; i < count; i++) {
          int key = in.getInt();
          bitmap.buckets.put(key, read(in));
        }
      } else if (magic == NATIVE_MAGIC) {
        int count = in.getInt();
        for (int key = 0; key < count; key++) {
          RoaringBitmap bucket = read(in);
          if (!bucket.isEmpty()) {
            bitmap.buckets.put(key, bucket);
          }
        }
      } else {
        throw new IOException("not a deletion vector: unknown magic number " + magic);
      }
    } catch (RuntimeException e) {
      throw new IOException("damaged deletion vector: " + e, e);
    }
    return bitmap;
  }

  private static RoaringBitmap read(ByteBuffer in) throws IOException {
    int start = in.position();
    RoaringBitmap bucket = new RoaringBitmap();
    bucket.deserialize(in);
    if (in.position() == start) { // RoaringBitmap 0.9 reads from a slice of the buffer
      in.position(start + bucket.serializedSizeInBytes());
    }
    return bucket;
  }

  @Override
  public String toString() {
    return "RowIndexBitmap[" + cardinality() + " rows]";
  }
}
