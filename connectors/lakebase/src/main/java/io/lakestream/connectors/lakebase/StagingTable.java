package io.lakestream.connectors.lakebase;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.schema.Column;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The SQL of the exactly-once Lakebase sink (free of Flink): rows of an epoch are first written
 * ({@link #stage}) into a staging table beside the target, {@code <table>_lakestream_stage}, and
 * later applied ({@link #apply}) in ONE transaction that also records the epoch in the commit table
 * {@code <schema>.lakestream_lakebase_commits}, keyed by (app id, target, subtask, epoch). An epoch
 * already recorded is skipped, as Delta's {@code txn(appId, version)}, so applying a replayed epoch
 * changes nothing.
 *
 * <p>Staged rows are tagged with the app id, the writing subtask, a random stage id (one per
 * subtask and epoch attempt), the checkpoint after which they were written and their order.
 * Applying epoch (subtask s, after checkpoint k) uses only the rows of its stage id, then deletes
 * every row of (s, k), which also drops what a failed attempt staged for that epoch. The staging
 * table is a regular (logged) table and the sink's sessions commit with {@code synchronous_commit}
 * on ({@link #commitDurably}, whatever the server's or role's setting), so staged rows survive a
 * PostgreSQL crash between pre-commit and commit, and an applied epoch survives one after commit;
 * if they are missing anyway (someone truncated it), {@link #apply} fails rather than record an
 * epoch it could not write.
 *
 * <p>Keyed targets get, per key, the epoch's last change: an upsert ({@link
 * UpsertStatement#conflictClause()}) or a delete. Targets without a key get the rows inserted in
 * the order they were written.
 */
@Internal
public final class StagingTable implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The commit table's name in the target's schema. */
  public static final String COMMITS = "lakestream_lakebase_commits";

  private static final String SUFFIX = "_lakestream_stage";
  private static final String META =
      "__ls_app, __ls_subtask, __ls_stage, __ls_after, __ls_seq, __ls_delete";

  private final UpsertStatement upsert;
  private final PostgresTableName stage;
  private final PostgresTableName commits;
  private final String columns;
  private final String stageInsertSql;
  private final boolean unnest;
  private final String copySql; // null: staged by stageInsertSql

  private StagingTable(UpsertStatement upsert, boolean copy) {
    this.upsert = upsert;
    PostgresTableName target = upsert.table();
    this.stage = new PostgresTableName(target.schema(), stageName(target.table()));
    this.commits = new PostgresTableName(target.schema(), COMMITS);
    this.columns =
        upsert.schema().columnNames().stream()
            .map(PostgresIdentifiers::quote)
            .collect(Collectors.joining(", "));
    this.unnest =
        upsert.schema().columns().stream().allMatch(c -> ColumnArrays.arrayType(c.type()) != null);
    this.stageInsertSql = unnest ? unnestInsertSql() : valuesInsertSql();
    this.copySql =
        copy && CopyBinaryRows.supports(upsert.schema().columns())
            ? "COPY " + stage.sql() + " (" + META + ", " + columns + ") FROM STDIN (FORMAT binary)"
            : null;
  }

  /** The staging side of {@code upsert}'s target, staged by {@code INSERT .. FROM UNNEST}. */
  public static StagingTable of(UpsertStatement upsert) {
    return new StagingTable(upsert, false);
  }

  /**
   * The staging side of {@code upsert}'s target; with {@code copy}, batches are staged by binary
   * {@code COPY} ({@link #stageByCopy}) when every column has a binary encoding.
   */
  public static StagingTable of(UpsertStatement upsert, boolean copy) {
    return new StagingTable(upsert, copy);
  }

  /** Whether batches are staged by {@link #stageByCopy} (else by {@link #stage}). */
  public boolean copies() {
    return copySql != null;
  }

  /**
   * As {@link #stage}, by one binary {@code COPY .. FROM STDIN} of the batch (with {@link
   * #copies()}); {@code encoder} is the caller's, reused across batches.
   *
   * @throws ClassCastException or {@link ArithmeticException} if a value does not fit its column's
   *     type, as {@link #stage} does
   */
  public void stageByCopy(
      Connection connection,
      CopyBinaryRows encoder,
      Tag tag,
      long firstSeq,
      Object[][] rows,
      boolean[] deletes,
      int count)
      throws SQLException {
    List<Column> schema = upsert.schema().columns();
    encoder.reset();
    for (int i = 0; i < count; i++) {
      encoder.startRow(6 + schema.size());
      encoder.putText(tag.app());
      encoder.putInt4(tag.subtask());
      encoder.putLong(tag.stageId());
      encoder.putLong(tag.afterCheckpoint());
      encoder.putLong(firstSeq + i);
      encoder.putBoolean(deletes != null && deletes[i]);
      for (int c = 0; c < schema.size(); c++) {
        encoder.putValue(schema.get(c).type(), rows[i][c]);
      }
    }
    encoder.copyIn(connection, copySql);
  }

  /** {@code <table>_lakestream_stage}, shortened with a hash to PostgreSQL's 63 characters. */
  static String stageName(String table) {
    String name = table + SUFFIX;
    if (name.length() <= PostgresIdentifiers.MAX_LENGTH) {
      return name;
    }
    String hash = Integer.toHexString(table.hashCode());
    return table.substring(0, PostgresIdentifiers.MAX_LENGTH - SUFFIX.length() - hash.length() - 1)
        + "_"
        + hash
        + SUFFIX;
  }

  public PostgresTableName stage() {
    return stage;
  }

  public PostgresTableName commits() {
    return commits;
  }

  /** Creates the staging and commit tables if missing (autocommit). */
  public void prepare(Connection connection) throws SQLException {
    StringBuilder ddl =
        new StringBuilder("CREATE TABLE IF NOT EXISTS ")
            .append(stage.sql())
            .append(
                " (__ls_app text NOT NULL, __ls_subtask int4 NOT NULL, __ls_stage int8 NOT NULL,")
            .append(" __ls_after int8 NOT NULL, __ls_seq int8 NOT NULL, __ls_delete bool NOT NULL");
    for (Column column : upsert.schema().columns()) {
      ddl.append(", ")
          .append(PostgresIdentifiers.quote(column.name()))
          .append(' ')
          .append(PostgresTypes.sqlType(column.type()));
    }
    ddl.append(')');
    try (Statement statement = connection.createStatement()) {
      statement.execute(ddl.toString());
      statement.execute(
          "CREATE TABLE IF NOT EXISTS "
              + commits.sql()
              + " (app_id text NOT NULL, target text NOT NULL, subtask int4 NOT NULL,"
              + " epoch int8 NOT NULL, row_count int8 NOT NULL,"
              + " committed_at timestamptz NOT NULL DEFAULT now(),"
              + " PRIMARY KEY (app_id, target, subtask, epoch))");
    }
  }

  /**
   * Makes the session's commits return only once durable, whatever the server's or the role's
   * {@code synchronous_commit} (off on some servers for speed; an asynchronous commit is lost if
   * the server crashes within a few hundred milliseconds): rows staged for an epoch handed to the
   * committer must still be there when it applies them after a server crash, or the apply fails
   * with {@link LakebaseSinkException#STAGED_ROWS_MISSING}. Costs one WAL flush per staged batch.
   */
  public static void commitDurably(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("SET synchronous_commit TO on");
    }
  }

  /** Which rows of the staging table one epoch of one subtask wrote. */
  public record Tag(String app, int subtask, long stageId, long afterCheckpoint) {
    /** The epoch number recorded in the commit table: the checkpoint id that ended it. */
    public long epoch() {
      return afterCheckpoint + 1;
    }
  }

  /** The statement {@link #stage} runs; prepare it once per connection. */
  public String stageInsertSql() {
    return stageInsertSql;
  }

  /**
   * Adds {@code rows[0, count)} to the staging table under {@code tag}, numbered from {@code
   * firstSeq}, in the caller's transaction.
   *
   * @param deletes per row whether it deletes its key; null if none does
   */
  public void stage(
      Connection connection,
      PreparedStatement insert,
      Tag tag,
      long firstSeq,
      Object[][] rows,
      boolean[] deletes,
      int count)
      throws SQLException, LakebaseWriteException {
    if (unnest) {
      insert.setString(1, tag.app());
      insert.setInt(2, tag.subtask());
      insert.setLong(3, tag.stageId());
      insert.setLong(4, tag.afterCheckpoint());
      insert.setLong(5, firstSeq - 1); // + ordinality, which starts at 1
      Boolean[] flags = new Boolean[count];
      for (int i = 0; i < count; i++) {
        flags[i] = deletes != null && deletes[i];
      }
      insert.setArray(6, connection.createArrayOf("bool", flags));
      List<Column> schema = upsert.schema().columns();
      for (int c = 0; c < schema.size(); c++) {
        ColumnArrays.bind(connection, insert, c + 7, schema.get(c).type(), rows, c, 0, count);
      }
      insert.executeUpdate();
      return;
    }
    int width = upsert.schema().columns().size();
    for (int i = 0; i < count; i++) {
      upsert.bind(insert, rows[i]);
      insert.setString(width + 1, tag.app());
      insert.setInt(width + 2, tag.subtask());
      insert.setLong(width + 3, tag.stageId());
      insert.setLong(width + 4, tag.afterCheckpoint());
      insert.setLong(width + 5, firstSeq + i);
      insert.setBoolean(width + 6, deletes != null && deletes[i]);
      insert.addBatch();
    }
    insert.executeBatch();
  }

  private String unnestInsertSql() {
    List<Column> schema = upsert.schema().columns();
    StringBuilder aliases = new StringBuilder("__ls_delete");
    StringBuilder arrays = new StringBuilder("?::bool[]");
    StringBuilder values = new StringBuilder();
    for (int c = 0; c < schema.size(); c++) {
      aliases.append(", c").append(c);
      arrays.append(", ?::").append(ColumnArrays.arrayType(schema.get(c).type())).append("[]");
      values.append(", u.c").append(c);
    }
    return "INSERT INTO "
        + stage.sql()
        + " ("
        + META
        + ", "
        + columns
        + ") SELECT ?, ?, ?, ?, ?::int8 + u.__ls_ord, u.__ls_delete"
        + values
        + " FROM UNNEST("
        + arrays
        + ") WITH ORDINALITY AS u("
        + aliases
        + ", __ls_ord)";
  }

  private String valuesInsertSql() {
    int width = upsert.schema().columns().size() + 6;
    return "INSERT INTO "
        + stage.sql()
        + " ("
        + columns
        + ", "
        + META
        + ") VALUES ("
        + String.join(", ", java.util.Collections.nCopies(width, "?"))
        + ")";
  }

  /**
   * Applies the epoch {@code tag} staged ({@code rows} rows, {@code deletes} of them deletes) to
   * the target and records it in the commit table, in ONE transaction; commits it.
   *
   * @return false if the epoch was already recorded (nothing applied; its staged rows are dropped)
   * @throws LakebaseSinkException if fewer rows are staged than the epoch wrote (nothing applied)
   * @throws SQLException as the server reports it (the transaction is rolled back)
   */
  public boolean apply(Connection connection, Tag tag, long rows, long deletes)
      throws SQLException {
    connection.setAutoCommit(false);
    try {
      try (Statement statement = connection.createStatement()) {
        // Flink forgets the epoch once this returns: its commit must be on disk
        statement.execute("SET LOCAL synchronous_commit TO on");
      }
      boolean fresh = record(connection, tag, rows);
      if (fresh) {
        checkStaged(connection, tag, rows);
        if (upsert.key().isEmpty()) {
          run(connection, insertAllSql(), tag);
        } else {
          if (deletes > 0) {
            run(connection, deleteLastSql(), tag);
          }
          if (deletes < rows) {
            run(connection, upsertLastSql(), tag);
          }
        }
      }
      dropStaged(connection, tag);
      connection.commit();
      return fresh;
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    }
  }

  private boolean record(Connection connection, Tag tag, long rows) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO "
                + commits.sql()
                + " (app_id, target, subtask, epoch, row_count) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT DO NOTHING")) {
      insert.setString(1, tag.app());
      insert.setString(2, upsert.table().toString());
      insert.setInt(3, tag.subtask());
      insert.setLong(4, tag.epoch());
      insert.setLong(5, rows);
      return insert.executeUpdate() == 1;
    }
  }

  private void checkStaged(Connection connection, Tag tag, long rows) throws SQLException {
    long staged;
    try (PreparedStatement count =
        connection.prepareStatement("SELECT count(*) FROM " + stage.sql() + where())) {
      bindTag(count, tag);
      try (var result = count.executeQuery()) {
        result.next();
        staged = result.getLong(1);
      }
    }
    if (staged != rows) {
      throw new LakebaseSinkException(
          LakebaseSinkException.STAGED_ROWS_MISSING,
          String.format(
              "epoch %d of sink subtask %d wrote %d rows into staging table %s, but %d are there"
                  + " now (was the table truncated or changed by someone else?); the epoch is not"
                  + " applied. Restore the query from an earlier checkpoint, or run it with option"
                  + " deliveryGuarantee at-least-once to accept replays.",
              tag.epoch(), tag.subtask(), rows, stage, staged));
    }
  }

  private static void run(Connection connection, String sql, Tag tag) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      bindTag(statement, tag);
      statement.executeUpdate();
    }
  }

  private void dropStaged(Connection connection, Tag tag) throws SQLException {
    // every row of the epoch, including what a failed attempt staged for it under another stage id
    try (PreparedStatement delete =
        connection.prepareStatement(
            "DELETE FROM "
                + stage.sql()
                + " WHERE __ls_app = ? AND __ls_subtask = ? AND __ls_after = ?")) {
      delete.setString(1, tag.app());
      delete.setInt(2, tag.subtask());
      delete.setLong(3, tag.afterCheckpoint());
      delete.executeUpdate();
    }
  }

  /**
   * Drops what earlier attempts of {@code subtask} staged after {@code checkpoint}, the checkpoint
   * a restarted writer resumes from: no epoch after it was applied (its staged rows would be gone),
   * so they are leftovers of attempts that failed before their epoch's checkpoint completed.
   * Pending epochs (up to the checkpoint) and rows staged after it under the same checkpoint are
   * not touched (those go when that epoch is applied). Autocommit.
   */
  public void dropStagedAfter(Connection connection, String app, int subtask, long checkpoint)
      throws SQLException {
    try (PreparedStatement delete =
        connection.prepareStatement(
            "DELETE FROM "
                + stage.sql()
                + " WHERE __ls_app = ? AND __ls_subtask = ? AND __ls_after > ?")) {
      delete.setString(1, app);
      delete.setInt(2, subtask);
      delete.setLong(3, checkpoint);
      delete.executeUpdate();
    }
  }

  private static String where() {
    return " WHERE __ls_app = ? AND __ls_subtask = ? AND __ls_stage = ?";
  }

  private static void bindTag(PreparedStatement statement, Tag tag) throws SQLException {
    statement.setString(1, tag.app());
    statement.setInt(2, tag.subtask());
    statement.setLong(3, tag.stageId());
  }

  /** Without a key: every staged row, in the order written. */
  String insertAllSql() {
    return "INSERT INTO "
        + upsert.table().sql()
        + " ("
        + columns
        + ") SELECT "
        + columns
        + " FROM "
        + stage.sql()
        + where()
        + " ORDER BY __ls_seq";
  }

  /** Per key the epoch's last change. */
  private String lastChanges() {
    String key =
        upsert.key().stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "));
    return "(SELECT DISTINCT ON ("
        + key
        + ") * FROM "
        + stage.sql()
        + where()
        + " ORDER BY "
        + key
        + ", __ls_seq DESC) s";
  }

  /** Keys whose last change in the epoch is an upsert. */
  String upsertLastSql() {
    String selected =
        upsert.schema().columnNames().stream()
            .map(c -> "s." + PostgresIdentifiers.quote(c))
            .collect(Collectors.joining(", "));
    return "INSERT INTO "
        + upsert.table().sql()
        + " ("
        + columns
        + ") SELECT "
        + selected
        + " FROM "
        + lastChanges()
        + " WHERE NOT s.__ls_delete"
        + upsert.conflictClause();
  }

  /** Keys whose last change in the epoch is a delete. */
  String deleteLastSql() {
    String match =
        upsert.key().stream()
            .map(PostgresIdentifiers::quote)
            .map(k -> "t." + k + " = s." + k)
            .collect(Collectors.joining(" AND "));
    return "DELETE FROM "
        + upsert.table().sql()
        + " t USING "
        + lastChanges()
        + " WHERE s.__ls_delete AND "
        + match;
  }
}
