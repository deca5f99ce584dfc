package io.lakestream.sql.catalog;

import io.lakestream.api.annotation.Internal;
import java.util.List;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;

/**
 * A catalog of databases and tables only: it stores no functions (temporary functions still work),
 * exposes no partitions as catalog objects (a Delta table's partitions live in its log) and keeps
 * no statistics. Statements that would change those fail with a {@link CatalogException} saying
 * what to use instead.
 */
@Internal
abstract class TableOnlyCatalog extends AbstractCatalog {
  TableOnlyCatalog(String name, String defaultDatabase) {
    super(name, defaultDatabase);
  }

  private CatalogException unsupported(String what, String instead) {
    return new CatalogException(
        "Catalog '" + getName() + "' does not store " + what + ". " + instead);
  }

  @Override
  public List<String> listViews(String databaseName) {
    return List.of();
  }

  @Override
  public List<String> listFunctions(String dbName) {
    return List.of();
  }

  @Override
  public CatalogFunction getFunction(ObjectPath functionPath) throws FunctionNotExistException {
    throw new FunctionNotExistException(getName(), functionPath);
  }

  @Override
  public boolean functionExists(ObjectPath functionPath) {
    return false;
  }

  @Override
  public void createFunction(ObjectPath path, CatalogFunction function, boolean ignoreIfExists) {
    throw unsupported("functions", "Use CREATE TEMPORARY FUNCTION.");
  }

  @Override
  public void alterFunction(ObjectPath path, CatalogFunction function, boolean ignoreIfNotExists) {
    throw unsupported("functions", "Use CREATE TEMPORARY FUNCTION.");
  }

  @Override
  public void dropFunction(ObjectPath functionPath, boolean ignoreIfNotExists) {
    throw unsupported("functions", "Use CREATE TEMPORARY FUNCTION.");
  }

  @Override
  public List<CatalogPartitionSpec> listPartitions(ObjectPath tablePath) {
    return List.of();
  }

  @Override
  public List<CatalogPartitionSpec> listPartitions(
      ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
    return List.of();
  }

  @Override
  public List<CatalogPartitionSpec> listPartitionsByFilter(
      ObjectPath tablePath, List<Expression> filters) {
    return List.of();
  }

  @Override
  public CatalogPartition getPartition(ObjectPath tablePath, CatalogPartitionSpec partitionSpec)
      throws PartitionNotExistException {
    throw new PartitionNotExistException(getName(), tablePath, partitionSpec);
  }

  @Override
  public boolean partitionExists(ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
    return false;
  }

  @Override
  public void createPartition(
      ObjectPath tablePath,
      CatalogPartitionSpec partitionSpec,
      CatalogPartition partition,
      boolean ignoreIfExists) {
    throw unsupported("partitions", "A Delta table's partitions appear as rows are written.");
  }

  @Override
  public void dropPartition(
      ObjectPath tablePath, CatalogPartitionSpec partitionSpec, boolean ignoreIfNotExists) {
    throw unsupported("partitions", "Delete the partition's rows with a query instead.");
  }

  @Override
  public void alterPartition(
      ObjectPath tablePath,
      CatalogPartitionSpec partitionSpec,
      CatalogPartition newPartition,
      boolean ignoreIfNotExists) {
    throw unsupported("partitions", "A Delta table's partitions appear as rows are written.");
  }

  @Override
  public CatalogTableStatistics getTableStatistics(ObjectPath tablePath) {
    return CatalogTableStatistics.UNKNOWN;
  }

  @Override
  public CatalogColumnStatistics getTableColumnStatistics(ObjectPath tablePath) {
    return CatalogColumnStatistics.UNKNOWN;
  }

  @Override
  public CatalogTableStatistics getPartitionStatistics(
      ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
    return CatalogTableStatistics.UNKNOWN;
  }

  @Override
  public CatalogColumnStatistics getPartitionColumnStatistics(
      ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
    return CatalogColumnStatistics.UNKNOWN;
  }

  @Override
  public void alterTableStatistics(
      ObjectPath tablePath, CatalogTableStatistics tableStatistics, boolean ignoreIfNotExists) {
    throw unsupported("statistics", "Delta keeps per-file statistics in its log.");
  }

  @Override
  public void alterTableColumnStatistics(
      ObjectPath tablePath, CatalogColumnStatistics columnStatistics, boolean ignoreIfNotExists) {
    throw unsupported("statistics", "Delta keeps per-file statistics in its log.");
  }

  @Override
  public void alterPartitionStatistics(
      ObjectPath tablePath,
      CatalogPartitionSpec partitionSpec,
      CatalogTableStatistics partitionStatistics,
      boolean ignoreIfNotExists) {
    throw unsupported("statistics", "Delta keeps per-file statistics in its log.");
  }

  @Override
  public void alterPartitionColumnStatistics(
      ObjectPath tablePath,
      CatalogPartitionSpec partitionSpec,
      CatalogColumnStatistics columnStatistics,
      boolean ignoreIfNotExists) {
    throw unsupported("statistics", "Delta keeps per-file statistics in its log.");
  }
}
