#!/usr/bin/env bash
# Submits the bronze -> silver -> gold pipelines of lakestream.jar to the docker-compose cluster.
# Each 'flink run -d' returns once its job is submitted: the query's runner runs inside the job, on
# the JobManager (progress files under the checkpoint location, lines in the JobManager's log).
set -uo pipefail
jar=/opt/lakestream/lakestream.jar
output=${LAKESTREAM_OUTPUT:-s3://lake/lakehouse}
kafka=${KAFKA_BOOTSTRAP_SERVERS:-kafka:9092}
if [ ! -f "$jar" ]; then
  echo "lakestream: $jar is missing: run 'mvn -DskipTests package' first" >&2
  exit 1
fi

submit() {
  local pipeline=$1
  shift
  FLINK_IDENT_STRING=$pipeline flink run -d -m jobmanager:8081 "$jar" run "$pipeline" "$@" --output "$output"
}

submit bronze -o kafka.bootstrap.servers="$kafka" &
submit silver -o kafka.bootstrap.servers="$kafka" &
# gold reads silver's change data feed: it starts once silver has committed its table.
(
  until submit gold --trigger processingTime=1m; do
    echo "lakestream: gold not started (orders_silver not there yet?); retrying in 30 s" >&2
    sleep 30
  done
) &
wait
