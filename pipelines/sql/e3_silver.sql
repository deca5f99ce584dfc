-- E3 - the main job: Kafka -> silver upsert with a quarantine table, in Flink SQL. The SQL twin of
-- `lakestream run silver` (io.lakestream.pipelines.silver.OrdersSilver, the seed's foreachBatch
-- MERGE): valid orders upserted into orders_silver, every rejected record kept.
--
--   ./bin/lakestream sql -f pipelines/sql/e3_silver.sql
--
-- Embedded defaults: a broker on localhost:9092 with the topic 'orders', tables and checkpoints
-- under ./lakestream-sql. docker-compose: 'kafka.bootstrap.servers' = 'kafka:9092' and
-- 's3a://lake/lakehouse-sql/' for 'lakestream-sql/'.
-- On docker-compose this directory is /opt/lakestream/sql in the Flink containers:
--   docker compose exec jobmanager flink run -d /opt/lakestream/lakestream.jar \
--       sql -f /opt/lakestream/sql/e3_silver.sql
--
-- Exactly once per table: all three tables commit each epoch once, tagged txn(appId, epoch) with
-- the query's app id (a new checkpoint location is a new query with a new app id).
SET 'lakestream.trigger' = 'processingTime=30s';
SET 'lakestream.checkpointLocation' = 'lakestream-sql/_checkpoints/e3_silver';

-- event_id (the deduplication key) and order_ts (the event time) are required: a record without
-- them, or that is no JSON order, is a dead letter. order_id and amount are checked below.
CREATE TABLE orders (
  event_id STRING NOT NULL,
  order_id STRING,
  customer_id STRING,
  amount DECIMAL(12, 2),
  currency STRING,
  order_ts TIMESTAMP_LTZ(3) NOT NULL,
  WATERMARK FOR order_ts AS order_ts - INTERVAL '1' HOUR
) WITH (
  'connector' = 'spark-kafka',
  'kafka.bootstrap.servers' = 'localhost:9092',
  'subscribe' = 'orders',
  'startingOffsets' = 'earliest',
  'format' = 'json',
  'deadLetterTable' = 'lakestream-sql/orders_silver_dead_letters'
);

-- The latest valid version of each order, with the change data feed for gold (e4_gold_daily.sql).
-- The primary key makes the Delta sink apply the query's changes as one MERGE per epoch.
CREATE TABLE orders_silver (
  order_id STRING NOT NULL,
  event_id STRING NOT NULL,
  customer_id STRING,
  amount DECIMAL(12, 2),
  currency STRING,
  order_ts TIMESTAMP_LTZ(6) NOT NULL,
  PRIMARY KEY (order_id) NOT ENFORCED
) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/orders_silver',
  'delta.enableChangeDataFeed' = 'true'
);

-- Every order failing the silver rule, once, with why (the Java pipeline's reasons and messages).
CREATE TABLE orders_silver_quarantine (
  reason STRING NOT NULL,
  error STRING NOT NULL,
  event_id STRING,
  order_id STRING,
  customer_id STRING,
  amount DECIMAL(12, 2),
  currency STRING,
  order_ts TIMESTAMP_LTZ(6)
) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/orders_silver_quarantine'
);

CREATE TEMPORARY VIEW unique_orders AS
SELECT * FROM TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(TABLE orders, DESCRIPTOR(event_id)));

-- MERGE ON s.order_id = t.order_id WHEN MATCHED AND s.order_ts > t.order_ts THEN UPDATE SET *
-- WHEN NOT MATCHED THEN INSERT *: per order the version with the newest order_ts wins, whatever
-- order versions arrive in (an event-time deduplication keeping the last row per order_id).
INSERT INTO orders_silver
SELECT order_id, event_id, customer_id, amount, currency, CAST(order_ts AS TIMESTAMP_LTZ(6))
FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY order_ts DESC) AS newest
  FROM unique_orders
  WHERE order_id IS NOT NULL AND amount >= 0)
WHERE newest = 1;

-- The complement of the rule above, so every row lands in one of the two tables (Spark's
-- "order_id IS NULL OR amount < 0" would lose a null amount).
INSERT INTO orders_silver_quarantine
SELECT
  CASE
    WHEN order_id IS NULL THEN 'MISSING_ORDER_ID'
    WHEN amount IS NULL THEN 'MISSING_AMOUNT'
    ELSE 'NEGATIVE_AMOUNT'
  END,
  CASE
    WHEN order_id IS NULL THEN 'order_id is null: the row has no key'
    WHEN amount IS NULL THEN 'amount is null: amount >= 0 does not hold'
    ELSE 'amount ' || CAST(amount AS STRING) || ' is negative: amount >= 0 does not hold'
  END,
  event_id, order_id, customer_id, amount, currency, CAST(order_ts AS TIMESTAMP_LTZ(6))
FROM unique_orders
WHERE order_id IS NULL OR amount IS NULL OR amount < 0;

-- Where SQL differs from the Java pipeline:
-- * Malformed records go to orders_silver_dead_letters (raw, error, source, rejected_at), not to
--   the quarantine table with reason MALFORMED_RECORD: the Kafka table's decoder writes them.
-- * An event behind the watermark is dropped by the deduplication and counted (the query's
--   progress: stateOperators numRowsDroppedByWatermark), as Spark drops it; the Java pipeline
--   quarantines it as LATE_EVENT.
-- * The quarantine has no epoch column (SQL does not see the epoch).
-- * The newest version of every order is kept in Flink state (the event-time deduplication),
--   where the Java MERGE reads the table instead; 'table.exec.state.ttl' bounds it, at the cost
--   that an older version arriving after the TTL would overwrite a newer one.
