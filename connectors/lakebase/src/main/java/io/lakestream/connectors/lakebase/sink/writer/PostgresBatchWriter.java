package io.lakestream.connectors.lakebase.sink.writer;

import io.lakestream.api.annotation.Internal;
import io.lakestream.connectors.lakebase.CopyBinaryRows;
import io.lakestream.connectors.lakebase.LakebaseWriteException;
import io.lakestream.connectors.lakebase.PostgresEndpoint;
import io.lakestream.connectors.lakebase.PostgresIdentifiers;
import io.lakestream.connectors.lakebase.PostgresTypes;
import io.lakestream.connectors.lakebase.PostgresValues;
import io.lakestream.connectors.lakebase.UpsertStatement;
import java.io.IOException;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes batches of rows to PostgreSQL in one transaction each, through one connection and prepared
 * statements reused for every batch: one {@code INSERT .. SELECT FROM UNNEST} of column arrays when
 * every column type has an array binding ({@link UpsertStatement#unnestSql()}), or, with option
 * writeMethod copy, a binary {@code COPY} into the session's temporary table {@code
 * lakestream_copy} (emptied by every commit) and one {@code INSERT .. SELECT .. ON CONFLICT} from
 * it, else a JDBC batch the driver rewrites into multi-row INSERTs. A batch of changes ({@link
 * #write(Object[][], boolean[], int)}) also deletes the keys whose last change in the batch is a
 * delete, with one {@code DELETE .. WHERE (key) IN (SELECT FROM UNNEST ..)} (or a JDBC batch of
 * single-key deletes) in the same transaction; a key that is not in the table deletes nothing. Free
 * of Flink; {@link LakebaseSinkWriter} calls it from the task thread.
 *
 * <p>Guarantees: {@link #write} returns only after the batch is committed. Transient errors ({@link
 * #isTransient}) roll back, close the connection, wait (exponential backoff) and retry the whole
 * batch on a new connection, which asks the password provider again; after {@code maxRetries}
 * retries it throws {@link LakebaseWriteException} with the last error as cause. A non-transient
 * error rolls back and replays the batch row by row (upserts, then deletes) to name the first
 * failing row's key and the column (from PostgreSQL's error fields, else, for an upsert, by probing
 * each value against a scratch copy of the table's columns), then throws {@link
 * LakebaseWriteException}; no row is skipped.
 */
@Internal
public final class PostgresBatchWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresBatchWriter.class);
  private static final long MAX_BACKOFF_MILLIS = 5_000;
  private static final Set<String> TRANSIENT_STATES =
      Set.of("40P01", "40001", "53300", "53400", "57P01", "57P02", "57P03");
  private static final String COPY_TABLE = "pg_temp.lakestream_copy";

  private final PostgresEndpoint endpoint;
  private final UpsertStatement upsert;
  private final int maxRetries;
  private final long backoffMillis;
  private final CopyBinaryRows copy; // null: upserts by UNNEST arrays (or JDBC batches)
  private Connection connection;
  private PreparedStatement statement;
  private PreparedStatement unnest;
  private PreparedStatement delete;
  private PreparedStatement deleteUnnest;
  private PreparedStatement copyInsert;
  private long batches;
  private long retries;
  private long connects;

  /** A writer that upserts by {@code UNNEST} arrays (option writeMethod unnest). */
  public PostgresBatchWriter(
      PostgresEndpoint endpoint, UpsertStatement upsert, int maxRetries, Duration backoff) {
    this(endpoint, upsert, maxRetries, backoff, false);
  }

  /**
   * @param copy upsert by binary {@code COPY} into a temporary table and one {@code INSERT ..
   *     SELECT .. ON CONFLICT} (option writeMethod copy), when every column has a binary encoding
   *     ({@link CopyBinaryRows#supports}); else as without
   */
  public PostgresBatchWriter(
      PostgresEndpoint endpoint,
      UpsertStatement upsert,
      int maxRetries,
      Duration backoff,
      boolean copy) {
    this.endpoint = endpoint;
    this.upsert = upsert;
    this.maxRetries = maxRetries;
    this.backoffMillis = backoff.toMillis();
    this.copy =
        copy && CopyBinaryRows.supports(upsert.schema().columns()) ? new CopyBinaryRows() : null;
  }

  /**
   * Shapes ({@link UpsertStatement#shape}) and writes {@code rows[0, count)} in one transaction.
   * The array's order and contents after {@code count} kept rows are unspecified afterwards.
   *
   * @throws LakebaseWriteException if the batch cannot be written (see the class comment)
   * @throws InterruptedException if interrupted while waiting to retry
   */
  public synchronized void write(Object[][] rows, int count)
      throws IOException, InterruptedException {
    if (count == 0) {
      return;
    }
    writeShaped(rows, upsert.shape(rows, count), 0);
  }

  /**
   * Writes a batch of changes in one transaction: {@code deletes[i]} tells whether {@code rows[i]}
   * deletes its key. Per key the last change wins ({@link UpsertStatement#shape(Object[][],
   * boolean[], int)}); the upserts and the deletes commit together. The array's order and contents
   * are unspecified afterwards.
   *
   * @throws IllegalStateException if the sink has no key
   * @throws LakebaseWriteException if the batch cannot be written (see the class comment)
   * @throws InterruptedException if interrupted while waiting to retry
   */
  public synchronized void write(Object[][] rows, boolean[] deletes, int count)
      throws IOException, InterruptedException {
    if (count == 0) {
      return;
    }
    UpsertStatement.Changes changes = upsert.shape(rows, deletes, count);
    writeShaped(rows, changes.upserts(), changes.deletes());
  }

  /** Commits {@code rows[0, upserts)} upserted and the next {@code deletes} rows deleted. */
  private void writeShaped(Object[][] rows, int upserts, int deletes)
      throws IOException, InterruptedException {
    int kept = upserts + deletes;
    long wait = backoffMillis;
    for (int attempt = 0; ; attempt++) {
      try {
        execute(rows, upserts, deletes);
        batches++;
        return;
      } catch (LakebaseWriteException e) {
        rollbackQuietly();
        throw e;
      } catch (SQLException | IOException e) {
        if (!isTransient(e)) {
          rollbackQuietly();
          throw diagnose(rows, upserts, deletes, e);
        }
        closeConnection();
        if (attempt >= maxRetries) {
          throw new LakebaseWriteException(
              "writing "
                  + kept
                  + " rows to table "
                  + upsert.table()
                  + " at "
                  + endpoint
                  + " failed with a transient error "
                  + (maxRetries + 1)
                  + " times; giving up (raise option maxretries or retrybackoff if the database"
                  + " needs longer to recover): "
                  + e.getMessage(),
              sqlState(e),
              null,
              null,
              e);
        }
        retries++;
        LOG.warn(
            "transient error writing to {} at {} (attempt {} of {}), retrying in {} ms: {}",
            upsert.table(),
            endpoint,
            attempt + 1,
            maxRetries + 1,
            wait,
            e.toString());
        Thread.sleep(wait);
        wait = Math.min(wait * 2, Math.max(MAX_BACKOFF_MILLIS, backoffMillis));
      }
    }
  }

  private void execute(Object[][] rows, int upserts, int deletes) throws SQLException, IOException {
    statement(); // connects
    if (upserts > 0) {
      executeUpserts(rows, upserts);
    }
    if (deletes > 0) {
      executeDeletes(rows, upserts, deletes);
    }
    connection.commit();
  }

  private void executeUpserts(Object[][] rows, int count) throws SQLException, IOException {
    PreparedStatement prepared = statement;
    if (copy != null) {
      copyUpserts(rows, count);
    } else if (upsert.unnestSql() != null) {
      if (unnest == null) {
        unnest = connection.prepareStatement(upsert.unnestSql());
      }
      try {
        upsert.bindColumns(connection, unnest, rows, count);
      } catch (ClassCastException | ArithmeticException e) {
        // a value that does not fit its column: the row replay names it
        throw new SQLException("a value does not fit its column's type: " + e, "22000", e);
      }
      unnest.executeUpdate();
    } else {
      for (int i = 0; i < count; i++) {
        upsert.bind(prepared, rows[i]);
        prepared.addBatch();
      }
      try {
        prepared.executeBatch();
      } finally {
        prepared.clearBatch();
      }
    }
  }

  /**
   * COPY into the session's temporary table (created on connect, emptied by every commit), then one
   * {@code INSERT .. SELECT .. ON CONFLICT} from it into the target.
   */
  private void copyUpserts(Object[][] rows, int count) throws SQLException {
    if (copyInsert == null) {
      copyInsert = connection.prepareStatement(copyInsertSql());
    }
    var columns = upsert.schema().columns();
    copy.reset();
    try {
      for (int i = 0; i < count; i++) {
        copy.startRow(columns.size());
        for (int c = 0; c < columns.size(); c++) {
          copy.putValue(columns.get(c).type(), rows[i][c]);
        }
      }
    } catch (ClassCastException | ArithmeticException | ArrayIndexOutOfBoundsException e) {
      // a value that does not fit its column: the row replay names it
      throw new SQLException("a value does not fit its column's type: " + e, "22000", e);
    }
    copy.copyIn(connection, "COPY " + COPY_TABLE + " FROM STDIN (FORMAT binary)");
    copyInsert.executeUpdate();
  }

  private String copyTableDdl() {
    StringBuilder ddl = new StringBuilder("CREATE TEMP TABLE " + COPY_TABLE + " (");
    var columns = upsert.schema().columns();
    for (int c = 0; c < columns.size(); c++) {
      ddl.append(c == 0 ? "" : ", ")
          .append(PostgresIdentifiers.quote(columns.get(c).name()))
          .append(' ')
          .append(PostgresTypes.sqlType(columns.get(c).type()));
    }
    return ddl.append(") ON COMMIT DELETE ROWS").toString();
  }

  private String copyInsertSql() {
    String names =
        upsert.schema().columnNames().stream()
            .map(PostgresIdentifiers::quote)
            .collect(java.util.stream.Collectors.joining(", "));
    return "INSERT INTO "
        + upsert.table().sql()
        + " ("
        + names
        + ") SELECT "
        + names
        + " FROM "
        + COPY_TABLE
        + upsert.conflictClause();
  }

  private void executeDeletes(Object[][] rows, int from, int count)
      throws SQLException, IOException {
    if (upsert.deleteUnnestSql() != null) {
      if (deleteUnnest == null) {
        deleteUnnest = connection.prepareStatement(upsert.deleteUnnestSql());
      }
      try {
        upsert.bindKeyColumns(connection, deleteUnnest, rows, from, count);
      } catch (ClassCastException | ArithmeticException e) {
        // a key value that does not fit its column: the row replay names it
        throw new SQLException("a value does not fit its column's type: " + e, "22000", e);
      }
      deleteUnnest.executeUpdate();
      return;
    }
    PreparedStatement prepared = deleteStatement();
    for (int i = from; i < from + count; i++) {
      upsert.bindKey(prepared, rows[i]);
      prepared.addBatch();
    }
    try {
      prepared.executeBatch();
    } finally {
      prepared.clearBatch();
    }
  }

  private PreparedStatement deleteStatement() throws SQLException {
    if (delete == null) {
      delete = connection.prepareStatement(upsert.deleteSql());
    }
    return delete;
  }

  private PreparedStatement statement() throws SQLException, IOException {
    if (statement == null) {
      Connection opened = endpoint.connect();
      connects++;
      try {
        opened.setAutoCommit(false);
        if (copy != null) { // committed now: a rolled-back batch must not take it along
          try (Statement ddl = opened.createStatement()) {
            ddl.execute(copyTableDdl());
          }
          opened.commit();
        }
        statement = opened.prepareStatement(upsert.sql());
      } catch (SQLException e) {
        opened.close();
        throw e;
      }
      connection = opened;
    }
    return statement;
  }

  /**
   * Whether an error is worth a retry on a new connection: connection errors (SQLState class 08),
   * deadlock (40P01), serialization failure (40001), too many connections (53300, 53400), admin or
   * crash shutdown and server starting (57P01, 57P02, 57P03), or a failing password provider.
   */
  public static boolean isTransient(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLException) {
        for (SQLException s = (SQLException) t; s != null; s = s.getNextException()) {
          String state = s.getSQLState();
          if (state != null && (state.startsWith("08") || TRANSIENT_STATES.contains(state))) {
            return true;
          }
        }
      } else if (t instanceof IOException && !(t instanceof LakebaseWriteException)) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  private LakebaseWriteException diagnose(
      Object[][] rows, int upserts, int deletes, Exception batchError) {
    int count = upserts + deletes;
    SQLException root = rootSqlException(batchError);
    if (connection == null) {
      return new LakebaseWriteException(
          "cannot connect to "
              + endpoint
              + " to write table "
              + upsert.table()
              + ": "
              + (root != null ? root.getMessage() : batchError.toString()),
          sqlState(batchError),
          null,
          null,
          batchError);
    }
    try {
      for (int i = 0; i < count; i++) {
        boolean delete = i >= upserts;
        Savepoint savepoint = connection.setSavepoint();
        try {
          replay(rows[i], delete);
          connection.releaseSavepoint(savepoint);
        } catch (SQLException rowError) {
          connection.rollback(savepoint);
          String column = delete ? serverColumn(rowError) : column(rowError, rows[i]);
          rollbackQuietly();
          return rowFailure(rows[i], delete, rowError, column);
        }
      }
    } catch (LakebaseWriteException valueError) {
      rollbackQuietly();
      return valueError;
    } catch (SQLException | IOException diagnosisError) {
      batchError.addSuppressed(diagnosisError);
    }
    rollbackQuietly();
    return new LakebaseWriteException(
        "writing "
            + count
            + " rows to table "
            + upsert.table()
            + " failed and no single row could be blamed: "
            + (root != null ? root.getMessage() : batchError.toString()),
        sqlState(batchError),
        null,
        null,
        batchError);
  }

  /** Writes one row of a failed batch on its own: an upsert, or a delete of its key. */
  private void replay(Object[] row, boolean delete) throws SQLException, LakebaseWriteException {
    if (delete) {
      PreparedStatement single = deleteStatement();
      upsert.bindKey(single, row);
      single.executeUpdate();
    } else {
      upsert.bind(statement, row);
      statement.executeUpdate();
    }
  }

  private LakebaseWriteException rowFailure(
      Object[] row, boolean delete, SQLException error, String column) {
    String key = upsert.describeKey(row);
    return new LakebaseWriteException(
        (delete ? "cannot delete row with key " : "cannot write row with key ")
            + key
            + (delete ? " from table " : " to table ")
            + upsert.table()
            + (column != null ? ": column \"" + column + "\"" : "")
            + ": "
            + error.getMessage()
            + " [SQLState "
            + error.getSQLState()
            + "]. The row is not dropped: the query fails; fix the data or the table and restart"
            + " it.",
        error.getSQLState(),
        key,
        column,
        error);
  }

  /** The column PostgreSQL names in its error, or null. */
  private static String serverColumn(SQLException error) {
    if (error instanceof PSQLException) {
      ServerErrorMessage server = ((PSQLException) error).getServerErrorMessage();
      if (server != null) {
        return server.getColumn();
      }
    }
    return null;
  }

  /** The column PostgreSQL names, else the first value that fails alone in a scratch table. */
  private String column(SQLException error, Object[] row) throws SQLException, IOException {
    String named = serverColumn(error);
    if (named != null) {
      return named;
    }
    Savepoint savepoint = connection.setSavepoint();
    try (Statement ddl = connection.createStatement()) {
      ddl.execute(
          "CREATE TEMP TABLE lakestream_probe (LIKE "
              + upsert.table().sql()
              + " INCLUDING CONSTRAINTS) ON COMMIT DROP");
      var columns = upsert.schema().columns();
      for (var column : columns) {
        String quoted = PostgresIdentifiers.quote(column.name());
        ddl.execute("ALTER TABLE lakestream_probe ALTER COLUMN " + quoted + " DROP NOT NULL");
      }
      for (int i = 0; i < columns.size(); i++) {
        String quoted = PostgresIdentifiers.quote(columns.get(i).name());
        Savepoint probe = connection.setSavepoint();
        try (PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO lakestream_probe (" + quoted + ") VALUES (?)")) {
          PostgresValues.bind(insert, 1, columns.get(i).type(), row[i]);
          insert.executeUpdate();
          connection.releaseSavepoint(probe);
        } catch (SQLException e) {
          connection.rollback(probe);
          return columns.get(i).name();
        }
      }
      return null;
    } finally {
      connection.rollback(savepoint);
    }
  }

  private static SQLException rootSqlException(Throwable error) {
    SQLException found = null;
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof SQLException) {
        found = (SQLException) t;
        if (t instanceof BatchUpdateException && found.getNextException() != null) {
          found = found.getNextException();
        }
      }
    }
    return found;
  }

  private static String sqlState(Throwable error) {
    SQLException root = rootSqlException(error);
    return root == null ? null : root.getSQLState();
  }

  private void rollbackQuietly() {
    if (connection != null) {
      try {
        connection.rollback();
      } catch (SQLException e) {
        LOG.debug("rollback failed; closing the connection", e);
        closeConnection();
      }
    }
  }

  private void closeConnection() {
    Connection closing = connection;
    connection = null;
    statement = null;
    unnest = null;
    delete = null;
    deleteUnnest = null;
    copyInsert = null;
    if (closing != null) {
      try {
        closing.close();
      } catch (SQLException e) {
        LOG.debug("closing a broken connection failed", e);
      }
    }
  }

  /** Committed batches. */
  public long batches() {
    return batches;
  }

  /** Retries after transient errors. */
  public long retries() {
    return retries;
  }

  /** Connections opened. */
  public long connects() {
    return connects;
  }

  @Override
  public synchronized void close() {
    rollbackQuietly();
    closeConnection();
  }
}
