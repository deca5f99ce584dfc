#!/usr/bin/env bash
# Writes JSON orders to the Kafka topic 'orders' for docker-compose.yml, about 20 per second: order
# ids repeat (silver MERGEs updates), every 50th event is sent twice (bronze drops the duplicate)
# and every 500th is malformed (it goes to the dead letters and the quarantine).
set -euo pipefail
bootstrap=${KAFKA_BOOTSTRAP_SERVERS:-kafka:9092}
currencies=(EUR USD GBP)
i=0
while true; do
  ts=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  for _ in $(seq 1 20); do
    i=$((i + 1))
    line=$(printf '{"event_id":"e-%d","order_id":"o-%d","customer_id":"c-%d","amount":%d.%02d,"currency":"%s","order_ts":"%s"}' \
      "$i" $((i % 5000)) $((i % 97)) $((i % 400)) $((i % 100)) "${currencies[$((i % 3))]}" "$ts")
    if ((i % 500 == 0)); then line='{"event_id": not json'; fi
    echo "$line"
    if ((i % 50 == 0)); then echo "$line"; fi
  done
  sleep 1
done | /opt/kafka/bin/kafka-console-producer.sh --bootstrap-server "$bootstrap" --topic orders
