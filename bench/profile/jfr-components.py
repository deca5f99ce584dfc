#!/usr/bin/env python3
"""Summarises a JFR recording of the e2-bronze lakestream child by component.

Usage: bench/profile/jfr-components.py <recording.jfr>

Reads jdk.ExecutionSample (Java frames) and the jdk.NativeMethodSample events whose top frame is
RocksDB's JNI (RocksDB works in native code; other native samples are threads waiting in epoll or
accept and are left out). Each sample counts once, for the first frame from the top of its stack
that belongs to a component, so JDK frames (String, HashMap, ...) count for the code that called
them. Prints the share per component, the top frames by self samples, and the split by task.
Record with, for example:

  BENCH_CHILD_JAVA_OPTS="-Xmx2g -XX:StartFlightRecording=filename=/tmp/{child}.jfr,settings=profile,jdk.ExecutionSample#period=2ms,jdk.NativeMethodSample#period=2ms,dumponexit=true" ./bin/bench e2-bronze
"""
import collections
import re
import subprocess
import sys

GROUPS = [
    ('Kafka fetch / deserialize',
     ['org.apache.kafka', 'io.lakestream.connectors.kafka', 'io.lakestream.pipelines.KafkaRecordValue']),
    ('JSON parse (Jackson, OrderJson, UTF-8 check)',
     ['com.fasterxml.jackson', 'io.lakestream.pipelines.demo.OrderJson', 'io.lakestream.operators.parse.']),
    ('dedup state (RocksDB incl. native, dedup operator)',
     ['org.rocksdb.', 'io.lakestream.operators.dedup', 'org.apache.flink.contrib.streaming.state',
      'org.apache.flink.runtime.state.', 'org.apache.flink.state.']),
    ('serialization between operators (keyBy exchange)',
     ['org.apache.flink.api.common.typeutils', 'org.apache.flink.api.java.typeutils',
      'org.apache.flink.runtime.io.network', 'org.apache.flink.streaming.runtime.io.RecordWriterOutput',
      'org.apache.flink.runtime.plugable', 'org.apache.flink.core.memory',
      'org.apache.flink.streaming.runtime.streamrecord', 'org.apache.flink.types.StringValue',
      'io.lakestream.pipelines.demo.OrderSerializer', 'io.lakestream.operators.row.',
      'org.apache.flink.streaming.runtime.partitioner']),
    ('Flink task loop / operator chain',
     ['org.apache.flink.streaming.runtime.tasks', 'org.apache.flink.streaming.api.operators',
      'org.apache.flink.streaming.runtime.io', 'org.apache.flink.streaming.runtime.watermarkstatus',
      'io.lakestream.operators.watermark']),
    ('Parquet / Delta write',
     ['org.apache.parquet', 'shaded.parquet', 'io.lakestream.connectors.delta', 'io.delta.',
      'org.apache.hadoop', 'io.lakestream.pipelines.demo.OrdersDemo.toDeltaRow']),
]
OTHER = 'other (start-up, class loading, Flink runtime, JDK)'


def samples(path):
    text = subprocess.run(
        ['jfr', 'print', '--events', 'jdk.ExecutionSample,jdk.NativeMethodSample', '--stack-depth',
         '80', path], check=True, capture_output=True, text=True).stdout
    for block in text.split('\njdk.')[0:]:
        kind = 'native' if block.lstrip().startswith('NativeMethodSample') else 'java'
        thread = re.search(r'sampledThread = "(.*)" \(', block)
        frames = [re.sub(r'\(.*$', '', line.strip()) for line in block.splitlines()
                  if re.match(r'^\s+[\w$.<>/]+\(.*\)( line: \d+)?', line)]
        if not frames or (kind == 'native' and not frames[0].startswith('org.rocksdb.')):
            continue
        yield (thread.group(1) if thread else ''), frames


def group(frames):
    for frame in frames:
        for name, prefixes in GROUPS:
            if any(frame.startswith(p) for p in prefixes):
                return name
    return OTHER


def main():
    events = list(samples(sys.argv[1]))
    n = len(events)
    by_group = collections.Counter(group(frames) for _, frames in events)
    print(f'{n} samples\n\n| component | share |\n|---|---:|')
    for name in [g for g, _ in GROUPS] + [OTHER]:
        print(f'| {name} | {100 * by_group[name] / n:.1f}% |')
    print('\n| self | top frame |\n|---:|---|')
    for frame, count in collections.Counter(f[0] for _, f in events).most_common(12):
        print(f'| {100 * count / n:.1f}% | `{frame}` |')
    tasks = collections.Counter(
        'source + parse task' if t.startswith('Source: orders') else
        'dedup + Delta task' if t.startswith('dropDuplicates') else 'other threads'
        for t, _ in events)
    print('\nby thread: ' + ', '.join(f'{k} {100 * v / n:.0f}%' for k, v in tasks.most_common()))


if __name__ == '__main__':
    main()
