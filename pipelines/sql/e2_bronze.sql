-- E2 - Kafka (Amazon MSK) -> Delta bronze with rate limiting and deduplication, in Flink SQL.
-- The SQL twin of `lakestream run bronze` (io.lakestream.pipelines.bronze.OrdersBronze).
--
--   ./bin/lakestream sql -f pipelines/sql/e2_bronze.sql
--
-- Embedded defaults: a broker on localhost:9092 with the topic 'orders' (JSON orders), tables and
-- checkpoints under ./lakestream-sql. docker-compose: 'kafka.bootstrap.servers' = 'kafka:9092'
-- (localhost:29092 from the host) and 's3a://lake/lakehouse-sql/' for 'lakestream-sql/'. Amazon MSK
-- with IAM: port 9098 plus 'kafka.security.protocol' = 'SASL_SSL', 'kafka.sasl.mechanism' =
-- 'AWS_MSK_IAM' (see docs/options/sql-kafka.md).
-- On docker-compose this directory is /opt/lakestream/sql in the Flink containers:
--   docker compose exec jobmanager flink run -d /opt/lakestream/lakestream.jar \
--       sql -f /opt/lakestream/sql/e2_bronze.sql
SET 'lakestream.trigger' = 'processingTime=30s';
SET 'lakestream.checkpointLocation' = 'lakestream-sql/_checkpoints/e2_bronze';

-- from_json with a dead-letter path: a value that is not such an object, has a field of the wrong
-- type, or lacks a NOT NULL field goes to orders_bronze_dead_letters (raw, error,
-- topic/partition@offset), exactly once, never dropped. The watermark is the lateness bound of the
-- deduplication below (Spark's withWatermark("order_ts", "1 hour")).
CREATE TABLE orders (
  event_id STRING NOT NULL,
  order_id STRING NOT NULL,
  customer_id STRING,
  amount DECIMAL(12, 2) NOT NULL,
  currency STRING,
  order_ts TIMESTAMP_LTZ(3) NOT NULL,
  WATERMARK FOR order_ts AS order_ts - INTERVAL '1' HOUR
) WITH (
  'connector' = 'spark-kafka',
  'kafka.bootstrap.servers' = 'localhost:9092',
  'subscribe' = 'orders',
  'startingOffsets' = 'earliest',     -- a new query only; a resumed one uses its checkpoint
  'maxOffsetsPerTrigger' = '500000',  -- ~16,600 msg/s at a 30 s interval
  'failOnDataLoss' = 'true',
  'format' = 'json',
  'deadLetterTable' = 'lakestream-sql/orders_bronze_dead_letters'
);

CREATE TABLE orders_bronze (
  event_id STRING NOT NULL,
  order_id STRING NOT NULL,
  customer_id STRING,
  amount DECIMAL(12, 2),
  currency STRING,
  order_ts TIMESTAMP_LTZ(6)
) PARTITIONED BY (currency) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/orders_bronze'
);

-- dropDuplicatesWithinWatermark(["event_id"]): a key is kept only until the watermark passes its
-- first event time plus the 1-hour delay, so the state stays bounded (Flink SQL's ROW_NUMBER
-- deduplication would keep every key forever).
CREATE TEMPORARY VIEW unique_orders AS
SELECT * FROM TABLE(DROP_DUPLICATES_WITHIN_WATERMARK(TABLE orders, DESCRIPTOR(event_id)));

INSERT INTO orders_bronze
SELECT event_id, order_id, customer_id, amount, currency, CAST(order_ts AS TIMESTAMP_LTZ(6))
FROM unique_orders;

-- Beyond SQL: the Java pipeline's parser also sends a negative amount and a currency longer than
-- 16 characters to the dead letters; here such orders reach the table (a WHERE would drop them
-- silently, and a dead letter is written only by the Kafka table's decoder).
