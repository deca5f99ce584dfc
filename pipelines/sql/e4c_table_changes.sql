-- E4c - the batch replay / audit of silver's change data feed, in Flink SQL: Databricks'
--   SELECT * FROM table_changes('orders_silver', 70, 75)
-- or spark.read.option("readChangeFeed", "true").option("startingVersion", 70)
-- .option("endingVersion", 75), over the silver table e3_silver.sql writes. Every change row of
-- versions 70 to 75 (inclusive) is written, as a plain row, to a Delta table for the audit:
-- inserts, update pre- and postimages and deletes, with _change_type, _commit_version and
-- _commit_timestamp. The query reads the range and ends.
--
--   ./bin/lakestream sql -f pipelines/sql/e4c_table_changes.sql
--
-- The range must be in silver's history and have the change data feed enabled at every version:
-- otherwise the statement fails before anything runs (DELTA_INVALID_VERSION_RANGE names the latest
-- version; DELTA_CHANGE_DATA_FEED_NOT_ENABLED the version). Set the two versions to yours, or print
-- the range without writing it: ./bin/lakestream table-changes --table lakestream-sql/orders_silver
-- --starting-version 70 --ending-version 75. Run once per range: a second run on this checkpoint
-- reads nothing (the finished read is in its state); for another range use another checkpoint
-- location and table.
--
-- Embedded defaults: tables and checkpoints under ./lakestream-sql. docker-compose:
-- 's3a://lake/lakehouse-sql/' for 'lakestream-sql/'.
-- On docker-compose this directory is /opt/lakestream/sql in the Flink containers:
--   docker compose exec jobmanager flink run -d /opt/lakestream/lakestream.jar \
--       sql -f /opt/lakestream/sql/e4c_table_changes.sql
-- availableNow: the query reads the range, then stops.
SET 'lakestream.trigger' = 'availableNow';
SET 'lakestream.checkpointLocation' = 'lakestream-sql/_checkpoints/e4c_table_changes_70_75';
SET 'table.local-time-zone' = 'UTC';

-- The change feed's columns are metadata columns of the silver table.
CREATE TABLE orders_silver (
  order_id STRING NOT NULL,
  customer_id STRING,
  amount DECIMAL(12, 2),
  order_ts TIMESTAMP_LTZ(6) NOT NULL,
  _change_type STRING METADATA VIRTUAL,
  _commit_version BIGINT METADATA VIRTUAL,
  _commit_timestamp TIMESTAMP_LTZ(6) METADATA VIRTUAL
) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/orders_silver'
);

CREATE TABLE orders_silver_changes_70_75 (
  order_id STRING NOT NULL,
  customer_id STRING,
  amount DECIMAL(12, 2),
  order_ts TIMESTAMP_LTZ(6) NOT NULL,
  _change_type STRING NOT NULL,
  _commit_version BIGINT NOT NULL,
  _commit_timestamp TIMESTAMP_LTZ(6) NOT NULL
) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/orders_silver_changes_70_75'
);

-- readChangeFeed with endingVersion is a bounded read of the range; each change row is a plain
-- insert, so it can go to an append table (the streaming change feed, without endingVersion, is a
-- changelog instead: see e4_gold_daily.sql).
INSERT INTO orders_silver_changes_70_75
SELECT order_id, customer_id, amount, order_ts, _change_type, _commit_version, _commit_timestamp
FROM orders_silver
  /*+ OPTIONS('readChangeFeed' = 'true', 'startingVersion' = '70', 'endingVersion' = '75') */;
