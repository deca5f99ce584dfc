-- E7 - a SQL-native streaming table feeding a scheduled dashboard: orders and revenue per 5
-- minutes from the bronze orders e2_bronze.sql writes.
--
--   ./bin/lakestream sql refresh orders_5m -f pipelines/sql/e7_orders_5m.sql   (one refresh)
--   StreamingTableRefresh.of(script, "orders_5m").startSchedule()              (on the schedule)
--
-- The table lives in the Delta catalog below: ./lakestream-sql/warehouse/gold/orders_5m, its
-- refreshes' checkpoint in orders_5m/_checkpoints/streaming_table. Each refresh is an availableNow
-- query: it appends the windows the watermark closed since the last one, then stops. The schedule
-- starts refreshes at least 5 minutes apart (1 minute is the least it takes, as in Databricks).
-- docker-compose: 's3a://lake/lakehouse-sql/' for 'lakestream-sql/'.
-- On docker-compose this directory is /opt/lakestream/sql in the Flink containers:
--   docker compose exec jobmanager flink run -d /opt/lakestream/lakestream.jar \
--       sql refresh orders_5m -f /opt/lakestream/sql/e7_orders_5m.sql
CREATE CATALOG lake WITH ('type' = 'delta', 'warehouse' = 'lakestream-sql/warehouse');
USE CATALOG lake;
CREATE DATABASE IF NOT EXISTS gold;
SET 'table.local-time-zone' = 'UTC';

-- The bronze orders as a stream, with the watermark the windows need (a window is appended once
-- the watermark passes its end). Unlike Spark's, which moves once per micro-batch, this watermark
-- follows the rows as they are read, and one bronze version's files (one per currency) are read
-- one after the other: keep the delay above the event-time span of a bronze epoch (about its
-- trigger interval), or rows of the second file would be late.
CREATE TEMPORARY TABLE bronze_orders (
  event_id STRING,
  amount DECIMAL(12, 2),
  order_ts TIMESTAMP_LTZ(6),
  event_time AS CAST(order_ts AS TIMESTAMP_LTZ(3)),
  WATERMARK FOR event_time AS event_time - INTERVAL '10' MINUTE
) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/orders_bronze'
);

-- The seed's statement; Databricks' window(event_time, '5 minutes') is Flink's TUMBLE.
CREATE OR REFRESH STREAMING TABLE gold.orders_5m
TRIGGER ON UPDATE AT MOST EVERY INTERVAL 5 MINUTES AS
SELECT
  CAST(window_start AS TIMESTAMP_LTZ(6)) AS window_start,
  CAST(window_end AS TIMESTAMP_LTZ(6)) AS window_end,
  COUNT(*) AS orders,
  SUM(amount) AS revenue
FROM TABLE(TUMBLE(TABLE STREAM(bronze_orders), DESCRIPTOR(event_time), INTERVAL '5' MINUTES))
GROUP BY window_start, window_end;
