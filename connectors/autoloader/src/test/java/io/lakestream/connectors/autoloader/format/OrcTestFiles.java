package io.lakestream.connectors.autoloader.format;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ListColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.OrcFile;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;

/** Writes ORC files of orders for the tests, with ORC's own writer. */
public final class OrcTestFiles {
  /** The orders' ORC schema. */
  public static final TypeDescription ORDERS =
      TypeDescription.fromString(
          "struct<id:bigint,name:string,amount:decimal(10,2),day:date,at:timestamp,qty:int,"
              + "tags:array<string>>");

  private OrcTestFiles() {}

  /** An order of the tests; null fields are written as nulls. */
  public record Order(long id, String name, String amount, Integer qty) {}

  /** Writes {@code orders} to {@code path} (any Hadoop file system), a batch per 100 rows. */
  public static void write(FileSystem fs, Path path, List<Order> orders) throws IOException {
    Configuration conf = fs.getConf();
    try (Writer writer =
        OrcFile.createWriter(
            path,
            OrcFile.writerOptions(conf)
                .fileSystem(fs)
                .setSchema(ORDERS)
                .overwrite(true)
                .useUTCTimestamp(true))) {
      VectorizedRowBatch batch = ORDERS.createRowBatch(100);
      for (Order order : orders) {
        add(batch, order);
        if (batch.size == batch.getMaxSize()) {
          writer.addRowBatch(batch);
          batch.reset();
        }
      }
      if (batch.size > 0) {
        writer.addRowBatch(batch);
      }
    }
  }

  /** Writes one file of a table of another shape: {@code id bigint, coupon string}. */
  public static void writeWithCoupon(FileSystem fs, Path path, long id, String coupon)
      throws IOException {
    TypeDescription schema = TypeDescription.fromString("struct<id:bigint,coupon:string>");
    try (Writer writer =
        OrcFile.createWriter(
            path, OrcFile.writerOptions(fs.getConf()).fileSystem(fs).setSchema(schema))) {
      VectorizedRowBatch batch = schema.createRowBatch();
      ((LongColumnVector) batch.cols[0]).vector[0] = id;
      ((BytesColumnVector) batch.cols[1]).setVal(0, coupon.getBytes(StandardCharsets.UTF_8));
      batch.size = 1;
      writer.addRowBatch(batch);
    }
  }

  private static void add(VectorizedRowBatch batch, Order order) {
    int r = batch.size++;
    ((LongColumnVector) batch.cols[0]).vector[r] = order.id();
    BytesColumnVector name = (BytesColumnVector) batch.cols[1];
    if (order.name() == null) {
      name.noNulls = false;
      name.isNull[r] = true;
    } else {
      name.setVal(r, order.name().getBytes(StandardCharsets.UTF_8));
    }
    ((DecimalColumnVector) batch.cols[2])
        .set(r, HiveDecimal.create(new BigDecimal(order.amount())));
    ((LongColumnVector) batch.cols[3]).vector[r] = LocalDate.of(2026, 12, 6).toEpochDay();
    Timestamp at = new Timestamp(1_700_000_000_123L);
    ((TimestampColumnVector) batch.cols[4]).set(r, at);
    LongColumnVector qty = (LongColumnVector) batch.cols[5];
    if (order.qty() == null) {
      qty.noNulls = false;
      qty.isNull[r] = true;
    } else {
      qty.vector[r] = order.qty();
    }
    ListColumnVector tags = (ListColumnVector) batch.cols[6];
    int offset = tags.childCount;
    tags.offsets[r] = offset;
    tags.lengths[r] = 2;
    tags.childCount += 2;
    tags.child.ensureSize(tags.childCount, true);
    ((BytesColumnVector) tags.child).setVal(offset, "x".getBytes(StandardCharsets.UTF_8));
    ((BytesColumnVector) tags.child).setVal(offset + 1, "y".getBytes(StandardCharsets.UTF_8));
  }
}
