-- E1 - Auto Loader bronze in Flink SQL: JSON files landing in a directory -> the Delta table
-- orders_bronze_files, each file read once per query. The SQL twin of `lakestream run bronze-files`
-- (io.lakestream.pipelines.autoloader.OrdersBronzeFromFiles).
--
--   ./bin/lakestream sql -f pipelines/sql/e1_bronze_files.sql
--
-- Embedded defaults: files under ./lakestream-sql/landing/orders (date=YYYY-MM-DD/ directories),
-- tables and checkpoints under ./lakestream-sql. docker-compose: replace 'lakestream-sql/' by
-- 's3a://lake/lakehouse-sql/' (the minio bucket; the cluster's config.yaml has its s3.* settings)
-- and point 'path' at your landing prefix, e.g. 's3a://lake/landing/orders'.
-- On docker-compose this directory is /opt/lakestream/sql in the Flink containers:
--   docker compose exec jobmanager flink run -d /opt/lakestream/lakestream.jar \
--       sql -f /opt/lakestream/sql/e1_bronze_files.sql
--
-- The seed's three trigger shapes are one setting (the command line's --trigger wins):
--   A. default trigger - fastest to write, most expensive to operate: no SET 'lakestream.trigger'
--      (commits as often as possible; lakestream warns that it is for prototyping)
--   B. fixed interval - the cost-balancing production default:
--      SET 'lakestream.trigger' = 'processingTime=10s';
--   C. available-now as a scheduled job - the cheapest shape for hourly arrival:
SET 'lakestream.trigger' = 'availableNow';
SET 'lakestream.checkpointLocation' = 'lakestream-sql/_checkpoints/e1_bronze_files';

-- The landing files. The schema is inferred once and kept in cloudFiles.schemaLocation; the
-- declared columns pick from it by name and type. Where the Java pipeline adds a column the files
-- gain to the table (mergeSchema), a SQL table keeps the columns it declares: with
-- schemaEvolutionMode 'rescue' such a field lands in _rescued_data instead, so nothing is lost.
CREATE TABLE landing (
  order_id BIGINT,
  customer STRING,
  amount DOUBLE,
  `date` STRING,
  _rescued_data STRING
) WITH (
  'connector' = 'cloudFiles',
  'path' = 'lakestream-sql/landing/orders',
  'cloudFiles.format' = 'json',
  'cloudFiles.schemaLocation' = 'lakestream-sql/_schemas/orders_bronze_files',
  'cloudFiles.inferColumnTypes' = 'true',
  'cloudFiles.schemaEvolutionMode' = 'rescue',
  'cloudFiles.partitionColumns' = 'date',
  'cloudFiles.maxFilesPerTrigger' = '1000'
);

-- Exactly once per epoch: each epoch is one Delta version tagged txn(appId, epoch).
CREATE TABLE orders_bronze_files (
  order_id BIGINT,
  customer STRING,
  amount DOUBLE,
  `date` STRING,
  _rescued_data STRING
) WITH (
  'connector' = 'delta',
  'path' = 'lakestream-sql/orders_bronze_files'
);

INSERT INTO orders_bronze_files SELECT * FROM landing;
