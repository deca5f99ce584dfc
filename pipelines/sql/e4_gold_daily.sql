-- E4 - silver's change data feed -> gold daily totals, in Flink SQL. The SQL twin of
-- `lakestream run gold` (io.lakestream.pipelines.gold.OrdersGoldDaily), reading the silver table
-- e3_silver.sql writes.
--
--   ./bin/lakestream sql -f pipelines/sql/e4_gold_daily.sql
--
-- Embedded defaults: tables and checkpoints under ./lakestream-sql. docker-compose:
-- 's3a://lake/lakehouse-sql/' for 'lakestream-sql/'.
-- On docker-compose this directory is /opt/lakestream/sql in the Flink containers:
--   docker compose exec jobmanager flink run -d /opt/lakestream/lakestream.jar \
--       sql -f /opt/lakestream/sql/e4_gold_daily.sql
-- availableNow: the deterministic nightly replay (reads what silver committed when it starts,
-- then stops; the next run resumes from the checkpoint).
SET 'lakestream.trigger' = 'availableNow';
SET 'lakestream.checkpointLocation' = 'lakestream-sql/_checkpoints/e4_gold_daily';
-- order days are UTC days
SET 'table.local-time-zone' = 'UTC';

-- readChangeFeed: insert +I, update_preimage -U, update_postimage +U, delete -D. Without
-- startingVersion a new query reads silver's snapshot first (as Spark does); 'startingVersion' =
-- '70' would skip history already backfilled.
CREATE TABLE silver_changes (
  order_id STRING NOT NULL,
  amount DECIMAL(12, 2),
  order_ts TIMESTAMP_LTZ(6) NOT NULL
) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/orders_silver',
  'readChangeFeed' = 'true'
);

-- Upserted per day, one MERGE per epoch; a day whose orders all went away is deleted.
CREATE TABLE orders_gold_daily (
  order_date DATE NOT NULL,
  orders BIGINT NOT NULL,
  total_amount DECIMAL(22, 2),
  PRIMARY KEY (order_date) NOT ENFORCED
) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/orders_gold_daily',
  'delta.enableChangeDataFeed' = 'true'
);

-- Inserts and postimages add, preimages and deletes subtract: an update that moves an order to
-- another day moves it between the days' totals; a null amount counts the order, adds nothing.
INSERT INTO orders_gold_daily
SELECT CAST(order_ts AS DATE), COUNT(*), CAST(SUM(COALESCE(amount, 0)) AS DECIMAL(22, 2))
FROM silver_changes
GROUP BY CAST(order_ts AS DATE);

-- Where SQL differs from the Java pipeline: its gold table also has silver_version (the newest
-- silver version applied to the day) and change_rows (change rows applied, never decreasing),
-- audit columns a retracting SQL aggregate cannot keep. The totals are the same.
--
-- E4c, the table_changes('orders_silver', 70, 75) replay, is e4c_table_changes.sql: the same
-- change feed with 'startingVersion' and 'endingVersion' is a bounded read whose change rows are
-- plain rows (what ./bin/lakestream table-changes prints).
