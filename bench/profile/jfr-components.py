#!/usr/bin/env python3
"""Summarises a JFR recording of a bench's lakestream child by component.

Usage: bench/profile/jfr-components.py [--bench e2-bronze|merge] <recording.jfr>

Reads jdk.ExecutionSample (Java frames) and the jdk.NativeMethodSample events whose top frame is
RocksDB's JNI (RocksDB works in native code; other native samples are threads waiting in epoll or
accept and are left out). Each sample counts once.

- e2-bronze (the default): for the first frame from the top of its stack that belongs to a
  component, so JDK frames (String, HashMap, ...) count for the code that called them.
- merge: for the first phase of the MERGE (in the order listed) that any frame of its stack is
  in, so Parquet and JDK frames count for the phase that called them (a change data file's
  Parquet encoding counts as the change data file, not as a data file write).

Prints the share per component, the top frames by self samples, and the split by thread.
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

_MERGE = 'io.lakestream.connectors.delta.merge.'
_BENCH_LOOP = 'io.lakestream.bench.merge.LakestreamMergeMain.run'
BATCH = 'read the epoch\'s batch (the bench loop, outside DeltaMergeCommit)'
MERGE_PHASES = [
    ('change data file (build the rows, encode, write)',
     ['io.lakestream.connectors.delta.DeltaChangeDataWriter']),
    (BATCH, []),
    ('snapshot, log replay and the table\'s file list',
     [_MERGE + 'MergePlanner.files', _MERGE + 'MergeFileIndex', 'io.delta.kernel.internal.replay',
      'io.delta.kernel.internal.snapshot', 'io.delta.kernel.internal.TableImpl',
      'io.lakestream.connectors.delta.DeltaTable.latestSnapshot']),
    ('read and plan the touched files (decode, match keys, apply clauses)',
     [_MERGE + 'MergePlanner', 'io.lakestream.connectors.delta.DeltaDataFileReader']),
    ('write data files (updated, copied and inserted rows)',
     ['io.lakestream.connectors.delta.DeltaTableWriter',
      'io.lakestream.connectors.delta.DeltaParquetFileWriter']),
    ('deletion vectors', ['io.lakestream.connectors.delta.dv.']),
    ('commit (log entry, checkpoint)',
     [_MERGE + 'DeltaMergeCommit.commitPrepared', _MERGE + 'DeltaMergeCommit.checkpointIfDue']),
    ('other MERGE work (key ranges, pruning, tasks)', [_MERGE]),
]
MERGE_OTHER = 'outside the epochs (JVM start, class loading, the checks after the run)'


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


def merge_phase(frames):
    for name, prefixes in MERGE_PHASES:
        if name == BATCH and in_bench_loop_only(frames):
            return name
        if any(frame.startswith(p) for frame in frames for p in prefixes):
            return name
    return MERGE_OTHER


def in_bench_loop_only(frames):
    """The bench loop's own work: its frame is on the stack and what it called is not the MERGE."""
    loop = next((i for i, f in enumerate(frames) if f.startswith(_BENCH_LOOP)), None)
    return loop is not None and (loop == 0 or not frames[loop - 1].startswith(_MERGE))


def e2_thread(thread):
    if thread.startswith('Source: orders'):
        return 'source + parse task'
    return 'dedup + Delta task' if thread.startswith('dropDuplicates') else 'other threads'


def merge_thread(thread):
    if thread.startswith('merge-'):
        return 'the MERGE\'s per-file task threads'
    return 'main thread' if thread == 'main' else 'other threads'


BENCHES = {
    'e2-bronze': (group, [g for g, _ in GROUPS] + [OTHER], e2_thread),
    'merge': (merge_phase, [g for g, _ in MERGE_PHASES] + [MERGE_OTHER], merge_thread),
}


def main():
    args = sys.argv[1:]
    bench = 'e2-bronze'
    if args[:1] == ['--bench']:
        bench, args = args[1], args[2:]
    classify, names, thread_of = BENCHES[bench]
    events = list(samples(args[0]))
    n = len(events)
    by_group = collections.Counter(classify(frames) for _, frames in events)
    print(f'{n} samples\n\n| component | share |\n|---|---:|')
    for name in names:
        print(f'| {name} | {100 * by_group[name] / n:.1f}% |')
    print('\n| self | top frame |\n|---:|---|')
    for frame, count in collections.Counter(f[0] for _, f in events).most_common(12):
        print(f'| {100 * count / n:.1f}% | `{frame}` |')
    threads = collections.Counter(thread_of(t) for t, _ in events)
    print('\nby thread: ' + ', '.join(f'{k} {100 * v / n:.0f}%' for k, v in threads.most_common()))


if __name__ == '__main__':
    main()
