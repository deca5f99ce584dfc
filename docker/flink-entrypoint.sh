#!/usr/bin/env bash
# Entry point of the Flink containers of docker-compose.yml: the repository's flink-conf/config.yaml
# replaces the image's, the Hadoop client and S3A jars (Delta Kernel needs them; the image has no
# Hadoop) go into lib/, then the image's own entry point runs (plugins, FLINK_PROPERTIES, start).
set -euo pipefail
if ! ls /opt/lakestream/hadoop-lib/*.jar > /dev/null 2>&1; then
  echo "lakestream: no jars in testkit/flink-cluster-runtime/target/hadoop-lib: run 'mvn -DskipTests package' first" >&2
  exit 1
fi
cp /opt/lakestream/flink-conf/config.yaml "$FLINK_HOME/conf/config.yaml"
cp /opt/lakestream/hadoop-lib/*.jar "$FLINK_HOME/lib/"
exec /docker-entrypoint.sh "$@"
