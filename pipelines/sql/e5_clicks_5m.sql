-- E5 - 5-minute tumbling windows per ad, append mode, watermark 10 minutes, in Flink SQL. The SQL
-- twin of `lakestream run clicks` (io.lakestream.pipelines.clicks.AdClicksPerWindow).
--
--   ./bin/lakestream sql -f pipelines/sql/e5_clicks_5m.sql
--
-- Embedded defaults: a broker on localhost:9092 with the topic 'clicks' ({"click_id": ...,
-- "ad_id": ..., "event_time": "<ISO-8601 instant>"}), tables and checkpoints under
-- ./lakestream-sql. docker-compose: 'kafka.bootstrap.servers' = 'kafka:9092' and
-- 's3a://lake/lakehouse-sql/' for 'lakestream-sql/'.
-- On docker-compose this directory is /opt/lakestream/sql in the Flink containers:
--   docker compose exec jobmanager flink run -d /opt/lakestream/lakestream.jar \
--       sql -f /opt/lakestream/sql/e5_clicks_5m.sql
SET 'lakestream.trigger' = 'processingTime=1m';
SET 'lakestream.checkpointLocation' = 'lakestream-sql/_checkpoints/e5_clicks_5m';
SET 'table.local-time-zone' = 'UTC';

CREATE TABLE clicks (
  click_id STRING NOT NULL,
  ad_id STRING NOT NULL,
  event_time TIMESTAMP_LTZ(3) NOT NULL,
  WATERMARK FOR event_time AS event_time - INTERVAL '10' MINUTE
) WITH (
  'connector' = 'spark-kafka',
  'kafka.bootstrap.servers' = 'localhost:9092',
  'subscribe' = 'clicks',
  'startingOffsets' = 'earliest',
  'maxOffsetsPerTrigger' = '200000',
  'format' = 'json',
  'deadLetterTable' = 'lakestream-sql/ad_clicks_dead_letters'
);

-- Append: a window is written once, when the watermark passes its end (state: live keys = ads x
-- windows within the watermark, about 3 windows per ad here).
CREATE TABLE ad_clicks_5m (
  window_start TIMESTAMP_LTZ(6) NOT NULL,
  window_end TIMESTAMP_LTZ(6) NOT NULL,
  ad_id STRING NOT NULL,
  clicks BIGINT NOT NULL
) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/ad_clicks_5m'
);

INSERT INTO ad_clicks_5m
SELECT
  CAST(window_start AS TIMESTAMP_LTZ(6)), CAST(window_end AS TIMESTAMP_LTZ(6)), ad_id, COUNT(*)
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(event_time), INTERVAL '5' MINUTES))
GROUP BY window_start, window_end, ad_id;
